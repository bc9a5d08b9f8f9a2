"""Workflow extraction: ``uses:`` pins, ``env:``, untrusted YAML (ascend_reflint.extract.workflow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.extract import ExtractError, yamlpos
from ascend_reflint.extract.workflow import extract_workflow
from ascend_reflint.model import EnvSetting, FileKind, Pin, Resolution, SourceFile, Span, Via

WORKFLOW_PATH = ".github/workflows/ci.yml"

CI = """\
name: ci
on: push
env:
  MEGATRON_REF: core_v0.12.0
  FLAG: true
  COUNT: 1
  FROM_EXPR: ${{ github.ref }}
  EMPTY:
  QUOTED: "v 1"
jobs:
  reuse:
    uses: NVIDIA/Megatron-LM/.github/workflows/ci.yml@core_r0.12.0
  build:
    runs-on: ubuntu-latest
    env:
      JOB_VAR: x
    steps:
      - uses: actions/checkout@v4
      - uses: "actions/setup-python@v5"
      - uses: ./local/action
      - uses: docker://alpine:3
      - uses: actions/cache@${{ inputs.ref }}
      - name: no ref, not a remote action
        env:
          STEP_VAR: y
        uses: owner/repo
"""


@pytest.fixture(autouse=True, params=["libyaml", "ruamel"])
def yaml_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs with libyaml's parser (when PyYAML has it) and with ruamel.yaml's."""
    if request.param == "ruamel":
        monkeypatch.setattr(yamlpos, "LibyamlLoader", None)
    elif yamlpos.LibyamlLoader is None:
        pytest.skip("PyYAML with libyaml is not installed")
    return str(request.param)


def _extract(text: str, path: str = WORKFLOW_PATH) -> SourceFile:
    source = SourceFile(path=path, abspath="/repo/" + path, kind=FileKind.WORKFLOW, text=text)
    extract_workflow(source)
    return source


def _action_pin(path: str, span: Span, url_span: Span, owner_repo: str, ref: str) -> Pin:
    return Pin(
        path=path,
        kind=FileKind.WORKFLOW,
        via=Via.ACTION,
        span=span,
        url=f"https://github.com/{owner_repo}",
        remote=f"github.com/{owner_repo.lower()}",
        ref=ref,
        ref_text=ref,
        url_span=url_span,
    )


def test_uses_at_job_and_step_level() -> None:
    source = _extract(CI)
    assert source.pins == [
        _action_pin(
            WORKFLOW_PATH, Span(12, 55, 12, 67), Span(12, 11, 12, 54), "NVIDIA/Megatron-LM", "core_r0.12.0"
        ),
        _action_pin(WORKFLOW_PATH, Span(18, 32, 18, 34), Span(18, 15, 18, 31), "actions/checkout", "v4"),
        _action_pin(WORKFLOW_PATH, Span(19, 37, 19, 39), Span(19, 16, 19, 36), "actions/setup-python", "v5"),
        Pin(
            path=WORKFLOW_PATH,
            kind=FileKind.WORKFLOW,
            via=Via.ACTION,
            span=Span(22, 29, 22, 46),
            url="https://github.com/actions/cache",
            remote="github.com/actions/cache",
            ref=None,
            ref_text="${{ inputs.ref }}",
            resolution=Resolution.UNRESOLVED,
            resolution_note="GitHub expression ${{ inputs.ref }}",
            url_span=Span(22, 15, 22, 28),
        ),
    ]
    assert source.notices == []


def test_env_at_workflow_job_and_step_level() -> None:
    assert _extract(CI).env == [
        EnvSetting("MEGATRON_REF", "core_v0.12.0", Span(4, 17, 4, 29), "workflow"),
        EnvSetting("FLAG", "true", Span(5, 9, 5, 13), "workflow"),
        EnvSetting("COUNT", "1", Span(6, 10, 6, 11), "workflow"),
        EnvSetting("FROM_EXPR", None, Span(7, 14, 7, 31), "workflow"),
        EnvSetting("EMPTY", "", Span(8, 3, 8, 8), "workflow"),
        EnvSetting("QUOTED", "v 1", Span(9, 12, 9, 15), "workflow"),
        EnvSetting("JOB_VAR", "x", Span(16, 16, 16, 17), "job:build"),
        EnvSetting("STEP_VAR", "y", Span(25, 21, 25, 22), "step:build:5"),
    ]


def test_expression_in_the_repository_leaves_the_url_as_written() -> None:
    source = _extract("jobs:\n  a:\n    steps:\n      - uses: ${{ matrix.action }}/x@v1\n")
    assert [(pin.url, pin.remote, pin.ref, pin.resolution_note) for pin in source.pins] == [
        ("${{ matrix.action }}/x", None, "v1", "GitHub expression ${{ matrix.action }}")
    ]


def test_composite_action_steps() -> None:
    text = (
        "name: a\nruns:\n  using: composite\n  steps:\n"
        "    - uses: 'Ascend/MindSpeed@2.1.0'\n      env:\n        X: \"1\"\n"
    )
    source = _extract(text, path="tools/setup/action.yml")
    assert source.pins == [
        _action_pin(
            "tools/setup/action.yml", Span(5, 31, 5, 36), Span(5, 14, 5, 30), "Ascend/MindSpeed", "2.1.0"
        )
    ]
    assert source.env == [EnvSetting("X", "1", Span(7, 13, 7, 14), "step:runs:0")]


def test_an_action_file_is_not_read_as_a_workflow() -> None:
    assert _extract("jobs:\n  a:\n    uses: o/r/.github/workflows/w.yml@v1\n", path="action.yaml").pins == []


@pytest.mark.parametrize(
    "text",
    [
        "jobs: [1, 2]\nenv: [A, B]\n",
        "jobs:\n  a: 1\n  b: [x]\n  c:\n    steps: uses\n    env: ${{ fromJSON(env.X) }}\n",
        "jobs:\n  a:\n    steps:\n      - uses\n      - [uses: a/b@v1]\n      - uses: {a: b}\n"
        "      - uses: '@v1'\n      - uses: a@v1\n      - uses: a/b@\n",
        "- uses: a/b@v1\n",
        "just text with uses and git\n",
        "jobs:\n  ? [complex, key]\n  : {uses: a/b@v1}\n",
        "env:\n  ? [A]\n  : x\n  B: [1]\n",
    ],
)
def test_unexpected_shapes_pin_nothing(text: str) -> None:
    source = _extract(text)
    assert (source.pins, source.env, source.notices) == ([], [], [])


def test_malformed_yaml_is_an_error_naming_the_line() -> None:
    expected = r"^line 3, column 9: malformed YAML: mapping values are not allowed"
    with pytest.raises(ExtractError, match=expected):
        _extract("jobs:\n  a:\n    b: c: d\nuses: x\n")


def test_text_without_refs_or_env_is_not_parsed() -> None:
    assert _extract("name: [unclosed\n").pins == []
    with pytest.raises(ExtractError):
        _extract("name: [unclosed uses\n")


def test_python_tags_do_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = (
        f'env:\n  X: !!python/object/apply:os.system ["touch {marker}"]\n'
        f"jobs:\n  a:\n    steps:\n      - uses: !!python/object/apply:os.system ['touch {marker}']\n"
        "      - uses: !!str a/b@v1\n"
    )
    source = _extract(text)
    assert not marker.exists()
    assert [(pin.url, pin.ref, pin.span) for pin in source.pins] == [
        ("https://github.com/a/b", "v1", Span(7, 25, 7, 27))
    ]


def test_billion_laughs_stops_with_an_error_and_keeps_the_pins_before() -> None:
    # 2 000 jobs that each alias 2 000 steps: four million step visits if walked naively.
    steps = ", ".join(["*s"] * 2000)
    jobs = "".join(f"  j{n}: *j\n" for n in range(1, 2000))
    text = f"s: &s {{uses: a/b@v1, env: {{A: b}}}}\nt: &t [{steps}]\njobs:\n  j0: &j {{steps: *t}}\n{jobs}"
    source = SourceFile(
        path=WORKFLOW_PATH, abspath="/repo/" + WORKFLOW_PATH, kind=FileKind.WORKFLOW, text=text
    )
    with pytest.raises(ExtractError) as caught:
        extract_workflow(source)
    assert str(caught.value) == (
        "line 1: stopped reading: YAML aliases repeat more content than the file holds (an alias bomb?); "
        "the file is not checked"
    )
    assert [(pin.ref, pin.span) for pin in source.pins] == [("v1", Span(1, 18, 1, 20))]
    assert source.notices == []
    assert len(source.env) < len(text)


def test_steps_repeated_through_an_alias_are_pinned_once() -> None:
    text = "jobs:\n  a:\n    steps: &s\n      - uses: a/b@v1\n  b:\n    steps: *s\n"
    assert [pin.span for pin in _extract(text).pins] == [Span(4, 19, 4, 21)]
