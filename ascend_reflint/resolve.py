"""Resolve variables in refs and URLs: the values a recipe gives them, statically, never guessed.

The expansion forms follow the POSIX shell's "Parameter Expansion" (``$V``, ``${V}``, ``${V:-d}``,
``${V-d}``, ``${V:+x}``, ``${V+x}``), which Docker's ARG/ENV substitution also implements (Dockerfile
reference, "Environment replacement"). Anything else that computes a value at run time (``$(cmd)``,
backticks, ``${{ expr }}`` in GitHub workflows, positional parameters, pattern operators) stays unresolved.

Word expansion ends with quote removal (POSIX "Word Expansions"): :func:`unquote` is the one reader of shell
quoting, and :func:`expansion_end` and :func:`closing_bracket` the one scanner for where an expansion ends,
for the shell extractor's words, for :func:`expand`, and for the Dockerfile reader's heredoc names.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from ascend_reflint.model import CallSite, Origin, Pin, Resolution, Span

#: The longest value, in characters, that a variable may expand to before it is left unresolved: far over
#: any ref, URL or list of options, far under what a file that doubles a value on each line
#: (``A = $(A)$(A)``, 32 lines) would otherwise make (4 GiB).
MAX_VALUE_LENGTH = 64 * 1024


class Provenance(NamedTuple):
    """Where a value is written: the definition that a fix would edit (:class:`~ascend_reflint.model.Origin`).

    Attributes:
        origin: the file and the span of the value as written there (quotes around it excluded).
        verbatim: the text at ``origin.span`` is the value itself, character for character, on one line (no
            quotes or escapes inside), so that a part of the value is at the same offsets (:meth:`part`).
    """

    origin: Origin
    verbatim: bool

    @classmethod
    def written(cls, path: str, span: Span, value: str) -> Provenance | None:
        """The provenance of ``value``, written at ``span`` of ``path`` (None for an empty value, which has
        no text to edit). Verbatim when the span is on one line and exactly as wide as the value: quotes
        and escapes inside a written value only ever make it wider than its value."""
        if not value:
            return None
        verbatim = span.line == span.end_line and span.end_column - span.column == len(value)
        return cls(Origin(path, span), verbatim)

    def part(self, start: int, end: int, size: int) -> Provenance | None:
        """Where the characters ``[start, end)`` of the value (``size`` characters long) are written: all
        of it for the whole value, a narrower span of a verbatim value, else None."""
        if (start, end) == (0, size):
            return self
        if not self.verbatim or not 0 <= start < end <= size:
            return None
        span = self.origin.span
        narrow = Span(span.line, span.column + start, span.line, span.column + end)
        return Provenance(Origin(self.origin.path, narrow), True)


def origin_of(provenance: Provenance | None) -> Origin | None:
    """``provenance.origin``, or None."""
    return provenance.origin if provenance is not None else None


class Binding(NamedTuple):
    """A variable's value at one point of a recipe.

    Attributes:
        value: the value, or None when it is not known statically (``ARG X`` with no default).
        resolution: RESOLVED when ``value`` is known; UNRESOLVED or EMPTY otherwise.
        note: why the value is not known, for messages.
        provenance: where the value is written, when one definition holds all of it (``X=v1``; ``Y=$X``
            copies X's); None when it is computed, joined from several places, or given on reflint's command
            line.
        empty_because: for an empty value that nothing outside the file replaces (``REF=`` in a script,
            ``ENV REF=""``, a workflow ``env:`` entry), why it is empty ("$REF is set to nothing on line
            2"): a pin that uses it is empty (RL012). None for a value that is not empty, or is a default
            that the build's caller may replace (an ``ARG``'s, a workflow input's, ``${REF:-}``).
    """

    value: str | None
    resolution: Resolution = Resolution.RESOLVED
    note: str | None = None
    provenance: Provenance | None = None
    elements: tuple[Element, ...] | None = None
    empty_because: str | None = None

    @classmethod
    def array(cls, elements: tuple[Element, ...]) -> Binding:
        """An indexed array (bash(1) "Arrays"); its plain value (``$A``) is its first element's."""
        first = elements[0].binding if elements else cls("")
        return cls(first.value, first.resolution, first.note, first.provenance, elements)


class Element(NamedTuple):
    """One element of an array: its value, and where it is written (an element of ``A=(…)``).

    Attributes:
        binding: the element's value and provenance (``A=($X)`` copies X's).
        written: the element as written (quotes around it excluded).
        at: where it is written: the span a pin that the element gives is reported at (``pip install
            "${DEPS[@]}"`` installs each element, each a pin where the element is written).
    """

    binding: Binding
    written: str
    at: Origin


def element_note(label: str, element: Element) -> str:
    """Why the array element that a script names ``label`` (``REFS[1]``) has no static value, as a note:
    what it is written as, and why that is not known (``REFS[1] is $X: $X is not set in this file``); an
    element copied from another array says which (``a[1], from REFS[1], is $X: …``)."""
    why = element.binding.note or "its value is not known statically"
    copied = re.match(rf"(\w+\[-?\d+\]) is {re.escape(element.written)}: ", why)
    if copied is not None:
        return f"{label}, from {copied.group(1)}, is {element.written}: {why[copied.end() :]}"
    return f"{label} is {element.written}: {why}"


class Expansion(NamedTuple):
    """The result of expanding a word: its value when resolved, else None and why.

    ``provenance`` is set when the word is exactly one expansion (``$TAG``, ``"${TAG}"``, ``${TAG:-v1}``
    with TAG set, ``${TAG:-$DEFAULT}`` with TAG unset) whose value has a provenance: nothing of the value
    is then written in the word itself. ``empty_because`` is set when the value is empty and every
    expansion in the word is a variable that the file sets to nothing for good
    (:attr:`Binding.empty_because`).
    """

    value: str | None
    resolution: Resolution = Resolution.RESOLVED
    note: str | None = None
    provenance: Provenance | None = None
    empty_because: str | None = None


class Scope:
    """The variables visible at one point, with an optional parent (workflow → job → step).

    ``hints`` name variables that the file shows to be empty at this point (assigned only later, only in
    another build stage, only on a commented-out line): an unset variable with a hint expands as EMPTY,
    one without as UNRESOLVED.
    """

    __slots__ = ("_frame", "_hints", "_parent", "_vars")

    def __init__(self, parent: Scope | None = None, frame: bool = False) -> None:
        self._parent = parent
        self._vars: dict[str, Binding] = {}
        self._hints: dict[str, str] = {}
        self._frame = frame

    def set(self, name: str, binding: Binding) -> None:
        """Bind ``name`` in this scope (shadows any parent's binding)."""
        self._vars[name] = binding

    def assign(self, name: str, binding: Binding) -> None:
        """Bind ``name`` as a shell assignment without ``local`` does: in the innermost function frame
        that made it local, else in the shell's own scope (bash(1) "FUNCTIONS": variables are global unless
        declared local; a function sees its callers' locals)."""
        scope = self
        while scope._frame and name not in scope._vars and scope._parent is not None:
            scope = scope._parent
        scope._vars[name] = binding

    def frame(self) -> Scope:
        """A function call's frame: its positional parameters and ``local`` variables, over this scope."""
        return Scope(self, frame=True)

    def innermost_frame(self) -> Scope | None:
        """The frame of the function running here (:meth:`frame`), or None outside functions."""
        scope: Scope | None = self
        while scope is not None and not scope._frame:
            scope = scope._parent
        return scope

    def get(self, name: str) -> Binding | None:
        """The binding of ``name`` here or in a parent, or None when unset."""
        scope: Scope | None = self
        while scope is not None:
            found = scope._vars.get(name)
            if found is not None:
                return found
            scope = scope._parent
        return None

    def hint_empty(self, name: str, note: str) -> None:
        """Record that the file shows ``name`` empty at this point, and why (shown in RL012's message)."""
        self._hints[name] = note

    def empty_hint(self, name: str) -> str | None:
        """The note given to :meth:`hint_empty` for ``name`` here or in a parent, or None."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope._hints:
                return scope._hints[name]
            scope = scope._parent
        return None

    def hinted(self, names: Iterable[str], why_empty: Callable[[str], str | None]) -> Scope:
        """This scope, or a child of it that hints (:meth:`hint_empty`) each of ``names`` that is unset here
        and that ``why_empty`` explains (returns the note, or None when the file does not show it empty)."""
        hinted: Scope | None = None
        for name in names:
            if self.get(name) is not None:
                continue
            note = why_empty(name)
            if note is not None:
                hinted = hinted or self.child()
                hinted.hint_empty(name, note)
        return hinted or self

    def child(self) -> Scope:
        """A new scope whose lookups fall back to this one."""
        return Scope(self)

    def copy(self) -> Scope:
        """A flat copy with the same bindings, parents included, that can change independently."""
        flat = Scope()
        chain: list[Scope] = []
        scope: Scope | None = self
        while scope is not None:
            chain.append(scope)
            scope = scope._parent
        for link in reversed(chain):
            flat._vars.update(link._vars)
            flat._hints.update(link._hints)
        return flat


#: Characters that make a word more than its literal text (quotes, escapes, expansions).
_SPECIAL = re.compile(r"[\\'\"$`]")
#: The characters that may be more than themselves inside double quotes.
_DOUBLE_QUOTED_SPECIAL = re.compile(r"[\\\"$`]")


def unquote(raw: str) -> tuple[str, list[bool], list[int]]:
    """Remove a shell word's quoting (bash(1) "QUOTING"), keeping its expansions as written.

    Single quotes, double quotes, backslash escapes, ``$'…'`` (ANSI-C escapes decoded) and ``$"…"`` are
    read as bash reads them; ``$NAME``, ``${…}``, ``$(…)``, backquotes and GitHub's ``${{ … }}`` (one
    expansion: the runner replaces it before the shell starts) stay as written.

    Returns:
        ``(display, literal, offsets)``: the word without its quoting; per character of ``display``,
        whether it is literal (False for the characters of an expansion) and its offset in ``raw``.
    """
    if not _SPECIAL.search(raw):
        return raw, [True] * len(raw), list(range(len(raw)))
    chars: list[str] = []
    literal: list[bool] = []
    offsets: list[int] = []

    def add(text: str, offset: int, is_literal: bool) -> None:
        chars.append(text)
        literal.append(is_literal)
        offsets.append(offset)

    def add_run(begin: int, end: int, is_literal: bool) -> None:
        """Add the characters ``raw[begin:end]``, each at its own offset."""
        chars.append(raw[begin:end])
        literal.extend([is_literal] * (end - begin))
        offsets.extend(range(begin, end))

    index, size, in_double = 0, len(raw), False
    while index < size:
        char = raw[index]
        if raw.startswith("${{", index):
            end = raw.find("}}", index + 3)
            end = size if end == -1 else end + 2
            add_run(index, end, False)
            index = end
        elif char == "'" and not in_double:
            end = raw.find("'", index + 1)
            end = size if end == -1 else end
            add_run(index + 1, end, True)
            index = end + 1
        elif char == "$" and raw.startswith("'", index + 1) and not in_double:
            index = _ansi_c_string(raw, index + 2, add)
        elif char == "$" and raw.startswith('"', index + 1) and not in_double:
            index += 1  # $"…" is a translatable "…"
        elif char == '"':
            in_double = not in_double
            index += 1
        elif char == "\\" and index + 1 < size:
            escaped = raw[index + 1]
            if escaped == "\n":
                index += 2
            elif in_double and escaped not in '$`"\\':
                add("\\", index, True)
                index += 1
            else:
                add(escaped, index + 1, True)
                index += 2
        elif char in "$`":
            end = expansion_end(raw, index)
            if end == index + 1 and char == "$":
                add("$", index, True)
            else:
                add_run(index, end, False)
            index = end
        else:  # a literal character, and those after it up to the next that may be special
            special = (_DOUBLE_QUOTED_SPECIAL if in_double else _SPECIAL).search(raw, index + 1)
            end = size if special is None else special.start()
            add_run(index, end, True)
            index = end
    return "".join(chars), literal, offsets


def _ansi_c_string(raw: str, index: int, add: Callable[[str, int, bool], None]) -> int:
    """Read the body of ``$'…'`` from ``raw[index]`` as literal characters; return the index after ``'``."""
    simple = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
    while index < len(raw) and raw[index] != "'":
        if raw[index] == "\\" and index + 1 < len(raw):
            add(simple.get(raw[index + 1], raw[index : index + 2]), index + 1, True)
            index += 2
        else:
            add(raw[index], index, True)
            index += 1
    return index + 1


def expansion_end(raw: str, index: int) -> int:
    """The index just after the expansion starting at ``raw[index]`` (``$…`` or a backquote) in a shell word.

    ``$NAME``, ``${…}``, ``$(…)``, a backquoted command (backslash escapes inside), ``$1``/``$@``/``$?`` …;
    ``index + 1`` for a ``$`` that starts none (bash reads it as itself).
    """
    size = len(raw)
    if raw[index] == "`":
        position = index + 1
        while position < size and raw[position] != "`":
            position += 2 if raw[position] == "\\" else 1
        return min(position + 1, size)
    if index + 1 >= size:
        return index + 1
    follower = raw[index + 1]
    if follower in "{(":
        return closing_bracket(raw, index + 1)
    name = _NAME.match(raw, index + 1)
    if name is not None:
        return name.end()
    if follower in "0123456789@*#?$!-":
        return index + 2
    return index + 1


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_MAX_NESTED_DEFAULTS = 64
_TOO_LONG = f"the value would be longer than {MAX_VALUE_LENGTH:,} characters"
_BRACED = re.compile(
    r"\{(?P<name>[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#])(?:(?P<op>:?[-=+?])(?P<word>.*))?\}", re.DOTALL
)
#: ``${A[index]}``, ``${#A[@]}``: an array's element, all its elements, or their count.
_SUBSCRIPT = re.compile(r"\{(?P<count>#)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[(?P<index>[^\]]+)\]\}")


#: Where characters of a word are written: ``locate(start, end)`` gives the provenance of ``word[start:end]``
#: (offsets in the word as given to :func:`expand`), or None when the caller cannot tell.
Locate = Callable[[int, int], Provenance | None]


def expand(word: str, scope: Scope, *, shell_quotes: bool = True, locate: Locate | None = None) -> Expansion:
    """Expand the variables in ``word`` with the values in ``scope``.

    Args:
        word: the word as written (quotes included when ``shell_quotes``): ``"$TAG"``, ``v${VER:-1.0}``.
        scope: the variables visible where the word is used.
        shell_quotes: remove shell quoting (``'…'`` literal, ``"…"`` expanding, backslash escapes); False
            for Dockerfile ARG/ENV values, which the dockerfile reader has already unquoted.
        locate: where the word's characters are written. With it, a word that is one ``${V:-default}``
            (also ``${V-default}``, ``${V:=default}``, ``${V=default}``) whose default gives the value, V
            being unset (or empty, with the colon) in ``scope``, has the default's provenance when the default
            is written as the value itself: that is where a fix edits it (POSIX "Parameter Expansion": the
            default is used only when V is unset or null, so a value from the environment still wins
            when the recipe runs).

    Returns:
        The value when every part resolves (with its provenance when the word is one expansion, see
        :class:`Expansion`); otherwise ``value`` None with UNRESOLVED (something computed at run time or
        never set in the file) or EMPTY (the file shows a variable empty here), and a note.
    """
    return _Expander(word, scope, shell_quotes, locate=locate).run()


#: Template placeholders (Jinja's and Python's formats, Go and Mustache templates, autoconf/CMake
#: ``configure_file``, Azure/NuGet ``$NAME$`` tokens). ``${NAME}`` and GitHub's ``${{ … }}`` are expansions,
#: not placeholders.
_PLACEHOLDER = re.compile(
    r"(?<!\$)\{\{-?\s*[A-Za-z_][\w.\-]*\s*-?\}\}"  # {{ name }}
    r"|(?<![$\w{^])\{[A-Za-z_][\w.\-]*\}"  # {name}; not git's v1^{commit} (gitrevisions(7))
    r"|(?<!<)<[A-Za-z_][\w.\-]*>(?!>)"  # <name>
    r"|@[A-Za-z_][A-Za-z0-9_]*@"  # @NAME@
    r"|%\([A-Za-z_]\w*\)[sdr]"  # %(name)s
    r"|\$[A-Za-z_]\w*\$"  # $NAME$
)


def placeholder(text: str | None) -> str | None:
    """The first template placeholder in ``text`` (``{version}``, ``{{ version }}``, ``<branch>``,
    ``@VERSION@``, ``%(ref)s``, ``$VERSION$``), or None: text that a template engine replaces before the
    file is used, so it names no ref or repository yet."""
    if not text:
        return None
    match = _PLACEHOLDER.search(text)
    return match.group() if match else None


#: A word in brackets (``[username]``): no host lets it in a repository's path, and docs write it so.
_BRACKETED = re.compile(r"\[[A-Za-z_][\w.\-]*\]")
#: What "your …" stands for in a repository URL of documentation (``YOUR_USERNAME``, ``your-username``,
#: ``YOUR_NAME``, ``your-fork``, ``YOUR-REPOSITORY``).
_YOUR = re.compile(
    r"your[-_]?(?:github[-_]?)?(?:user(?:[-_]?(?:name|id))?|name|owner|org(?:ani[sz]ation)?|account|handle|id"
    r"|fork|repo(?:sitory)?(?:[-_]?name)?|project)",
    re.IGNORECASE,
)
#: An owner that stands for the reader's account (``USERNAME/repo``, ``github_user/repo``). Not ``owner``,
#: ``org`` or ``account``: examples and test fixtures use them as a real-looking owner (``org/big``).
_OWNER_WORD = re.compile(r"(?:github[-_]?)?user(?:[-_]?name)?", re.IGNORECASE)
#: A repository name that stands for the reader's repository; upper case only (``project`` is a real name).
_NAME_WORD = re.compile(r"REPO(?:SITORY)?(?:_NAME)?|PROJECT")


def url_placeholder(url: str) -> str | None:
    """The part of a repository URL's path that stands for the reader's own account or repository, as
    contributing guides write it (``git@github.com:[username]/LLaMA-Factory.git``,
    ``https://github.com/YOUR_USERNAME/vllm-ascend.git``, ``github.com/USERNAME/repo``), or None.

    Placeholders: a word in brackets in any part; a part that is "your" and what it stands for
    (``your-username``, ``YOUR_NAME``, ``your_fork``); an owner that is ``user`` or ``username`` in any
    case; a repository name ``REPO`` or ``PROJECT`` in upper case. The
    ``<user>``, ``{user}`` forms are :func:`placeholder`'s."""
    path = url.split("://", 1)[1].partition("/")[2] if "://" in url else url.partition(":")[2]
    parts = [part for part in path.partition("#")[0].partition("?")[0].split("/") if part]
    if parts:
        parts[-1] = parts[-1].removesuffix(".git")
    for part in parts:
        bracketed = _BRACKETED.search(part)
        if bracketed is not None:
            return bracketed.group()
        if _YOUR.fullmatch(part):
            return part
    if len(parts) >= 2 and _OWNER_WORD.fullmatch(parts[0]):
        return parts[0]
    if len(parts) >= 2 and _NAME_WORD.fullmatch(parts[-1]):
        return parts[-1]
    return None


#: The contexts of a GitHub expression whose values the workflow itself gives (``${{ matrix.python }}``,
#: ``${{ inputs.ref }}``, ``${{ env.TAG }}``); ``vars``, ``secrets``, ``github`` and the rest stay unknown.
_CONTEXT_REFERENCE = re.compile(r"\s*((?:matrix|inputs|env)(?:\.[A-Za-z_][A-Za-z0-9_-]*)+)\s*")


def expression_key(expression: str) -> str:
    """The name a GitHub expression's value is bound to in a :class:`Scope` (one no shell variable can
    have): ``${{matrix.python}}`` for ``matrix.python``, whatever blanks the expression holds; ``""`` for an
    expression that is not a plain reference to the matrix, the inputs or the env."""
    match = _CONTEXT_REFERENCE.fullmatch(expression)
    return f"${{{{{match.group(1)}}}}}" if match else ""


def evaluate_expression(expression: str, scope: Scope) -> Binding | None:
    """The value of a GitHub expression that the workflow gives (:func:`expression_key`), also through
    ``||`` fallbacks to other references or string literals (``inputs.file || 'Dockerfile'``: the first
    operand that is not empty, GitHub's "Operators"); None when it is anything else or a value is unknown."""
    operands = [operand.strip() for operand in _OR.split(expression)]
    for index, operand in enumerate(operands):
        literal = _STRING_LITERAL.fullmatch(operand)
        if literal is not None:
            return Binding(literal.group(1).replace("''", "'"))
        binding = scope.get(expression_key(operand))
        if binding is None:
            return None
        if binding.resolution is Resolution.RESOLVED and binding.value:
            return binding
        if binding.resolution is Resolution.UNRESOLVED or index == len(operands) - 1:
            return binding  # unknown, or the last operand: its emptiness is the expression's
    return None


_OR = re.compile(r"\|\|(?=(?:[^']*'[^']*')*[^']*$)")
_STRING_LITERAL = re.compile(r"'((?:[^']|'')*)'")


def referenced_names(text: str) -> set[str]:
    """The names of the variables that ``text`` references (``$NAME``, ``${NAME…}``), wherever they are."""
    return set(_REFERENCE.findall(text))


def has_expansion(word: str) -> bool:
    """True when ``word`` holds anything that expansion would change (``$``, a backtick)."""
    return "$" in word or "`" in word


class _Expander:
    """A single left-to-right pass over one word (no recursion into the parser: defaults recurse)."""

    def __init__(
        self, word: str, scope: Scope, shell_quotes: bool, depth: int = 0, locate: Locate | None = None
    ) -> None:
        self.word = word
        self.scope = scope
        self.shell_quotes = shell_quotes
        self.locate = locate
        #: The offset in ``word`` of each character that is scanned (its quotes removed), when quoted.
        self.offsets: list[int] | None = None
        self.out: list[str] = []
        self.resolution = Resolution.RESOLVED
        self.note: str | None = None
        self.depth = depth  # defaults nested in defaults recurse: bounded so input cannot exhaust the stack
        #: The provenance of each expansion that gave the value, in order; literal text makes it mixed.
        self.sources: list[Provenance | None] = []
        #: Why each expansion that gave the value is empty for good (Binding.empty_because), in order.
        self.empties: list[str | None] = []
        self.mixed = False
        self.length = 0  # of the expansions' values so far: literal text is the word's own, no longer

    def run(self) -> Expansion:
        if self.shell_quotes:
            display, literal, self.offsets = unquote(self.word)
            for start, end, is_literal in _literal_runs(literal):
                if is_literal:
                    self._literal(display[start:end])
                else:
                    self._scan(display[start:end], start)
        else:
            self._scan(self.word, 0)
        if self.resolution is Resolution.RESOLVED:
            only = self.sources[0] if len(self.sources) == 1 and not self.mixed else None
            value = "".join(self.out)
            if not self.sources and value:  # all literal: a default, written here when verbatim
                only = self._written_here(value)
            empty = not value and bool(self.empties) and all(self.empties)
            return Expansion(value, provenance=only, empty_because=self.empties[0] if empty else None)
        return Expansion(None, self.resolution, self.note)

    def _literal(self, text: str) -> None:
        self.out.append(text)
        self.mixed = True

    def _value(
        self, value: str | None, provenance: Provenance | None, empty_because: str | None = None
    ) -> None:
        """Append the value of one expansion, which ``provenance`` says where it is written, and
        ``empty_because`` why it is empty for good (:attr:`Binding.empty_because`)."""
        self.length += len(value or "")
        if self.length > MAX_VALUE_LENGTH:  # A=$A$A forty times over would be a terabyte
            self._unresolved(_TOO_LONG)
            return
        self.out.append(value or "")
        self.sources.append(provenance)
        self.empties.append(empty_because)

    def _written_here(self, value: str) -> Provenance | None:
        """Where ``value``, which is all this word's literal text, is written: its characters from the first
        to the last, when they are the value itself (no quote or escape inside); else None."""
        if self.locate is None:
            return None
        start, end = (self.offsets[0], self.offsets[-1] + 1) if self.offsets else (0, len(self.word))
        return self.locate(start, end) if self.word[start:end] == value else None

    def _default_locator(self, start: int, end: int) -> Locate | None:
        """How a default written at ``[start, end)`` of the scanned text (one ``${…}``, so written as it
        is scanned, quotes included) tells where its own characters are written."""
        locate = self.locate
        if locate is None or start >= end:
            return None
        first = self.offsets[start] if self.offsets is not None else start
        return lambda begin, stop: locate(first + begin, first + stop)

    def _scan(self, word: str, at: int) -> None:
        """Expand ``word``, which holds no quoting (a word's expansions, or an unquoted Docker value) and
        starts at offset ``at`` of the scanned text (see :attr:`offsets`)."""
        i, n = 0, len(word)
        while i < n:
            ch = word[i]
            if ch == "`":
                end = word.find("`", i + 1)
                self._unresolved("command substitution")
                i = n if end == -1 else end + 1
            elif ch == "$":
                i = self._dollar(word, i, at)
            else:
                self._literal(ch)
                i += 1

    def _dollar(self, word: str, i: int, at: int) -> int:
        n = len(word)
        if i + 1 >= n:
            self._literal("$")
            return n
        nxt = word[i + 1]
        if word.startswith("${{", i):
            end = word.find("}}", i + 3)
            written = word[i : end + 2 if end != -1 else n].strip()
            binding = evaluate_expression(word[i + 3 : end], self.scope) if end != -1 else None
            if binding is None:
                self._unresolved(f"GitHub expression {written}")
            else:
                self._bound(binding, written)
            return n if end == -1 else end + 2
        if nxt == "(":
            end = closing_bracket(word, i + 1)
            self._unresolved("command substitution")
            return end
        if nxt == "{":
            end = closing_bracket(word, i + 1)
            self._braced(word[i + 1 : end], at + i + 1)
            return end
        match = _NAME.match(word, i + 1)
        if match:
            self._variable(match.group(0))
            return match.end()
        if nxt.isdigit() or nxt in "@*#":
            self._variable(nxt)  # a positional parameter: set for a function's call
            return i + 2
        if nxt in "?$!-":
            self._unresolved(f"${nxt} is set at run time")
            return i + 2
        self._literal("$")
        return i + 1

    def _braced(self, body: str, at: int) -> None:
        """``${body}``, whose ``{`` is at offset ``at`` of the scanned text."""
        match = _BRACED.fullmatch(body)
        if match is None:
            subscript = _SUBSCRIPT.fullmatch(body)
            if subscript is not None:
                self._subscript(
                    subscript.group("name"), subscript.group("index"), bool(subscript.group("count"))
                )
            else:
                self._unresolved(f"${body} is computed at run time")
            return
        name, op, default = match.group("name"), match.group("op"), match.group("word")
        if op is None:
            self._variable(name)
            return
        binding = self.scope.get(name)
        is_set = binding is not None and binding.resolution is Resolution.RESOLVED
        value = binding.value if is_set and binding is not None else None
        colon = op.startswith(":")
        use_value = is_set and (not colon or bool(value))
        kind = op[-1]
        provenance = binding.provenance if binding is not None else None
        empty_because = binding.empty_because if binding is not None else None
        if kind in "-=":
            if use_value:
                self._value(value, provenance, empty_because)
            else:
                self._nested(
                    default or "", self._default_locator(at + match.start("word"), at + match.end("word"))
                )
        elif kind == "+":
            if use_value:
                self._nested(default or "")
        elif use_value:  # "?": fails the script when unset; the value is all a pin can use
            self._value(value, provenance, empty_because)
        else:
            self._variable(name)

    def _subscript(self, name: str, index: str, count: bool) -> None:
        """``${A[i]}`` (an element), ``${A[@]}``/``${A[*]}`` (all, joined by blanks), ``${#A[@]}`` (how
        many)."""
        binding = self.scope.get(name)
        elements = binding.elements if binding is not None else None
        if binding is not None and elements is None and binding.resolution is not Resolution.RESOLVED:
            self._mark(binding.resolution, binding.note)
        elif elements is None:
            self._unresolved(f"${{{name}[{index}]}} is computed at run time")
        elif index in ("@", "*"):
            values = [element.binding.value for element in elements]
            if count:
                self._value(str(len(values)), None)
            elif all(value is not None for value in values):
                self._value(" ".join(value or "" for value in values), None)
            else:
                first = values.index(None)
                self._unresolved(element_note(f"{name}[{first}]", elements[first]))
        else:
            position = self._index(index)
            if position is not None and position < 0:  # bash(1) "Arrays": counted back from the end
                position += len(elements)
            if count or position is None or not 0 <= position < len(elements):
                self._unresolved(f"${{{name}[{index}]}} is computed at run time")
            else:
                element = elements[position].binding
                if element.value is None:
                    self._mark(element.resolution, element_note(f"{name}[{index}]", elements[position]))
                else:
                    self._value(element.value, element.provenance, element.empty_because)

    def _index(self, index: str) -> int | None:
        """An array index that is a number (``-1``: the last element), or a variable (``$i``, ``i``) whose
        value is a number from 0 up."""
        index = index.strip().lstrip("$")
        if index.isdigit() or (index[:1] == "-" and index[1:].isdigit()):
            return int(index)
        binding = self.scope.get(index) if _NAME.fullmatch(index) else None
        value = binding.value if binding is not None else None
        return int(value) if value is not None and value.isdigit() else None

    def _nested(self, text: str, locate: Locate | None = None) -> None:
        """The value of a default or alternative ``text``, whose characters ``locate`` says where are."""
        if self.depth >= _MAX_NESTED_DEFAULTS:
            self._unresolved("the expansion is nested too deeply")
            return
        inner = _Expander(text, self.scope, self.shell_quotes, self.depth + 1, locate).run()
        if inner.resolution is Resolution.RESOLVED:
            self._value(inner.value, inner.provenance, inner.empty_because)
        else:
            self._mark(inner.resolution, inner.note)

    def _variable(self, name: str) -> None:
        binding = self.scope.get(name)
        if binding is None and not _NAME.fullmatch(name):  # $1, $@: the script's or a function's
            self._unresolved(f"${name} is set at run time")
            return
        if binding is not None and name in "@*" and binding.elements is not None:
            self._subscript(name, "@", False)
            return
        if binding is None:
            hint = self.scope.empty_hint(name)
            if hint is not None:
                self._mark(Resolution.EMPTY, hint)
            else:
                self._unresolved(f"${name} is not set in this file")
        else:
            self._bound(binding, f"${name}")

    def _bound(self, binding: Binding, written: str) -> None:
        """The value of an expansion (``written``) that ``binding`` gives."""
        if binding.resolution is Resolution.RESOLVED:
            self._value(binding.value, binding.provenance, binding.empty_because)
        else:
            self._mark(binding.resolution, binding.note or f"{written} has no value here")

    def _unresolved(self, note: str) -> None:
        self._mark(Resolution.UNRESOLVED, note)

    def _mark(self, resolution: Resolution, note: str | None) -> None:
        # UNRESOLVED wins over EMPTY: "empty" is a claim that the whole value is known to be missing.
        if self.resolution is Resolution.RESOLVED or (
            self.resolution is Resolution.EMPTY and resolution is Resolution.UNRESOLVED
        ):
            self.resolution = resolution
            self.note = note


def _literal_runs(literal: list[bool]) -> Iterator[tuple[int, int, bool]]:
    """The runs of equal flags in ``literal``: ``(start, end, flag)`` each, in order."""
    start, size = 0, len(literal)
    while start < size:
        flag = literal[start]
        try:
            end = literal.index(not flag, start)
        except ValueError:
            end = size
        yield start, end, flag
        start = end


def merge_call_sites(pins: Iterable[Pin]) -> list[Pin]:
    """``pins`` with those alike but for their :attr:`~ascend_reflint.model.Pin.call_sites` made one pin
    that has all of them (in the order met), at the first one's place in the order.

    Calls that give the same values from different places (``f v1`` twice) give the value from several
    places: the merged pin keeps an origin only when every call's pin has that same origin."""
    merged: dict[Pin, tuple[list[CallSite], set[Origin | None], set[Origin | None]]] = {}
    for pin in pins:
        key = pin
        if pin.call_sites:
            key = dataclasses.replace(pin, call_sites=(), ref_origin=None, url_origin=None)
        sites, ref_origins, url_origins = merged.setdefault(key, ([], set(), set()))
        sites.extend(site for site in pin.call_sites if site not in sites)
        ref_origins.add(pin.ref_origin)
        url_origins.add(pin.url_origin)
    return [
        dataclasses.replace(
            pin,
            call_sites=tuple(sites),
            ref_origin=next(iter(refs)) if len(refs) == 1 else None,
            url_origin=next(iter(urls)) if len(urls) == 1 else None,
        )
        if sites
        else pin
        for pin, (sites, refs, urls) in merged.items()
    ]


def closing_bracket(text: str, start: int) -> int:
    """The index just after the bracket that closes the ``{`` or ``(`` at ``text[start]`` (brackets of one
    kind nest), or ``len(text)`` when none does: where ``${…}`` or ``$(…)`` ends."""
    opening = text[start]
    closing = "}" if opening == "{" else ")"
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index + 1
    return len(text)
