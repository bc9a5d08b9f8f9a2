"""``reflint cache``: where reflint keeps its caches, and how to empty them.

The cache directory (``--cache-dir``, by default the user cache dir: :func:`default_cache_dir`) holds one
folder per cache: :data:`CACHES`. ``reflint cache clean`` removes those folders and nothing else, so that
a ``--cache-dir`` given by mistake (a home folder, a work tree) loses nothing of its own.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NamedTuple

from ascend_reflint.lookup.cache import default_cache_dir

__all__ = ["CACHES", "Cleaned", "clean", "default_cache_dir"]

#: The folder of each cache in the cache directory, and what its entries are, for messages.
CACHES = (
    ("extract", "extraction entries"),
    ("remotes", "ref lists"),
    ("lookup-failures", "failed lookups"),
    ("history", "commit histories"),
    ("packs", "read rule packs"),
)


class Cleaned(NamedTuple):
    """What :func:`clean` removed from one cache.

    Attributes:
        label: what the entries are (``"ref lists"``).
        entries: how many (files; for commit histories, one folder per remote).
        size: the bytes their files held.
    """

    label: str
    entries: int
    size: int


def clean(directory: Path) -> list[Cleaned]:
    """Remove every cache of :data:`CACHES` from ``directory``; a folder that is a symbolic link is removed
    as a link, never followed.

    Returns:
        What was removed from each cache, in :data:`CACHES` order.

    Raises:
        OSError: a folder cannot be removed.
    """
    cleaned = []
    for name, label in CACHES:
        folder = directory / name
        entries, size = _measure(folder, count_folders=name == "history")
        if folder.is_symlink() or folder.is_file():
            folder.unlink()
        elif folder.is_dir():
            shutil.rmtree(folder)
        cleaned.append(Cleaned(label, entries, size))
    return cleaned


def _measure(folder: Path, count_folders: bool) -> tuple[int, int]:
    """(entries, bytes) under ``folder``: its files, or its top-level folders with ``count_folders``."""
    if folder.is_symlink() or not folder.is_dir():
        return 0, 0
    files = size = 0
    for parent, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(parent, name)
            if not os.path.islink(path):
                files += 1
                size += os.lstat(path).st_size
    if count_folders:
        return sum(1 for entry in folder.iterdir() if entry.is_dir() and not entry.is_symlink()), size
    return files, size
