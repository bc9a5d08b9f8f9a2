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

from ascend_reflint.extract.docs.blocks import READ_LANGUAGES, Block, check_block_lines, language_of, read_as
from ascend_reflint.extract.pinwords import may_name_pin
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
    counted_to, line = 0, 1  # the line of offset counted_to: blocks come in order, so lines are counted once
    position = text.find("::")
    while position != -1:
        line_start, line_end = _line_around(text, position)
        position = text.find("::", line_end)
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
        body_end = _body_end(text, line_end, len(candidate.group("indent")))
        # The body is literal text: a directive inside it is no block of its own (and reading each such
        # one with the rest of the body made nested blocks quadratic).
        position = text.find("::", body_end)
        if may_name_pin(text[line_end:body_end]):
            line += text.count("\n", counted_to, line_end + 1)
            counted_to = line_end + 1
            block = _block(
                text,
                source_map,
                line_end + 1,
                body_end,
                skip_options=bool(name),
                language=language,
                at_line=line,
            )
            if block is not None and block.language:
                blocks.append(block)
    return blocks


def _line_around(text: str, position: int) -> tuple[int, int]:
    """The ``(start, end)`` offsets of the line of ``text`` that holds ``position`` (line break excluded)."""
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    return start, len(text) if end == -1 else end


def _body_end(text: str, line_end: int, indent: int) -> int:
    """Where the block after a directive or ``::`` line (ending at ``line_end``, indented by ``indent``)
    ends: at the first line that holds more than blanks and is indented no deeper, or the text's end."""
    outdented = re.compile(r"\n[ \t]{0," + str(indent) + r"}(?=[^ \t\r\n])").search(text, line_end)
    return outdented.start() + 1 if outdented is not None else len(text)


def _block(
    text: str,
    source_map: SourceMap | None,
    start: int,
    end: int,
    skip_options: bool,
    language: str,
    at_line: int,
) -> Block | None:
    """The block of the lines ``text[start:end]`` (the first is line ``at_line`` of ``text``; option lines
    first when ``skip_options``, blank lines at either end left out), less their common indentation; None
    when nothing is left.

    Raises:
        ExtractError: the block has more lines than a recipe may (:func:`.blocks.check_block_lines`).
    """
    check_block_lines(text, start, end, at_line)
    lines = text[start:end].splitlines(keepends=True)
    first = at_line
    offsets = [start]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    low, high = 0, len(lines)  # the lines kept: lines[low:high]
    while skip_options and low < high and _OPTION.match(lines[low]):
        low += 1
    while low < high and not lines[low].strip():
        low += 1
    while low < high and not lines[high - 1].strip():
        high -= 1
    if low == high:
        return None
    numbers = range(low, high)
    depth = min(_indent(lines[number]) for number in numbers if lines[number].strip())
    out = SourceMapBuilder()
    for number in numbers:
        strip = min(depth, _indent(lines[number]))
        if source_map is None:
            out.copy(lines[number][strip:], first + number, strip + 1)
        else:
            out.copy_mapped(text, source_map, offsets[number] + strip, offsets[number + 1])
    first_line = source_map.position(offsets[numbers[0]])[0] if source_map is not None else first + numbers[0]
    return Block(read_as(language, out.text), out.text, out.source_map, first_line, language)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
