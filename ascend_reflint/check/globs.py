"""Path globs of rule packs and config (``variant-groups``, ``drift-families``, ``env-pairs``,
``per-file-ignores``), in gitignore syntax as ``--exclude`` takes them.

A glob is matched against a file's path relative to the project root (the folder of the config file, see
:mod:`ascend_reflint.config`), ``/``-separated: ``*npu*`` matches any file whose name or folder names
contain ``npu``, at any depth; a glob with a ``/`` before its end (``docker/ascend/*``) is anchored at the
root; ``**`` spans folders; ``!glob`` takes paths back out of the list. Syntax: gitignore(5), "PATTERN
FORMAT", as the ``pathspec`` library implements it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

#: Glob → ``(regular expression, include)`` as pathspec compiles it (:func:`compiled`); filled on first use,
#: or from a cache (:func:`remember`), so that matching needs no pathspec.
_COMPILED: dict[str, tuple[str, bool]] = {}


def check_glob(glob: str) -> str:
    """Return ``glob`` when it is one usable pattern.

    Raises:
        ValueError: for an empty glob or a comment (``#…``), which would match nothing.
    """
    import pathspec

    spec = pathspec.PathSpec.from_lines("gitignore", [glob])
    if len(spec.patterns) != 1 or spec.patterns[0].include is None:
        raise ValueError(f"{glob!r} is not a path glob (empty, or a comment)")
    return glob


def compiled(glob: str) -> tuple[str, bool]:
    """The regular expression that pathspec's gitignore pattern of ``glob`` searches a path with, and
    whether a match takes the path in (False for ``!glob``). pathspec is imported only for a glob that is
    not known yet."""
    found = _COMPILED.get(glob)
    if found is None:
        import pathspec

        pattern = pathspec.PathSpec.from_lines("gitignore", [glob]).patterns[0]
        assert pattern.regex is not None and pattern.include is not None  # check_glob refused the others
        found = _COMPILED[glob] = (pattern.regex.pattern, pattern.include)
    return found


def remember(forms: Mapping[str, tuple[str, bool]]) -> None:
    """Take the compiled forms of globs (as :func:`compiled` gives them) from a cache."""
    _COMPILED.update(forms)


@functools.lru_cache(maxsize=256)
def _patterns(globs: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], bool], ...]:
    return tuple((re.compile(regex), include) for regex, include in map(compiled, globs))


def matches(globs: Sequence[str], path: str) -> bool:
    """True when the root-relative ``path`` matches ``globs`` (the last matching glob decides, as in
    gitignore: a later ``!glob`` takes a path back out), as ``pathspec.PathSpec.match_file`` decides."""
    included = False
    for pattern, include in _patterns(tuple(globs)):
        if pattern.search(path):
            included = include
    return included
