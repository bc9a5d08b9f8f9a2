"""The span invariant (see :mod:`.spans`) over recipes shaped like a real checkout's, and, on demand, over a
real checkout.

``data/verl-shaped`` holds Dockerfiles, scripts, workflows and requirement files written for these tests in
the shapes of volcengine/verl's (Ascend and ROCm images, clone-then-checkout across ``WORKDIR``, ``ENV``
URLs, exec-form RUN, folded and literal ``run:`` blocks, pip VCS URLs with markers and fragments); the URLs
and refs are real ones. ``REFLINT_SPAN_CHECKOUT=/path/to/verl pytest tests/hostile -k checkout`` checks
every pin of a real checkout the same way.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from ascend_reflint.extract import ExtractError, extract_file
from ascend_reflint.inventory import build_inventory
from ascend_reflint.model import FileKind, SourceFile

from .spans import span_violations
from .support import text_at

DATA = Path(__file__).resolve().parent / "data" / "verl-shaped"

EXPECTED = [
    (".github/workflows/docker-build-ascend-a3.yml", 13, 41, 47, "v1.3.1"),
    (".github/workflows/docker-build-ascend-a3.yml", 15, 32, 34, "v4"),
    (".github/workflows/docker-build-ascend-a3.yml", 16, 37, 39, "v5"),
    (".github/workflows/docker-build-ascend-a3.yml", 20, 43, 45, "v3"),
    (".github/workflows/docker-build-ascend-a3.yml", 21, 35, 37, "v3"),
    (".github/workflows/docker-build-ascend-a3.yml", 24, 40, 42, "v6"),
    (
        ".github/workflows/e2e_ppo_trainer_megatron_vllm.yml",
        25,
        32,
        72,
        "11bd71901bbe5b1630ceea73d27597364c9af683",
    ),
    (".github/workflows/e2e_ppo_trainer_megatron_vllm.yml", 27, 46, 48, "v1"),
    (
        ".github/workflows/e2e_ppo_trainer_megatron_vllm.yml",
        39,
        32,
        72,
        "11bd71901bbe5b1630ceea73d27597364c9af683",
    ),
    (".github/workflows/e2e_ppo_trainer_megatron_vllm.yml", 45, 79, 86, "83a7c11"),
    (".github/workflows/e2e_ppo_trainer_megatron_vllm.yml", 46, 70, 77, "5455f0a"),
    (".github/workflows/e2e_ppo_trainer_megatron_vllm.yml", 52, 77, 83, "v0.1.4"),
    (".github/workflows/e2e_ppo_trainer_megatron_vllm.yml", 60, 46, 48, "v1"),
    ("docker/Dockerfile.stable.vllm", 5, 28, 35, "v0.12.0"),
    ("docker/Dockerfile.stable.vllm", 10, 9, 43, None),
    ("docker/Dockerfile.stable.vllm", 12, 57, 70, "release_v2.10"),
    ("docker/Dockerfile.stable.vllm", 14, 18, 24, "v2.5.1"),
    ("docker/Dockerfile.stable.vllm", 16, 18, 24, "v1.2.1"),
    ("docker/Dockerfile.stable.vllm", 18, 24, 63, None),
    ("docker/Dockerfile.stable.vllm", 19, 74, 86, "core_v0.15.0"),
    ("docker/Dockerfile.stable.vllm", 20, 60, 66, "v0.6.0"),
    ("docker/ascend/Dockerfile.ascend_8.3.rc1_a3", 13, 34, 41, "v0.11.0"),
    ("docker/ascend/Dockerfile.ascend_8.3.rc1_a3", 14, 34, 44, "v0.11.0rc1"),
    ("docker/ascend/Dockerfile.ascend_8.3.rc1_a3", 16, 34, 42, "f2b0977e"),
    ("docker/ascend/Dockerfile.ascend_8.3.rc1_a3", 17, 34, 46, "core_v0.12.1"),
    ("docker/ascend/Dockerfile.ascend_8.3.rc1_a3", 26, 25, 63, None),
    ("docker/cu128/Dockerfile.base", 7, 18, 24, "v2.3.1"),
    ("docker/cu128/Dockerfile.base", 9, 31, 38, "a84a248"),
    ("docker/cu128/Dockerfile.base", 12, 101, 107, "v2.2.1"),
    ("docker/cu128/Dockerfile.base", 14, 19, 31, "${MCORE_REF}"),
    ("docker/cu128/Dockerfile.base", 17, 35, 41, "v0.1.4"),
    ("docker/cu128/Dockerfile.base", 18, 37, 76, None),
    ("docker/rocm/Dockerfile.rocm", 8, 18, 26, "236178e5"),
    ("docker/rocm/Dockerfile.rocm", 16, 18, 26, "113274a0"),
    ("docker/rocm/Dockerfile.rocm", 26, 21, 34, "${SGL_BRANCH}"),
    ("docker/rocm/Dockerfile.rocm", 33, 21, 37, "${TRITON_COMMIT}"),
    ("docker/rocm/Dockerfile.rocm", 38, 21, 38, "v0.8.5-sleep-numa"),
    ("pyproject.toml", 12, 66, 78, "core_v0.13.1"),
    ("pyproject.toml", 13, 58, 65, "v0.15.1"),
    ("requirements_sglang.txt", 6, 45, 52, "v0.15.1"),
    ("requirements_sglang.txt", 7, 50, 62, "core_v0.13.1"),
    ("scripts/install_vllm_sglang_mcore.sh", 16, 103, 107, "v2.6"),
    ("scripts/install_vllm_sglang_mcore.sh", 17, 74, 86, "core_v0.13.1"),
    ("scripts/install_vllm_sglang_mcore.sh", 21, 21, 28, "$TE_TAG"),
]


def test_every_pin_of_the_verl_shaped_recipes_is_where_its_span_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)

    inventory = build_inventory(["."])

    assert (inventory.errors, inventory.notices) == ([], [])
    assert [
        (p.path, p.span.line, p.span.column, p.span.end_column, p.ref_text) for p in inventory.pins
    ] == EXPECTED
    assert {source.path: span_violations(source) for source in inventory.files} == {
        source.path: [] for source in inventory.files
    }


@pytest.mark.skipif(
    not os.environ.get("REFLINT_SPAN_CHECKOUT"), reason="set REFLINT_SPAN_CHECKOUT to a checkout"
)
def test_every_pin_of_a_real_checkout_is_where_its_span_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(os.environ["REFLINT_SPAN_CHECKOUT"])

    inventory = build_inventory(["."])

    assert inventory.pins, "no pins: not a checkout of build recipes?"
    assert {
        source.path: span_violations(source) for source in inventory.files if source.text is not None
    } == {source.path: [] for source in inventory.files if source.text is not None}


@pytest.mark.xfail(
    strict=True,
    reason="a span that ends on a JSON escape of an exec-form RUN stops inside the escape: SourceMap maps a "
    "decoded character to one file position (the escape's first); see the report",
)
def test_an_exec_form_argument_ending_in_an_escape_is_covered_whole() -> None:
    text = 'FROM x\nRUN ["git", "clone", "\\"https://github.com/a/b\\""]\n'
    source = SourceFile(path="Dockerfile", abspath="Dockerfile", kind=FileKind.DOCKERFILE, text=text)
    with contextlib.suppress(ExtractError):
        extract_file(source, {})

    (pin,) = source.pins
    assert text_at(text, pin.span) == '\\"https://github.com/a/b\\"'
