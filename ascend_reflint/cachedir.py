"""``reflint cache``: where reflint keeps its caches, and how to empty them.

The cache directory (``--cache-dir``, by default the user cache dir: :func:`default_cache_dir`) holds one
folder per cache: :data:`CACHES`. ``reflint cache clean`` removes those folders and nothing else, so that
a ``--cache-dir`` given by mistake (a home folder, a work tree) loses nothing of its own.

A scan may write a cache while it is cleaned (another terminal, a pre-commit hook): each folder is first
renamed aside (one ``rename(2)``, atomic), so that the scan starts a new folder rather than adding files to
the one being removed, then removed; a folder that a writer still filled meanwhile ("Directory not empty")
is removed again, a few times. What cannot be removed is reported and the rest is removed all the same.
Removal never follows a symbolic link (``shutil.rmtree`` works through directory descriptors on Linux and
macOS: ``rmtree.avoids_symlink_attacks``).
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from ascend_reflint.lookup.cache import default_cache_dir

__all__ = ["CACHES", "Cleaned", "clean", "default_cache_dir"]

#: How many times a folder is removed while a writer keeps filling it, and the pause before each retry.
REMOVE_TRIES = 5
RETRY_PAUSE = 0.05

#: The folder of each cache in the cache directory, and what one entry and several are, for messages.
CACHES = (
    ("extract", "extraction entry", "extraction entries"),
    ("remotes", "ref list", "ref lists"),
    ("lookup-failures", "failed lookup", "failed lookups"),
    ("history", "commit history", "commit histories"),
    ("packs", "read rule pack", "read rule packs"),
)


class Cleaned(NamedTuple):
    """What :func:`clean` removed from one cache.

    Attributes:
        label: what the entries are, as many as they are (``"1 ref list"``, ``"0 ref lists"``).
        entries: how many (files; for commit histories, one folder per remote).
        size: the bytes their files took on disk: the blocks allocated to them (``st_blocks`` times 512, what
            ``du`` counts, and what removing them frees), or their length where the system counts no
            blocks; many small entries take more than their length (a 4 KiB block for a 300-byte file).
        left: what could not be removed, as ``path: reason`` (empty when all went).
    """

    label: str
    entries: int
    size: int
    left: tuple[str, ...] = ()


def clean(directory: Path) -> list[Cleaned]:
    """Remove every cache of :data:`CACHES` from ``directory``, and what an interrupted clean left aside; a
    folder that is a symbolic link is removed as a link, never followed.

    Returns:
        What was removed from each cache, in :data:`CACHES` order, with what could not be removed.
    """
    cleaned = []
    for name, one, several in CACHES:
        folder = directory / name
        entries, size = _measure(folder, count_folders=name == "history")
        label = f"{entries} {one if entries == 1 else several}"
        earlier = sorted(directory.glob(f".{name}.removing-*"))  # what an earlier clean left aside
        left = _remove(folder)
        for aside in earlier:
            left += _remove(aside, rename=False)
        cleaned.append(Cleaned(label, entries, size, tuple(left)))
    return cleaned


def _remove(folder: Path, rename: bool = True) -> list[str]:
    """Remove ``folder`` (a link or a file is unlinked), renamed aside first when ``rename``; retried while
    a writer fills it. Returns what could not be removed, as ``path: reason``."""
    try:
        if folder.is_symlink() or folder.is_file():
            folder.unlink()
            return []
        if not folder.is_dir():
            return []
        if rename:
            aside = folder.with_name(f".{folder.name}.removing-{os.getpid()}-{secrets.token_hex(4)}")
            os.rename(folder, aside)
            folder = aside
    except FileNotFoundError:  # removed meanwhile, by another clean
        return []
    except OSError as error:
        if not folder.is_dir():
            return [f"{folder}: {error.strerror or error}"]
        # Not renamed (a read-only directory above it): removed in place.
    problems: list[tuple[str, BaseException]] = []
    for attempt in range(REMOVE_TRIES):
        if attempt:
            time.sleep(RETRY_PAUSE * attempt)
        problems = _rmtree(folder)
        if not os.path.lexists(folder) or not all(_not_empty(error) for _, error in problems):
            break
    if not os.path.lexists(folder):
        return []
    # A folder is not empty because of an entry named before it: only the causes are worth saying.
    causes = [(path, error) for path, error in problems if not _not_empty(error)] or problems
    return [f"{path}: {getattr(error, 'strerror', None) or error}" for path, error in causes]


def _not_empty(error: BaseException) -> bool:
    return isinstance(error, OSError) and error.errno == errno.ENOTEMPTY


def _rmtree(folder: Path) -> list[tuple[str, BaseException]]:
    """``shutil.rmtree(folder)``, going on past what it cannot remove; returns (path, error) for each."""
    problems: list[tuple[str, BaseException]] = []

    def record(_function: Any, path: str, error: Any) -> None:
        problems.append((path, error if isinstance(error, BaseException) else error[1]))

    if sys.version_info >= (3, 12):
        shutil.rmtree(folder, onexc=record)
    else:  # pragma: no cover - Python 3.11
        shutil.rmtree(folder, onerror=record)
    return problems


def _measure(folder: Path, count_folders: bool) -> tuple[int, int]:
    """(entries, bytes on disk) under ``folder``: its files, or its top-level folders with
    ``count_folders``; the bytes as :attr:`Cleaned.size` counts them."""
    if folder.is_symlink() or not folder.is_dir():
        return 0, 0
    files = size = 0
    for parent, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(parent, name)
            try:
                status = os.lstat(path)
            except OSError:  # removed meanwhile (a writer's temporary file)
                continue
            if not stat.S_ISLNK(status.st_mode):
                files += 1
                blocks = getattr(status, "st_blocks", None)  # POSIX; not on Windows
                size += blocks * 512 if blocks is not None else status.st_size
    if count_folders:
        return sum(1 for entry in folder.iterdir() if entry.is_dir() and not entry.is_symlink()), size
    return files, size
