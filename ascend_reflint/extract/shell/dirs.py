"""Directories as the walk knows them: where a command runs, where a clone is, which clone holds a path.

A :data:`Dir` is ``(anchor, path)``: the anchor ``/`` holds absolute paths; ``""`` is the directory the run
started in when the caller does not know it; ``~`` is the home directory; any other anchor names a directory
that is not known statically (``$WORKSPACE``, ``$(mktemp -d)``), the path being relative to it. Two
directories are the same when their anchors and normalised paths are, so a directory known only as an
expression is tracked as one: ``$(dirname "$D")`` is ``("$D", "..")``, ``$(basename "$D")`` in it is
``("$D", ".")`` again, ``$PWD/x`` is ``x`` of the current directory.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from ascend_reflint.extract.shell.words import Word

Dir = tuple[str, str]
#: The directory that the argument of ``$(dirname X)`` and the like names (X as written), or None.
Inner = Callable[[str], "Dir | None"]

#: What stands for the last component of a directory known only as an expression (see :func:`basename`).
_NAME_OF = "\0basename\0"
_ANCHOR_BRACES = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: ``$(dirname X)``, ``$(basename X)``, ``$(realpath X)``, ``$(readlink -f X)``, ``$(pwd)``, also in
#: backquotes; X is one word (quoted or not, no command substitution in it).
_PATH_COMMAND = re.compile(
    r"(?:\$\(|`)[ \t]*(?P<command>dirname|basename|realpath|readlink[ \t]+-[a-z]*f[a-z]*|pwd)"
    r"(?:[ \t]+(?:--[ \t]+)?(?P<argument>\"[^\"`$]*(?:\$\{?\w+\}?[^\"`$]*)*\"|[^\s`()\"']+))?[ \t]*(?:\)|`)"
)


def start_dir(cwd: str) -> Dir:
    """The directory a run starts in, from the caller's ``cwd`` (``""`` when unknown)."""
    if not cwd:
        return ("", ".")
    if "$" in cwd:
        return (cwd, ".")
    return join(("", "."), cwd)


def join(base: Dir, path: str) -> Dir:
    """``cd path`` from ``base`` (``path`` may be the name :func:`basename` gives a directory)."""
    if path.startswith(_NAME_OF):
        named_dir = _named_by(path)
        if named_dir is not None and parent(named_dir) == base:
            return named_dir  # cd "$(dirname "$D")"; cd "$(basename "$D")" is cd "$D"
        return (base[0], posixpath.normpath(posixpath.join(base[1], path.replace("/", "\0"))))
    if path.startswith("/"):
        normal = posixpath.normpath(path)
        return ("/", "/" + normal.lstrip("/"))
    if path == "~" or path.startswith("~/"):
        return ("~", posixpath.normpath(path[2:] or "."))
    return (base[0], posixpath.normpath(posixpath.join(base[1], path)))


def parent(directory: Dir) -> Dir:
    """The directory that holds ``directory`` (``$D/..`` when only ``$D`` is known)."""
    anchor, path = directory
    if path == "/":
        return directory
    if path == "." or path == ".." or path.endswith("/.."):
        return (anchor, posixpath.normpath(posixpath.join(path, "..")))
    return (anchor, posixpath.dirname(path) or ".")


def basename(directory: Dir) -> str:
    """The last component of ``directory``'s path: as written when the path has one, else a name that
    stands for it (``$(basename "$D")`` when only ``$D`` is known), which :func:`join` resolves back."""
    anchor, path = directory
    if path not in (".", "/") and not path.endswith(".."):
        return posixpath.basename(path)
    return f"{_NAME_OF}{anchor}\0{path}"


def _named_by(name: str) -> Dir | None:
    """The directory whose :func:`basename` is ``name``, or None."""
    anchor, _, path = name[len(_NAME_OF) :].partition("\0")
    return (anchor, path) if path else None


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


def named(base: Dir, word: Word, value: str | None, runtime: RuntimeDirs, inner: Inner) -> Dir:
    """The directory that ``word`` names from ``base``.

    Args:
        base: the directory a relative path starts from (the current directory).
        word: the word as written.
        value: the word's value, or None when it is not known statically: the directory is then named by
            what is written (``$WORKSPACE/src`` is ``("$WORKSPACE", "src")``, ``$PWD/src`` is ``src`` of
            ``base``); ``$(dirname X)``, ``$(basename X)``, ``$(realpath X)``, ``$(readlink -f X)`` and
            ``$(pwd)`` (also in backquotes, and followed by ``/more``) are computed from X's directory;
            any other command gives a new runtime directory.
        runtime: where runtime directories come from.
        inner: the directory that the argument X of such a command names, from ``base`` (the caller
            expands it), or None when X is not one word.
    """
    if value is not None:
        return join(base, value)
    display = word.display
    if "$(" in display or "`" in display:
        return _computed(base, word, runtime, inner)
    cut = len(display)
    for index in range(len(display) - 1, -1, -1):
        if not word.literal[index]:
            break
        if display[index] == "/":
            cut = index
    anchor = _ANCHOR_BRACES.sub(r"$\1", display[:cut])
    rest = posixpath.normpath(display[cut + 1 :] or ".")
    if anchor in ("$PWD", "${PWD}"):
        return join(base, rest)
    if not anchor.startswith(("$", "/", "~")):
        anchor = f"{base[0]}\0{base[1]}/{anchor}"
    return (anchor, rest)


def _computed(base: Dir, word: Word, runtime: RuntimeDirs, inner: Inner) -> Dir:
    """The directory a word that starts with a command substitution names (see :func:`named`)."""
    display = word.display
    match = _PATH_COMMAND.match(display)
    rest = display[match.end() :] if match is not None else ""
    if match is None or (rest and (not rest.startswith("/") or not all(word.literal[match.end() :]))):
        return runtime.new()
    command, argument = match.group("command"), match.group("argument")
    if command == "pwd":
        found = base
    elif argument is None or (found_inner := inner(argument)) is None:
        return runtime.new()
    elif command == "dirname":
        found = parent(found_inner)
    elif command == "basename":
        found = join(base, basename(found_inner))
    else:  # realpath, readlink -f: the directory itself (links are not followed statically)
        found = found_inner
    return join(found, rest[1:]) if rest else found
