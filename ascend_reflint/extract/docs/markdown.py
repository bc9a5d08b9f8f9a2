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
- a fence without a language is read when its first line says it holds commands or a Dockerfile
  (:func:`~ascend_reflint.extract.docs.blocks.read_as`);
- the block ends at a line of the same character, at least as long, with only blanks after it (or at the
  end of the document);
- each content line loses as many leading blanks and ``>`` markers as the opening fence had before it.

Fences inside an HTML comment (``<!-- … -->``) are not rendered and not read. Only the lines that may open
a fence are looked at one by one (a regular expression finds them), and a block is assembled only when it
can pin (it mentions ``git``).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ascend_reflint.extract.docs.blocks import READ_LANGUAGES, Block, check_block_lines, language_of, read_as
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

_FENCE_LINE = re.compile(r"(?P<prefix>[ \t>]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_FENCE_MARK = re.compile(r"```|~~~")


def markdown_blocks(text: str, source_map: SourceMap | None = None) -> list[Block]:
    """The fenced blocks of ``text`` in a language reflint reads and that mention git, in order.

    Args:
        text: Markdown text (a file, or a notebook's Markdown cell).
        source_map: maps offsets of ``text`` to the file; None when ``text`` is the file itself.
    """
    blocks: list[Block] = []
    comments = [(match.start(), match.end()) for match in _COMMENT.finditer(text)] if "<!--" in text else []
    comment_starts = [start for start, _ in comments]
    position = 0
    counted_to, line = 0, 1  # the line of offset counted_to: blocks come in order, so lines are counted once
    while True:
        opening, line_end = _next_fence(text, position)
        if opening is None:
            return blocks
        position = line_end + 1
        fence, info = opening.group("fence"), opening.group("info")
        commented = bisect_right(comment_starts, opening.start()) - 1
        if (fence[0] == "`" and "`" in info) or (commented >= 0 and opening.start() < comments[commented][1]):
            continue
        closing = re.compile(
            r"^[ \t>]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*\r?$", re.MULTILINE
        ).search(text, position)
        body_end = closing.start() if closing is not None else len(text)
        language = language_of(info)
        if (language in READ_LANGUAGES or not language) and may_name_pin(text[position:body_end]):
            width = len(opening.group("prefix"))
            line += text.count("\n", counted_to, position)
            counted_to = position
            block = _block(text, source_map, position, body_end, width, language, line)
            if block.language:
                blocks.append(block)
        position = closing.end() + 1 if closing is not None else len(text)


def _next_fence(text: str, position: int) -> tuple[re.Match[str] | None, int]:
    """The next line from ``position`` on that opens a fence (its match, and the offset of its end)."""
    while True:
        mark = _FENCE_MARK.search(
            text, position
        )  # not str.find of each: that of the absent one reads to the end
        if mark is None:
            return None, len(text)
        at = mark.start()
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        opening = _FENCE_LINE.fullmatch(text, start, end - 1 if text.endswith("\r", 0, end) else end)
        if opening is not None:
            return opening, end
        position = end + 1


def _block(
    text: str, source_map: SourceMap | None, start: int, end: int, width: int, language: str, line: int
) -> Block:
    """The block labelled ``language`` whose content lines are ``text[start:end]`` (the first on line
    ``line`` of ``text``), each less ``width`` leading blanks and ``>``; its language is ``""`` when what
    it holds is not read.

    Raises:
        ExtractError: the block has more lines than a recipe may (:func:`.blocks.check_block_lines`).
    """
    check_block_lines(text, start, end, line)
    out = SourceMapBuilder()
    first_line = line
    offset = start
    while offset < end:
        line_end = text.find("\n", offset, end)
        line_end = end if line_end == -1 else line_end + 1
        content = text[offset:line_end]
        strip = min(len(content) - len(content.lstrip(" \t>")), width)
        if source_map is None:
            out.copy(content[strip:], line, strip + 1)
        else:
            out.copy_mapped(text, source_map, offset + strip, line_end)
        offset, line = line_end, line + 1
    if source_map is not None:
        first_line = source_map.position(start)[0]
    return Block(read_as(language, out.text), out.text, out.source_map, first_line, language)
