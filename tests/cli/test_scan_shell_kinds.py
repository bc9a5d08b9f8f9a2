"""``reflint scan`` of the new kinds against real ``git ls-remote`` of local bare repositories: findings on
documentation are at most warnings, ``--no-docs`` and ``docs: false`` leave documentation out, and the
other new kinds go through the rules as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

from ascend_reflint.cli import main

FILES = {
    "README.md": (
        "Install Megatron-LM:\n\n```bash\ngit clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git\n```\n"
    ),
    "Makefile": (
        "MCORE := core_r0.18.0\n\nmegatron:\n\tgit clone --branch $(MCORE) "
        "https://github.com/NVIDIA/Megatron-LM.git\n"
    ),
    "CMakeLists.txt": (
        "FetchContent_Declare(mcore GIT_REPOSITORY https://github.com/NVIDIA/Megatron-LM.git "
        "GIT_TAG core_v0.99.0)\n"
    ),
}


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    root.mkdir()
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _scan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, list[tuple[object, ...]]]:
    code = main(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "--select", "RL001,RL002", *args]
    )
    findings = json.loads(capsys.readouterr().out)["findings"]
    return code, [(f["code"], f["severity"], f["path"], f["line"], f["column"]) for f in findings]


def test_a_finding_on_documentation_is_at_most_a_warning(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _scan(tmp_path, capsys) == (
        1,
        [
            ("RL001", "error", "CMakeLists.txt", 1, 93),
            ("RL002", "error", "Makefile", 1, 10),
            ("RL002", "warning", "README.md", 4, 20),
        ],
    )


def test_no_docs_and_the_config_leave_documentation_out(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = (1, [("RL001", "error", "CMakeLists.txt", 1, 93), ("RL002", "error", "Makefile", 1, 10)])
    assert _scan(tmp_path, capsys, "--no-docs") == expected
    (project / ".reflint.yaml").write_text("docs: false\n", encoding="utf-8")
    assert _scan(tmp_path, capsys) == expected
