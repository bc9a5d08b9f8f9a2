"""``reflint scan``: wire the stages after extraction — context, lookup, check, selection, suppression,
baseline — into one result.

The CLI stays thin: it loads the config, builds the inventory, calls :func:`run_scan` and hands the result
to a formatter.

What a scan reports, in order:

1. the rules' findings on the files scanned (:func:`ascend_reflint.check.run_checks`); the cross-file rules
   also see the rest of the work tree when explicit file paths were given (pre-commit passes the staged
   files only), read without lookups;
2. less the codes that ``--select``/``--ignore`` and the config's ``select``, ``ignore`` and
   ``per-file-ignores`` turn off, and less a finding that a more specific one on the same token stands for
   (:mod:`ascend_reflint.check.overlaps`);
3. less those that a ``# reflint: ignore`` comment covers, plus, with ``--report-unused-ignores``, an RL099
   finding for each comment or code that covered nothing;
4. less those that ``--baseline FILE`` records (``--write-baseline FILE`` records them all first).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.config import Config
from ascend_reflint.inventory import Inventory
from ascend_reflint.model import FileKind, FileMessage, Finding, ScanResult, ScanSummary, Severity, SourceFile
from ascend_reflint.output import debug_logging, log_debug

if TYPE_CHECKING:
    from pathlib import Path

    from ascend_reflint.check.policy import Policy
    from ascend_reflint.context import Reading
    from ascend_reflint.lookup import LookupOptions, LookupStats
    from ascend_reflint.lookup.history import CommitRequest, HistoryOptions, HistoryStats
    from ascend_reflint.model import CommitVerdict, LookupResult
    from ascend_reflint.projects import Projects

#: The rules that report what commit verification found; commits are verified only when one runs.
COMMIT_CODES = frozenset({"RL001", "RL008", "RL025", "RL026"})


class Answers(NamedTuple):
    """What a scan's lookups and commit verification answered, for a rescan of the same tree to reuse (the
    rounds of ``--fix``): only what they lack is asked.

    Attributes:
        lookups: lookup key → its ref list or the lookup's failure.
        commits: (lookup key, commit id) → verdict.
    """

    lookups: Mapping[str, LookupResult] = MappingProxyType({})
    commits: Mapping[tuple[str, str], CommitVerdict] = MappingProxyType({})


class ScanOptions(NamedTuple):
    """How to look up remotes and which rules to run (see ``reflint scan --help``).

    Attributes:
        offline: answer from the cache only.
        refresh: ignore cached answers.
        cache_dir: where ref lists are cached (None: the user cache dir).
        cache_ttl: how long a cached answer stays fresh, in seconds.
        timeout: time limit of one remote's lookup, in seconds.
        jobs: remotes looked up at once (None: all at once, up to
            :data:`~ascend_reflint.lookup.MAX_JOBS`).
        deadline: time limit of all lookups together, in seconds.
        max_refs: refs one lookup may read.
        max_ref_bytes: bytes one lookup may read.
        lookup_memory: bytes all lookups together may hold.
        credentials_for: hosts whose https and ssh URLs are looked up with the user's git credentials.
        select: only these rule codes (None: the config's ``select``, else all); replaces the config's.
        extend_select: these rule codes too, on top of ``select`` (or the config's).
        ignore: skip these rule codes, besides the config's ``ignore``.
        fixable: only these rule codes' findings keep their fixes (None: the config's ``fixable``, else
            all); replaces the config's.
        unfixable: these rule codes' findings lose their fixes, besides the config's ``unfixable``.
        rule_packs: extra rule pack files, merged after the config.
        progress: show a progress bar on stderr.
        config: the user's config (default: none, the current directory as the root).
        report_unused_ignores: report suppression comments that suppress nothing (RL099).
        baseline: a baseline file whose findings are not reported.
        write_baseline: a file to record every finding in (then none is reported).
        partial: the scan covers part of the project (explicit files, a sub-folder): the baseline's entries
            of the files not scanned are kept as they are (not stale, not rewritten).
        excludes: ``--exclude`` globs, for the work tree read as context.
        build_args: ``--build-arg`` values, for the work tree read as context.
        max_bytes: the largest file read, for the work tree read as context (None: the default).
        verify_commits: verify pinned commit ids against their remotes' histories (and the config's
            ``verify-commits`` allows it).
        docs: read documentation (``--no-docs``, the config's ``docs``), for the work tree read as context.
        max_history_bytes: the largest a remote's cached history may be on disk, in bytes.
        extraction_cache: read and fill the extraction cache and the read shipped rule packs (in
            ``cache_dir``; ``--no-cache``: False).
        answers: what an earlier scan of the same tree answered (reused, not asked again), or None.
    """

    offline: bool = False
    refresh: bool = False
    cache_dir: str | None = None
    cache_ttl: float = 3600.0
    timeout: float = 20.0
    jobs: int | None = None
    deadline: float = 120.0
    max_refs: int = 250_000
    max_ref_bytes: int = 32 * 1024 * 1024
    lookup_memory: int = 512 * 1024 * 1024
    credentials_for: frozenset[str] = frozenset()
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fixable: tuple[str, ...] | None = None
    unfixable: tuple[str, ...] = ()
    rule_packs: tuple[str, ...] = ()
    progress: bool = False
    config: Config | None = None
    report_unused_ignores: bool = False
    baseline: str | None = None
    write_baseline: str | None = None
    partial: bool = False
    excludes: tuple[str, ...] = ()
    build_args: Mapping[str, str] = MappingProxyType({})
    max_bytes: int | None = None
    verify_commits: bool = True
    max_history_bytes: int = 256 * 1024 * 1024
    docs: bool = True
    extraction_cache: bool = True
    answers: Answers | None = None


class ScanRun:
    """What :func:`run_scan` gives the CLI (a plain class: every scan defines it, and nothing compares or
    copies one).

    Attributes:
        result: the findings, file errors and notices, and the summary.
        timings: seconds per stage (``discover``, ``extract``, ``context``, ``lookup``, ``history``,
            ``check``).
        baseline_matched: findings that the baseline dropped (None without ``--baseline``).
        baseline_stale: baseline entries that matched no finding (None without ``--baseline``).
        baseline_written: findings recorded by ``--write-baseline`` (None without it).
        side_notices: notices about the scan rather than a file read (the cache's, the config's), which
            are also in ``result.notices``.
        answers: what the lookups and commit verification answered (for a rescan to reuse).
        cache_in_tree: the cache directory, when answers came from it and it lies inside the project root
            (a cache committed there can vouch for refs that do not exist), else None.
    """

    __slots__ = (
        "answers",
        "baseline_matched",
        "baseline_stale",
        "baseline_written",
        "cache_in_tree",
        "result",
        "side_notices",
        "timings",
    )

    def __init__(
        self,
        result: ScanResult,
        timings: dict[str, float],
        side_notices: list[FileMessage] | None = None,
        answers: Answers | None = None,
    ) -> None:
        self.result = result
        self.timings = timings
        self.side_notices: list[FileMessage] = side_notices if side_notices is not None else []
        self.answers = answers if answers is not None else Answers()
        self.baseline_matched: int | None = None
        self.baseline_stale: int | None = None
        self.baseline_written: int | None = None
        self.cache_in_tree: str | None = None


class RuleSelection(NamedTuple):
    """Which codes a scan reports on which file.

    Attributes:
        select: only these codes (None: all).
        ignore: never these codes.
        config: the config, for ``per-file-ignores`` (globs relative to its root).
        fixable: the codes whose findings keep their fixes (None: all).
        unfixable: the codes whose findings lose their fixes.
    """

    select: frozenset[str] | None
    ignore: frozenset[str]
    config: Config
    fixable: frozenset[str] | None = None
    unfixable: frozenset[str] = frozenset()

    @classmethod
    def of(cls, options: ScanOptions, config: Config) -> RuleSelection:
        """The selection that ``options`` and ``config`` make: ``--select`` replaces the config's
        ``select`` (its ``extend-select`` still adds), ``--extend-select`` adds, ``--ignore`` adds to its
        ``ignore``."""
        select = options.select if options.select is not None else config.select
        if select is not None:
            select = (*select, *config.extend_select, *options.extend_select)
        fixable = options.fixable if options.fixable is not None else config.fixable
        return cls(
            select=frozenset(select) if select is not None else None,
            ignore=frozenset((*config.ignore, *options.ignore)),
            config=config,
            fixable=frozenset(fixable) if fixable is not None else None,
            unfixable=frozenset((*config.unfixable, *options.unfixable)),
        )

    def fixes(self, code: str) -> bool:
        """True when findings of ``code`` keep their fixes (``fixable``, ``unfixable``: ruff's meaning)."""
        return (self.fixable is None or code in self.fixable) and code not in self.unfixable

    def runs(self, code: str) -> bool:
        """True when ``code`` is reported on some file (per-file ignores aside)."""
        return (self.select is None or code in self.select) and code not in self.ignore

    def reports(self, code: str, abspath: str) -> bool:
        """True when ``code`` is reported on the file at ``abspath``."""
        if not self.runs(code):
            return False
        return not self.config.has_per_file_ignores or code not in self.config.ignored_for(
            self.config.relpath(abspath)
        )


def run_scan(inventory: Inventory, options: ScanOptions) -> ScanRun:
    """Look up the inventory's remotes, run the rules, and apply selection, suppressions and baseline.

    Args:
        inventory: the files scanned and their pins.
        options: lookup, rule and reporting options.

    Returns:
        The :class:`ScanRun`.

    Raises:
        PolicyError: a rule pack (default, ``rule-packs`` or ``--rule-pack``) cannot be read or is not valid.
        BaselineError: the baseline cannot be read or written.
    """
    config = options.config or Config(root=os.getcwd())
    selection = RuleSelection.of(options, config)
    timings = dict(inventory.timings)
    if not inventory.files and not options.rule_packs and not config.rule_pack_paths():
        # Nothing to check: no rule and no lookup runs, and none of their modules is loaded.
        return _unchecked_run(inventory, options, config, timings)
    from pathlib import Path

    from ascend_reflint.check import all_rules, drift_lookups, remotes_to_look_up
    from ascend_reflint.context import context_files as read_context
    from ascend_reflint.lookup import answered

    cache_dir = _cache_dir(options) if options.extraction_cache else None
    policy = build_policy(config, [Path(p) for p in options.rule_packs], cache_dir)

    # Rules that need no ref list (`--select RL015`) say the same without one: no remote is asked, but for
    # the drift rules the tags of a remote pinned both by commit and by name (is the tag that commit?).
    needs_lookups = any(selection.runs(rule.code) for rule in all_rules() if rule.needs_lookup)
    drift_only = not needs_lookups and (selection.runs("RL004") or selection.runs("RL005"))
    started = time.perf_counter()
    context_files = read_context(
        inventory.files, config, policy, selection.runs, _reading(options), drift_lookups=drift_only
    )
    if any(source.invocations for source in context_files):  # a workflow not given builds a Dockerfile given
        from ascend_reflint.invocations import apply_invocations

        apply_invocations(inventory.files, context_files, config.root, options.build_args, inventory.cache)
    timings["context"] = time.perf_counter() - started

    if needs_lookups:
        requests = remotes_to_look_up(inventory.files)
    elif drift_only:
        requests = drift_lookups([*inventory.files, *context_files], inventory.files)
    else:
        requests = {}
    started = time.perf_counter()
    known = options.answers.lookups if options.answers is not None else {}
    asked = {key: url for key, url in requests.items() if key not in known}
    lookups, stats = _lookup_with_progress(asked, _lookup_options(options), options.progress)
    lookups.update((key, known[key]) for key in requests.keys() - asked.keys())
    if selection.runs("RL001"):
        lookups.update(_default_branches(inventory.files, requests, lookups, options, stats))
    timings["lookup"] = time.perf_counter() - started
    _log_lookups(len(requests), len(requests) - len(asked), stats, options)

    projects = _projects(config, policy, [*inventory.files, *context_files], options, cache_dir)
    checks = _Checks(inventory, context_files, requests, options, selection, projects, timings)
    findings, history_notices = checks.run(lookups)
    drifting = _drifting_remotes(findings, [*inventory.files, *context_files], requests) if drift_only else {}
    if drifting:
        # Only the drift rules run, and they found pins of a remote that disagree: its ref list says which
        # is a branch, which never wins their vote (ascend_reflint.check.vote). Asked once they disagree,
        # so that a scan naming a few files asks what the scan of the whole tree asks.
        started = time.perf_counter()
        asked = {key: url for key, url in drifting.items() if key not in known}
        more, again = _lookup_with_progress(asked, _lookup_options(options), options.progress)
        more.update((key, known[key]) for key in drifting.keys() - asked.keys())
        timings["lookup"] += time.perf_counter() - started
        lookups.update(more)
        requests = checks.requests = {**requests, **drifting}
        stats.lookups += again.lookups
        stats.cached += again.cached
        stats.cached_failures += again.cached_failures
        stats.notices += [notice for notice in again.notices if notice not in stats.notices]
        findings, history_notices = checks.run(lookups)
    stale = {} if options.offline else _stale_answers(findings, requests, lookups, time.time())
    if stale:
        # No finding from a stale answer: the ref lists that would yield "not found" (or "ambiguous") are
        # asked for again, and the checks run again on what the remotes hold now.
        started = time.perf_counter()
        lookup_options = dataclasses.replace(_lookup_options(options), refresh=True)
        fresh, again = _lookup_with_progress(stale, lookup_options, options.progress)
        timings["lookup"] += time.perf_counter() - started
        lookups.update(fresh)
        if selection.runs("RL001"):
            lookups.update(_default_branches(inventory.files, stale, lookups, options, again))
        stats.lookups += again.lookups
        stats.cached -= len(stale)
        log_debug(
            "%s",
            f"lookup: {_counted(len(stale), 'cached ref list')} over {int(STALE_AFTER)} s old that gave "
            f"{'/'.join(sorted(STALE_CODES))} asked again",
        )
        stats.notices += [notice for notice in again.notices if notice not in stats.notices]
        findings, history_notices = checks.run(lookups)

    cache_notices = (*inventory.cache_notices, *stats.notices, *history_notices)
    side_notices = [FileMessage("", notice) for notice in cache_notices]
    side_notices += _config_notices(inventory, config)
    notices = [*inventory.notices, *side_notices]
    summary = ScanSummary(
        files=sum(1 for source in inventory.files if source.error is None),
        pins=len(inventory.pins),
        remotes=len(requests),
        lookups=stats.lookups,
        cached=stats.cached,
        cached_failures=stats.cached_failures,
        checked=sum(1 for result in lookups.values() if answered(result)),
        unchecked_pins=_unchecked_pins(inventory.files, lookups),
        lookup_rules=needs_lookups,
    )
    result = ScanResult([], list(inventory.errors), notices, summary)
    run = ScanRun(result, timings, side_notices, Answers(lookups, checks.commits))
    if stats.cached or stats.cached_failures:
        run.cache_in_tree = _cache_in_tree(options, config)
    run.result.findings = _after_baseline(findings, options, run, inventory)
    return run


#: The drift rules, whose vote needs to know which refs are branches.
_DRIFT_CODES = frozenset({"RL004", "RL005"})


def _drifting_remotes(
    findings: Sequence[Finding], files: Sequence[SourceFile], requests: Mapping[str, str]
) -> dict[str, str]:
    """Lookup key → URL (as :func:`~ascend_reflint.check.remotes_to_look_up` gives them) of each remote that
    an RL004 or RL005 finding is about and that was not asked for: one pin's URL per remote."""
    from ascend_reflint.check.engine import pin_lookup_key

    remotes = {
        finding.remote for finding in findings if finding.code in ("RL004", "RL005") and finding.remote
    }
    wanted: dict[str, str] = {}
    for source in files:
        for pin in source.pins:
            if pin.remote in remotes and (key := pin_lookup_key(pin)) is not None:
                remotes.discard(pin.remote)
                if key not in requests:
                    wanted[key] = pin.url
    return wanted


#: The findings that a stale cached ref list must not give: "not found" and "ambiguous".
STALE_CODES = frozenset({"RL001", "RL013", "RL014"})
#: How old a cached ref list may be, in seconds, and still give one of :data:`STALE_CODES`.
STALE_AFTER = 300.0


def _stale_answers(
    findings: Sequence[Finding], requests: Mapping[str, str], lookups: Mapping[str, LookupResult], now: float
) -> dict[str, str]:
    """The lookups (key → URL, as ``requests`` has them) whose cached ref list is older than
    :data:`STALE_AFTER` and gives one of :data:`STALE_CODES` to some pin: a tag released since the list was
    cached must not be "not found"."""
    from ascend_reflint.model import RemoteRefs

    remotes = {finding.remote for finding in findings if finding.code in STALE_CODES}
    return {
        key: requests[key]
        for key, result in lookups.items()
        if isinstance(result, RemoteRefs)
        and result.remote in remotes
        and now - result.fetched_at > STALE_AFTER
    }


class _Checks:
    """Commit verification and the rules, which a scan runs once, and again when stale answers were asked
    for again (:func:`_stale_answers`); each run adds its time to the ``history`` and ``check`` stages."""

    def __init__(
        self,
        inventory: Inventory,
        context_files: list[SourceFile],
        requests: Mapping[str, str],
        options: ScanOptions,
        selection: RuleSelection,
        projects: Projects,
        timings: dict[str, float],
    ) -> None:
        self.inventory, self.context_files, self.requests = inventory, context_files, requests
        self.options, self.selection, self.projects = options, selection, projects
        self.policy, self.root = projects.policy, projects.root
        self.timings = timings
        #: What commit verification found in the last run (for a rescan to reuse).
        self.commits: Mapping[tuple[str, str], CommitVerdict] = {}

    def run(self, lookups: Mapping[str, LookupResult]) -> tuple[list[Finding], list[str]]:
        """The findings to report (before the baseline), and commit verification's notices."""
        from ascend_reflint.check import run_checks

        files, timings = self.inventory.files, self.timings
        started = time.perf_counter()
        time_left = self.options.deadline - timings["lookup"] - timings.get("history", 0.0)
        commits, notices = _verify_commits(
            files, self.requests, lookups, self.options, self.selection, time_left
        )
        timings["history"] = timings.get("history", 0.0) + time.perf_counter() - started
        started = time.perf_counter()
        self.commits = commits
        findings = run_checks(
            files, lookups, self.policy, self.context_files, self.root, commits, self.projects
        )
        findings = _documentation_capped(findings, files)
        findings = [  # `unfixable`: reported, never fixed (nor counted as fixable)
            finding
            if finding.fix is None or self.selection.fixes(finding.code)
            else dataclasses.replace(finding, fix=None)
            for finding in findings
        ]
        if any(finding.fix is not None for finding in findings):
            from ascend_reflint.fix.settle import settle_fixes

            findings = settle_fixes(findings, files, self.context_files)
        findings = _reported(
            findings,
            files,
            self.context_files,
            self.selection,
            self.policy,
            self.options.report_unused_ignores,
        )
        timings["check"] = timings.get("check", 0.0) + time.perf_counter() - started
        return findings, notices


def _log_lookups(remotes: int, reused: int, stats: LookupStats, options: ScanOptions) -> None:
    """The ``--debug`` line of the lookup stage: of the ``remotes`` whose ref lists the scan needed, how
    many the ref cache answered (a ref list, or a failure it keeps briefly), how many were asked over the
    network, and how many answers an earlier round of ``--fix`` gave (``reused``)."""
    if not remotes or not debug_logging():
        return
    from ascend_reflint.lookup.cache import FOLDER

    where = "--refresh: not read" if options.refresh else str(_cache_dir(options) / FOLDER)
    earlier = f", {reused} from an earlier round" if reused else ""
    log_debug(
        "%s",
        f"lookup: {_counted(remotes, 'remote')}: {_counted(stats.cached, 'ref list')} from the ref cache "
        f"({where}), {_counted(stats.cached_failures, 'cached failure')}, {stats.lookups} asked over the "
        f"network{earlier}",
    )


def _log_verification(
    requests: Mapping[str, CommitRequest], stats: HistoryStats, options: HistoryOptions, reused: int
) -> None:
    """The ``--debug`` line of commit verification: of the remotes whose pinned commits were verified, how
    many the history cache answered alone (cached verdicts, or a graph that is current), and how many
    histories were fetched or brought up to date over the network."""
    if not requests or not debug_logging():
        return
    from ascend_reflint.lookup.graph import HISTORY

    where = (
        str((options.cache_dir or _default_cache_dir()) / HISTORY) if options.enabled else "verification off"
    )
    commits = sum(len(request.commits) for request in requests.values())
    earlier = f", {_counted(reused, 'verdict')} from an earlier round" if reused else ""
    fetched = f"{stats.fetched} histor{'y' if stats.fetched == 1 else 'ies'}"
    log_debug(
        "%s",
        f"commits: {_counted(commits, 'commit id')} of {_counted(len(requests), 'remote')}: {stats.cached} "
        f"answered by the history cache ({where}), {fetched} fetched{earlier}",
    )


def _counted(number: int, noun: str) -> str:
    """``1 remote``, ``2 remotes``."""
    return f"{number} {noun}{'s' * (number != 1)}"


def _cache_dir(options: ScanOptions) -> Path:
    """The cache directory: ``--cache-dir``, else the user cache dir."""
    from pathlib import Path

    if options.cache_dir:
        return Path(options.cache_dir)
    return _default_cache_dir()


def _default_cache_dir() -> Path:
    from ascend_reflint.lookup.cache import default_cache_dir

    return default_cache_dir()


def _unchecked_run(
    inventory: Inventory, options: ScanOptions, config: Config, timings: dict[str, float]
) -> ScanRun:
    """The run of a scan that found no file to read: no finding, the inventory's errors and notices."""
    side_notices = [FileMessage("", notice) for notice in inventory.cache_notices]
    side_notices += _config_notices(inventory, config)
    summary = ScanSummary(files=0, pins=0, remotes=0, lookups=0, cached=0)
    run = ScanRun(
        ScanResult([], list(inventory.errors), [*inventory.notices, *side_notices], summary),
        timings,
        side_notices,
    )
    run.result.findings = _after_baseline([], options, run, inventory)
    return run


def _config_notices(inventory: Inventory, config: Config) -> list[FileMessage]:
    """A notice for each ``per-file-ignores`` glob that matches no file scanned, and for each remote that a
    list of the config names and no pin scanned fetches (``variant-allowed-drift:
    [github.com/nvidia/transformer-engine]``, a misspelt remote, relaxes nothing), when folders were scanned
    (pre-commit passes a few files, which most globs and remotes are not meant for)."""
    if config.path is None or not inventory.files or all(source.explicit for source in inventory.files):
        return []
    relpaths = [config.relpath(source.abspath) for source in inventory.files]
    notices = [
        FileMessage(
            config.path,
            f"per-file-ignores: {glob!r} matches no file scanned; globs are relative to the project root "
            f"{config.root}",
        )
        for glob in config.unmatched_per_file_ignores(relpaths)
    ]
    return notices + _unused_remote_notices(inventory, config)


def _unused_remote_notices(inventory: Inventory, config: Config) -> list[FileMessage]:
    """A notice at each remote of the config's lists that no pin of ``inventory`` fetches, with the pinned
    remote it most likely means."""
    listed = config.listed_remotes()
    pinned = sorted({pin.remote for pin in inventory.pins if pin.remote is not None})
    unused = [(loc, remote) for loc, remote in listed if remote not in pinned]
    if not unused:
        return []
    import difflib

    from ascend_reflint.check.located import key_path

    prefix = "tool.reflint." if config.path is not None and config.path.endswith(".toml") else ""
    notices = []
    for loc, remote in unused:
        close = difflib.get_close_matches(remote, pinned, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        place = config.locate(loc) if config.locate is not None else None
        notices.append(
            FileMessage(
                str(config.path),
                f"{prefix}{key_path(loc)}: no pin scanned fetches {remote!r}{hint}",
                *(place or (None, None)),
            )
        )
    return notices


def _default_branches(
    files: Sequence[SourceFile],
    requests: Mapping[str, str],
    lookups: Mapping[str, LookupResult],
    options: ScanOptions,
    stats: LookupStats,
) -> dict[str, LookupResult]:
    """The ref lists that RL001's suggestions need the remote's default branch of, with it (see
    :mod:`ascend_reflint.lookup.head`); none when no pin needs one."""
    from ascend_reflint.check import default_branch_lookups
    from ascend_reflint.model import RemoteRefs

    needed = {
        key: (requests[key], refs)
        for key in default_branch_lookups(files, lookups)
        if isinstance(refs := lookups[key], RemoteRefs)
    }
    if not needed:
        return {}
    from ascend_reflint.lookup.head import default_branches

    return dict(default_branches(needed, _lookup_options(options), stats))


def _lookup_options(options: ScanOptions) -> LookupOptions:
    from pathlib import Path

    from ascend_reflint.lookup import LookupOptions

    return LookupOptions(
        jobs=options.jobs,
        timeout=options.timeout,
        cache_dir=Path(options.cache_dir) if options.cache_dir else None,
        cache_ttl=options.cache_ttl,
        refresh=options.refresh,
        offline=options.offline,
        deadline=options.deadline,
        max_refs=options.max_refs,
        max_bytes=options.max_ref_bytes,
        memory=options.lookup_memory,
        credentials_for=options.credentials_for,
    )


def _cache_in_tree(options: ScanOptions, config: Config) -> str | None:
    """The cache directory that the lookups used, when it is inside the project root (symbolic links
    followed), else None."""
    from ascend_reflint.discover import under_root
    from ascend_reflint.lookup.cache import default_cache_dir

    cache = os.path.realpath(options.cache_dir or default_cache_dir())
    return cache if under_root(cache, os.path.realpath(config.root)) is not None else None


def _unchecked_pins(files: Sequence[SourceFile], lookups: Mapping[str, LookupResult]) -> int:
    """Pins whose lookup gave no answer (see :func:`ascend_reflint.lookup.answered`)."""
    from ascend_reflint.check.engine import pin_lookup_key
    from ascend_reflint.lookup import answered

    keys = (pin_lookup_key(pin) for source in files for pin in source.pins)
    return sum(1 for key in keys if key is not None and key in lookups and not answered(lookups[key]))


def _verify_commits(
    files: Sequence[SourceFile],
    requests: Mapping[str, str],
    lookups: Mapping[str, LookupResult],
    options: ScanOptions,
    selection: RuleSelection,
    time_left: float,
) -> tuple[dict[tuple[str, str], CommitVerdict], list[str]]:
    """Verify the commit ids the pins check out against their remotes' histories (see
    :mod:`ascend_reflint.lookup.history`), unless no rule that reports a verdict runs; a history fetch may
    take three times ``--timeout``, and the stage what is left of ``--lookup-deadline`` (``time_left``
    seconds). Verdicts in ``options.answers`` are reused. Returns the verdicts and the stage's notices."""
    from pathlib import Path

    from ascend_reflint.check import pinned_commits
    from ascend_reflint.model import RemoteRefs

    known = options.answers.commits if options.answers is not None else {}
    reused: dict[tuple[str, str], CommitVerdict] = {}
    pinned: dict[str, tuple[str, set[str]]] = {}
    for key, (remote, commits) in pinned_commits(files, lookups).items():
        reused.update({(key, commit): known[key, commit] for commit in commits if (key, commit) in known})
        if todo := {commit for commit in commits if (key, commit) not in known}:
            pinned[key] = (remote, todo)
    if not pinned or not any(selection.runs(code) for code in COMMIT_CODES):
        return reused, []
    from ascend_reflint.lookup.history import CommitRequest, HistoryOptions, verify_commits

    commit_requests = {
        key: CommitRequest(remote=remote, url=requests[key], refs=refs, commits=commits)
        for key, (remote, commits) in pinned.items()
        if isinstance(refs := lookups[key], RemoteRefs)
    }
    history_options = HistoryOptions(
        enabled=options.verify_commits and selection.config.verify_commits,
        offline=options.offline,
        refresh=options.refresh,
        cache_dir=Path(options.cache_dir) if options.cache_dir else None,
        timeout=3 * options.timeout,
        max_bytes=options.max_history_bytes,
        credentials_for=options.credentials_for,
        deadline=time_left,
    )
    verdicts, stats = verify_commits(commit_requests, history_options)
    _log_verification(commit_requests, stats, history_options, len(reused))
    return {**reused, **verdicts}, stats.notices


def _projects(
    config: Config,
    policy: Policy,
    files: Sequence[SourceFile],
    options: ScanOptions,
    cache_dir: Path | None,
) -> Projects:
    """The projects of the files read (:mod:`ascend_reflint.projects`): a nested repository's own config
    gives it its own policy, unless ``--config`` named the one config of the scan.

    Raises:
        ConfigError: a nested repository's config cannot be read or is not valid.
        PolicyError: a rule pack it names cannot be read or is not valid.
    """
    from pathlib import Path

    from ascend_reflint.config import load_config
    from ascend_reflint.projects import Projects

    def nested_policy(folder: str) -> Policy | None:
        if config.folder is not None:  # --config FILE
            return None
        nested = load_config([folder])
        if nested.settings is None or nested.root != folder:
            return None
        return build_policy(nested, [Path(p) for p in options.rule_packs], cache_dir)

    return Projects.of(config.root, policy, (source.abspath for source in files), nested_policy)


def build_policy(config: Config, rule_packs: Sequence[Path] = (), cache_dir: Path | None = None) -> Policy:
    """The default packs (read from reflint's cache in ``cache_dir`` when given), then the config's
    ``rule-packs``, the config's own settings, and ``rule_packs``.

    Raises:
        PolicyError: a pack cannot be read or is not valid.
    """
    from ascend_reflint.check.packs import bundled_packs, load_located_pack
    from ascend_reflint.check.policy import Policy

    policy = Policy.from_packs(bundled_packs(cache_dir=cache_dir))
    for path in config.rule_pack_paths():
        pack, locate = load_located_pack(path)
        policy = policy.merged_with(pack, source=str(path), locate=locate)
    if config.path is not None and config.settings is not None:
        prefix = "tool.reflint." if config.path.endswith(".toml") else ""
        policy = policy.merged_with(
            config.settings, name=config.path, locate=config.locate, key_prefix=prefix
        )
    for path in rule_packs:
        pack, locate = load_located_pack(path)
        policy = policy.merged_with(pack, source=str(path), locate=locate)
    return policy


def _reading(options: ScanOptions) -> Reading:
    """How ``options`` read files, for :func:`ascend_reflint.context.context_files`."""
    from ascend_reflint.context import Reading
    from ascend_reflint.textfile import DEFAULT_MAX_BYTES

    return Reading(
        excludes=options.excludes,
        build_args=options.build_args,
        max_bytes=options.max_bytes or DEFAULT_MAX_BYTES,
        docs=options.docs,
        cache=options.extraction_cache,
        cache_dir=options.cache_dir,
    )


def _reported(
    findings: list[Finding],
    files: Sequence[SourceFile],
    context_files: Sequence[SourceFile],
    selection: RuleSelection,
    policy: Policy,
    report_unused_ignores: bool,
) -> list[Finding]:
    """The findings that the selection keeps and no suppression comment covers, with RL099 findings.

    The comments of ``context_files`` count for the other end of a finding's value (a variable set in a
    file that pre-commit did not pass); only those of ``files`` are reported when unused."""
    from ascend_reflint.check.engine import all_rules
    from ascend_reflint.check.overlaps import without_overlaps
    from ascend_reflint.check.rules import rl099_unused_ignore
    from ascend_reflint.suppress import apply_suppressions, find_suppressions

    abspaths = {source.path: source.abspath for source in files}

    def enabled(code: str, path: str) -> bool:
        return selection.reports(code, abspaths.get(path, path))

    selected = without_overlaps([finding for finding in findings if enabled(finding.code, finding.path)])
    suppressions = [suppression for source in files for suppression in find_suppressions(source)]
    elsewhere = [suppression for source in context_files for suppression in find_suppressions(source)]
    kept = apply_suppressions(selected, [*suppressions, *elsewhere])
    if report_unused_ignores:
        known = {rule.code for rule in all_rules()}
        unused = rl099_unused_ignore.unused_ignore_findings(suppressions, known, enabled)
        kept.extend(
            finding
            for finding in (_with_severity(finding, policy) for finding in unused)
            if enabled(finding.code, finding.path)
        )
    return sorted(kept, key=Finding.sort_key)


def _documentation_capped(findings: list[Finding], files: Sequence[SourceFile]) -> list[Finding]:
    """Findings on documentation capped at warning: install steps in docs are copied by people, who see
    the error when it happens, and a stale example must not fail CI as a broken recipe does."""
    docs = {source.path for source in files if source.kind is FileKind.DOCS}
    if not docs:
        return findings

    return [
        dataclasses.replace(finding, severity=Severity.WARNING)
        if finding.path in docs and finding.severity > Severity.WARNING
        else finding
        for finding in findings
    ]


def _with_severity(finding: Finding, policy: Policy) -> Finding:
    return dataclasses.replace(finding, severity=policy.severity_for(finding.code, finding.severity))


def _after_baseline(
    findings: list[Finding], options: ScanOptions, run: ScanRun, inventory: Inventory
) -> list[Finding]:
    scope = {source.path for source in inventory.files} if options.partial else None
    if options.write_baseline is not None:
        from ascend_reflint.baseline import write_baseline

        write_baseline(options.write_baseline, findings, scope)
        run.baseline_written = len(findings)
        return []
    if options.baseline is None:
        return findings
    from ascend_reflint.baseline import apply_baseline

    applied = apply_baseline(options.baseline, findings, scope)
    run.baseline_matched = len(findings) - len(applied.findings)
    run.baseline_stale = applied.stale
    return applied.findings


def _lookup_with_progress(
    requests: Mapping[str, str], lookup_options: LookupOptions, show_progress: bool
) -> tuple[dict[str, LookupResult], LookupStats]:
    from ascend_reflint.lookup import lookup_remotes

    if not show_progress or not requests:
        return lookup_remotes(requests, lookup_options)
    from rich.console import Console
    from rich.progress import Progress

    # stderr: stdout carries the report, which may be JSON or SARIF piped elsewhere.
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("Looking up remotes", total=len(requests))
        return lookup_remotes(requests, lookup_options, lambda _remote: progress.advance(task))
