"""Lookup: what branches and tags each remote has, from one ``git ls-remote`` per remote or the disk cache.

The stage takes the distinct remotes that the pins name and gives back, for each, a
:class:`~ascend_reflint.model.RemoteRefs` or a :class:`~ascend_reflint.model.LookupFailure` (a fact about
the remote: unreachable, no such repository, …). Lookups run concurrently, each with a timeout; answers
are cached on disk with a time to live (:mod:`ascend_reflint.lookup.cache`). GitPython, and git, are only
loaded when a remote has to be asked over the network.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ascend_reflint.lookup.cache import RefCache, default_cache_dir
from ascend_reflint.lookup.classify import classify_failure, clean_detail, timeout_failure
from ascend_reflint.model import FailureKind, LookupFailure, LookupResult
from ascend_reflint.remote import unsafe_reason

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ascend_reflint.lookup.git import GitRunner

__all__ = ["LookupOptions", "LookupStats", "lookup_remotes"]


@dataclass(frozen=True)
class LookupOptions:
    """How to look remotes up.

    Attributes:
        jobs: how many ``git ls-remote`` may run at once (at least 1).
        timeout: seconds each remote may take before its git is killed (more than 0).
        cache_dir: the cache directory; None for the user cache dir (``platformdirs.user_cache_dir``).
        cache_ttl: seconds a cached answer stays fresh.
        refresh: ask every remote again, ignoring the cache (answers are still written to it).
        offline: answer from the cache alone, whatever the age of its entries; a remote without an entry
            gets a :attr:`~ascend_reflint.model.FailureKind.OFFLINE` failure. Wins over ``refresh``.

    Raises:
        ValueError: ``jobs`` below 1, ``timeout`` not above 0, or a negative ``cache_ttl``.
    """

    jobs: int = 32
    timeout: float = 20.0
    cache_dir: Path | None = None
    cache_ttl: float = 3600.0
    refresh: bool = False
    offline: bool = False

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs}")
        if not self.timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, not {self.timeout}")
        if self.cache_ttl < 0:
            raise ValueError(f"cache_ttl must not be negative, not {self.cache_ttl}")


@dataclass
class LookupStats:
    """What one :func:`lookup_remotes` call did.

    Attributes:
        lookups: remotes asked over the network in this call (whether they answered or not).
        cached: remotes answered from the cache.
        notices: caveats for the user, each a sentence without trailing newline (the cache could not be
            written, …); each distinct notice once.
    """

    lookups: int = 0
    cached: int = 0
    notices: list[str] = field(default_factory=list)

    def notice(self, message: str) -> None:
        """Add ``message`` unless it is already there."""
        if message not in self.notices:
            self.notices.append(message)


def lookup_remotes(
    requests: Mapping[str, str],
    options: LookupOptions,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, LookupResult], LookupStats]:
    """Find the branches and tags of every requested remote.

    Each URL is checked with :func:`ascend_reflint.remote.unsafe_reason` first (an unsafe one never
    reaches git), then the cache is consulted, then one ``git ls-remote --heads --tags`` runs per
    remote still unanswered, at most ``options.jobs`` at once.

    Args:
        requests: normalised remote (``"github.com/nvidia/megatron-lm"``) → the URL to ask, as the file
            wrote it after variable resolution. Credentials in the URL are used by git but never cached
            or shown.
        options: concurrency, timeout and cache settings.
        progress: called with the remote, in the calling thread, as each remote is answered (from the
            cache, the network, or a failure).

    Returns:
        (remote → :class:`~ascend_reflint.model.RemoteRefs` or
        :class:`~ascend_reflint.model.LookupFailure`, in the order of ``requests``; statistics).
        A remote's failure is a value, never an exception.

    Raises:
        Only what ``progress`` raises, and KeyboardInterrupt; either way every git still running is
        killed first.
    """
    stats = LookupStats()
    cache = RefCache(options.cache_dir or default_cache_dir())
    results: dict[str, LookupResult] = {}
    pending: dict[str, str] = {}
    for remote, url in requests.items():
        answer = _answer_locally(remote, url, cache, options, stats)
        if answer is None:
            pending[remote] = url
            continue
        results[remote] = answer
        if progress is not None:
            progress(remote)
    if pending:
        results.update(_look_up_over_network(pending, cache, options, stats, progress))
    return {remote: results[remote] for remote in requests}, stats


def _answer_locally(
    remote: str, url: str, cache: RefCache, options: LookupOptions, stats: LookupStats
) -> LookupResult | None:
    """The answer that needs no network (unsafe URL, cache, offline), or None when git must be asked."""
    reason = unsafe_reason(url)
    if reason is not None:
        return LookupFailure(remote=remote, kind=FailureKind.UNSAFE, detail=clean_detail(reason))
    if options.offline or not options.refresh:
        cached = cache.load(remote, max_age=None if options.offline else options.cache_ttl)
        if cached is not None:
            stats.cached += 1
            return cached
    if options.offline:
        return LookupFailure(
            remote=remote, kind=FailureKind.OFFLINE, detail="unknown (offline): not in the cache"
        )
    return None


def _look_up_over_network(
    pending: Mapping[str, str],
    cache: RefCache,
    options: LookupOptions,
    stats: LookupStats,
    progress: Callable[[str], None] | None,
) -> dict[str, LookupResult]:
    """Run one ``git ls-remote`` per pending remote, at most ``options.jobs`` at once; cache the answers."""
    from ascend_reflint.lookup.git import git_directory

    with git_directory() as directory:
        runner = start_runner(options.timeout, directory)
        if isinstance(runner, str):
            return {remote: LookupFailure(remote, FailureKind.OTHER, runner) for remote in pending}
        return _run_lookups(runner, pending, cache, options, stats, progress)


def _run_lookups(
    runner: GitRunner,
    pending: Mapping[str, str],
    cache: RefCache,
    options: LookupOptions,
    stats: LookupStats,
    progress: Callable[[str], None] | None,
) -> dict[str, LookupResult]:
    """Ask every pending remote with ``runner``, at most ``options.jobs`` at once."""
    from concurrent.futures import ThreadPoolExecutor, as_completed  # imports logging: only when needed

    results: dict[str, LookupResult] = {}
    pool = ThreadPoolExecutor(
        max_workers=min(options.jobs, len(pending)), thread_name_prefix="reflint-lookup"
    )
    try:
        futures: dict[Future[tuple[LookupResult, str | None]], str] = {
            pool.submit(_look_up_one, runner, cache, remote, url, options.timeout): remote
            for remote, url in pending.items()
        }
        for future in as_completed(futures):
            remote = futures[future]
            result, notice = future.result()
            results[remote] = result
            stats.lookups += 1
            if notice is not None:
                stats.notice(notice)
            if progress is not None:
                progress(remote)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        runner.kill_all()
        raise
    pool.shutdown()
    return results


def start_runner(timeout: float, directory: str) -> GitRunner | str:
    """A runner with the non-interactive environment, in ``directory``, or why git cannot be run at all."""
    try:
        from ascend_reflint.lookup.git import GitRunner, configured_ssh_command, noninteractive_env

        env = noninteractive_env(os.environ, configured_ssh_command(directory))
    except (ImportError, OSError) as error:
        # GitPython raises ImportError when it cannot run ``git version`` (git missing or broken).
        return clean_detail(f"git cannot be run: {error}".splitlines()[0])
    return GitRunner(env, timeout, directory)


def _look_up_one(
    runner: GitRunner, cache: RefCache, remote: str, url: str, timeout: float
) -> tuple[LookupResult, str | None]:
    """Ask one remote; returns its result and a notice when its answer could not be cached."""
    from ascend_reflint.lookup.git import parse_ls_remote

    try:
        run = runner.ls_remote(url)
    except (ImportError, OSError) as error:
        return LookupFailure(remote, FailureKind.OTHER, clean_detail(f"git cannot be run: {error}")), None
    if run.timed_out:
        return timeout_failure(remote, timeout), None
    if run.returncode != 0:
        return classify_failure(remote, run.returncode, run.stderr), None
    refs = parse_ls_remote(remote, run.stdout, fetched_at=time.time())
    return refs, cache.store(refs)
