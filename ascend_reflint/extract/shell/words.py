"""Shell words: a word as written, its quotes removed and its expansions kept as written.

A :class:`Word` knows, for each character of its ``display``, whether it is literal and where it is written,
so that any part of it (the ``v1`` of ``--branch=v1``, the ``REF`` of ``git+URL@REF``) maps back to the file.
Quoting follows bash(1) "QUOTING"; GitHub's ``${{ … }}`` counts as one expansion (the runner replaces it
before the shell starts).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ascend_reflint.model import Origin, Span
from ascend_reflint.resolve import Element, Provenance, element_note, unquote

if TYPE_CHECKING:
    from tree_sitter import Node

_FIELD = re.compile(r"\S+")


def word_runs(nodes: list[Node]) -> list[list[Node]]:
    """Group nodes that touch (no blank between them) into runs: each run is one shell word.

    tree-sitter-bash splits some words in two (``$A-$B-$C`` becomes ``$A-$`` and ``B-$C``, so that
    ``X=$A.$B.$C`` even reads as an assignment followed by a command); the shell splits words at blanks
    only, so touching nodes are put back together.
    """
    runs: list[list[Node]] = []
    for node in nodes:
        if runs and runs[-1][-1].end_byte == node.start_byte:
            runs[-1].append(node)
        else:
            runs.append([node])
    return runs


class Word:
    """One shell word: its text as written, and its ``display`` (quotes removed, expansions kept as written).

    ``literal[i]`` says whether ``display[i]`` is a literal character (True) or part of an expansion;
    ``offsets[i]`` is its offset in ``raw``; ``start`` is ``raw``'s offset in the text it belongs to.
    ``provenance`` is set for a field of an expansion's value (see :meth:`fields`): where its text is
    written, which is not where the word is. ``at`` is set for a word that an array element stands for
    (:meth:`element`): the word *is* there, in the array's assignment, and its spans are there; and
    ``unknown_because`` for such a word whose value is not known: why, naming the element as the script
    reads it (``REFS[1] is $X: $X is not set in this file``).
    """

    __slots__ = ("at", "display", "literal", "offsets", "provenance", "raw", "start", "unknown_because")

    def __init__(
        self,
        raw: str,
        start: int,
        display: str,
        literal: list[bool],
        offsets: list[int],
        provenance: Provenance | None = None,
        at: Provenance | None = None,
        unknown_because: str | None = None,
    ) -> None:
        self.raw = raw
        self.start = start
        self.display = display
        self.literal = literal
        self.offsets = offsets
        self.provenance = provenance
        self.at = at
        self.unknown_because = unknown_because

    @classmethod
    def field(cls, word: Word, element: Element) -> Word:
        """The word that a positional parameter gives ``"$@"``: its value, spanning ``word``, written where
        the call gives it."""
        value = element.binding.value or ""
        first, last = (word.offsets[0], word.offsets[-1]) if word.offsets else (0, 0)
        offsets = [first] * (len(value) - 1) + [last] if value else []
        return cls(word.raw, word.start, value, [True] * len(value), offsets, element.binding.provenance)

    @classmethod
    def element(cls, element: Element, label: str) -> Word:
        """The word that an array element gives ``"${A[@]}"``: its value, written where the element is (an
        element whose value is not known is its text as written, its expansions kept, and says why with
        ``label``, the element as the script names it: ``REFS[1]``)."""
        value = element.binding.value
        if value is None:
            written, at, why = element.written, Provenance(element.at, False), element_note(label, element)
            parsed = cls.parse(written, 0)
            if not parsed.is_literal:  # what is written literally stays so: the --branch= of --branch="$X"
                return cls(written, 0, parsed.display, parsed.literal, parsed.offsets, None, at, why)
            offsets = list(range(len(written)))  # no expansion, yet no value: all of it unknown
            return cls(written, 0, written, [False] * len(written), offsets, None, at, why)
        if element.written == value:
            offsets = list(range(len(value)))
            at = Provenance.written(element.at.path, element.at.span, value) or Provenance(element.at, False)
        else:  # K="v": where each character of the value is written, when quoting is all that differs
            parsed = cls.parse(element.written, 0)
            same = parsed.display == value and all(parsed.literal)
            offsets = parsed.offsets if same else list(range(len(value)))
            at = Provenance(element.at, False)
        return cls(element.written, 0, value, [True] * len(value), offsets, element.binding.provenance, at)

    @classmethod
    def parse(cls, raw: str, start: int) -> Word:
        """Read ``raw``, written at offset ``start`` of its text (quoting: :func:`.resolve.unquote`)."""
        display, literal, offsets = unquote(raw)
        return cls(raw, start, display, literal, offsets)

    @classmethod
    def fields(cls, word: Word, value: str, provenance: Provenance | None = None) -> list[Word]:
        """The words that an unquoted expansion whose value is ``value`` splits into, all spanning it;
        each written where its part of ``value`` is, when ``provenance`` says where the value is."""
        first, last = word.offsets[0], word.offsets[-1]
        return [
            cls(
                word.raw,
                word.start,
                part.group(),
                [True] * len(part.group()),
                [first] * (len(part.group()) - 1) + [last],
                provenance.part(part.start(), part.end(), len(value)) if provenance is not None else None,
            )
            for part in _FIELD.finditer(value)
        ]

    @property
    def literal_prefix(self) -> str:
        """``display`` up to the first expansion."""
        for index, is_literal in enumerate(self.literal):
            if not is_literal:
                return self.display[:index]
        return self.display

    @property
    def is_literal(self) -> bool:
        return all(self.literal)

    def pieces(self) -> list[tuple[int, int, bool]]:
        """``display`` cut into literal characters and expansions: ``(start, end, literal)`` each."""
        pieces: list[tuple[int, int, bool]] = []
        for index, literal in enumerate(self.literal):
            if (
                not literal
                and pieces
                and not pieces[-1][2]
                and self.offsets[index - 1] + 1 == self.offsets[index]
            ):
                pieces[-1] = (pieces[-1][0], index + 1, False)
            else:
                pieces.append((index, index + 1, literal))
        return pieces

    def sub(self, start: int, end: int | None = None) -> Word:
        """The part of the word from ``display[start:end]``.

        An empty part at the end of the word keeps what is written there (the quotes of ``--branch=""``),
        so that its span is theirs.
        """
        offsets = self.offsets[start:end]
        if not offsets and end is None and 0 < start <= len(self.offsets):
            cut = self.offsets[start - 1] + 1
            if cut < len(self.raw):
                return Word(self.raw[cut:], self.start + cut, "", [], [])
        size = len(self.display)
        first, stop = slice(start, end).indices(size)[:2]
        provenance = self.provenance
        if provenance is not None:
            provenance = provenance.part(first, stop, size)
        at = self.at
        if at is not None:  # an element whose characters are not known to map: all of it
            at = at.part(first, stop, size) or self._mapped(at, first, stop) or at
        display, literal = self.display[start:end], self.literal[start:end]
        return Word(self.raw, self.start, display, literal, offsets, provenance, at, self.unknown_because)

    def _mapped(self, at: Provenance, first: int, stop: int) -> Provenance | None:
        """Where the characters ``[first, stop)`` of an array element written with quotes inside
        (``K="v"``) are: ``at`` spans ``raw`` on one line, ``offsets`` say where each character is in it."""
        span = at.origin.span
        one_line = span.line == span.end_line and span.end_column - span.column == len(self.raw)
        if not one_line or not 0 <= first < stop <= len(self.offsets):
            return None
        begin, end = _uncut(self.raw, self.offsets[first], self.offsets[stop - 1] + 1)
        narrow = Span(span.line, span.column + begin, span.line, span.column + end)
        return Provenance(Origin(at.origin.path, narrow), end - begin == stop - first)

    def cut(self, separator: str) -> Word:
        """The part before the first literal ``separator`` (all of it when there is none)."""
        index = self.display.find(separator)
        while index != -1 and not self.literal[index]:
            index = self.display.find(separator, index + 1)
        return self if index == -1 else self.sub(0, index)

    def shell_text(self) -> tuple[str, list[int]]:
        """The word unquoted, literal characters escaped: input for :func:`ascend_reflint.resolve.expand`;
        and for each of its characters, the index in ``display`` of the character it writes.

        A literal character right after an expansion is escaped too: the quotes that ended the expansion
        (``"$A"B``, ``${A}"_x"``) are gone from ``display``, and ``$AB`` would name another variable.
        """
        pieces: list[str] = []
        indices: list[int] = []
        after_expansion = False
        for index, (char, is_literal) in enumerate(zip(self.display, self.literal, strict=True)):
            escape = is_literal and (after_expansion or char in "\\$`\"'")
            pieces.append("\\" + char if escape else char)
            indices.extend([index, index] if escape else [index])
            after_expansion = not is_literal
        return "".join(pieces), indices

    def bounds(self) -> tuple[int, int]:
        """The word's ``[start, end)`` in its text: from its first character to its last, the quotes around
        them excluded; where that would cut a quoted string (``v"5"``, ``K="v"``, ``"https://h/"o/r.git``),
        all of that string, so that the span never holds one quote of a pair (a fix that replaces it keeps
        the quoting whole)."""
        if not self.offsets:
            return self.start, self.start + max(len(self.raw), 1)
        begin, end = _uncut(self.raw, self.offsets[0], self.offsets[-1] + 1)
        return self.start + begin, self.start + end

    def written(self) -> str:
        """The word as written, from :meth:`bounds` (all of an array element that is not written
        verbatim)."""
        if self.at is not None and not self.at.verbatim:
            return self.raw
        if not self.offsets:
            return ""
        begin, end = self.bounds()
        return self.raw[begin - self.start : end - self.start]


def _uncut(raw: str, begin: int, end: int) -> tuple[int, int]:
    """``raw[begin:end]`` widened so that it holds both quotes of a pair or neither (see :meth:`Word.bounds`):
    a quoted string that starts inside and ends after it, or starts before and ends inside, is taken whole,
    with the ``$`` of ``$'…'`` and ``$"…"``."""
    if "'" not in raw and '"' not in raw:
        return begin, end
    for opening, closing in _quote_pairs(raw):
        if begin <= opening < end <= closing:
            end = min(closing + 1, len(raw))
        elif opening < begin <= closing < end:
            begin = opening - 1 if opening and raw[opening - 1] == "$" else opening
    return begin, end


def _quote_pairs(raw: str) -> list[tuple[int, int]]:
    """The offsets of the opening and closing quote of each quoted string of the word ``raw``, in order
    (an unclosed one closes at the end): the quotes that :func:`.resolve.unquote` removes."""
    kept = set(unquote(raw)[2])
    quotes = [index for index, char in enumerate(raw) if char in "'\"" and index not in kept]
    if len(quotes) % 2:
        quotes.append(len(raw))
    return list(zip(quotes[::2], quotes[1::2], strict=True))
