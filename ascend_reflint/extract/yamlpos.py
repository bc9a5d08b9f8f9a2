"""YAML as a small tree of nodes that know where they sit in the file, and maps from a scalar's value back
to the file's characters.

Why not a ``load``: a workflow is untrusted text and reflint needs positions, not Python objects. The tree
is built straight from parser events: libyaml's through PyYAML when it is installed with libyaml, else
ruamel.yaml's pure-Python parser (YAML 1.2). Either way:

- no tag is ever constructed (``!!python/object/apply:os.system`` stays an inert tag on a node);
- an alias is the very node its anchor names, never a copy, so an alias bomb ("billion laughs") costs
  memory linear in the file's size; walking it is the caller's business (walk fixed paths only);
- nesting depth costs no Python recursion (the parsers and this builder keep explicit stacks) and is
  limited to :data:`MAX_DEPTH`.

Speed, measured on volcengine/verl's 28 workflows (150 kB, parse only): ruamel.yaml's round-trip
``load`` takes 6.7 ms a file, its ``compose`` 4.6 ms, its events with this builder 3.7 ms; libyaml's events
with this builder 0.3 ms.

Merge keys (``<<``) are not expanded (GitHub Actions documents anchors and aliases, not merge keys): a
``<<`` key is an ordinary key here.

Positions: a scalar's value is aligned with the characters that spell it (YAML 1.2, chapters 7 and 8:
plain, single- and double-quoted flow scalars, literal ``|`` and folded ``>`` block scalars with their
header, anchors and tags). Every character of the value that the file spells (all but the spaces and line
breaks that line folding and indentation stripping create) maps to the file's own line and column,
exactly; a character that folding creates maps to the line break it replaces. When the alignment cannot
be made (it should not happen), every character maps to the value's first character instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.model import Span
from ascend_reflint.sourcemap import LineIndex, SourceMap, SourceMapBuilder

try:  # PyYAML's binding of libyaml, when installed with it: the same events, about 25 times faster.
    from yaml import CSafeLoader as LibyamlLoader
except ImportError:  # ruamel.yaml's parser is used instead (imported only then: it is slow to import)
    LibyamlLoader = None

#: Collections nest at most this deep. Workflows nest about ten levels; ruamel.yaml's scanner takes time
#: quadratic in the nesting depth (50 000 nested ``[`` take minutes), so deeper text is refused early.
MAX_DEPTH = 100
#: The most nodes (scalars, aliases, mappings and sequences) read from one document. Each costs some 1 kB
#: and 35 µs to read and walk, and a flow collection puts any number of them on one line: a GitLab CI
#: ``script: [x, x, …]`` of 3.5 million items (10 MiB) took 3.5 GB. A workflow of thousands of lines holds
#: some tens of thousands.
MAX_NODES = 200_000


@dataclass(frozen=True, slots=True, eq=False)
class YamlScalar:
    """A scalar: its value as YAML gives it (always text: ``true`` and ``1`` stay ``"true"`` and ``"1"``).

    Attributes:
        value: the scalar's content after YAML's unquoting, escapes, folding and chomping.
        style: None for plain, ``'"'``/``"'"`` for quoted, ``"|"``/``">"`` for block scalars.
        start: 0-based character index in the file where the node starts (anchor and tag included).
        end: 0-based character index just after the node.
    """

    value: str
    style: str | None
    start: int
    end: int


@dataclass(slots=True, eq=False)
class YamlMapping:
    """A mapping, its pairs in file order; look keys up with :meth:`get`.

    Attributes:
        pairs: (key, value) nodes in file order.
        start: 0-based character index where the mapping starts.
    """

    start: int
    pairs: list[tuple[YamlNode, YamlNode]] = field(default_factory=list)
    _index: dict[str, YamlNode] = field(default_factory=dict)

    def get(self, key: str) -> YamlNode | None:
        """The value of the scalar key ``key`` (the last one when a key repeats), or None."""
        return self._index.get(key)


@dataclass(slots=True, eq=False)
class YamlSequence:
    """A sequence, its items in file order.

    Attributes:
        items: the item nodes.
        start: 0-based character index where the sequence starts.
    """

    start: int
    items: list[YamlNode] = field(default_factory=list)


YamlNode = YamlScalar | YamlMapping | YamlSequence


def parse_yaml(text: str) -> YamlNode | None:
    """Parse the one YAML document in ``text`` into a tree of :class:`YamlScalar`, :class:`YamlMapping` and
    :class:`YamlSequence` nodes.

    The events come from libyaml (through PyYAML) when it is installed, else from ruamel.yaml's pure-Python
    parser; the tree is the same.

    Args:
        text: the file's text.

    Returns:
        The document's root node, or None for a stream with no document (empty or comments only).

    Raises:
        ExtractError: for malformed YAML, an undefined alias, a second document, nesting deeper than
            :data:`MAX_DEPTH` or more than :data:`MAX_NODES` nodes, with the 1-based line and column: for
            a bracket or quote that is never closed, those of the bracket or quote (the parser stops later,
            often at the end of the file, where nothing is wrong).
    """
    builder = _TreeBuilder(text)
    try:
        for event in _events(text):
            builder.feed(event)
    except _SyntaxError as error:
        index, problem = yaml_problem(text, error.original, builder.open_flow_collection())
        raise ExtractError(_located(text, index, f"malformed YAML: {problem}")) from None
    return builder.root


class _SyntaxError(Exception):
    """The parser's error, carried out of the event generator to where the builder's state is known."""

    def __init__(self, original: Exception) -> None:
        super().__init__(str(original))
        self.original = original


def _events(text: str) -> Iterator[Any]:
    """The parser events of ``text``: libyaml's when available, else ruamel.yaml's (same names and marks).

    Raises:
        _SyntaxError: for malformed YAML.
    """
    if LibyamlLoader is None:
        yield from _ruamel_events(text)
        return
    from yaml import YAMLError

    try:
        loader = LibyamlLoader(text)
        try:
            while loader.check_event():
                yield loader.get_event()
        finally:
            loader.dispose()
    except YAMLError as exc:
        raise _SyntaxError(exc) from None


def _ruamel_events(text: str) -> Iterator[Any]:
    """ruamel.yaml's parser events of ``text`` (ruamel.yaml is imported here, on first use: importing it
    takes several milliseconds, and it is needed only when PyYAML lacks libyaml).

    Raises:
        _SyntaxError: for malformed YAML.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        yield from YAML(typ="safe", pure=True).parse(text)
    except YAMLError as exc:
        raise _SyntaxError(exc) from None


#: The parsers' contexts inside a flow collection (libyaml's and ruamel.yaml's, which share them).
_FLOW_CONTEXTS = frozenset(
    {"while parsing a flow sequence", "while parsing a flow mapping", "while parsing a flow node"}
)


def yaml_problem(text: str, error: Exception, open_flow: int | None = None) -> tuple[int | None, str]:
    """Where a YAML error of PyYAML or ruamel.yaml is, and what it is.

    A bracket or quote that is never closed is reported where it opens, the position that tells the user
    what to fix: the parser stops later, often at the end of the file (``run: [`` then more lines), where
    nothing is wrong.

    Args:
        text: the text parsed.
        error: a ``YAMLError`` of either library.
        open_flow: the offset of the ``[`` or ``{`` of the innermost flow collection open when the parser
            stopped, when the caller followed its events (the parser names it for a missing ``,`` or
            ``]``, but not for a missing value: ``- run: [`` at the end of the file).

    Returns:
        ``(index, problem)``: the 0-based character offset (None when the error names none) and the text,
        such as ``'[' is never closed: at line 9, column 1, did not find expected ',' or ']'``.
    """
    problem_mark = getattr(error, "problem_mark", None)
    context_mark = getattr(error, "context_mark", None)
    context = str(getattr(error, "context", None) or "")
    problem = getattr(error, "problem", None) or getattr(error, "reason", None) or context or str(error)
    opened = _opener(context, context_mark, open_flow)
    if opened is not None and problem_mark is not None and opened < len(text):
        where = f"line {problem_mark.line + 1}, column {problem_mark.column + 1}"
        return opened, f"{text[opened]!r} is never closed: at {where}, {problem}"
    # A key without its ':' is named where the key starts; the parser looks for the ':' up to the line's end.
    mark = context_mark if context == "while scanning a simple key" else problem_mark or context_mark
    return (mark.index if mark is not None else getattr(error, "position", None)), str(problem)


def _opener(context: str, context_mark: Any, open_flow: int | None) -> int | None:
    """The offset of the bracket or quote that the parser's ``context`` says is open, or None."""
    if context in _FLOW_CONTEXTS:
        if open_flow is not None:
            return open_flow
        # "while parsing a flow node" marks where the missing node would be, not the bracket.
        return context_mark.index if context_mark is not None and not context.endswith("node") else None
    if context == "while scanning a quoted scalar" and context_mark is not None:
        return int(context_mark.index)
    return None


def _located(text: str, index: int | None, message: str) -> str:
    if index is None:
        return message
    line, column = LineIndex(text).position(min(max(index, 0), len(text)))
    return f"line {line}, column {column}: {message}"


#: The events that each add a node to the tree (:data:`MAX_NODES`).
_NODE_EVENTS = frozenset({"ScalarEvent", "AliasEvent", "MappingStartEvent", "SequenceStartEvent"})


class _TreeBuilder:
    """Builds the tree from parser events with an explicit stack (deep nesting costs no recursion).

    Events are told apart by class name, which ruamel.yaml and PyYAML share.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.root: YamlNode | None = None
        self.documents = 0
        self.nodes = 0
        self.anchors: dict[str, YamlNode] = {}
        # Each open collection with its children so far (a mapping's as key, value, key, value …).
        self.stack: list[tuple[YamlMapping | YamlSequence, list[YamlNode]]] = []

    def feed(self, event: Any) -> None:
        kind = type(event).__name__
        if kind in _NODE_EVENTS:
            self.nodes += 1
            if self.nodes > MAX_NODES:
                message = f"more than {MAX_NODES:,} YAML nodes, more than any recipe holds"
                raise ExtractError(_located(self.text, event.start_mark.index, message))
        if kind == "ScalarEvent":
            # PyYAML gives plain scalars the style "", ruamel.yaml None.
            style = event.style or None
            scalar = YamlScalar(event.value, style, event.start_mark.index, event.end_mark.index)
            self._anchor(event.anchor, scalar)
            self._attach(scalar)
        elif kind == "AliasEvent":
            target = self.anchors.get(event.anchor)
            if target is None:
                message = f"malformed YAML: alias *{event.anchor} names no anchor before it"
                raise ExtractError(_located(self.text, event.start_mark.index, message))
            self._attach(target)
        elif kind in ("MappingStartEvent", "SequenceStartEvent"):
            self._open(kind, event.start_mark.index, event.anchor)
        elif kind in ("MappingEndEvent", "SequenceEndEvent"):
            self._attach(self._close())
        elif kind == "DocumentStartEvent":
            self.documents += 1
            if self.documents > 1:
                message = "a second YAML document; a workflow or action file holds one"
                raise ExtractError(_located(self.text, event.start_mark.index, message))

    def _open(self, kind: str, start: int, anchor: str | None) -> None:
        node: YamlMapping | YamlSequence
        node = YamlMapping(start) if kind == "MappingStartEvent" else YamlSequence(start)
        self._anchor(anchor, node)
        self.stack.append((node, []))
        if len(self.stack) > MAX_DEPTH:
            message = f"nested deeper than {MAX_DEPTH} levels; a workflow never is"
            raise ExtractError(_located(self.text, start, message))

    def open_flow_collection(self) -> int | None:
        """The offset of the ``[`` or ``{`` of the innermost flow collection still open, or None."""
        for node, _ in reversed(self.stack):
            if self.text.startswith(("[", "{"), node.start):
                return node.start
        return None

    def _anchor(self, anchor: str | None, node: YamlNode) -> None:
        if anchor is not None:
            self.anchors[anchor] = node

    def _close(self) -> YamlNode:
        node, children = self.stack.pop()
        if isinstance(node, YamlSequence):
            node.items = children
            return node
        node.pairs = list(zip(children[0::2], children[1::2], strict=True))
        node._index = {key.value: value for key, value in node.pairs if isinstance(key, YamlScalar)}
        return node

    def _attach(self, node: YamlNode) -> None:
        if self.stack:
            self.stack[-1][1].append(node)
        else:
            self.root = node


def scalar_source_map(text: str, scalar: YamlScalar, lines: LineIndex) -> SourceMap:
    """A map from offsets in ``scalar.value`` to the file's line and column.

    Args:
        text: the whole file's text (the one ``scalar`` was parsed from).
        scalar: a scalar node of that text.
        lines: the :class:`LineIndex` of ``text``.

    Returns:
        The map: exact for every character the file spells (see the module's docstring); when the value
        cannot be aligned with the file, every offset maps to the value's first character.
    """
    begin, end = _content_region(text, scalar)
    pieces = _align(text, scalar, begin, end)
    builder = SourceMapBuilder()
    if pieces is None:  # (never an empty value) every character maps to where the value starts
        builder.insert(scalar.value, *lines.position(begin))
    elif not pieces:  # an empty value: offset 0 is where it would start
        builder.source_map.add(0, *lines.position(begin))
    else:  # the pieces tile the value from offset 0 on
        ends = [offset for offset, _index, _width in pieces[1:]] + [len(scalar.value)]
        for (offset, index, width), piece_end in zip(pieces, ends, strict=True):
            if width > 1:  # an escape, a piece of one character
                builder.spelled(scalar.value[offset], *lines.position(index), width)
            else:
                builder.copy(scalar.value[offset:piece_end], *lines.position(index))
    return builder.source_map


def value_span(text: str, scalar: YamlScalar, lines: LineIndex) -> Span:
    """The span of a scalar's value in the file (quotes and block header left out); for an empty quoted
    value, its quotes (what stands for it in the file), and an empty span where an empty plain value is.

    Args:
        text: the whole file's text.
        scalar: a scalar node of that text.
        lines: the :class:`LineIndex` of ``text``.
    """
    if not scalar.value:
        begin = _skip_properties(text, scalar.start, scalar.end)
        return lines.span(begin, scalar.end)
    if scalar.style in ("|", ">"):  # the block's first character is after its indentation
        return scalar_source_map(text, scalar, lines).span(0, len(scalar.value))
    # A flow scalar is spelt by its whole content region, escapes included to their last character.
    return lines.span(*_content_region(text, scalar))


def _content_region(text: str, scalar: YamlScalar) -> tuple[int, int]:
    """The character range that spells the value: after anchor, tag and (block) header, inside quotes."""
    begin, end = _skip_properties(text, scalar.start, scalar.end), scalar.end
    if scalar.style in ('"', "'"):
        return begin + 1, max(begin + 1, end - 1)
    if scalar.style in ("|", ">"):
        header_end = text.find("\n", begin, end)
        return (end, end) if header_end == -1 else (header_end + 1, end)
    return begin, end


def _skip_properties(text: str, index: int, end: int) -> int:
    """Skip a node's ``&anchor`` and ``!tag`` properties and the space and comments after them."""
    while index < end and text[index] in "&!":
        while index < end and text[index] not in " \t\r\n":
            index += 1
        while index < end and text[index] in " \t\r\n#":
            if text[index] == "#":
                newline = text.find("\n", index, end)
                index = end if newline == -1 else newline
            else:
                index += 1
    return index


#: What line folding and indentation stripping may take out of a flow scalar: blanks and line breaks, NEL
#: (U+0085) among them, which libyaml reads as a line break (YAML 1.1, 5.4) and the value holds as ``\n``.
_BLANKS = " \t\r\n\x85"
_FAST_STYLES = (None, "|", ">")


def _align(text: str, scalar: YamlScalar, begin: int, end: int) -> list[tuple[int, int, int]] | None:
    """Pair runs of ``scalar.value`` with the file characters that spell them.

    Walks value and file together: a file unit (one character, a ``''`` in single quotes, an escape in
    double quotes) that stands for the value's next character is paired with it; a blank of the value
    that the file does not spell there was made by folding or chomping; a blank of the file that the
    value does not hold was indentation or folded away. Anything else means the two disagree.

    Returns:
        ``(value offset, file index, width)`` for the start of each run of consecutive characters on one
        line (width 1), or of a character that a unit of ``width`` > 1 file characters stands for (alone
        in its run), or None when the value cannot be aligned with the file.
    """
    value, style = scalar.value, scalar.style
    pieces: list[tuple[int, int, int]] = []
    i, j, n = 0, begin, len(value)
    joined_to = -1  # the file index just after the last paired run, if the next one may continue it
    while i < n:
        char = value[i]
        unit, width = _file_unit(text, j, end, style) if j < end else ("", 0)
        if width and unit == "":
            j += width  # an escaped line break in double quotes stands for nothing
            continue
        if width and unit == char:
            run = _run_length(text, value, i, j, end, style) if width == 1 else 1
            if j != joined_to or width > 1:
                pieces.append((i, j, width))
            i, j = i + run, j + width + run - 1
            # After a line break or an escape, value offsets and file columns no longer advance together.
            joined_to = j if char != "\n" and width == 1 else -1
        elif char in " \t\n":
            after_blanks = _skip_blanks(text, j, end)
            if j < after_blanks < end and _file_unit(text, after_blanks, end, style)[0] == char:
                j, joined_to = after_blanks, -1  # an escaped blank after indentation: pair it next round
                continue
            pieces.append((i, j, 1))
            i, joined_to = i + 1, -1
        elif j < end and text[j] in _BLANKS:
            j, joined_to = j + 1, -1
        else:
            return None
    return pieces


def _skip_blanks(text: str, j: int, end: int) -> int:
    while j < end and text[j] in _BLANKS:
        j += 1
    return j


def _file_unit(text: str, j: int, end: int, style: str | None) -> tuple[str, int]:
    """The value text that the file's unit at ``j`` stands for, and the unit's width in characters."""
    char = text[j]
    if style == "'" and char == "'" and text.startswith("''", j):
        return "'", 2
    if style == '"' and char == "\\" and j + 1 < end:
        escaped = text[j + 1]
        if escaped in "\r\n":
            return "", _escaped_break_width(text, j + 1, end)
        if escaped in _ESCAPES:
            return _ESCAPES[escaped], 2
        digits = _ESCAPE_CODES.get(escaped)
        if digits is not None:
            try:
                return chr(int(text[j + 2 : j + 2 + digits], 16)), 2 + digits
            except ValueError:
                return char, 1
    return char, 1


#: Double-quoted escapes (YAML 1.2.2, 5.7 "Escaped Characters"; the same table as libyaml's and
#: ruamel.yaml's scanners): the character after the backslash and what the pair stands for.
_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\x09",
    "\t": "\x09",
    "n": "\x0a",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\x0d",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
#: Escapes followed by hexadecimal digits: how many (``\x41``, ``\u00e9``, ``\U0001F600``).
_ESCAPE_CODES = {"x": 2, "u": 4, "U": 8}


def _escaped_break_width(text: str, j: int, end: int) -> int:
    """The width of ``\\`` + line break + the next line's leading blanks, which stand for nothing.

    ``j`` is the index of the line break (after the backslash).
    """
    k = j + 2 if text.startswith("\r\n", j) else j + 1
    while k < end and text[k] in " \t":
        k += 1
    return k - j + 1


def _run_length(text: str, value: str, i: int, j: int, end: int, style: str | None) -> int:
    """How many characters from ``value[i]`` and ``text[j]`` on agree one to one, up to the line's end."""
    newline = value.find("\n", i + 1)
    stop = len(value) if newline == -1 else newline
    if value[i] == "\n":
        return 1
    segment = value[i:stop]
    if style in _FAST_STYLES and j + len(segment) <= end and text.startswith(segment, j):
        return len(segment)
    special = "'" if style == "'" else "\\" if style == '"' else ""
    length = 1
    limit = min(stop - i, end - j)
    while length < limit and value[i + length] == text[j + length] and value[i + length] not in special:
        length += 1
    return length
