"""Documentation that clones the scanned repository itself (its ``origin``) follows its development head
on purpose: no RL015 and no RL002 there; a Dockerfile or a script that does the same, and documentation
that clones another repository, are still reported, unless a rule pack lists the repository under
``self-head-tracking-remotes`` (the shipped pack: verl), and then in a scan of that repository only."""

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


VERL_DOCKERFILE = """\
FROM python:3.11
RUN pip install git+https://github.com/volcengine/verl.git
RUN pip install git+https://github.com/volcengine/verl.git@main
"""


def _repository(root: Path, origin: str, files: dict[str, str]) -> Path:
    """A git work tree at ``root`` whose ``origin`` is ``origin``, holding ``files``."""
    root.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run(["git", "remote", "add", "origin", origin], cwd=root, check=True, env=env)
    for name, text in files.items():
        (root / name).write_text(text)
    return root


@pytest.fixture
def verl_remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    build_repo(tmp_path / "remotes/github.com/volcengine/verl.git", REFS)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    return tmp_path


def test_the_packs_self_clone_exemption_of_verl_is_for_verl_only(
    verl_remote: Path, scan: Scan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped pack lists verl under ``self-head-tracking-remotes``: verl's own Dockerfiles build verl at
    its head, another project's Dockerfile that installs verl at no ref or at a branch is reported."""
    other = _repository(
        verl_remote / "other", "git@github.com:o/kernels.git", {"Dockerfile": VERL_DOCKERFILE}
    )
    monkeypatch.chdir(other)
    assert scan("--select", "RL002,RL015") == (
        0,
        [
            "Dockerfile:2:21: RL015 [warning] pip's git+ URL of github.com/volcengine/verl pins no ref, so "
            'the build takes whatever the default branch holds that day; end the URL with "@<tag>" (newest '
            'release: "v1.0.0") or "@<commit id>"',
            'Dockerfile:3:60: RL002 [warning] ref "main" is a branch of github.com/volcengine/verl, which '
            'moves whenever a commit lands on it: pin a release tag (newest: "v1.0.0") or a commit id',
            "",
            "0 errors, 2 warnings, 0 info in 1 of 1 file (2 pins, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )


@pytest.mark.parametrize(
    ("origin", "metadata"),
    [
        ("https://github.com/volcengine/verl.git", {}),
        # A fork or a mirror: its origin is another repository, its package metadata still names verl.
        (
            "git@github.com:me/verl.git",
            {"setup.py": 'from setuptools import setup\nsetup(url="https://github.com/volcengine/verl")\n'},
        ),
        (
            "https://gitcode.com/mirrors/verl.git",
            {
                "pyproject.toml": '[project]\nname = "verl"\n[project.urls]\nSource = "https://github.com/volcengine/verl/tree/main"\n'
            },
        ),
    ],
)
def test_verl_itself_builds_verl_at_its_head(
    verl_remote: Path, scan: Scan, monkeypatch: pytest.MonkeyPatch, origin: str, metadata: dict[str, str]
) -> None:
    verl = _repository(verl_remote / "verl", origin, {"Dockerfile": VERL_DOCKERFILE, **metadata})
    monkeypatch.chdir(verl)
    code, out, err = scan("--select", "RL002,RL015", "Dockerfile")
    assert (code, out[0], err) == (
        0,
        "0 errors, 0 warnings, 0 info in 0 of 1 file (2 pins, 1 remote: 1 checked (0 cached), 0 not checked)",
        [],
    )
