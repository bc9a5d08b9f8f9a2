"""``actions/checkout`` with ``with: repository:`` pins another repository
(ascend_reflint.extract.workflow)."""

from __future__ import annotations

import pytest

from ascend_reflint.extract import yamlpos
from ascend_reflint.extract.workflow import extract_workflow
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via

PATH = ".github/workflows/ci.yml"


@pytest.fixture(autouse=True, params=["libyaml", "ruamel"])
def yaml_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs with libyaml's parser (when PyYAML has it) and with ruamel.yaml's."""
    if request.param == "ruamel":
        monkeypatch.setattr(yamlpos, "LibyamlLoader", None)
    elif yamlpos.LibyamlLoader is None:
        pytest.skip("PyYAML with libyaml is not installed")
    return str(request.param)


def _checkout_pins(text: str) -> list[Pin]:
    source = SourceFile(path=PATH, abspath="/repo/" + PATH, kind=FileKind.WORKFLOW, text=text)
    extract_workflow(source)
    assert source.notices == []
    return [pin for pin in source.pins if pin.via is not Via.ACTION]


def _pin(**fields: object) -> Pin:
    values: dict[str, object] = {"path": PATH, "kind": FileKind.WORKFLOW, "depth": 1, "shallow": True}
    values.update(fields)
    return Pin(**values)  # type: ignore[arg-type]


STEPS = """\
jobs:
  test:
    env:
      VLLM_REF: v0.9.1
    steps:
      - uses: actions/checkout@v4
        with:
          repository: vllm-project/vllm
          ref: ${{ inputs.vllm }}
          path: ./vllm-empty
      - uses: actions/checkout@v4
        with:
          repository: "NVIDIA/Megatron-LM"
          ref: 'core_r0.13.0'
          fetch-depth: 0
      - uses: Actions/Checkout@11bd71901bbe5b1630ceea73d27597364c9af683
        with:
          repository: Ascend/MindSpeed
      - uses: actions/checkout@v4
        env:
          STEP_REF: main
        with:
          repository: vllm-project/vllm
          ref: release-${{ env.VLLM_REF }}-${{ env.STEP_REF }}
          fetch-depth: 50
"""


def test_repository_and_ref_make_a_checkout_pin() -> None:
    pins = _checkout_pins(STEPS)
    assert pins == [
        _pin(
            via=Via.CHECKOUT,
            span=Span(9, 16, 9, 34),
            url="https://github.com/vllm-project/vllm",
            remote="github.com/vllm-project/vllm",
            ref=None,
            ref_text="${{ inputs.vllm }}",
            resolution=Resolution.UNRESOLVED,
            resolution_note="GitHub expression ${{ inputs.vllm }}",
            url_span=Span(8, 23, 8, 40),
        ),
        _pin(
            via=Via.CHECKOUT,
            span=Span(14, 17, 14, 29),
            url="https://github.com/NVIDIA/Megatron-LM",
            remote="github.com/nvidia/megatron-lm",
            ref="core_r0.13.0",
            ref_text="core_r0.13.0",
            depth=None,
            shallow=False,
            url_span=Span(13, 24, 13, 42),
            fetched_ref="core_r0.13.0",
        ),
        _pin(
            via=Via.CLONE,
            span=Span(18, 23, 18, 39),
            url="https://github.com/Ascend/MindSpeed",
            remote="github.com/ascend/mindspeed",
            ref=None,
            ref_text=None,
            url_span=Span(18, 23, 18, 39),
        ),
        _pin(
            via=Via.CHECKOUT,
            span=Span(24, 16, 24, 63),
            url="https://github.com/vllm-project/vllm",
            remote="github.com/vllm-project/vllm",
            ref="release-v0.9.1-main",
            ref_text="release-${{ env.VLLM_REF }}-${{ env.STEP_REF }}",
            depth=50,
            url_span=Span(23, 23, 23, 40),
            fetched_ref="release-v0.9.1-main",
        ),
    ]


def test_the_checkout_action_pin_itself_stays() -> None:
    source = SourceFile(path=PATH, abspath="/repo/" + PATH, kind=FileKind.WORKFLOW, text=STEPS)
    extract_workflow(source)
    actions = [(pin.span.line, pin.ref) for pin in source.pins if pin.via is Via.ACTION]
    assert actions == [
        (6, "v4"),
        (11, "v4"),
        (16, "11bd71901bbe5b1630ceea73d27597364c9af683"),
        (19, "v4"),
    ]


OTHERS = """\
jobs:
  test:
    steps:
      - uses: actions/checkout@v4
        with:
          ref: core_r0.13.0
      - uses: actions/checkout@v4
        with:
          repository: ''
          ref: v1
      - uses: someone/checkout@v1
        with:
          repository: NVIDIA/Megatron-LM
          ref: v1
      - uses: actions/checkout@v4
        with:
          repository: NVIDIA
          ref: v1
      - uses: actions/checkout@v4
        with: [repository, NVIDIA/Megatron-LM]
"""


def test_no_pin_without_a_repository_or_from_other_actions() -> None:
    assert _checkout_pins(OTHERS) == []


EXPRESSIONS = """\
jobs:
  test:
    env:
      FROM_EXPR: ${{ github.ref }}
    steps:
      - uses: actions/checkout@v4
        with:
          repository: ${{ inputs.repository || github.repository }}
          ref: "${{ inputs.ref || 'main' }}"
      - uses: actions/checkout@v4
        with:
          repository: NVIDIA/Megatron-LM
          ref: ${{ env.FROM_EXPR }}
          fetch-depth: ${{ inputs.depth }}
      - uses: actions/checkout@v4
        with:
          repository: NVIDIA/Megatron-LM
          ref: ${{ env.NEVER_SET }}
          fetch-depth:
"""


def test_expressions_leave_the_pin_unresolved() -> None:
    assert _checkout_pins(EXPRESSIONS) == [
        _pin(
            via=Via.CHECKOUT,
            span=Span(9, 17, 9, 44),
            url="${{ inputs.repository || github.repository }}",
            remote=None,
            ref=None,
            ref_text="${{ inputs.ref || 'main' }}",
            resolution=Resolution.UNRESOLVED,
            resolution_note="GitHub expression ${{ inputs.repository || github.repository }}",
            url_span=Span(8, 23, 8, 68),
        ),
        _pin(
            via=Via.CHECKOUT,
            span=Span(13, 16, 13, 36),
            url="https://github.com/NVIDIA/Megatron-LM",
            remote="github.com/nvidia/megatron-lm",
            ref=None,
            ref_text="${{ env.FROM_EXPR }}",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$FROM_EXPR is set by GitHub expression ${{ github.ref }}",
            depth=None,
            shallow=False,
            url_span=Span(12, 23, 12, 41),
        ),
        _pin(
            via=Via.CHECKOUT,
            span=Span(18, 16, 18, 36),
            url="https://github.com/NVIDIA/Megatron-LM",
            remote="github.com/nvidia/megatron-lm",
            ref=None,
            ref_text="${{ env.NEVER_SET }}",
            resolution=Resolution.UNRESOLVED,
            resolution_note="GitHub expression ${{ env.NEVER_SET }}",
            url_span=Span(17, 23, 17, 41),
        ),
    ]


SERVER = """\
jobs:
  test:
    steps:
      - uses: actions/checkout@v4
        with:
          github-server-url: https://git.example.com/
          repository: team/tool
          ref: " v2.1 "
          fetch-depth: 3
"""


def test_github_server_url_names_the_host_and_inputs_are_trimmed() -> None:
    assert _checkout_pins(SERVER) == [
        _pin(
            via=Via.CHECKOUT,
            span=Span(8, 18, 8, 22),
            url="https://git.example.com/team/tool",
            remote="git.example.com/team/tool",
            ref="v2.1",
            ref_text="v2.1",
            depth=3,
            url_span=Span(7, 23, 7, 32),
            fetched_ref="v2.1",
        ),
    ]


def test_composite_action_steps_pin_checkouts_too() -> None:
    text = (
        "runs:\n  using: composite\n  steps:\n    - uses: actions/checkout@v4\n      with:\n"
        "        repository: o/n\n        ref: v1\n"
    )
    source = SourceFile(path="action.yml", abspath="/repo/action.yml", kind=FileKind.WORKFLOW, text=text)
    extract_workflow(source)
    assert [(pin.via, pin.span, pin.ref) for pin in source.pins] == [
        (Via.ACTION, Span(4, 30, 4, 32), "v4"),
        (Via.CHECKOUT, Span(7, 14, 7, 16), "v1"),
    ]
