"""What a pip command line installs from git: ``pip install`` and its spellings, and ``git+URL@REF`` words.

Sources: pip's "pip install" reference ("Requirement Specifiers", "VCS Support") and pip's
``Git.get_url_rev_and_auth``; PEP 508 for ``NAME @ URL``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ascend_reflint.extract.commands.options import CommandWord

_PIP_NAME = re.compile(r"pip(?:\d+(?:\.\d+)?)?")
_PYTHON_NAME = re.compile(r"python(?:\d+(?:\.\d+)?)?")
_PIP_INSTALLING = frozenset({"install", "download", "wheel"})
#: pip install options whose value is a file or index, never a requirement to read.
_PIP_FILE_OPTIONS = frozenset(
    {
        "-r",
        "--requirement",
        "-c",
        "--constraint",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--src",
        "--log",
        "--cache-dir",
        "-t",
        "--target",
        "--prefix",
        "--root",
        "--report",
        "--cert",
        "--client-cert",
    }
)
#: pip's general options that take a separate value (they may come before the subcommand).
_PIP_GENERAL_WITH_VALUE = frozenset(
    {
        "--proxy",
        "--retries",
        "--timeout",
        "--exists-action",
        "--trusted-host",
        "--cert",
        "--client-cert",
        "--cache-dir",
        "--log",
        "--python",
        "--keyring-provider",
        "--use-feature",
        "--use-deprecated",
    }
)
#: python(1) options that take a value, before ``-m``.
_PYTHON_WITH_VALUE = frozenset({"-W", "-X", "-Q"})


def pip_requirements(name: str, words: Sequence[CommandWord], start: int) -> list[int]:
    """The indexes of the words that may be requirements in a pip install command.

    Recognised: ``pip``/``pip3``/``pip3.11 install``, ``python[3[.x]] -m pip install``, ``uv pip install``
    (also ``download`` and ``wheel``, which fetch the same way). Values of ``-r``, ``-c``, ``-i`` and the
    like are files or indexes and are left out.

    Args:
        name: the command's name (the basename of its first word).
        words: the command's words.
        start: the index of the first word after the command's name.

    Returns:
        Word indexes (empty when this is not a pip install).
    """
    index = _pip_subcommand(name, words, start)
    if index is None:
        return []
    candidates: list[int] = []
    skip_next = False
    for position in range(index + 1, len(words)):
        text = words[position].display
        if skip_next:
            skip_next = False
        elif text in _PIP_FILE_OPTIONS:
            skip_next = True
        elif not text.startswith("-") or "git+" in text:
            candidates.append(position)
    return candidates


def _pip_subcommand(name: str, words: Sequence[CommandWord], start: int) -> int | None:
    """The index of pip's ``install`` word, or None when the command does not run ``pip install``."""
    index: int | None = start
    if _PYTHON_NAME.fullmatch(name):
        index = _after_python_module(words, start, "pip")
    elif name == "uv":
        index = start + 1 if start < len(words) and words[start].display == "pip" else None
    elif not _PIP_NAME.fullmatch(name):
        return None
    if index is None:
        return None
    position = index
    while position < len(words):
        text = words[position].display
        if text in _PIP_INSTALLING:
            return position
        if not text.startswith("-"):
            return None
        position += 2 if text in _PIP_GENERAL_WITH_VALUE else 1
    return None


def _after_python_module(words: Sequence[CommandWord], start: int, module: str) -> int | None:
    index = start
    while index < len(words):
        text = words[index].display
        if text == "-m":
            found = index + 1 < len(words) and words[index + 1].display == module
            return index + 2 if found else None
        if text.startswith("-m"):
            return index + 1 if text[2:] == module else None
        if not text.startswith("-"):
            return None
        index += 2 if text in _PYTHON_WITH_VALUE else 1
    return None


class VcsParts(NamedTuple):
    """Where the parts of a ``git+URL[@REF][#FRAGMENT]`` requirement are in a word's ``display``.

    Attributes:
        url: ``(start, end)`` of URL (after ``git+``, before ``@REF`` and ``#…``).
        ref: ``(start, end)`` of REF, or None when there is none (no ``@``, or nothing after it).
        at: the offset of the ``@`` that separates the revision, or None when there is none; ``ref`` is
            None and ``at`` is not for ``git+URL@`` (an empty revision, which pip refuses).
    """

    url: tuple[int, int]
    ref: tuple[int, int] | None
    at: int | None = None


def vcs_parts(display: str, literal: Sequence[bool]) -> VcsParts | None:
    """Find a pip VCS URL in a requirement word.

    The word may be the URL itself, ``--editable=URL`` or ``NAME @ URL`` (PEP 508); the URL ends at
    whitespace or ``;`` (an environment marker). pip splits the revision off the URL's path at the last
    ``@`` (pip's ``Git.get_url_rev_and_auth``: ``urlsplit`` then ``path.rsplit("@", 1)``), so an ``@`` in
    the user part (``git+ssh://git@host/o/r.git``) is not a revision and a revision may hold ``/``
    (``@feature/x``). For the scp-like form ``git+git@host:o/r.git@v1`` the path starts after ``:``.
    An ``@`` with nothing after it is an empty revision, which the same pip function refuses ("has an
    empty revision (after @) which is not supported"). Only literal characters count as separators (an
    ``@`` inside ``${V}`` is not one).

    Args:
        display: the word's display text.
        literal: per character of ``display``, whether it is literal (not part of an expansion).

    Returns:
        The parts, or None when the word holds no ``git+`` URL (``git+`` with nothing before ``@``, ``#``
        or the word's end is none).
    """
    start = _find_literal(display, literal, "git+", 0)
    while start != -1 and start > 0 and not (literal[start - 1] and display[start - 1] in " \t\n@="):
        start = _find_literal(display, literal, "git+", start + 1)
    if start == -1:
        return None
    url_start = start + 4
    end = len(display)
    for stop in " \t\n;#":
        found = _find_literal(display, literal, stop, url_start)
        if found != -1:
            end = min(end, found)
    scheme = _find_literal(display, literal, "://", url_start, end)
    if scheme != -1:
        slash = _find_literal(display, literal, "/", scheme + 3, end)
        path_start = end if slash == -1 else slash
    else:
        colon = _find_literal(display, literal, ":", url_start, end)
        path_start = url_start if colon == -1 else colon + 1
    at = _rfind_literal(display, literal, "@", path_start, end)
    if (end if at == -1 else at) == url_start:
        return None  # "git+" and no URL: pip refuses it, and it names no remote
    if at == -1:
        return VcsParts((url_start, end), None)
    if at + 1 == end:
        return VcsParts((url_start, at), None, at)
    return VcsParts((url_start, at), (at + 1, end), at)


def _find_literal(text: str, literal: Sequence[bool], sub: str, start: int, end: int | None = None) -> int:
    end = len(text) if end is None else end
    index = text.find(sub, start, end)
    while index != -1 and not all(literal[index : index + len(sub)]):
        index = text.find(sub, index + 1, end)
    return index


def _rfind_literal(text: str, literal: Sequence[bool], sub: str, start: int, end: int) -> int:
    index = text.rfind(sub, start, end)
    while index != -1 and not literal[index]:
        index = text.rfind(sub, start, index)
    return index
