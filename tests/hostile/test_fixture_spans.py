"""The span invariant (see :mod:`.spans`) over trees of recipes shaped like real checkouts', and, on demand,
over a real checkout.

Two trees are bundled, written for these tests with real URLs and refs (see the README in each):
``data/verl-shaped`` in the shapes of volcengine/verl's recipes (Ascend and ROCm images, clone-then-checkout
across ``WORKDIR``, ``ENV`` URLs, exec-form RUN, folded and literal ``run:`` blocks, pip VCS URLs with
markers and fragments), and ``data/stack-shaped`` in those of Ascend/MindSpeed-LLM, vllm-project/vllm-ascend,
THUDM/slime and NVIDIA/TransformerEngine. Every run checks both, pin by pin;
``REFLINT_SPAN_CHECKOUT=/path/to/checkout pytest tests/hostile -k checkout`` adds a real checkout.
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

DATA = Path(__file__).resolve().parent / "data"
#: The bundled trees, and a real checkout when REFLINT_SPAN_CHECKOUT names one.
CHECKOUTS = [DATA / "verl-shaped", DATA / "stack-shaped"] + (
    [Path(os.environ["REFLINT_SPAN_CHECKOUT"])] if os.environ.get("REFLINT_SPAN_CHECKOUT") else []
)

#: Every pin of data/verl-shaped: path, line, column, end column, the ref as written.
VERL_PINS = [
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


#: Every pin of data/stack-shaped: path, line, column, end column, the ref as written.
STACK_PINS = [
    (".github/workflows/build.yml", 8, 32, 34, "v3"),
    (".github/workflows/build.yml", 12, 46, 86, "7d986dd989559c6ecdb630a3fd2557667be217ad"),
    (".github/workflows/build.yml", 14, 44, 84, "c28619d8999a147d5e09c1199f84ff6af6ad5794"),
    (".github/workflows/e2e.yaml", 15, 32, 34, "v7"),
    (".github/workflows/e2e.yaml", 17, 32, 34, "v7"),
    (".github/workflows/e2e.yaml", 20, 16, 34, "${{ inputs.vllm }}"),
    (".github/workflows/e2e.yaml", 23, 41, 81, "54081f138730dfa15788a46383842cd2f914a1be"),
    (".github/workflows/e2e.yaml", 31, 64, 74, "v0.11.0rc3"),
    ("docker/ascend/Dockerfile", 14, 18, 54, "${FLASH_LINEAR_ATTENTION_NPU_BRANCH}"),
    ("docker/ascend/Dockerfile", 18, 18, 37, "${MINDSPEED_BRANCH}"),
    ("docker/ascend/Dockerfile", 22, 15, 55, None),
    ("docker/ascend/Dockerfile", 28, 18, 36, "${MEGATRON_BRANCH}"),
    ("docker/ascend/Dockerfile", 31, 18, 41, "${MINDSPEED_LLM_BRANCH}"),
    ("docker/ascend/Dockerfile.a3", 8, 63, 75, "$VLLM_COMMIT"),  # FETCH_HEAD: where the fetch names it
    ("docker/ascend/Dockerfile.a3", 11, 30, 39, "$VLLM_TAG"),
    ("docker/ascend/Dockerfile.a3.openEuler", 8, 65, 77, "$VLLM_COMMIT"),
    ("docker/ascend/Dockerfile.a3.openEuler", 11, 32, 41, "$VLLM_TAG"),
    ("docker/cuda/Dockerfile", 11, 41, 81, "002cce0a1068f8c07dfccb5a1d232b9a3276947c"),
    ("docker/cuda/Dockerfile", 14, 60, 79, "${FLASH_QLA_COMMIT}"),
    ("docker/cuda/Dockerfile", 17, 57, 85, "${TRANSFORMER_ENGINE_COMMIT}"),
    ("docker/cuda/Dockerfile", 20, 100, 140, "10417aceddd7d5d05d7cbf7b0fc2daad1105f8b4"),
    ("docker/cuda/Dockerfile", 23, 36, 54, "${MEGATRON_COMMIT}"),
    ("docker/cuda/Dockerfile", 26, 73, 86, "${TMS_COMMIT}"),
    ("docker/cuda/Dockerfile", 29, 37, 53, "${DEEPEP_COMMIT}"),
    ("docker/cuda/Dockerfile", 34, 36, 51, "${SLIME_COMMIT}"),
    ("requirements-npu.txt", 3, 53, 63, "v0.11.0rc3"),
    ("requirements-npu.txt", 4, 58, 77, "26.0.0_core_r0.12.1"),
    ("requirements-npu.txt", 5, 47, 59, "core_v0.12.1"),
    ("scripts/run_npu_tests.sh", 7, 14, 20, "master"),
    ("scripts/run_npu_tests.sh", 11, 11, 51, None),
    ("scripts/run_npu_tests.sh", 14, 14, 20, "master"),
]


@pytest.mark.parametrize(("tree", "pins"), [("verl-shaped", VERL_PINS), ("stack-shaped", STACK_PINS)])
def test_every_pin_of_a_bundled_tree_is_found_where_it_is_written(
    tree: str, pins: list[tuple[str, int, int, int, str | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(DATA / tree)

    inventory = build_inventory(["."])

    assert (inventory.errors, inventory.notices) == ([], [])
    assert [
        (p.path, p.span.line, p.span.column, p.span.end_column, p.ref_text) for p in inventory.pins
    ] == pins


@pytest.mark.parametrize("checkout", CHECKOUTS, ids=lambda path: path.name)
def test_every_pin_of_a_checkout_is_where_its_span_says(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(checkout)

    inventory = build_inventory(["."])

    assert inventory.pins != [], "no pins: not a checkout of build recipes?"
    assert {
        source.path: span_violations(source) for source in inventory.files if source.text is not None
    } == {source.path: [] for source in inventory.files if source.text is not None}


def test_an_exec_form_argument_ending_in_an_escape_is_covered_whole() -> None:
    text = 'FROM x\nRUN ["git", "clone", "\\"https://github.com/a/b\\""]\n'
    source = SourceFile(path="Dockerfile", abspath="Dockerfile", kind=FileKind.DOCKERFILE, text=text)
    with contextlib.suppress(ExtractError):
        extract_file(source, {})

    (pin,) = source.pins
    assert text_at(text, pin.span) == '\\"https://github.com/a/b\\"'
