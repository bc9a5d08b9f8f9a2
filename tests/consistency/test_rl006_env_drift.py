"""RL006 env-drift: a Dockerfile ENV that the paired workflows must set alike; and where jobs are written."""

from __future__ import annotations

from pathlib import Path

from ascend_reflint.check.pack_schema import EnvPair
from ascend_reflint.check.workflow_jobs import WorkflowJob, workflow_jobs
from ascend_reflint.model import Related, Span

from .helpers import default_policy, findings_in, record

DOCKERFILE = "docker/ascend/Dockerfile.ascend_a2"
WORKFLOW = ".github/workflows/npu_unit_tests.yml"
IMAGE = "FROM ubuntu\nENV VERL_USE_EXTERNAL_MODULES=verl_npu\n"
IMAGE_SETTING = Related(DOCKERFILE, 2, 31, 'the image sets VERL_USE_EXTERNAL_MODULES="verl_npu"')

TWO_JOBS = """\
name: NPU unit tests
on: [push]
jobs:
  unit:
    runs-on: linux-aarch64-a2-8
    env:
      HF_ENDPOINT: "https://hf-mirror.com"
    steps:
      - run: pytest tests
  "e2e":
    runs-on: linux-aarch64-a2-8
    steps:
      - run: bash tests/special_npu/run.sh
  call:
    uses: ./.github/workflows/reusable.yml
"""


def test_the_jobs_of_a_workflow_and_where_they_are_written() -> None:
    assert workflow_jobs(TWO_JOBS) == [
        WorkflowJob("unit", Span(4, 3, 4, 7), Span(6, 5, 6, 8), reusable=False),
        WorkflowJob("e2e", Span(10, 3, 10, 8), None, reusable=False),
        WorkflowJob("call", Span(14, 3, 14, 7), None, reusable=True),
    ]
    assert workflow_jobs("jobs: [\n") == []
    assert workflow_jobs("on: push\n") == []


def test_jobs_without_the_variable_are_reported_at_their_env_key_or_id(tmp_path: Path) -> None:
    found = findings_in(tmp_path, {DOCKERFILE: IMAGE, WORKFLOW: TWO_JOBS}, "RL006")
    message = (
        'job "{job}" does not set VERL_USE_EXTERNAL_MODULES, which the image built by '
        f"{DOCKERFILE} sets to \"verl_npu\"; add it to the job's or the workflow's `env:`"
    )
    assert [record(f) for f in found] == [
        ("RL006", WORKFLOW, 6, 5, 8, message.format(job="unit"), (IMAGE_SETTING,)),
        ("RL006", WORKFLOW, 10, 3, 8, message.format(job="e2e"), (IMAGE_SETTING,)),
    ]
    assert [(f.severity.label, f.remote, f.ref) for f in found] == [("warning", None, None)] * 2


def test_a_workflow_level_setting_covers_every_job(tmp_path: Path) -> None:
    workflow = "env:\n  VERL_USE_EXTERNAL_MODULES: verl_npu\n" + TWO_JOBS
    assert findings_in(tmp_path, {DOCKERFILE: IMAGE, WORKFLOW: workflow}, "RL006") == []


def test_another_value_at_any_level_is_reported_where_it_is_set(tmp_path: Path) -> None:
    workflow = (
        "env:\n"
        "  VERL_USE_EXTERNAL_MODULES: verl_gpu\n"
        "jobs:\n"
        "  unit:\n"
        "    env:\n"
        "      VERL_USE_EXTERNAL_MODULES: 'verl_npu'\n"
        "    steps:\n"
        "      - run: pytest\n"
        "        env:\n"
        "          VERL_USE_EXTERNAL_MODULES: ''\n"
        "      - run: pytest\n"
        "        env:\n"
        "          VERL_USE_EXTERNAL_MODULES: ${{ inputs.modules }}\n"
    )
    found = findings_in(tmp_path, {DOCKERFILE: IMAGE, WORKFLOW: workflow}, "RL006")
    message = (
        'VERL_USE_EXTERNAL_MODULES is "{value}" here but "verl_npu" in the image built by '
        f'{DOCKERFILE}, so CI runs another configuration than the image; set it to "verl_npu"'
    )
    assert [record(f) for f in found] == [
        ("RL006", WORKFLOW, 2, 30, 38, message.format(value="verl_gpu"), (IMAGE_SETTING,)),
        ("RL006", WORKFLOW, 10, 11, 36, message.format(value=""), (IMAGE_SETTING,)),
    ]


def test_only_paired_files_and_shared_variables_are_compared(tmp_path: Path) -> None:
    files = {
        DOCKERFILE: IMAGE + "ENV OTHER=1\n",
        "docker/cuda/Dockerfile": "FROM ubuntu\nENV VERL_USE_EXTERNAL_MODULES=verl_gpu\n",
        ".github/workflows/gpu_unit_tests.yml": TWO_JOBS,
        WORKFLOW: "env:\n  VERL_USE_EXTERNAL_MODULES: verl_npu\n" + TWO_JOBS,
    }
    assert findings_in(tmp_path, files, "RL006") == []
    pairs = (EnvPair(dockerfiles=("docker/cuda/",), workflows=(".github/workflows/gpu_*",)),)
    policy = default_policy(env_pairs=pairs, shared_env=("OTHER",))
    found = findings_in(tmp_path, files, "RL006", policy=policy)
    gpu_workflow, gpu_image = ".github/workflows/gpu_unit_tests.yml", "docker/cuda/Dockerfile"
    gpu_setting = Related(gpu_image, 2, 31, 'the image sets VERL_USE_EXTERNAL_MODULES="verl_gpu"')
    other_setting = Related(DOCKERFILE, 3, 11, 'the image sets OTHER="1"')
    assert [record(f) for f in found] == [
        *_unset_in_both_jobs(
            gpu_workflow, 6, "VERL_USE_EXTERNAL_MODULES", gpu_image, "verl_gpu", gpu_setting
        ),
        *_unset_in_both_jobs(WORKFLOW, 8, "OTHER", DOCKERFILE, "1", other_setting),
    ]


def _unset_in_both_jobs(
    workflow: str, line: int, variable: str, image: str, value: str, setting: Related
) -> list[tuple[object, ...]]:
    """RL006's records for the two jobs of TWO_JOBS, which does not set ``variable`` (``image`` sets it
    to ``value``), written from ``line`` of ``workflow`` on: job "unit" at its ``env:`` key, job "e2e" at
    its id."""
    return [
        ("RL006", workflow, line, 5, 8, _unset("unit", variable, image, value), (setting,)),
        ("RL006", workflow, line + 4, 3, 8, _unset("e2e", variable, image, value), (setting,)),
    ]


def _unset(job: str, variable: str, image: str, value: str) -> str:
    """RL006's message for a job that does not set ``variable``, which ``image`` sets to ``value``."""
    return (
        f'job "{job}" does not set {variable}, which the image built by {image} sets to "{value}"; add it to '
        "the job's or the workflow's `env:`"
    )


def test_an_unknown_image_value_is_not_compared(tmp_path: Path) -> None:
    image = "FROM ubuntu\nARG MODULES\nENV VERL_USE_EXTERNAL_MODULES=$MODULES\n"
    assert findings_in(tmp_path, {DOCKERFILE: image, WORKFLOW: TWO_JOBS}, "RL006") == []


def test_only_the_scanned_workflow_is_reported_and_the_image_is_read_as_context(tmp_path: Path) -> None:
    files = {DOCKERFILE: IMAGE, WORKFLOW: TWO_JOBS}
    assert findings_in(tmp_path, files, "RL006", scanned=[DOCKERFILE]) == []
    assert [
        record(f) for f in findings_in(tmp_path, files, "RL006", scanned=[WORKFLOW])
    ] == _unset_in_both_jobs(WORKFLOW, 6, "VERL_USE_EXTERNAL_MODULES", DOCKERFILE, "verl_npu", IMAGE_SETTING)
