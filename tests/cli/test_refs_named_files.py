"""Files that a read requirements file names with ``-r``/``-c`` are read too: once each, and only inside the
project root (``reflint refs``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

OUTSIDE = "git+https://github.com/o/outside.git@v9\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    files = {
        "requirements/gpu.txt": "-r ../common.txt\n-c ../pins/constraints.in\n-r gpu.txt\n",
        "common.txt": "-r requirements/gpu.txt\ngit+https://github.com/o/common.git@v1\n",
        "pins/constraints.in": "git+https://github.com/o/pinned.git@v2\n",
        "requirements-npu.txt": "-r ../outside.txt\n-r missing.txt\n-r linked.txt\n-r skipped/x.txt\n",
        "skipped/x.txt": "git+https://github.com/o/skipped.git@v3\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (tmp_path / "outside.txt").write_text(OUTSIDE, encoding="utf-8")
    (root / "linked.txt").symlink_to(tmp_path / "outside.txt")
    monkeypatch.chdir(root)
    return root


def test_named_files_are_read_once_inside_the_root(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--format", "json", "--exclude", "skipped/"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [
        (pin["path"], pin["line"], pin["column"], pin["kind"], pin["ref"]) for pin in document["pins"]
    ] == [
        ("common.txt", 2, 37, "requirements", "v1"),
        ("pins/constraints.in", 1, 37, "requirements", "v2"),
    ]
    assert document["files_scanned"] == 4
    outside = "(named by -r/-c) is outside the project root: not read"
    assert [(notice["path"], notice["message"]) for notice in document["notices"]] == [
        ("requirements-npu.txt", f"'../outside.txt' {outside}"),
        ("requirements-npu.txt", "'missing.txt' (named by -r/-c) does not exist"),
        ("requirements-npu.txt", f"'linked.txt' {outside}"),
    ]
    assert document["errors"] == []


def test_a_named_file_is_read_when_only_the_file_naming_it_is_given(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refs", "requirements/gpu.txt"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "common.txt:2:37: github.com/o/common v1 (pip-vcs)",
        "pins/constraints.in:1:37: github.com/o/pinned v2 (pip-vcs)",
    ]
