"""The tree index: what each file of a work tree pins, by the file's stat, so that a scan naming a few files
(pre-commit passes the staged ones) finds the other files that the cross-file rules compare them with
without reading every file of the tree.

One index per project and extraction settings, stored beside the project's extraction cache entries
(``<cache dir>/extract/<project>/tree-index.json``). For each file (by its path relative to the project
root) it holds a :class:`FileSummary`: the file's stat as it was when it was read (size, modification and
change times, inode), the remotes its pins name (by commit id and by name), whether it runs other files with
values (:class:`~ascend_reflint.model.Invocation`), and whether it must be read all the same.

A summary counts only while the file's stat is unchanged, as git trusts its index (git-update-index(1),
"racy git"): a file whose modification time was less than :data:`RACY_SECONDS` before it was stat'ed is
never stored, so that an edit in the same tick of a coarse file-system clock cannot hide behind an
unchanged stat; a file is stat'ed before it is read, so a stored stat is never newer than the content
summarised. Any other file is read, as it would be without an index.

The index is a side file of bounded size, never read through a symbolic link, written atomically; one that
is unreadable, malformed, too large, of another format or of other settings counts as empty (and is
replaced). A scan that reads every file writes it; a scan that reads a few updates their summaries.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ascend_reflint.extraction_cache import ExtractionCache
    from ascend_reflint.model import SourceFile

#: The index format; an index of another format is ignored (and replaced).
FORMAT = 2
#: The index's file name inside the project's extraction cache folder.
NAME = "tree-index.json"
#: The largest index read, in bytes (a summary takes about 150: some 200,000 files).
MAX_BYTES = 32 * 1024 * 1024
#: A file modified less than this before it was stat'ed is not summarised (git's "racy" files; FAT keeps
#: modification times to 2 seconds).
RACY_SECONDS = 2


class FileStat(NamedTuple):
    """The parts of a file's stat that change when its content does (git's index compares the same).

    Attributes:
        size: bytes.
        mtime_ns: modification time, nanoseconds since the epoch.
        ctime_ns: inode change time, nanoseconds since the epoch.
        inode: inode number.
    """

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int

    @classmethod
    def of(cls, path: str) -> FileStat | None:
        """The stat of the file at ``path`` (links followed, as a recipe is read); None when it cannot be
        stat'ed."""
        try:
            status = os.stat(path)
        except (OSError, ValueError):
            return None
        return cls.of_status(status)

    @classmethod
    def of_status(cls, status: os.stat_result) -> FileStat:
        """The parts of ``status`` (what ``os.stat`` gave) that this holds."""
        return cls(status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


class FileSummary(NamedTuple):
    """What the cross-file rules need to know of a file that the scan does not read.

    Attributes:
        stat: the file's stat when it was read.
        remotes: the normalised remotes its pins name, or None when one of them cannot be stored (it holds
            a credential) or they depend on more than the file's content (the origin that a GitLab CI
            include or a relative submodule URL is on, the gitlinks of git's index): then any remote may be
            among them.
        invokes: True when it runs another file with values it gives (``docker build --build-arg``, a
            reusable workflow called ``with:``), or may with the inputs its callers give (a reusable
            workflow).
        must_read: True when the file is read whatever its stat: it could not be read or extracted, or it
            has its tool read files that discovery may not find (pip's ``-r``, GitLab CI's ``include:
            local``), whose pins count for the cross-file rules.
        commits: the remotes that its pins whose ref is known pin by commit id (``remotes`` None: unknown).
        names: the remotes that they pin by name (a tag or branch).
    """

    stat: FileStat
    remotes: frozenset[str] | None
    invokes: bool
    must_read: bool = False
    commits: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()


class TreeIndex:
    """The tree index of one project (see the module docstring).

    Args:
        cache: the project's extraction cache, with the settings of this scan (the index is stored in its
            folder and is valid for its settings and reflint's code only).
    """

    def __init__(self, cache: ExtractionCache) -> None:
        self._cache = cache
        self._path = os.path.join(cache.folder, NAME)
        self._settings = cache.settings_digest()
        self._summaries: dict[str, FileSummary] = {}
        self._changed = False
        self._loaded = False

    def summary(self, relpath: str, stat: FileStat | None) -> FileSummary | None:
        """The summary of the file at ``relpath`` (relative to the project root, ``/``-separated), when the
        index holds one for the file's current ``stat``; None when it must be read."""
        self._load()
        found = self._summaries.get(relpath)
        return found if found is not None and stat is not None and found.stat == stat else None

    def update(self, summaries: Iterable[tuple[str, FileSummary]]) -> None:
        """Store ``(relpath, summary)`` pairs (summaries of racy files are left out: see the module
        docstring)."""
        self._load()
        for relpath, summary in summaries:
            if self._summaries.get(relpath) != summary:
                self._summaries[relpath] = summary
                self._changed = True

    def relpaths(self) -> set[str]:
        """The files that the index summarises (relative to the project root), whatever their stat."""
        self._load()
        return set(self._summaries)

    def keep_only(self, relpaths: Iterable[str]) -> None:
        """Forget the files not in ``relpaths`` (the files of the tree now: deleted files go)."""
        self._load()
        present = set(relpaths)
        gone = [relpath for relpath in self._summaries if relpath not in present]
        for relpath in gone:
            del self._summaries[relpath]
        self._changed = self._changed or bool(gone)

    def save(self) -> None:
        """Write the index when it changed, atomically; a file-system error becomes a notice on the cache
        (never raised)."""
        import json

        from ascend_reflint.extraction_cache import remove_special_file
        from ascend_reflint.output import OutputFileError, write_file

        if not self._changed:
            return
        document = {
            "format": FORMAT,
            "settings": self._settings,
            "files": {relpath: _form(summary) for relpath, summary in sorted(self._summaries.items())},
        }
        try:
            self._cache.make_folder()
            remove_special_file(self._path)
            text = json.dumps(document, separators=(",", ":"))
            write_file(self._path, text, inside=str(self._cache.directory))
        except OSError as error:
            self._cache.notice(f"cannot write the tree index in {self._cache.directory}: {error.strerror}")
        except OutputFileError as error:
            self._cache.notice(f"cannot write the tree index in {self._cache.directory}: {error.reason}")
        self._changed = False

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        import json

        from ascend_reflint.sidefile import read_side_file
        from ascend_reflint.textfile import FileReadError

        try:
            document = json.loads(read_side_file(self._path, MAX_BYTES, follow_links=False))
        except (FileReadError, ValueError, RecursionError):
            return
        if type(document) is not dict or document.get("format") != FORMAT:
            return
        if document.get("settings") != self._settings or type(document.get("files")) is not dict:
            return
        for relpath, form in document["files"].items():
            summary = _summary(form)
            if summary is not None:
                self._summaries[relpath] = summary


def summarize(source: SourceFile, stat: FileStat | None, stated_ns: int) -> FileSummary | None:
    """The summary of ``source`` as the scan read it.

    Args:
        source: the file, read and extracted (its invocations applied).
        stat: its stat, taken before it was read.
        stated_ns: when ``stat`` was taken (:func:`time.time_ns`, before it).

    Returns:
        The summary; None when it must not be stored: its stat is unknown, or it was modified less than
        :data:`RACY_SECONDS` before ``stated_ns``. A file that could not be read or extracted is summarised
        as one that is read again next time (``must_read``).
    """
    from ascend_reflint.check.refnames import pinned_commit
    from ascend_reflint.model import FileKind, Via
    from ascend_reflint.remote import redact

    if stat is None or stat.mtime_ns > stated_ns - RACY_SECONDS * 1_000_000_000:
        return None
    must_read = source.error is not None or bool(source.named_files)
    pinned = frozenset(pin.remote for pin in source.pins if pin.remote is not None)
    remotes: frozenset[str] | None = pinned
    if any(redact(remote) != remote for remote in pinned):
        remotes = None  # the index never stores a secret
    elif any(pin.via is Via.GITLAB_INCLUDE for pin in source.pins):
        remotes = None  # a project of the instance that runs the pipeline: the origin's, which may change
    elif source.kind is FileKind.SUBMODULE:
        remotes = None  # its pins are the gitlinks of git's index, a relative URL is the origin's
    ways = [
        (pin.remote, pinned_commit(pin) is not None)
        for pin in source.pins
        if pin.remote is not None and pin.resolved and pin.ref is not None and remotes is not None
    ]
    commits = frozenset(remote for remote, by_commit in ways if by_commit)
    names = frozenset(remote for remote, by_commit in ways if not by_commit)
    # A reusable workflow runs what its callers' inputs name, which its own invocations may not show.
    reusable = source.kind is FileKind.WORKFLOW and "workflow_call" in (source.text or "workflow_call")
    return FileSummary(stat, remotes, bool(source.invocations) or reusable, must_read, commits, names)


def _form(summary: FileSummary) -> list[object]:
    remotes = None if summary.remotes is None else sorted(summary.remotes)
    flags = [summary.invokes, summary.must_read]
    return [*summary.stat, remotes, *flags, sorted(summary.commits), sorted(summary.names)]


def _summary(form: object) -> FileSummary | None:
    """The summary stored as ``form``; None when it does not have the form :func:`_form` writes."""
    # Each test written out (no generator over the fields): the index of a tree of a thousand recipes is
    # read on every pre-commit run that names a few of them.
    if type(form) is not list or len(form) != 9:
        return None
    size, mtime_ns, ctime_ns, inode, remotes, invokes, must_read, commits, names = form
    if not (type(size) is int and type(mtime_ns) is int and type(ctime_ns) is int and type(inode) is int):
        return None
    if type(invokes) is not bool or type(must_read) is not bool:
        return None
    if not (_is_names(commits) and _is_names(names) and (remotes is None or _is_names(remotes))):
        return None
    return FileSummary(
        FileStat(size, mtime_ns, ctime_ns, inode),
        None if remotes is None else frozenset(remotes),
        invokes,
        must_read,
        frozenset(commits),
        frozenset(names),
    )


def _is_names(form: object) -> bool:
    return type(form) is list and all(type(item) is str for item in form)
