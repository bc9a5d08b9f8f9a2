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
from collections.abc import Sequence

import pathspec


def check_glob(glob: str) -> str:
    """Return ``glob`` when it is one usable pattern.

    Raises:
        ValueError: for an empty glob or a comment (``#…``), which would match nothing.
    """
    spec = pathspec.PathSpec.from_lines("gitignore", [glob])
    if len(spec.patterns) != 1 or spec.patterns[0].include is None:
        raise ValueError(f"{glob!r} is not a path glob (empty, or a comment)")
    return glob


@functools.lru_cache(maxsize=256)
def _compiled(globs: tuple[str, ...]) -> pathspec.PathSpec:
    return pathspec.PathSpec.from_lines("gitignore", globs)


def matches(globs: Sequence[str], path: str) -> bool:
    """True when the root-relative ``path`` matches ``globs`` (the last matching glob decides, as in
    gitignore: a later ``!glob`` takes a path back out)."""
    return bool(globs) and _compiled(tuple(globs)).match_file(path)
