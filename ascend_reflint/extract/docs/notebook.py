"""Jupyter notebooks (nbformat 4, "The Notebook file format"): the cells whose text is shell, with every
character mapped back to where the notebook's JSON writes it.

- A code cell of a Python kernel runs IPython: a line that starts with ``!`` (after any indentation) is a
  shell command of its own; ``%pip``/``%conda`` lines are ``pip``/``conda`` commands; a cell whose first
  line is ``%%bash``, ``%%sh``, ``%%shell`` or ``%%script bash|sh`` is a shell script. IPython expands
  ``$name`` and ``{name}`` in those lines with Python variables: a top-level ``NAME = "text"`` (a string
  literal) before them, in cell order, gives the value; any other assignment makes it unresolved. Other
  Python is not read. A notebook whose kernel's language is a shell has shell code cells.
- A Markdown cell's fenced blocks are read as Markdown's (:mod:`.markdown`).
- A cell's ``source`` is a list of JSON strings (or one string). The strings are found by a scan of the
  file's JSON tokens (:func:`string_offsets`) and decoded piece by piece, so that an escape (``\\"``,
  ``\\u00e9``) maps to the place of its backslash and every other character to its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ascend_reflint.extract.docs.blocks import Block
from ascend_reflint.extract.docs.markdown import markdown_blocks
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.jsontext import decode_json_string
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.model import Resolution
from ascend_reflint.resolve import Binding, Scope
from ascend_reflint.sourcemap import LineIndex, SourceMap, SourceMapBuilder

#: A JSON token: a string (possessive, as :data:`_STRING`), a bracket, brace, comma or colon, or a bare word.
_TOKEN = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[{}\[\],:]|[^\s{}\[\],:"]+', re.DOTALL)
_SHELL_CELL = re.compile(r"^%%(?:bash|sh|shell|script[ \t]+(?:bash|sh))[ \t]*$")
_SHELL_LINE = re.compile(r"[ \t]*(?:!!?|%(?=(?:pip|conda|uv)\b))")
#: ``NAME =`` at the start of a line; the value is the rest up to a ``#``, less trailing blanks (found with
#: str methods: a lazy value before optional blanks and a comment made the pattern quadratic in a run of
#: blanks, 40,000 of them took 15 s).
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)[ \t]*")
_STRING_LITERAL = re.compile(r"""^[rRuU]?(?:"([^"\\]*)"|'([^'\\]*)')$""")
_BRACED_NAME = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_SHELL_KERNELS = frozenset({"bash", "sh", "shell"})
_SOURCE_KEY = re.compile(r'"source"\s*:\s*')
#: A JSON string after blanks and an optional comma (group 1: the string with its quotes). Its quantifiers
#: are possessive (a JSON string never needs backtracking): ``(?:[^"\\]|\\.)*`` kept a backtracking point per
#: character, 1.1 GB for a 10 MiB cell.
_STRING = re.compile(r'[\s,]*("[^"\\]*+(?:\\.[^"\\]*+)*+")')


@dataclass(slots=True)
class ShellRun:
    """One shell text of a notebook, with the Python variables IPython expands in it."""

    text: str
    source_map: SourceMap
    scope: Scope
    line: int


def notebook_parts(text: str) -> tuple[list[ShellRun], list[Block]]:
    """The shell commands of a notebook's code cells and the fenced blocks of its Markdown cells.

    Args:
        text: the notebook file's text.

    Returns:
        ``(runs, blocks)`` in cell order.

    Raises:
        ExtractError: the text is not a notebook: not JSON (with the line and column where Python's JSON
            reader stopped), no cells, or JSON nested thousands deep, which no notebook is and Python's
            JSON reader refuses.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ExtractError(
            f"not a Jupyter notebook (not JSON: {error.msg})", error.lineno, error.colno
        ) from None
    except (ValueError, RecursionError):
        document = None
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(cells, list):
        raise ExtractError("not a Jupyter notebook (no JSON with cells)")
    wanted = {index for index, cell in enumerate(cells) if may_name_pin(_joined(cell))}
    if not wanted:
        return [], []
    kernel = _kernel_language(document)
    offsets = _offsets_by_key(text, cells, wanted)
    if offsets is None:
        offsets = string_offsets(text, wanted)
    lines = LineIndex(text)
    runs: list[ShellRun] = []
    blocks: list[Block] = []
    python = Scope()
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            continue
        source = _joined(cell)
        if cell.get("cell_type") == "code" and kernel == "python":
            _python_assignments(source, python)
        if index not in wanted or index not in offsets:
            continue
        built = _cell_text(text, offsets[index], lines)
        if built is None or built.text != source:
            continue
        if cell.get("cell_type") == "markdown":
            blocks.extend(markdown_blocks(built.text, built.source_map))
        elif cell.get("cell_type") == "code":
            runs.extend(_code_runs(built, kernel, python))
    return runs, blocks


def _joined(cell: object) -> str:
    source = cell.get("source") if isinstance(cell, dict) else None
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _kernel_language(document: dict[str, object]) -> str:
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        return "python"
    for key in ("kernelspec", "language_info"):
        entry = metadata.get(key)
        if isinstance(entry, dict):
            language = entry.get("language") or entry.get("name")
            if isinstance(language, str) and language:
                language = language.lower()
                return "python" if language.startswith("python") else language  # "python3"
    return "python"


def string_offsets(text: str, cells: set[int]) -> dict[int, list[int]]:
    """The offsets of the opening quotes of the ``source`` strings of ``cells`` (by index), found by a scan
    of the JSON tokens that tracks where each value sits (``cells`` → index → ``source`` → index)."""
    found: dict[int, list[int]] = {}
    stack: list[list[object]] = []  # ["o", key, expecting_key] or ["a", index]
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "{[":
            stack.append(["o", None, True] if first == "{" else ["a", 0])
        elif first in "}]":
            if stack:
                stack.pop()
        elif first == ":":
            if stack and stack[-1][0] == "o":
                stack[-1][2] = False
        elif first == ",":
            if stack:
                frame = stack[-1]
                if frame[0] == "o":
                    frame[2] = True
                else:
                    frame[1] = int(frame[1]) + 1  # type: ignore[call-overload]
        elif first == '"' and stack and stack[-1][0] == "o" and stack[-1][2]:
            try:
                stack[-1][1] = json.loads(token)
            except ValueError:
                stack[-1][1] = None
        elif first == '"':
            cell = _source_cell(stack)
            if cell is not None and cell in cells:
                found.setdefault(cell, []).append(match.start())
    return found


def _offsets_by_key(text: str, cells: list[object], wanted: set[int]) -> dict[int, list[int]] | None:
    """:func:`string_offsets` the quick way, for the notebooks that json writes: the ``k``-th ``"source":``
    key of the file is the ``k``-th cell's (a quote inside a JSON string is escaped, so the text can hold
    the key unescaped only as a key), and the strings after it decode to that cell's source; None when
    that does not hold for every wanted cell (the full scan then runs)."""
    keys = [match.end() for match in _SOURCE_KEY.finditer(text)]
    if len(keys) != len(cells):
        return None
    found: dict[int, list[int]] = {}
    for index in sorted(wanted):
        cell = cells[index]
        source = cell.get("source") if isinstance(cell, dict) else None
        expected = source if isinstance(source, list) else [source]
        position = keys[index]
        openings: list[int] = []
        if text.startswith("[", position):
            position += 1
            while True:
                string = _STRING.match(text, position)
                if string is None:
                    break
                openings.append(string.start(1))
                position = string.end()
        elif (string := _STRING.match(text, position)) is not None:
            openings.append(string.start(1))
        decoded = [json.loads(_STRING.match(text, opening).group(1)) for opening in openings]  # type: ignore[union-attr]
        if decoded != expected:
            return None
        found[index] = openings
    return found


def _source_cell(stack: list[list[object]]) -> int | None:
    """The cell index when the value at the top of ``stack`` is (a string of) a cell's ``source``."""
    keys = [frame[1] for frame in stack]
    if len(stack) == 4 and keys[0] == "cells" and keys[2] == "source" and stack[3][0] == "a":
        return keys[1] if isinstance(keys[1], int) else None
    if len(stack) == 3 and keys[0] == "cells" and keys[2] == "source" and stack[2][0] == "o":
        return keys[1] if isinstance(keys[1], int) else None
    return None


def _cell_text(text: str, openings: list[int], lines: LineIndex) -> SourceMapBuilder | None:
    """A cell's text assembled from its JSON strings, each character at its place in the file."""
    out = SourceMapBuilder()
    for opening in openings:
        pieces, closing = decode_json_string(text, opening)
        if closing >= len(text):
            return None
        for piece, offset, copied in pieces:
            if copied:
                out.copy(piece, *lines.position(offset))
            else:
                out.insert(piece, *lines.position(offset))
    return out


def _code_runs(cell: SourceMapBuilder, kernel: str, python: Scope) -> Iterator[ShellRun]:
    text, source_map = cell.text, cell.source_map
    line_starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
    first_line = text.split("\n", 1)[0]
    if kernel in _SHELL_KERNELS or _SHELL_CELL.match(first_line):
        start = 0 if kernel in _SHELL_KERNELS else min(len(first_line) + 1, len(text))
        out = SourceMapBuilder()
        out.copy_mapped(text, source_map, start, len(text))
        yield ShellRun(out.text, out.source_map, python.copy(), source_map.position(start)[0])
        return
    if first_line.startswith("%%"):
        return  # another cell magic (%%writefile, %%capture …)
    for start in line_starts:
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        marker = _SHELL_LINE.match(text, start, end)
        if marker is None:
            continue
        out = SourceMapBuilder()
        position = marker.end()
        for name in _BRACED_NAME.finditer(text, position, end):
            out.copy_mapped(text, source_map, position, name.start())
            out.insert("$", *source_map.position(name.start()))
            out.copy_mapped(text, source_map, name.start(), name.end())
            position = name.end()
        out.copy_mapped(text, source_map, position, end)
        yield ShellRun(out.text, out.source_map, python.copy(), source_map.position(start)[0])


def _python_assignments(source: str, python: Scope) -> None:
    """Top-level ``NAME = "text"`` of a code cell: the values IPython gives ``$NAME`` and ``{NAME}``."""
    for line in source.split("\n"):
        match = _ASSIGNMENT.match(line)
        if match is None:
            continue
        value = line[match.end() :].split("#", 1)[0].rstrip(" \t")
        literal = _STRING_LITERAL.match(value)
        if literal is not None:
            python.set(
                match.group(1),
                Binding(literal.group(1) if literal.group(1) is not None else literal.group(2)),
            )
        else:
            note = f"${match.group(1)} is the Python value {value[:40]!r}"
            python.set(match.group(1), Binding(None, Resolution.UNRESOLVED, note))
