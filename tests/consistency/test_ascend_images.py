"""The cross-file rules on a tree modelled on verl's Ascend images, through ``reflint scan`` with real
``git ls-remote`` lookups answered by local repositories (tests/gitfixtures.py).

The tree: A2/A3 Dockerfiles (variants) where MindSpeed is cloned ``--depth 1`` on the A2 side only and
Megatron-LM was bumped on the A3 side only; an install script that pins Megatron-LM at a third ref; and
the NPU unit-test workflow, whose job does not set the ``ENV`` that both images set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gitfixtures import FakeRemotes, build_remotes, set_env

from .helpers import scan_json, write_tree

A2 = "docker/ascend/Dockerfile.ascend_8.3.rc1_a2"
A3 = "docker/ascend/Dockerfile.ascend_8.3.rc1_a3"
SCRIPT = "scripts/install_npu.sh"
WORKFLOW = ".github/workflows/npu_unit_tests.yml"

IMAGE = """\
FROM quay.io/ascend/cann:8.3.rc1-{chip}-ubuntu22.04-py3.11
ENV VERL_USE_EXTERNAL_MODULES=verl_npu
RUN git clone {depth}https://gitcode.com/Ascend/MindSpeed.git && \\
    cd MindSpeed && git checkout {mindspeed} && cd .. && \\
    git clone --depth 1 --branch {megatron} https://github.com/NVIDIA/Megatron-LM.git
"""
INSTALL = "#!/bin/bash\npip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.11.0\n"
UNIT_TESTS = """\
name: NPU unit tests
on: [push]
jobs:
  npu_unit_tests:
    runs-on: linux-aarch64-a2-8
    env:
      HF_ENDPOINT: "https://hf-mirror.com"
    steps:
      - uses: actions/checkout@v4
      - run: pytest tests/special_npu
"""
MEGATRON = "github.com/nvidia/megatron-lm"
MINDSPEED = "gitcode.com/ascend/mindspeed"


@pytest.fixture(scope="module")
def remotes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    return build_remotes(tmp_path_factory.mktemp("remotes"))


@pytest.fixture
def ascend_tree(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> str:
    """Write the tree, answer gitcode.com from the GitHub mirror, and return the MindSpeed commit used."""
    gitcode = (f"url.{(remotes.root / 'github.com').resolve()}/.insteadOf", "https://gitcode.com/")
    set_env(monkeypatch, remotes.env([gitcode]))
    monkeypatch.chdir(tmp_path)
    commit = remotes["github.com/Ascend/MindSpeed"].branches["2.1.0_core_r0.12.1"][:8]
    write_tree(
        tmp_path,
        {
            A2: IMAGE.format(chip="910b", depth="--depth 1 ", mindspeed=commit, megatron="core_v0.12.1"),
            A3: IMAGE.format(chip="a3", depth="", mindspeed=commit, megatron="core_v0.15.0"),
            SCRIPT: INSTALL,
            WORKFLOW: UNIT_TESTS,
        },
    )
    return commit


def finding(
    code: str, severity: str, path: str, position: tuple[int, int, int], message: str, **fields: Any
) -> dict[str, Any]:
    line, column, end_column = position
    record = {
        "code": code,
        "rule": {
            "RL003": "shallow-clone-needs-history",
            "RL004": "variant-drift",
            "RL005": "cross-file-drift",
            "RL006": "env-drift",
        }[code],
        "severity": severity,
        "path": path,
        "line": line,
        "column": column,
        "end_line": line,
        "end_column": end_column,
        "message": message,
        "remote": None,
        "ref": None,
        "suggestion": None,
        "related": [],
        "fix": None,
    }
    record.update(fields)
    return record


def related(path: str, line: int, column: int, message: str) -> dict[str, Any]:
    return {"path": path, "line": line, "column": column, "message": message}


def expected_findings(commit: str) -> list[dict[str, Any]]:
    megatron_a2 = related(A2, 5, 34, f'{MEGATRON} is pinned at "core_v0.12.1" here')
    megatron_a3 = related(A3, 5, 34, f'{MEGATRON} is pinned at "core_v0.15.0" here')
    megatron_script = related(SCRIPT, 2, 59, f'{MEGATRON} is pinned at "core_v0.11.0" here')
    family = (
        "the files of drift family 'ascend' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )
    variants = (
        "a variant of the same recipe; pin the same ref in every variant (or list the remote under "
        "variant-allowed-drift)"
    )
    same_way = "a variant of the same recipe; clone it the same way in every variant"
    image_env = [
        related(A2, 2, 31, 'the image sets VERL_USE_EXTERNAL_MODULES="verl_npu"'),
        related(A3, 2, 31, 'the image sets VERL_USE_EXTERNAL_MODULES="verl_npu"'),
    ]
    return [
        finding(
            "RL006",
            "warning",
            WORKFLOW,
            (6, 5, 8),
            'job "npu_unit_tests" does not set VERL_USE_EXTERNAL_MODULES, which the image built by '
            f"{A2} (and 1 more) sets to \"verl_npu\"; add it to the job's or the workflow's `env:`",
            related=image_env,
        ),
        finding(
            "RL003",
            "error",
            A2,
            (4, 34, 42),
            f"a shallow clone (`--depth 1`) of {MINDSPEED}, which the rule pack lists under "
            f'full-history-remotes: its commits are checked out by id (here "{commit}"), and a shallow clone '
            "holds only the newest ones; drop the shallow option",
            remote=MINDSPEED,
            ref=commit,
            related=[related(A2, 3, 15, "the shallow option, which the fix deletes")],
            fix={
                "applicability": "safe",
                "message": "drop the shallow option: clone the whole history",
                "edits": [
                    {"path": A2, "line": 3, "column": 14, "end_line": 3, "end_column": 24, "content": ""}
                ],
            },
        ),
        finding(
            "RL004",
            "error",
            A2,
            (4, 34, 42),
            f"{MINDSPEED} is cloned shallow (`--depth 1`) here but with full history in {A3}, {same_way}",
            remote=MINDSPEED,
            ref=commit,
            related=[related(A3, 4, 34, f"{MINDSPEED} is cloned with full history here")],
        ),
        finding(
            "RL004",
            "error",
            A2,
            (5, 34, 46),
            f'{MEGATRON} is pinned at "core_v0.12.1" here but at "core_v0.15.0" in {A3}, {variants}',
            remote=MEGATRON,
            ref="core_v0.12.1",
            related=[megatron_a3],
        ),
        finding(
            "RL005",
            "warning",
            A2,
            (5, 34, 46),
            f'{MEGATRON} is pinned at "core_v0.12.1" here, but at "core_v0.11.0" in {SCRIPT}; {family}',
            remote=MEGATRON,
            ref="core_v0.12.1",
            related=[megatron_script],
        ),
        finding(
            "RL004",
            "error",
            A3,
            (4, 34, 42),
            f"{MINDSPEED} is cloned with full history here but shallow (`--depth 1`) in {A2}, {same_way}",
            remote=MINDSPEED,
            ref=commit,
            related=[related(A2, 4, 34, f"{MINDSPEED} is cloned shallow (`--depth 1`) here")],
        ),
        finding(
            "RL004",
            "error",
            A3,
            (5, 34, 46),
            f'{MEGATRON} is pinned at "core_v0.15.0" here but at "core_v0.12.1" in {A2}, {variants}',
            remote=MEGATRON,
            ref="core_v0.15.0",
            related=[megatron_a2],
        ),
        finding(
            "RL005",
            "warning",
            A3,
            (5, 34, 46),
            f'{MEGATRON} is pinned at "core_v0.15.0" here, but at "core_v0.11.0" in {SCRIPT}; {family}',
            remote=MEGATRON,
            ref="core_v0.15.0",
            related=[megatron_script],
        ),
        finding(
            "RL005",
            "warning",
            SCRIPT,
            (2, 59, 71),
            f'{MEGATRON} is pinned at "core_v0.11.0" here, but at "core_v0.12.1" in {A2} and at '
            f'"core_v0.15.0" in {A3}; {family}',
            remote=MEGATRON,
            ref="core_v0.11.0",
            related=[megatron_a2, megatron_a3],
        ),
    ]


def test_the_whole_tree(ascend_tree: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, document, err = scan_json(capsys, "--cache-dir", str(tmp_path / "cache"))
    assert (code, err) == (1, "")
    assert document["findings"] == expected_findings(ascend_tree)
    assert document["summary"] == {
        "files": 4,
        "pins": 6,
        "remotes": 3,
        "lookups": 3,
        "cached": 0,
        "cached_failures": 0,
        "checked": 3,
        "unchecked": 0,
        "unchecked_pins": 0,
        "findings": {"error": 5, "warning": 4, "info": 0},
        "fixable": {"now": 1, "with_unsafe_fixes": 0},
        "fixed": None,
    }


def test_pre_commit_passes_one_variant_and_the_workflow(
    ascend_tree: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The A2 Dockerfile and the script are read from disk, without lookups; findings are on the paths
    given."""
    code, document, _ = scan_json(capsys, "--cache-dir", str(tmp_path / "cache"), A3, WORKFLOW)
    assert code == 1
    assert document["findings"] == [f for f in expected_findings(ascend_tree) if f["path"] in (A3, WORKFLOW)]
    assert (document["summary"]["files"], document["summary"]["remotes"]) == (2, 3)
    code, document, _ = scan_json(capsys, "--cache-dir", str(tmp_path / "cache"), SCRIPT)
    assert document["findings"] == [f for f in expected_findings(ascend_tree) if f["path"] == SCRIPT]
    assert (document["summary"]["pins"], document["summary"]["remotes"]) == (1, 1)  # context is not looked up


def test_fixing_the_tree_clears_every_finding(
    ascend_tree: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixed = IMAGE.format(chip="a3", depth="", mindspeed=ascend_tree, megatron="core_v0.12.1")
    write_tree(
        tmp_path,
        {
            A2: fixed.replace("-a3-", "-910b-"),
            A3: fixed,
            SCRIPT: INSTALL.replace("core_v0.11.0", "core_v0.12.1"),
            WORKFLOW: UNIT_TESTS.replace(
                "    env:\n", "    env:\n      VERL_USE_EXTERNAL_MODULES: verl_npu\n"
            ),
        },
    )
    code, document, _ = scan_json(capsys, "--cache-dir", str(tmp_path / "cache"))
    assert (code, document["findings"]) == (0, [])
