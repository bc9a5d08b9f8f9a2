"""The drift rules' vote never moves a tag-pinned file onto a branch, and ``--fix`` counts the edits that
stayed. Megatron-LM's ``core_r0.13.0`` is a release *branch* (it has moved on since the tag) and
``core_v0.13.0`` its release tag; TransformerEngine's branch ``release_v2.10`` and tag ``v2.10`` point at
one commit (``data/remotes``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env
from support import files_of, scan

MCORE = "github.com/nvidia/megatron-lm"
CLONE = (
    "FROM ubuntu:22.04\nARG MC={}\n"
    "RUN git clone --depth 1 --branch ${{MC}} https://github.com/NVIDIA/Megatron-LM.git /mc\n"
)
SUMMARY = "{} in {} of 3 files (3 pins, 1 remote: 1 checked (0 cached), 0 not checked{})"
DRIFT_ONLY = "; looked up only to tell tags, branches and commit ids apart (RL004, RL005)"
A2, A3, P310 = "docker/Dockerfile.a2", "docker/Dockerfile.a3", "docker/Dockerfile.310p"
RL002_A = (
    f'{{}}:2:8: RL002 [error] ref "core_r0.13.0" is a branch of {MCORE}, which moves whenever a commit lands '
    'on it: pin its release tag "core_v0.13.0"'
)


@pytest.fixture
def project(remotes: FakeRemotes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = tmp_path / "project"
    (root / "docker").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


def _variants(root: Path, a2: str, a3: str, p310: str) -> None:
    for path, ref in ((A2, a2), (A3, a3), (P310, p310)):
        (root / path).write_text(CLONE.format(ref), encoding="utf-8")


def _branch_pin(path: str) -> list[str]:
    return [RL002_A.format(path), f"{path}:3:34: note: the value is used here", ""]


def test_a_tag_pinned_variant_is_not_told_to_pin_the_branch_of_its_variants(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _variants(project, "core_r0.13.0", "core_r0.13.0", "core_v0.13.0")
    # The branch votes for its release tag, which the 310p variant pins: RL002 alone reports the branch.
    assert scan(capsys, "--select", "RL002,RL004") == (
        1,
        "\n".join(
            [
                *_branch_pin(A2),
                *_branch_pin(A3),
                SUMMARY.format("2 errors, 0 warnings, 0 info", 2, ""),
                "2 fixable with --fix --unsafe-fixes",
            ]
        )
        + "\n",
        "",
    )
    before = files_of(project)
    assert scan(capsys, "--select", "RL002,RL004", "--diff", "--unsafe-fixes", "--unfixable", "RL002") == (
        0,
        "",
        "reflint: nothing to fix\n",
    )
    assert files_of(project) == before


def test_the_odd_variant_is_told_to_pin_the_release_tag_of_the_majoritys_branch(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _variants(project, "core_r0.13.0", "core_r0.13.0", "core_v0.12.1")
    code, out, err = scan(capsys, "--select", "RL004")
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        f'{P310}:2:8: RL004 [error] {MCORE} is pinned at "core_v0.12.1" here but at "core_r0.13.0" in 2 of '
        f'its variants ({A2}, {A3}); pin "core_v0.13.0", the release tag of their branch "core_r0.13.0" (or '
        "list the remote under variant-allowed-drift)",
        f"{P310}:3:34: note: the value is used here",
        f'{A2}:2:8: note: {MCORE} is pinned at "core_r0.13.0" here',
        f'{A3}:2:8: note: {MCORE} is pinned at "core_r0.13.0" here',
        "",
        SUMMARY.format("1 error, 0 warnings, 0 info", 1, DRIFT_ONLY),
        "1 fixable with --fix --unsafe-fixes",
    ]
    assert scan(capsys, "--select", "RL004", "--diff", "--unsafe-fixes") == (
        1,
        f"--- a/{P310}\n+++ b/{P310}\n@@ -1,3 +1,3 @@\n FROM ubuntu:22.04\n-ARG MC=core_v0.12.1\n"
        "+ARG MC=core_v0.13.0\n RUN git clone --depth 1 --branch ${MC} https://github.com/NVIDIA/Megatron-LM.git"
        " /mc\n",
        "reflint: would fix 1 finding in 1 file\n",
    )


def test_a_tag_wins_over_more_variants_on_a_branch_without_a_release_tag(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _variants(project, "main", "main", "core_v0.13.0")
    code, out, _ = scan(capsys, "--select", "RL004", "--fix", "--unsafe-fixes")
    assert (code, out.splitlines()[-1]) == (0, "2 fixed, 0 remaining")
    assert files_of(project) == {path: CLONE.format("core_v0.13.0").encode() for path in (P310, A2, A3)}


def test_fix_counts_the_fixes_a_later_round_built_on_but_not_those_it_undid(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Round 1: RL002 takes a2 and a3 to core_v0.13.0, RL024 takes 310p to core_v0.13.1; round 2: RL024
    # takes a2 and a3 on to core_v0.13.1 (building on round 1's edits: 4 findings fixed) and RL004 takes
    # 310p back to the majority's core_v0.13.0 (undoing RL024's edit: neither counts); round 3: RL004 and
    # RL024 take 310p to core_v0.13.1 again, one edit (1).
    _variants(project, "core_r0.13.0", "core_r0.13.0", "core_v0.13.0")
    assert scan(capsys, "--select", "RL002,RL004,RL024", "--fix", "--unsafe-fixes") == (
        0,
        SUMMARY.format("0 errors, 0 warnings, 0 info", 0, "")
        + "\n5 fixed, 0 remaining, in 3 rounds: rescanning after the first fixes found more to fix (keep a "
        "rule's fixes out with --unfixable CODE)\n",
        "",
    )
    assert files_of(project) == {path: CLONE.format("core_v0.13.1").encode() for path in (P310, A2, A3)}


def test_a_requirement_on_a_tag_is_not_told_to_pin_the_branch_of_the_same_commit(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "git+https://github.com/NVIDIA/TransformerEngine.git@{}"
    (project / "requirements.txt").write_text(f"transformer_engine @ {url.format('v2.10')}\n")
    (project / "Dockerfile").write_text(f"FROM ubuntu:22.04\nRUN pip install {url.format('release_v2.10')}\n")
    (project / "install.sh").write_text(f"#!/bin/sh\npip install {url.format('release_v2.10')}\n")
    te = "github.com/nvidia/transformerengine"
    branch = (
        f'RL002 [*] [error] ref "release_v2.10" is a branch of {te}, which moves whenever a commit lands on '
        'it: pin its release tag "v2.10"'
    )
    assert scan(capsys, "--select", "RL002,RL005") == (
        1,
        f"Dockerfile:2:69: {branch}\n\ninstall.sh:2:65: {branch}\n\n"
        + SUMMARY.format("2 errors, 0 warnings, 0 info", 2, "")
        + "\n[*] 2 fixable with --fix\n",
        "",
    )
