"""A reader for the part of HCL that Docker Bake files use, every value's position kept.

HCL's native syntax (hashicorp/hcl, ``hclsyntax/spec.md``): a body is attributes (``name = expression``)
and blocks (``type "label" … { body }``); expressions read here are strings (with ``${…}`` interpolations
kept as written), heredocs (``<<EOT``, ``<<-EOT``), numbers, ``true``/``false``/``null``, references
(``TAG``, ``var.TAG``), tuples ``[…]`` and objects ``{ key = value }`` (``:`` too); anything else (a
function call, an operator, a conditional) is read as an opaque expression that stands for no value.
Comments are ``#``, ``//`` and ``/* … */``.

The well-kept ``python-hcl2`` package parses all of HCL, but gives values without their columns, which the
origin of a build argument (where a fix edits it) needs; bake files use a small, regular part of the
language, which this reader covers with positions. Input is untrusted: nesting is bounded
(:data:`MAX_DEPTH`) and every error is an :class:`~ascend_reflint.extract.errors.ExtractError` naming the
line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.sourcemap import LineIndex

#: Blocks and collections nest at most this deep.
MAX_DEPTH = 64

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*")
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_HEREDOC = re.compile(r"<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\n")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


@dataclass(slots=True)
class HclString:
    """A string: its value (escapes decoded, ``${…}`` kept as written), its span in the text (``[start,
    end)`` of the content, quotes excluded), and whether the text there is the value itself."""

    value: str
    start: int
    end: int
    verbatim: bool


@dataclass(slots=True)
class HclReference:
    """A reference to a variable (``TAG``, ``var.TAG``) or a literal (``true``, ``2``), as written."""

    name: str
    start: int
    end: int


@dataclass(slots=True)
class HclOpaque:
    """An expression this reader does not evaluate (a function call, an operator …)."""

    start: int
    end: int


@dataclass(slots=True)
class HclList:
    items: list[HclValue]


@dataclass(slots=True)
class HclObject:
    """An object: its keys (as written, quotes removed) → values, in order, with each key's start."""

    items: list[tuple[str, int, HclValue]]

    def get(self, key: str) -> HclValue | None:
        return next((value for name, _, value in self.items if name == key), None)


HclValue = HclString | HclReference | HclOpaque | HclList | HclObject


@dataclass(slots=True)
class HclBlock:
    """A block: its type, its labels (as :class:`HclString`), and its body."""

    type: str
    labels: list[HclString]
    body: HclBody
    start: int


@dataclass(slots=True)
class HclBody:
    """A body: attributes (name → value; the last wins) and blocks, in order."""

    attributes: dict[str, HclValue] = field(default_factory=dict)
    blocks: list[HclBlock] = field(default_factory=list)


def parse_hcl(text: str) -> HclBody:
    """Read ``text`` as an HCL body (see the module docstring).

    Raises:
        ExtractError: for text that is not HCL of that kind, naming the line.
    """
    return _Parser(text).body_until(None, 0)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.index = 0
        self.lines = LineIndex(text)

    def fail(self, message: str) -> ExtractError:
        line = self.lines.position(min(self.index, max(len(self.text) - 1, 0)))[0]
        return ExtractError(f"line {line}: {message}")

    # --- characters -----------------------------------------------------------------------------------

    def skip(self, newlines: bool = True) -> None:
        """Skip blanks and comments (and line ends with ``newlines``)."""
        text = self.text
        while self.index < len(text):
            char = text[self.index]
            if char in " \t\r" or (newlines and char == "\n"):
                self.index += 1
            elif char == "#" or text.startswith("//", self.index):
                end = text.find("\n", self.index)
                self.index = len(text) if end == -1 else end
            elif text.startswith("/*", self.index):
                end = text.find("*/", self.index + 2)
                if end == -1:
                    raise self.fail("a comment that is never closed")
                self.index = end + 2
            else:
                return

    def peek(self) -> str:
        return self.text[self.index] if self.index < len(self.text) else ""

    def expect(self, char: str) -> None:
        self.skip()
        if self.peek() != char:
            raise self.fail(f"expected {char!r}")
        self.index += 1

    # --- bodies ---------------------------------------------------------------------------------------

    def body_until(self, closing: str | None, depth: int) -> HclBody:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} deep")
        body = HclBody()
        while True:
            self.skip()
            if self.index >= len(self.text):
                if closing is not None:
                    raise self.fail(f"a block that is never closed with {closing!r}")
                return body
            if self.peek() == closing:
                self.index += 1
                return body
            start = self.index
            name = self.identifier()
            self.skip(newlines=False)
            if self.peek() == "=":
                self.index += 1
                body.attributes[name] = self.expression(depth + 1)
                continue
            labels: list[HclString] = []
            while self.peek() in ('"',) or _IDENTIFIER.match(self.text, self.index):
                if self.peek() == '"':
                    labels.append(self.string())
                else:
                    label_start = self.index
                    label = self.identifier()
                    labels.append(HclString(label, label_start, self.index, True))
                self.skip(newlines=False)
            self.expect("{")
            body.blocks.append(HclBlock(name, labels, self.body_until("}", depth + 1), start))

    def identifier(self) -> str:
        match = _IDENTIFIER.match(self.text, self.index)
        if match is None:
            raise self.fail("expected a name")
        self.index = match.end()
        return match.group()

    # --- expressions ----------------------------------------------------------------------------------

    def expression(self, depth: int) -> HclValue:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} deep")
        self.skip()
        start = self.index
        char = self.peek()
        if char == '"':
            value: HclValue = self.string()
        elif self.text.startswith("<<", self.index):
            value = self.heredoc()
        elif char == "[":
            self.index += 1
            value = HclList(self.items("]", depth))
        elif char == "{":
            self.index += 1
            value = self.object(depth)
        elif (number := _NUMBER.match(self.text, self.index)) is not None:
            self.index = number.end()
            value = HclReference(number.group(), start, self.index)
        elif _IDENTIFIER.match(self.text, self.index):
            name = self.identifier()
            if self.peek() == "(":
                self.skip_balanced()
                value = HclOpaque(start, self.index)
            else:
                value = HclReference(name, start, self.index)
        else:
            raise self.fail("expected a value")
        return self.rest_of_expression(value, start)

    def rest_of_expression(self, value: HclValue, start: int) -> HclValue:
        """What follows a value on its line that is not a separator makes the expression opaque
        (``a ? b : c``, ``x + 1``, ``x[0]``)."""
        self.skip(newlines=False)
        if self.peek() in ("", "\n", ",", "]", "}", ")"):
            return value
        while self.peek() not in ("", "\n", ",", "]", "}"):
            if self.peek() in "([{":
                self.skip_balanced()
            elif self.peek() == '"':
                self.string()
            else:
                self.index += 1
            self.skip(newlines=False)
        return HclOpaque(start, self.index)

    def items(self, closing: str, depth: int) -> list[HclValue]:
        items: list[HclValue] = []
        while True:
            self.skip()
            if self.peek() == closing:
                self.index += 1
                return items
            if not self.peek():
                raise self.fail(f"a list that is never closed with {closing!r}")
            items.append(self.expression(depth + 1))
            self.skip()
            if self.peek() == ",":
                self.index += 1

    def object(self, depth: int) -> HclObject:
        items: list[tuple[str, int, HclValue]] = []
        while True:
            self.skip()
            if self.peek() == "}":
                self.index += 1
                return HclObject(items)
            if not self.peek():
                raise self.fail("an object that is never closed with '}'")
            key_start = self.index
            key = self.string().value if self.peek() == '"' else self.identifier()
            self.skip(newlines=False)
            if self.peek() not in ("=", ":"):
                raise self.fail("expected '=' or ':' after an object key")
            self.index += 1
            items.append((key, key_start, self.expression(depth + 1)))
            self.skip()
            if self.peek() == ",":
                self.index += 1

    def string(self) -> HclString:
        """A quoted string from the ``"`` here: escapes decoded, ``${…}``/``%{…}`` kept as written."""
        text = self.text
        self.index += 1
        start = self.index
        out: list[str] = []
        verbatim = True
        while self.index < len(text):
            char = text[self.index]
            if char == '"':
                self.index += 1
                return HclString("".join(out), start, self.index - 1, verbatim)
            if char == "\n":
                break
            if char == "\\" and self.index + 1 < len(text):
                out.append(_ESCAPES.get(text[self.index + 1], text[self.index + 1]))
                verbatim = False
                self.index += 2
            elif text.startswith(("${", "%{"), self.index):
                end = self._template_end(self.index + 2)
                out.append(text[self.index : end])
                self.index = end
            else:
                out.append(char)
                self.index += 1
        raise self.fail("a string that is never closed")

    def _template_end(self, index: int) -> int:
        """The index after the ``}`` that closes a ``${`` whose body starts at ``index``."""
        depth = 1
        text = self.text
        while index < len(text) and depth:
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
            elif text[index] == "\n":
                break
            index += 1
        if depth:
            raise self.fail("an interpolation that is never closed")
        return index

    def heredoc(self) -> HclString:
        match = _HEREDOC.match(self.text, self.index)
        if match is None:
            raise self.fail("a heredoc needs a name and a line end after '<<'")
        indented, name = match.group(1) == "-", match.group(2)
        body_start = match.end()
        end = re.compile(rf"^[ \t]*{re.escape(name)}[ \t]*$", re.MULTILINE).search(self.text, body_start)
        if end is None:
            raise self.fail(f"a heredoc that is never closed with {name}")
        body = self.text[body_start : end.start()]
        self.index = end.end()
        if indented:
            lines = body.split("\n")
            margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
            body = "\n".join(line[margin:] for line in lines)
            return HclString(body, body_start, end.start(), False)
        return HclString(body, body_start, end.start(), True)

    def skip_balanced(self) -> None:
        """Skip a bracketed part from the bracket here to the one that closes it."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        closing = [pairs[self.peek()]]
        self.index += 1
        while closing:
            self.skip()
            char = self.peek()
            if not char:
                raise self.fail(f"{closing[-1]!r} is never written")
            if char == '"':
                self.string()
            elif char in pairs:
                if len(closing) > MAX_DEPTH:
                    raise self.fail(f"nested more than {MAX_DEPTH} deep")
                closing.append(pairs[char])
                self.index += 1
            elif char == closing[-1]:
                closing.pop()
                self.index += 1
            else:
                self.index += 1
