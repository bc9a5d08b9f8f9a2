"""Code blocks of reStructuredText (docutils' "reStructuredText Markup Specification" and Sphinx's "Showing
code examples"), found line by line (docutils is not imported: it takes longer to load than a whole scan
of most repositories, and reading a block needs only its indentation).

- ``.. code-block:: LANG``, ``.. code:: LANG``, ``.. sourcecode:: LANG`` and sphinx-prompt's
  ``.. prompt:: LANG``: the block is the lines indented deeper than the directive, after its option lines
  (``:linenos:``) and a blank line, up to the first line that is not (blank lines inside are kept).
- A literal block (a paragraph that ends with ``::``, then an indented block) is read only when a
  ``.. highlight:: LANG`` before it marks the language; Sphinx's default language is Python.
- A directive without a language (``.. code-block::``) takes the ``.. highlight::`` language too.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from ascend_reflint.extract.docs.blocks import READ_LANGUAGES, Block, language_of
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

_LINE = re.compile(
    r"(?P<indent>[ \t]*)"
    r"(?:\.\.[ \t]+(?P<name>code-block|code|sourcecode|prompt|highlight)::(?P<argument>.*)"
    r"|(?!\.\.).*::[ \t]*\r?)"
)
_OPTION = re.compile(r"^[ \t]*:[\w-]+:")


def rst_blocks(text: str, source_map: SourceMap | None = None) -> list[Block]:
    """The code blocks of ``text`` in a language reflint reads and that mention git, in order.

    Args:
        text: the reStructuredText file's text.
        source_map: maps offsets of ``text`` to the file; None when ``text`` is the file itself.
    """
    blocks: list[Block] = []
    default = ""
    lines: list[str] = []
    starts: list[int] = []
    for line_start, line_end in _lines_with(text, "::"):
        candidate = _LINE.fullmatch(text, line_start, line_end)
        if candidate is None:
            continue
        name = candidate.group("name")
        if name == "highlight":
            default = language_of(candidate.group("argument"))
            continue
        language = (language_of(candidate.group("argument") or "") or default) if name else default
        if name == "prompt" and language in ("bash", "sh", "shell"):
            language = "bash"  # sphinx-prompt writes the prompts itself: the lines are commands
        if language not in READ_LANGUAGES:
            continue
        if not lines:
            lines = text.splitlines(keepends=True)
            starts = [0]
            for line in lines:
                starts.append(starts[-1] + len(line))
        index = bisect_right(starts, line_start) - 1
        body, _end = _indented_body(lines, index + 1, len(candidate.group("indent")), skip_options=bool(name))
        if body and "git" in text[starts[body[0]] : starts[body[-1] + 1]]:
            blocks.append(_block(text, source_map, lines, starts, body, language))
    return blocks


def _lines_with(text: str, needle: str) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` offsets of each line of ``text`` that holds ``needle`` (line break excluded)."""
    position = text.find(needle)
    while position != -1:
        start = text.rfind("\n", 0, position) + 1
        end = text.find("\n", position)
        end = len(text) if end == -1 else end
        yield start, end
        position = text.find(needle, end)


def _indented_body(lines: list[str], index: int, indent: int, skip_options: bool) -> tuple[list[int], int]:
    """The line numbers of the block that follows a directive or ``::`` at ``indent``, and the index after."""
    if skip_options:
        while index < len(lines) and _OPTION.match(lines[index]) and _indent(lines[index]) > indent:
            index += 1
    body: list[int] = []
    while index < len(lines):
        line = lines[index]
        if line.strip() and _indent(line) <= indent:
            break
        body.append(index)
        index += 1
    while body and not lines[body[-1]].strip():
        body.pop()
    while body and not lines[body[0]].strip():
        body.pop(0)
    return body, index


def _block(
    text: str,
    source_map: SourceMap | None,
    lines: list[str],
    starts: list[int],
    body: list[int],
    language: str,
) -> Block:
    depth = min(_indent(lines[number]) for number in body if lines[number].strip())
    out = SourceMapBuilder()
    for number in body:
        strip = min(depth, len(lines[number]) - len(lines[number].lstrip(" \t")))
        if source_map is None:
            out.copy(lines[number][strip:], number + 1, strip + 1)
        else:
            out.copy_mapped(text, source_map, starts[number] + strip, starts[number + 1])
    first_line = source_map.position(starts[body[0]])[0] if source_map is not None else body[0] + 1
    return Block(language, out.text, out.source_map, first_line)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
