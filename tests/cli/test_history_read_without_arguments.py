"""A history command with no arguments after a shallow clone (``git describe``, ``git log``): RL003 reports
the clone, and the file's other pins stay. Each one was an internal error that lost the whole file (pairing
the command's words with the next ones failed when there were none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.cli import main

CLONE = "git clone --depth 1 -b 2.0 https://gitcode.com/Ascend/MindSpeed.git"


@pytest.mark.parametrize(
    ("reads", "command", "column"),
    [("cd MindSpeed && git describe", "git describe", 92), ("git -C MindSpeed log", "git log", 76)],
)
def test_a_history_command_with_no_arguments_needs_the_history(
    reads: str,
    command: str,
    column: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "Dockerfile").write_text(
        f"FROM x\nRUN {CLONE} && {reads}\nRUN git clone --branch v1 https://github.com/o/r.git\n"
    )
    monkeypatch.chdir(tmp_path)

    code = main(["scan", "--offline", "--select", "RL003", "-q", "--no-cache", "Dockerfile"])

    out = capsys.readouterr()
    assert (code, out.err) == (1, "")
    assert out.out.splitlines() == [
        "Dockerfile:2:28: RL003 [*] [error] a shallow clone (`--depth 1`) of gitcode.com/ascend/mindspeed, "
        f"which the rule pack lists under full-history-remotes: `{command}` reads its history, "
        "and a shallow clone holds only the newest ones; drop the shallow option",
        "Dockerfile:2:15: note: the shallow option, which the fix deletes",
        f"Dockerfile:2:{column}: note: `{command}`",
    ]
    assert main(["refs", "Dockerfile"]) == 0
    assert capsys.readouterr().out == (
        "Dockerfile:2:28: gitcode.com/ascend/mindspeed 2.0 (clone-branch, depth 1)\n"
        "Dockerfile:3:24: github.com/o/r v1 (clone-branch)\n"
    )
