"""No finding from a stale answer: a cached ref list older than a few minutes that would make a pin "not
found" is asked for again before the finding is reported (never with ``--offline``), so a tag released
since the list was cached is found."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from gitfixtures import build_repo, set_env

from ascend_reflint.cli import main
from ascend_reflint.lookup.cache import RefCache, cache_key
from ascend_reflint.model import Finding, RemoteRefs, Severity, Span
from ascend_reflint.scan import STALE_AFTER, _stale_answers

KEY = "https://github.com/o/r"


@pytest.fixture
def mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``https://github.com/o/r`` answered by a local repository with branch ``main`` and tag ``v1``; a
    Dockerfile that clones its tag ``v2`` is the working directory."""
    remote = build_repo(
        tmp_path / "mirror" / "r.git", [("a" * 40, "refs/heads/main"), ("a" * 40, "refs/tags/v1")]
    )
    set_env(
        monkeypatch,
        {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": f"url.{remote.path}.insteadOf",
            "GIT_CONFIG_VALUE_0": "https://github.com/o/r.git",
        },
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "Dockerfile").write_text(
        "FROM x\nRUN git clone --branch v2 https://github.com/o/r.git /r\n", encoding="utf-8"
    )
    monkeypatch.chdir(project)
    return remote.path


def scan(
    capsys: pytest.CaptureFixture[str], cache: Path, *args: str
) -> tuple[int, list[str], dict[str, int]]:
    """The exit code, the codes found and the summary's lookup counts."""
    code = main(["scan", "--format", "json", "--select", "RL001", "--cache-dir", str(cache), *args])
    document = json.loads(capsys.readouterr().out)
    summary = document["summary"]
    return (
        code,
        [finding["code"] for finding in document["findings"]],
        {name: summary[name] for name in ("lookups", "cached")},
    )


def _age(cache: Path, seconds: float) -> None:
    """Make the cached ref list of ``KEY`` ``seconds`` old."""
    path = RefCache(cache).entry_path(cache_key(KEY, False))
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["fetched_at"] = time.time() - seconds
    path.write_text(json.dumps(entry), encoding="utf-8")


def test_a_tag_released_after_the_list_was_cached_is_found(
    mirror: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert scan(capsys, cache) == (1, ["RL001"], {"lookups": 1, "cached": 0})
    subprocess.run(["git", "-C", str(mirror), "tag", "v2", "main"], check=True)
    # A list cached a moment ago is trusted: the answer of a minute ago stands.
    assert scan(capsys, cache) == (1, ["RL001"], {"lookups": 0, "cached": 1})
    # Offline, an old list is all there is.
    _age(cache, STALE_AFTER + 60)
    assert scan(capsys, cache, "--offline") == (1, ["RL001"], {"lookups": 0, "cached": 1})
    # Otherwise an old list that would say "not found" is asked for again, and the tag is there.
    assert scan(capsys, cache) == (0, [], {"lookups": 1, "cached": 0})
    refreshed = RefCache(cache).load(cache_key(KEY, False), max_age=None)
    assert refreshed is not None and (sorted(refreshed.branches), sorted(refreshed.tags)) == (
        ["main"],
        ["v1", "v2"],
    )
    assert time.time() - refreshed.fetched_at < STALE_AFTER


def test_an_old_list_that_finds_every_ref_is_not_asked_for_again(
    mirror: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    subprocess.run(["git", "-C", str(mirror), "tag", "v2", "main"], check=True)
    assert scan(capsys, cache) == (0, [], {"lookups": 1, "cached": 0})
    _age(cache, STALE_AFTER + 60)
    assert scan(capsys, cache) == (0, [], {"lookups": 0, "cached": 1})


def _finding(code: str, remote: str) -> Finding:
    return Finding(code, "rule", Severity.ERROR, "Dockerfile", Span(2, 1, 2, 5), "message", remote=remote)


@pytest.mark.parametrize(
    ("code", "asked_again"),
    [("RL001", True), ("RL013", True), ("RL014", True), ("RL002", False), ("RL010", False)],
)
def test_only_not_found_and_ambiguous_findings_ask_an_old_list_again(code: str, asked_again: bool) -> None:
    now = time.time()
    lookups = {
        "https://h/o/old": RemoteRefs("h/o/old", {}, {}, fetched_at=now - STALE_AFTER - 1),
        "https://h/o/new": RemoteRefs("h/o/new", {}, {}, fetched_at=now - STALE_AFTER + 30),
    }
    requests = {"https://h/o/old": "https://h/o/old.git", "https://h/o/new": "https://h/o/new.git"}
    findings = [_finding(code, "h/o/old"), _finding(code, "h/o/new")]
    expected = {"https://h/o/old": "https://h/o/old.git"} if asked_again else {}
    assert _stale_answers(findings, requests, lookups, now) == expected
