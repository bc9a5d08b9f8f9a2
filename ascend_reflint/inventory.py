"""Read and extract every discovered file: the ``refs`` inventory that ``scan`` checks.

Bad input never stops the scan: a file that cannot be read or extracted gets one entry in ``errors``
naming it and the cause, and every other file is still read.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ascend_reflint.discover import discover, display_path, exclusions, root_exclusions
from ascend_reflint.model import FileKind, FileMessage, Pin, SourceFile
from ascend_reflint.output import debug_logging, log_debug
from ascend_reflint.sidefile import inside_root
from ascend_reflint.textfile import DEFAULT_MAX_BYTES, FileReadError, check_lines, read_recipe_bytes, text_of

if TYPE_CHECKING:
    from ascend_reflint.extraction_cache import ExtractionCache


class Inventory:
    """Every file read and what it pins (a plain class: a dataclass costs half a millisecond to define, on
    every command, and nothing compares or copies an inventory).

    Attributes:
        files: the files discovered, in path order (including those that could not be read).
        errors: files that could not be read or extracted, with the cause.
        notices: caveats (lenient decoding, skipped steps, skipped explicit paths).
        timings: seconds spent per stage (``discover``, ``extract``).
        cache_notices: why the extraction cache could not be written (each distinct one once).
        cache: the extraction cache the files were read with (None: none), for the values that files read
            later give them (:func:`ascend_reflint.invocations.apply_invocations`).
    """

    __slots__ = ("cache", "cache_notices", "errors", "files", "notices", "timings")

    def __init__(
        self,
        files: list[SourceFile] | None = None,
        errors: list[FileMessage] | None = None,
        notices: list[FileMessage] | None = None,
    ) -> None:
        self.files: list[SourceFile] = [] if files is None else files
        self.errors: list[FileMessage] = [] if errors is None else errors
        self.notices: list[FileMessage] = [] if notices is None else notices
        self.timings: dict[str, float] = {}
        self.cache_notices: list[str] = []
        self.cache: ExtractionCache | None = None

    @property
    def pins(self) -> list[Pin]:
        """Every pin of every file, in path then file order."""
        return [pin for source in self.files for pin in source.pins]


def build_inventory(
    paths: Sequence[str],
    excludes: Sequence[str] = (),
    build_args: Mapping[str, str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    read_already: Collection[str] = (),
    root: str | None = None,
    root_excludes: Sequence[str] = (),
    overlay: Mapping[str, bytes] | None = None,
    cache: ExtractionCache | None = None,
    docs: bool = True,
    keep_text: bool = True,
    gitlab_host: str | None = None,
    narrow: Callable[[list[SourceFile], Mapping[str, os.stat_result]], list[SourceFile]] | None = None,
    stage: str = "extract",
) -> Inventory:
    """Discover, read and extract the files under ``paths``, and the files they name (pip's ``-r``/``-c``).

    Args:
        paths: files and folders as given on the command line.
        excludes: gitignore-style globs that leave paths out.
        build_args: ``--build-arg NAME=VALUE`` overrides for Dockerfile ``ARG``.
        max_bytes: the largest file read, in bytes.
        read_already: absolute paths of files that the caller has read and extracted: they are left out
            (not read twice) when discovery finds them or a file names them.
        root: the project root, outside which a file that another file names is not read (default: the
            root of a scan of ``paths``, :func:`ascend_reflint.config.project_root`).
        root_excludes: gitignore-style globs relative to ``root`` (the config's ``exclude``) that leave
            paths out, as ``excludes`` does; ``root`` must be given with them.
        overlay: absolute path → the bytes to read instead of the file's (what ``--diff`` and the rounds of
            ``--fix`` would have written), for files that discovery finds.
        cache: the extraction cache to answer from and fill (None: extract every file).
        docs: read documentation (``--no-docs`` and the config's ``docs: false`` turn it off).
        keep_text: keep every file's text; False keeps only the texts that the checks read after extraction
            (:func:`text_needed`), so that a scan of many files does not hold them all.
        gitlab_host: the GitLab instance that GitLab CI files include projects from (the config's
            ``gitlab-host``; None: the repository's ``origin`` when it is one, see
            :func:`ascend_reflint.extract.gitlab.place_on_instance`).
        narrow: given the files discovered (not yet read, ``read_already`` left out) and the stats that
            discovery took (:attr:`~ascend_reflint.discover.Discovery.stats`), the ones to read
            (:mod:`ascend_reflint.context`); None reads them all.
        stage: the name of the scan's stage that reads them, for the ``--debug`` line that counts how many
            files the extraction cache answered (``extract``; ``context`` for the files read for context).

    Returns:
        The :class:`Inventory`, its files in display path order. Never raises for a file's content.
    """
    started = time.perf_counter()
    found = discover(paths, excludes, root_excludes=root_excludes, root=root, docs=docs)
    files = [source for source in found.files if source.abspath not in read_already]
    unread: list[SourceFile] = []
    if narrow is not None:
        chosen = narrow(files, found.stats)
        read = {source.abspath for source in chosen}
        unread = [source for source in files if source.abspath not in read]
        files = chosen
    inventory = Inventory(files=files, errors=list(found.errors), notices=list(found.notices))
    inventory.timings["discover"] = time.perf_counter() - started
    started = time.perf_counter()
    queue = deque(inventory.files)
    known = {*read_already, *(source.abspath for source in files)}
    named = _NamedFiles(root, paths, excludes, root_excludes, known)
    build_args = build_args or {}
    if cache is not None:
        cache = cache.with_settings(**extraction_settings(build_args, max_bytes, docs))
    how_read = dict.fromkeys(_HOW_READ, 0)
    while queue:
        source = queue.popleft()
        how = _read_and_extract(source, build_args, max_bytes, cache, (overlay or {}).get(source.abspath))
        how_read[how] += 1
        for extra in named.read_by(source):
            inventory.files.append(extra)
            queue.append(extra)
        if not keep_text and not text_needed(source):
            source.text = None
        if source.error is not None:
            error = FileMessage(source.path, source.error, source.error_line, source.error_column)
            inventory.errors.append(error)
        inventory.notices.extend(FileMessage(source.path, notice) for notice in source.notices)
    if any(source.kind is FileKind.GITLAB_CI for source in inventory.files):
        from ascend_reflint.extract.gitlab import place_on_instance

        place_on_instance(inventory.files, gitlab_host)
    if named.found_any:
        inventory.files.sort(key=lambda source: source.path)
        inventory.errors.sort(key=lambda message: message.path)
        inventory.notices.sort(key=lambda message: message.path)
    if any(source.invocations for source in inventory.files):
        from ascend_reflint.invocations import apply_invocations

        apply_invocations(inventory.files, inventory.files, named.root, build_args, cache, unread)
    inventory.timings["extract"] = time.perf_counter() - started
    if cache is not None:
        inventory.cache_notices = cache.notices
        inventory.cache = cache
    if any(how_read.values()):
        _log_how_read(stage, how_read, cache)
    return inventory


#: How :func:`_read_and_extract` read a file: from its extraction cache entry, extracted, or not at all.
_HOW_READ = ("cached", "extracted", "unreadable")


def _log_how_read(stage: str, how_read: Mapping[str, int], cache: ExtractionCache | None) -> None:
    """The ``--debug`` line of a stage that read files: how many the extraction cache answered (as ruff's
    ``--verbose`` counts its cache hits), how many were extracted, and where the cache is."""
    if not debug_logging():
        return
    total = sum(how_read.values())
    unreadable = f", {how_read['unreadable']} unreadable" if how_read["unreadable"] else ""
    counts = f"{stage}: {total} file{'s' * (total != 1)} read: "
    if cache is None:
        log_debug(
            "%s%d extracted%s (no extraction cache: --no-cache)", counts, how_read["extracted"], unreadable
        )
        return
    log_debug(
        "%s%d from the extraction cache (%s), %d extracted%s",
        counts,
        how_read["cached"],
        cache.folder,
        how_read["extracted"],
        unreadable,
    )


#: How a file names the files of each kind that it has its tool read, for notices.
_NAMED_BY = {FileKind.REQUIREMENTS: "named by -r/-c", FileKind.GITLAB_CI: "named by include: local"}


def extraction_settings(build_args: Mapping[str, str] | None, max_bytes: int, docs: bool) -> dict[str, Any]:
    """The parameters of :func:`build_inventory` that change what extraction gives, as the extraction cache
    keys them (:meth:`~ascend_reflint.extraction_cache.ExtractionCache.with_settings`): every such
    parameter belongs here, since it is in each key."""
    return {"build_args": dict(build_args or {}), "max_bytes": max_bytes, "docs": docs}


def text_needed(source: SourceFile) -> bool:
    """True when the checks read ``source``'s text after extraction: a workflow (RL006 reads its jobs), a
    file with a ``reflint:`` comment (suppressions). Other files' texts can go once they are extracted
    (RL004 reads the first line of a variant that lacks a pin from the file itself)."""
    return source.text is not None and (source.kind is FileKind.WORKFLOW or "reflint:" in source.text)


class _NamedFiles:
    """The files that read files name (pip's ``-r``/``-c``), each read once, only inside the project root
    (symbolic links followed: :func:`ascend_reflint.sidefile.inside_root`), and never one that ``--exclude``
    leaves out."""

    def __init__(
        self,
        root: str | None,
        paths: Sequence[str],
        excludes: Sequence[str],
        root_excludes: Sequence[str],
        known: set[str],
    ) -> None:
        self._root = root
        self._paths = paths
        self._excluded = exclusions(excludes)
        self._root_excluded = root_exclusions(root_excludes, root)
        self._known = known
        self.found_any = False

    def read_by(self, source: SourceFile) -> list[SourceFile]:
        """New files for the inventory that ``source`` names; a name that cannot be read is a notice on
        ``source`` (naming what was written, never what is outside the root)."""
        found: list[SourceFile] = []
        for name, kind in source.named_files:
            path = os.path.normpath(os.path.join(os.path.dirname(source.abspath), name))
            if path in self._known:
                continue
            shown = display_path(path, os.getcwd())
            if self._excluded(shown) or self._root_excluded(path):
                continue
            how = _NAMED_BY.get(kind, "named")
            if inside_root(self.root, path) is None:
                source.notices.append(f"{name!r} ({how}) is outside the project root: not read")
                continue
            if not os.path.lexists(path):
                source.notices.append(f"{name!r} ({how}) does not exist")
                continue
            self._known.add(path)
            found.append(SourceFile(path=shown, abspath=path, kind=kind))
        self.found_any = self.found_any or bool(found)
        return found

    @property
    def root(self) -> str:
        if self._root is None:
            from ascend_reflint.config import project_root

            self._root = project_root(self._paths)
        return self._root


def _read_and_extract(
    source: SourceFile,
    build_args: Mapping[str, str],
    max_bytes: int,
    cache: ExtractionCache | None,
    overlay: bytes | None = None,
) -> str:
    """Read ``source`` (or take ``overlay``, the bytes a fix would write, in place of the file's) and fill it
    from its cache entry, else extract it (and cache what was found, unless extraction failed on a bug of
    ours or on resources, which another run may not meet). A recipe of more than
    :data:`~ascend_reflint.textfile.MAX_LINES` lines is an error, as one that cannot be read. Returns how:
    one of :data:`_HOW_READ`."""
    try:
        data = read_recipe_bytes(source.abspath, max_bytes) if overlay is None else overlay
        source.text, notice = text_of(data)
        if source.kind is not FileKind.DOCS:
            check_lines(source.text)
    except FileReadError as exc:
        source.text = None
        source.error = str(exc)
        return "unreadable"
    if notice:
        source.notices.append(notice)
    entry = cache.entry(source, data) if cache is not None else None
    if entry is not None and entry.load(source):
        return "cached"
    if _extract(source, build_args) and entry is not None:
        entry.store(source)
    return "extracted"


def _failed(source: SourceFile, message: str, line: int | None = None, column: int | None = None) -> None:
    """Record that ``source`` could not be extracted, why and where, and drop what was extracted before:
    a file that could not be read is not checked, as a linter reports only the syntax error of a file that
    has one (shellcheck, hadolint), and the summary counts no pin of it."""
    source.error, source.error_line, source.error_column = message, line, column
    source.pins, source.env, source.issues, source.invocations, source.named_files = [], [], [], [], []


def _extract(source: SourceFile, build_args: Mapping[str, str]) -> bool:
    """Extract ``source``; False when extraction failed on a bug of ours or ran out of stack, memory or
    time (the file's error or notice says so)."""
    from ascend_reflint.extract import ExtractError, extract_file
    from ascend_reflint.extract.budget import ran_out

    try:
        extract_file(source, build_args)
    except ExtractError as exc:
        _failed(source, exc.message, exc.line, exc.column)
        return not ran_out()
    except (RecursionError, MemoryError) as exc:
        _failed(source, f"too deeply nested or too large to extract ({type(exc).__name__})")
        return False
    except Exception as exc:  # a bug of ours must not lose the other files' findings
        log_debug("extracting %s failed", source.path, exc_info=True)
        _failed(source, f"internal error while extracting ({type(exc).__name__}: {exc}); run with --debug")
        return False
    return not ran_out()
