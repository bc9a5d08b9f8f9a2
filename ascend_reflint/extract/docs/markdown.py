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

Fences inside an HTML comment (``<!-- … -->``) are not rendered and not read. Only the lines that may open
a fence are looked at one by one (a regular expression finds them), and a block is assembled only when it
can pin (it mentions ``git``).
"""

from __future__ import annotations

import re

from ascend_reflint.extract.docs.blocks import READ_LANGUAGES, Block, language_of
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

_FENCE_LINE = re.compile(r"(?P<prefix>[ \t>]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def markdown_blocks(text: str, source_map: SourceMap | None = None) -> list[Block]:
    """The fenced blocks of ``text`` in a language reflint reads and that mention git, in order.

    Args:
        text: Markdown text (a file, or a notebook's Markdown cell).
        source_map: maps offsets of ``text`` to the file; None when ``text`` is the file itself.
    """
    blocks: list[Block] = []
    comments = [(match.start(), match.end()) for match in _COMMENT.finditer(text)] if "<!--" in text else []
    position = 0
    while True:
        opening, line_end = _next_fence(text, position)
        if opening is None:
            return blocks
        position = line_end + 1
        fence, info = opening.group("fence"), opening.group("info")
        if (fence[0] == "`" and "`" in info) or any(
            start <= opening.start() < end for start, end in comments
        ):
            continue
        closing = re.compile(
            r"^[ \t>]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*\r?$", re.MULTILINE
        ).search(text, position)
        body_end = closing.start() if closing is not None else len(text)
        language = language_of(info)
        if language in READ_LANGUAGES and may_name_pin(text[position:body_end]):
            width = len(opening.group("prefix"))
            blocks.append(_block(text, source_map, position, body_end, width, language))
        position = closing.end() + 1 if closing is not None else len(text)


def _next_fence(text: str, position: int) -> tuple[re.Match[str] | None, int]:
    """The next line from ``position`` on that opens a fence (its match, and the offset of its end)."""
    while True:
        found = [index for index in (text.find("```", position), text.find("~~~", position)) if index != -1]
        if not found:
            return None, len(text)
        at = min(found)
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        opening = _FENCE_LINE.fullmatch(text, start, end - 1 if text.endswith("\r", 0, end) else end)
        if opening is not None:
            return opening, end
        position = end + 1


def _block(text: str, source_map: SourceMap | None, start: int, end: int, width: int, language: str) -> Block:
    """The block whose content lines are ``text[start:end]``, each less ``width`` leading blanks and ``>``."""
    out = SourceMapBuilder()
    line = text.count("\n", 0, start) + 1
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
    first_line = source_map.position(start)[0] if source_map is not None else text.count("\n", 0, start) + 1
    return Block(language, out.text, out.source_map, first_line)
