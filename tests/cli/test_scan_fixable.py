"""``fixable`` and ``unfixable`` (config keys and ``--fixable``/``--unfixable``, ruff's meaning): the
findings of an unfixable rule are reported without their fix, not counted as fixable, and ``--fix
--unsafe-fixes`` leaves them alone while it applies the others (RL024's release bump kept out of a fix run
that moves a branch pin to its tag)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
REFS = [
    ("1" * 40, "HEAD"),
    ("1" * 40, "refs/heads/main"),
    ("2" * 40, "refs/heads/core_r0.18.0"),
    ("3" * 40, "refs/tags/core_v0.18.0"),
    ("4" * 40, "refs/tags/v1.0.0"),
    ("5" * 40, "refs/tags/v1.0.1"),
]
SCRIPT = """\
#!/bin/sh
git clone --branch v1.0.0 https://github.com/o/lib.git lib
git clone --branch core_r0.18.0 https://github.com/o/lib.git core
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    build_repo(tmp_path / "remotes/github.com/o/lib.git", REFS)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    root = tmp_path / "project"
    root.mkdir()
    (root / "install.sh").write_text(SCRIPT)
    monkeypatch.chdir(root)
    return root


NEWER = 'install.sh:2:20: RL024 [info] a newer release of "v1.0.0" exists on github.com/o/lib: "v1.0.1"'
BRANCH = (
    'install.sh:3:20: RL002 [error] ref "core_r0.18.0" is a branch of github.com/o/lib, which moves whenever '
    'a commit lands on it: pin its release tag "core_v0.18.0"'
)
SUMMARY = "1 error, 0 warnings, 1 info in 1 of 1 file (2 pins, 1 remote: 1 checked (1 cached), 0 not checked)"


def test_an_unfixable_rule_is_reported_without_its_fix(project: Path, scan: Scan) -> None:
    assert scan("--select", "RL002,RL024")[1][-1] == "2 fixable with --fix --unsafe-fixes"
    (project / ".reflint.yaml").write_text("unfixable: [newer-release]\n")
    assert scan("--select", "RL002,RL024") == (
        1,
        [NEWER, BRANCH, "", SUMMARY, "1 fixable with --fix --unsafe-fixes"],
        [],
    )
    # --fixable replaces the config's fixable (none here); the config's unfixable still holds
    assert scan("--select", "RL002,RL024", "--fixable", "RL024")[1][-1] == SUMMARY


def test_fix_with_unsafe_fixes_leaves_an_unfixable_rule_alone(project: Path, scan: Scan) -> None:
    code, out, _ = scan("--select", "RL002,RL024", "--fix", "--unsafe-fixes", "--unfixable", "RL024")
    assert (code, out) == (
        0,
        [
            NEWER,
            "",
            "0 errors, 0 warnings, 1 info in 1 of 1 file (2 pins, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
            "1 fixed, 1 remaining",
        ],
    )
    assert (project / "install.sh").read_text() == SCRIPT.replace("core_r0.18.0", "core_v0.18.0")
