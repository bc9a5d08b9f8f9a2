"""Reading a Dockerfile into instructions as BuildKit's parser does (``parser/parser.go``,
``parser/directives.go``, ``parser/line_parsers.go``), every character's file position kept: parser
directives, continuation lines (comment and blank lines inside them dropped), the keyword and its
``--flags``, and the heredocs of ``RUN``/``COPY``/``ADD`` (also under ``ONBUILD``).
"""

from __future__ import annotations

import re

from ascend_reflint.extract.dockerfile.execform import json_array
from ascend_reflint.extract.dockerfile.words import docker_words
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.model import Span
from ascend_reflint.resolve import unquote
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

_DIRECTIVE = re.compile(r"#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$")
_KNOWN_DIRECTIVES = frozenset({"escape", "syntax", "check"})
WHITESPACE = re.compile(r"[\t\v\f\r ]+")
HEREDOC_WORD = re.compile(r"(\d*)<<(-?)([^<]*)")
_HEREDOC_INSTRUCTIONS = frozenset({"RUN", "COPY", "ADD"})
#: The most instructions read from one Dockerfile. Each costs some 1 kB and 80 µs to read and dispatch, so
#: a 10 MiB file (the file-size cap) of ``RUN x`` lines, 1.7 million of them, took 2 GB and minutes, and
#: crashed the scan under a 2 GiB address-space limit. Generated Dockerfiles of thousands of steps already
#: pass what BuildKit's gRPC messages hold (moby/buildkit#6097: 7,000 steps).
MAX_INSTRUCTIONS = 50_000


class Logical:
    """One instruction as Docker reads it (continuation lines joined), mapped back to the file by pieces."""

    __slots__ = ("_length", "_pieces", "_text", "first_line", "source_map")

    def __init__(self, first_line: int) -> None:
        self.first_line = first_line
        self.source_map = SourceMap()
        # The pieces are joined once, when the text is first read: adding each to the text was quadratic
        # in an instruction's lines (a RUN of 320,000 continuation lines, 2.2 MB, took 4 minutes).
        self._pieces: list[str] = []
        self._length = 0
        self._text: str | None = ""

    def append(self, piece: str, line: int, column: int) -> None:
        """Add ``piece``, which sits on file ``line`` from ``column`` on."""
        if piece:
            self.source_map.add(self._length, line, column)
            self._pieces.append(piece)
            self._length += len(piece)
            self._text = None

    @property
    def text(self) -> str:
        """The instruction's text, continuation lines joined."""
        if self._text is None:
            self._text = "".join(self._pieces)
            self._pieces = [self._text]
        return self._text

    def position(self, offset: int) -> tuple[int, int]:
        """The file (line, column) of ``text[offset]`` (just after the last piece for ``len(text)``)."""
        return self.source_map.position(offset) if self.text else (self.first_line, 1)

    def span(self, start: int, end: int) -> Span:
        """The file span of ``text[start:end]`` (``end > start``)."""
        line, column = self.position(start)
        end_line, last_column = self.position(end - 1)
        return Span(line, column, end_line, last_column + 1)

    def copy_to(self, out: SourceMapBuilder, start: int, end: int) -> None:
        """Append ``text[start:end]`` to ``out``, split where the file's lines split it."""
        out.copy_mapped(self.text, self.source_map, start, end)


class Heredoc:
    """A heredoc attached to an instruction: its name, ``<<-``, and its body (lines with their newlines),
    from ``first_line`` on; the terminator is at (``end_line``, ``end_column``). The reader fills in the body
    and the lines once it has read them."""

    __slots__ = ("body", "chomp", "end_column", "end_line", "first_line", "name")

    def __init__(self, name: str, chomp: bool) -> None:
        self.name = name
        self.chomp = chomp
        self.body = ""
        self.first_line = 0
        self.end_line = 0
        self.end_column = 1


class Instruction:
    """One instruction: keyword (upper case), its text, where its arguments start, and its heredocs."""

    __slots__ = ("args_start", "heredocs", "keyword", "logical")

    def __init__(self, keyword: str, logical: Logical, args_start: int) -> None:
        self.keyword = keyword
        self.logical = logical
        self.args_start = args_start
        self.heredocs: list[Heredoc] = []

    @property
    def args(self) -> str:
        """The arguments after the keyword and the ``--flags``, without surrounding whitespace."""
        return self.logical.text[self.args_start :].rstrip()

    @property
    def line(self) -> int:
        """The instruction's first line."""
        return self.logical.first_line


class Parsed:
    """A read Dockerfile: instructions, comment lines (line, text), the escape token, and the error that
    stopped reading (None when it read to the end)."""

    __slots__ = ("comments", "error", "escape", "instructions")

    def __init__(self) -> None:
        self.instructions: list[Instruction] = []
        self.comments: list[tuple[int, str]] = []
        self.escape = "\\"
        self.error: str | None = None


def parse(text: str) -> Parsed:
    """Read ``text`` into instructions as BuildKit's parser does (see the module docstring)."""
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    parsed = Parsed()
    reader = _LineReader(lines, parsed)
    try:
        reader.read()
    except ExtractError as error:
        parsed.error = str(error)
    return parsed


class _LineReader:
    """BuildKit's ``parser.Parse`` loop over physical lines."""

    def __init__(self, lines: list[str], parsed: Parsed) -> None:
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
            logical = Logical(number)
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
            if len(self.parsed.instructions) > MAX_INSTRUCTIONS:
                self.parsed.instructions.clear()  # none is dispatched: the file is an error
                raise ExtractError(
                    f"line {instruction.line}: more than {MAX_INSTRUCTIONS:,} instructions; reflint reads "
                    "none of the file"
                )

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

    def _read_heredocs(self, instruction: Instruction) -> None:
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


def _instruction(logical: Logical) -> Instruction:
    """Split the keyword and the ``--flags`` off an instruction's text."""
    text = logical.text
    start = len(text) - len(text.lstrip())
    gap = WHITESPACE.search(text, start)
    if gap is None:
        return Instruction(text[start:].upper(), logical, len(text))
    return Instruction(text[start : gap.start()].upper(), logical, skip_flags(text, gap.end()))


def skip_flags(text: str, position: int) -> int:
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


def _can_hold_heredoc(instruction: Instruction) -> bool:
    """RUN, COPY and ADD in shell form, also under ONBUILD (BuildKit's ``canContainHeredoc``)."""
    keyword, args = instruction.keyword, instruction.args
    if keyword == "ONBUILD":
        parts = args.split(None, 1)
        if not parts:
            return False
        keyword, args = parts[0].upper(), parts[1] if len(parts) > 1 else ""
    try:
        return keyword in _HEREDOC_INSTRUCTIONS and json_array(args) is None
    except ExtractError:
        return False  # exec form, if a malformed one: reported when the RUN is read


def _heredocs_in(text: str) -> list[Heredoc]:
    """The heredocs that the words of an instruction line open, in order (BuildKit's ``heredocsFromLine``)."""
    heredocs: list[Heredoc] = []
    for word, _start, _end in shell_words(text):
        heredoc = heredoc_word(word)
        if heredoc is not None:
            heredocs.append(heredoc)
    return heredocs


def heredoc_word(word: str) -> Heredoc | None:
    """The heredoc that one raw word opens (``<<EOF``, ``<<-'EOF'``, ``2<<"EOF"``), or None."""
    match = HEREDOC_WORD.fullmatch(word)
    if match is None or len(shell_words(match.group(3))) != 1:
        return None
    name = unquote(match.group(3))[0]
    if not name:
        return None
    return Heredoc(name=name, chomp=match.group(2) == "-")


def shell_words(text: str) -> list[tuple[str, int, int]]:
    """Words of ``text`` as BuildKit's heredoc lexer splits them (escape token ``\\``, quotes kept)."""
    return docker_words(text, 0, "\\")
