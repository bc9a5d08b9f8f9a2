"""Pins in pip requirement files and in ``pyproject.toml`` dependency arrays: ``git+URL@REF``.

Facts used here:

- pip's "Requirements File Format" (pip user guide, and ``pip/_internal/req/req_file.py``): one requirement
  per line; a line ending in ``\\`` continues on the next one; a comment starts with ``#`` at the start of a
  line or after whitespace (``(^|\\s+)#.*$``), so ``#egg=`` inside a URL is a fragment, not a comment; pip
  replaces ``${NAME}`` (upper-case letters, digits, ``_``) with the environment variable of that name.
- pip's "VCS Support": ``git+URL[@REF][#egg=NAME&subdirectory=DIR]``; the ref follows the last ``@`` of the
  URL's *path*, so ``git+ssh://git@host/o/r`` keeps its user and ``@release/v1`` is a ref with a slash. The
  split is :func:`ascend_reflint.extract.commands.pip.vcs_parts`, shared with ``pip install`` in scripts.
- PEP 508 direct references (``name [extras] @ URL [; marker]``), PEP 621 (``[project] dependencies`` and
  ``[project.optional-dependencies]``), PEP 735 (``[dependency-groups]``) and PEP 518
  (``[build-system] requires``).
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath
from typing import Any

from ascend_reflint.extract.commands.pip import VcsParts, vcs_parts
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.model import Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote
from ascend_reflint.sourcemap import SourceMap

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

#: pip's comment pattern (``req_file.COMMENT_RE``): ``#`` at the start of a line or after whitespace.
_COMMENT = re.compile(r"(^|\s+)#.*$")
#: pip's environment variable pattern (``req_file.ENV_VAR_RE``).
_PIP_ENV_VAR = re.compile(r"\$\{[A-Z0-9_]+\}")
_PIP_NOTE = "pip replaces {var} with an environment variable when it reads the file"


def extract_requirements(source: SourceFile) -> None:
    """Fill ``source.pins`` with the ``git+`` pins of a requirements file or a ``pyproject.toml``.

    ``pyproject.toml`` (by file name) is read as TOML; any other file as a pip requirements file
    (``requirements*.txt``, ``*.requirements.txt``).

    Args:
        source: the file, with ``text`` read; its ``path`` and ``kind`` go into every pin.

    Raises:
        ExtractError: when a ``pyproject.toml`` is not valid TOML.
    """
    assert source.text is not None
    if PurePosixPath(source.path.replace("\\", "/")).name == "pyproject.toml":
        source.pins.extend(_pyproject_pins(source))
    else:
        source.pins.extend(_requirements_txt_pins(source))


def _requirements_txt_pins(source: SourceFile) -> Iterator[Pin]:
    assert source.text is not None
    for text, source_map in _requirement_lines(source.text):
        vcs = vcs_parts(text, [True] * len(text))
        if vcs is not None:
            yield _pin(source, text, vcs, source_map.span, pip_env=True)


def _requirement_lines(text: str) -> Iterator[tuple[str, SourceMap]]:
    """pip's logical lines (continuations joined, comments cut off), each with a map to the file.

    A line ending in ``\\`` continues on the next; a comment line ends a continuation (pip's
    ``join_lines``). Blank and comment-only lines are not yielded.
    """
    parts: list[str] = []
    source_map = SourceMap()
    length = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        is_comment = line.lstrip().startswith("#")
        continues = line.endswith("\\") and not is_comment
        # pip ends a continuation at a comment line and then cuts the comment off: its text never counts.
        piece = "" if is_comment else line.strip("\\") if continues else line
        leading = len(line) - len(line.lstrip("\\")) if continues else 0
        source_map.add(length, number, 1 + leading)
        parts.append(piece)
        length += len(piece)
        if continues:
            continue
        yield from _logical_line("".join(parts), source_map)
        parts, source_map, length = [], SourceMap(), 0
    if parts:
        yield from _logical_line("".join(parts), source_map)


def _logical_line(text: str, source_map: SourceMap) -> Iterator[tuple[str, SourceMap]]:
    if "#" in text:
        comment = _COMMENT.search(text)
        if comment is not None:
            text = text[: comment.start()]
    if "git+" in text:
        yield text, source_map


def _pyproject_pins(source: SourceFile) -> Iterator[Pin]:
    assert source.text is not None
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        raise ExtractError(f"invalid TOML: {error}") from None
    wanted = Counter(value for value in _dependency_strings(data) if "git+" in value)
    if not wanted:
        return
    lines = _LineIndex(source.text)
    for value, starts, ends in _toml_strings(source.text):
        if wanted[value] <= 0:
            continue
        wanted[value] -= 1

        def span(start: int, end: int, starts: list[int] = starts, ends: list[int] = ends) -> Span:
            return lines.span(starts[start], ends[end - 1])

        vcs = vcs_parts(value, [True] * len(value))
        if vcs is not None:
            yield _pin(source, value, vcs, span, pip_env=False)


def _dependency_strings(data: dict[str, Any]) -> Iterator[str]:
    """The requirement strings of the PEP 621, PEP 735 and PEP 518 arrays, in no particular order."""
    project = data.get("project")
    if isinstance(project, dict):
        yield from _strings(project.get("dependencies"))
        optional = project.get("optional-dependencies")
        if isinstance(optional, dict):
            for group in optional.values():
                yield from _strings(group)
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        for group in groups.values():
            yield from _strings(group)  # {include-group = "…"} tables are skipped
    build = data.get("build-system")
    if isinstance(build, dict):
        yield from _strings(build.get("requires"))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, str))


def _pin(
    source: SourceFile, text: str, vcs: VcsParts, span_of: Callable[[int, int], Span], *, pip_env: bool
) -> Pin:
    """A PIP_VCS pin for ``vcs`` in ``text``; ``span_of(start, end)`` maps offsets of ``text`` to the file."""
    written_url = text[vcs.url[0] : vcs.url[1]]
    written_ref = text[vcs.ref[0] : vcs.ref[1]] if vcs.ref is not None else None
    url_span = span_of(*vcs.url)
    url, remote = written_url, normalise_remote(written_url)
    resolution, note = Resolution.RESOLVED, None
    ref = written_ref
    if pip_env and _PIP_ENV_VAR.search(written_url):
        url, remote, resolution, note = _url_with_env(written_url)
    if pip_env and written_ref is not None and (variable := _PIP_ENV_VAR.search(written_ref)):
        ref, resolution, note = None, Resolution.UNRESOLVED, _PIP_NOTE.format(var=variable.group(0))
    span = span_of(*vcs.ref) if vcs.ref is not None else url_span
    return Pin(
        path=source.path,
        kind=source.kind,
        via=Via.PIP_VCS,
        span=span,
        url=url,
        remote=remote,
        ref=ref,
        ref_text=written_ref,
        resolution=resolution,
        resolution_note=note,
        url_span=url_span,
    )


def _url_with_env(url: str) -> tuple[str, str | None, Resolution, str | None]:
    """URL, remote, resolution and note for a URL that holds pip's ``${VAR}``.

    A variable only in the user-info (``https://${TOKEN}@host/o/r``) carries credentials, not the
    repository's name: the URL without it names the same remote.
    """
    scheme_end = url.find("://")
    host_start = scheme_end + 3 if scheme_end != -1 else 0
    slash = url.find("/", host_start)
    authority_end = len(url) if slash == -1 else slash
    at = url.rfind("@", host_start, authority_end)
    if at != -1 and not _PIP_ENV_VAR.search(url, at):
        bare = url[:host_start] + url[at + 1 :]
        return bare, normalise_remote(bare), Resolution.RESOLVED, None
    variable = _PIP_ENV_VAR.search(url)
    assert variable is not None
    return url, None, Resolution.UNRESOLVED, _PIP_NOTE.format(var=variable.group(0))


class _LineIndex:
    """Offsets of a text → 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self._starts = [0]
        offset = text.find("\n")
        while offset != -1:
            self._starts.append(offset + 1)
            offset = text.find("\n", offset + 1)

    def position(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self._starts, offset) - 1
        return index + 1, offset - self._starts[index] + 1

    def span(self, start: int, end: int) -> Span:
        """The span of text ``[start, end)``."""
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column)


_TOML_STRING_START = re.compile(r"[#\"']")
_TOML_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "e": "\x1b", '"': '"', "\\": "\\"}


def _toml_strings(text: str) -> Iterator[tuple[str, list[int], list[int]]]:
    """Every string literal of a TOML document outside comments, in file order (TOML 1.0 "String").

    Yields:
        The decoded value, and for each decoded character the offset of its first raw character and the
        offset just after its last (an escape sequence is several raw characters).
    """
    index = 0
    while (match := _TOML_STRING_START.search(text, index)) is not None:
        index = match.start()
        if text[index] == "#":
            newline = text.find("\n", index)
            index = len(text) if newline == -1 else newline + 1
            continue
        quote = text[index]
        multi = text.startswith(quote * 3, index)
        value, starts, ends, index = _toml_string(text, index, quote, multi)
        yield value, starts, ends


def _toml_string(text: str, index: int, quote: str, multi: bool) -> tuple[str, list[int], list[int], int]:
    """Decode the string literal that opens at ``text[index]``; also returns the offset after it."""
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    basic = quote == '"'
    position = index + (3 if multi else 1)
    if multi and text.startswith("\n", position):
        position += 1
    elif multi and text.startswith("\r\n", position):
        position += 2
    closing = quote * 3 if multi else quote
    while position < len(text):
        if text.startswith(closing, position):
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
            position = _toml_escape(text, position, multi, chars, starts, ends)
            continue
        chars.append(char)
        starts.append(position)
        ends.append(position + 1)
        position += 1
    return "".join(chars), starts, ends, position


def _toml_escape(
    text: str, position: int, multi: bool, chars: list[str], starts: list[int], ends: list[int]
) -> int:
    """Decode the escape at ``text[position]`` (a backslash) into ``chars``; returns the offset after it."""
    code = text[position + 1 : position + 2]
    if code in _TOML_ESCAPES:
        chars.append(_TOML_ESCAPES[code])
        width = 2
    elif code in ("u", "U"):
        width = 6 if code == "u" else 10
        try:
            chars.append(chr(int(text[position + 2 : position + width], 16)))
        except ValueError:
            chars.append("\\")
            width = 1
    elif multi and code in (" ", "\t", "\r", "\n"):
        # A line-ending backslash trims all whitespace and newlines up to the next other character.
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
