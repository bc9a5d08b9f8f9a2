"""Values of shell words: what a word expands to where it is used, as written, and where it is in the file.

An :class:`Expander` serves one run of a session (one text and the texts nested in it, one source map): it
turns a :class:`~ascend_reflint.extract.shell.words.Word` into a :class:`Value` with the file span of the
word (quotes around it excluded), splits unquoted expansions into fields, and explains a variable that the
file shows empty where it is used (RL012). :class:`Expanded` finds the parts of a word in its expanded text
(``git+$URL@v1``) and maps them back to where they are written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.words import Word
from ascend_reflint.model import Origin, Resolution, Span
from ascend_reflint.resolve import Element, Locate, Provenance, Scope, expand, referenced_names
from ascend_reflint.sourcemap import SourceMap


@dataclass(slots=True)
class Value:
    """A word after expansion: its value (None when not known statically), as written, and where.

    ``provenance`` says where the value is written when that is not the word itself: the definition of
    the variable that the word is (``$TAG`` after ``TAG=v1``), see :class:`ascend_reflint.resolve.Expansion`;
    ``empty_because`` why an empty value is empty for good (``resolve.Binding.empty_because``).
    """

    value: str | None
    written: str
    span: Span
    resolution: Resolution = Resolution.RESOLVED
    note: str | None = None
    provenance: Provenance | None = None
    empty_because: str | None = None

    @property
    def origin(self) -> Origin | None:
        """Where the value is written when not here (:attr:`ascend_reflint.model.Pin.ref_origin`)."""
        return self.provenance.origin if self.provenance is not None else None


def assigned_provenance(word: Word, value: Value, path: str) -> Provenance | None:
    """Where the value that ``word`` (of the file ``path``) assigns to a variable is written: the word
    itself when nothing in it is expanded, else where its one expansion's value is (or None)."""
    if value.value is None:
        return None
    if word.is_literal and word.provenance is None:
        return Provenance.written(path, value.span, value.value)
    return value.provenance


def empty_ref(ref: Value) -> Value:
    """Mark a ref whose value is empty: EMPTY when written as nothing (``--branch ""``, ``git+URL@``) or
    when a variable that the file sets to nothing for good expands to it (``REF=`` before ``--branch
    "$REF"``); UNRESOLVED when the empty value is a default that the caller may replace (``ARG REF=""``,
    ``${REF:-}``): it must come from outside the file. Returns ``ref``."""
    if ref.value != "" or ref.resolution is not Resolution.RESOLVED:
        return ref
    if ref.written == "":
        ref.resolution, ref.note = Resolution.EMPTY, "the ref is empty"
    elif ref.empty_because is not None:
        ref.value, ref.resolution, ref.note = None, Resolution.EMPTY, ref.empty_because
    else:
        ref.value, ref.resolution = None, Resolution.UNRESOLVED
        ref.note = f"{ref.written} is empty here, so it must come from outside the file"
    return ref


def combined(*values: Value | None) -> tuple[Resolution, str | None]:
    """The resolution of a pin from its ref and URL (in that order): EMPTY first, then UNRESOLVED.

    EMPTY wins because it is a finding of its own (RL012) whatever else is unknown.
    """
    for wanted in (Resolution.EMPTY, Resolution.UNRESOLVED):
        for value in values:
            if value is not None and value.resolution is wanted:
                return wanted, value.note
    return Resolution.RESOLVED, None


class Expander:
    """Words to values and file spans, for the texts of one run (whose offsets ``source_map`` maps) of the
    file ``path``."""

    __slots__ = ("path", "source_map")

    def __init__(self, source_map: SourceMap, path: str) -> None:
        self.source_map = source_map
        self.path = path

    def line(self, text: Text, offset: int) -> int:
        """The file line of ``text``'s character at ``offset``."""
        return self.source_map.position(text.root(offset))[0]

    def span(self, text: Text, start: int, end: int) -> Span:
        """The file span of ``text``'s characters ``[start, end)`` (one character at least)."""
        end = max(end, start + 1)
        return self.source_map.span(text.root(start), text.root(end - 1) + 1)

    @staticmethod
    def word(nodes: Node | list[Node], text: Text) -> Word:
        """The word that a node (or a run of touching nodes, see :func:`.words.word_runs`) is."""
        first, last = (nodes[0], nodes[-1]) if isinstance(nodes, list) else (nodes, nodes)
        start = first.start_byte
        return Word.parse(text.text[start : last.end_byte], start)

    def expand(self, word: Word, text: Text, scope: Scope) -> Value:
        """The value of ``word`` of ``text`` with the variables of ``scope``, as written and where."""
        if word.at is not None:  # an array element: it is where it is written
            if not word.is_literal:
                note = (
                    word.unknown_because
                    or f"{word.display} is an element whose value is not known statically"
                )
                return Value(None, word.written(), word.at.origin.span, Resolution.UNRESOLVED, note)
            provenance = word.provenance
            if provenance is not None and provenance.origin == word.at.origin:
                provenance = None
            return Value(word.display, word.written(), word.at.origin.span, provenance=provenance)
        start, end = word.bounds()
        span = self.span(text, start, end)
        if word.is_literal:
            return Value(word.display, word.written(), span, provenance=word.provenance)
        shell_text, indices = word.shell_text()
        names = referenced_names(shell_text)
        hinted = scope.hinted(names, lambda name: self._empty_note(name, start, text))
        expansion = expand(shell_text, hinted, locate=self._locator(word, text, shell_text, indices))
        if expansion.empty_because is not None and any(_tests_emptiness(name, text.text) for name in names):
            # a knob left empty on purpose (REF= … if [ -n "$REF" ]; then …): used only once it is set
            note = f"{expansion.empty_because} and the script tests whether it is set"
            return Value(None, word.written(), span, Resolution.UNRESOLVED, note)
        return Value(
            expansion.value,
            word.written(),
            span,
            expansion.resolution,
            expansion.note,
            expansion.provenance,
            expansion.empty_because,
        )

    def _locator(self, word: Word, text: Text, shell_text: str, indices: list[int]) -> Locate:
        """Where the characters of ``word``'s :meth:`~.Word.shell_text` (whose ``display`` indices are
        ``indices``) are written in the file: the default of ``${REF:-v1}``, that a fix edits."""

        def locate(start: int, end: int) -> Provenance | None:
            begin, stop = word.offsets[indices[start]], word.offsets[indices[end - 1]] + 1
            span = self.span(text, word.start + begin, word.start + stop)
            return Provenance.written(self.path, span, shell_text[start:end])

        return locate

    def fields(self, words: list[Word], text: Text, scope: Scope) -> list[Word]:
        """Split unquoted expansions whose value holds blanks (``$GIT_ARGS``) into several words, and
        ``"${A[@]}"`` into a word per element of array A (unquoted, each element split further)."""
        result: list[Word] = []
        for word in words:
            found = _all_elements(word, scope)
            if found is not None:
                elements, name = found
                quoted = word.raw.startswith('"')
                for index, element in enumerate(elements):
                    # $@: the arguments of a call, read where the function uses them; ${A[@]}: where written
                    if name is None:
                        whole = Word.field(word, element)
                    else:
                        whole = Word.element(element, f"{name}[{index}]")
                    parts = [(0, len(whole.display))] if quoted else _fields_of(whole.display)
                    result.extend(whole.sub(start, end) for start, end in parts)
                continue
            if not word.is_literal and not any(quote in word.raw for quote in "\"'") and word.offsets:
                expanded = self.expand(word, text, scope)
                value = expanded.value
                if value is not None and len(value.split()) > 1:
                    result.extend(Word.fields(word, value, expanded.provenance))
                    continue
            result.append(word)
        return result

    def command_name(self, word: Word, text: Text, scope: Scope) -> str | None:
        """The name a command word runs (``/usr/bin/git`` → ``git``), or None when not known statically."""
        if word.is_literal:
            value: str | None = word.display
        else:
            value = self.expand(word, text, scope).value
        fields = value.split() if value else []
        return fields[0].rsplit("/", 1)[-1] if fields else None

    def _empty_note(self, name: str, offset: int, text: Text) -> str | None:
        """Why ``name``, unset where ``offset`` uses it, is empty there (RL012), or None when unknown."""
        assigned, commented = text.prescan()
        first = assigned.get(name)
        if first is not None:
            if first > offset:
                return f"${name} is used before it is assigned on line {self.line(text, first)}"
            return None
        if name in commented:
            return (
                f"${name} is only assigned on a commented-out line (line {self.line(text, commented[name])})"
            )
        return None


def _tests_emptiness(name: str, script: str) -> bool:
    """Whether ``script`` tests whether variable ``name`` is empty (``-n "$REF"``, ``-z $REF``,
    ``[ "$REF" ]``, ``${REF:+…}``): a variable set to nothing that the script tests is a knob, used only
    when it is set."""
    reference = rf"[\"']?\$(?:\{{{re.escape(name)}\}}|{re.escape(name)}(?!\w))[\"']?"
    tests = (
        rf"-[nz]\s+{reference}",
        rf"\[\[?\s+!?\s*{reference}\s+\]",
        rf"\$\{{{re.escape(name)}:?\+",
    )
    return any(re.search(pattern, script) for pattern in tests)


#: ``${A[@]}`` (also ``$@``, ``${@}``), quoted or not: every element of an array.
_ALL_ELEMENTS = re.compile(r"\$(?:\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[@\]\}|(?P<at>@)|\{(?P<braced_at>@)\})")
_FIELD = re.compile(r"\S+")


def _all_elements(word: Word, scope: Scope) -> tuple[tuple[Element, ...], str | None] | None:
    """The elements that ``word`` expands to when it is exactly ``${A[@]}`` or ``$@`` of a known array, and
    the array's name (None for the positional parameters, ``$@``), or None."""
    if not word.display.startswith("$") or word.literal[:1] != [False]:
        return None
    match = _ALL_ELEMENTS.fullmatch(word.display)
    if match is None or any(word.literal):
        return None
    name = match.group("name")
    binding = scope.get(name or "@")
    elements = binding.elements if binding is not None else None
    return None if elements is None else (elements, name)


def _fields_of(value: str) -> list[tuple[int, int]]:
    """Where the fields of an unquoted value are (split at blanks)."""
    return [match.span() for match in _FIELD.finditer(value)]


class Expanded:
    """A word with each expansion replaced by its value where known, so that its parts can be found in
    values (``pip install $PKG``, ``git+$URL@v1``) and mapped back to where they are written.

    ``text[i]`` comes from the word's piece ``owner[i]`` (a literal character or a whole expansion);
    ``known[i]`` is False for the characters of an expansion that has no static value (they are its text
    as written and never count as separators).
    """

    pieces: list[tuple[int, int, bool]]
    text: str
    known: list[bool]
    owner: list[int]
    starts: list[int]

    def __init__(self, expander: Expander, word: Word, source: Text, scope: Scope) -> None:
        self.expander, self.word, self.source, self.scope = expander, word, source, scope
        if word.is_literal:  # most requirements: each character is a piece of its own, and known
            size = len(word.literal)
            self.pieces = [(index, index + 1, True) for index in range(size)]
            self.text = word.display[:size]
            self.known = [True] * size
            self.owner = list(range(size))
            self.starts = list(range(size + 1))
            return
        self.pieces = word.pieces()
        chars: list[str] = []
        self.known, self.owner, self.starts = [], [], []
        for index, (start, end, literal) in enumerate(self.pieces):
            self.starts.append(len(chars))
            if literal:
                value: str | None = word.display[start:end]
            else:
                value = expander.expand(word.sub(start, end), source, scope).value
            piece = value if value is not None else word.display[start:end]
            chars.extend(piece)
            self.known.extend([value is not None] * len(piece))
            self.owner.extend([index] * len(piece))
        self.starts.append(len(chars))
        self.text = "".join(chars)

    def vanished_after(self, index: int) -> Value | None:
        """The expansions written just after the piece of ``text[index]`` that expand to nothing (``$REF`` in
        ``git+URL@$REF`` when ``$REF`` is empty), as one value; None when nothing is written there."""
        first = self.owner[index] + 1
        last = self.owner[index + 1] if index + 1 < len(self.owner) else len(self.pieces)
        if first >= last:
            return None
        written = self.word.sub(self.pieces[first][0], self.pieces[last - 1][1])
        return self.expander.expand(written, self.source, self.scope)

    def value(self, start: int, end: int) -> Value:
        """The part ``text[start:end]``: its value, and the written pieces it comes from."""
        first, last = self.owner[start], self.owner[end - 1]
        written = self.word.sub(self.pieces[first][0], self.pieces[last][1])
        value = self.expander.expand(written, self.source, self.scope)
        aligned = self.starts[first] == start and self.starts[last + 1] == end
        if not aligned and value.value is not None:  # part of one expansion's value
            whole = len(value.value)
            value.value = self.text[start:end]
            if value.provenance is not None:
                offset = start - self.starts[first]
                value.provenance = value.provenance.part(offset, offset + end - start, whole)
        return value
