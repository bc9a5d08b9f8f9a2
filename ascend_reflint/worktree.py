"""What git records about the scanned work tree: its files, the commits of its submodules, its ``origin``.

The scanned folder is not trusted: it may carry a ``.git/config`` written by whoever wrote the recipes
(an unpacked archive), or a committed folder that git takes for a bare repository (``HEAD``, ``config``,
``objects/``, ``refs/``: a pull request can hold one, and git finds it before the real repository above).
So git runs here only as ``git ls-files`` (an argument list, never a shell; ``--`` before the pathspec;
standard input from the null device; no prompt; a time limit), with what the repository's config could
make it run switched off: ``core.fsmonitor`` (a program run while the index is read), every transport
(``GIT_ALLOW_PROTOCOL`` empty: a partial clone's missing tree, met while a sparse index is expanded,
is otherwise fetched from the remote the config names, ``ext::`` included), and bare repositories found
by searching (``safe.bareRepository=explicit``, git 2.38). The repository's configuration is read as
data (:func:`origin_url`), never by a git that would act on it.
"""

from __future__ import annotations

import os
import subprocess

#: Seconds that one ``git ls-files`` may take.
_GIT_TIMEOUT = 60
#: ``git ls-files --stage`` mode of a gitlink (a submodule's commit), per git's index format.
_GITLINK_MODE = "160000"
#: Command-line configuration, which outranks the repository's (git-config(1), "FILES"): no fsmonitor
#: program; no bare repository that git finds by searching upwards (one committed in a pull request).
_SAFE_CONFIG = ("-c", "core.fsmonitor=false", "-c", "safe.bareRepository=explicit")
#: No transport at all (git(1), ``GIT_ALLOW_PROTOCOL``: a list, here empty, that overrides the config's
#: ``protocol.*.allow``), so that a lazy fetch of a partial clone's missing object cannot reach the remote
#: or remote helper (``ext::``) that the repository's config names; git 2.44+ does not even try
#: (``GIT_NO_LAZY_FETCH``).
_SAFE_ENVIRONMENT = {
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ALLOW_PROTOCOL": "",
    "GIT_NO_LAZY_FETCH": "1",
}
#: The largest ``.git`` file or ``.git/config`` read, in bytes.
_MAX_CONFIG_BYTES = 1024 * 1024


def ls_files(folder: str, *options: str) -> bytes | None:
    """The output of ``git ls-files -z OPTIONS -- .`` run in ``folder``, or None when git fails there (not a
    work tree, git missing, a repository git refuses to read).

    Args:
        folder: an absolute folder path.
        options: ``ls-files`` options (``--cached``, ``--stage`` …).
    """
    command = ["git", *_SAFE_CONFIG, "-C", folder, "ls-files", "-z", *options, "--", "."]
    try:
        completed = subprocess.run(
            command,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=_GIT_TIMEOUT,
            check=False,
            env={**os.environ, **_SAFE_ENVIRONMENT},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout if completed.returncode == 0 else None


def gitlinks(folder: str) -> dict[str, str] | None:
    """The commit that the index records for each submodule under ``folder`` (its gitlink, mode 160000 in
    ``git ls-files --stage``).

    Args:
        folder: an absolute folder path.

    Returns:
        Submodule path relative to ``folder`` (``/``-separated, as git writes it) → commit id (lower-case
        hex); None when ``folder`` is not in a git work tree whose index git can read.
    """
    output = ls_files(folder, "--stage")
    if output is None:
        return None
    commits: dict[str, str] = {}
    for record in output.decode("utf-8", "surrogateescape").split("\0"):
        info, _, path = record.partition("\t")
        fields = info.split()
        if len(fields) == 3 and fields[0] == _GITLINK_MODE:
            commits[path] = fields[1].lower()
    return commits


def origin_url(folder: str) -> str | None:
    """``remote.origin.url`` of the repository whose work tree root is ``folder``, read from its config file
    as data, or None when there is no such repository, remote or URL.

    ``folder/.git`` is the repository, or a file ``gitdir: PATH`` naming it (a linked work tree or a
    submodule, per gitrepository-layout(5)); a linked work tree's ``commondir`` file names the repository
    that holds the config. ``include.path`` is not followed. With several ``url`` values the last counts, as
    ``git config --get`` says.
    """
    from ascend_reflint.extract.errors import ExtractError
    from ascend_reflint.extract.gitconfig import parse_git_config

    config = _config_file(folder)
    if config is None:
        return None
    text = _read_small(config)
    if text is None:
        return None
    try:
        values = parse_git_config(text)
    except ExtractError:
        return None
    urls = [v.value for v in values if (v.section, v.subsection, v.key) == ("remote", "origin", "url")]
    return urls[-1] if urls and urls[-1] else None


def enclosing_origin_url(folder: str) -> str | None:
    """:func:`origin_url` of the work tree that holds ``folder``: the nearest folder at or above it with a
    ``.git``; None when there is none, or it names no origin."""
    while not os.path.lexists(os.path.join(folder, ".git")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return origin_url(folder)


#: Environment variables that point git at another repository or index than the work tree's own
#: (git(1), "ENVIRONMENT VARIABLES"): with one set, what git reads cannot be told from the work tree.
_REDIRECTING = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY")


def repository_state(folder: str) -> str | None:
    """A fingerprint of what :func:`gitlinks` and :func:`origin_url` read for the work tree whose root is
    ``folder``, and of whether ``folder`` is inside another work tree: it changes whenever their answers
    may (the index is rewritten whole, under a new inode, at every change: gitformat-index(5) and git's
    lockfile API; the config likewise), so that the extraction of ``.gitmodules`` can be cached without
    running git.

    Args:
        folder: an absolute folder path.

    Returns:
        The fingerprint: the stat (size, modification and change times, inode) of ``.git``, of the index
        and of the config files, and whether a folder above holds a ``.git``; None when git would be
        pointed elsewhere by the environment (``GIT_DIR``, ``GIT_INDEX_FILE`` …).
    """
    if any(name in os.environ for name in _REDIRECTING):
        return None
    dot_git = os.path.join(folder, ".git")
    parts = [_stat_of(dot_git, follow=False), str(inside_work_tree(folder))]
    git_dir, common_dir = _git_dirs(folder)
    if git_dir is not None:
        parts += [
            _stat_of(os.path.join(git_dir, "index")),
            _stat_of(os.path.join(git_dir, "config.worktree")),
        ]
    if common_dir is not None:
        parts.append(_stat_of(os.path.join(common_dir, "config")))
    return "\0".join(parts)


def inside_work_tree(folder: str) -> bool:
    """True when a folder above ``folder`` holds a ``.git`` (found without running git)."""
    parent = os.path.dirname(folder)
    while parent != folder:
        if os.path.lexists(os.path.join(parent, ".git")):
            return True
        folder, parent = parent, os.path.dirname(parent)
    return False


def _stat_of(path: str, follow: bool = True) -> str:
    try:
        status = os.stat(path, follow_symlinks=follow)
    except (OSError, ValueError):
        return "-"
    return f"{status.st_mode:o}:{status.st_size}:{status.st_mtime_ns}:{status.st_ctime_ns}:{status.st_ino}"


def _config_file(folder: str) -> str | None:
    _, common_dir = _git_dirs(folder)
    return None if common_dir is None else os.path.join(common_dir, "config")


def _git_dirs(folder: str) -> tuple[str | None, str | None]:
    """The repository of the work tree whose root is ``folder`` (its ``.git`` folder, or the one that a
    ``gitdir: PATH`` file names: a linked work tree or a submodule, gitrepository-layout(5)), and the
    folder holding its shared config (``commondir`` of a linked work tree); (None, None) when there is
    none."""
    dot_git = os.path.join(folder, ".git")
    if os.path.isdir(dot_git):
        git_dir = dot_git
    else:
        pointer = _read_small(dot_git)
        if pointer is None or not pointer.startswith("gitdir:"):
            return None, None
        git_dir = os.path.join(folder, pointer[len("gitdir:") :].strip())
    common = _read_small(os.path.join(git_dir, "commondir"))
    return git_dir, git_dir if common is None else os.path.join(git_dir, common.strip())


def _read_small(path: str) -> str | None:
    """A regular file's text, when it is small enough to be one of git's own files, else None."""
    from ascend_reflint.textfile import FileReadError, read_text

    try:
        text, _ = read_text(path, _MAX_CONFIG_BYTES)
    except FileReadError:
        return None
    return text
