"""Side files: what reflint reads besides recipes (the config, rule packs, the baseline, cache entries),
and the fence around the files that a scanned repository names.

A side file is read as a recipe is (:func:`ascend_reflint.textfile.read_bytes`): a regular file only (a
FIFO is refused without waiting for a writer, a device such as ``/dev/zero`` without reading a byte), and
no more than a cap that is far above any real file of its kind.

A scanned repository is not trusted: a path that its own files name (its config's ``rule-packs``; later,
the files that recipes name: ``-r`` requirement files, ``docker build -f``, a bake ``dockerfile``, GitLab's
``include: local``) must resolve, symbolic links followed, inside the project root
(:func:`inside_root`). Otherwise a pull request could make reflint read ``/etc/shadow`` or a runner's
credentials and quote them in an error. Paths that the person running reflint gives on the command line
(``--config``, ``--rule-pack``, ``--baseline``) are not fenced.
"""

from __future__ import annotations

import os

from ascend_reflint.textfile import FileReadError, read_bytes

#: The largest config file or rule pack read, in bytes (the shipped pack is about 4 KiB).
CONFIG_MAX_BYTES = 1024 * 1024
#: The largest baseline read, in bytes (an entry is about 200 bytes: some 300,000 findings).
BASELINE_MAX_BYTES = 64 * 1024 * 1024
#: The largest cache entry read, in bytes (a ref is about 60 bytes: about a million refs).
CACHE_ENTRY_MAX_BYTES = 64 * 1024 * 1024


def read_side_file(path: str | os.PathLike[str], max_bytes: int, follow_links: bool = True) -> str:
    """The UTF-8 text of the side file at ``path``.

    Args:
        path: filesystem path.
        max_bytes: the largest size read (:data:`CONFIG_MAX_BYTES`, :data:`BASELINE_MAX_BYTES` …).
        follow_links: False to refuse a symbolic link at ``path`` (for files that only reflint writes: its
            cache entries, where a link was put there by someone else).

    Returns:
        The text, exactly as stored (no line-end translation).

    Raises:
        FileReadError: the file is missing, unreadable, not a regular file, over ``max_bytes``, or not
            UTF-8 (or a symbolic link, with ``follow_links`` False); the message names the cause, not the
            path.
    """
    data = read_bytes(os.fspath(path), max_bytes, follow_links=follow_links)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileReadError(f"not valid UTF-8 (at byte {error.start:,})") from None


def inside_root(root: str, path: str) -> str | None:
    """Where ``path``, named by a file of the scanned repository, really is, when that is inside ``root``.

    Args:
        root: the project root.
        path: the path as the file names it: relative to ``root``, or absolute.

    Returns:
        The real absolute path (every symbolic link followed, also dangling ones as far as they go), or
        None when it is outside the real path of ``root``.
    """
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root, path))
    try:
        return real if os.path.commonpath([real_root, real]) == real_root else None
    except ValueError:  # another drive on Windows
        return None
