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
the values they give enter its pins. Without the extraction cache (``--no-cache``) every file is read.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.inventory import build_inventory, extraction_settings
from ascend_reflint.model import SourceFile

if TYPE_CHECKING:
    from ascend_reflint.check import Policy
    from ascend_reflint.config import Config
    from ascend_reflint.tree_index import FileStat, TreeIndex

log = logging.getLogger("reflint")

#: The rules that compare files with each other, for which a scan of some files reads others.
CROSS_FILE_CODES = frozenset({"RL004", "RL005", "RL006"})


def context_files(
    scanned: Sequence[SourceFile],
    config: Config,
    policy: Policy,
    runs: Callable[[str], bool],
    reading: Reading,
) -> list[SourceFile]:
    """The files of the work tree that the cross-file rules compare ``scanned`` with, read and extracted.

    Args:
        scanned: the files scanned, read and extracted.
        config: the config in force (its root is the work tree's).
        policy: the merged rule packs (families, variants, env pairs).
        runs: whether the rule with a code runs.
        reading: how the scan reads files.

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
        chooser = _Chooser(scanned, policy, runs, config.root, TreeIndex(cache.with_settings(**settings)))
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
    ) -> None:
        self._scanned, self._policy, self._runs, self._root, self._index = scanned, policy, runs, root, index
        self._relpaths: dict[str, str] = {}
        self._stats: dict[str, FileStat | None] = {}
        self._stated_ns = 0

    def choose(self, found: list[SourceFile]) -> list[SourceFile]:
        """The files of ``found`` (discovered, not read) to read."""
        from ascend_reflint.check import TreeView, files_compared_with
        from ascend_reflint.extraction_cache import INVOKED_KINDS
        from ascend_reflint.tree_index import FileStat

        self._relpaths = {source.path: self._relpath(source) for source in (*self._scanned, *found)}
        self._stated_ns = time.time_ns()  # before any stat: see tree_index's "racy" files
        self._stats = {source.path: FileStat.of(source.abspath) for source in found}
        summaries = {
            source.path: self._index.summary(self._relpaths[source.path], self._stats[source.path])
            for source in found
        }
        known = {path: summary.remotes for path, summary in summaries.items() if summary is not None}
        view = TreeView(self._scanned, found, self._relpaths, self._policy, known)
        wanted = files_compared_with(view, self._runs)
        wanted.update(path for path, summary in summaries.items() if summary is None)
        kinds = {source.kind for source in self._scanned}
        kinds.update(source.kind for source in found if source.path in wanted)
        if kinds & INVOKED_KINDS:
            wanted.update(path for path, summary in summaries.items() if summary and summary.invokes)
        chosen = [source for source in found if source.path in wanted]
        log.debug(
            "context: %d of %d other files read (the tree index summarised %d)",
            len(chosen),
            len(found),
            len(known),
        )
        return chosen

    def remember(self, read: Sequence[SourceFile]) -> None:
        """Store the summaries of the files read in the index (and forget the files the tree no longer
        holds), then write it."""
        from ascend_reflint.tree_index import summarize

        summaries = (
            (self._relpaths[source.path], summarize(source, self._stats[source.path], self._stated_ns))
            for source in read
            if source.path in self._stats
        )
        self._index.update((relpath, summary) for relpath, summary in summaries if summary is not None)
        self._index.keep_only(self._relpaths.values())
        self._index.save()

    def _relpath(self, source: SourceFile) -> str:
        from ascend_reflint.discover import under_root

        relative = under_root(source.abspath, self._root)
        return source.path if relative is None else relative
