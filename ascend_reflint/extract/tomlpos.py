"""Where the strings of a TOML document are written: each string value with its full key path and the
offset of every character, so that a value read with ``tomllib`` can be located to the character.

``tomllib`` gives values, not positions. This scanner walks the document's syntax (TOML 1.0: comments,
``[table]`` and ``[[array of tables]]`` headers, bare, quoted and dotted keys, inline tables, arrays, and
the four string forms) far enough to know the key path of every string value, and decodes each string with
a map from its characters back to the file. It does not validate: call it on text that ``tomllib`` has
read, and let ``tomllib`` say what is wrong with text that is not TOML.

Key paths hold the table names and keys as ``tomllib`` gives them, with array indexes as ints:
``flash_mla = [{ git = "…" }]`` under ``[tool.uv.sources]`` is ``("tool", "uv", "sources", "flash_mla",
0, "git")``, and the second ``[[tool.x]]`` table's key ``k`` is ``("tool", "x", 1, "k")``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

from ascend_reflint.extract.errors import ExtractError

KeyPath = tuple[str | int, ...]

_BLANK = " \t\r"
#: The most string values read from one document. Each that holds a git URL becomes a pin of some 4 kB, and
#: an array puts any number on one line: a ``dependencies`` array of 250,000 git URLs (10 MiB) took 1.1 GB
#: and 20 s to extract, 47 s to scan.
MAX_STRINGS = 50_000
_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_VALUE_END = ",]}\n#"
#: How ``tomllib`` ends the message of its error (CPython's Lib/tomllib/_parser.py, ``TOMLDecodeError``):
#: ``(at line L, column C)``, both 1-based, or ``(at end of document)``.
_ERROR_POSITION = re.compile(r" \(at (?:line (\d+), column (\d+)|end of document)\)$")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "e": "\x1b", '"': '"', "\\": "\\"}


#: The most dots that a line may hold before its first ``=`` (the parts of a dotted key, less one) for the
#: text to be given to ``tomllib``, whose time is quadratic in a key/value pair's parts (20,000: 3.7 s;
#: 40,000: 22 s). Real keys have a handful.
MAX_KEY_DOTS = 100


def long_dotted_key(text: str) -> int | None:
    """The line number of the first line of ``text`` that holds more than :data:`MAX_KEY_DOTS` dots before
    its first ``=`` (a key/value pair's dotted key, or text that could be one), or None: a TOML text to
    refuse before ``tomllib`` reads it. Linear in the text's length."""
    if text.count(".") <= MAX_KEY_DOTS:
        return None
    start, number = 0, 1
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        equals = text.find("=", start, end)
        if text.count(".", start, end if equals == -1 else equals) > MAX_KEY_DOTS:
            return number
        start, number = end + 1, number + 1
    return None


@dataclass(frozen=True, slots=True)
class TomlString:
    """One string value and where its characters are.

    Attributes:
        path: the full key path (see the module docstring).
        value: the decoded string.
        starts: per character of ``value``, the 0-based offset in the file of the first character that
            spells it (an escape such as ``\\u00e9`` is several).
        ends: per character of ``value``, the offset just after the last character that spells it.
        literal: the offsets ``[begin, end)`` of the whole literal, quotes included.
    """

    path: KeyPath
    value: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    literal: tuple[int, int]

    def region(self, start: int = 0, end: int | None = None) -> tuple[int, int]:
        """The file offsets ``[begin, end)`` that spell ``value[start:end]``; for an empty string, its quotes
        (what stands for it in the file)."""
        end = len(self.value) if end is None else end
        if not self.value:
            return self.literal
        if end > start:
            return self.starts[start], self.ends[end - 1]
        at = self.starts[start] if start < len(self.value) else self.ends[-1]
        return at, at


def toml_strings(text: str) -> list[TomlString]:
    """Every string value of a TOML document, in file order, with its key path and character offsets.

    Args:
        text: a TOML document that ``tomllib`` accepts (other text gives a best effort, never an error).

    Returns:
        The strings; strings used as keys or in table headers are not values and are not listed.

    Raises:
        ExtractError: for more than :data:`MAX_STRINGS` strings.
    """
    scanner = _Scanner(text)
    scanner.document()
    return scanner.found


class _Scanner:
    """A cursor over the document that records string values (recursion follows arrays and inline tables,
    as ``tomllib``'s own parser does, so text that ``tomllib`` read is never too deep here)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.found: list[TomlString] = []
        self.table: KeyPath = ()
        #: resolved path of each array of tables → how many tables it has so far
        self.arrays: dict[KeyPath, int] = {}

    def document(self) -> None:
        text = self.text
        while self.pos < len(text):
            self.skip(_BLANK + "\n")
            if self.pos >= len(text):
                return
            char = text[self.pos]
            start = self.pos
            if char == "#":
                self.skip_comment()
            elif char == "[":
                self.header()
            else:
                self.key_value(self.table)
                self.skip(_BLANK)
                if self.pos < len(text) and text[self.pos] == "#":
                    self.skip_comment()
            if self.pos == start:  # not TOML: move on rather than loop
                self.pos += 1

    def header(self) -> None:
        """``[a.b]`` or ``[[a.b]]``: the tables that the following keys belong to."""
        is_array = self.text.startswith("[[", self.pos)
        self.pos += 2 if is_array else 1
        keys = self.key()
        self.skip(_BLANK)
        self.pos += 2 if is_array else 1
        resolved: KeyPath = ()
        for number, key in enumerate(keys, start=1):
            resolved += (key,)
            # A header names the newest table of an array of tables it passes through; [[x]] adds one to x.
            if resolved in self.arrays and not (is_array and number == len(keys)):
                resolved += (self.arrays[resolved] - 1,)
        if is_array:
            count = self.arrays.get(resolved, 0)
            self.arrays[resolved] = count + 1
            resolved += (count,)
        self.table = resolved

    def key_value(self, table: KeyPath) -> None:
        """``key = value`` (a dotted key adds to ``table``)."""
        path = table + self.key()
        self.skip(_BLANK)
        if self.pos < len(self.text) and self.text[self.pos] == "=":
            self.pos += 1
            self.skip(_BLANK)
            self.value(path)

    def key(self) -> tuple[str, ...]:
        """A bare, quoted or dotted key."""
        parts: list[str] = []
        text = self.text
        while True:
            self.skip(_BLANK)
            if self.pos >= len(text):
                break
            char = text[self.pos]
            if char in "\"'":
                parts.append(self.string((), record=False))
            else:
                start = self.pos
                while self.pos < len(text) and text[self.pos] in _BARE_KEY:
                    self.pos += 1
                if self.pos == start:
                    break
                parts.append(text[start : self.pos])
            self.skip(_BLANK)
            if self.pos < len(text) and text[self.pos] == ".":
                self.pos += 1
                continue
            break
        return tuple(parts)

    def value(self, path: KeyPath) -> None:
        text = self.text
        if self.pos >= len(text):
            return
        char = text[self.pos]
        if char in "\"'":
            self.string(path, record=True)
        elif char == "[":
            self.array(path)
        elif char == "{":
            self.inline_table(path)
        else:  # a number, a boolean or a date (which may hold a space)
            while self.pos < len(text) and text[self.pos] not in _VALUE_END:
                self.pos += 1

    def array(self, path: KeyPath) -> None:
        self.items("]", lambda index: self.value((*path, index)))

    def inline_table(self, path: KeyPath) -> None:
        self.items("}", lambda _index: self.key_value(path))

    def items(self, closing: str, item: Callable[[int], None]) -> None:
        """The comma-separated items of an array or an inline table, up to and past ``closing``. Line
        breaks and comments are skipped between items (TOML 1.1 lets inline tables span lines too)."""
        self.pos += 1
        text = self.text
        index = 0
        while self.pos < len(text):
            self.skip_blank_lines()
            if self.pos >= len(text) or text[self.pos] == closing:
                break
            start = self.pos
            item(index)
            index += 1
            self.skip_blank_lines()
            at_comma = self.pos < len(text) and text[self.pos] == ","
            if not at_comma and self.pos != start:
                break
            self.pos += 1  # past the comma (or past a character that is not TOML)
        self.pos += 1

    def string(self, path: KeyPath, *, record: bool) -> str:
        """Decode the string that opens at the cursor (TOML 1.0 "String"); record it as a value at
        ``path`` when ``record``."""
        quote = self.text[self.pos]
        multi = self.text.startswith(quote * 3, self.pos)
        begin = self.pos
        value, starts, ends, self.pos = _decode(self.text, self.pos, quote, multi)
        if record:
            self.found.append(TomlString(path, value, tuple(starts), tuple(ends), (begin, self.pos)))
            if len(self.found) > MAX_STRINGS:
                line = self.text.count("\n", 0, begin) + 1
                raise ExtractError(
                    f"line {line}: more than {MAX_STRINGS:,} strings, more than any recipe holds"
                )
        return value

    def skip(self, chars: str) -> None:
        text = self.text
        while self.pos < len(text) and text[self.pos] in chars:
            self.pos += 1

    def skip_comment(self) -> None:
        newline = self.text.find("\n", self.pos)
        self.pos = len(self.text) if newline == -1 else newline

    def skip_blank_lines(self) -> None:
        """White space, line breaks and comments (inside arrays and inline tables)."""
        while self.pos < len(self.text):
            self.skip(_BLANK + "\n")
            if self.pos < len(self.text) and self.text[self.pos] == "#":
                self.skip_comment()
            else:
                return


def _decode(text: str, index: int, quote: str, multi: bool) -> tuple[str, list[int], list[int], int]:
    """Decode the string literal that opens at ``text[index]``.

    Returns:
        The value, the start and end offsets of each of its characters, and the offset just after the
        literal.
    """
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    basic = quote == '"'
    position = index + (3 if multi else 1)
    if multi and text.startswith("\n", position):  # a line break right after """ is trimmed
        position += 1
    elif multi and text.startswith("\r\n", position):
        position += 2
    closing = quote * 3 if multi else quote
    while position < len(text):
        if text.startswith(closing, position):
            # Up to two quotes right before the closing three belong to the value ("""a"""" is 'a"').
            extra = 0
            while multi and extra < 2 and text.startswith(quote, position + 3 + extra):
                extra += 1
            for offset in range(position, position + extra):
                chars.append(quote)
                starts.append(offset)
                ends.append(offset + 1)
            return "".join(chars), starts, ends, position + len(closing) + extra
        char = text[position]
        if not multi and char == "\n":
            break
        if basic and char == "\\":
            position = _escape(text, position, multi, chars, starts, ends)
            continue
        chars.append(char)
        starts.append(position)
        ends.append(position + 1)
        position += 1
    return "".join(chars), starts, ends, position


def _escape(
    text: str, position: int, multi: bool, chars: list[str], starts: list[int], ends: list[int]
) -> int:
    """Decode the escape at ``text[position]`` (a backslash) into ``chars``; returns the offset after it."""
    code = text[position + 1 : position + 2]
    if code in _ESCAPES:
        chars.append(_ESCAPES[code])
        width = 2
    elif code in ("u", "U"):
        width = 6 if code == "u" else 10
        try:
            chars.append(chr(int(text[position + 2 : position + width], 16)))
        except ValueError:
            chars.append("\\")
            width = 1
    elif multi and code in (" ", "\t", "\r", "\n"):
        # A line-ending backslash trims all white space and line breaks up to the next other character.
        after = position + 1
        while after < len(text) and text[after] in " \t\r\n":
            after += 1
        return after
    else:
        chars.append("\\")
        width = 1
    starts.append(position)
    ends.append(position + width)
    return position + width


def toml_error(error: ValueError, text: str) -> tuple[str, int | None, int | None]:
    """What ``tomllib`` says is wrong with ``text``, and where.

    Args:
        error: the ``TOMLDecodeError`` that ``tomllib.loads(text)`` raised.
        text: the text it read.

    Returns:
        ``(message, line, column)``: the message without its position; the 1-based line and column (in
        characters) where the parser stopped, or None for both when the message names none.
    """
    message = str(error)
    match = _ERROR_POSITION.search(message)
    if match is None:
        return message, None, None
    if match.group(1) is not None:
        return message[: match.start()], int(match.group(1)), int(match.group(2))
    before_end = text.rsplit("\n", 1)
    return message[: match.start()], text.count("\n") + 1, len(before_end[-1]) + 1


def check_toml(text: str) -> None:
    """Check that ``text`` is a TOML document that ``tomllib`` (``tomli`` before Python 3.11) reads, before
    :func:`toml_strings` locates its values.

    Raises:
        ExtractError: when a line holds a dotted key too long to read (:func:`long_dotted_key`), or when the
            text is not valid TOML (the message and position are ``tomllib``'s).
    """
    from ascend_reflint.extract.errors import ExtractError

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    long_key = long_dotted_key(text)
    if long_key is not None:
        raise ExtractError(
            f"line {long_key}: a dotted key of more than {MAX_KEY_DOTS + 1} parts, which reflint's TOML "
            "reader takes quadratic time over; not read"
        )
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message, line, column = toml_error(error, text)
        raise ExtractError(f"invalid TOML: {message}", line, column) from None
