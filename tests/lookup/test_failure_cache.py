"""Failed lookups cached briefly: "no such repository" for minutes, "unreachable" for one; never past
``--refresh``, a change of the user's ``insteadOf`` rewrites, or a change of the credential policy; and
every URL asked in one wave of lookups by default."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, build_repo, set_env

from ascend_reflint.lookup import LookupOptions, lookup_remotes
from ascend_reflint.lookup.cache import FAILURE_TTL, FailureCache, cache_key
from ascend_reflint.model import FailureKind, LookupFailure, RemoteRefs

from .support import GitCall, ls_remote_calls

MISSING = {"https://github.com/nvidia/no-such-repo": "https://github.com/NVIDIA/no-such-repo.git"}


def _age_entry(cache_dir: Path, key: str, seconds: float, credentials: bool = False) -> None:
    """Make the cached failure of lookup key ``key`` ``seconds`` old."""
    path = FailureCache(cache_dir).entry_path(cache_key(key, credentials))
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["failed_at"] = time.time() - seconds
    path.write_text(json.dumps(entry), encoding="utf-8")


def test_a_missing_repository_is_not_asked_again_for_minutes(
    git_env: FakeRemotes, cache_dir: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    first, first_stats = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))
    second, second_stats = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))

    # The test's remotes are mirrors (insteadOf): the one asked has no copy.
    missing = git_env.root.resolve() / "github.com/NVIDIA/no-such-repo.git"
    failure = LookupFailure("github.com/nvidia/no-such-repo", FailureKind.NOT_IN_MIRROR, str(missing))
    assert first == second == {"https://github.com/nvidia/no-such-repo": failure}
    stats = [(s.lookups, s.cached, s.cached_failures) for s in (first_stats, second_stats)]
    assert stats == [(1, 0, 0), (0, 0, 1)]
    assert len(ls_remote_calls(git_calls())) == 1


def test_refresh_asks_again_despite_a_cached_failure(git_env: FakeRemotes, cache_dir: Path) -> None:
    lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))
    _, stats = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir, refresh=True))
    assert (stats.lookups, stats.cached_failures) == (1, 0)


@pytest.mark.parametrize(
    ("kind", "age", "from_cache"),
    [
        (FailureKind.NOT_IN_MIRROR, 200.0, True),
        (FailureKind.NOT_IN_MIRROR, 400.0, False),
        (FailureKind.UNREACHABLE, 30.0, True),
        (FailureKind.UNREACHABLE, 90.0, False),
        (FailureKind.UNREACHABLE, -30.0, False),  # from the future: the clock went back
    ],
)
def test_a_cached_failure_lives_minutes_or_less_by_its_kind(
    git_env: FakeRemotes, cache_dir: Path, closed_port: int, kind: FailureKind, age: float, from_cache: bool
) -> None:
    url = f"https://127.0.0.1:{closed_port}/x.git"
    requests = MISSING if kind is FailureKind.NOT_IN_MIRROR else {f"https://127.0.0.1:{closed_port}/x": url}
    key = next(iter(requests))
    first, _ = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))
    assert isinstance(first[key], LookupFailure) and first[key].kind is kind
    _age_entry(cache_dir, key, age)

    _, stats = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))

    assert (stats.lookups, stats.cached_failures) == ((0, 1) if from_cache else (1, 0))


def test_the_failure_ttls_are_minutes_and_one_minute() -> None:
    assert FAILURE_TTL == {
        FailureKind.NOT_FOUND: 300.0,
        FailureKind.NOT_FOUND_OR_PRIVATE: 300.0,
        FailureKind.AUTH_REQUIRED: 300.0,
        FailureKind.NOT_IN_MIRROR: 300.0,
        FailureKind.NOT_IN_MIRROR_OR_PRIVATE: 300.0,
        FailureKind.UNREACHABLE: 60.0,
        FailureKind.TIMEOUT: 60.0,
    }


def test_a_shorter_cache_ttl_shortens_a_cached_failure_too(git_env: FakeRemotes, cache_dir: Path) -> None:
    lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))
    _age_entry(cache_dir, next(iter(MISSING)), 20.0)
    _, stats = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir, cache_ttl=10.0))
    assert stats.lookups == 1


def test_a_new_insteadof_rewrite_asks_again(
    git_env: FakeRemotes, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The URL as looked up is the rewritten one: a mirror that the user adds has the repository."""
    lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))
    mirror = build_repo(tmp_path / "mirror" / "no-such-repo.git", [("a" * 40, "refs/heads/main")])
    rewrite = (f"url.{mirror.path}.insteadOf", "https://github.com/NVIDIA/no-such-repo.git")
    set_env(monkeypatch, git_env.env([rewrite]))

    results, stats = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))

    assert isinstance(results["https://github.com/nvidia/no-such-repo"], RemoteRefs)
    assert (stats.lookups, stats.cached_failures) == (1, 0)


def test_another_credential_policy_asks_again(git_env: FakeRemotes, cache_dir: Path) -> None:
    lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))
    options = LookupOptions(cache_dir=cache_dir, credentials_for=frozenset({"github.com"}))
    _, stats = lookup_remotes(MISSING, options)
    assert (stats.lookups, stats.cached_failures) == (1, 0)


def test_offline_answers_from_a_fresh_failure_only(git_env: FakeRemotes, cache_dir: Path) -> None:
    key = next(iter(MISSING))
    first, _ = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir))
    fresh, stats = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir, offline=True))
    assert (fresh, stats.cached_failures) == (first, 1)
    _age_entry(cache_dir, key, 400.0)
    stale, _ = lookup_remotes(MISSING, LookupOptions(cache_dir=cache_dir, offline=True))
    assert stale == {
        key: LookupFailure(first[key].remote, FailureKind.OFFLINE, "unknown (offline): not in the cache")
    }


def test_a_failure_that_depends_on_the_run_is_not_cached(git_env: FakeRemotes, cache_dir: Path) -> None:
    requests = {"https://github.com/nvidia/megatron-lm": "https://github.com/NVIDIA/Megatron-LM.git"}
    first, _ = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir, max_refs=3))
    assert [result.kind for result in first.values() if isinstance(result, LookupFailure)] == [
        FailureKind.TOO_LARGE
    ]
    second, stats = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))
    assert isinstance(second["https://github.com/nvidia/megatron-lm"], RemoteRefs)
    assert (stats.lookups, stats.cached_failures) == (1, 0)
    assert not (cache_dir / "lookup-failures").exists()


#: A stand-in for git whose ``ls-remote`` waits until every lookup of the test is running at once, then
#: answers with one branch; after 20 s without them all it fails: lookups in several waves fail.
_BARRIER_GIT = """#!{python}
import os, sys, time
if sys.argv[1:2] != ["ls-remote"]:
    os.execv({git!r}, [{git!r}, *sys.argv[1:]])
folder = {folder!r}
open(os.path.join(folder, str(os.getpid())), "w").close()
ends = time.monotonic() + 20
while len(os.listdir(folder)) < {count}:
    if time.monotonic() > ends:
        sys.exit("fatal: not every lookup ran at once")
    time.sleep(0.02)
sys.stdout.write("{commit}\\trefs/heads/main\\n")
"""


def test_every_url_is_asked_in_one_wave_by_default(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    count = 40  # more than the 32 that --jobs used to default to
    folder = tmp_path / "running"
    folder.mkdir()
    wrapper = tmp_path / "barrier-git"
    real_git = shutil.which("git")
    wrapper.write_text(
        _BARRIER_GIT.format(
            python=sys.executable, git=real_git, folder=str(folder), count=count, commit="c" * 40
        )
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("GIT_PYTHON_GIT_EXECUTABLE", str(wrapper))
    requests = {
        f"https://example.invalid/o/r{n}": f"https://example.invalid/o/r{n}.git" for n in range(count)
    }

    results, stats = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir, timeout=60.0))

    assert [type(result).__name__ for result in results.values()] == ["RemoteRefs"] * count
    assert (stats.lookups, len(os.listdir(folder))) == (count, count)
