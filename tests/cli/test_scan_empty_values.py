"""A variable that the file sets to nothing for good (``REF=`` in a script, ``ENV REF=""``, a workflow
``env:`` entry ``""``) is an empty ref where a pin uses it (RL012), while an empty default that the build's
caller replaces (``ARG REF=""``) and a knob the script tests before it uses it stay unresolved (RL009)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

SCRIPT = """\
#!/bin/sh
MEGATRON_REF=
git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
VLLM_COMMIT=""
git clone https://github.com/vllm-project/vllm.git
if [ -n "$VLLM_COMMIT" ]; then git -C vllm checkout "$VLLM_COMMIT"; fi
"""
DOCKERFILE = """\
FROM ubuntu:22.04
ARG TE_REF=""
ENV APEX_REF=""
RUN git clone --branch "$TE_REF" https://github.com/NVIDIA/TransformerEngine.git
RUN git clone --branch "$APEX_REF" https://github.com/NVIDIA/apex.git
"""
WORKFLOW = """\
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      MINDSPEED_REF: ""
    steps:
      - run: git clone --branch "$MINDSPEED_REF" https://gitcode.com/Ascend/MindSpeed.git
"""
CLONE_FAILS = (
    "so `git clone --branch` gets no branch name and the clone fails; set the variable to the ref to use"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "install.sh").write_text(SCRIPT)
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "build.yml").write_text(WORKFLOW)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_variable_set_to_nothing_is_an_empty_ref_and_an_empty_default_is_unresolved(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["scan", "--format", "json", "--offline", "--select", "RL009,RL012", "--cache-dir", "../c", "."]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    found = [
        (f"{f['path']}:{f['line']}:{f['column']}", f["code"], f["message"]) for f in document["findings"]
    ]
    assert found == [
        (
            ".github/workflows/build.yml:8:34",
            "RL012",
            'ref "$MINDSPEED_REF" expands to nothing here ($MINDSPEED_REF is set to nothing on line 6), '
            + CLONE_FAILS,
        ),
        (
            "Dockerfile:4:25",
            "RL009",
            'ref "$TE_REF" of github.com/nvidia/transformerengine cannot be resolved statically ($TE_REF is '
            "empty here, so it must come from outside the file), so it was not checked",
        ),
        (
            "Dockerfile:5:25",
            "RL012",
            'ref "$APEX_REF" expands to nothing here (ENV APEX_REF is set to nothing on line 3), '
            + CLONE_FAILS,
        ),
        (
            "install.sh:3:31",
            "RL012",
            'ref "$MEGATRON_REF" expands to nothing here ($MEGATRON_REF is set to nothing on line 2), '
            + CLONE_FAILS,
        ),
        (
            "install.sh:6:54",
            "RL009",
            'ref "$VLLM_COMMIT" of github.com/vllm-project/vllm cannot be resolved statically '
            "($VLLM_COMMIT is set to nothing on line 4 and the script tests whether it is set), so it was "
            "not checked",
        ),
    ]


INPUTS_WORKFLOW = """\
on:
  schedule:
    - cron: "0 0 * * *"
  workflow_dispatch:
    inputs:
      te_ref:
        default: ""
      apex_ref:
        default: "25.09"
  workflow_call:
    inputs:
      te_ref:
        type: string
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: git clone --branch "${{ inputs.te_ref }}" https://github.com/NVIDIA/TransformerEngine.git
      - run: git clone --branch "$TE_REF" https://github.com/NVIDIA/TransformerEngine.git te
        env:
          TE_REF: ${{ inputs.te_ref }}
      - run: git clone --branch "${{ inputs.apex_ref }}" https://github.com/NVIDIA/apex.git
"""


def test_an_input_without_a_usable_default_is_one_unknown_ref_and_one_with_a_default_is_empty_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # te_ref: empty on schedule and unknown on a dispatch or a call — one finding, not RL009 "has no
    # default" beside RL012 "assign the variable"; apex_ref: 25.09 when dispatched, empty on schedule
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "nightly.yml").write_text(INPUTS_WORKFLOW)
    monkeypatch.chdir(tmp_path)
    code = main(
        ["scan", "--format", "json", "--offline", "--select", "RL009,RL012", "--cache-dir", "../c", "."]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    found = [(f"{f['line']}:{f['column']}", f["code"], f["message"]) for f in document["findings"]]
    te_ref = (
        'inputs.te_ref defaults to "" and is empty when the workflow runs on schedule: a workflow_dispatch '
        "or workflow_call run gives it"
    )
    assert found == [
        (
            "18:34",
            "RL009",
            'ref "${{ inputs.te_ref }}" of github.com/nvidia/transformerengine cannot be resolved statically '
            f"({te_ref}), so it was not checked",
        ),
        (
            "19:34",
            "RL009",
            'ref "$TE_REF" of github.com/nvidia/transformerengine cannot be resolved statically ($TE_REF is '
            f"set by GitHub expression ${{{{ inputs.te_ref }}}}; {te_ref}), so it was not checked",
        ),
        (
            "22:34",
            "RL012",
            'ref "${{ inputs.apex_ref }}" expands to nothing here (inputs.apex_ref is empty when the '
            "workflow runs on schedule: only a workflow_dispatch run sets it), so `git clone --branch` gets "
            "no branch name and the clone fails; give the expression a fallback ref "
            "(`${{ inputs.apex_ref || '<ref>' }}`), or run the step only on the triggers that set the input",
        ),
    ]
