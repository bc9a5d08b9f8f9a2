"""A Dockerfile ARG without a default that a workflow gives at run time (``docker/build-push-action``'s
``build-args:`` with a GitHub expression) or a script computes (``--build-arg TE_REF="$(cat …)"``): RL009
says where the value is given, not "no default and no --build-arg", and lists the build as related."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
DOCKERFILE = """\
FROM ubuntu:22.04
ARG TE_REF
ARG APEX_REF
RUN git clone --depth 1 --branch "$TE_REF" https://github.com/NVIDIA/TransformerEngine.git
RUN git clone --depth 1 --branch "$APEX_REF" https://github.com/NVIDIA/apex.git
"""
WORKFLOW = """\
on:
  workflow_dispatch:
    inputs:
      te_ref:
        required: true
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v6
        with:
          file: docker/Dockerfile
          build-args: |
            TE_REF=${{ inputs.te_ref }}
            APEX_REF=${{ vars.APEX_REF }}
"""
SCRIPT = """\
#!/bin/sh
docker build -f docker/Dockerfile --build-arg APEX_REF="$(cat apex.txt)" .
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    (root / ".github/workflows").mkdir(parents=True)
    (root / "docker").mkdir()
    (root / "docker/Dockerfile").write_text(DOCKERFILE)
    (root / ".github/workflows/image.yml").write_text(WORKFLOW)
    monkeypatch.chdir(root)
    return root


def _unchecked(line: int, ref: str, remote: str, why: str) -> str:
    return (
        f'docker/Dockerfile:{line}:35: RL009 [info] ref "{ref}" of {remote} cannot be resolved statically '
        f"({why}), so it was not checked"
    )


BUILT_BY = (
    ".github/workflows/image.yml:10:15: note: built by `docker/build-push-action@v6` (step 0 of job 'build')"
)


def test_a_build_argument_given_at_run_time_says_where_it_is_given(project: Path, scan: Scan) -> None:
    te_ref = (
        "the build argument TE_REF is given at .github/workflows/image.yml:14: inputs.te_ref has no default"
    )
    assert scan("--offline", "--select", "RL009") == (
        0,
        [
            _unchecked(4, "$TE_REF", "github.com/nvidia/transformerengine", f"{te_ref}: the run gives it"),
            BUILT_BY,
            _unchecked(
                5,
                "$APEX_REF",
                "github.com/nvidia/apex",
                "the build argument APEX_REF is given at .github/workflows/image.yml:15: GitHub expression "
                "${{ vars.APEX_REF }}",
            ),
            BUILT_BY,
            "",
            "0 errors, 0 warnings, 2 info in 1 of 2 files (3 pins, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )


def test_a_build_argument_a_script_computes_says_where_it_is_given(project: Path, scan: Scan) -> None:
    (project / ".github/workflows/image.yml").unlink()
    (project / "build.sh").write_text(SCRIPT)
    code, out, _ = scan("--offline", "--select", "RL009")
    assert code == 0
    # TE_REF is not given by the build: it is an ARG without a default and without --build-arg
    assert "(ARG TE_REF has no default and no --build-arg)" in out[0]
    assert out[1:3] == [
        _unchecked(
            5,
            "$APEX_REF",
            "github.com/nvidia/apex",
            "the build argument APEX_REF is given at build.sh:2: command substitution",
        ),
        "build.sh:2:1: note: built by `docker build -f docker/Dockerfile --build-arg "
        'APEX_REF="$(cat apex.txt)" .`',
    ]
