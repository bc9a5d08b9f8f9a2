"""Documentation that clones the scanned repository itself (its ``origin``) follows its development head
on purpose: no RL015 and no RL002 there; a Dockerfile or a script that does the same, and documentation
that clones another repository, are still reported."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
MAIN, RELEASE = "1" * 40, "2" * 40
REFS = [(MAIN, "HEAD"), (MAIN, "refs/heads/main"), (MAIN, "refs/heads/stable"), (RELEASE, "refs/tags/v1.0.0")]
README = """\
# kernels

```bash
git clone https://github.com/o/kernels.git
git clone --branch stable https://github.com/o/kernels.git kernels-stable
git clone https://github.com/o/other.git
```
"""
UNPINNED = (
    "pins no ref, so the build takes whatever the default branch holds that day; add `--branch <tag>`, or "
    "check out a commit id after the clone"
)
DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone https://github.com/o/kernels.git
RUN git clone --branch stable https://github.com/o/kernels.git /k
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    build_repo(tmp_path / "remotes/github.com/o/kernels.git", REFS)
    build_repo(tmp_path / "remotes/github.com/o/other.git", REFS)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    root = tmp_path / "project"
    root.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    origin = ["git", "remote", "add", "origin", "git@github.com:o/kernels.git"]
    subprocess.run(origin, cwd=root, check=True, env=env)
    (root / "README.md").write_text(README)
    (root / "Dockerfile").write_text(DOCKERFILE)
    monkeypatch.chdir(root)
    return root


def test_documentation_that_clones_its_own_repository_is_not_reported(project: Path, scan: Scan) -> None:
    unpinned = (
        "pins no ref, so the build takes whatever the default branch holds that day; add `--branch <tag>`"
    )
    branch = (
        'ref "stable" is a branch of github.com/o/kernels, which moves whenever a commit lands on it: pin a '
        'release tag (newest: "v1.0.0") or a commit id'
    )
    assert scan("--select", "RL002,RL015") == (
        0,
        [
            f"Dockerfile:2:15: RL015 [warning] `git clone` of github.com/o/kernels {unpinned} (newest "
            'release: "v1.0.0"), or check out a commit id after the clone',
            f"Dockerfile:3:24: RL002 [warning] {branch}",
            "",
            f"README.md:6:11: RL015 [warning] `git clone` of github.com/o/other {unpinned} (newest release: "
            '"v1.0.0"), or check out a commit id after the clone',
            "",
            "0 errors, 3 warnings, 0 info in 2 of 2 files (5 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )


def test_a_repository_scanned_from_the_folder_above_it_keeps_its_own_origin(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scan: Scan
) -> None:
    # The folder scanned holds the repository (and could hold others): the README is still the documentation
    # of o/kernels, whose own origin it clones (before, that clone was reported too).
    above = tmp_path / "work"
    above.mkdir()
    project.rename(above / "kernels")
    monkeypatch.chdir(above)
    code, out, _ = scan("--select", "RL015")  # no lookup: no "newest release"
    assert (code, [line for line in out if ": RL015 " in line]) == (
        0,
        [
            f"kernels/Dockerfile:2:15: RL015 [warning] `git clone` of github.com/o/kernels {UNPINNED}",
            f"kernels/README.md:6:11: RL015 [warning] `git clone` of github.com/o/other {UNPINNED}",
        ],
    )
