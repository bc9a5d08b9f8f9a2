"""``!ENTRY`` in a list of the config removes what the shipped rule pack lists (as ``!`` negates a pattern
in gitignore): MindSpeed, which the pack lists under ``full-history-remotes``, is shallow-cloned at its
release branch and described without RL003 once the config removes it; a removal that removes nothing (no
pack before it lists the entry, or the list removed it already) is an error at its ``file:line:column``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone --depth 1 --branch core_r0.12.1 https://gitcode.com/Ascend/MindSpeed.git && \\
    cd MindSpeed && git describe --tags
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(DOCKERFILE)
    monkeypatch.chdir(root)
    return root


def test_a_removal_in_the_config_takes_a_remote_off_a_shipped_list(project: Path, scan: Scan) -> None:
    assert scan("--offline", "--select", "RL003")[:2] == (
        1,
        [
            "Dockerfile:2:34: RL003 [*] [error] a shallow clone (`--depth 1`) of "
            "gitcode.com/ascend/mindspeed, which the rule pack lists under full-history-remotes: `git "
            "describe` reads its history, and a shallow clone holds only the newest ones; drop the shallow "
            "option",
            "Dockerfile:2:15: note: the shallow option, which the fix deletes",
            "Dockerfile:3:21: note: `git describe`",
            "",
            "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
            "[*] 1 fixable with --fix",
        ],
    )
    (project / ".reflint.yaml").write_text('full-history-remotes: ["!gitcode.com/Ascend/MindSpeed"]\n')
    assert scan("--offline", "--select", "RL003") == (
        0,
        [
            "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)"
        ],
        [],
    )


def test_a_removal_of_what_no_pack_lists_is_an_error(project: Path, scan: Scan) -> None:
    (project / ".reflint.yaml").write_text('full-history-remotes: ["!gitcode.com/Ascend/MindSped"]\n')
    assert scan("--offline") == (
        2,
        [],
        [
            "reflint: error: .reflint.yaml:1:24: full-history-remotes[0]: '!gitcode.com/ascend/mindsped' "
            "removes nothing: no rule pack before it lists 'gitcode.com/ascend/mindsped'"
        ],
    )


def test_a_removal_given_twice_in_one_list_is_an_error_at_the_second(project: Path, scan: Scan) -> None:
    # The same remote written twice (as a URL the second time): the second removes nothing.
    (project / ".reflint.yaml").write_text(
        "full-history-remotes:\n"
        "  - '!gitcode.com/Ascend/MindSpeed'\n"
        "  - github.com/o/r\n"
        "  - '!https://gitcode.com/Ascend/MindSpeed.git'\n"
    )
    assert scan("--offline") == (
        2,
        [],
        [
            "reflint: error: .reflint.yaml:4:5: full-history-remotes[2]: '!gitcode.com/ascend/mindspeed' "
            "removes nothing: full-history-remotes[0] removes it already"
        ],
    )


def test_a_removal_in_pyproject_or_a_rule_pack_is_located_too(project: Path, scan: Scan) -> None:
    (project / "pyproject.toml").write_text('[tool.reflint]\nfull-history-remotes = ["!github.com/o/r"]\n')
    assert scan("--offline") == (
        2,
        [],
        [
            "reflint: error: pyproject.toml:2:1: tool.reflint.full-history-remotes[0]: '!github.com/o/r' "
            "removes nothing: no rule pack before it lists 'github.com/o/r'"
        ],
    )
    (project / "pyproject.toml").unlink()
    (project / "pack.yaml").write_text("name: extra\nprivate-remotes:\n  - '!github.com/o/r'\n")
    assert scan("--offline", "--rule-pack", "pack.yaml")[2] == [
        "reflint: error: pack.yaml:3:5: private-remotes[0]: '!github.com/o/r' removes nothing: no rule pack "
        "before it lists 'github.com/o/r'"
    ]
