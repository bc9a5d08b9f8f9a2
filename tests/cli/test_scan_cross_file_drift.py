"""RL005 reports each drift once, on the side out of step, and names the files that agree: verl's shape,
two older images (variants of each other) at vllm v0.9.1 against two newer images and the install docs at
v0.11.0 (the docs compared with each image, the images of one kind not with each other)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
CLONE = "RUN git clone --depth 1 --branch {} https://github.com/vllm-project/vllm.git\n"
DOCS = """\
Install vllm
============

.. code-block:: bash

    git clone --depth 1 --branch v0.11.0 https://github.com/vllm-project/vllm.git
"""
OLD_A2, OLD_A3 = "docker/ascend/Dockerfile.ascend_8.2_a2", "docker/ascend/Dockerfile.ascend_8.2_a3"
NEW_A2, NEW_A3 = "docker/ascend/Dockerfile.ascend_8.3_a2", "docker/ascend/Dockerfile.ascend_8.3_a3"
QUICK_START = "docs/ascend/quick_start.rst"
VLLM = "github.com/vllm-project/vllm"
#: Once RL005 finds vllm's pins at two refs, it asks for its ref list (offline: not checked), which would
#: tell a branch (which never wins the vote) from a tag.
OFFLINE_LOOKUP = (
    "1 remote: 0 checked (0 cached), 1 not checked; looked up only to tell tags, branches and commit ids "
    "apart (RL004, RL005))"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    (root / "docker/ascend").mkdir(parents=True)
    (root / "docs/ascend").mkdir(parents=True)
    for path, ref in ((OLD_A2, "v0.9.1"), (OLD_A3, "v0.9.1"), (NEW_A2, "v0.11.0"), (NEW_A3, "v0.11.0")):
        (root / path).write_text("FROM ubuntu:22.04\n" + CLONE.format(ref))
    (root / QUICK_START).write_text(DOCS)
    monkeypatch.chdir(root)
    return root


def _finding(here: str, mate: str) -> list[str]:
    return [
        f'{here}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and in {mate}, but 3 other pins of '
        f'drift family \'ascend\' are at "v0.11.0": {NEW_A2}, {NEW_A3}, {QUICK_START}; pin "v0.11.0" as they '
        "do (or list the remote under drift-allowed-remotes)",
        f'{mate}:2:34: note: {VLLM} is pinned at "v0.9.1" here too',
        f'{NEW_A2}:2:34: note: {VLLM} is pinned at "v0.11.0" here',
        f'{NEW_A3}:2:34: note: {VLLM} is pinned at "v0.11.0" here',
        f'{QUICK_START}:6:34: note: {VLLM} is pinned at "v0.11.0" here',
        "",
    ]


def test_a_drift_is_one_finding_at_the_minority_that_names_the_files_that_agree(
    project: Path, scan: Scan
) -> None:
    assert scan("--offline", "--select", "RL005") == (
        0,
        [
            *_finding(OLD_A2, OLD_A3),
            f"0 errors, 1 warning, 0 info in 1 of 5 files (5 pins, {OFFLINE_LOOKUP}",
        ],
        [],
    )


def test_a_staged_minority_file_gets_the_finding_and_the_staged_majority_none(
    project: Path, scan: Scan
) -> None:
    # pre-commit passes the staged files: the finding goes to the staged file of the side out of step
    assert scan("--offline", "--select", "RL005", OLD_A3) == (
        0,
        [
            *_finding(OLD_A3, OLD_A2),
            f"0 errors, 1 warning, 0 info in 1 of 1 file (1 pin, {OFFLINE_LOOKUP}",
        ],
        [],
    )
    assert scan("--offline", "--select", "RL005", QUICK_START)[1] == [
        "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not checked)"
    ]
