"""Workflow ``run:`` scripts: positions in every scalar style, env scopes, shells (extract.workflow)."""

from __future__ import annotations

import pytest

from ascend_reflint.extract import ExtractError, yamlpos
from ascend_reflint.extract.workflow import extract_workflow
from ascend_reflint.model import FileKind, Origin, Pin, Resolution, SourceFile, Span, Via

PATH = ".github/workflows/build.yml"
URL = "https://github.com/o/r"


@pytest.fixture(autouse=True, params=["libyaml", "ruamel"])
def yaml_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs with libyaml's parser (when PyYAML has it) and with ruamel.yaml's."""
    if request.param == "ruamel":
        monkeypatch.setattr(yamlpos, "LibyamlLoader", None)
    elif yamlpos.LibyamlLoader is None:
        pytest.skip("PyYAML with libyaml is not installed")
    return str(request.param)


def _extract(text: str, path: str = PATH) -> SourceFile:
    source = SourceFile(path=path, abspath="/repo/" + path, kind=FileKind.WORKFLOW, text=text)
    extract_workflow(source)
    return source


def _clone_pin(
    line: int,
    ref_column: int,
    ref_text: str,
    ref: str | None,
    url_column: int,
    *,
    clone_column: int,
    clone_line: int | None = None,
    url_line: int | None = None,
    note: str | None = None,
    origin: Span | None = None,
) -> Pin:
    """A ``git clone -b REF https://github.com/o/r`` pin whose ref sits on ``line`` (the rest too by default);
    unresolved when ``note`` is given; ``origin`` is where a variable's value is written."""
    return Pin(
        path=PATH,
        kind=FileKind.WORKFLOW,
        via=Via.CLONE_BRANCH,
        span=Span(line, ref_column, line, ref_column + len(ref_text)),
        url=URL,
        remote="github.com/o/r",
        ref=ref,
        ref_text=ref_text,
        resolution=Resolution.UNRESOLVED if note else Resolution.RESOLVED,
        resolution_note=note,
        url_span=Span(url_line or line, url_column, url_line or line, url_column + len(URL)),
        clone_span=Span(
            clone_line or line, clone_column, clone_line or line, clone_column + len("git clone")
        ),
        ref_origin=Origin(PATH, origin) if origin is not None else None,
    )


def test_literal_block_after_a_comment_and_a_blank_line_with_workflow_env() -> None:
    text = """\
env:
  MCORE_REF: core_r0.12.0
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: |  # clone Megatron
          echo start

          git clone --depth 1 --branch "$MCORE_REF" https://github.com/NVIDIA/Megatron-LM.git
"""
    assert _extract(text).pins == [
        Pin(
            path=PATH,
            kind=FileKind.WORKFLOW,
            via=Via.CLONE_BRANCH,
            span=Span(10, 41, 10, 51),
            url="https://github.com/NVIDIA/Megatron-LM.git",
            remote="github.com/nvidia/megatron-lm",
            ref="core_r0.12.0",
            ref_text="$MCORE_REF",
            ref_origin=Origin(PATH, Span(2, 14, 2, 26)),
            depth=1,
            shallow=True,
            url_span=Span(10, 53, 10, 94),
            clone_span=Span(10, 11, 10, 20),
        )
    ]


@pytest.mark.parametrize("indicator", ["|", "|-", "|+", ">", ">-", "|2", "|-2", ">+2", "|  # note"])
def test_every_block_scalar_header_keeps_positions(indicator: str) -> None:
    text = f"jobs:\n  a:\n    steps:\n      - run: {indicator}\n\n          cd /tmp\n\n"
    text += f"          git clone -b v1 {URL}\n"
    assert _extract(text).pins == [_clone_pin(8, 24, "v1", "v1", 27, clone_column=11)]


SCOPES_AND_STYLES = """\
jobs:
  a:
    env:
      REF: v1
      FROM_INPUT: ${{ inputs.te }}
    steps:
      - env:
          REF: v2
        run: >
          git clone
          -b $REF
          https://github.com/o/r
      - run: git clone -b $REF
          https://github.com/o/r
      - run: "B=v3; git clone -b \\"$B\\" https://github.com/o/r"
      - run: git clone -b $B https://github.com/o/r
      - run: |2
            cd /tmp
          git clone -b ${{ inputs.ref }} https://github.com/o/r
      - run: 'git clone -b $FROM_INPUT https://github.com/o/r'
"""


def test_scopes_and_scalar_styles() -> None:
    source = _extract(SCOPES_AND_STYLES)
    assert source.pins == [
        # folded: the step's env shadows the job's; each word is where the file has it
        _clone_pin(
            11, 14, "$REF", "v2", 11, clone_line=10, clone_column=11, url_line=12, origin=Span(8, 16, 8, 18)
        ),
        # plain scalar over two lines: the job's env
        _clone_pin(13, 27, "$REF", "v1", 11, clone_column=14, url_line=14, origin=Span(4, 12, 4, 14)),
        # double-quoted, escaped quotes: B is assigned in the same script
        _clone_pin(15, 36, "$B", "v3", 41, clone_column=21, origin=Span(15, 17, 15, 19)),
        # a new step is a new shell: B is gone
        _clone_pin(16, 27, "$B", None, 30, clone_column=14, note="$B is not set in this file"),
        # explicit indentation indicator, a more-indented first line, an expression in the script
        _clone_pin(
            19, 24, "${{ inputs.ref }}", None, 42, clone_column=11, note="GitHub expression ${{ inputs.ref }}"
        ),
        # single-quoted; the env value is an expression
        _clone_pin(
            20,
            28,
            "$FROM_INPUT",
            None,
            40,
            clone_column=15,
            note="$FROM_INPUT is set by GitHub expression ${{ inputs.te }}",
        ),
    ]
    assert source.notices == []


SHELLS = """\
defaults:
  run:
    shell: bash -el {0}
jobs:
  linux:
    runs-on: ubuntu-latest
    steps:
      - run: git clone -b v1 https://github.com/o/r
      - shell: pwsh
        run: git clone -b v2 https://github.com/o/r
      - shell: /usr/bin/sh -e {0}
        run: git clone -b v3 https://github.com/o/r
  py:
    defaults:
      run:
        shell: python
    steps:
      - run: git clone -b v4 https://github.com/o/r
  win-but-bash-by-default:
    runs-on: [self-hosted, Windows-2022]
    steps:
      - run: git clone -b v5 https://github.com/o/r
"""


def test_shells_other_than_bash_or_sh_are_skipped_with_a_notice() -> None:
    source = _extract(SHELLS)
    assert [(pin.ref, pin.span.line) for pin in source.pins] == [("v1", 8), ("v3", 12), ("v5", 22)]
    assert source.notices == [
        "line 10: skipped the run: script of step 1 of job 'linux': its shell is 'pwsh' (set by the step's "
        "shell:); reflint reads bash and sh scripts only",
        "line 18: skipped the run: script of step 0 of job 'py': its shell is 'python' (set by "
        "defaults.run.shell); reflint reads bash and sh scripts only",
    ]


def test_windows_runners_default_to_pwsh() -> None:
    text = """\
jobs:
  win:
    runs-on: windows-latest
    steps:
      - run: git clone -b v5 https://github.com/o/r
      - run: git clone -b v6 https://github.com/o/r
        shell: bash
"""
    source = _extract(text)
    assert [(pin.ref, pin.span) for pin in source.pins] == [("v6", Span(6, 27, 6, 29))]
    assert source.notices == [
        "line 5: skipped the run: script of step 0 of job 'win': its shell is 'pwsh' (the default shell on "
        "Windows runners); reflint reads bash and sh scripts only"
    ]


def test_composite_action_run_step() -> None:
    text = """\
runs:
  using: composite
  steps:
    - shell: bash
      env:
        TAG: v0.1.4
      run: pip install "git+https://github.com/o/r.git@${TAG}"
    - shell: pwsh
      run: git clone -b v1 https://github.com/o/r
"""
    source = _extract(text, path="action.yml")
    assert [(pin.via, pin.ref, pin.ref_text, pin.span) for pin in source.pins] == [
        (Via.PIP_VCS, "v0.1.4", "${TAG}", Span(7, 56, 7, 62))
    ]
    assert source.notices == [
        "line 9: skipped the run: script of step 1 of runs.steps: its shell is 'pwsh' (set by the step's "
        "shell:); reflint reads bash and sh scripts only"
    ]


def test_a_script_that_does_not_parse_fails_the_file_after_every_step_is_read() -> None:
    text = """\
jobs:
  broken:
    steps:
      - run: |
          git clone -b v7 https://github.com/o/r
          if then fi (
      - run: git clone -b v8 https://github.com/o/r
"""
    source = SourceFile(path=PATH, abspath="/repo/" + PATH, kind=FileKind.WORKFLOW, text=text)
    with pytest.raises(
        ExtractError, match=r"^line \d+: shell syntax error .*\(in the run: script of step 0 of job "
    ):
        extract_workflow(source)
    assert [pin.ref for pin in source.pins] == ["v7", "v8"]
