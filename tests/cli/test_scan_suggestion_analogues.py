"""RL001's answer among several spellings of one version, and the refs it never gives.

Among names of the version asked for, the exact analogue comes first: the one that writes as many numbers
(``llmb-r0.4`` for ``llmb-v0.4``, ``llmb-r0.4.0`` for ``llmb-v0.4.0``, the branch ``releases/v4`` for
``v4`` rather than ``releases/v4.0.0``, the tag ``1.0.0`` for ``v1.0.0`` rather than the major tag
``v1``); that one is the sole answer, so the finding has a fix. Branches of a proposed change
(``snowmanwwg-patch-1``, ``dependabot/…``, ``gh-readonly-queue/…``) are no release however they are
numbered: never an answer, never a "most similar" name, and ``patch-1`` asked for is not the version 1.
The ref names are the upstreams' (NVIDIA-NeMo/Megatron-Bridge, actions/checkout, NVIDIA/Megatron-LM).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
A, B, C, D, E, F = (digit * 40 for digit in "123456")
BRIDGE = [
    (A, "HEAD"),
    (A, "refs/heads/main"),
    (B, "refs/heads/llmb-r0.4"),
    (C, "refs/heads/llmb-r0.4.0"),
    (D, "refs/heads/dependabot/transformerengine-release_v2.14"),
    (E, "refs/heads/snowmanwwg-patch-1"),
    (F, "refs/tags/v0.1.0a0"),
]
CHECKOUT = [
    (A, "HEAD"),
    (A, "refs/heads/main"),
    (B, "refs/heads/releases/v4"),
    (C, "refs/heads/releases/v4.0.0"),
    (D, "refs/tags/v1"),
    (E, "refs/tags/1.0.0"),
    (F, "refs/tags/v4.1.0"),
]
MEGATRON = [
    (A, "HEAD"),
    (A, "refs/heads/main"),
    (B, "refs/heads/gh-readonly-queue/main/pr-6728-d98e8a64ddf34856e74b24714e3bedb2f5a39553"),
    (C, "refs/heads/patch-1"),
    (D, "refs/tags/core_v0.14.0"),
]
CLONES = [
    ("llmb-v0.4", "NVIDIA-NeMo/Megatron-Bridge"),
    ("llmb-v0.4.0", "NVIDIA-NeMo/Megatron-Bridge"),
    ("release_v2.14", "NVIDIA-NeMo/Megatron-Bridge"),
    ("patch-2", "NVIDIA-NeMo/Megatron-Bridge"),
    ("v4", "actions/checkout"),
    ("v1.0.0", "actions/checkout"),
    ("pr-6728", "NVIDIA/Megatron-LM"),
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    remotes = tmp_path / "remotes/github.com"
    build_repo(remotes / "NVIDIA-NeMo/Megatron-Bridge.git", BRIDGE)
    build_repo(remotes / "actions/checkout.git", CHECKOUT)
    build_repo(remotes / "NVIDIA/Megatron-LM.git", MEGATRON)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    root = tmp_path / "project"
    root.mkdir()
    clones = "".join(f"git clone --branch {ref} https://github.com/{repo}.git\n" for ref, repo in CLONES)
    (root / "install.sh").write_text("#!/bin/bash\n" + clones, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _missing(line: int, ref: str, remote: str, then: str) -> str:
    return (
        f'install.sh:{line}:20: RL001 [error] ref "{ref}" is neither a branch nor a tag of {remote}, so '
        f"`git clone --branch` fails; {then}"
    )


def test_the_exact_analogue_is_the_answer_and_proposed_changes_are_none(project: Path, scan: Scan) -> None:
    bridge, checkout = "github.com/nvidia-nemo/megatron-bridge", "github.com/actions/checkout"
    megatron = "github.com/nvidia/megatron-lm"
    of_bridge, of_checkout = "its 5 branches and 1 tag", "its 3 branches and 3 tags"
    assert scan("--select", "RL001") == (
        1,
        [
            _missing(2, "llmb-v0.4", bridge, f'the closest of {of_bridge} is branch "llmb-r0.4"'),
            _missing(3, "llmb-v0.4.0", bridge, f'the closest of {of_bridge} is branch "llmb-r0.4.0"'),
            _missing(
                4,
                "release_v2.14",
                bridge,
                f'no ref names that version; the most similar of {of_bridge} is "v0.1.0a0"',
            ),
            _missing(5, "patch-2", bridge, "it has 5 branches and 1 tag"),
            _missing(6, "v4", checkout, f'the closest of {of_checkout} is branch "releases/v4"'),
            _missing(7, "v1.0.0", checkout, f'the closest of {of_checkout} is tag "1.0.0"'),
            _missing(
                8,
                "pr-6728",
                megatron,
                'no ref names that version; the most similar of its 3 branches and 1 tag is "core_v0.14.0"',
            ),
            "",
            "7 errors, 0 warnings, 0 info in 1 of 1 file (7 pins, 3 remotes: 3 checked (0 cached), 0 not "
            "checked)",
            # llmb-r0.4, llmb-r0.4.0, releases/v4 and 1.0.0: each the one exact analogue.
            "4 fixable with --fix --unsafe-fixes",
        ],
        [],
    )
