"""Commit verification: whether each pinned commit id is in its remote's history, and its nearest tag.

The stage runs after the ref lists are looked up (:mod:`ascend_reflint.lookup`). For each remote with
commit pins that no branch or tag tip confirms, it keeps the remote's commit graph in the cache
(:mod:`ascend_reflint.lookup.graph`: a treeless partial clone of its branches and tags), brings it up to
date with one incremental ``git fetch`` when the ref list has changed since, and answers from it:

- a commit that a branch or tag reaches: :attr:`~ascend_reflint.model.CommitState.IN_HISTORY`, with its
  ``git describe --tags`` name;
- an abbreviated id that several commits of the history start with:
  :attr:`~ascend_reflint.model.CommitState.AMBIGUOUS`;
- a full id the graph lacks is asked for by id (``git fetch reflint ID``): when the server hands it out it
  is :attr:`~ascend_reflint.model.CommitState.NOT_IN_HISTORY` (a fork's commit, which GitHub serves through
  the parent's URL, or one left by a force-push); when it does not,
  :attr:`~ascend_reflint.model.CommitState.ABSENT`, as is an abbreviated id that no commit of the history
  starts with;
- :attr:`~ascend_reflint.model.CommitState.UNVERIFIED`, with the reason, when the history could not be
  consulted (verification off, offline without a cached graph, a history larger than the cap, a failed
  fetch).

Verdicts found against a graph are cached with it, keyed by the ref list's digest, so a warm scan of an
unchanged tree runs no git at all. ``--offline`` answers from cached graphs only.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.lookup.graph import CommitGraph, FetchResult, GraphError, GraphState, tips_digest
from ascend_reflint.model import CommitState, CommitVerdict, RemoteRefs

if TYPE_CHECKING:
    from ascend_reflint.lookup.git import GitRun, GitRunner

__all__ = ["HistoryOptions", "HistoryStats", "cached_verdicts", "verify_commits"]

#: The most commit ids of one remote that one scan verifies; past it the rest are not verified.
MAX_COMMITS_PER_REMOTE = 256
#: Histories fetched at once: each fetch runs ``git index-pack``, whose memory grows with the history.
FETCHES_AT_ONCE = 8
#: Commits of one remote fetched by id at once (each is a round trip that mostly waits on the network).
BY_ID_AT_ONCE = 4
#: History fetches that also ask for the pinned full ids, before they are asked for one by one.
COMBINED_TRIES = 2

#: (lookup key, pinned commit id): what a verdict is found for. Pins that fetch different URLs (another
#: scheme, user or port; see :func:`ascend_reflint.remote.lookup_key`) are verified apart, each against the
#: history its own URL serves.
CommitKey = tuple[str, str]


@dataclass(frozen=True)
class HistoryOptions:
    """How to verify commits.

    Attributes:
        enabled: False to verify nothing (``--no-verify-commits``, ``verify-commits: false``): every commit
            pin that no tip confirms is then ``UNVERIFIED``.
        offline: use cached graphs only, never the network.
        refresh: ignore cached verdicts and bring every graph up to date.
        cache_dir: the cache directory; None for the user cache dir.
        timeout: seconds one history fetch (or one fetch by id) may take before its git is killed.
        max_bytes: the largest a remote's graph may be on disk, in bytes; a larger history is not kept.
        credentials_for: hosts whose https and ssh URLs are fetched with the user's git credentials (see
            :mod:`ascend_reflint.lookup.environment`); every other fetch runs without them.
        deadline: seconds the whole stage may take (what is left of the lookups' ``--lookup-deadline``), or
            None for no limit; a remote not verified by then is ``UNVERIFIED``, a fetch still running is
            killed.

    Raises:
        ValueError: a timeout not above 0 or a cap below 1.
    """

    enabled: bool = True
    offline: bool = False
    refresh: bool = False
    cache_dir: Path | None = None
    timeout: float = 60.0
    max_bytes: int = 256 * 1024 * 1024
    credentials_for: frozenset[str] = frozenset()
    deadline: float | None = None

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, not {self.timeout}")
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1, not {self.max_bytes}")


class HistoryStats:
    """What one :func:`verify_commits` call did (a plain class: this module is on every scan's path).

    Attributes:
        fetched: histories fetched or brought up to date over the network.
        cached: remotes answered from the cache alone (cached verdicts, or a current graph).
        notices: caveats for the user, each a sentence; each distinct notice once.
    """

    def __init__(self) -> None:
        self.fetched = 0
        self.cached = 0
        self.notices: list[str] = []

    def notice(self, message: str) -> None:
        """Add ``message`` unless it is already there."""
        if message not in self.notices:
            self.notices.append(message)


class CommitRequest(NamedTuple):
    """The commit ids pinned to one URL, with what its lookup said.

    Attributes:
        remote: the normalised remote (``host/owner/name``), for messages.
        url: the URL the pins fetch (already looked up successfully).
        refs: the remote's branches and tags.
        commits: the pinned ids, lower-case hex (7 to 40 or 64 digits), none of them a branch or tag name.
    """

    remote: str
    url: str
    refs: RemoteRefs
    commits: Collection[str]


def verify_commits(
    requests: Mapping[str, CommitRequest], options: HistoryOptions
) -> tuple[dict[CommitKey, CommitVerdict], HistoryStats]:
    """Verify every requested commit id against its remote's history.

    Args:
        requests: lookup key (:func:`ascend_reflint.remote.lookup_key`) → its commit pins.
        options: see :class:`HistoryOptions`.

    Returns:
        ((lookup key, pinned id) → verdict for every requested id; statistics). A failure is an
        ``UNVERIFIED`` verdict with the reason, never an exception.

    Raises:
        Only KeyboardInterrupt; every git still running is killed first.
    """
    from ascend_reflint.lookup.cache import default_cache_dir

    cache_dir = options.cache_dir or default_cache_dir()
    stats = HistoryStats()
    verdicts: dict[CommitKey, CommitVerdict] = {}
    pending: dict[str, tuple[CommitRequest, list[str]]] = {}
    for key, request in requests.items():
        settled, rest = _settle_from_tips(key, request, options.enabled)
        verdicts.update(settled)
        if not rest:
            continue
        if not options.enabled:
            verdicts.update(_unverified(key, request.remote, rest, "commit verification is turned off"))
            continue
        cached = {} if options.refresh else _cached_for_refs(cache_dir, key, request, rest)
        if len(cached) == len(rest):
            verdicts.update(cached)
            stats.cached += 1
            continue
        pending[key] = (request, rest)
    if pending:
        verdicts.update(_verify_with_graphs(pending, options, cache_dir, stats))
    return verdicts, stats


def cached_verdicts(
    cache_dir: Path | None, pinned: Mapping[str, tuple[str, Collection[str]]]
) -> dict[CommitKey, CommitVerdict]:
    """The verdicts that earlier scans cached for these commit ids, without git or the network.

    ``reflint refs`` shows a commit pin's ``describe`` from them.

    Args:
        cache_dir: the cache directory; None for the user cache dir.
        pinned: lookup key → (normalised remote, commit ids: lower-case hex).

    Returns:
        (lookup key, pinned id) → verdict, for the ids that have one.
    """
    from ascend_reflint.lookup.cache import default_cache_dir

    root = cache_dir or default_cache_dir()
    found: dict[CommitKey, CommitVerdict] = {}
    for key, (remote, commits) in pinned.items():
        state = CommitGraph(root, key, remote).load_state()
        if state is None:
            continue
        found.update({(key, c): state.verdicts[c] for c in commits if c in state.verdicts})
    return found


def _cached_for_refs(
    cache_dir: Path, key: str, request: CommitRequest, commits: Collection[str]
) -> dict[CommitKey, CommitVerdict]:
    """The cached verdicts of ``commits`` that were found against this very ref list (no lock, no git: the
    state file is replaced atomically)."""
    state = CommitGraph(cache_dir, key, request.remote).load_state()
    if state is None or state.tips != tips_digest(request.refs):
        return {}
    return {(key, commit): state.verdicts[commit] for commit in commits if commit in state.verdicts}


def _settle_from_tips(
    key: str, request: CommitRequest, enabled: bool
) -> tuple[dict[CommitKey, CommitVerdict], list[str]]:
    """The verdicts the ref list alone gives, and the ids left for the graph.

    A full id that is a branch or tag tip is in the history. When every id is one, or verification is
    off, the tips are settled here; otherwise every id goes to the graph, which also names the nearest tag
    of each. At most :data:`MAX_COMMITS_PER_REMOTE` ids are left for the graph (the others unverified).
    """
    tips, remote = request.refs.commits(), request.remote
    commits = sorted(set(request.commits))
    if not enabled or all(commit in tips for commit in commits):
        settled = {
            (key, commit): CommitVerdict(remote, commit, CommitState.IN_HISTORY, commit=commit)
            for commit in commits
            if commit in tips
        }
        return settled, [commit for commit in commits if commit not in tips]
    if len(commits) <= MAX_COMMITS_PER_REMOTE:
        return {}, commits
    reason = f"more than {MAX_COMMITS_PER_REMOTE} commits of this remote are pinned"
    rest = commits[MAX_COMMITS_PER_REMOTE:]
    return _unverified(key, remote, rest, reason), commits[:MAX_COMMITS_PER_REMOTE]


def _unverified(
    key: str, remote: str, commits: Collection[str], reason: str
) -> dict[CommitKey, CommitVerdict]:
    return {
        (key, commit): CommitVerdict(remote, commit, CommitState.UNVERIFIED, detail=reason)
        for commit in commits
    }


def _verify_with_graphs(
    pending: Mapping[str, tuple[CommitRequest, list[str]]],
    options: HistoryOptions,
    cache_dir: Path,
    stats: HistoryStats,
) -> dict[CommitKey, CommitVerdict]:
    """Verify the ids of each pending remote against its graph, a few remotes at once."""
    from concurrent.futures import ThreadPoolExecutor

    from ascend_reflint.lookup import start_runners
    from ascend_reflint.lookup.git import git_directory

    verdicts: dict[CommitKey, CommitVerdict] = {}
    if options.deadline is not None and options.deadline <= 0:
        for key, (request, commits) in pending.items():
            verdicts.update(_unverified(key, request.remote, commits, _DEADLINE))
        return verdicts
    ends = None if options.deadline is None else time.monotonic() + options.deadline
    with git_directory() as directory:
        started = start_runners(options.timeout, directory, options.credentials_for)
        if isinstance(started, str):
            for key, (request, commits) in pending.items():
                verdicts.update(_unverified(key, request.remote, commits, started))
            return verdicts
        runners, notice = started
        if notice is not None:
            stats.notice(notice)
        pool = ThreadPoolExecutor(
            max_workers=min(FETCHES_AT_ONCE, len(pending)), thread_name_prefix="reflint-history"
        )
        try:
            futures = [
                pool.submit(
                    _RemoteVerification(
                        key, request, commits, options, runners.for_url(request.url), cache_dir, ends
                    ).run
                )
                for key, (request, commits) in pending.items()
            ]
            for future in futures:
                outcome = future.result()
                verdicts.update(outcome.verdicts)
                stats.fetched += outcome.fetched
                stats.cached += outcome.cached
                if outcome.notice:
                    stats.notice(outcome.notice)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            runners.kill_all()
            raise
        pool.shutdown()
    return verdicts


class _ById(enum.Enum):
    """What a server said when asked for a commit by id."""

    SERVED = "served"
    NOT_THERE = "not-there"  # upload-pack: "not our ref ID"
    REFUSED = "refused"  # the client: "Server does not allow request for unadvertised object"
    FAILED = "failed"  # anything else (unreachable, timed out): the reason is kept beside it


class _RemoteVerification:
    """The verification of one remote's commit ids, run on a worker thread."""

    def __init__(
        self,
        key: str,
        request: CommitRequest,
        commits: list[str],
        options: HistoryOptions,
        runner: GitRunner,
        cache_dir: Path,
        ends: float | None,
    ) -> None:
        self.key = key
        self.remote = request.remote
        self.request = request
        self.commits = commits
        self.options = options
        self.runner = runner
        self.ends = ends
        self.graph = CommitGraph(cache_dir, key, request.remote)
        self.tips = tips_digest(request.refs)
        self.fetched = False
        self.notice: str | None = None
        #: What the server said of full ids asked for by id: commit → (answer, why it failed).
        self.by_id: dict[str, tuple[_ById, str]] = {}

    def run(self) -> _Outcome:
        """Verify the ids, holding the graph's lock; never raises but KeyboardInterrupt."""
        problem = _DEADLINE if self._time_left() <= 0 else self.graph.prepare_folder()
        if problem is not None:
            return _Outcome(_unverified(self.key, self.remote, self.commits, problem))
        from filelock import FileLock, Timeout

        try:
            with FileLock(str(self.graph.lock_path), timeout=self._time_left()):
                verdicts, cached = self._verify_locked()
        except Timeout:
            reason = (
                _DEADLINE
                if self._time_left() <= 0
                else "another reflint process kept its history locked past the time limit"
            )
            return _Outcome(_unverified(self.key, self.remote, self.commits, reason))
        return _Outcome(verdicts, fetched=self.fetched, cached=cached, notice=self.notice)

    def _verify_locked(self) -> tuple[dict[CommitKey, CommitVerdict], bool]:
        """(verdicts, answered from the cache alone)."""
        state = self.graph.load_state() or GraphState(self.remote)
        known: dict[str, CommitVerdict] = {}
        if state.tips == self.tips and not self.options.refresh:
            known = {commit: state.verdicts[commit] for commit in self.commits if commit in state.verdicts}
        todo = [commit for commit in self.commits if commit not in known]
        if todo:
            problem = self._prepare_graph(state, todo)
            if problem is not None:
                known.update(
                    (c, v) for (_, c), v in _unverified(self.key, self.remote, todo, problem).items()
                )
            else:
                known.update(self._verdicts_from_graph(state, todo))
        return {(self.key, commit): verdict for commit, verdict in known.items()}, not todo

    def _verdicts_from_graph(self, state: GraphState, todo: list[str]) -> dict[str, CommitVerdict]:
        current = state.tips == self.tips
        try:
            verdicts = self._ask_graph(todo, current)
        except GraphError as error:
            reason = f"its cached history could not be read: {error}"
            return {c: v for (_, c), v in _unverified(self.key, self.remote, todo, reason).items()}
        if current:
            if self.options.refresh:
                state.verdicts = {}
            state.verdicts.update(
                (c, v) for c, v in verdicts.items() if v.state is not CommitState.UNVERIFIED
            )
            self._save(state)
        return verdicts

    def _prepare_graph(self, state: GraphState, todo: list[str]) -> str | None:
        """Make the graph usable: trusted, and current unless offline (created or fetched as needed, with
        the full ids of ``todo`` that no tip names asked for by id in the same fetch).

        Returns:
            Why it cannot be used, or None. ``state`` is updated (and saved) after a fetch.
        """
        graph = self.graph
        if graph.exists():
            untrusted = graph.untrusted_reason()
            if untrusted is not None:
                return f"its cached history is not as reflint left it ({untrusted}): delete {graph.folder}"
        if self.options.offline:
            return None if graph.exists() else "offline, and its history is not in the cache"
        if (
            state.too_large is not None
            and self.options.max_bytes <= state.too_large
            and not self.options.refresh
        ):
            return _too_large(state.too_large)
        if graph.exists() and state.tips == self.tips and not self.options.refresh:
            return None
        tips = self.request.refs.commits()
        return self._fetch(state, [commit for commit in todo if _is_full(commit) and commit not in tips])

    def _fetch(self, state: GraphState, wanted: list[str]) -> str | None:
        """Create the graph if needed and fetch the remote's branches and tags into it, with ``wanted`` by
        id in the same round trip (again without them when the server refuses one); why not, or None."""
        graph = self.graph
        cold = not graph.exists()
        if cold:
            object_format = "sha256" if any(len(c) == 64 for c in self.request.refs.commits()) else "sha1"
            problem = graph.create(self.runner, object_format)
            if problem is not None:
                return problem
        result = self._fetch_with(wanted)
        if result.too_large:
            graph.remove_repository()
            state.too_large, state.tips, state.verdicts = self.options.max_bytes, "", {}
            self._save(state)
            return _too_large(self.options.max_bytes)
        if not result.ok:
            return result.detail or f"fetching its history failed: {_failure_detail(self.remote, result.run)}"
        if cold and result.run is not None and _FILTER_IGNORED in result.run.stderr:
            size = graph.disk_size()
            if size >= WHOLE_HISTORY_NOTICE_BYTES:
                self.notice = (
                    f"{self.remote} does not allow partial clones, so its whole history (trees and files "
                    f"too, {_size_text(size)}) was fetched to verify its pinned commits"
                )
        graph.compact(self.runner, max(self._time_left(), 0.001))
        if state.tips != self.tips:
            state.verdicts = {}
        state.tips, state.fetched_at, state.too_large = self.tips, time.time(), None
        self._save(state)
        return None

    def _ask_graph(self, todo: list[str], current: bool) -> dict[str, CommitVerdict]:
        """The verdict of each id in ``todo`` from the graph; full ids it lacks are asked for by id when the
        graph is current and reflint is online.

        Raises:
            GraphError: git failed on the graph.
        """
        graph, runner = self.graph, self.runner
        found = graph.find(runner, todo)
        outside = graph.outside_history(runner, {c for commits in found.values() for c in commits})
        missing = [c for c in todo if _is_full(c) and not found[c] and c not in self.by_id]
        if missing and current and not self.options.offline:
            self._fetch_by_id(missing)
        verdicts = {
            commit: self._verdict(
                commit, [c for c in found[commit] if c not in outside], found[commit], current
            )
            for commit in todo
        }
        named = {c for v in verdicts.values() for c in (v.commit, *(c for c, _ in v.candidates)) if c}
        names = graph.describe(runner, named)
        return {commit: _with_names(verdict, names) for commit, verdict in verdicts.items()}

    def _verdict(
        self,
        commit: str,
        in_history: list[str],
        present: list[str],
        current: bool,
    ) -> CommitVerdict:
        """One id's verdict from what the graph and the server said (see the module docstring)."""
        remote = self.remote
        if len(in_history) == 1:
            return CommitVerdict(remote, commit, CommitState.IN_HISTORY, commit=in_history[0])
        if in_history:
            return CommitVerdict(
                remote, commit, CommitState.AMBIGUOUS, candidates=tuple((c, None) for c in in_history)
            )
        answer, reason = self.by_id.get(commit, (None, ""))
        if _is_full(commit) and (present or answer is _ById.SERVED):
            return CommitVerdict(remote, commit, CommitState.NOT_IN_HISTORY, commit=commit)
        if not current:
            return CommitVerdict(remote, commit, CommitState.UNVERIFIED, detail=self._stale_reason())
        if not _is_full(commit):
            return CommitVerdict(
                remote, commit, CommitState.ABSENT, detail="no commit of its branches and tags starts with it"
            )
        if answer is _ById.NOT_THERE:
            return CommitVerdict(
                remote,
                commit,
                CommitState.ABSENT,
                detail=f"{_NO_REF_CONTAINS}, and the server does not have it",
            )
        if answer is _ById.REFUSED:
            return CommitVerdict(
                remote,
                commit,
                CommitState.ABSENT,
                detail=f"{_NO_REF_CONTAINS}, and the server hands out no commit by id",
            )
        if answer is None:
            reason = (
                "offline, and only the server can say whether it has the commit outside its branches and tags"
            )
        return CommitVerdict(remote, commit, CommitState.UNVERIFIED, detail=reason)

    def _stale_reason(self) -> str:
        """Why an offline verdict against a graph older than the ref list cannot say "absent"."""
        state = self.graph.load_state()
        when = time.strftime("%Y-%m-%d", time.gmtime(state.fetched_at)) if state and state.fetched_at else ""
        fetched = f", fetched on {when}," if when else ""
        return f"offline, and its cached history{fetched} is older than its ref list and does not hold it"

    def _fetch_with(self, wanted: list[str]) -> FetchResult:
        """Fetch the history with ``wanted`` by id in the same round trip. A server that does not have one
        fails the whole fetch and names it: it is recorded and the fetch tried again without it, at most
        :data:`COMBINED_TRIES` times, then without any id (the rest are asked for one by one later)."""
        graph, url = self.graph, self.request.url
        cap = self.options.max_bytes
        self.fetched = True
        for _ in range(COMBINED_TRIES):
            result = self._past_deadline(
                graph.fetch_history(self.runner, url, self._time_left(), cap, wanted)
            )
            if result.ok:
                self.by_id.update((commit, (_ById.SERVED, "")) for commit in wanted)
                return result
            if not wanted or result.run is None or not self._learn_refusal(result.run.stderr, wanted):
                return result
            wanted = [commit for commit in wanted if commit not in self.by_id]
        return self._past_deadline(graph.fetch_history(self.runner, url, self._time_left(), cap))

    def _time_left(self) -> float:
        """Seconds the next git may take: the time limit, or what is left before the deadline (0 past it)."""
        if self.ends is None:
            return self.options.timeout
        return max(0.0, min(self.options.timeout, self.ends - time.monotonic()))

    def _past_deadline(self, result: FetchResult) -> FetchResult:
        """``result``, saying that the deadline stopped the fetch when it did."""
        if result.run is not None and result.run.timed_out and self._time_left() <= 0:
            return result._replace(detail=_DEADLINE)
        return result

    def _learn_refusal(self, stderr: str, wanted: list[str]) -> bool:
        """Record what a fetch that failed over ids asked for by id says about them; False when it failed
        for another reason."""
        if _UNADVERTISED in stderr:
            self.by_id.update((commit, (_ById.REFUSED, "")) for commit in wanted)
            return True
        absent = _refused_commit(stderr, wanted)
        if absent is None:
            return False
        self.by_id[absent] = (_ById.NOT_THERE, "")
        return True

    def _fetch_by_id(self, commits: list[str]) -> None:
        """Ask the server for each commit by id, a few at once; record each answer in :attr:`by_id`."""
        from concurrent.futures import ThreadPoolExecutor

        def ask(commit: str) -> tuple[_ById, str]:
            timeout = self._time_left()
            run = self.graph.fetch_commit(
                self.runner, self.request.url, commit, timeout, self.options.max_bytes
            )
            if run.stopped is not None:
                return _ById.FAILED, f"fetching it by id was stopped: {run.stopped}"
            if run.returncode == 0 and not run.timed_out:
                return _ById.SERVED, ""
            if run.timed_out:
                return (
                    _ById.FAILED,
                    _DEADLINE
                    if self._time_left() <= 0
                    else f"fetching it by id took more than {timeout:.3g} s",
                )
            if _UNADVERTISED in run.stderr:
                return _ById.REFUSED, ""
            if _refused_commit(run.stderr, [commit]) is not None:
                return _ById.NOT_THERE, ""
            return _ById.FAILED, f"fetching it by id failed: {_failure_detail(self.remote, run)}"

        self.fetched = True
        with ThreadPoolExecutor(min(BY_ID_AT_ONCE, len(commits)), "reflint-by-id") as pool:
            self.by_id.update(zip(commits, pool.map(ask, commits), strict=True))

    def _save(self, state: GraphState) -> None:
        problem = self.graph.save_state(state)
        if problem is not None:
            self.notice = problem


class _Outcome(NamedTuple):
    verdicts: dict[CommitKey, CommitVerdict]
    fetched: bool = False
    cached: bool = False
    notice: str | None = None


_NO_REF_CONTAINS = "no branch or tag of it contains the commit"
_DEADLINE = "the lookups' deadline passed first (--lookup-deadline)"
#: What git prints when the server ignores ``--filter`` (fetch-pack.c) and when it refuses a want by id.
_FILTER_IGNORED = "filtering not recognized by server"
#: A whole history, fetched from a server that refuses filters (git prints "filtering not recognized by
#: server"), at least this large is worth a notice. GitHub and GitLab allow filters; a smaller one (a small
#: repository, a local bare repository whose uploadpack.allowFilter is unset) cost about what the treeless
#: fetch would have, and a notice about it would be noise.
WHOLE_HISTORY_NOTICE_BYTES = 16 * 1024 * 1024
_UNADVERTISED = "not allow request for unadvertised object"


def _is_full(commit: str) -> bool:
    return len(commit) in (40, 64)


def _too_large(cap: int) -> str:
    return f"its history is larger than the cap of {cap / 2**20:.3g} MiB (--max-history-size)"


def _size_text(size: int) -> str:
    """``"12.3 MiB"``, or ``"85 KiB"`` below one MiB."""
    return f"{size / 2**20:.1f} MiB" if size >= 2**20 else f"{max(1, round(size / 1024))} KiB"


def _failure_detail(remote: str, run: GitRun | None) -> str:
    from ascend_reflint.lookup.classify import classify_failure

    if run is None:
        return "git did not run"
    return classify_failure(remote, run.returncode, run.stderr).detail


def _refused_commit(stderr: str, asked: list[str]) -> str | None:
    """The commit a server said it does not have (upload-pack's ``not our ref ID``), if one of ``asked``."""
    for line in stderr.splitlines():
        if "not our ref" in line:
            for commit in asked:
                if commit in line:
                    return commit
    return None


def _with_names(verdict: CommitVerdict, names: Mapping[str, str | None]) -> CommitVerdict:
    """``verdict`` with the ``git describe`` names of its commit and candidates."""
    if verdict.candidates:
        return verdict._replace(candidates=tuple((c, names.get(c)) for c, _ in verdict.candidates))
    if verdict.commit is not None:
        return verdict._replace(describe=names.get(verdict.commit))
    return verdict
