"""Dockerfile extraction: ARG/ENV per build stage, WORKDIR, and RUN bodies handed to the shell extractor.

The file is read the way BuildKit's Dockerfile frontend reads it (moby/buildkit ``frontend/dockerfile``:
``parser/parser.go``, ``parser/line_parsers.go``, ``parser/directives.go``, ``shell/lex.go`` and
``dockerfile2llb/convert.go``; the "Dockerfile reference" says the same in prose):

- Parser directives (``# escape=``` ``, ``# syntax=``, ``# check=``) are read only before the first comment,
  blank line or instruction. The escape token (``\\`` or a backtick) continues a line when it is the last
  character before optional spaces or tabs and is not itself escaped.
- Inside a continuation, comment lines and blank lines are dropped; the next line's text follows the
  previous one directly, leading whitespace kept.
- ``RUN``/``COPY``/``ADD`` (also under ``ONBUILD``) in shell form may carry heredocs: every word of the line
  that is ``[n]<<[-]NAME`` opens one, and its body is the lines up to one equal to NAME (after leading tabs
  with ``<<-``). A ``RUN`` whose command is just ``<<NAME`` runs the body with the shell (or with its ``#!``
  interpreter); any other command line gets the heredocs appended and goes to the shell whole. reflint
  reads ``RUN [<<NAME] prog [-options] [<<NAME]`` with ``prog`` a shell as that shell's script, and lays
  other command lines out so that tree-sitter-bash reads them as the shell does (see
  :func:`_heredoc_command`).
- ``RUN ["prog", "arg", …]`` (exec form) runs ``prog`` without a shell: no variable is expanded.
- ``ARG``/``ENV`` values are unquoted and expanded by Docker's own word lexer. A global ``ARG`` (before the
  first ``FROM``) is seen in a stage only when the stage redeclares it (``ARG NAME``), taking the global
  value; ``--build-arg`` overrides every declared ``ARG``; each ``ARG``/``ENV`` applies from its line on, in
  order (``dispatchArg`` adds the value to the stage's environment). All values of one ``ENV`` line are
  expanded before any of them is set.
- ``FROM stage`` starts from that earlier stage's state: its environment (ARG and ENV values), working
  directory and ``SHELL``.

The ``dockerfile-parse`` package is not used: it turns heredoc bodies into instructions (its issue #145),
misreads ``${V:-default}``, lets a global ARG default beat a stage's own, and joins continuation lines into a
``value`` that cannot be mapped back to file positions, which every pin needs. What it gets right (finding
where instructions start and end) is exactly what the position-keeping scanner below must do anyway, so a
second parse would add nothing. The scanner follows BuildKit and keeps each character's position.
"""

from __future__ import annotations

import dataclasses
import json
import posixpath
import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.extract import shell
from ascend_reflint.extract.commands import SHELLS
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.model import EnvSetting, FileKind, Pin, Resolution, SourceFile, Span
from ascend_reflint.resolve import Binding, Scope, closing_bracket, expand, referenced_names, unquote
from ascend_reflint.sourcemap import SourceMapBuilder

if TYPE_CHECKING:
    from ascend_reflint.extract.shell import ShellSession

_DIRECTIVE = re.compile(r"#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$")
_KNOWN_DIRECTIVES = frozenset({"escape", "syntax", "check"})
_WHITESPACE = re.compile(r"[\t\v\f\r ]+")
_HEREDOC_WORD = re.compile(r"(\d*)<<(-?)([^<]*)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SHELL_ASSIGNMENT = re.compile(r"(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=")
#: A commented-out ``ARG NAME``/``ENV NAME`` or shell assignment: ``# ARG MCORE_REF=core_v0.18.0``.
_COMMENTED_DECLARATION = re.compile(
    r"#+[ \t]*(?:(?i:ARG|ENV)[ \t]+([A-Za-z_][A-Za-z0-9_]*)"
    r"|(?:(?:export|local|readonly|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=)"
)
#: Characters that a shell word may hold unquoted and still mean itself (for exec-form arguments).
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")
_INTERPRETERS = re.compile(r"(?:python[0-9.]*|pypy[0-9.]*|perl|ruby|node|php|lua|Rscript)")
_HEREDOC_INSTRUCTIONS = frozenset({"RUN", "COPY", "ADD"})
_ONBUILD_RUN = re.compile(r"\s*RUN(?=\s|$)", re.IGNORECASE)
#: ARGs that BuildKit sets itself (dockerfile2llb ``defaultArgs``): a stage sees them after ``ARG NAME``.
_PLATFORM_ARGS = frozenset(
    {
        "BUILDPLATFORM",
        "BUILDOS",
        "BUILDOSVERSION",
        "BUILDARCH",
        "BUILDVARIANT",
        "TARGETPLATFORM",
        "TARGETOS",
        "TARGETOSVERSION",
        "TARGETARCH",
        "TARGETVARIANT",
        "TARGETSTAGE",
    }
)
_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def extract_dockerfile(source: SourceFile, build_args: Mapping[str, str]) -> None:
    """Fill ``source.pins``, ``source.env`` and ``source.notices`` from a Dockerfile's ``text``.

    Every ``RUN`` that can hold a pin (its text mentions ``git``, or a variable whose value does) goes to
    the shell extractor; the RUNs of one build stage share one :class:`ShellSession`, so that a clone in one
    RUN and a checkout in a later one (after ``WORKDIR``) make one pin.

    Args:
        source: the file, with ``text`` read. Pins get ``path=source.path``, ``kind=FileKind.DOCKERFILE``
            and ``stage`` = the stage's ``AS`` name, or its 0-based index as a string.
        build_args: ``--build-arg NAME=VALUE`` values; each overrides the ``ARG NAME`` it names.

    Raises:
        ExtractError: for a bad parser directive or an unterminated heredoc (Docker refuses the file too).
            Pins from the instructions before the failure are kept.
    """
    assert source.text is not None
    parsed = _parse(source.text)
    _Extractor(source, build_args, parsed).run()
    if parsed.error is not None:
        raise ExtractError(parsed.error)


# --------------------------------------------------------------------------------------------------
# Reading lines into instructions, with every character's file position.


class _Logical:
    """One instruction as Docker reads it (continuation lines joined), with each piece's file position."""

    __slots__ = ("_columns", "_lines", "_offsets", "first_line", "text")

    def __init__(self, first_line: int) -> None:
        self.text = ""
        self.first_line = first_line
        self._offsets: list[int] = []
        self._lines: list[int] = []
        self._columns: list[int] = []

    def append(self, piece: str, line: int, column: int) -> None:
        """Add ``piece``, which sits on file ``line`` from ``column`` on."""
        if not piece:
            return
        self._offsets.append(len(self.text))
        self._lines.append(line)
        self._columns.append(column)
        self.text += piece

    def position(self, offset: int) -> tuple[int, int]:
        """The file (line, column) of ``text[offset]`` (just after the last piece for ``len(text)``)."""
        index = bisect_right(self._offsets, offset) - 1
        if index < 0:
            return self.first_line, 1
        return self._lines[index], self._columns[index] + offset - self._offsets[index]

    def span(self, start: int, end: int) -> Span:
        """The file span of ``text[start:end]`` (``end > start``)."""
        line, column = self.position(start)
        end_line, last_column = self.position(end - 1)
        return Span(line, column, end_line, last_column + 1)

    def copy_to(self, out: SourceMapBuilder, start: int, end: int) -> None:
        """Append ``text[start:end]`` to ``out``, split where the file's lines split it."""
        index = max(bisect_right(self._offsets, start) - 1, 0)
        while start < end and index < len(self._offsets):
            piece_end = self._offsets[index + 1] if index + 1 < len(self._offsets) else len(self.text)
            stop = min(end, piece_end)
            if stop > start:
                column = self._columns[index] + start - self._offsets[index]
                out.copy(self.text[start:stop], self._lines[index], column)
                start = stop
            index += 1


@dataclass(slots=True)
class _Heredoc:
    """A heredoc attached to an instruction: its name, ``<<-``, and its body (lines with their newlines)."""

    name: str
    chomp: bool
    body: str = ""
    first_line: int = 0
    end_line: int = 0
    end_column: int = 1


@dataclass(slots=True)
class _Instruction:
    """One instruction: keyword (upper case), its text, where its arguments start, and its heredocs."""

    keyword: str
    logical: _Logical
    args_start: int
    heredocs: list[_Heredoc] = field(default_factory=list)

    @property
    def args(self) -> str:
        """The arguments after the keyword and the ``--flags``, without surrounding whitespace."""
        return self.logical.text[self.args_start :].rstrip()

    @property
    def line(self) -> int:
        """The instruction's first line."""
        return self.logical.first_line


@dataclass(slots=True)
class _Parsed:
    """A read Dockerfile: instructions, comment lines (line, text) and the error that stopped reading."""

    instructions: list[_Instruction]
    comments: list[tuple[int, str]]
    escape: str
    error: str | None = None


def _parse(text: str) -> _Parsed:
    """Read ``text`` into instructions as BuildKit's parser does (see the module docstring)."""
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    parsed = _Parsed([], [], "\\")
    reader = _LineReader(lines, parsed)
    try:
        reader.read()
    except ExtractError as error:
        parsed.error = str(error)
    return parsed


class _LineReader:
    """BuildKit's ``parser.Parse`` loop over physical lines."""

    def __init__(self, lines: list[str], parsed: _Parsed) -> None:
        self.lines = lines
        self.parsed = parsed
        self.index = 0
        self.directives_done = False
        self.seen_directives: set[str] = set()

    def next_line(self) -> tuple[int, str]:
        """The next physical line (1-based number, text without the line ending)."""
        self.index += 1
        return self.index, self.lines[self.index - 1].rstrip("\r\n")

    def read(self) -> None:
        while self.index < len(self.lines):
            number, raw = self.next_line()
            stripped = raw.lstrip()
            if not self.directives_done:
                self._directive(number, stripped)
            if stripped.startswith("#"):
                self.parsed.comments.append((number, stripped))
                continue
            piece, ends = _trim_continuation(stripped, self.parsed.escape)
            if ends and not piece:
                continue
            logical = _Logical(number)
            logical.append(piece, number, len(raw) - len(stripped) + 1)
            while not ends and self.index < len(self.lines):
                number, raw = self.next_line()
                content = raw.lstrip()
                if content.startswith("#"):
                    self.parsed.comments.append((number, content))
                    continue
                if not content:
                    continue
                piece, ends = _trim_continuation(raw, self.parsed.escape)
                logical.append(piece, number, 1)
            instruction = _instruction(logical)
            self._read_heredocs(instruction)
            self.parsed.instructions.append(instruction)

    def _directive(self, number: int, stripped: str) -> None:
        match = _DIRECTIVE.match(stripped) if stripped.startswith("#") else None
        name = match.group(1).lower() if match else ""
        if match is None or name not in _KNOWN_DIRECTIVES:
            self.directives_done = True
            return
        if name in self.seen_directives:
            raise ExtractError(f"line {number}: only one {name} parser directive can be used")
        self.seen_directives.add(name)
        if name == "escape":
            value = match.group(2)
            if value not in ("\\", "`"):
                raise ExtractError(f"line {number}: invalid escape token {value!r} (expected ` or \\)")
            self.parsed.escape = value

    def _read_heredocs(self, instruction: _Instruction) -> None:
        if "<<" not in instruction.logical.text or not _can_hold_heredoc(instruction):
            return
        for heredoc in _heredocs_in(instruction.logical.text):
            heredoc.first_line = self.index + 1
            body: list[str] = []
            while True:
                if self.index >= len(self.lines):
                    raise ExtractError(f"line {instruction.line}: unterminated heredoc <<{heredoc.name}")
                number, raw = self.next_line()
                candidate = raw.lstrip("\t") if heredoc.chomp else raw
                if candidate == heredoc.name:
                    heredoc.end_line, heredoc.end_column = number, len(raw) - len(candidate) + 1
                    break
                body.append(raw + "\n")
            heredoc.body = "".join(body)
            instruction.heredocs.append(heredoc)


def _trim_continuation(line: str, escape: str) -> tuple[str, bool]:
    """Remove a trailing escape token (line continuation); True when the line does not continue.

    BuildKit's pattern: the escape token, then only spaces or tabs, preceded by anything but the escape
    token (``foo \\\\`` does not continue).
    """
    stripped = line.rstrip(" \t")
    if stripped.endswith(escape) and (len(stripped) == 1 or stripped[-2] != escape):
        return stripped[:-1], False
    return line, True


def _instruction(logical: _Logical) -> _Instruction:
    """Split the keyword and the ``--flags`` off an instruction's text."""
    text = logical.text
    start = len(text) - len(text.lstrip())
    gap = _WHITESPACE.search(text, start)
    if gap is None:
        return _Instruction(text[start:].upper(), logical, len(text))
    return _Instruction(text[start : gap.start()].upper(), logical, _skip_flags(text, gap.end()))


def _skip_flags(text: str, position: int) -> int:
    """The offset after the ``--name=value`` flags at ``text[position:]`` (``extractBuilderFlags``)."""
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if not text.startswith("--", position):
            return position
        word_start = position
        quote = ""
        while position < len(text):
            char = text[position]
            if quote:
                if char == quote:
                    quote = ""
                elif char == "\\":
                    position += 1
            elif char in "'\"":
                quote = char
            elif char == "\\":
                position += 1
            elif char.isspace():
                break
            position += 1
        if text[word_start:position] == "--":
            return position


def _can_hold_heredoc(instruction: _Instruction) -> bool:
    """RUN, COPY and ADD in shell form, also under ONBUILD (BuildKit's ``canContainHeredoc``)."""
    keyword, args = instruction.keyword, instruction.args
    if keyword == "ONBUILD":
        parts = args.split(None, 1)
        if not parts:
            return False
        keyword, args = parts[0].upper(), parts[1] if len(parts) > 1 else ""
    try:
        return keyword in _HEREDOC_INSTRUCTIONS and _json_array(args) is None
    except ExtractError:
        return False  # exec form, if a malformed one: reported when the RUN is read


def _heredocs_in(text: str) -> list[_Heredoc]:
    """The heredocs that the words of an instruction line open, in order (BuildKit's ``heredocsFromLine``)."""
    heredocs: list[_Heredoc] = []
    for word, _start, _end in _shell_words(text):
        heredoc = _heredoc_word(word)
        if heredoc is not None:
            heredocs.append(heredoc)
    return heredocs


def _heredoc_word(word: str) -> _Heredoc | None:
    """The heredoc that one raw word opens (``<<EOF``, ``<<-'EOF'``, ``2<<"EOF"``), or None."""
    match = _HEREDOC_WORD.fullmatch(word)
    if match is None or len(_shell_words(match.group(3))) != 1:
        return None
    name = unquote(match.group(3))[0]
    if not name:
        return None
    return _Heredoc(name=name, chomp=match.group(2) == "-")


def _shell_words(text: str) -> list[tuple[str, int, int]]:
    """Words of ``text`` as BuildKit's heredoc lexer splits them (escape token ``\\``, quotes kept)."""
    return _docker_words(text, 0, "\\")


# --------------------------------------------------------------------------------------------------
# JSON (exec form) arguments with positions.


@dataclass(slots=True)
class _JsonString:
    """A JSON string literal of an exec-form array: its value, its quotes' offsets, and how it decodes.

    ``pieces`` are (decoded text, offset in the instruction, copied): a copied piece is the raw text itself;
    an escape sequence decodes to one character that maps to its backslash.
    """

    value: str
    open_offset: int
    close_offset: int
    pieces: list[tuple[str, int, bool]]


def _json_array(args: str) -> list[str] | None:
    """The strings of an exec-form argument list, or None for shell form (BuildKit's ``parseMaybeJSON``).

    Raises:
        ExtractError: for a JSON array that holds something other than strings (Docker refuses it).
    """
    if not args.startswith("["):
        return None
    try:
        value = json.loads(args)
    except ValueError:
        return None
    if not isinstance(value, list):
        return None
    if not all(isinstance(item, str) for item in value):
        raise ExtractError("exec-form arguments must be a JSON array of strings")
    return value


def _json_strings(text: str, start: int, values: list[str]) -> list[_JsonString]:
    """Locate the string literals of a validated JSON array of strings that starts at ``text[start]``."""
    strings: list[_JsonString] = []
    position = start
    for value in values:
        opening = text.index('"', position)
        pieces, closing = _decode_json_string(text, opening)
        if "".join(piece for piece, _offset, _copied in pieces) != value:
            pieces = [(value, opening, False)]  # an escape this decoder does not know: map to the quote
        strings.append(_JsonString(value, opening, closing, pieces))
        position = closing + 1
    return strings


def _decode_json_string(text: str, opening: int) -> tuple[list[tuple[str, int, bool]], int]:
    """Decode the JSON string whose ``"`` is at ``text[opening]`` (RFC 8259 section 7)."""
    pieces: list[tuple[str, int, bool]] = []
    position = run_start = opening + 1
    while position < len(text) and text[position] != '"':
        if text[position] != "\\":
            position += 1
            continue
        if run_start < position:
            pieces.append((text[run_start:position], run_start, True))
        char, width = _json_escape(text, position)
        pieces.append((char, position, False))
        position += width
        run_start = position
    if run_start < position:
        pieces.append((text[run_start:position], run_start, True))
    return pieces, position


def _json_escape(text: str, position: int) -> tuple[str, int]:
    """The character that the escape at ``text[position]`` stands for, and the escape's width."""
    code = text[position + 1 : position + 2]
    if code != "u":
        return _JSON_ESCAPES.get(code, code), 2
    value = int(text[position + 2 : position + 6], 16)
    if 0xD800 <= value < 0xDC00 and text.startswith("\\u", position + 6):
        low = int(text[position + 8 : position + 12], 16)
        return chr(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)), 12
    return chr(value), 6


# --------------------------------------------------------------------------------------------------
# Docker's word processing for ARG/ENV/WORKDIR/FROM values.


def _docker_words(text: str, start: int, escape: str) -> list[tuple[str, int, int]]:
    """BuildKit's ``parseWords``: words with quotes and escapes kept, as (raw word, start, end) offsets."""
    words: list[tuple[str, int, int]] = []
    position, length = start, len(text)
    while position < length:
        if text[position].isspace():
            position += 1
            continue
        word_start, quote = position, ""
        while position < length:
            char = text[position]
            if quote:
                if char == quote:
                    quote = ""
                elif char == escape and quote != "'":
                    position += 1
            elif char in "'\"":
                quote = char
            elif char == escape:
                position += 1
            elif char.isspace():
                break
            position += 1
        position = min(position, length)
        words.append((text[word_start:position], word_start, position))
    return words


def _docker_value(raw: str, scope: Scope, escape: str) -> Binding:
    """Unquote and expand a Docker ARG/ENV/WORKDIR value as BuildKit's ``ProcessWord`` does.

    Quotes are removed (``'…'`` literal, ``"…"`` expanding, the escape token escaping the next character);
    the variables are expanded with :func:`ascend_reflint.resolve.expand` (``shell_quotes=False``). A ``$``
    or backtick that the quoting made literal is kept literal (Docker has no command substitution).
    """
    parts: list[str] = []
    resolution, note = Resolution.RESOLVED, None
    for text, expandable in _docker_segments(raw, escape):
        if not expandable:
            parts.append(text)
            continue
        expansion = expand(text, scope, shell_quotes=False)
        if expansion.resolution is Resolution.RESOLVED:
            parts.append(expansion.value or "")
        elif resolution is Resolution.RESOLVED or expansion.resolution is Resolution.UNRESOLVED:
            resolution, note = expansion.resolution, expansion.note
    if resolution is Resolution.RESOLVED:
        return Binding("".join(parts))
    return Binding(None, resolution, note)


def _docker_segments(raw: str, escape: str) -> list[tuple[str, bool]]:
    """Split an unquoted value into (text, expandable) segments; literal ``$`` and backticks stand alone."""
    segments: list[tuple[str, bool]] = []
    buffer: list[str] = []

    def literal(text: str) -> None:
        if buffer:
            segments.append(("".join(buffer), True))
            buffer.clear()
        segments.append((text, False))

    def plain(char: str) -> None:
        if char in "$`":
            literal(char)
        else:
            buffer.append(char)

    position, length, quote = 0, len(raw), ""
    while position < length:
        char = raw[position]
        if quote == "'":
            if char == "'":
                quote = ""
            else:
                plain(char)
            position += 1
        elif char == "$":
            end = _dollar_end(raw, position)
            if end == position + 1:
                literal("$")
            else:
                buffer.append(raw[position:end])
            position = end
        elif char == escape and position + 1 < length:
            following = raw[position + 1]
            if quote and following not in ('"', "$", escape):
                plain(char)
                position += 1
            else:
                plain(following)
                position += 2
        elif char == escape:
            position += 1  # an escape token at the end of the word is dropped
        elif char == '"' or (char == "'" and not quote):
            quote = "" if quote else char
            position += 1
        else:
            plain(char)
            position += 1
    if buffer:
        segments.append(("".join(buffer), True))
    return segments


def _dollar_end(raw: str, position: int) -> int:
    """The offset after the ``$NAME``/``${…}`` at ``raw[position]`` (``position + 1`` for a lone ``$``)."""
    following = raw[position + 1 : position + 2]
    if following == "{":
        return closing_bracket(raw, position + 1)
    match = _NAME.match(raw, position + 1)
    if match is not None:
        return match.end()
    if following and (following.isdigit() or following in "@*#?$!-"):
        return position + 2
    return position + 1


# --------------------------------------------------------------------------------------------------
# Build stages and dispatch.


@dataclass(slots=True)
class _Stage:
    """A build stage: its label for pins, variables, shell session, working directory and ``SHELL``."""

    index: int
    label: str
    scope: Scope
    session: ShellSession
    lineage: frozenset[int]
    shell: tuple[str, int] | None = None  # SHELL's program and line; None: /bin/sh

    @property
    def cwd(self) -> str:
        """The working directory (``""`` when unknown)."""
        return self.session.cwd


class _Mention(NamedTuple):
    """A place where the file gives a variable a value.

    Attributes:
        line: the instruction's (or comment's) first line.
        stage: the build stage's index; -1 before the first FROM; -2 for a comment (no stage).
        how: ``"ARG"``, ``"ENV"``, ``"RUN"`` (a shell assignment) or ``"comment"`` (commented out).
    """

    line: int
    stage: int
    how: str


class _Extractor:
    """Walks the instructions in order, keeping per-stage variables, and feeds RUN bodies to the shell."""

    def __init__(self, source: SourceFile, build_args: Mapping[str, str], parsed: _Parsed) -> None:
        self.source = source
        self.build_args = build_args
        self.parsed = parsed
        self.escape = parsed.escape
        self.global_scope = Scope()
        self.stages: list[_Stage] = []
        self.by_name: dict[str, _Stage] = {}
        self.trigger_sessions: list[ShellSession] = []
        #: The (first, last) file lines of each exec-form RUN read (see :meth:`_written_in_file`).
        self.exec_form_lines: list[tuple[int, int]] = []
        from_lines = [instruction for instruction in parsed.instructions if instruction.keyword == "FROM"]
        self.labels = [_stage_name(instruction) or str(index) for index, instruction in enumerate(from_lines)]

    def run(self) -> None:
        """Dispatch every instruction, then collect the pins of every session in file order."""
        try:
            for instruction in self.parsed.instructions:
                self._dispatch(instruction)
        finally:
            pins: list[Pin] = []
            for session in [stage.session for stage in self.stages] + self.trigger_sessions:
                pins.extend(session.finish())
                self.source.notices.extend(session.notices)
            pins.sort(key=lambda pin: (pin.span.line, pin.span.column))
            self.source.pins.extend(self._written_in_file(pin) for pin in pins)

    def _written_in_file(self, pin: Pin) -> Pin:
        """``pin`` with ``ref_text`` taken from the file when the pin comes from an exec-form RUN.

        An exec-form argument reaches the shell extractor wrapped in single quotes that the file does not
        hold (the argument ``'v1'`` becomes the shell word ``''\''v1'\'''``); what the file holds at the
        ref's span is the ref as written.
        """
        from_exec_form = any(first <= pin.span.line <= last for first, last in self.exec_form_lines)
        if not pin.ref_text or not from_exec_form:
            return pin
        assert self.source.text is not None
        lines = self.source.text.split("\n")
        span = pin.span
        if span.line == span.end_line:
            written = lines[span.line - 1][span.column - 1 : span.end_column - 1]
        else:
            pieces = [lines[span.line - 1][span.column - 1 :], *lines[span.line : span.end_line - 1]]
            written = "\n".join([*pieces, lines[span.end_line - 1][: span.end_column - 1]])
        return dataclasses.replace(pin, ref_text=written)

    def _dispatch(self, instruction: _Instruction) -> None:
        keyword = instruction.keyword
        stage = self.stages[-1] if self.stages else None
        if keyword == "FROM":
            self._from(instruction)
        elif keyword == "ARG":
            self._arg(instruction, stage)
        elif stage is None:
            return  # only ARG may come before the first FROM; Docker refuses anything else
        elif keyword == "ENV":
            self._env(instruction, stage)
        elif keyword == "WORKDIR":
            self._workdir(instruction, stage)
        elif keyword == "SHELL":
            self._shell(instruction, stage)
        elif keyword == "RUN":
            self._run(instruction, stage, instruction.args_start, stage.session)
        elif keyword == "ONBUILD":
            self._onbuild(instruction, stage)

    # FROM, ARG, ENV, WORKDIR, SHELL

    def _from(self, instruction: _Instruction) -> None:
        words = instruction.args.split()
        base = None
        if words:
            image = _docker_value(words[0], self.global_scope, self.escape)
            base = self.by_name.get((image.value or "").lower()) if image.value is not None else None
        index = len(self.stages)
        name = _stage_name(instruction)
        label = self.labels[index]
        scope = base.scope.copy() if base is not None else Scope()
        session = shell.ShellSession(self.source.path, FileKind.DOCKERFILE, scope, stage=label)
        session.cwd = base.cwd if base is not None else ""
        lineage = (base.lineage if base is not None else frozenset()) | {index}
        stage = _Stage(index, label, scope, session, lineage)
        if base is not None:
            stage.shell = base.shell
        self.stages.append(stage)
        if name:
            self.by_name[name.lower()] = stage

    def _arg(self, instruction: _Instruction, stage: _Stage | None) -> None:
        text = instruction.logical.text
        for word, _start, _end in _docker_words(text, instruction.args_start, self.escape):
            name, equals, value = word.partition("=")
            if not name:
                continue
            scope = stage.scope if stage is not None else self.global_scope
            binding = self._arg_binding(name, value if equals else None, scope, stage is None)
            scope.set(name, binding)

    def _arg_binding(self, name: str, value: str | None, scope: Scope, is_global: bool) -> Binding:
        if name in self.build_args:
            return Binding(self.build_args[name])
        if value is not None:
            return _docker_value(value, scope, self.escape)
        if not is_global:
            inherited = self.global_scope.get(name)
            if inherited is not None:
                return inherited
        if name in _PLATFORM_ARGS:
            return Binding(None, Resolution.UNRESOLVED, f"ARG {name} is set by BuildKit from the platform")
        return Binding(None, Resolution.UNRESOLVED, f"ARG {name} has no default and no --build-arg")

    def _env(self, instruction: _Instruction, stage: _Stage) -> None:
        pairs = list(_env_pairs(instruction, self.escape))
        bindings = [_docker_value(raw, stage.scope, self.escape) for _name, raw, _span in pairs]
        for (name, _raw, span), binding in zip(pairs, bindings, strict=True):
            stage.scope.set(name, binding)
            self.source.env.append(EnvSetting(name, binding.value, span, "image"))

    def _workdir(self, instruction: _Instruction, stage: _Stage) -> None:
        path = _docker_value(instruction.args, stage.scope, self.escape).value
        if path is None or (not path.startswith("/") and not stage.cwd):
            stage.session.cwd = ""  # unknown: unresolved, or relative to the base image's own WORKDIR
        elif path:
            stage.session.cwd = posixpath.normpath(posixpath.join(stage.cwd, path))

    def _shell(self, instruction: _Instruction, stage: _Stage) -> None:
        try:
            argv = _json_array(instruction.args)
        except ExtractError as error:
            raise ExtractError(f"line {instruction.line}: SHELL {error}") from None
        if argv:
            stage.shell = (argv[0], instruction.line)

    # RUN

    def _onbuild(self, instruction: _Instruction, stage: _Stage) -> None:
        """``ONBUILD RUN …`` runs in the stages (or images) built FROM this one: scanned on its own."""
        text = instruction.logical.text
        match = _ONBUILD_RUN.match(text, instruction.args_start)
        if match is None:
            return
        session = shell.ShellSession(self.source.path, FileKind.DOCKERFILE, stage.scope, stage=stage.label)
        session.cwd = stage.cwd
        self.trigger_sessions.append(session)
        self._run(instruction, stage, _skip_flags(text, match.end()), session)

    def _run(self, instruction: _Instruction, stage: _Stage, args_start: int, session: ShellSession) -> None:
        if not self._may_hold_pin(instruction, stage):
            return
        try:
            texts = list(self._shell_texts(instruction, stage, args_start))
        except ExtractError as error:
            self.source.notices.append(f"line {instruction.line}: RUN {error}; not scanned for pins")
            return
        for text in texts:
            session.scope = self._scope_for(stage, instruction, text.text)
            try:
                session.run(text.text, text.source_map)
            except ExtractError as error:
                self.source.notices.append(f"line {instruction.line}: RUN is not valid shell: {error}")

    @staticmethod
    def _may_hold_pin(instruction: _Instruction, stage: _Stage) -> bool:
        """Cheap test before any shell parsing (:func:`~ascend_reflint.extract.shell.may_pin`)."""
        texts = [instruction.logical.text] + [heredoc.body for heredoc in instruction.heredocs]
        return any(shell.may_pin(text, stage.scope) for text in texts)

    def _shell_texts(
        self, instruction: _Instruction, stage: _Stage, args_start: int
    ) -> Iterator[SourceMapBuilder]:
        """The shell texts that a RUN executes, each mapped back to the file (none for a non-shell RUN)."""
        logical = instruction.logical
        rest = logical.text[args_start:]
        start = args_start + len(rest) - len(rest.lstrip())
        command = rest.strip()
        values = _json_array(command)
        if values is not None:
            yield from self._exec_form(logical, start, values)
            return
        if stage.shell is not None and posixpath.basename(stage.shell[0]) not in SHELLS:
            self._skip_notice(instruction, f"runs in {stage.shell[0]} (SHELL on line {stage.shell[1]})")
            return
        if not instruction.heredocs:
            out = SourceMapBuilder()
            logical.copy_to(out, start, start + len(command))
            yield out
            return
        yield from self._heredoc_run(instruction, start, command)

    def _exec_form(self, logical: _Logical, args_start: int, values: list[str]) -> Iterator[SourceMapBuilder]:
        if not values:
            return
        last_line = logical.position(len(logical.text) - 1)[0]
        self.exec_form_lines.append((logical.position(args_start)[0], last_line))
        strings = _json_strings(logical.text, args_start, values)
        script = _shell_c_script(values)
        if script is not None:
            out = SourceMapBuilder()
            _emit_json_string(out, logical, strings[script], quoted=False)
            yield out
            return
        out = SourceMapBuilder()
        for index, string in enumerate(strings):
            if index:
                out.insert(" ", *logical.position(string.open_offset))
            _emit_json_string(out, logical, string, quoted=_PLAIN_WORD.fullmatch(string.value) is None)
        yield out

    def _heredoc_run(self, instruction: _Instruction, start: int, command: str) -> Iterator[SourceMapBuilder]:
        """A RUN with heredocs, as BuildKit's ``dispatchRun`` runs it."""
        logical = instruction.logical
        heredocs = instruction.heredocs
        body_is_script = len(heredocs) == 1 and _heredoc_word(command) is not None
        stdin_command = _stdin_command(_shell_words(command)) if len(heredocs) == 1 else None
        if not body_is_script and stdin_command is not None:
            program = posixpath.basename(unquote(stdin_command[0])[0])
            if program in SHELLS:
                body_is_script = True
            elif _INTERPRETERS.fullmatch(program):
                self._skip_notice(instruction, f"heredoc is run by {program}, not a shell", heredocs[0].body)
                return
        if body_is_script:
            heredoc = heredocs[0]
            interpreter = _shebang(heredoc)
            if interpreter is not None and interpreter not in SHELLS:
                self._skip_notice(instruction, f"heredoc is run by {interpreter}, not a shell", heredoc.body)
                return
            out = SourceMapBuilder()
            _copy_body(out, heredoc)
            yield out
            return
        laid_out = _heredoc_command(logical, start, command, heredocs)
        if laid_out is not None:
            yield laid_out
            return
        out = SourceMapBuilder()
        logical.copy_to(out, start, start + len(command))
        for heredoc in heredocs:
            out.insert("\n", *logical.position(len(logical.text)))
            _copy_body(out, heredoc)
            out.copy(heredoc.name, heredoc.end_line, heredoc.end_column)
        yield out

    def _skip_notice(self, instruction: _Instruction, why: str, text: str | None = None) -> None:
        """Say that a RUN was not scanned, when it could have held a pin."""
        if "git" in (instruction.logical.text if text is None else text):
            self.source.notices.append(f"line {instruction.line}: RUN {why}; not scanned for pins")

    # RL012 support: variables the file shows to be empty where a RUN uses them

    def _scope_for(self, stage: _Stage, instruction: _Instruction, text: str) -> Scope:
        """A snapshot of the stage's variables for one RUN, with empty-hints for the names it uses."""
        return stage.scope.copy().hinted(
            referenced_names(text), lambda name: self._why_empty(name, instruction, stage)
        )

    def _why_empty(self, name: str, instruction: _Instruction, stage: _Stage) -> str | None:
        """Why the file shows ``name`` empty at this RUN (naming the line), or None when it never sets it."""
        mentions = self._mentions.get(name, [])
        line = instruction.line
        for mention in mentions:
            if mention.stage == stage.index and mention.line > line and mention.how in ("ARG", "ENV"):
                return f"{mention.how} {name} is set only after this RUN, on line {mention.line}"
        for mention in mentions:
            if mention.stage == -1:
                return f"ARG {name} on line {mention.line} is global; this stage does not redeclare it"
        for mention in mentions:
            if mention.how in ("ARG", "ENV") and mention.stage not in stage.lineage:
                other = self.labels[mention.stage]
                return (
                    f"{mention.how} {name} is set only in build stage {other} (line {mention.line}), "
                    "which this stage is not built from"
                )
        for mention in mentions:
            if mention.how == "RUN" and mention.line != line:
                return f"{name} is assigned only in the RUN on line {mention.line}, whose shell ends with it"
        for mention in mentions:
            if mention.how == "comment":
                return f"{name} is set only on a commented-out line ({mention.line})"
        return None

    @cached_property
    def _mentions(self) -> dict[str, list[_Mention]]:
        """Every place that gives a variable a value: ARG/ENV, shell assignments in RUNs, comments."""
        mentions: dict[str, list[_Mention]] = {}

        def add(name: str, mention: _Mention) -> None:
            mentions.setdefault(name, []).append(mention)

        stage = -1
        for instruction in self.parsed.instructions:
            keyword = instruction.keyword
            if keyword == "FROM":
                stage += 1
            elif keyword in ("ARG", "ENV"):
                for name in _declared_names(instruction, self.escape):
                    add(name, _Mention(instruction.line, stage, keyword))
            elif keyword in ("RUN", "ONBUILD"):
                texts = [instruction.args] + [heredoc.body for heredoc in instruction.heredocs]
                for text in texts:
                    for match in _SHELL_ASSIGNMENT.finditer(text):
                        add(match.group(1), _Mention(instruction.line, stage, "RUN"))
        for line, comment in self.parsed.comments:
            declaration = _COMMENTED_DECLARATION.match(comment)
            if declaration is not None:
                add(declaration.group(1) or declaration.group(2), _Mention(line, -2, "comment"))
        return mentions


def _stage_name(instruction: _Instruction) -> str | None:
    """The ``AS name`` of a FROM instruction, as written, or None."""
    words = instruction.args.split()
    return words[2] if len(words) >= 3 and words[1].lower() == "as" else None


def _env_pairs(instruction: _Instruction, escape: str) -> Iterator[tuple[str, str, Span]]:
    """The (name, raw value, span of the value or of the name) pairs of an ENV (BuildKit ``parseNameVal``)."""
    logical = instruction.logical
    words = _docker_words(logical.text, instruction.args_start, escape)
    if not words:
        return
    if "=" not in words[0][0]:
        start = words[0][1]
        gap = _WHITESPACE.search(logical.text, start)
        name_end = gap.start() if gap else len(logical.text)
        name = logical.text[start:name_end]
        value_start = gap.end() if gap else len(logical.text)
        value = logical.text[value_start:].rstrip()
        if value:
            yield name, value, logical.span(value_start, value_start + len(value))
        else:
            yield name, value, logical.span(start, name_end)
        return
    for word, start, end in words:
        name, equals, value = word.partition("=")
        if not equals or not name:
            continue
        value_start = start + len(name) + 1
        span = logical.span(value_start, end) if end > value_start else logical.span(start, start + len(name))
        yield name, value, span


def _declared_names(instruction: _Instruction, escape: str) -> Iterator[str]:
    """The variable names that an ARG or ENV instruction declares."""
    if instruction.keyword == "ENV":
        yield from (name for name, _value, _span in _env_pairs(instruction, escape))
        return
    for word, _start, _end in _docker_words(instruction.logical.text, instruction.args_start, escape):
        name = word.partition("=")[0]
        if name:
            yield name


def _shell_c_script(values: list[str]) -> int | None:
    """The index of the script in ``["bash", "-c", "script", …]``, or None when argv runs no shell script."""
    if posixpath.basename(values[0]) not in SHELLS:
        return None
    command_mode = False
    index = 1
    while index < len(values):
        argument = values[index]
        if argument == "--":
            index += 1
            break
        if len(argument) < 2 or argument[0] not in "-+":
            break
        command_mode = command_mode or (argument[0] == "-" and "c" in argument[1:])
        index += 2 if "o" in argument[1:] else 1  # -o takes the next argument: bash -ceuxo pipefail
    return index if command_mode and index < len(values) else None


def _emit_json_string(out: SourceMapBuilder, logical: _Logical, string: _JsonString, *, quoted: bool) -> None:
    """Append a JSON string's value to ``out``; ``quoted`` wraps it in single quotes for the shell.

    The opening and closing single quotes map to the JSON string's own quotes, so that a quoted word's span
    covers the string literal in the file.
    """
    if quoted:
        out.insert("'", *logical.position(string.open_offset))
    for text, offset, copied in string.pieces:
        if not quoted or "'" not in text:
            _emit_piece(out, logical, text, offset, copied)
            continue
        position = 0
        for index, part in enumerate(text.split("'")):
            if index:  # a single quote inside single quotes: close, escaped quote, reopen
                out.insert("'\\''", *logical.position(offset + position - 1 if copied else offset))
            _emit_piece(out, logical, part, offset + position if copied else offset, copied)
            position += len(part) + 1
    if quoted:
        out.insert("'", *logical.position(string.close_offset))


def _emit_piece(out: SourceMapBuilder, logical: _Logical, text: str, offset: int, copied: bool) -> None:
    if copied:
        logical.copy_to(out, offset, offset + len(text))
    else:
        out.insert(text, *logical.position(offset))


def _copy_body(out: SourceMapBuilder, heredoc: _Heredoc) -> None:
    """Append a heredoc's body, line by line at column 1 of its own lines."""
    for index, body_line in enumerate(heredoc.body.split("\n")[:-1]):
        out.copy(body_line + "\n", heredoc.first_line + index, 1)


def _reads_stdin(word: str) -> bool:
    """True for a heredoc word on standard input: ``<<EOF``, ``0<<EOF`` (not ``3<<EOF``)."""
    match = _HEREDOC_WORD.fullmatch(word)
    return match is not None and match.group(1) in ("", "0")


def _stdin_command(words: list[tuple[str, int, int]]) -> list[str] | None:
    """The words of ``prog [-options]`` when a command line is just that and one heredoc on its standard
    input, which may stand anywhere among them (bash(1) "REDIRECTION": a simple command's redirections
    may precede it): ``bash -ex <<EOF``, ``<<EOF sh -ex``. None for any other command line."""
    heredocs = [index for index, (word, _start, _end) in enumerate(words) if _heredoc_word(word) is not None]
    if len(heredocs) != 1 or not _reads_stdin(words[heredocs[0]][0]):
        return None
    rest = [word for index, (word, _start, _end) in enumerate(words) if index != heredocs[0]]
    if not rest or not all(option[:1] in ("-", "+") and "c" not in option[1:] for option in rest[1:]):
        return None
    return rest


#: A shell's control operators, longest first (bash(1) "DEFINITIONS").
_CONTROL_OPERATORS = ("&&", "||", ";;", "|&", ";", "|", "&", "(", ")")
#: Reserved words that may stand before a simple command, and those that end a compound command.
_OPENING_WORDS = frozenset({"!", "if", "then", "else", "elif", "while", "until", "do", "{", "time"})
_CLOSING_WORDS = frozenset({"fi", "done", "esac", "}"})
#: What may come just before ``(`` inside a word: ``$(…)``, ``=(…)``, ``<(…)``, ``>(…)``, extglob ``@(…)``.
_WORD_PARENTHESIS = frozenset("$=<>@!+*?")


@dataclass(slots=True)
class _SimpleCommand:
    """The words of one simple command of a command line and the control operator that ends it.

    Offsets are into the command line; ``operator`` is ``(start, end)``, ``end == start`` at the end of
    the line.
    """

    words: list[tuple[int, int]]
    operator: tuple[int, int]


def _simple_commands(command: str) -> list[_SimpleCommand]:
    """Split a command line into simple commands at its control operators.

    Quotes, escapes, backquotes and parenthesised parts of a word (``$(…)``, ``<(…)``) stay in the word;
    ``&`` and ``|`` of a redirection (``2>&1``, ``&>f``, ``>|f``) are not operators.
    """
    commands: list[_SimpleCommand] = []
    words: list[tuple[int, int]] = []
    position = 0
    while position < len(command):
        if command[position].isspace():
            position += 1
            continue
        operator = None
        if not command.startswith("&>", position):
            operator = next((op for op in _CONTROL_OPERATORS if command.startswith(op, position)), None)
        if operator is None:
            end = _command_word_end(command, position)
            words.append((position, end))
            position = end
            continue
        commands.append(_SimpleCommand(words, (position, position + len(operator))))
        words = []
        position += len(operator)
    commands.append(_SimpleCommand(words, (len(command), len(command))))
    return commands


def _command_word_end(command: str, start: int) -> int:
    """The offset just after the shell word that starts at ``command[start]``."""
    position, depth, quote = start, 0, ""
    while position < len(command):
        char = command[position]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            position += 1
        elif quote:
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char == "`":
            closing = command.find("`", position + 1)
            position = len(command) if closing == -1 else closing
        elif char == "(" and (depth or (position > start and command[position - 1] in _WORD_PARENTHESIS)):
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif depth == 0 and (char.isspace() or (char in ";&|()" and not _in_redirection(command, position))):
            return position
        position += 1
    return len(command)


def _in_redirection(command: str, position: int) -> bool:
    """True for an ``&`` or ``|`` that belongs to a redirection: ``>&``, ``<&``, ``&>``, ``>|``."""
    before = command[position - 1] if position else ""
    if command[position] == "&":
        return before in ("<", ">") or command.startswith("&>", position)
    return command[position] == "|" and before == ">"


def _heredoc_command(
    logical: _Logical, start: int, command: str, heredocs: list[_Heredoc]
) -> SourceMapBuilder | None:
    """A RUN's command line (``logical.text[start:]``) and its heredocs, laid out for tree-sitter-bash.

    BuildKit hands the shell ``COMMAND⏎BODY1⏎NAME1⏎BODY2⏎NAME2``. tree-sitter-bash cannot read two heredocs
    on one line, a heredoc before the command name (``<<EOF bash``) or a ``;`` after a heredoc, all valid
    shell, so the text is laid out as bash reads the same commands:

    - a simple command keeps one heredoc, the last on its standard input (of several on one descriptor the
      last wins, and only standard input can feed a script to a shell); a heredoc before the command name
      moves to the command's end;
    - the simple command goes into a brace group that holds its body: ``{ bash <<A⏎BODY⏎A⏎} && { sh <<B⏎
      BODY⏎B⏎}`` (a group runs in the same shell, with the same standard input);
    - a heredoc of a compound command (``done <<EOF``) stays where it is, its body after the line.

    Every character keeps its file position; inserted characters map to the character they stand next to.

    Returns:
        The shell text, or None when the heredoc words here are not the instruction's heredocs.
    """
    simple_commands = _simple_commands(command)
    heredoc_words = [
        word
        for simple in simple_commands
        for word in simple.words
        if _heredoc_word(command[word[0] : word[1]]) is not None
    ]
    if len(heredoc_words) != len(heredocs):
        return None
    body_of = dict(zip(heredoc_words, heredocs, strict=True))
    out = SourceMapBuilder()
    cursor = 0
    after_line: list[_Heredoc] = []

    def copy_to(end: int) -> None:
        nonlocal cursor
        if end > cursor:
            logical.copy_to(out, start + cursor, start + end)
            cursor = end

    for simple in simple_commands:
        stdin = [
            word for word in simple.words if word in body_of and _reads_stdin(command[word[0] : word[1]])
        ]
        kept = stdin[-1] if stdin else None
        name = next(
            (
                word
                for word in simple.words
                if word not in body_of and command[word[0] : word[1]] not in _OPENING_WORDS
            ),
            None,
        )
        in_place = None
        if kept is not None and name is not None and command[name[0] : name[1]] in _CLOSING_WORDS:
            after_line.append(body_of[kept])
            in_place, kept = kept, None
        elif name is None:
            kept = None  # a heredoc with no command: read and thrown away
        moved = False
        for word in simple.words:
            before_name = name is not None and word[0] < name[0]
            if word in body_of and word != in_place and (word != kept or before_name):
                copy_to(word[0])
                cursor = word[1]  # dropped, or moved to the end of the command
                moved = moved or word == kept
            elif kept is not None and word == name:
                copy_to(word[0])
                out.insert("{ ", *logical.position(start + word[0]))
        if simple.words:
            copy_to(simple.words[-1][1])
        if kept is None:
            continue
        if moved:
            out.insert(" ", *logical.position(start + kept[0]))
            logical.copy_to(out, start + kept[0], start + kept[1])
        heredoc = body_of[kept]
        out.insert("\n", *logical.position(start + simple.words[-1][1] - 1))
        _copy_body(out, heredoc)
        out.copy(heredoc.name, heredoc.end_line, heredoc.end_column)
        out.insert("\n}", heredoc.end_line, heredoc.end_column + len(heredoc.name))
    copy_to(len(command))
    for heredoc in after_line:
        out.insert("\n", *logical.position(start + len(command)))
        _copy_body(out, heredoc)
        out.copy(heredoc.name, heredoc.end_line, heredoc.end_column)
    return out


def _shebang(heredoc: _Heredoc) -> str | None:
    """The interpreter named by a heredoc's ``#!`` line (``env`` resolved), or None without one."""
    first = heredoc.body.split("\n", 1)[0]
    if heredoc.chomp:
        first = first.lstrip("\t")
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    if not words:
        return None
    program = posixpath.basename(words[0])
    if program == "env":
        rest = [word for word in words[1:] if not word.startswith("-")]
        program = posixpath.basename(rest[0]) if rest else program
    return program
