"""RL003 suggests ``git clone --depth 1 --branch REF`` only for a ref that ``--branch`` takes, a branch or
tag name (git-check-ref-format(1)); a revision such as ``core_v0.12.1~3``, ``main@{2}`` or ``v1^{commit}`` (no
template placeholder) gets only "drop the shallow option", which is what its fix does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
URL = "https://github.com/NVIDIA/Megatron-LM.git"
SCRIPT = f"""\
#!/bin/bash
git clone --depth 1 {URL} m4 && cd m4 && git checkout core_v0.12.1~3
git clone --depth 1 {URL} m5 && cd m5 && git checkout core_v0.12.1
git clone --depth 1 {URL} m6 && cd m6 && git checkout main@{{2}}
git clone --depth 1 {URL} m7 && cd m7 && git checkout core_v0.12.1^{{commit}}
"""
FAILS = (
    "follows a shallow clone (`--depth 1`) of the default branch of github.com/nvidia/megatron-lm, which "
    "holds no other branch, and only the tags at the tip of the default branch, so the checkout fails (or "
    "breaks once the default branch moves on); "
)
NOTE = "note: the shallow option, which the fix deletes"


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    root.mkdir()
    (root / "build.sh").write_text(SCRIPT, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_clone_it_directly_only_for_a_branch_or_tag_name(project: Path, scan: Scan) -> None:
    assert scan() == (  # RL003 tells a clone of the default branch once the remote is looked up
        1,
        [
            f'build.sh:2:91: RL003 [*] [error] the checkout of "core_v0.12.1~3" {FAILS}drop the shallow '
            'option (`git clone --branch` takes no revision such as "core_v0.12.1~3")',
            f"build.sh:2:11: {NOTE}",
            f'build.sh:3:91: RL003 [*] [error] the checkout of "core_v0.12.1" {FAILS}clone it directly with '
            "`git clone --depth 1 --branch core_v0.12.1`, or drop the shallow option",
            f"build.sh:3:11: {NOTE}",
            f'build.sh:4:91: RL003 [*] [error] the checkout of "main@{{2}}" {FAILS}drop the shallow option '
            '(`git clone --branch` takes no revision such as "main@{2}")',
            f"build.sh:4:11: {NOTE}",
            # a revision, not a template's {commit} placeholder
            f'build.sh:5:91: RL003 [*] [error] the checkout of "core_v0.12.1^{{commit}}" {FAILS}drop the '
            'shallow option (`git clone --branch` takes no revision such as "core_v0.12.1^{commit}")',
            f"build.sh:5:11: {NOTE}",
            "",
            "4 errors, 0 warnings, 0 info in 1 of 1 file (4 pins, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
            "[*] 4 fixable with --fix",
        ],
        [],
    )
