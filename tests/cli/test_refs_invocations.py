"""Values that other files give: build arguments (``docker build --build-arg`` in scripts and workflows,
``docker/build-push-action``, bake targets, compose services) and the inputs of a reusable workflow, and the
workflow's own expressions (matrix, inputs, env) — through ``reflint refs`` and ``reflint scan``, with the
traps: a file outside the project root, a value that changes nothing, a value nobody can know."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ascend_reflint.cli import main

COMMIT = "0123456789abcdef0123456789abcdef01234567"
DOCKERFILE = """\
FROM ubuntu:22.04
ARG VLLM_TAG=v0.9.0
ARG TE_REF=v2.0
RUN git clone --depth 1 -b ${VLLM_TAG} https://github.com/vllm-project/vllm.git
RUN pip install "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_REF}"
RUN git clone -b v1 https://github.com/o/fixed.git
"""
FILES = {
    "docker/Dockerfile": DOCKERFILE,
    "scripts/build.sh": (
        "#!/bin/bash\n"
        "docker build --build-arg VLLM_TAG=v0.9.1 -f docker/Dockerfile .\n"
        "docker build --build-arg VLLM_TAG=v0.9.1 --build-arg TE_REF=v2.0 -f docker/Dockerfile .\n"
        f"docker build --build-arg VLLM_TAG={COMMIT} -f docker/Dockerfile .\n"
        "docker build --build-arg VLLM_TAG=v9 -f ../outside/Dockerfile .\n"
        "docker buildx build https://github.com/o/ctx.git#v3:docker\n"
    ),
    ".github/workflows/image.yml": (
        "on: push\n"
        "jobs:\n"
        "  image:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        f"      - run: docker build --build-arg VLLM_TAG={COMMIT} -f docker/Dockerfile .\n"
        "      - uses: docker/build-push-action@v6\n"
        "        with:\n"
        "          file: docker/Dockerfile\n"
        "          build-args: |\n"
        "            VLLM_TAG=v0.9.2\n"
        "            TE_REF=v2.2\n"
    ),
    "compose.yaml": (
        "x-build: &build\n"
        "  context: .\n"
        "  dockerfile: docker/Dockerfile\n"
        "services:\n"
        "  a3:\n"
        "    build:\n"
        "      <<: *build\n"
        "      args:\n"
        "        - VLLM_TAG=v0.9.4\n"
        "        - TE_REF=${TE_REF:-v2.5}\n"
        "  ctx:\n"
        "    build: https://github.com/o/ctx2.git#v7:sub\n"
    ),
    "docker-bake.hcl": (
        'variable "VLLM_TAG" {\n'
        '  default = "v0.9.6"\n'
        "}\n"
        'target "base" {\n'
        '  dockerfile = "docker/Dockerfile"\n'
        "}\n"
        'target "a2" {\n'
        '  inherits = ["base"]\n'
        '  args = { VLLM_TAG = "${VLLM_TAG}" }\n'
        "}\n"
    ),
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Dockerfile").write_text(DOCKERFILE)
    (root / ".reflint.yaml").write_text("")  # the project root
    monkeypatch.chdir(root)
    return root


def refs(capsys: pytest.CaptureFixture[str], *args: str) -> list[tuple[object, ...]]:
    assert main(["refs", "--format", "json", *args]) == 0
    return [
        (
            pin["path"],
            pin["line"],
            pin["column"],
            pin["ref"],
            None if pin["ref_origin"] is None else (pin["ref_origin"]["path"], pin["ref_origin"]["line"]),
            [(site["path"], site["line"]) for site in pin["call_sites"]],
        )
        for pin in json.loads(capsys.readouterr().out)["pins"]
    ]


def test_each_build_gives_the_dockerfile_its_build_arguments(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workflow, script = ".github/workflows/image.yml", "scripts/build.sh"
    found = refs(capsys)
    assert [pin for pin in found if pin[0] == "docker/Dockerfile"] == [
        # the ARG defaults: one more way the Dockerfile is built
        ("docker/Dockerfile", 4, 28, "v0.9.0", ("docker/Dockerfile", 2), []),
        # a full commit id from two files: one pin, both builds its call sites, no one origin
        ("docker/Dockerfile", 4, 28, COMMIT, None, [(workflow, 6), (script, 4)]),
        # build-push-action's build-args, each value where the workflow writes it
        ("docker/Dockerfile", 4, 28, "v0.9.2", (workflow, 11), [(workflow, 7)]),
        ("docker/Dockerfile", 4, 28, "v0.9.4", ("compose.yaml", 9), [("compose.yaml", 5)]),
        ("docker/Dockerfile", 4, 28, "v0.9.6", ("docker-bake.hcl", 2), [("docker-bake.hcl", 7)]),
        ("docker/Dockerfile", 4, 28, "v0.9.1", None, [(script, 2), (script, 3)]),
        ("docker/Dockerfile", 5, 70, "v2.0", ("docker/Dockerfile", 3), []),  # the default, also given
        ("docker/Dockerfile", 5, 70, "v2.2", (workflow, 12), [(workflow, 7)]),
        ("docker/Dockerfile", 5, 70, "v2.5", None, [("compose.yaml", 5)]),  # the default of ${TE_REF:-v2.5}
        ("docker/Dockerfile", 6, 18, "v1", None, []),  # no build argument changes it: not repeated
    ]
    # the other pins: the action that builds, and each git URL build context, a pin of its own at its ref
    assert [pin for pin in found if pin[0] != "docker/Dockerfile"] == [
        (workflow, 7, 40, "v6", None, []),
        ("compose.yaml", 12, 42, "v7", None, []),
        (script, 6, 50, "v3", None, []),
    ]


def test_reflints_own_build_arg_overrides_what_every_build_gives(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = refs(capsys, "--build-arg", "VLLM_TAG=v1.0.0")
    assert {pin[3] for pin in found if pin[0] == "docker/Dockerfile" and pin[1] == 4} == {"v1.0.0"}


def test_what_other_files_give_survives_the_extraction_cache(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the second run answers every file from the cache: the invocations are in its entries, the values
    # they give are applied after it
    cache = str(project.parent / "cache")
    first = refs(capsys, "--cache-dir", cache)
    assert any(pin[5] for pin in first)
    assert list((project.parent / "cache" / "extract").glob("*/*.json"))
    assert refs(capsys, "--cache-dir", cache) == first


def test_build_arguments_from_an_array_are_written_in_the_array(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # vllm-ascend's _nightly_image_build.yaml builds its docker build arguments in an array
    (project / "scripts" / "build.sh").write_text(
        'ARGS=(\n  -f docker/Dockerfile\n  --build-arg VLLM_TAG="v0.9.8"\n  --build-arg TE_REF="$UNSET"\n)\n'
        'docker build "${ARGS[@]}" .\n'
    )
    found = [
        pin for pin in refs(capsys) if pin[0] == "docker/Dockerfile" and pin[5] == [("scripts/build.sh", 6)]
    ]
    assert found == [
        ("docker/Dockerfile", 4, 28, "v0.9.8", ("scripts/build.sh", 3), [("scripts/build.sh", 6)])
    ]
    assert main(["refs", "--format", "json"]) == 0
    (origin,) = [
        pin["ref_origin"] for pin in json.loads(capsys.readouterr().out)["pins"] if pin["ref"] == "v0.9.8"
    ]
    assert (origin["line"], origin["column"], origin["end_column"]) == (3, 25, 31)  # inside the quotes


def test_a_dockerfile_outside_the_project_root_is_never_read(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "docker" / "link").symlink_to(project.parent / "outside", target_is_directory=True)
    (project / "scripts" / "build.sh").write_text(
        "docker build --build-arg VLLM_TAG=v9 -f docker/link/Dockerfile .\n"
    )
    found = refs(capsys)
    assert "v9" not in {pin[3] for pin in found}


def test_a_finding_that_several_builds_cause_is_reported_once_with_each_build_related(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "--format", "json", "--offline", "--select", "RL007", "--cache-dir", os.devnull])
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [
        (
            finding["path"],
            finding["line"],
            finding["column"],
            [(r["path"], r["line"]) for r in finding["related"]],
        )
        for finding in document["findings"]
    ] == [
        ("docker/Dockerfile", 4, 28, [(".github/workflows/image.yml", 6), ("scripts/build.sh", 4)]),
    ]


def test_a_build_in_a_file_not_given_still_gives_the_given_dockerfile_its_arguments(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `scan docker/Dockerfile` with a cross-file rule: the script and the workflow that build it are read as
    # context, and the Dockerfile's text, let go after its extraction, is read again to apply what they give
    given = ["docker/Dockerfile", "--format", "json", "--offline", "--cache-dir", os.devnull]
    code = main(["scan", *given, "--select", "RL005,RL007"])
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [
        (finding["path"], finding["line"], [(r["path"], r["line"]) for r in finding["related"]])
        for finding in document["findings"]
    ] == [("docker/Dockerfile", 4, [(".github/workflows/image.yml", 6), ("scripts/build.sh", 4)])]


WORKFLOW = """\
on:
  push:
  workflow_dispatch:
    inputs:
      vllm:
        default: v0.9.1
env:
  TOP: v1
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        te: [v2.1, v2.2]
        py: ["3.10", "3.11"]
        exclude:
          - te: v2.2
            py: "3.10"
        include:
          - te: v2.3
            py: "3.12"
    env:
      TE: ${{ matrix.te }}
    steps:
      - run: git clone -b $TE https://github.com/NVIDIA/TransformerEngine.git
      - run: git clone -b ${{ inputs.vllm }} https://github.com/vllm-project/vllm.git
      - run: git clone -b ${{ env.TOP }} https://github.com/o/top.git
      - run: git clone -b ${{ vars.REF }} https://github.com/o/vars.git
  call:
    uses: ./.github/workflows/reusable.yml
    with:
      ref: v5
"""
REUSABLE = """\
on:
  workflow_call:
    inputs:
      ref:
        default: v4
jobs:
  r:
    runs-on: ubuntu-latest
    steps:
      - run: git clone -b ${{ inputs.ref }} https://github.com/o/reused.git
"""


def test_workflow_expressions_take_each_value_the_workflow_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    (folder / "ci.yml").write_text(WORKFLOW)
    (folder / "reusable.yml").write_text(REUSABLE)
    (tmp_path / ".reflint.yaml").write_text("")
    monkeypatch.chdir(tmp_path)
    ci, reusable = ".github/workflows/ci.yml", ".github/workflows/reusable.yml"
    assert refs(capsys) == [
        # matrix.te: its lists, less exclude, plus include; through the job's env
        (ci, 25, 27, "v2.1", (ci, 14), []),
        (ci, 25, 27, "v2.2", (ci, 14), []),
        (ci, 25, 27, "v2.3", (ci, 20), []),
        # the dispatch default; on push the input is empty (RL012)
        (ci, 26, 27, "v0.9.1", (ci, 6), []),
        (ci, 26, 27, None, None, []),
        (ci, 27, 27, "v1", (ci, 8), []),
        (ci, 28, 27, None, None, []),  # vars: never guessed
        # the callee: its default as its own triggers run it, and the caller's value
        (reusable, 10, 27, "v4", (reusable, 5), []),
        (reusable, 10, 27, "v5", (ci, 32), [(ci, 30)]),
    ]
