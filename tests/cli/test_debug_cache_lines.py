"""``--debug`` says, once per stage, how much the caches answered (as ruff's ``--verbose`` counts its cache
hits): the extraction cache (files read from it, files extracted), the ref cache (ref lists and failures
from it, remotes asked over the network) and the history cache (remotes whose commits it answered alone,
histories fetched)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import insteadof_env, set_env
from historyfixtures import History, build_history

from ascend_reflint.cli import main

STAGES = ("reflint: extract: ", "reflint: lookup: ", "reflint: commits: ")


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> History:
    built = build_history(tmp_path / "remotes")
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "Dockerfile").write_text(
        f'FROM ubuntu:22.04\nRUN pip install "git+https://github.com/acme/engine.git@{built.work}"\n'
    )
    monkeypatch.chdir(project)
    return built


def stage_lines(capsys: pytest.CaptureFixture[str], cache: Path, *args: str) -> list[str]:
    assert main(["scan", "--debug", "--cache-dir", str(cache), *args]) == 0
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith(STAGES)]


def test_each_stage_says_what_its_cache_answered(  # type: ignore[no-untyped-def]
    history: History, tmp_path: Path, capsys
) -> None:
    cache = tmp_path / "cache"
    cold = stage_lines(capsys, cache)
    (extract,) = (cache / "extract").iterdir()
    assert cold == [
        f"reflint: extract: 1 file read: 0 from the extraction cache ({extract}), 1 extracted",
        f"reflint: lookup: 1 remote: 0 ref lists from the ref cache ({cache}/remotes), 0 cached failures, 1 "
        "asked over the network",
        f"reflint: commits: 1 commit id of 1 remote: 0 answered by the history cache ({cache}/history), 1 "
        "history fetched",
    ]
    assert stage_lines(capsys, cache) == [
        f"reflint: extract: 1 file read: 1 from the extraction cache ({extract}), 0 extracted",
        f"reflint: lookup: 1 remote: 1 ref list from the ref cache ({cache}/remotes), 0 cached failures, 0 "
        "asked over the network",
        f"reflint: commits: 1 commit id of 1 remote: 1 answered by the history cache ({cache}/history), 0 "
        "histories fetched",
    ]
    assert stage_lines(capsys, cache, "--no-cache", "--no-verify-commits") == [
        "reflint: extract: 1 file read: 1 extracted (no extraction cache: --no-cache)",
        f"reflint: lookup: 1 remote: 1 ref list from the ref cache ({cache}/remotes), 0 cached failures, 0 "
        "asked over the network",
        "reflint: commits: 1 commit id of 1 remote: 0 answered by the history cache (verification off), 0 "
        "histories fetched",
    ]


def test_no_line_without_debug(history: History, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["scan", "--cache-dir", str(tmp_path / "cache"), "-q"]) == 0
    assert capsys.readouterr().err == ""
