"""RL001's wording: "the most similar … is" for one name and "are" for several, and a short hex name that
is no ref (``@75f5``) is said to be neither a ref nor a commit id that can be verified, not a version that
no ref names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
MAIN = "1" * 40
REFS = [
    (MAIN, "HEAD"),
    (MAIN, "refs/heads/main"),
    *((f"{index:x}" * 40, f"refs/heads/feature-{index}") for index in range(2, 16)),
    ("f" * 40, "refs/tags/v0.3.0"),
]
LIBS = [
    (MAIN, "HEAD"),
    (MAIN, "refs/heads/main"),
    ("e" * 40, "refs/tags/v0.3.0"),
    ("f" * 40, "refs/tags/v0.4.0"),
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    build_repo(tmp_path / "remotes/github.com/o/tools.git", REFS)
    build_repo(tmp_path / "remotes/github.com/o/libs.git", LIBS)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    root = tmp_path / "project"
    root.mkdir()
    (root / "install.sh").write_text(
        "#!/bin/sh\n"
        "git clone --branch v0.9.1 https://github.com/o/tools.git\n"
        "pip install git+https://github.com/o/tools.git@75f5\n"
        "git clone https://github.com/o/tools.git t && git -C t checkout a1b2c3\n"
        "git clone --branch v0.9.1 https://github.com/o/libs.git\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(root)
    return root


def test_one_similar_name_is_singular_and_a_short_hex_name_is_no_version(project: Path, scan: Scan) -> None:
    missing = "is neither a branch nor a tag of github.com/o"
    similar = "so `git clone --branch` fails; no ref names that version; the most similar of its"
    short = (
        "nor a commit id reflint can verify ({} hex digits; it looks commit ids up from 7): {} finds the "
        'commit only while exactly one object of the repository starts with "{}"; pin the commit\'s full id'
    )
    assert scan("--select", "RL001") == (
        1,
        [
            f'install.sh:2:20: RL001 [error] ref "v0.9.1" {missing}/tools, {similar} 15 branches and 1 tag '
            'is "v0.3.0"',
            f'install.sh:3:48: RL001 [warning] ref "75f5" {missing}/tools, {short.format(4, "pip", "75f5")}',
            f'install.sh:4:65: RL001 [warning] ref "a1b2c3" {missing}/tools, '
            + short.format(6, "`git checkout`", "a1b2c3"),
            f'install.sh:5:20: RL001 [error] ref "v0.9.1" {missing}/libs, {similar} 1 branch and 2 tags are '
            '"v0.4.0", "v0.3.0"',
            "",
            "2 errors, 2 warnings, 0 info in 1 of 1 file (4 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )
