"""Directories as the walk knows them: where a command runs, where a clone is, which clone holds a path.

A :data:`Dir` is ``(anchor, path)``: the anchor ``/`` holds absolute paths; ``""`` is the directory the run
started in when the caller does not know it; ``~`` is the home directory; any other anchor names a directory
that is not known statically (``$WORKSPACE``, ``$(mktemp -d)``), the path being relative to it. Two
directories are the same when their anchors and normalised paths are.
"""

from __future__ import annotations

import posixpath

from ascend_reflint.extract.shell.words import Word

Dir = tuple[str, str]


def start_dir(cwd: str) -> Dir:
    """The directory a run starts in, from the caller's ``cwd`` (``""`` when unknown)."""
    if not cwd:
        return ("", ".")
    if "$" in cwd:
        return (cwd, ".")
    return join(("", "."), cwd)


def join(base: Dir, path: str) -> Dir:
    """``cd path`` from ``base``."""
    if path.startswith("/"):
        normal = posixpath.normpath(path)
        return ("/", "/" + normal.lstrip("/"))
    if path == "~" or path.startswith("~/"):
        return ("~", posixpath.normpath(path[2:] or "."))
    return (base[0], posixpath.normpath(posixpath.join(base[1], path)))


def parent(directory: Dir) -> Dir:
    """The directory that holds ``directory``."""
    return (directory[0], posixpath.dirname(directory[1]) or ".")


def contains(root: Dir, path: Dir) -> int | None:
    """How deep ``root`` is when ``path`` is inside it (or is it), else None."""
    if root[0] != path[0]:
        return None
    top, inner = root[1], path[1]
    if top in (".", "/"):
        return 0 if not inner.startswith("..") else None
    if inner == top or inner.startswith(top + "/"):
        return top.count("/") + 1
    return None


class RuntimeDirs:
    """Directories computed at run time (``cd "$(mktemp -d)"``): each unlike any other, in every run of a
    session."""

    __slots__ = ("_count",)

    def __init__(self) -> None:
        self._count = 0

    def new(self) -> Dir:
        """A directory unlike every other."""
        self._count += 1
        return (f"$({self._count})", ".")


def named(base: Dir, word: Word, value: str | None, runtime: RuntimeDirs) -> Dir:
    """The directory that ``word`` names from ``base``.

    Args:
        base: the directory a relative path starts from.
        word: the word as written.
        value: the word's value, or None when it is not known statically: the directory is then named by
            what is written (``$WORKSPACE/src`` is ``("$WORKSPACE", "src")``), or is a new runtime one when
            a command computes it.
        runtime: where runtime directories come from.
    """
    if value is not None:
        return join(base, value)
    display = word.display
    if "$(" in display or "`" in display:
        return runtime.new()
    cut = len(display)
    for index in range(len(display) - 1, -1, -1):
        if not word.literal[index]:
            break
        if display[index] == "/":
            cut = index
    anchor = display[:cut]
    if not anchor.startswith(("$", "/", "~")):
        anchor = f"{base[0]}\0{base[1]}/{anchor}"
    return (anchor, posixpath.normpath(display[cut + 1 :] or "."))
