"""A file's bytes as text that edits can change and that is written back byte for byte elsewhere.

Spans count characters of the text as reflint read it (:func:`ascend_reflint.textfile.read_text`): line ends
``\\r\\n``, ``\\r`` and ``\\n`` each one character, each byte that is not UTF-8 one character. This module
keeps the file as it is instead, and maps spans onto it:

- a UTF-8 byte-order mark is kept aside and written back;
- bytes that are not UTF-8 (a Latin-1 file) are decoded with ``surrogateescape`` (PEP 383), one lone
  surrogate per byte, which encodes back to the very byte: they count one character each, as when reflint
  read the file, and stay untouched;
- line ends stay as they are; a new line that an edit brings takes the line end of the line it is on.

Files in UTF-16 or UTF-32 (a BOM says so) are not edited: no build tool reads recipes in them, and their
diff is one ``git apply`` does not take as text.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ascend_reflint.model import Edit, Span
from ascend_reflint.textfile import FileReadError, read_bytes

_LINE_END = re.compile(r"\r\n|\r|\n")
_SURROGATES = re.compile("[\udc80-\udcff]")
_OTHER_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class ContentError(Exception):
    """A file that cannot be edited; the message says why (not the path)."""


@dataclass
class FileContent:
    """One file's text as it is on disk, edited in memory.

    Attributes:
        path: the display path.
        abspath: the absolute path.
        original: the bytes read.
        bom: the UTF-8 byte-order mark the file starts with, or ``b""``.
        text: the text after the BOM, line ends as written, bytes that are not UTF-8 as lone surrogates;
            edits change it.
    """

    path: str
    abspath: str
    original: bytes
    bom: bytes
    text: str
    _starts: list[int] = field(default_factory=list, repr=False)
    _regions: list[_Region] = field(default_factory=list, repr=False)
    _numbered: int = field(default=0, repr=False)

    @classmethod
    def read(cls, path: str, abspath: str, max_bytes: int) -> FileContent:
        """Read the file at ``abspath`` (a regular file of at most ``max_bytes``).

        Raises:
            ContentError: it cannot be read, or is in UTF-16 or UTF-32.
        """
        try:
            data = read_bytes(abspath, max_bytes)
        except FileReadError as exc:
            raise ContentError(str(exc)) from None
        if data.startswith(_OTHER_BOMS):
            raise ContentError("in UTF-16 or UTF-32 (byte-order mark): not edited")
        bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
        text = data[len(bom) :].decode("utf-8", "surrogateescape")
        return cls(path, abspath, data, bom, text)

    @property
    def as_read(self) -> str:
        """The text as :func:`ascend_reflint.textfile.read_text` gives it: every line end ``\\n``, every byte
        that is not UTF-8 U+FFFD."""
        return _as_read(self.text)

    @property
    def is_utf8(self) -> bool:
        """True when every byte of the text is UTF-8."""
        return _SURROGATES.search(self.text) is None

    @property
    def changed(self) -> bool:
        """True when the edits changed the bytes."""
        return self.encoded() != self.original

    def encoded(self) -> bytes:
        """The file's bytes now: the BOM, the text encoded back (lone surrogates to their bytes)."""
        return self.bom + self.text.encode("utf-8", "surrogateescape")

    def holds(self, edit: Edit) -> bool:
        """True when ``edit`` fits the text: its span lies inside it and holds ``edit.expected`` (when
        set), and its content can be written in the file's encoding (ASCII in a file that is not all
        UTF-8, where UTF-8 would be a guess)."""
        try:
            start, end = self._range(edit.span)
        except ContentError:
            return False
        if edit.expected is not None and _as_read(self.text[start:end]) != edit.expected:
            return False
        if _SURROGATES.search(edit.content) or (not self.is_utf8 and not edit.content.isascii()):
            return False
        return "\r" not in edit.content

    def apply(self, edits: Sequence[Edit]) -> list[int]:
        """Apply ``edits`` (none overlapping another, each one that :meth:`holds`) all at once.

        Returns:
            A number for each edit, in order, that :meth:`standing` gives back while what it wrote stays.

        Raises:
            ContentError: an edit does not fit the text.
        """
        located = []
        for number, edit in enumerate(edits, start=self._numbered):
            if not self.holds(edit):
                raise ContentError(f"the text at line {edit.span.line} is not what the fix expects")
            start, end = self._range(edit.span)
            located.append((start, end, self._with_line_ends(edit.content, start), number))
        for start, end, content, number in sorted(located, reverse=True):
            self._track(start, end, content, number)
            self.text = self.text[:start] + content + self.text[end:]
        self._starts = []
        self._numbered += len(edits)
        return [number for *_, number in located]

    def standing(self) -> set[int]:
        """The numbers (from :meth:`apply`) of the edits that were not undone: each edit whose changed region
        still differs from the file's text there. An edit that a later one built on (a branch taken to its
        release tag, then the tag to its commit) stands, since the finding it fixed stays fixed; one that a
        later edit took back to the file's text does not (an edit and its reversal fixed nothing)."""
        text = self.text
        return {
            number
            for region in self._regions
            if region.was != text[region.start : region.end]
            for number in region.numbers
        }

    def _track(self, start: int, end: int, content: str, number: int) -> None:
        """Record that ``content`` replaces ``text[start:end]`` (before it does): the changed regions it
        touches become one, which remembers the file's text there and every edit that wrote in it; a region
        that this edit takes back to the file's text is forgotten, with its edits."""
        touched = [region for region in self._regions if _touch(start, end, region.start, region.end)]
        low = min([start, *(region.start for region in touched)])
        high = max([end, *(region.end for region in touched)])
        was: list[str] = []
        at = low
        for region in sorted(touched, key=lambda region: region.start):
            was += [self.text[at : region.start], region.was]
            at = region.end
        was.append(self.text[at:high])
        shift = len(content) - (end - start)
        kept = [region for region in self._regions if region not in touched]
        for region in kept:
            if region.start >= end:
                region.start += shift
                region.end += shift
        original = "".join(was)
        if self.text[low:start] + content + self.text[end:high] == original:
            self._regions = kept
            return
        numbers = {number}.union(*(region.numbers for region in touched))
        self._regions = [*kept, _Region(low, high + shift, original, numbers)]

    def _range(self, span: Span) -> tuple[int, int]:
        """The offsets in :attr:`text` of ``span``'s start and end.

        Raises:
            ContentError: a position outside the text, or an end before the start.
        """
        start = self._offset(span.line, span.column)
        end = self._offset(span.end_line, span.end_column)
        if end < start:
            raise ContentError(f"the span at line {span.line} ends before it starts")
        return start, end

    def _offset(self, line: int, column: int) -> int:
        starts = self._line_starts()
        if not 1 <= line <= len(starts) or column < 1:
            raise ContentError(f"line {line}, column {column} is outside the file")
        start = starts[line - 1]
        line_end = _LINE_END.search(self.text, start)
        stop = line_end.start() if line_end is not None else len(self.text)
        if start + column - 1 > stop:
            raise ContentError(f"line {line}, column {column} is outside the file")
        return start + column - 1

    def _line_starts(self) -> list[int]:
        if not self._starts:
            self._starts = [0, *(match.end() for match in _LINE_END.finditer(self.text))]
        return self._starts

    def _with_line_ends(self, content: str, at: int) -> str:
        """``content`` with each ``\\n`` written as the line end of the line at offset ``at`` (of the line
        before it when that line has none: the last line)."""
        if "\n" not in content:
            return content
        found = _LINE_END.search(self.text, at)
        if found is None:
            before = [match.group() for match in _LINE_END.finditer(self.text, 0, at)]
            ending = before[-1] if before else "\n"
        else:
            ending = found.group()
        return content.replace("\n", ending)


@dataclass(eq=False)
class _Region:
    """Characters ``start:end`` of a file's text, which edits changed: ``was`` is what the file had there,
    ``numbers`` the edits that wrote in it."""

    start: int
    end: int
    was: str
    numbers: set[int]


def _touch(start: int, end: int, other_start: int, other_end: int) -> bool:
    """True when two ranges share a character, or one is empty and lies inside or at the edge of the
    other (as :mod:`ascend_reflint.fix.apply` sees an overlap)."""
    if start == end or other_start == other_end:
        return start <= other_end and other_start <= end
    return start < other_end and other_start < end


def _as_read(text: str) -> str:
    """``text`` with line ends as ``\\n`` and lone surrogates as U+FFFD, as reflint reads files."""
    return _SURROGATES.sub("\ufffd", text.replace("\r\n", "\n").replace("\r", "\n"))
