"""Compiled and binary files are never recipes, whatever their names say, and nothing below a virtual
environment's or package manager's folder is read, even in a git work tree that does not ignore it (as
ruff's default ``exclude``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ascend_reflint.cli import main

#: Bytecode of a module whose name looks like a recipe's (``makefile.py``, ``dockerfile.py``).
BYTECODE = b"\xa7\r\r\n\0\0\0\0compiled"
SITE_PACKAGES = ".venv/lib/python3.11/site-packages"
SUMMARY = (
    "0 errors, 0 warnings, 0 info in 0 of {} file{} (0 pins, 0 remotes: 0 checked (0 cached), 0 not checked)"
)


@pytest.fixture
def work_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git work tree with a Dockerfile that pins nothing, bytecode, and an un-ignored ``.venv``."""
    project = tmp_path / "project"
    files = {
        "Dockerfile": b"FROM ubuntu:22.04\n",
        "pkg/dockerfile.cpython-311.pyc": BYTECODE,
        "pkg/__pycache__/Makefile": b"all:\n\tgit clone https://github.com/o/r.git\n",
        "pkg/_native.so": BYTECODE,
        "dist/dockerfile-1.0-py3-none-any.whl": BYTECODE,
        f"{SITE_PACKAGES}/foo/__pycache__/makefile.cpython-311.pyc": BYTECODE,
        f"{SITE_PACKAGES}/foo/requirements.txt": b"git+https://github.com/o/r.git@v1\n",
        f"{SITE_PACKAGES}/foo/build.sh": b"git clone --branch v1 https://github.com/o/r.git\n",
    }
    for name, data in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes(data)
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    monkeypatch.chdir(project)
    return tmp_path


def test_bytecode_and_a_venv_in_a_work_tree_are_not_read(
    work_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "--offline", "--cache-dir", str(work_tree / "cache")]) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (SUMMARY.format(1, "") + "\n", "")


def test_a_bytecode_file_named_on_the_command_line_is_skipped_with_a_notice(
    work_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["scan", "--offline", "--cache-dir", str(work_tree / "cache"), "pkg/dockerfile.cpython-311.pyc"]
    )
    captured = capsys.readouterr()
    assert (code, captured.out, captured.err) == (
        0,
        SUMMARY.format(0, "s") + "\n",
        "pkg/dockerfile.cpython-311.pyc: notice: skipped: not a kind of file reflint reads\n",
    )
