"""The context stage: the files a scan reads besides the files it was given, for the cross-file rules.

When explicit paths are given (pre-commit passes the staged files) and a cross-file rule runs
(:data:`CROSS_FILE_CODES`), those rules compare the files given with other files of the work tree, which
are read too; findings are reported on the files given only. Of the rest of the tree, only the files that
the rules which run compare the given ones with are read (each rule's ``compared_with``): their variants
(RL004), the files of their drift family that pin one of their remotes when that family's pins of it span
more than one kind of file (RL005), the Dockerfiles paired with a given workflow (RL006). Which file pins
which remote comes from the tree index (:mod:`ascend_reflint.tree_index`); a file that it does not
summarise at the file's current stat (new, edited, or never read) is read. The files that run others with
values (:class:`~ascend_reflint.model.Invocation`) are read whenever a Dockerfile or a workflow is, since
the values they give enter its pins; and since those values can change a Dockerfile's or a workflow's
remotes without changing its stat, the index's remotes of those two kinds are not trusted in a scan that
reads a file the index does not summarise (it may run them with other values) or misses one that it does
(another file may now be the one run). When only the drift rules run, a remote of the files given is looked
up when the tree pins it both by commit id and by name (:func:`~ascend_reflint.check.drift_lookups`): a
file that pins it the other way is read. Without the extraction cache (``--no-cache``) every file is read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.inventory import build_inventory, extraction_settings
from ascend_reflint.model import SourceFile, Span
from ascend_reflint.output import log_debug

if TYPE_CHECKING:
    from ascend_reflint.check import Policy
    from ascend_reflint.config import Config
    from ascend_reflint.tree_index import FileStat, FileSummary, TreeIndex


#: The rules that compare files with each other, for which a scan of some files reads others.
CROSS_FILE_CODES = frozenset({"RL004", "RL005", "RL006"})


def context_files(
    scanned: Sequence[SourceFile],
    config: Config,
    policy: Policy,
    runs: Callable[[str], bool],
    reading: Reading,
    drift_lookups: bool = False,
) -> list[SourceFile]:
    """The files of the work tree that the cross-file rules compare ``scanned`` with, read and extracted.

    Args:
        scanned: the files scanned, read and extracted.
        config: the config in force (its root is the work tree's).
        policy: the merged rule packs (families, variants, env pairs).
        runs: whether the rule with a code runs.
        reading: how the scan reads files.
        drift_lookups: True when the remotes to look up are the drift rules' only
            (:func:`~ascend_reflint.check.drift_lookups`), which depend on how the whole tree pins them.

    Returns:
        The files, in path order; none when no path was given explicitly (the scan reads the whole tree
        already) or no cross-file rule runs. Never raises for a file's content (as
        :func:`~ascend_reflint.inventory.build_inventory`).
    """
    if not any(source.explicit for source in scanned) or not any(runs(code) for code in CROSS_FILE_CODES):
        return []
    from ascend_reflint.discover import display_path
    from ascend_reflint.extraction_cache import for_project

    cache = for_project(reading.cache_dir, config) if reading.cache else None
    chooser = None
    if cache is not None:
        from ascend_reflint.tree_index import TreeIndex

        settings = extraction_settings(reading.build_args, reading.max_bytes, reading.docs)
        index = TreeIndex(cache.with_settings(**settings))
        chooser = _Chooser(scanned, policy, runs, config.root, index, drift_lookups)
    tree = build_inventory(
        [display_path(config.root, os.getcwd())],
        excludes=reading.excludes,
        root=config.root,
        root_excludes=config.exclude,
        build_args=reading.build_args,
        max_bytes=reading.max_bytes,
        read_already={source.abspath for source in scanned},
        docs=reading.docs,
        cache=cache,
        keep_text=False,
        gitlab_host=config.gitlab_host,
        narrow=chooser.choose if chooser is not None else None,
        stage="context",
    )
    if chooser is not None:
        chooser.remember(tree.files)
    return tree.files


class Reading(NamedTuple):
    """How a scan reads files (its options of the same names).

    Attributes:
        excludes: ``--exclude`` globs.
        build_args: ``--build-arg`` values, or None.
        max_bytes: the largest file read, in bytes.
        docs: False for ``--no-docs``.
        cache: False for ``--no-cache``: every file is read and extracted, and the tree index is not used.
        cache_dir: ``--cache-dir``, or None for the user cache dir.
    """

    excludes: Sequence[str]
    build_args: Mapping[str, str] | None
    max_bytes: int
    docs: bool
    cache: bool
    cache_dir: str | None


class _Chooser:
    """Picks the files of the tree to read (:meth:`choose`), then records what they pin in the tree index
    (:meth:`remember`)."""

    def __init__(
        self,
        scanned: Sequence[SourceFile],
        policy: Policy,
        runs: Callable[[str], bool],
        root: str,
        index: TreeIndex,
        drift_lookups: bool,
    ) -> None:
        self._scanned, self._policy, self._runs, self._root, self._index = scanned, policy, runs, root, index
        self._drift_lookups = drift_lookups
        self._relpaths: dict[str, str] = {}
        self._stats: dict[str, FileStat | None] = {}
        # Before any stat, discovery's included (see tree_index's "racy" files): the chooser is made before
        # the tree is discovered.
        self._stated_ns = time.time_ns()

    def choose(self, found: list[SourceFile], stats: Mapping[str, os.stat_result]) -> list[SourceFile]:
        """The files of ``found`` (discovered, not read) to read; ``stats`` are those that discovery took
        (absolute path → ``os.stat`` result), the others are taken here."""
        from ascend_reflint.check import TreeView, files_compared_with
        from ascend_reflint.extraction_cache import INVOKED_KINDS
        from ascend_reflint.tree_index import FileStat

        self._relpaths = {source.path: self._relpath(source) for source in (*self._scanned, *found)}
        self._stats = {
            source.path: FileStat.of_status(status)
            if (status := stats.get(source.abspath)) is not None
            else FileStat.of(source.abspath)
            for source in found
        }
        summaries = {
            source.path: self._index.summary(self._relpaths[source.path], self._stats[source.path])
            for source in found
        }
        stale = [path for path, summary in summaries.items() if summary is None]
        # A file not summarised may run a Dockerfile or workflow with other values than the index saw, a
        # file gone may have been the one run in another's place: their remotes are then unknown. One that
        # cannot be stat'ed (a dangling link) cannot be read either: it runs nothing.
        changed = any(self._stats[path] is not None for path in stale)
        rerun = changed or bool(self._index.relpaths() - set(self._relpaths.values()))
        unknown = {source.path for source in found if rerun and source.kind in INVOKED_KINDS}
        known = {
            path: None if path in unknown else summary.remotes
            for path, summary in summaries.items()
            if summary is not None
        }
        open_scanned = _written_with_values(self._scanned)
        view = TreeView(self._scanned, found, self._relpaths, self._policy, known, open_scanned)
        wanted = files_compared_with(view, self._runs)
        wanted.update(stale)
        wanted.update(path for path, summary in summaries.items() if summary and summary.must_read)
        if self._drift_lookups:
            wanted.update(self._pinned_the_other_way(summaries, unknown))
        kinds = {source.kind for source in self._scanned}
        kinds.update(source.kind for source in found if source.path in wanted)
        if kinds & INVOKED_KINDS:
            wanted.update(path for path, summary in summaries.items() if summary and summary.invokes)
        chosen = [source for source in found if source.path in wanted]
        log_debug(
            "context: %d of %d other files read (the tree index summarised %d)",
            len(chosen),
            len(found),
            len(known),
        )
        return chosen

    def _pinned_the_other_way(
        self, summaries: Mapping[str, FileSummary | None], unknown: set[str]
    ) -> list[str]:
        """For each remote that the files scanned pin by commit id only, or by name only, a file that the
        index says pins it the other way; else every file whose pins the index does not know (a drift
        lookup of the remote depends on whether the tree pins it both ways). A pin whose ref is not known
        yet (the files read give it) may be either; the pins that values give a file keep its own."""
        from ascend_reflint.check.refnames import pinned_commit

        ways: dict[str, set[bool]] = {}  # remote → how the files scanned pin it: True by commit id
        for source in self._scanned:
            for pin in source.pins:
                if pin.remote is not None:
                    known = pin.resolved and pin.ref is not None
                    ways.setdefault(pin.remote, set()).update(
                        [pinned_commit(pin) is not None] if known else []
                    )
        open_files = [
            path
            for path, summary in summaries.items()
            if summary is not None and (summary.remotes is None or path in unknown)
        ]
        chosen: list[str] = []
        for remote, pinned in ways.items():
            for by_commit in {True, False} - pinned:
                other_way = next(
                    (
                        path
                        for path, summary in summaries.items()
                        if summary is not None
                        and path not in unknown
                        and remote in (summary.commits if by_commit else summary.names)
                    ),
                    None,
                )
                chosen.extend([other_way] if other_way is not None else open_files)
        return chosen

    def remember(self, read: Sequence[SourceFile]) -> None:
        """Store the summaries of the files read in the index (and forget the files the tree no longer
        holds), then write it. A Dockerfile's or workflow's is not stored when a file scanned runs others
        with values: those values are not given to the files read for context, so what they pin may differ
        in a scan that does not name that file."""
        from ascend_reflint.extraction_cache import INVOKED_KINDS
        from ascend_reflint.tree_index import summarize

        named_invokes = any(source.invocations for source in self._scanned)
        summaries = (
            (self._relpaths[source.path], summarize(source, self._stats[source.path], self._stated_ns))
            for source in read
            if source.path in self._stats and not (named_invokes and source.kind in INVOKED_KINDS)
        )
        self._index.update((relpath, summary) for relpath, summary in summaries if summary is not None)
        self._index.keep_only(self._relpaths.values())
        self._index.save()

    def _relpath(self, source: SourceFile) -> str:
        from ascend_reflint.discover import under_root

        relative = under_root(source.abspath, self._root)
        return source.path if relative is None else relative


def _written_with_values(scanned: Sequence[SourceFile]) -> frozenset[str]:
    """The display paths of the files of ``scanned`` that other files run with values (Dockerfiles,
    workflows) of which a pin writes its URL with a variable or expression (a ``$`` where the URL is
    written): the values that the files read for context give may make it another remote. A file whose
    text cannot be read again counts."""
    from ascend_reflint.extraction_cache import INVOKED_KINDS

    written: set[str] = set()
    for source in scanned:
        if source.kind in INVOKED_KINDS and source.pins:
            lines = _lines(source)
            if lines is None or any(_with_variable(lines, pin.url_span) for pin in source.pins):
                written.add(source.path)
    return frozenset(written)


def _lines(source: SourceFile) -> list[str] | None:
    """The lines of ``source``'s text (read again when the scan let it go); None when it cannot be read."""
    from ascend_reflint.textfile import DEFAULT_MAX_BYTES, FileReadError, read_recipe_bytes, text_of

    if source.text is not None:
        return source.text.split("\n")
    try:
        return text_of(read_recipe_bytes(source.abspath, DEFAULT_MAX_BYTES))[0].split("\n")
    except FileReadError:
        return None


def _with_variable(lines: Sequence[str], span: Span | None) -> bool:
    """True when the text at ``span`` (1-based lines and columns) holds a ``$``, or cannot be told."""
    if span is None or not 1 <= span.line <= span.end_line <= len(lines):
        return True
    written = list(lines[span.line - 1 : span.end_line])
    written[-1] = written[-1][: span.end_column - 1]
    written[0] = written[0][span.column - 1 :]
    return any("$" in line for line in written)
