"""Git's configuration file syntax (``.gitmodules``, ``.git/config``) read as data, with the position of
every character of every value.

The syntax is git-config(1) "CONFIGURATION FILE", as git's own parser reads it (``config.c``:
``get_base_var``, ``get_extended_base_var``, ``get_value``, ``parse_value``):

- ``#`` and ``;`` start a comment to the end of the line, outside double quotes;
- ``[section]``, ``[section "subsection"]`` (in the subsection ``\\"`` and ``\\\\`` stand for ``"`` and
  ``\\``, and a backslash before any other character is dropped) and the old ``[section.subsection]``
  (lower-cased); section and key names are case-insensitive;
- ``key = value``, or ``key`` alone (a boolean true); in a value, leading and trailing white space is
  dropped and each white-space character inside becomes a space, unless in double quotes; the quotes
  themselves are dropped; ``\\"``, ``\\\\``, ``\\n``, ``\\t`` and ``\\b`` are escapes; a backslash at the
  end of a line joins the next line; any other escape, or a quote left open at the end of a line, makes
  the file invalid (git then refuses to read it).

Nothing here runs git, and ``include.path`` is an ordinary key: a file is never followed to another.
"""

from __future__ import annotations

from typing import NamedTuple, NoReturn

from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.sourcemap import LineIndex

_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
_SECTION_CHARS = _NAME_CHARS | {"."}
_VALUE_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "b": "\b"}


class ConfigValue(NamedTuple):
    """One ``key = value`` line of a git configuration file.

    Attributes:
        section: the section name, lower case (``submodule``).
        subsection: the subsection name as written (case kept), or None.
        key: the key, lower case (``url``).
        value: the value after git's unquoting, or None for a key written without ``=`` (true).
        starts: per character of ``value``, the 0-based offset in the file of the first character that
            spells it.
        ends: per character of ``value``, the offset just after the last character that spells it.
        after_equals: the offset just after ``=`` (just after the key when there is none), where an empty
            value "is" (see :meth:`region`).
    """

    section: str
    subsection: str | None
    key: str
    value: str | None
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    after_equals: int

    def region(self) -> tuple[int, int]:
        """The file offsets ``[begin, end)`` that spell the value (an empty range after ``=`` when the value
        is empty or absent)."""
        if not self.starts:
            return self.after_equals, self.after_equals
        return self.starts[0], self.ends[-1]


def parse_git_config(text: str) -> list[ConfigValue]:
    """Every value of a git configuration file, in file order.

    Args:
        text: the file's text (line breaks already ``\\n``).

    Returns:
        The values; a key given twice is listed twice (git's last one wins for a single-valued key).

    Raises:
        ExtractError: for text that git refuses, naming the line ("line 3: bad config line: …").
    """
    parser = _Parser(text)
    parser.run()
    return parser.values


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 1 if text.startswith("\ufeff") else 0
        self.values: list[ConfigValue] = []
        self.section: str | None = None
        self.subsection: str | None = None

    def run(self) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\n":
                self.pos += 1
            elif char in "#;":
                self.skip_line()
            elif char == "[":
                self.header()
            elif char.isascii() and char.isalpha():
                self.key_value()
            else:
                self.fail("bad config line")

    def header(self) -> None:
        start = self.pos
        self.pos += 1
        name = self.take(_SECTION_CHARS)
        text = self.text
        if self.pos < len(text) and text[self.pos] == "]":
            self.pos += 1
            if not name:
                self.fail("bad section header", start)
            section, dot, rest = name.partition(".")
            self.section = section.lower()
            self.subsection = rest.lower() if dot else None
            return
        while self.pos < len(text) and text[self.pos] in " \t":
            self.pos += 1
        if not name or "." in name or self.pos >= len(text) or text[self.pos] != '"':
            self.fail("bad section header", start)
        self.pos += 1
        subsection: list[str] = []
        while self.pos < len(text) and text[self.pos] != '"':
            char = text[self.pos]
            if char == "\n":
                self.fail("bad section header", start)
            if char == "\\" and self.pos + 1 < len(text) and text[self.pos + 1] != "\n":
                self.pos += 1
                char = text[self.pos]
            subsection.append(char)
            self.pos += 1
        if not text.startswith('"]', self.pos):
            self.fail("bad section header", start)
        self.pos += 2
        self.section, self.subsection = name.lower(), "".join(subsection)

    def key_value(self) -> None:
        start = self.pos
        key = self.take(_NAME_CHARS).lower()
        text = self.text
        while self.pos < len(text) and text[self.pos] in " \t":
            self.pos += 1
        value: str | None = None  # a key alone: true
        starts: list[int] = []
        ends: list[int] = []
        after_equals = self.pos
        if self.pos >= len(text) or text[self.pos] in "\n#;":
            self.skip_line()
        elif text[self.pos] == "=":
            self.pos += 1
            after_equals = self.pos
            value, starts, ends = self.value()
        else:
            self.fail("bad config line", start)
        # A key before any section header names nothing git uses (`git config --get` refuses "a key without
        # a section"): it is read, and dropped.
        if self.section is not None:
            self.values.append(
                ConfigValue(
                    self.section, self.subsection, key, value, tuple(starts), tuple(ends), after_equals
                )
            )

    def value(self) -> tuple[str, list[int], list[int]]:
        """git's ``parse_value``: the value up to the end of its (last continued) line."""
        text = self.text
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        pending: list[int] = []  # white space seen outside quotes since the last character kept
        quote = comment = False
        line_start = self.pos
        while self.pos < len(text):
            char = text[self.pos]
            here = self.pos
            self.pos += 1
            if char == "\n":
                if quote:
                    self.fail("unclosed quote in a value", line_start)
                return "".join(chars), starts, ends
            if comment:
                continue
            if char in " \t\r\v\f" and not quote:
                if chars:
                    pending.append(here)
                continue
            if not quote and char in "#;":
                comment = True
                continue
            for offset in pending:
                chars.append(" ")
                starts.append(offset)
                ends.append(offset + 1)
            pending.clear()
            if char == "\\":
                escaped = text[self.pos] if self.pos < len(text) else ""
                self.pos += 1
                if escaped == "\n":
                    continue
                if escaped not in _VALUE_ESCAPES:
                    self.fail("bad escape in a value", line_start)
                chars.append(_VALUE_ESCAPES[escaped])
                starts.append(here)
                ends.append(here + 2)
            elif char == '"':
                quote = not quote
            else:
                chars.append(char)
                starts.append(here)
                ends.append(here + 1)
        if quote:
            self.fail("unclosed quote in a value", line_start)
        return "".join(chars), starts, ends

    def take(self, allowed: frozenset[str]) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in allowed:
            self.pos += 1
        return self.text[start : self.pos]

    def skip_line(self) -> None:
        newline = self.text.find("\n", self.pos)
        self.pos = len(self.text) if newline == -1 else newline + 1

    def fail(self, problem: str, at: int | None = None) -> NoReturn:
        line, _ = LineIndex(self.text).position(self.pos if at is None else at)
        raise ExtractError(f"line {line}: {problem} (git refuses the file)")
