"""Map character offsets in a derived text back to the file's own line and column.

A Dockerfile RUN body (continuation lines joined, comment lines dropped, as Docker does) and a workflow
``run:`` block (indentation stripped) are shell text that no longer sits where it sits in the file. Their
extractors assemble the text with a :class:`SourceMapBuilder`, which keeps the :class:`SourceMap` as the text
grows, so that the one shell extractor reports the file's own positions.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from ascend_reflint.model import Span


class SourceMap:
    """Pieces of a derived text, each a run of characters copied from one place on one line of the file.

    Offsets are 0-based character offsets into the derived text; lines and columns are 1-based file
    positions in characters. An offset that falls between pieces (a newline the extractor inserted) maps to
    the position just after the previous piece. A character that the file spells with several (an escape:
    JSON's ``\\u00e9``, YAML's ``\\x41`` or ``''``) is a piece of its own that knows how wide it is written,
    so that a span that ends on it covers the escape whole.
    """

    __slots__ = ("_columns", "_lines", "_starts", "_widths")

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._lines: list[int] = []
        self._columns: list[int] = []
        self._widths: dict[int, int] = {}

    def add(self, offset: int, line: int, column: int, width: int = 1) -> None:
        """Say that the derived text's character at ``offset`` is the file's (``line``, ``column``).

        The characters that follow, up to the next piece, are on the same line at increasing columns;
        ``width`` > 1 says that the character at ``offset`` is written with that many file characters (an
        escape), and the next piece must then start at ``offset + 1``. Pieces must be added in increasing
        ``offset`` order.
        """
        if self._starts and offset <= self._starts[-1]:
            self._widths.pop(self._starts[-1], None)
            self._starts[-1], self._lines[-1], self._columns[-1] = offset, line, column
        else:
            self._starts.append(offset)
            self._lines.append(line)
            self._columns.append(column)
        if width != 1:
            self._widths[offset] = width

    def width(self, offset: int) -> int:
        """How many file characters write the derived text's character at ``offset`` (1 but for an escape)."""
        return self._widths.get(offset, 1) if self._widths else 1

    @classmethod
    def identity(cls, text: str, first_line: int = 1, first_column: int = 1) -> SourceMap:
        """A map for text that is the file itself (or a block of it starting at ``first_line``).

        Args:
            text: the text.
            first_line: the file line of the text's first character.
            first_column: the file column of the text's first character (later lines start at column 1).
        """
        starts = [0]
        offset = text.find("\n")
        while offset != -1:
            starts.append(offset + 1)
            offset = text.find("\n", offset + 1)
        source_map = cls()
        source_map._starts = starts  # one piece per line, in increasing order: what add() would build
        source_map._lines = list(range(first_line, first_line + len(starts)))
        source_map._columns = [first_column] + [1] * (len(starts) - 1)
        return source_map

    def position(self, offset: int) -> tuple[int, int]:
        """The file's (line, column) of the derived text's character at ``offset``."""
        index = bisect_right(self._starts, offset) - 1
        if index < 0:
            return (self._lines[0], self._columns[0]) if self._starts else (1, 1)
        return self._lines[index], self._columns[index] + (offset - self._starts[index])

    def span(self, start: int, end: int) -> Span:
        """The file span of derived-text characters ``[start, end)`` (``end`` exclusive, ``end > start``)."""
        line, column = self.position(start)
        last = max(start, end - 1)
        end_line, last_column = self.position(last)
        return Span(line, column, end_line, last_column + self.width(last))

    def pieces(self, start: int, end: int) -> Iterator[tuple[int, int, int, int]]:
        """The parts of the derived text's ``[start, end)`` that lie in one piece each, in order:
        ``(start, end, line, column)``, the file position being that of the part's first character."""
        index = max(bisect_right(self._starts, start) - 1, 0)
        while start < end and index < len(self._starts):
            piece_end = self._starts[index + 1] if index + 1 < len(self._starts) else end
            stop = min(end, piece_end)
            if stop > start:
                yield start, stop, self._lines[index], self._columns[index] + start - self._starts[index]
                start = stop
            index += 1


class LineIndex:
    """Turn 0-based character indexes of a text into 1-based (line, column) positions.

    Lines end at ``\\n`` (a ``\\r`` before it is the last character of its line); columns count
    characters.
    """

    __slots__ = ("_starts",)

    def __init__(self, text: str) -> None:
        self._starts = [0]
        index = text.find("\n")
        while index != -1:
            self._starts.append(index + 1)
            index = text.find("\n", index + 1)

    def position(self, index: int) -> tuple[int, int]:
        """The (line, column) of the character at ``index``."""
        line = bisect_right(self._starts, index) - 1
        return line + 1, index - self._starts[line] + 1

    def span(self, start: int, end: int) -> Span:
        """The span of the characters ``[start, end)`` (an empty span at ``start`` when ``end == start``)."""
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column)


class SourceMapBuilder:
    """A derived text assembled piece by piece, and its :class:`SourceMap` back to the file.

    Every kind of file that hands shell text to the shell extractor builds the text with one: a Dockerfile
    ``RUN`` (continuation lines joined, heredocs laid out), a workflow ``run:`` block (a YAML scalar's value).
    """

    __slots__ = ("_length", "_parts", "source_map")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.source_map = SourceMap()

    def copy(self, text: str, line: int, column: int) -> None:
        """Append ``text``, which the file holds on ``line`` from ``column`` on (1-based, in characters)."""
        if text:
            self.source_map.add(self._length, line, column)
            self._parts.append(text)
            self._length += len(text)

    def copy_mapped(self, text: str, source_map: SourceMap, start: int, end: int) -> None:
        """Append ``text[start:end]`` of another derived text, whose map is ``source_map``, split where its
        pieces split (``end <= len(text)``)."""
        for piece_start, piece_end, line, column in source_map.pieces(start, end):
            width = source_map.width(piece_start)
            if width != 1:  # an escape: a piece of one character
                self.spelled(text[piece_start], line, column, width)
            else:
                self.copy(text[piece_start:piece_end], line, column)

    def spelled(self, char: str, line: int, column: int, width: int) -> None:
        """Append ``char``, which the file writes with ``width`` characters from ``line``, ``column`` on (an
        escape that stands for it)."""
        self.source_map.add(self._length, line, column, width)
        self._parts.append(char)
        self._length += 1

    def insert(self, text: str, line: int, column: int) -> None:
        """Append ``text`` that the file does not hold as such; every character maps to (line, column)."""
        for char in text:
            self.source_map.add(self._length, line, column)
            self._parts.append(char)
            self._length += 1

    @property
    def text(self) -> str:
        """The text assembled so far."""
        return "".join(self._parts)
