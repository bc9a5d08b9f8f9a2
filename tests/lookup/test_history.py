"""The commit verification stage (lookup/history.py, lookup/graph.py) below the CLI: which git runs, what the
cache holds, and how the cache defends itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import insteadof_env, set_env
from historyfixtures import REMOTE, URL, History, build_history, git, write_commit

from ascend_reflint.lookup import LookupOptions, lookup_remotes
from ascend_reflint.lookup import graph as graph_module
from ascend_reflint.lookup.git import GitRunner, git_directory
from ascend_reflint.lookup.graph import CommitGraph, repository_config
from ascend_reflint.lookup.history import CommitRequest, HistoryOptions, verify_commits
from ascend_reflint.model import CommitState, RemoteRefs
from ascend_reflint.remote import lookup_key

from .support import GitCall

KEY = lookup_key(URL)


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> History:
    built = build_history(tmp_path / "remotes")
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    return built


def verify(history: History, cache: Path, *commits: str, **options: object):  # type: ignore[no-untyped-def]
    results, _ = lookup_remotes({KEY: URL}, LookupOptions(cache_dir=cache))
    refs = results[KEY]
    assert isinstance(refs, RemoteRefs)
    request = CommitRequest(remote=REMOTE, url=URL, refs=refs, commits=commits)
    return verify_commits({KEY: request}, HistoryOptions(cache_dir=cache, **options))  # type: ignore[arg-type]


def test_git_in_the_graph_never_reaches_a_transport_but_to_fetch(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    verdicts, stats = verify(history, tmp_path / "cache", history.work, history.orphan, history.missing)
    assert {key[1]: verdict.state for key, verdict in verdicts.items()} == {
        history.work: CommitState.IN_HISTORY,
        history.orphan: CommitState.NOT_IN_HISTORY,
        history.missing: CommitState.ABSENT,
    }
    assert (stats.fetched, stats.cached) == (1, 0)
    graph = CommitGraph(tmp_path / "cache", KEY, REMOTE)
    in_graph = [call for call in git_calls() if call.argv[:2] == ("--git-dir", str(graph.repo))]
    assert all(call.session_leader for call in in_graph)  # so that a timeout kills its whole group
    calls = [call.argv for call in in_graph]
    commands = [argv[argv.index("fetch")] if "fetch" in argv else argv[4] for argv in calls]
    # the history with the full ids by id, which the server refuses over the one it does not have; again
    # without it; the ids; their commits; which are outside the history; the nearest tags
    assert commands == ["fetch", "fetch", "rev-parse", "cat-file", "rev-list", "describe"]
    assert calls[0][-3:] == tuple(sorted((history.work, history.orphan, history.missing)))
    assert calls[1][-2:] == tuple(sorted((history.work, history.orphan)))
    for argv in calls:
        if "fetch" in argv:
            assert argv[2:4] == ("-c", f"remote.reflint.url={URL}")
            assert "--filter=tree:0" in argv and "--no-tags" in argv
        else:
            assert argv[2:4] == ("-c", "protocol.allow=never")
    # the URL is given on each fetch, never written: the config is byte for byte the one reflint wrote
    assert (graph.repo / "config").read_bytes() == repository_config("sha1")
    assert not (graph.repo / "hooks").exists()


def test_a_second_run_runs_no_git_and_a_refresh_fetches_again(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    first, _ = verify(history, tmp_path / "cache", history.work, history.twin_prefix)
    count = len(git_calls())
    second, stats = verify(history, tmp_path / "cache", history.work, history.twin_prefix)
    assert second == first
    assert (stats.fetched, stats.cached) == (0, 1)
    assert [call.argv[0] for call in git_calls()[count:]] == []  # the ref list is cached too
    _, stats = verify(history, tmp_path / "cache", history.work, refresh=True)
    assert (stats.fetched, stats.cached) == (1, 0)


def test_ambiguous_verdict_names_both_commits(history: History, tmp_path: Path) -> None:
    verdicts, _ = verify(history, tmp_path / "cache", history.twin_prefix)
    (verdict,) = verdicts.values()
    assert verdict.state is CommitState.AMBIGUOUS
    assert verdict.candidates == (
        (history.twin_a, "v1.0-3-g62a4dc25"),
        (history.twin_b, "v1.0-3-g62a4dc2c"),
    )


@pytest.mark.parametrize("damage", ["garbage", "oversized", "symlink to /dev/zero", "another remote"])
def test_a_damaged_state_file_is_ignored_and_rewritten(history: History, tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    verify(history, cache, history.work)
    state = CommitGraph(cache, KEY, REMOTE).state_path
    if damage == "garbage":
        state.write_bytes(b"[[[[" * 10_000)
    elif damage == "oversized":
        state.write_bytes(b" " * (4 * 1024 * 1024 + 1))
    elif damage == "symlink to /dev/zero":
        state.unlink()
        state.symlink_to("/dev/zero")
    else:
        state.write_text(state.read_text().replace(REMOTE, "github.com/acme/other"))
    verdicts, stats = verify(history, cache, history.work)
    assert [v.state for v in verdicts.values()] == [CommitState.IN_HISTORY]
    assert stats.fetched == 1
    assert not state.is_symlink()
    assert CommitGraph(cache, KEY, REMOTE).load_state() is not None


def test_a_graph_with_hooks_or_alternates_is_not_run(history: History, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    verify(history, cache, history.work)
    graph = CommitGraph(cache, KEY, REMOTE)
    (graph.repo / "objects" / "info" / "alternates").write_text("/elsewhere/objects\n")
    verdicts, _ = verify(history, cache, history.missing)
    (verdict,) = verdicts.values()
    assert verdict.state is CommitState.UNVERIFIED
    assert verdict.detail == (
        f"its cached history is not as reflint left it ({graph.repo}/objects/info/alternates was not made by "
        f"reflint): delete {graph.folder}"
    )


def test_a_lock_file_that_is_a_link_is_refused(history: History, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    graph = CommitGraph(cache, KEY, REMOTE)
    graph.folder.mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    graph.lock_path.symlink_to(victim)
    verdicts, _ = verify(history, cache, history.work)
    assert [v.detail for v in verdicts.values()] == [f"{graph.lock_path} is not a file reflint made"]
    assert victim.read_text() == "keep me"


def test_a_watch_stops_git_and_its_process_group(tmp_path: Path) -> None:
    with git_directory() as directory:
        runner = GitRunner({}, 30.0, directory)
        started = time.monotonic()
        # an alias that runs a shell: git starts it as a child, in git's process group
        run = runner.run(
            ["-c", "alias.wait=!sleep 30", "wait"],
            watch=lambda: "stopped" if time.monotonic() - started > 0.3 else None,
        )
    assert (run.stopped, run.timed_out) == ("stopped", False)
    assert time.monotonic() - started < 5


def test_two_processes_on_one_cache_agree(history: History, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    project = tmp_path / "project"
    project.mkdir()
    (project / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n"
        f"RUN git clone {URL} /e && cd /e && git checkout {history.orphan}\n"
        f"RUN git clone {URL} /f && cd /f && git checkout {history.work[:9]}\n"
    )
    command = [sys.executable, "-m", "ascend_reflint", "scan", "--format", "json", "--cache-dir", str(cache)]
    env = {**os.environ}
    runs = [
        subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=60) for run in runs]
    assert [run.returncode for run in runs] == [1, 1]
    first, second = (json.loads(out)["findings"] for out, _ in outputs)  # the summaries' counts may differ
    assert first == second
    assert [finding["code"] for finding in first] == ["RL025"]
    assert CommitGraph(cache, KEY, REMOTE).load_state() is not None


def test_many_absent_ids_cost_two_tries_then_one_parallel_round(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    absent = ["0badc0de" * 5, "1badc0de" * 5, "2badc0de" * 5]
    verdicts, _ = verify(history, tmp_path / "cache", history.orphan, *absent)
    assert {commit: v.state for (_, commit), v in verdicts.items()} == {
        history.orphan: CommitState.NOT_IN_HISTORY,
        **{commit: CommitState.ABSENT for commit in absent},
    }
    graph = CommitGraph(tmp_path / "cache", KEY, REMOTE)
    fetches = [call.argv for call in git_calls() if call.argv[:2] == ("--git-dir", str(graph.repo))]
    fetches = [argv[argv.index("--filter=tree:0") + 1 :] for argv in fetches if "fetch" in argv]
    refspecs = ("--prune", "reflint", "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
    orphan, first, second, third = history.orphan, *absent
    assert fetches[:3] == [
        (*refspecs, orphan, first, second, third),  # the server names the first it does not have
        (*refspecs, orphan, second, third),  # then the second
        refspecs,  # the history alone
    ]
    assert sorted(fetches[3:]) == [("reflint", orphan), ("reflint", third)]  # one by one, at once


def test_a_graph_that_fetches_left_many_packs_is_packed_into_one(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(graph_module, "MAX_PACKS", 1)
    cache = tmp_path / "cache"
    verify(history, cache, history.work)
    newer = write_commit(history.path, history.main_tip, "newer")
    git("-C", str(history.path), "update-ref", "refs/heads/main", newer)
    verdicts, stats = verify(history, cache, history.work, newer[:9], refresh=True)
    assert [v.state for v in verdicts.values()] == [CommitState.IN_HISTORY] * 2
    assert stats.fetched == 1
    graph = CommitGraph(cache, KEY, REMOTE)
    assert len(list((graph.repo / "objects" / "pack").glob("*.pack"))) == 1
    assert (graph.repo / "config").read_bytes() == repository_config("sha1")


def test_git_that_writes_endless_messages_is_stopped(tmp_path: Path) -> None:
    with git_directory() as directory:
        runner = GitRunner({**os.environ}, 30.0, directory)
        started = time.monotonic()
        run = runner.run(["-c", "alias.noisy=!yes remote: hello >&2", "noisy"])
    assert run.stopped == "git wrote more than 1 MiB of messages"
    assert len(run.stderr) == 1024 * 1024
    assert time.monotonic() - started < 10
