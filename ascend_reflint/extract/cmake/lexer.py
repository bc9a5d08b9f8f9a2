"""The CMake language read into command invocations with their arguments, every argument's place kept.

The grammar is cmake-language(7) ("Syntax"): a file is command invocations ``identifier(arguments)`` and
comments; an argument is a bracket argument (``[=[…]=]``, taken literally), a quoted argument (``"…"``,
with escapes, variable references and ``\\``-newline continuations) or an unquoted argument (no blanks,
parentheses, ``#``, ``"`` or ``\\`` unescaped; ``a"b c"d``, the "legacy" form, keeps its quotes). Nested
parentheses in arguments are arguments of their own (``(`` and ``)``). A ``#`` outside an argument starts
a line comment, or a bracket comment ``#[[…]]`` that may span lines.

The scan is one pass over the text with no recursion. Malformed input (an unclosed parenthesis, quote or
bracket) ends the invocation at the end of the text; the invocations before it are kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACKET_OPEN = re.compile(r"\[(=*)\[")
_BLANKS = " \t\r"
#: Characters that end an unquoted argument (cmake-language(7) ``unquoted_element``).
_UNQUOTED_END = frozenset(' \t\r\n()#"')


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a command invocation.

    Attributes:
        kind: ``"bracket"``, ``"quoted"`` or ``"unquoted"``.
        start: 0-based character offset of the argument's first character in the file (its quote or
            bracket included).
        end: the offset just after it.
        content_start: the offset of its content (after ``"`` or ``[==[``).
        content_end: the offset just after its content (before ``"`` or ``]==]``).
    """

    kind: str
    start: int
    end: int
    content_start: int
    content_end: int


@dataclass(slots=True)
class Invocation:
    """A command invocation: its name as written, where the name is, and its arguments in order."""

    name: str
    start: int
    arguments: list[Argument] = field(default_factory=list)

    @property
    def lower(self) -> str:
        """The command's name in lower case (CMake command names are case-insensitive)."""
        return self.name.lower()


def invocations(text: str) -> list[Invocation]:
    """Every command invocation of a CMake file, in order (comments and blank lines left out).

    Args:
        text: the file's text.

    Returns:
        The invocations; text that is no invocation (stray words) is skipped up to the end of its line.
    """
    found: list[Invocation] = []
    position, size = 0, len(text)
    while position < size:
        char = text[position]
        if char in _BLANKS or char == "\n":
            position += 1
        elif char == "#":
            position = _comment_end(text, position)
        else:
            name = _IDENTIFIER.match(text, position)
            if name is None:
                position = _line_end(text, position)
                continue
            after = name.end()
            while after < size and text[after] in _BLANKS:
                after += 1
            if after >= size or text[after] != "(":
                position = _line_end(text, position)
                continue
            invocation = Invocation(name.group(), position)
            position = _read_arguments(text, after + 1, invocation.arguments)
            found.append(invocation)
    return found


def _line_end(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end == -1 else end + 1


def _comment_end(text: str, position: int) -> int:
    """The offset after the comment that starts with the ``#`` at ``position`` (bracket or line)."""
    bracket = _BRACKET_OPEN.match(text, position + 1)
    if bracket is not None:
        close = text.find("]" + bracket.group(1) + "]", bracket.end())
        return len(text) if close == -1 else close + len(bracket.group(1)) + 2
    return _line_end(text, position)


def _read_arguments(text: str, position: int, arguments: list[Argument]) -> int:
    """Read the arguments after ``(`` at ``position`` up to the matching ``)``; return the offset after it."""
    depth, size = 1, len(text)
    while position < size:
        char = text[position]
        if char in _BLANKS or char == "\n":
            position += 1
        elif char == "#":
            position = _comment_end(text, position)
        elif char == "(":
            depth += 1
            arguments.append(Argument("unquoted", position, position + 1, position, position + 1))
            position += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position + 1
            arguments.append(Argument("unquoted", position, position + 1, position, position + 1))
            position += 1
        elif char == '"':
            end = _quoted_end(text, position + 1)
            arguments.append(Argument("quoted", position, min(end + 1, size), position + 1, end))
            position = end + 1
        elif char == "[" and (bracket := _BRACKET_OPEN.match(text, position)) is not None:
            closing = "]" + bracket.group(1) + "]"
            close = text.find(closing, bracket.end())
            content_end = size if close == -1 else close
            end = size if close == -1 else close + len(closing)
            arguments.append(Argument("bracket", position, end, bracket.end(), content_end))
            position = end
        else:
            end = _unquoted_end(text, position)
            arguments.append(Argument("unquoted", position, end, position, end))
            position = end
    return size


def _quoted_end(text: str, position: int) -> int:
    """The offset of the ``"`` that closes a quoted argument whose content starts at ``position``."""
    size = len(text)
    while position < size:
        char = text[position]
        if char == "\\":
            position += 2
        elif char == '"':
            return position
        else:
            position += 1
    return size


def _unquoted_end(text: str, position: int) -> int:
    """The offset after an unquoted argument that starts at ``position`` (``\\`` escapes the next
    character; a ``"`` inside the argument opens a quoted part that the argument keeps, the legacy form)."""
    size = len(text)
    start = position
    while position < size:
        char = text[position]
        if char == "\\":
            position += 2
        elif char == '"' and position > start:
            position = _quoted_end(text, position + 1) + 1
        elif char == "$" and text.startswith("{", position + 1):
            position = _reference_end(text, position + 1)
        elif char in _UNQUOTED_END:
            break
        else:
            position += 1
    return min(position, size)


def _reference_end(text: str, brace: int) -> int:
    """The offset after the ``}`` that closes the ``{`` at ``brace`` (references nest: ``${a_${b}}``)."""
    depth = 0
    for index in range(brace, len(text)):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        elif char == "\n":
            return index
    return len(text)
