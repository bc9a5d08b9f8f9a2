"""Lookup: what branches and tags each URL that pins fetch has, from one ``git ls-remote`` per URL or the
disk cache.

The stage takes the distinct lookup keys that the pins need (one per URL as written, normalised:
:func:`ascend_reflint.remote.lookup_key`) and gives back, for each, a
:class:`~ascend_reflint.model.RemoteRefs` or a :class:`~ascend_reflint.model.LookupFailure` (a fact about
the URL: unreachable, no such repository, ref list too large, …). Network lookups are bounded one by one
and all together (:mod:`ascend_reflint.lookup.network`), and run with the user's credentials only for
the hosts the user allowed (:mod:`ascend_reflint.lookup.environment`). Answers are cached on disk with a
time to live, failures briefly (:mod:`ascend_reflint.lookup.cache`). git only runs when a URL has to be
asked over the network (a cached failure is checked against the user's git config: one
``git config --list``). All the URLs asked go in one wave: ``jobs`` defaults to one per URL, up to
:data:`MAX_JOBS`, within the one memory budget of all lookups.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.lookup.cache import CachedFailure, FailureCache, RefCache, cache_key, default_cache_dir
from ascend_reflint.lookup.credentials import CredentialPolicy
from ascend_reflint.model import FailureKind, LookupFailure, LookupResult, RemoteRefs
from ascend_reflint.output import log_debug
from ascend_reflint.remote import is_local_path, normalise_remote, unsafe_reason

if TYPE_CHECKING:
    import subprocess

    from ascend_reflint.lookup.environment import LookupEnvironments
    from ascend_reflint.lookup.git import GitRunner
    from ascend_reflint.lookup.network import Request

__all__ = ["GitRunners", "LookupOptions", "LookupStats", "answered", "lookup_remotes", "start_runners"]


_MIB = 1024 * 1024
#: The most lookups that run at once by default: a typical repository's remotes are asked in one round
#: trip, and the memory budget (``memory``) bounds what they hold together whatever their number.
MAX_JOBS = 64


@dataclass(frozen=True)
class LookupOptions:
    """How to look URLs up.

    Attributes:
        jobs: how many ``git ls-remote`` may run at once (at least 1); None: one per URL asked, up to
            :data:`MAX_JOBS`.
        timeout: seconds each lookup may take before its git is killed (more than 0).
        cache_dir: the cache directory; None for the user cache dir (``platformdirs.user_cache_dir``).
        cache_ttl: seconds a cached answer stays fresh.
        refresh: ask every URL again, ignoring the cache, cached failures too (answers are still written
            to it).
        offline: answer from the cache alone, whatever the age of its entries; a URL without an entry
            gets a :attr:`~ascend_reflint.model.FailureKind.OFFLINE` failure. Wins over ``refresh``.
        deadline: seconds the network lookups may take all together; what has not answered by then is a
            :attr:`~ascend_reflint.model.FailureKind.DEADLINE` failure.
        max_refs: lines one ref list may hold before its lookup is stopped (``too-large``).
        max_bytes: bytes one ref list may hold before its lookup is stopped (``too-large``).
        memory: bytes that all lookups together may hold (git's processes and the ref lists read).
        credentials_for: hosts (``host`` or ``host:port``, lower-case) whose https and ssh URLs are
            looked up with the user's own git config and credentials; every other URL is looked up
            without them.

    Raises:
        ValueError: a count below 1, a time not above 0, or a negative ``cache_ttl``.
    """

    jobs: int | None = None
    timeout: float = 20.0
    cache_dir: Path | None = None
    cache_ttl: float = 3600.0
    refresh: bool = False
    offline: bool = False
    deadline: float = 120.0
    max_refs: int = 250_000
    max_bytes: int = 32 * _MIB
    memory: int = 512 * _MIB
    credentials_for: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name in ("jobs", "max_refs", "max_bytes", "memory"):
            if getattr(self, name) is not None and getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("timeout", "deadline"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be more than 0 seconds, not {getattr(self, name)}")
        if self.cache_ttl < 0:
            raise ValueError(f"cache_ttl must not be negative, not {self.cache_ttl}")


class LookupStats:
    """What one :func:`lookup_remotes` call did (a plain class, as
    :class:`~ascend_reflint.lookup.history.HistoryStats`: this module is on every warm scan's path).

    Attributes:
        lookups: URLs asked over the network in this call (git was started, whether it answered or not).
        cached: URLs answered with a ref list from the cache.
        cached_failures: URLs answered with a failure that the cache keeps briefly.
        notices: caveats for the user, each a sentence without trailing newline (the cache could not be
            written, …); each distinct notice once.
    """

    def __init__(self) -> None:
        self.lookups = 0
        self.cached = 0
        self.cached_failures = 0
        self.notices: list[str] = []

    def notice(self, message: str) -> None:
        """Add ``message`` unless it is already there."""
        if message not in self.notices:
            self.notices.append(message)


def answered(result: LookupResult) -> bool:
    """True when the remote answered for its pins: a ref list, or "no such repository" (RL014 then
    judges them). Everything else — unreachable, timed out, ref list too large, deadline, offline without
    an entry, credentials asked for — leaves them unchecked."""
    return isinstance(result, RemoteRefs) or result.kind in (
        FailureKind.NOT_FOUND,
        FailureKind.NOT_FOUND_OR_PRIVATE,
    )


def lookup_remotes(
    requests: Mapping[str, str],
    options: LookupOptions,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, LookupResult], LookupStats]:
    """Find the branches and tags behind every requested URL.

    Each URL is checked with :func:`ascend_reflint.remote.unsafe_reason` and
    :func:`ascend_reflint.remote.is_local_path` first (neither an unsafe URL nor a local path reaches
    git), then the cache is consulted, then one ``git ls-remote --heads --tags`` runs per URL still
    unanswered (see :mod:`ascend_reflint.lookup.network` for the bounds).

    Args:
        requests: lookup key (:func:`ascend_reflint.remote.lookup_key`) → the URL to ask, as a pin wrote
            it after variable resolution. Credentials in the URL are used by git but never cached or
            shown.
        options: concurrency, bounds, credentials and cache settings.
        progress: called with the key, in the calling thread, as each URL is answered (from the cache,
            the network, or a failure).

    Returns:
        (key → :class:`~ascend_reflint.model.RemoteRefs` or :class:`~ascend_reflint.model.LookupFailure`,
        in the order of ``requests``; statistics). Results name the normalised remote
        (:func:`ascend_reflint.remote.normalise_remote`, else the key). A failure is a value, never an
        exception.

    Raises:
        Only what ``progress`` raises, and KeyboardInterrupt; either way every git still running is
        killed first.
    """
    stats = LookupStats()
    directory = options.cache_dir or default_cache_dir()
    cache = _Caches(RefCache(directory), FailureCache(directory))
    policy = CredentialPolicy(options.credentials_for)
    results: dict[str, LookupResult] = {}
    pending: list[tuple[str, str, str]] = []
    suspects: list[tuple[str, str, str, CachedFailure]] = []
    for key, url in requests.items():
        remote = normalise_remote(url) or key
        answer = _answer_locally(key, url, remote, cache, policy, options, stats)
        if isinstance(answer, CachedFailure):
            suspects.append((key, url, remote, answer))
        elif answer is not None:
            _finish(results, key, answer, progress)
        elif options.offline:
            _finish(results, key, _offline(remote), progress)
        else:
            pending.append((key, url, remote))
    for key, url, remote, cached in _cached_failures_that_hold(suspects, policy, options.timeout):
        if cached is not None:
            stats.cached_failures += 1
            _finish(results, key, cached.failure, progress)
        elif options.offline:
            _finish(results, key, _offline(remote), progress)
        else:
            pending.append((key, url, remote))
    if pending:
        results.update(_look_up_over_network(pending, cache, policy, options, stats, progress))
    return {key: results[key] for key in requests}, stats


class _Caches(NamedTuple):
    """Where answers are kept: ref lists, and failures for a short while."""

    refs: RefCache
    failures: FailureCache


def _finish(
    results: dict[str, LookupResult],
    key: str,
    answer: LookupResult,
    progress: Callable[[str], None] | None,
) -> None:
    results[key] = answer
    if progress is not None:
        progress(key)


def _offline(remote: str) -> LookupFailure:
    return LookupFailure(
        remote=remote, kind=FailureKind.OFFLINE, detail="unknown (offline): not in the cache"
    )


def _answer_locally(
    key: str,
    url: str,
    remote: str,
    cache: _Caches,
    policy: CredentialPolicy,
    options: LookupOptions,
    stats: LookupStats,
) -> LookupResult | CachedFailure | None:
    """The answer that needs no network (unsafe URL, local path, cached ref list), a cached failure that
    holds if the user's git config still fetches the same URL the same way, or None when git must be asked
    (or, offline, cannot be)."""
    reason = unsafe_reason(url) or (
        "it is a local path, which is never looked up" if is_local_path(url) else None
    )
    if reason is not None:
        return LookupFailure(remote=remote, kind=FailureKind.UNSAFE, detail=_clean_detail(reason))
    if options.refresh and not options.offline:
        return None
    entry = cache_key(key, policy.allows(url))
    cached = cache.refs.load(entry, max_age=None if options.offline else options.cache_ttl)
    if cached is not None:
        stats.cached += 1
        return cached
    return cache.failures.load(entry, max_age=options.cache_ttl)


def _cached_failures_that_hold(
    suspects: list[tuple[str, str, str, CachedFailure]], policy: CredentialPolicy, timeout: float
) -> list[tuple[str, str, str, CachedFailure | None]]:
    """Each cached failure, or None where it no longer holds: the user's git config (read once, with one
    ``git config --list``) now rewrites the URL to another one, or gives or withholds credentials."""
    if not suspects:
        return []
    from ascend_reflint.lookup.environment import as_fetched
    from ascend_reflint.lookup.git import base_env, git_directory, git_program
    from ascend_reflint.lookup.gitconfig import read_user_config

    try:
        with git_directory() as directory:
            config, _problem = read_user_config(
                git_program(), base_env(os.environ, directory), directory, timeout
            )
    except OSError:  # git cannot be run, no temporary directory: the lookups will say so
        return [(key, url, remote, None) for key, url, remote, _ in suspects]
    return [
        (key, url, remote, cached if cached.holds_for(*as_fetched(url, config, policy)) else None)
        for key, url, remote, cached in suspects
    ]


def _look_up_over_network(
    pending: list[tuple[str, str, str]],
    cache: _Caches,
    policy: CredentialPolicy,
    options: LookupOptions,
    stats: LookupStats,
    progress: Callable[[str], None] | None,
) -> dict[str, LookupResult]:
    """Run one bounded ``git ls-remote`` per pending URL, all in one wave unless ``jobs`` says otherwise;
    cache the ref lists, and the failures that are cached."""
    from ascend_reflint.lookup.git import git_directory
    from ascend_reflint.lookup.network import Limits, Request, run_lookups

    requests = [Request(key, url, remote) for key, url, remote in pending]
    results: dict[str, LookupResult] = {}
    fetched_as: Callable[[str], tuple[str, bool]] = _as_written  # until git's config is read

    def finish(request: Request, result: LookupResult) -> None:
        fetched, credentials = fetched_as(request.url)
        result = _through_mirror(request.url, fetched, result)
        results[request.key] = result
        entry = cache_key(request.key, policy.allows(request.url))
        if isinstance(result, RemoteRefs):
            _notice(stats, cache.refs.store(entry, result))
        elif fetched_as is not _as_written:
            _notice(
                stats, cache.failures.store(entry, CachedFailure(result, time.time(), fetched, credentials))
            )
        if progress is not None:
            progress(request.key)

    limits = Limits(
        jobs=options.jobs or min(len(requests), MAX_JOBS),
        timeout=options.timeout,
        deadline=options.deadline,
        max_refs=options.max_refs,
        max_bytes=options.max_bytes,
        memory=options.memory,
    )
    try:
        with git_directory() as directory:
            started = _starter(directory, policy, options.timeout, stats)
            if isinstance(started, str):
                return {r.key: LookupFailure(r.remote, FailureKind.OTHER, started) for r in requests}
            start, fetched_as = started
            run_lookups(requests, start, limits, finish)
    except OSError as error:  # no temporary directory
        detail = _clean_detail(f"git cannot be run: {error}")
        return {
            r.key: results.get(r.key) or LookupFailure(r.remote, FailureKind.OTHER, detail) for r in requests
        }
    return results


def _clean_detail(text: str) -> str:
    """:func:`ascend_reflint.lookup.classify.clean_detail`, whose module (patterns to compile) is imported
    only when a lookup fails or is refused, never by a scan answered from the cache."""
    from ascend_reflint.lookup.classify import clean_detail

    return clean_detail(text)


def _notice(stats: LookupStats, notice: str | None) -> None:
    if notice is not None:
        stats.notice(notice)


class GitRunners(NamedTuple):
    """Runners for the git commands of one stage, one per environment (see
    :mod:`ascend_reflint.lookup.environment`): :meth:`for_url` picks the one a URL may use (a NamedTuple:
    this module is on the path of every scan that looks anything up, even from the cache).

    Attributes:
        git: the git program.
        environments: the user's and the isolated environment.
        user: runs git in the user's environment.
        isolated: runs git in the isolated one.
    """

    git: str
    environments: LookupEnvironments
    user: GitRunner
    isolated: GitRunner

    def for_url(self, url: str) -> GitRunner:
        """The runner for git commands that fetch ``url`` (and for the local commands that go with them)."""
        return self.user if self.environments.for_url(url) is self.environments.user else self.isolated

    def kill_all(self) -> None:
        """Kill every git that either runner started and is still running."""
        self.user.kill_all()
        self.isolated.kill_all()


def start_runners(
    timeout: float, directory: str, credentials_for: frozenset[str] = frozenset()
) -> tuple[GitRunners, str | None] | str:
    """Runners for git in ``directory``, with credentials for the URLs of ``credentials_for`` only.

    Reads the user's git config once (``git config --list``).

    Args:
        timeout: seconds each git may run (also the limit of the config read).
        directory: an empty directory of its own (:func:`ascend_reflint.lookup.git.git_directory`); the
            isolated ``HOME`` is made in it.
        credentials_for: hosts allowed credentials (see :class:`CredentialPolicy`).

    Returns:
        ``(runners, notice)`` — the notice says when the user's config could not be read — or why git
        cannot be run at all.
    """
    from ascend_reflint.lookup.environment import make_environments
    from ascend_reflint.lookup.git import GitRunner, base_env, git_program
    from ascend_reflint.lookup.gitconfig import read_user_config

    policy = CredentialPolicy(credentials_for)
    try:
        git = git_program()
        base = base_env(os.environ, directory)
        config, problem = read_user_config(git, base, directory, timeout)
        home = os.path.join(directory, "home")
        os.mkdir(home, 0o700)
        environments = make_environments(base, config, home, policy)
    except OSError as error:  # no git, or one that cannot be started
        return _clean_detail(f"git cannot be run: {error}".splitlines()[0])
    log_debug(
        "lookups carry %d of your %d git config entries; credentials only for: %s",
        int(environments.isolated.get("GIT_CONFIG_COUNT", "0")),
        len(config),
        ", ".join(sorted(policy.hosts)) or "no host",
    )
    runners = GitRunners(
        git,
        environments,
        GitRunner(environments.user, timeout, directory, git),
        GitRunner(environments.isolated, timeout, directory, git),
    )
    if problem is None:
        return runners, None
    return runners, f"your git config could not be read ({problem}); lookups used none of it"


def _as_written(url: str) -> tuple[str, bool]:
    return url, False


def _through_mirror(url: str, fetched: str, result: LookupResult) -> LookupResult:
    """``result``, or, when the user's git config sent ``url`` to another URL (``fetched``: a mirror, set
    with ``url.<base>.insteadOf``) and that answered "no such repository", a
    :attr:`~ascend_reflint.model.FailureKind.NOT_IN_MIRROR` failure: the mirror lacks a copy, which says
    nothing about the remote that the recipe names (a build in a container may not use the mirror at all);
    :attr:`~ascend_reflint.model.FailureKind.NOT_IN_MIRROR_OR_PRIVATE` when the mirror asked for
    credentials instead.
    """
    in_mirror = {
        FailureKind.NOT_FOUND: FailureKind.NOT_IN_MIRROR,
        FailureKind.NOT_FOUND_OR_PRIVATE: FailureKind.NOT_IN_MIRROR_OR_PRIVATE,
    }
    if fetched == url or not isinstance(result, LookupFailure) or result.kind not in in_mirror:
        return result
    return LookupFailure(result.remote, in_mirror[result.kind], _clean_detail(fetched))


def _starter(
    directory: str, policy: CredentialPolicy, timeout: float, stats: LookupStats
) -> tuple[Callable[[Request], subprocess.Popen[bytes]], Callable[[str], tuple[str, bool]]] | str:
    """A function that starts the ``git ls-remote`` of one request in the environment its URL gets, and one
    that says which URL git fetches for a URL (the user's ``insteadOf`` rewrites) and whether the user's
    credentials go with it (:func:`ascend_reflint.lookup.environment.as_fetched`); or why git cannot be run
    at all."""
    from ascend_reflint.lookup.environment import as_fetched
    from ascend_reflint.lookup.git import ls_remote_args, start_git

    started = start_runners(timeout, directory, policy.hosts)
    if isinstance(started, str):
        return started
    runners, notice = started
    if notice is not None:
        stats.notice(notice)
    environments = runners.environments

    def start(request: Request) -> subprocess.Popen[bytes]:
        env = environments.for_url(request.url)
        args = ls_remote_args(request.url)
        mode = "with your git config and credentials" if env is environments.user else "isolated"
        log_debug("git %s (%s)", " ".join(args), mode)  # the handler masks credentials
        proc = start_git(runners.git, args, env, directory)
        stats.lookups += 1
        return proc

    return start, lambda url: as_fetched(url, environments.config, environments.policy)
