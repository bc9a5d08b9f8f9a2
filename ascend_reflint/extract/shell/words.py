"""Shell words: a word as written, its quotes removed and its expansions kept as written.

A :class:`Word` knows, for each character of its ``display``, whether it is literal and where it is written,
so that any part of it (the ``v1`` of ``--branch=v1``, the ``REF`` of ``git+URL@REF``) maps back to the file.
Quoting follows bash(1) "QUOTING"; GitHub's ``${{ … }}`` counts as one expansion (the runner replaces it
before the shell starts).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

#: Characters that make a word more than its literal text (quotes, escapes, expansions).
_SPECIAL = re.compile(r"[\\'\"$`]")
#: The characters that may be more than themselves inside double quotes.
_DOUBLE_QUOTED_SPECIAL = re.compile(r"[\\\"$`]")


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
    """

    __slots__ = ("display", "literal", "offsets", "raw", "start")

    def __init__(self, raw: str, start: int, display: str, literal: list[bool], offsets: list[int]) -> None:
        self.raw = raw
        self.start = start
        self.display = display
        self.literal = literal
        self.offsets = offsets

    @classmethod
    def parse(cls, raw: str, start: int) -> Word:
        """Read a word as written (bash(1) "QUOTING"; GitHub ``${{ }}`` counts as one expansion)."""
        if not _SPECIAL.search(raw):
            return cls(raw, start, raw, [True] * len(raw), list(range(len(raw))))
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
                end = _expansion_end(raw, index)
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
        return cls(raw, start, "".join(chars), literal, offsets)

    @classmethod
    def fields(cls, word: Word, value: str) -> list[Word]:
        """The words that an unquoted expansion whose value is ``value`` splits into, all spanning it."""
        first, last = word.offsets[0], word.offsets[-1]
        parts = value.split()
        return [
            cls(word.raw, word.start, part, [True] * len(part), [first] * (len(part) - 1) + [last])
            for part in parts
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
        return Word(self.raw, self.start, self.display[start:end], self.literal[start:end], offsets)

    def cut(self, separator: str) -> Word:
        """The part before the first literal ``separator`` (all of it when there is none)."""
        index = self.display.find(separator)
        while index != -1 and not self.literal[index]:
            index = self.display.find(separator, index + 1)
        return self if index == -1 else self.sub(0, index)

    def shell_text(self) -> str:
        """The word unquoted, literal characters escaped: input for :func:`ascend_reflint.resolve.expand`."""
        return "".join(
            "\\" + char if is_literal and char in "\\$`\"'" else char
            for char, is_literal in zip(self.display, self.literal, strict=True)
        )

    def bounds(self) -> tuple[int, int]:
        """The word's ``[start, end)`` in its text, quotes around the first and last character excluded."""
        if not self.offsets:
            return self.start, self.start + max(len(self.raw), 1)
        return self.start + self.offsets[0], self.start + self.offsets[-1] + 1

    def written(self) -> str:
        """The word as written, without the quotes around it."""
        return self.raw[self.offsets[0] : self.offsets[-1] + 1] if self.offsets else ""


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


def _expansion_end(raw: str, index: int) -> int:
    """The index just after the expansion starting at ``raw[index]`` (``$…`` or a backquote)."""
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
        closer = "}" if follower == "{" else ")"
        depth = 0
        for position in range(index + 1, size):
            if raw[position] == follower:
                depth += 1
            elif raw[position] == closer:
                depth -= 1
                if depth == 0:
                    return position + 1
        return size
    if follower.isascii() and (follower.isalpha() or follower == "_"):
        position = index + 2
        while (
            position < size and raw[position].isascii() and (raw[position].isalnum() or raw[position] == "_")
        ):
            position += 1
        return position
    if follower in "0123456789@*#?$!-":
        return index + 2
    return index + 1
