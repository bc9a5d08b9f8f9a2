"""The disk cache: time to live, --refresh, --offline, damaged entries, concurrent writers, no credentials."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gitfixtures import FakeRemotes, build_repo, set_env

from ascend_reflint.lookup import LookupOptions, lookup_remotes
from ascend_reflint.lookup.cache import RefCache, cache_key
from ascend_reflint.model import FailureKind, LookupFailure, RemoteRefs
from ascend_reflint.remote import lookup_key

from .support import GitCall, ls_remote_calls

URLS = (
    "https://github.com/NVIDIA/Megatron-LM.git",
    "https://github.com/vllm-project/vllm-ascend.git",
    "https://github.com/actions/checkout",
)
#: Lookup key → URL, as the engine asks.
REQUESTS = {lookup_key(url) or url: url for url in URLS}
CHECKOUT = "https://github.com/actions/checkout"  # its lookup key
CHECKOUT_REMOTE = "github.com/actions/checkout"
STALE_ID = "0" * 40
#: The fake repository (``tests/data/remotes``) that answers for each remote.
REPOSITORIES = {
    "github.com/nvidia/megatron-lm": "github.com/NVIDIA/Megatron-LM",
    "github.com/vllm-project/vllm-ascend": "github.com/vllm-project/vllm-ascend",
    "github.com/actions/checkout": "github.com/actions/checkout",
}


def _answer(result: object) -> tuple[object, ...]:
    """What a lookup result says, without the time it was fetched: (remote, branches, tags, head)."""
    assert isinstance(result, RemoteRefs), result
    return (result.remote, result.branches, result.tags, result.head)


def _real(remotes: FakeRemotes, remote: str) -> tuple[object, ...]:
    """What ``ls-remote`` of the fake repository behind ``remote`` says, as :func:`_answer` gives it."""
    repository = remotes[REPOSITORIES[remote]]
    return (remote, repository.branches, repository.tags, None)


def _all_real(remotes: FakeRemotes) -> dict[str, tuple[object, ...]]:
    """:func:`_real` for every lookup of REQUESTS, by lookup key."""
    return {key: _real(remotes, key.removeprefix("https://")) for key in REQUESTS}


def _key(lookup: str) -> str:
    """The cache key of a lookup made without credentials."""
    return cache_key(lookup, credentials=False)


def _stored(cache_dir: Path, lookup: str, fetched_at: float) -> RemoteRefs:
    """Store a made-up entry for the lookup key ``lookup`` (branch ``stale`` only) and return it."""
    refs = RemoteRefs(remote=CHECKOUT_REMOTE, branches={"stale": STALE_ID}, tags={}, fetched_at=fetched_at)
    assert RefCache(cache_dir).store(_key(lookup), refs) is None
    return refs


def test_second_call_is_answered_wholly_from_the_cache(
    git_env: FakeRemotes, cache_dir: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    first, first_stats = lookup_remotes(REQUESTS, LookupOptions(cache_dir=cache_dir))
    completed: list[str] = []

    second, second_stats = lookup_remotes(
        REQUESTS, LookupOptions(cache_dir=cache_dir), progress=completed.append
    )

    assert second == first
    assert {key: _answer(result) for key, result in second.items()} == _all_real(git_env)
    assert (first_stats.lookups, first_stats.cached) == (3, 0)
    assert (second_stats.lookups, second_stats.cached) == (0, 3)
    assert sorted(call.argv[-1] for call in ls_remote_calls(git_calls())) == sorted(URLS)
    assert completed == list(REQUESTS)


def test_offline_with_an_empty_cache_gives_offline_failures(
    cache_dir: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    results, stats = lookup_remotes(
        {CHECKOUT: REQUESTS[CHECKOUT]}, LookupOptions(cache_dir=cache_dir, offline=True)
    )

    assert results == {
        CHECKOUT: LookupFailure(CHECKOUT_REMOTE, FailureKind.OFFLINE, "unknown (offline): not in the cache")
    }
    assert (stats.lookups, stats.cached) == (0, 0)
    assert git_calls() == []


def test_offline_uses_an_entry_of_any_age_even_with_refresh(cache_dir: Path) -> None:
    stored = _stored(cache_dir, CHECKOUT, fetched_at=time.time() - 30 * 86400)

    results, stats = lookup_remotes(
        {CHECKOUT: REQUESTS[CHECKOUT]}, LookupOptions(cache_dir=cache_dir, offline=True, refresh=True)
    )

    assert results == {CHECKOUT: stored}
    assert (stats.lookups, stats.cached) == (0, 1)


@pytest.mark.parametrize(("age", "from_cache"), [(60.0, True), (7200.0, False), (-600.0, False)])
def test_an_entry_is_used_only_within_its_time_to_live(
    git_env: FakeRemotes, cache_dir: Path, age: float, from_cache: bool
) -> None:
    stored = _stored(cache_dir, CHECKOUT, fetched_at=time.time() - age)

    results, stats = lookup_remotes(
        {CHECKOUT: REQUESTS[CHECKOUT]}, LookupOptions(cache_dir=cache_dir, cache_ttl=3600)
    )

    if from_cache:
        assert results[CHECKOUT] == stored
        assert (stats.lookups, stats.cached) == (0, 1)
    else:
        fresh = results[CHECKOUT]
        assert _answer(fresh) == _real(git_env, CHECKOUT_REMOTE)
        assert RefCache(cache_dir).load(_key(CHECKOUT), max_age=None) == fresh
        assert (stats.lookups, stats.cached) == (1, 0)


def test_refresh_asks_the_remote_again_and_rewrites_the_entry(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "mirror" / "own.git"
    own = build_repo(repo, [("a" * 40, "refs/heads/main")])
    set_env(
        monkeypatch,
        {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": f"url.{repo}.insteadOf",
            "GIT_CONFIG_VALUE_0": "https://example.com/own/repo",
        },
    )
    requests = {"https://example.com/own/repo": "https://example.com/own/repo"}
    lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))
    subprocess.run(
        ["git", "-C", str(repo), "update-ref", "refs/heads/release", own.branches["main"]], check=True
    )

    cached, cached_stats = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))
    refreshed, refreshed_stats = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir, refresh=True))

    main = own.branches["main"]
    key = "https://example.com/own/repo"
    assert _answer(cached[key]) == ("example.com/own/repo", {"main": main}, {}, None)
    assert _answer(refreshed[key]) == ("example.com/own/repo", {"main": main, "release": main}, {}, None)
    assert (cached_stats.cached, refreshed_stats.lookups) == (1, 1)
    assert RefCache(cache_dir).load(_key(key), max_age=None) == refreshed[key]


def _entry(**changes: object) -> bytes:
    """A cache entry for actions/checkout, valid unless ``changes`` spoil it."""
    entry = {
        "format": 2,
        "key": _key(CHECKOUT),
        "remote": CHECKOUT_REMOTE,
        "fetched_at": time.time(),
        "head": None,
        "branches": {},
        "tags": {},
    }
    return json.dumps({**entry, **changes}).encode()


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"{", id="truncated"),
        pytest.param(b"not json at all", id="text"),
        pytest.param(b"\xff\xfe\x00garbage", id="binary"),
        pytest.param(b"[]", id="list"),
        pytest.param(_entry(key=_key("https://github.com/someone/else")), id="other-key"),
        pytest.param(_entry(key=cache_key(CHECKOUT, credentials=True)), id="other-credentials"),
        pytest.param(_entry(remote=None), id="no-remote"),
        pytest.param(_entry(format=999), id="other-format"),
        pytest.param(_entry(fetched_at="x"), id="bad-time"),
        pytest.param(_entry(head=7), id="bad-head"),
        pytest.param(_entry(branches={"a": 1}), id="bad-id"),
        pytest.param(_entry(tags=["v1"]), id="bad-tags"),
    ],
)
def test_damaged_entry_is_ignored_and_rewritten(
    git_env: FakeRemotes, cache_dir: Path, content: bytes
) -> None:
    path = RefCache(cache_dir).entry_path(_key(CHECKOUT))
    path.parent.mkdir(parents=True)
    path.write_bytes(content)

    results, stats = lookup_remotes({CHECKOUT: REQUESTS[CHECKOUT]}, LookupOptions(cache_dir=cache_dir))

    assert (stats.lookups, stats.cached) == (1, 0)
    assert _answer(results[CHECKOUT]) == _real(git_env, CHECKOUT_REMOTE)
    assert RefCache(cache_dir).load(_key(CHECKOUT), max_age=3600) == results[CHECKOUT]


def test_half_written_entry_is_ignored(cache_dir: Path) -> None:
    cache = RefCache(cache_dir)
    refs = _stored(cache_dir, CHECKOUT, fetched_at=time.time())
    assert cache.load(_key(CHECKOUT), max_age=None) == refs
    path = cache.entry_path(_key(CHECKOUT))

    path.write_bytes(path.read_bytes()[:-5])

    assert cache.load(_key(CHECKOUT), max_age=None) is None


def test_a_failed_lookup_is_not_kept_as_a_ref_list(git_env: FakeRemotes, cache_dir: Path) -> None:
    """A failure is kept a few minutes, apart from ref lists (see ``test_failure_cache.py``)."""
    key = "https://github.com/nvidia/no-such-repo"
    requests = {key: "https://github.com/NVIDIA/no-such-repo"}

    lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))
    _, stats = lookup_remotes(requests, LookupOptions(cache_dir=cache_dir))

    assert not (cache_dir / "remotes").exists()
    assert not RefCache(cache_dir).entry_path(_key(key)).exists()
    assert (stats.lookups, stats.cached, stats.cached_failures) == (0, 0, 1)


def test_unwritable_cache_dir_still_answers_and_says_so_once(git_env: FakeRemotes, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    cache_dir = tmp_path / "a-file" / "cache"

    results, stats = lookup_remotes(REQUESTS, LookupOptions(cache_dir=cache_dir))

    assert {key: _answer(result) for key, result in results.items()} == _all_real(git_env)
    assert stats.notices == [f"cannot write the ref cache in {cache_dir}: Not a directory"]
    assert stats.lookups == 3


def test_entry_holds_no_credentials_and_is_named_by_the_masked_key_hash(
    git_env: FakeRemotes, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_env.root.resolve() / "github.com"
    set_env(monkeypatch, git_env.env(extra=[(f"url.{root}/.insteadOf", "https://alice:tok3n@github.com/")]))
    url = "https://alice:tok3n@github.com/NVIDIA/Megatron-LM.git"
    key = lookup_key(url)
    assert key == "https://alice:tok3n@github.com/nvidia/megatron-lm"

    results, _ = lookup_remotes({key: url}, LookupOptions(cache_dir=cache_dir))

    assert _answer(results[key]) == _real(git_env, "github.com/nvidia/megatron-lm")
    (entry,) = (cache_dir / "remotes").iterdir()
    masked = "https://alice:***@github.com/nvidia/megatron-lm anonymous"
    assert entry.name == hashlib.sha256(masked.encode()).hexdigest() + ".json"
    text = entry.read_text(encoding="utf-8")
    assert "tok3n" not in text
    megatron = git_env["github.com/NVIDIA/Megatron-LM"]
    assert json.loads(text) == {
        "format": 2,
        "key": masked,
        "remote": "github.com/nvidia/megatron-lm",
        "fetched_at": results[key].fetched_at,
        "head": None,
        "branches": megatron.branches,
        "tags": megatron.tags,
    }


_WRITER = """
import sys
from pathlib import Path
from typing import Any
from ascend_reflint.lookup.cache import RefCache
from ascend_reflint.model import RemoteRefs

cache, writer = RefCache(Path(sys.argv[1])), sys.argv[2]
tags = {f"v{n}": writer * 40 for n in range(3000)}
for round in range(40):
    for remote in ("github.com/a/one", "github.com/a/two", "github.com/a/three"):
        refs = RemoteRefs(remote, {"main": writer * 40}, tags, fetched_at=float(round))
        problem = cache.store(remote, refs)
        assert problem is None, problem
        assert cache.load(remote, max_age=None) is not None
"""


def test_two_processes_writing_one_cache_leave_valid_entries(cache_dir: Path) -> None:
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(cache_dir), writer], stderr=subprocess.PIPE, text=True
        )
        for writer in ("a", "b")
    ]
    errors = [writer.communicate()[1] for writer in writers]

    assert [writer.returncode for writer in writers] == [0, 0], errors
    cache = RefCache(cache_dir)
    for remote in ("github.com/a/one", "github.com/a/two", "github.com/a/three"):
        refs = cache.load(remote, max_age=None)
        assert refs is not None
        writer = refs.branches["main"][0]
        assert writer in "ab"
        assert refs.tags == {f"v{n}": writer * 40 for n in range(3000)}
        assert refs.fetched_at == 39.0
    # No temporary file is left behind: the three entries only.
    assert sorted((cache_dir / "remotes").iterdir()) == sorted(
        cache.entry_path(remote) for remote in ("github.com/a/one", "github.com/a/two", "github.com/a/three")
    )


def test_a_remote_with_100000_refs_round_trips(cache_dir: Path) -> None:
    tags = {f"v{n}": f"{n:040x}" for n in range(100_000)}
    refs = RemoteRefs("github.com/big/repo", {"main": "f" * 40}, tags, head="f" * 40, fetched_at=time.time())

    assert RefCache(cache_dir).store("https://github.com/big/repo anonymous", refs) is None

    assert RefCache(cache_dir).load("https://github.com/big/repo anonymous", max_age=3600) == refs


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jobs": 0}, "jobs must be at least 1, not 0"),
        ({"timeout": 0}, "timeout must be more than 0 seconds, not 0"),
        ({"cache_ttl": -1}, "cache_ttl must not be negative, not -1"),
    ],
)
def test_invalid_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        LookupOptions(**options)
