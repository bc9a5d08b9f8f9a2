"""RL004 and RL005 on one wrong ref: three variants of an image (two at vllm-ascend v0.9.1, the 310P one at
v0.11.0) and an install script beside them. The odd variant is RL004's alone (its fix settles it); RL005
speaks only of the script, and names only the files that disagree with it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
URL = "https://github.com/vllm-project/vllm-ascend.git"
REMOTE = "github.com/vllm-project/vllm-ascend"
A2, A3, P310, SCRIPT = (
    "docker/Dockerfile.a2",
    "docker/Dockerfile.a3",
    "docker/Dockerfile.310p",
    "docker/install.sh",
)
#: Offline, vllm-ascend's ref list (asked for once the drift rules find its pins disagree) is not at hand:
#: nothing says that "v0.9.1" is not a branch, so RL004 offers no fix to it (ascend_reflint.check.vote).
OFFLINE = (
    "1 remote: 0 checked (0 cached), 1 not checked; looked up only to tell tags, branches and commit ids "
    "apart (RL004, RL005))"
)
RL004 = [
    f'{P310}:2:34: RL004 [error] {REMOTE} is pinned at "v0.11.0" here but at "v0.9.1" in 2 of its variants '
    f'({A2}, {A3}); pin "v0.9.1" as they do (or list the remote under variant-allowed-drift)',
    f'{A2}:2:34: note: {REMOTE} is pinned at "v0.9.1" here',
    f'{A3}:2:34: note: {REMOTE} is pinned at "v0.9.1" here',
    "",
]


def write_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script_ref: str) -> None:
    """The three variants and the script at ``script_ref``, in ``tmp_path/project``, the current folder."""
    root = tmp_path / "project"
    (root / "docker").mkdir(parents=True)
    for path, ref in ((A2, "v0.9.1"), (A3, "v0.9.1"), (P310, "v0.11.0")):
        (root / path).write_text(f"FROM ubuntu:22.04\nRUN git clone --depth 1 --branch {ref} {URL}\n")
    (root / SCRIPT).write_text(f"#!/bin/sh\ngit clone --depth 1 --branch {script_ref} {URL}\n")
    monkeypatch.chdir(root)


def test_the_odd_variant_is_one_rl004_finding_not_an_rl005_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scan: Scan
) -> None:
    write_project(tmp_path, monkeypatch, "v0.9.1")  # the script agrees with the majority of the variants
    assert scan("--offline", "--select", "RL004,RL005") == (
        1,
        [
            *RL004,
            f"1 error, 0 warnings, 0 info in 1 of 4 files (4 pins, {OFFLINE}",
        ],
        [],
    )


def test_a_script_that_follows_the_odd_variant_is_rl005s_and_names_the_variants_in_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scan: Scan
) -> None:
    write_project(tmp_path, monkeypatch, "v0.11.0")  # the script follows the odd variant: a drift of its own
    assert scan("--offline", "--select", "RL004,RL005") == (
        1,
        [
            *RL004,
            f'{SCRIPT}:2:30: RL005 [warning] {REMOTE} is pinned at "v0.11.0" here, but 2 other pins of '
            f'folder \'docker\' are at "v0.9.1": {A2}, {A3}; pin "v0.9.1" as they do (or list the '
            "remote under drift-allowed-remotes)",
            f'{A2}:2:34: note: {REMOTE} is pinned at "v0.9.1" here',
            f'{A3}:2:34: note: {REMOTE} is pinned at "v0.9.1" here',
            "",
            f"1 error, 1 warning, 0 info in 2 of 4 files (4 pins, {OFFLINE}",
        ],
        [],
    )
