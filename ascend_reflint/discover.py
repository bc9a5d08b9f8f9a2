"""Discovery: the files to read, and their kind.

Inside a git work tree the files are those git tracks plus untracked ones it does not ignore
(``git ls-files --cached --others --exclude-standard``); elsewhere the folder is walked. Either way nothing
below a virtual environment's, package manager's or version control's folder (``.venv``, ``site-packages``,
``__pycache__``, ``node_modules`` …) is read. Kinds come from
names and, for scripts without an extension, from the shebang. Paths given explicitly (as pre-commit passes
them) are always read, even with an unusual name.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence

from ascend_reflint.model import FileKind, FileMessage, SourceFile
from ascend_reflint.textfile import FileReadError, read_head
from ascend_reflint.worktree import ls_files

#: Folders never read below a folder given (a folder given itself is read): version control's own, and those
#: that virtual environments and package managers fill with other projects' files and compiled code. They are
#: skipped in a git work tree too when git does not ignore them (an un-ignored ``.venv`` holds thousands of
#: installed packages' scripts and requirements, none of them the project's recipes), as ruff's default
#: ``exclude`` skips them.
_SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", "site-packages", ".tox"}
)
_SHELL_SUFFIXES = (".sh", ".bash")
_SHELL_INTERPRETERS = frozenset({"sh", "bash", "dash", "ksh", "zsh", "ash"})
_YAML_SUFFIXES = (".yml", ".yaml")
#: ``Dockerfile*`` names that are documents, templates or backups about a Dockerfile, not one.
_NOT_RECIPE_SUFFIXES = (
    ".md",
    ".rst",
    ".txt",
    ".adoc",
    ".html",
    ".py",
    ".sh",
    ".json",
    ".yml",
    ".yaml",
    ".toml",
    ".cfg",
    ".ini",
    ".j2",
    ".jinja",
    ".jinja2",
    ".tmpl",
    ".tpl",
    ".template",
    ".bak",
    ".orig",
    ".rej",
    ".swp",
    ".lock",
)
#: Compiled, packed and binary files (lower-case suffixes): never a recipe, whatever their name says
#: (``__pycache__/makefile.cpython-311.pyc``, ``dockerfile.cpython-311.pyc``, ``Dockerfile.tar.gz``).
_BINARY_SUFFIXES = (
    ".pyc",
    ".pyo",
    ".pyd",
    ".so",
    ".o",
    ".a",
    ".obj",
    ".lib",
    ".dll",
    ".dylib",
    ".exe",
    ".class",
    ".jar",
    ".whl",
    ".egg",
    ".zip",
    ".tar",
    ".gz",
    ".tgz",
    ".bz2",
    ".xz",
    ".zst",
    ".7z",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".webp",
    ".ico",
    ".bmp",
    ".pdf",
)
_SURROGATE = re.compile("[\udc80-\udcff]")
#: The notice on a path given on the command line whose kind reflint does not read.
SKIPPED = "skipped: not a kind of file reflint reads"


class Discovery:
    """What discovery found: files to read in a stable order, and paths it could not use (a plain class:
    every scan defines it, and nothing compares or copies one).

    Attributes:
        files: the files to read, sorted by display path.
        errors: paths that could not be used (``no such file or directory``).
        notices: paths skipped, and why.
        stats: absolute path → ``os.lstat`` of the files that discovery checked exist (those git lists,
            which may be gone) and found regular files: what ``os.stat`` would give, taken during discovery,
            for a caller that needs it (the tree index compares it) to spare a second system call each.
    """

    __slots__ = ("errors", "files", "notices", "stats")

    def __init__(self) -> None:
        self.files: list[SourceFile] = []
        self.errors: list[FileMessage] = []
        self.notices: list[FileMessage] = []
        self.stats: dict[str, os.stat_result] = {}


def discover(
    paths: Sequence[str],
    excludes: Sequence[str] = (),
    cwd: str | None = None,
    root_excludes: Sequence[str] = (),
    root: str | None = None,
    docs: bool = True,
) -> Discovery:
    """Find the files under ``paths`` that can pin git refs.

    Args:
        paths: files and folders as given on the command line (``["."]`` when none were).
        excludes: gitignore-style globs (``--exclude``) matched against paths relative to the working
            directory; they leave out walked and explicit paths alike.
        cwd: the working directory that display paths are relative to (default: the process's).
        root_excludes: gitignore-style globs (the config's ``exclude`` and ``extend-exclude``) matched
            against paths relative to ``root``; they leave out walked and explicit paths alike.
        root: the project root (needed when ``root_excludes`` are given).
        docs: read documentation (kind ``docs``); False for ``--no-docs`` (an explicit docs path is then
            skipped with a notice).

    Returns:
        A :class:`Discovery`; files are sorted by display path, each path once.
    """
    cwd = os.path.abspath(cwd or os.getcwd())
    excluded = exclusions(excludes)
    root_excluded = root_exclusions(root_excludes, root)
    found: dict[str, SourceFile] = {}
    result = Discovery()
    for given in paths or ["."]:
        absolute = os.path.abspath(os.path.join(cwd, given))
        if os.path.isdir(absolute):
            names, unlisted, may_be_gone = _list_folder(absolute)
            for folder, reason in unlisted:
                shown = display_path(os.path.join(given, os.path.relpath(folder, absolute)), cwd)
                if not excluded(shown + "/"):
                    result.errors.append(FileMessage(shown, f"cannot list this folder: {reason}"))
            shown_as = _display_namer(given, cwd)
            # The names are relative, never absolute: joining one is a concatenation (os.path.join costs
            # about a microsecond a name, and a listing holds thousands).
            inside = os.path.join(absolute, "")
            candidates: Iterable[tuple[str, str, bool]] = (
                (inside + name, shown_as(name), False) for name in names
            )
        elif os.path.lexists(absolute):
            candidates, may_be_gone = [(absolute, display_path(given, cwd), True)], False
        else:
            result.errors.append(FileMessage(display_path(given, cwd), "no such file or directory"))
            continue
        for path, shown, explicit in candidates:
            if shown in found or excluded(shown):
                continue
            kind = classify(path, explicit)
            if kind is None or (kind is FileKind.DOCS and not docs):
                if explicit:
                    why = SKIPPED if kind is None else "skipped: documentation is not read (--no-docs)"
                    result.notices.append(FileMessage(shown, why))
                continue
            if root_excluded(path) or (may_be_gone and not _is_file(path, result.stats)):
                continue
            found[shown] = SourceFile(
                path=shown, abspath=path, kind=kind, explicit=explicit, template=is_template(path)
            )
    result.files = [found[key] for key in sorted(found)]
    return result


def root_exclusions(excludes: Sequence[str], root: str | None) -> Callable[[str], bool]:
    """A test of absolute paths against globs relative to ``root`` (the config's ``exclude``); a path
    outside ``root`` is never excluded by them."""
    if not excludes or root is None:
        return lambda _path: False
    matches = exclusions(excludes)

    def excluded(path: str) -> bool:
        relative = under_root(path, root)
        return relative is not None and matches(relative)

    return excluded


def exclusions(excludes: Sequence[str]) -> Callable[[str], bool]:
    """A test of display paths against the ``--exclude`` globs (gitignore syntax; pathspec is loaded only
    when some are given)."""
    if not excludes:
        return lambda _shown: False
    import pathspec

    return pathspec.PathSpec.from_lines("gitignore", excludes).match_file


def _display_namer(folder: str, cwd: str) -> Callable[[str], str]:
    """A function from the clean relative name of a file under ``folder`` (``docker/Dockerfile``: no
    ``.``, ``..`` or empty part, ``os.sep``-separated) to the file's :func:`display_path`.

    :func:`display_path` runs once per folder rather than once per file (``os.path.relpath`` per file took
    a second of discovery on 90,000 files): every file under a folder is shown as the folder's display path
    followed by its name, except under a folder that holds the working directory, whose files below the
    working directory are shown relative to it.
    """
    absolute = os.path.abspath(os.path.join(cwd, folder))
    if relpath(absolute, cwd) == os.curdir:
        return _with_prefix("")  # a file under the working directory is shown relative to it
    shown = display_path(folder, cwd)
    outside = _with_prefix(shown if shown.endswith("/") else shown + "/")
    below = relpath(cwd, absolute)
    if below.split(os.sep, 1)[0] == os.pardir:
        return outside
    below += os.sep  # the working directory is under the folder

    def name_of(name: str) -> str:
        if name.startswith(below):
            return _printable(name[len(below) :].replace(os.sep, "/"))
        return outside(name)

    return name_of


def _with_prefix(prefix: str) -> Callable[[str], str]:
    return lambda name: prefix + _printable(name.replace(os.sep, "/"))


def relpath(path: str, start: str) -> str:
    """``os.path.relpath(path, start)`` for absolute ``path`` and ``start``, by string operations when
    ``path`` is ``start`` plus a clean relative name (the usual case, many times faster), else by
    ``os.path.relpath``."""
    prefix = start if start.endswith(os.sep) else start + os.sep
    if path.startswith(prefix):
        rest = path[len(prefix) :]
        parts = rest.split(os.sep)
        if rest and "" not in parts and os.curdir not in parts and os.pardir not in parts:
            return rest
    return os.path.relpath(path, start)


def under_root(path: str, root: str) -> str | None:
    """Absolute ``path`` relative to ``root``, ``/``-separated, or None when it is outside ``root``."""
    relative = relpath(path, root)
    return None if relative.startswith(os.pardir) else relative.replace(os.sep, "/")


def display_path(path: str, cwd: str) -> str:
    """``path`` relative to ``cwd`` when under it (``/``-separated, no leading ``./``), else as given.

    A file name's bytes that are not UTF-8 (Python holds them as lone surrogates, PEP 383) are shown as
    ``\\xNN``: a display path is text that every output (JSON, SARIF URIs, a terminal) can encode. The
    file is still opened by its real name (:attr:`SourceFile.abspath`).
    """
    absolute = os.path.abspath(os.path.join(cwd, path))
    path = os.path.normpath(path)
    try:
        relative = os.path.relpath(absolute, cwd)
    except ValueError:  # another drive on Windows
        return _printable(path.replace(os.sep, "/"))
    if relative == os.curdir:
        return _printable(path)
    if relative.startswith(os.pardir + os.sep) or relative == os.pardir:
        return _printable(path.replace(os.sep, "/"))
    return _printable(relative.replace(os.sep, "/"))


def _printable(path: str) -> str:
    """``path`` with each undecodable byte (``surrogateescape``'s U+DC80..U+DCFF) written ``\\xNN``, and each
    backslash ``\\x5c``: else a file named with the four characters ``\\xff`` would be shown as the file
    named with the byte 0xff beside it, and discovery, which keeps each display path once, would read only
    one of the two."""
    if "\\" not in path and not _SURROGATE.search(path):
        return path
    path = path.replace("\\", "\\x5c")
    return _SURROGATE.sub(lambda match: f"\\x{ord(match.group()) - 0xDC00:02x}", path)


def classify(path: str, explicit: bool = False) -> FileKind | None:
    """The kind of file at ``path`` from its name, or from its first lines where the name cannot tell.

    Names (any case): ``Dockerfile*``, ``Containerfile*``, ``*.dockerfile``, ``*_Dockerfile`` (dockerfile);
    ``*.sh``, ``*.bash`` (shell); ``.github/workflows/*.yml|yaml`` and ``action.yml|yaml`` (workflow);
    ``requirements*.txt|in``, ``*.requirements.txt``, ``*-requirements*.txt|in``, ``*_requirements*.txt|in``,
    ``constraints*.txt`` and any ``*.txt``/``*.in`` in a
    folder named ``requirements`` (requirements); ``pyproject.toml`` (pyproject); ``environment*.yml|yaml``
    (conda); ``.gitmodules`` (submodule); ``.pre-commit-config.yaml|yml``, ``prek.toml`` (pre-commit);
    ``CMakeLists.txt``, ``*.cmake`` (cmake); ``Makefile``, ``GNUmakefile``, ``Makefile-*``, ``Makefile.*``,
    ``*.mk`` (makefile); ``.gitlab-ci.yml`` and ``*.yml|yaml`` under a ``.gitlab`` folder (gitlab-ci);
    ``Apptainerfile*``, ``Singularity*`` and ``*.def`` files whose first line is a ``Bootstrap:`` header
    (apptainer); ``*.md``, ``*.markdown``, ``*.mdx``, ``*.qmd``, ``*.rst``, ``*.ipynb`` (docs);
    ``compose.yaml``, ``docker-compose*.yml|yaml`` (compose); ``docker-bake*.hcl|json`` (bake). A template of
    one of these (:func:`is_template`: ``Dockerfile.j2``, ``.gitlab-ci.yml.jinja``) has the kind of its name
    without the template's suffix. An explicit path with no such name is read as a shell script when it has a
    shell shebang, as a Dockerfile when its first instruction is ``FROM`` or ``ARG``.

    A compiled, packed or binary file (``*.pyc``, ``*.so``, ``*.o``, ``*.a``, ``*.whl``, ``*.tar.gz``,
    images …) is never read, whatever the rest of its name says.

    Returns:
        The kind, or None when reflint does not read such a file.
    """
    name = os.path.basename(path)
    lower = name.lower()
    if lower.endswith(_BINARY_SUFFIXES):
        return None
    suffix = _template_suffix(lower)
    if suffix is not None:
        stem = path[: len(path) - len(suffix)]
        return _kind_by_name(stem, lower[: len(lower) - len(suffix)])
    kind = _kind_by_name(path, lower)
    if kind is not None:
        return kind
    if lower.endswith(".def"):
        return FileKind.APPTAINER if _is_definition_file(path) else None
    if "." not in name or explicit:
        return _sniff(path, explicit)
    return None


def is_template(path: str) -> bool:
    """True when ``path`` names a template of a recipe (``.j2``, ``.jinja``, ``.jinja2``, ``.tmpl``, ``.tpl``,
    ``.template``): it is read as the kind of its name without that suffix (:func:`classify`)."""
    return _template_suffix(os.path.basename(path).lower()) is not None


#: The suffixes of template files (Jinja, Go templates and the like), lower case.
_TEMPLATE_SUFFIXES = (".j2", ".jinja", ".jinja2", ".tmpl", ".tpl", ".template")
#: Documentation reflint reads the shell and Dockerfile blocks of (lower-case suffixes).
_DOCS_SUFFIXES = (".md", ".markdown", ".mdx", ".qmd", ".rst", ".ipynb")


def _template_suffix(lower: str) -> str | None:
    if not lower.endswith(_TEMPLATE_SUFFIXES):
        return None
    for suffix in _TEMPLATE_SUFFIXES:
        if lower.endswith(suffix) and len(lower) > len(suffix):
            return suffix
    return None


def _kind_by_name(path: str, lower: str) -> FileKind | None:
    """The kind that a file name (``lower``, the lower-case base name of ``path``) gives, or None."""
    if lower.endswith((".dockerfile", ".containerfile", "_dockerfile")) or (
        lower.startswith(("dockerfile", "containerfile")) and not lower.endswith(_NOT_RECIPE_SUFFIXES)
    ):
        return FileKind.DOCKERFILE
    if lower.startswith(("apptainerfile", "singularity")) and not lower.endswith(_NOT_RECIPE_SUFFIXES):
        return FileKind.APPTAINER
    if lower.endswith(_SHELL_SUFFIXES):
        return FileKind.SHELL
    if lower.endswith(_YAML_SUFFIXES):
        return _yaml_kind(path, lower)
    if lower == "cmakelists.txt" or lower.endswith(".cmake"):
        return FileKind.CMAKE
    if _is_makefile(lower):
        return FileKind.MAKEFILE
    if lower.endswith((".txt", ".in")) and _is_requirements(path, lower):
        return FileKind.REQUIREMENTS
    if lower.endswith(_DOCS_SUFFIXES):
        return FileKind.DOCS
    if _BAKE_FILE.fullmatch(lower):
        return FileKind.BAKE
    return _NAMED_KINDS.get(lower)


#: Docker Compose files (``compose.yaml``, ``docker-compose.override.yml``, ``docker-compose.dev.yml``).
_COMPOSE_FILE = re.compile(r"(?:docker-)?compose(?:\.[\w.-]+)?\.ya?ml")
#: Docker Bake files (``docker-bake.hcl``, ``docker-bake.override.json``, ``docker-bake.ci.hcl``).
_BAKE_FILE = re.compile(r"docker-bake(?:\.[\w.-]+)?\.(?:hcl|json)")
#: Files whose whole name (lower case) gives their kind.
_NAMED_KINDS = {
    "pyproject.toml": FileKind.PYPROJECT,
    ".gitmodules": FileKind.SUBMODULE,
    "prek.toml": FileKind.PRE_COMMIT,
}


def _is_makefile(lower: str) -> bool:
    """``Makefile``, ``GNUmakefile``, ``Makefile-*``, ``Makefile.*`` (not a document about one), ``*.mk``."""
    if lower in ("makefile", "gnumakefile") or lower.endswith(".mk"):
        return True
    return lower.startswith(("makefile-", "makefile.")) and not lower.endswith(_NOT_RECIPE_SUFFIXES)


def _yaml_kind(path: str, lower: str) -> FileKind | None:
    # The names of the path's folders and file, as pathlib's parts without the root (which is never one of
    # the names looked for): a listing of a tree has hundreds of YAML files, and a path object for each
    # cost more than this whole function.
    parts = [part for part in path.replace(os.sep, "/").split("/") if part not in ("", ".")]
    if lower in ("action.yml", "action.yaml") or parts[-3:-1] == [".github", "workflows"]:
        return FileKind.WORKFLOW
    if _COMPOSE_FILE.fullmatch(lower):
        return FileKind.COMPOSE
    if lower in (".pre-commit-config.yaml", ".pre-commit-config.yml"):
        return FileKind.PRE_COMMIT
    if lower in (".gitlab-ci.yml", ".gitlab-ci.yaml") or ".gitlab" in parts[:-1]:
        return FileKind.GITLAB_CI
    if lower.startswith("environment"):
        return FileKind.CONDA
    return None


#: Requirements files named with a prefix (``dev-requirements.txt``, pip-tools' ``dev-requirements.in``,
#: ``freesound_requirements.txt``, ``test_requirements_gpu.txt``); ``requirements.md`` is documentation.
_AFFIXED_REQUIREMENTS = re.compile(r"[\w.-]*[-_]requirements[\w.-]*\.(?:txt|in)")


def _is_requirements(path: str, lower: str) -> bool:
    """``requirements*.txt|in``, ``*.requirements.txt``, ``*-requirements*.txt|in``,
    ``*_requirements*.txt|in``, ``constraints*.txt``, or a ``.txt``/``.in`` file in a folder named
    ``requirements``."""
    if lower.startswith("requirements") or lower.endswith(".requirements.txt"):
        return True
    if _AFFIXED_REQUIREMENTS.fullmatch(lower):
        return True
    if lower.startswith("constraints") and lower.endswith(".txt"):
        return True
    folders = path.replace(os.sep, "/").lower().split("/")[:-1]
    return "requirements" in folders


def _is_definition_file(path: str) -> bool:
    """True when the first line that is not blank or a comment of ``path`` is a ``Bootstrap:`` header: an
    Apptainer/Singularity definition file (Apptainer's "Definition Files": the header comes first and
    ``Bootstrap`` is its one required keyword). Other ``*.def`` files (module definitions, linker files)
    are not read."""
    try:
        head = read_head(path, 1024)
    except FileReadError:
        return False
    for line in head.decode("utf-8", "replace").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.lower().startswith("bootstrap:")
    return False


def _sniff(path: str, explicit: bool) -> FileKind | None:
    try:
        head = read_head(path, 512)
    except FileReadError:
        # Unreadable or not a regular file (a FIFO must not hang discovery): an explicit path is still
        # reported (as a read error) rather than skipped silently.
        return FileKind.SHELL if explicit else None
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
    if first.startswith("#!"):
        return FileKind.SHELL if _shebang_program(first) in _SHELL_INTERPRETERS else None
    if explicit:
        for line in head.decode("utf-8", "replace").splitlines():
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                keyword = stripped.split(None, 1)[0]  # upper case by convention; "from x import y" is Python
                return FileKind.DOCKERFILE if keyword in ("FROM", "ARG") else None
    return None


def _shebang_program(line: str) -> str:
    """The program a ``#!`` line runs: ``#!/usr/bin/env -S bash -e`` gives ``bash``."""
    words = line[2:].split()
    if not words:
        return ""
    program = os.path.basename(words[0])
    if program == "env":
        program = next((os.path.basename(w) for w in words[1:] if not w.startswith("-") and "=" not in w), "")
    return program


def _list_folder(folder: str) -> tuple[list[str], list[tuple[str, str]], bool]:
    """The files under ``folder``: git's view in a work tree, else a walk; none below a
    :data:`_SKIPPED_DIRS` folder either way.

    Returns:
        ``(names, unlisted, may_be_gone)``: the files' paths relative to ``folder`` (clean: no ``.``, ``..``
        or empty part); the sub-folders that the walk could not list (no permission), each with the reason,
        so that they are reported rather than left out without a word; and True when some names may be
        gone (git lists deleted files that it tracks: the caller checks the names it keeps, which costs
        a system call for a recipe rather than one for every file of the tree).
    """
    listed = _git_files(folder)
    if listed is not None:
        return listed, [], True
    names: list[str] = []
    unlisted: list[tuple[str, str]] = []

    def unreadable(error: OSError) -> None:
        where = error.filename if isinstance(error.filename, str) else folder
        reason = "permission denied" if isinstance(error, PermissionError) else error.strerror or str(error)
        unlisted.append((where, reason))

    prefix = folder if folder.endswith(os.sep) else folder + os.sep
    for root, dirs, files in os.walk(folder, onerror=unreadable):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        under = "" if root == folder else root[len(prefix) :] + os.sep
        names.extend(under + name for name in files)
    return names, unlisted, False


def _git_files(folder: str) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files under ``folder``, relative to it, but none below a
    :data:`_SKIPPED_DIRS` folder, or None outside a git work tree (see
    :func:`ascend_reflint.worktree.ls_files` for how git is run in a folder not trusted)."""
    output = ls_files(folder, "--cached", "--others", "--exclude-standard")
    if output is None:
        return None
    listing = output.decode("utf-8", "surrogateescape")
    names = listing.split("\0")
    if any(skipped + "/" in listing for skipped in _SKIPPED_DIRS):  # a few searches of the listing, usually
        names = [name for name in names if _SKIPPED_DIRS.isdisjoint(name.split("/")[:-1])]
    if os.sep != "/":  # git writes "/"; the names are joined and compared with the platform's paths
        names = [name.replace("/", os.sep) for name in names]
    # ls-files lists deleted-but-tracked files too: discover leaves out those it would read.
    return [name for name in dict.fromkeys(names) if name]


def _is_file(path: str, stats: dict[str, os.stat_result]) -> bool:
    """True when ``path`` exists (a dangling link counts) and is not a folder (nor a link to one): what
    ``os.path.lexists(path) and not os.path.isdir(path)`` says, with one system call for a plain file, whose
    status goes into ``stats``."""
    try:
        status = os.lstat(path)
    except (OSError, ValueError):
        return False
    if stat.S_ISLNK(status.st_mode):
        return not os.path.isdir(path)
    if stat.S_ISREG(status.st_mode):
        stats[path] = status
        return True
    return not stat.S_ISDIR(status.st_mode)
