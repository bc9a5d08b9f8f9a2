"""A pinned commit that its remote does not have, beside a version comment: one RL001 that names the
comment's tag and its commit (and fixes the pin to it), never an RL023 about the same missing commit."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import insteadof_env, set_env
from historyfixtures import REMOTE, History, build_history

from ascend_reflint.cli import main

ABSENT = "0badc0de" * 5  # no object of the repository has it
ALSO_ABSENT = "feedface" * 5
WORKFLOW = (
    "on: push\n"
    "jobs:\n"
    "  build:\n"
    "    runs-on: ubuntu-latest\n"
    "    steps:\n"
    f"      - uses: acme/engine@{ABSENT} # v1.0\n"
    f"      - uses: acme/engine@{ALSO_ABSENT} # v7.7\n"
    f"      - uses: acme/engine@{ABSENT} # main\n"
)
FAILS = "no branch or tag of it contains the commit, and the server does not have it, so the workflow fails"


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> History:
    built = build_history(tmp_path / "remotes")
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    project = tmp_path / "project"
    (project / ".github" / "workflows").mkdir(parents=True)
    (project / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    monkeypatch.chdir(project)
    return built


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["scan", "--cache-dir", "../cache", *args])
    return code, capsys.readouterr().out.splitlines()


def test_one_rl001_names_the_comments_tag_and_its_commit(history: History, capsys) -> None:  # type: ignore[no-untyped-def]
    path = ".github/workflows/ci.yml"
    code, out = scan(capsys)
    assert code == 1
    assert out == [
        f'{path}:6:27: RL001 [error] commit "{ABSENT}" is not in {REMOTE}: {FAILS}; its version comment '
        f'says "v1.0", whose tag is commit {history.release[:12]}: pin that commit',
        f"{path}:6:27: help: did you mean '{history.release}'?",
        f"{path}:6:70: note: the version comment",
        f'{path}:7:27: RL001 [error] commit "{ALSO_ABSENT}" is not in {REMOTE}: {FAILS}; its version '
        f'comment names "v7.7", which is not a tag of {REMOTE} either: pin the commit of the tag meant, and '
        "correct the comment",
        f"{path}:7:70: note: the version comment",
        f'{path}:8:27: RL001 [error] commit "{ABSENT}" is not in {REMOTE}: {FAILS}',
        "",
        "3 errors, 0 warnings, 0 info in 1 of 1 file (3 pins, 1 remote: 1 checked (0 cached), 0 not checked)",
        "1 fixable with --fix --unsafe-fixes",
    ]


def test_the_unsafe_fix_pins_the_commit_of_the_comments_tag(history: History, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = scan(capsys, "--fix", "--unsafe-fixes", "--select", "RL001,RL023")
    assert code == 1  # the other two pins stay absent
    assert [line.split(": ", 1)[1][:5] for line in out if ": RL" in line] == ["RL001", "RL001"]
    assert Path(".github/workflows/ci.yml").read_text() == WORKFLOW.replace(
        f"{ABSENT} # v1.0", f"{history.release} # v1.0"
    )
