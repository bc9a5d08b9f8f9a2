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

from ascend_reflint.extract.docs.blocks import READ_LANGUAGES, Block, language_of
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?P<name>code-block|code|sourcecode|prompt)::(?P<argument>.*)$"
)
_HIGHLIGHT = re.compile(r"^[ \t]*\.\.[ \t]+highlight::[ \t]*(?P<language>\S+)")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:")


def rst_blocks(text: str, source_map: SourceMap) -> list[Block]:
    """The code blocks of ``text`` in a language reflint reads, in order.

    Args:
        text: the reStructuredText file's text.
        source_map: maps offsets of ``text`` to the file.
    """
    blocks: list[Block] = []
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    default = ""
    index = 0
    while index < len(lines):
        line = lines[index].rstrip("\r\n")
        highlight = _HIGHLIGHT.match(line)
        directive = _DIRECTIVE.match(line)
        language: str | None = None
        if highlight is not None:
            default = highlight.group("language").lower()
        elif directive is not None:
            language = language_of(directive.group("argument")) or default
            if directive.group("name") == "prompt" and language in ("bash", "sh", "shell"):
                language = "bash"  # sphinx-prompt writes the prompts itself: the lines are commands
            indent = len(directive.group("indent"))
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            language = default
            indent = len(line) - len(line.lstrip())
        if language is None:
            index += 1
            continue
        body, end = _indented_body(lines, index + 1, indent, skip_options=directive is not None)
        if language in READ_LANGUAGES and body:
            blocks.append(_block(text, source_map, lines, starts, body, language))
        index = max(end, index + 1)
    return blocks


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
    text: str, source_map: SourceMap, lines: list[str], starts: list[int], body: list[int], language: str
) -> Block:
    depth = min(_indent(lines[number]) for number in body if lines[number].strip())
    out = SourceMapBuilder()
    for number in body:
        strip = min(depth, len(lines[number]) - len(lines[number].lstrip(" \t")))
        out.copy_mapped(text, source_map, starts[number] + strip, starts[number + 1])
    return Block(language, out.text, out.source_map, source_map.position(starts[body[0]])[0])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
