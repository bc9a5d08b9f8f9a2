"""Code blocks of documentation, as the readers of each format find them: a language and the block's text
with a :class:`~ascend_reflint.sourcemap.SourceMap` back to the file; and the languages reflint reads.

Language names are Pygments' (which Sphinx, MkDocs and GitHub use for highlighting): ``bash``, ``sh``,
``shell``, ``zsh``, ``ksh`` are scripts (``#`` starts a comment); ``console``, ``shell-session`` (and
``sh-session``, ``shellsession``) are terminal sessions: a line that starts with a prompt (``$ ``, ``# ``,
``% ``, optionally after ``(venv) `` and ``user@host:dir``) is a command, the lines after a command that
ends with ``\\`` continue it, every other line is the command's output. ``dockerfile``/``docker``/
``containerfile`` are Dockerfiles. Any other language is not read.

What a block holds can overrule its label (:func:`read_as`):

- a script block whose first line (after blank lines and ``#`` comments) is a Dockerfile's ``FROM`` or
  ``ARG`` instruction (upper case, as Docker's reference writes them; no shell has such commands), and
  that has a ``FROM`` line, is a Dockerfile pasted under a ``bash`` label: it is read as a Dockerfile;
- a Markdown fence without a language (no info string) is read only when its first line says what it is:
  a Dockerfile (as above); a terminal session (a ``$ `` prompt); or a script whose first word is one of
  :data:`COMMANDS`, the commands that start install steps (``git``, ``pip``, ``cd``, ``docker`` …). Text,
  logs, directory trees and code in other languages start otherwise and are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.sourcemap import SourceMap, SourceMapBuilder
from ascend_reflint.textfile import MAX_LINES

SCRIPT_LANGUAGES = frozenset({"bash", "sh", "shell", "zsh", "ksh"})
SESSION_LANGUAGES = frozenset({"console", "shell-session", "shellsession", "sh-session", "bash-session"})
DOCKERFILE_LANGUAGES = frozenset({"dockerfile", "docker", "containerfile"})
READ_LANGUAGES = SCRIPT_LANGUAGES | SESSION_LANGUAGES | DOCKERFILE_LANGUAGES
#: The commands whose name, first on the first line of a fence without a language, make it a script.
COMMANDS = frozenset(
    {
        *("git", "pip", "pip3", "uv", "pipx", "python", "python3", "conda", "mamba", "micromamba"),
        *("cd", "mkdir", "export", "source", "sudo", "bash", "sh", "wget", "curl"),
        *("docker", "podman", "apt", "apt-get", "yum", "dnf", "npm", "yarn", "pnpm", "make", "cmake"),
    }
)
#: The first line of a Dockerfile: a ``FROM`` or an ``ARG`` before it (Docker's Dockerfile reference).
_DOCKERFILE_START = re.compile(r"[ \t]*(?:FROM|ARG)[ \t]+\S")
_DOCKERFILE_FROM = re.compile(r"^[ \t]*FROM[ \t]+\S", re.MULTILINE)
#: A prompt at the start of a terminal session's line: ``$ ``, ``# ``, ``% `` after an optional
#: ``(venv) `` and ``user@host:~/dir``.
_PROMPT = re.compile(
    r"^[ \t]*(?:\([^)\n]*\)[ \t]*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*)?[ \t]*)?[$#%](?:[ \t]|$)"
)


@dataclass(slots=True)
class Block:
    """A code block: the language it is read as (lower case, :func:`read_as`), its text and map to the
    file, its first line, and the language its label names (``""`` for none)."""

    language: str
    text: str
    source_map: SourceMap
    line: int
    label: str

    @property
    def is_script(self) -> bool:
        return self.language in SCRIPT_LANGUAGES or self.language in SESSION_LANGUAGES

    @property
    def name(self) -> str:
        """How a notice names the block: ``the bash block``, ``the unlabelled block``."""
        return f"the {self.label or 'unlabelled'} block"


def check_block_lines(text: str, start: int, end: int, line: int) -> None:
    """Raise :class:`ExtractError` when the block whose lines are ``text[start:end]`` (the first on line
    ``line``) has more than :data:`~ascend_reflint.textfile.MAX_LINES` lines, as many as a recipe may have:
    its lines are not assembled (a 10 MiB Markdown fence of short lines took 0.9 GB)."""
    if text.count("\n", start, end) >= MAX_LINES:
        raise ExtractError(
            f"line {line}: a block of more than {MAX_LINES:,} lines, more than any recipe holds"
        )


def read_as(label: str, text: str) -> str:
    """The language a block labelled ``label`` (lower case, ``""`` for none) whose content is ``text`` is
    read as (see the module docstring), or ``""`` when it is not read."""
    if label in DOCKERFILE_LANGUAGES or label in SESSION_LANGUAGES:
        return label
    first = _first_line(text)
    if (label and label not in SCRIPT_LANGUAGES) or first is None:
        return ""
    if _DOCKERFILE_START.match(first) and _DOCKERFILE_FROM.search(text):
        return "dockerfile"
    if label:
        return label
    prompt = _PROMPT.match(first)
    if prompt is not None and prompt.group().rstrip().endswith("$"):  # `%` starts curl's progress table
        return "console"
    return "bash" if first.split()[0] in COMMANDS else ""


def _first_line(text: str) -> str | None:
    """The first line of ``text`` that holds more than blanks and is no ``#`` comment, or None."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return line
    return None


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
