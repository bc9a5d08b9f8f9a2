"""Code blocks of documentation, as the readers of each format find them: a language and the block's text
with a :class:`~ascend_reflint.sourcemap.SourceMap` back to the file; and the languages reflint reads.

Language names are Pygments' (which Sphinx, MkDocs and GitHub use for highlighting): ``bash``, ``sh``,
``shell``, ``zsh``, ``ksh`` are scripts (``#`` starts a comment); ``console``, ``shell-session`` (and
``sh-session``, ``shellsession``) are terminal sessions: a line that starts with a prompt (``$ ``, ``# ``,
``% ``, optionally after ``(venv) `` and ``user@host:dir``) is a command, the lines after a command that
ends with ``\\`` continue it, every other line is the command's output. ``dockerfile``/``docker``/
``containerfile`` are Dockerfiles. Any other language, or none, is not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder

SCRIPT_LANGUAGES = frozenset({"bash", "sh", "shell", "zsh", "ksh"})
SESSION_LANGUAGES = frozenset({"console", "shell-session", "shellsession", "sh-session", "bash-session"})
DOCKERFILE_LANGUAGES = frozenset({"dockerfile", "docker", "containerfile"})
READ_LANGUAGES = SCRIPT_LANGUAGES | SESSION_LANGUAGES | DOCKERFILE_LANGUAGES
#: A prompt at the start of a terminal session's line: ``$ ``, ``# ``, ``% `` after an optional
#: ``(venv) `` and ``user@host:~/dir``.
_PROMPT = re.compile(
    r"^[ \t]*(?:\([^)\n]*\)[ \t]*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*)?[ \t]*)?[$#%](?:[ \t]|$)"
)


@dataclass(slots=True)
class Block:
    """A code block: its language (lower case), its text and map to the file, and its first line."""

    language: str
    text: str
    source_map: SourceMap
    line: int

    @property
    def is_script(self) -> bool:
        return self.language in SCRIPT_LANGUAGES or self.language in SESSION_LANGUAGES


def language_of(info: str) -> str:
    """The language an info string or directive argument names: its first word, lower case, with
    MyST's ``{code-block} bash``, Pandoc's ``{.bash}`` and Quarto's ``{bash}`` read as ``bash``."""
    words = info.strip().split()
    if not words:
        return ""
    first = words[0].strip("{}").lower()
    if first in ("code-block", "code", "sourcecode"):
        return words[1].strip("{}").lower() if len(words) > 1 else ""
    return first.lstrip(".").split(",", 1)[0]


def shell_text(block: Block) -> tuple[str, SourceMap]:
    """The shell text of a script or session block (see the module docstring), mapped to the file.

    A ``bash``/``sh`` block whose first command line starts with ``$ `` is read as a session: readers copy
    it without the prompts.
    """
    if block.language in SCRIPT_LANGUAGES and not _starts_with_dollar(block.text):
        return block.text, block.source_map
    out = SourceMapBuilder()
    continued = False
    offset = 0
    for line in block.text.splitlines(keepends=True):
        start, end = offset, offset + len(line)
        offset = end
        prompt = _PROMPT.match(line)
        if prompt is not None and not continued:
            start += prompt.end()
        elif not continued:
            continue  # output of the command
        content = line.rstrip("\r\n")
        out.copy_mapped(block.text, block.source_map, start, end)
        continued = content.endswith("\\") and not content.endswith("\\\\")
        if not line.endswith("\n"):
            out.insert("\n", *block.source_map.position(max(end - 1, 0)))
    return out.text, out.source_map


def _starts_with_dollar(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("$ ") or stripped == "$"
    return False
