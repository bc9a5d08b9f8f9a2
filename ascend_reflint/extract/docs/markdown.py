"""Fenced code blocks of Markdown (CommonMark "Fenced code blocks", with the extensions that documentation
sites use), found line by line.

Why not a Markdown library: the documentation that ML repositories ship is written for MkDocs (pymdownx
admonitions ``!!! note``, collapsible ``???`` blocks and content tabs ``=== "Tab"``, whose bodies are
indented by four spaces) and for MyST. A CommonMark parser (markdown-it-py) reads a fence indented by four
spaces after a paragraph as an indented code block, so it misses the install steps inside admonitions and
tabs (vllm-ascend's installation guide); importing it also costs about 50 ms. The fence rules below are
CommonMark's, applied at any indentation:

- an opening fence is three or more backticks or tildes (backticks: no backtick in the info string),
  after any indentation and ``>`` blockquote markers; its info string's first word is the language
  (:func:`~ascend_reflint.extract.docs.blocks.language_of`);
- the block ends at a line of the same character, at least as long, with only blanks after it (or at the
  end of the document);
- each content line loses as many leading blanks and ``>`` markers as the opening fence had before it.

Fences inside an HTML comment (``<!-- … -->``) are not rendered and not read.
"""

from __future__ import annotations

import re

from ascend_reflint.extract.docs.blocks import READ_LANGUAGES, Block, language_of
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

_OPENING = re.compile(r"^(?P<prefix>[ \t>]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")


def markdown_blocks(text: str, source_map: SourceMap) -> list[Block]:
    """The fenced blocks of ``text`` in a language reflint reads, in order.

    Args:
        text: Markdown text (a file, or a notebook's Markdown cell).
        source_map: maps offsets of ``text`` to the file.
    """
    blocks: list[Block] = []
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    index, in_comment = 0, False
    while index < len(lines):
        line = lines[index].rstrip("\r\n")
        if in_comment or ("<!--" in line and "```" not in line and "~~~" not in line):
            in_comment = _comment_continues(line, in_comment)
            index += 1
            continue
        opening = _OPENING.match(line)
        if opening is None or (opening.group("fence")[0] == "`" and "`" in opening.group("info")):
            index += 1
            continue
        fence, width = opening.group("fence"), len(opening.group("prefix"))
        closing = re.compile(r"^[ \t>]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
        end = index + 1
        while end < len(lines) and not closing.match(lines[end].rstrip("\r\n")):
            end += 1
        language = language_of(opening.group("info"))
        if language in READ_LANGUAGES and end > index + 1:
            out = SourceMapBuilder()
            for number in range(index + 1, end):
                content = lines[number]
                strip = len(content) - len(content.lstrip(" \t>"))
                strip = min(strip, width)
                out.copy_mapped(text, source_map, starts[number] + strip, starts[number + 1])
            first_line = source_map.position(starts[index + 1])[0]
            blocks.append(Block(language, out.text, out.source_map, first_line))
        index = end + 1
    return blocks


def _comment_continues(line: str, in_comment: bool) -> bool:
    """Whether an HTML comment is still open after ``line``."""
    position = 0
    while True:
        if in_comment:
            close = line.find("-->", position)
            if close == -1:
                return True
            in_comment, position = False, close + 3
        else:
            opening = line.find("<!--", position)
            if opening == -1:
                return False
            in_comment, position = True, opening + 4
