"""BuildKit's git sources: a git repository named by a URL with a ``#REF[:SUBDIR]`` fragment or a query, as
``ADD`` takes one and as a build context (``docker build URL#REF:DIR``, a compose service's or bake target's
``context``) does (see :mod:`ascend_reflint.extract.dockerfile.add` for the facts and their sources).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from ascend_reflint.model import RefType

_SCHEME = re.compile(r"^([a-zA-Z0-9]+)://")
_GIT_SCHEMES = frozenset({"http", "https", "ssh", "git"})
#: ``util/sshutil/scpurl.go``'s pattern for scp-like URLs (the query and fragment split off after).
_SCP_LIKE = re.compile(r"^[a-zA-Z0-9_-]+@[a-zA-Z0-9.-]+:")
#: ``github.com/OWNER/NAME``: a git build context without a scheme (BuildKit's ``IsGitURL``); not for ADD.
_GITHUB_SHORT = re.compile(r"^github\.com/[^/]+/[^/#?]+")
_REF_KEYS = {"ref": None, "tag": RefType.TAG, "branch": RefType.BRANCH}
_CHECKSUM_KEYS = ("checksum", "commit")


def is_git_source(source: str, build_context: bool = False) -> bool:
    """BuildKit's ``ParseGitRef`` test, on the source's value: ``https://…/NAME.git``, ``git://``, ``ssh://``,
    scp-like ``user@host:path``; with ``build_context``, also ``github.com/OWNER/NAME`` (a build context
    may name a repository so, an ``ADD`` source may not)."""
    if build_context and _GITHUB_SHORT.match(source):
        return True
    scheme = _SCHEME.match(source)
    if scheme is not None:
        name = scheme.group(1).lower()
        if name not in _GIT_SCHEMES:
            return False
        if name in ("http", "https"):
            path = re.split(r"[?#]", source[scheme.end() :], maxsplit=1)[0]
            return path.endswith(".git")
        return True
    return _SCP_LIKE.match(source) is not None


class WrittenRef(NamedTuple):
    """The ref part of a git source as written: its text, offset in the source, and the kind it names."""

    text: str
    start: int
    kind: RefType | None


def written_ref(raw: str, url_end: int) -> WrittenRef | None:
    """The ref of a git source: ``ref=``/``tag=``/``branch=`` of the query, else the fragment's REF, else
    the ``checksum=``/``commit=`` (the commit the default branch must be); None when there is none."""
    fragment = raw.find("#", url_end)
    checksum: WrittenRef | None = None
    if raw.startswith("?", url_end):
        for key, value, value_start in _query(raw, url_end + 1, fragment if fragment != -1 else len(raw)):
            if key in _REF_KEYS and value:
                return WrittenRef(value, value_start, _REF_KEYS[key])
            if key in _CHECKSUM_KEYS and value:
                checksum = WrittenRef(value, value_start, None)
    if fragment != -1:
        ref = raw[fragment + 1 :].split(":", 1)[0]
        if ref:
            return WrittenRef(ref, fragment + 1, None)
    return checksum


def _query(raw: str, start: int, end: int) -> Iterator[tuple[str, str, int]]:
    """``key=value`` pairs of a query between ``start`` and ``end``: key, value as written, value offset."""
    position = start
    while position < end:
        stop = raw.find("&", position, end)
        stop = end if stop == -1 else stop
        key, equals, value = raw[position:stop].partition("=")
        if equals:
            yield key, value, position + len(key) + 1
        position = stop + 1
