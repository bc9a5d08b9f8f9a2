"""Commit verification through ``reflint scan`` and ``reflint refs``: every verdict, against a local bare
repository with real history (``historyfixtures``) reached from its real URL through ``insteadOf``."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest
from gitfixtures import insteadof_env, set_env
from historyfixtures import REMOTE, History, build_history, git, write_commit

import ascend_reflint.lookup.history
from ascend_reflint.cli import main

CLONE = "RUN git clone https://github.com/acme/engine.git /opt/{dir} && cd /opt/{dir} && git checkout {ref}\n"
PIP = 'RUN pip install "git+https://github.com/acme/engine.git@{ref}"\n'
#: The column where the ref of a CLONE line starts (the same for every {dir} of two letters).
CLONE_COLUMN = CLONE.format(dir="e1", ref="{ref}").index("{ref}") + 1
PIP_COLUMN = PIP.index("{ref}") + 1


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> History:
    """The stand-in repository, with https://github.com/ pointed at it, for this test."""
    built = build_history(tmp_path / "remotes")
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    return built


@pytest.fixture
def project(tmp_path: Path, history: History, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Dockerfile pinning one commit of each verdict (line 2 onwards)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n"
        + CLONE.format(dir="e1", ref=history.work[:10])  # in the history, abbreviated
        + PIP.format(ref=history.release)  # the commit the tag v1.0 names
        + CLONE.format(dir="e2", ref=history.orphan)  # only a deleted branch had it
        + PIP.format(ref=history.missing)  # no such commit
        + CLONE.format(dir="e3", ref=history.twin_prefix)  # two commits start with it
        + CLONE.format(dir="e4", ref="deadbee")  # no commit starts with it
    )
    monkeypatch.chdir(root)
    return root


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["scan", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def brief(document: dict) -> list[tuple[str, int, int, str]]:  # type: ignore[type-arg]
    return [(f["code"], f["line"], f["column"], f["message"]) for f in document["findings"]]


def expected_findings(history: History) -> list[tuple[str, int, int, str]]:
    return [
        (
            "RL025",
            4,
            CLONE_COLUMN,
            f'commit "{history.orphan}" is not in the history of {REMOTE}: no branch or tag contains it, '
            "though the server hands it out by id (it descends from v1.0-1-g03b7197); a clone does not fetch "
            "it, so `git checkout` fails (unless the recipe fetches it by id); pin a commit that one of its "
            "branches or tags contains",
        ),
        (
            "RL001",
            5,
            PIP_COLUMN,
            f'commit "{history.missing}" is not in {REMOTE}: no branch or tag of it contains the commit, and '
            "the server does not have it, so pip fails",
        ),
        (
            "RL026",
            6,
            CLONE_COLUMN,
            f'commit id "62a4dc2" is ambiguous in {REMOTE}: 2 commits of its history start with it '
            "(62a4dc2571f2 (v1.0-3-g62a4dc25), 62a4dc2ca95e (v1.0-3-g62a4dc2c)), so `git checkout` refuses "
            "it; write the full id",
        ),
        (
            "RL001",
            7,
            CLONE_COLUMN,
            f'commit "deadbee" is not in {REMOTE}: no commit of its branches and tags starts with it, so '
            "`git checkout` fails",
        ),
    ]


def test_each_commit_verdict_is_exact(project: Path, history: History, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # The ids are fixed (fixed identity and dates), so the describe names in the messages are too.
    assert (history.work[:10], history.twin_prefix) == ("09a084dcdc", "62a4dc2")
    code, document = scan(capsys, "--cache-dir", str(tmp_path / "cache"))
    assert code == 1
    assert brief(document) == expected_findings(history)
    assert document["summary"] == {
        "files": 1,
        "pins": 6,
        "remotes": 1,
        "lookups": 1,
        "cached": 0,
        "cached_failures": 0,
        "checked": 1,
        "unchecked": 0,
        "unchecked_pins": 0,
        "findings": {"error": 4, "warning": 0, "info": 0},
        "fixable": {"now": 0, "with_unsafe_fixes": 0},
        "fixed": None,
    }


def test_a_relative_cache_dir_holds_the_history_too(project: Path, history: History, capsys) -> None:  # type: ignore[no-untyped-def]
    # git runs in a directory of its own: the graph's path must not be relative to the current one
    code, document = scan(capsys, "--cache-dir", "../cache")
    assert code == 1
    assert brief(document) == expected_findings(history)


def test_a_warm_scan_needs_neither_the_server_nor_git(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    cache = str(tmp_path / "cache")
    scan(capsys, "--cache-dir", cache)
    shutil.rmtree(history.path)  # the ref list and the verdicts are cached: nothing asks the server
    code, document = scan(capsys, "--cache-dir", cache)
    assert code == 1
    assert brief(document) == expected_findings(history)
    code, document = scan(capsys, "--cache-dir", cache, "--offline")
    assert brief(document) == expected_findings(history)


def test_refs_shows_the_nearest_tag_once_a_scan_has_verified_the_commit(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    cache = str(tmp_path / "cache")
    assert main(["refs", "--cache-dir", cache]) == 0
    before = capsys.readouterr().out.splitlines()
    assert before[0] == f"Dockerfile:2:{CLONE_COLUMN}: {REMOTE} 09a084dcdc (checkout)"
    assert main(["refs", "--cache-dir", cache, "--format", "json"]) == 0
    assert all("describe" not in pin for pin in json.loads(capsys.readouterr().out)["pins"])

    scan(capsys, "--cache-dir", cache)
    assert main(["refs", "--cache-dir", cache]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Dockerfile:2:{CLONE_COLUMN}: {REMOTE} 09a084dcdc (v1.0-1-g09a084d) (checkout)",
        f"Dockerfile:3:{PIP_COLUMN}: {REMOTE} {history.release} (v1.0) (pip-vcs)",
        f"Dockerfile:4:{CLONE_COLUMN}: {REMOTE} {history.orphan} (checkout)",
        f"Dockerfile:5:{PIP_COLUMN}: {REMOTE} {history.missing} (pip-vcs)",
        f"Dockerfile:6:{CLONE_COLUMN}: {REMOTE} 62a4dc2 (checkout)",
        f"Dockerfile:7:{CLONE_COLUMN}: {REMOTE} deadbee (checkout)",
    ]
    assert main(["refs", "--cache-dir", cache, "--format", "json"]) == 0
    pins = json.loads(capsys.readouterr().out)["pins"]
    assert [pin.get("describe") for pin in pins] == ["v1.0-1-g09a084d", "v1.0", None, None, None, None]
    assert list(pins[0])[-1] == "describe"


def test_offline_without_a_cached_history_says_why_each_commit_went_unverified(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    cache = str(tmp_path / "cache")
    scan(capsys, "--cache-dir", cache, "--no-verify-commits")  # caches the ref list, not the history
    code, document = scan(capsys, "--cache-dir", cache, "--offline")
    assert code == 0
    reason = "offline, and its history is not in the cache"
    assert brief(document) == [
        (
            "RL008",
            line,
            column,
            f'commit "{ref}" of {REMOTE} could not be verified against its history: {reason}',
        )
        for line, column, ref in (
            (2, CLONE_COLUMN, "09a084dcdc"),
            (3, PIP_COLUMN, history.release),
            (4, CLONE_COLUMN, history.orphan),
            (5, PIP_COLUMN, history.missing),
            (6, CLONE_COLUMN, "62a4dc2"),
            (7, CLONE_COLUMN, "deadbee"),
        )
    ]


@pytest.mark.parametrize("turned_off", ["option", "config"])
def test_verification_turned_off_leaves_only_tips_confirmed(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys, turned_off: str
) -> None:
    args = ["--cache-dir", str(tmp_path / "cache")]
    if turned_off == "option":
        args.append("--no-verify-commits")
    else:
        (project / ".reflint.yaml").write_text("verify-commits: false\n")
    code, document = scan(capsys, *args)
    assert code == 0
    reason = "commit verification is turned off"
    # line 3 pins the commit that tag v1.0 names: `git ls-remote` confirms it without any history
    assert [(f["code"], f["line"]) for f in document["findings"]] == [("RL008", n) for n in (2, 4, 5, 6, 7)]
    assert document["findings"][0]["message"] == (
        f'commit "09a084dcdc" of {REMOTE} could not be verified against its history: {reason}'
    )
    assert not (tmp_path / "cache" / "history").exists()


def test_a_config_value_for_verify_commits_must_be_a_boolean(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / ".reflint.yaml").write_text("verify-commits: nope\n")
    assert main(["scan"]) == 2
    assert (
        capsys.readouterr().err
        == "reflint: error: .reflint.yaml:1:1: verify-commits: expected true or false\n"
    )


def test_a_server_that_refuses_filters_sends_the_whole_history_within_the_cap(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = build_history(tmp_path / "remotes", name="plain", allow_filter=False)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n" + CLONE.replace("engine", "plain").format(dir="e1", ref=history.orphan)
    )
    code, document = scan(capsys, "--cache-dir", str(tmp_path / "cache"))
    assert [(f["code"], f["line"]) for f in document["findings"]] == [("RL025", 2)]
    assert capsys.readouterr().err == ""
    # A whole history that small costs about what a treeless one would: no notice then.
    assert main(["scan", "--cache-dir", str(tmp_path / "cache2")]) == 1
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(ascend_reflint.lookup.history, "WHOLE_HISTORY_NOTICE_BYTES", 1)
    assert main(["scan", "--cache-dir", str(tmp_path / "cache2b")]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(
        r"reflint: notice: github\.com/acme/plain does not allow partial clones, so its whole history "
        r"\(trees and files too, \d KiB\) was fetched to verify its pinned commits\n",
        err,
    )

    code, document = scan(capsys, "--cache-dir", str(tmp_path / "cache3"), "--max-history-size", "0.001")
    assert code == 0
    assert brief(document) == [
        (
            "RL008",
            2,
            CLONE_COLUMN - 1,  # "plain" is one letter shorter than "engine"
            f'commit "{history.orphan}" of github.com/acme/plain could not be verified against its history: '
            "its history is larger than the cap of 0.001 MiB (--max-history-size)",
        )
    ]
    # the repository that outgrew the cap is not kept, and the next scan does not fetch it again
    (graph,) = (tmp_path / "cache3" / "history").iterdir()
    assert sorted(path.name for path in graph.iterdir()) == ["lock", "state.json"]
    shutil.rmtree(history.path)
    code, again = scan(capsys, "--cache-dir", str(tmp_path / "cache3"), "--max-history-size", "0.001")
    assert brief(again) == brief(document)


def test_a_server_that_hands_out_no_commit_by_id(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Protocol v0 without uploadpack.allowAnySHA1InWant: git refuses to ask for an unadvertised commit.
    git("-C", str(history.path), "config", "uploadpack.allowAnySHA1InWant", "false")
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes", [("protocol.version", "0")]))
    code, document = scan(capsys, "--cache-dir", str(tmp_path / "cache"), "--select", "RL001,RL025")
    assert code == 1
    assert brief(document)[:2] == [
        (
            "RL001",
            4,
            CLONE_COLUMN,
            f'commit "{history.orphan}" is not in {REMOTE}: no branch or tag of it contains the commit, and '
            "the server hands out no commit by id, so `git checkout` fails",
        ),
        (
            "RL001",
            5,
            PIP_COLUMN,
            f'commit "{history.missing}" is not in {REMOTE}: no branch or tag of it contains the commit, and '
            "the server hands out no commit by id, so pip fails",
        ),
    ]


def test_history_follows_new_commits_and_deleted_branches(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    feature = write_commit(history.path, history.main_tip, "feature work")
    feature_tip = write_commit(history.path, feature, "more feature work")
    git("-C", str(history.path), "update-ref", "refs/heads/feature", feature_tip)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Dockerfile").write_text("FROM ubuntu:22.04\n" + CLONE.format(dir="e1", ref=feature))
    cache = str(tmp_path / "cache")
    assert scan(capsys, "--cache-dir", cache)[1]["findings"] == []

    # A new commit on main is found by an incremental fetch; the branch's removal is seen too.
    newer = write_commit(history.path, history.main_tip, "newer")
    git("-C", str(history.path), "update-ref", "refs/heads/main", newer)
    git("-C", str(history.path), "update-ref", "-d", "refs/heads/feature")
    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n" + CLONE.format(dir="e1", ref=feature) + CLONE.format(dir="e2", ref=newer[:12])
    )
    code, document = scan(capsys, "--cache-dir", cache, "--refresh")
    assert (code, [(f["code"], f["line"]) for f in document["findings"]]) == (1, [("RL025", 2)])
    assert main(["refs", "--cache-dir", cache]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        f"Dockerfile:3:{CLONE_COLUMN}: {REMOTE} {newer[:12]} (v1.0-3-g{newer[:7]}) (checkout)"
    )


def _unverified(document: dict) -> list[tuple[str, int, str]]:  # type: ignore[type-arg]
    return [(f["code"], f["line"], f["message"]) for f in document["findings"]]


def _every_pin_unverified(history: History, why: str, graph: Path) -> list[tuple[str, int, str]]:
    """RL008 (info: exit 0) for each commit of the project's Dockerfile: its cached history was spoilt
    (``why``)."""
    refs = [
        history.work[:10],
        history.release,
        history.orphan,
        history.missing,
        history.twin_prefix,
        "deadbee",
    ]
    return [
        (
            "RL008",
            line,
            f'commit "{ref}" of {REMOTE} could not be verified against its history: its cached history is '
            f"not as reflint left it ({why}): delete {graph}",
        )
        for line, ref in enumerate(refs, start=2)
    ]


def test_a_cached_history_changed_by_something_else_is_never_run(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    cache = tmp_path / "cache"
    scan(capsys, "--cache-dir", str(cache))
    (graph,) = (cache / "history").iterdir()
    marker = tmp_path / "ran"
    config = graph / "repo.git" / "config"
    # On a local transport git runs remote.<name>.uploadpack as a command: that must never happen.
    config.write_text(config.read_text() + f"\tuploadpack = touch {marker}; git-upload-pack\n")
    code, document = scan(capsys, "--cache-dir", str(cache), "--refresh")
    assert not marker.exists()
    assert (code, _unverified(document)) == (
        0,
        _every_pin_unverified(history, f"{config} is not the one reflint wrote", graph),
    )


def test_a_cached_history_with_a_link_inside_is_never_written_through(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    # git fetch writes FETCH_HEAD (and refs, loose objects) by name: a link there, in a cache that someone
    # else wrote, would have it overwrite a file anywhere (before: the victim held FETCH_HEAD's lines).
    cache = tmp_path / "cache"
    scan(capsys, "--cache-dir", str(cache))
    (graph,) = (cache / "history").iterdir()
    victim = tmp_path / "victim"
    victim.write_text("the victim's own text\n")
    fetch_head = graph / "repo.git" / "FETCH_HEAD"
    fetch_head.unlink()
    fetch_head.symlink_to(victim)

    code, document = scan(capsys, "--cache-dir", str(cache), "--refresh")

    assert victim.read_text() == "the victim's own text\n"
    why = f"{fetch_head} is not a file or folder that git made"
    assert (code, _unverified(document)) == (0, _every_pin_unverified(history, why, graph))


def test_a_history_that_cannot_be_fetched_is_unverified_with_gits_reason(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    cache = str(tmp_path / "cache")
    scan(capsys, "--cache-dir", cache, "--no-verify-commits")  # the ref list is cached
    history.path.rename(history.path.with_name("moved.git"))
    code, document = scan(capsys, "--cache-dir", cache)
    assert code == 0
    # Every pinned commit, each with git's reason.
    assert [(f["code"], f["line"], f["message"]) for f in document["findings"]] == [
        (
            "RL008",
            line,
            f'commit "{commit}" of {REMOTE} could not be verified against its history: fetching its history '
            f"failed: fatal: '{history.path}' does not appear to be a git repository",
        )
        for line, commit in (
            (2, "09a084dcdc"),
            (3, "e7dec38fe4bcf86aa45c36257661eebc9646cd1f"),
            (4, "03b7197a5d7c7e9ba321dab1097141220b892df9"),
            (5, "0badc0de0badc0de0badc0de0badc0de0badc0de"),
            (6, "62a4dc2"),
            (7, "deadbee"),
        )
    ]


def test_offline_with_a_history_older_than_the_ref_list(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("FROM ubuntu:22.04\n" + CLONE.format(dir="e1", ref=history.work[:10]))
    cache = str(tmp_path / "cache")
    scan(capsys, "--cache-dir", cache)  # the graph, at today's refs
    newer = write_commit(history.path, history.main_tip, "newer")
    git("-C", str(history.path), "update-ref", "refs/heads/main", newer)
    scan(capsys, "--cache-dir", cache, "--refresh", "--no-verify-commits")  # a newer ref list, same graph
    dockerfile.write_text(
        "FROM ubuntu:22.04\n"
        + CLONE.format(dir="e1", ref=history.release[:10])  # in the old graph: in the history
        + CLONE.format(dir="e2", ref=newer[:10])  # not in the old graph: offline cannot say
    )
    code, document = scan(capsys, "--cache-dir", cache, "--offline")
    assert code == 0
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert brief(document) == [
        (
            "RL008",
            3,
            CLONE_COLUMN,
            f'commit "{newer[:10]}" of {REMOTE} could not be verified against its history: offline, and its '
            f"cached history, fetched on {today}, is older than its ref list and does not hold it",
        )
    ]


def test_no_history_is_fetched_when_no_rule_reports_a_verdict(  # type: ignore[no-untyped-def]
    project: Path, tmp_path: Path, capsys
) -> None:
    code, document = scan(capsys, "--cache-dir", str(tmp_path / "cache"), "--select", "RL002,RL015")
    assert (code, document["findings"]) == (0, [])
    assert not (tmp_path / "cache" / "history").exists()


def test_verification_stops_at_the_lookups_deadline(  # type: ignore[no-untyped-def]
    project: Path, history: History, tmp_path: Path, capsys
) -> None:
    cache = str(tmp_path / "cache")
    scan(capsys, "--cache-dir", cache, "--no-verify-commits")  # the ref list is cached: no lookup waits
    code, document = scan(capsys, "--cache-dir", cache, "--lookup-deadline", "0.001")
    assert code == 0
    print("DOC", [(f["code"], f["line"], f["message"]) for f in document["findings"]])
    assert {f["code"] for f in document["findings"]} == {"RL008"}
    assert document["findings"][0]["message"] == (
        f'commit "09a084dcdc" of {REMOTE} could not be verified against its history: the lookups\' deadline '
        "passed first (--lookup-deadline)"
    )


def test_pins_that_fetch_other_urls_of_one_remote_are_verified_apart(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    over_ssh = CLONE.format(dir="e2", ref=history.orphan).replace(
        "https://github.com/acme/engine.git", "ssh://git@github.com/acme/engine.git"
    )
    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n" + CLONE.format(dir="e1", ref=history.orphan) + over_ssh
    )
    code, document = scan(capsys, "--cache-dir", str(tmp_path / "cache"), "--select", "RL025")
    assert code == 1
    assert [(f["code"], f["line"]) for f in document["findings"]] == [("RL025", 2), ("RL025", 3)]
    assert len(list((tmp_path / "cache" / "history").iterdir())) == 2  # one history per URL
