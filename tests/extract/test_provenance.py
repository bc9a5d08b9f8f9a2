"""Where a ref or URL that comes through a variable is written (``Pin.ref_origin``, ``Pin.url_origin``).

An origin is set only when the ref (or URL) is exactly one definition's value, or a part of one definition's
value written there character for character; None when it is written at the use, or comes from several
places or partly from the use. Each case names the text at the expected origin, so that a wrong column
shows as a wrong word.
"""

from __future__ import annotations

import pytest

from ascend_reflint.extract import extract_file
from ascend_reflint.model import FileKind, Origin, Pin, SourceFile, Span

URL = "https://github.com/o/r.git"


def pins(path: str, kind: FileKind, text: str, build_args: dict[str, str] | None = None) -> list[Pin]:
    source = SourceFile(path=path, abspath=f"/x/{path}", kind=kind, text=text)
    extract_file(source, build_args)
    return source.pins


def written(text: str, origin: Origin | None) -> str | None:
    """The text at ``origin`` (one line), or None."""
    if origin is None:
        return None
    span = origin.span
    assert span.line == span.end_line
    return text.split("\n")[span.line - 1][span.column - 1 : span.end_column - 1]


def origins(path: str, kind: FileKind, text: str, **kwargs: dict[str, str]) -> list[tuple[str | None, ...]]:
    """Per pin: its ref as written, the texts at its ref origin and URL origin, and the origins' files."""
    found = pins(path, kind, text, kwargs.get("build_args"))
    return [
        (
            pin.ref_text,
            written(text, pin.ref_origin),
            written(text, pin.url_origin),
            *{origin.path for origin in (pin.ref_origin, pin.url_origin) if origin is not None},
        )
        for pin in found
    ]


# --- Dockerfile ------------------------------------------------------------------------------------------

DOCKERFILE = f"""\
ARG GLOBAL_REF=v0.1.0
ARG UNUSED=x
FROM ubuntu AS build
ARG GLOBAL_REF
ARG STAGE_REF="v0.2.0"
ARG COPY=${{STAGE_REF}}
ENV ENV_REF=v0.3.0 REPO={URL}
ENV LEGACY_REF v0.4.0
ARG PREFIXED=v${{STAGE_REF}}
RUN git clone -b $GLOBAL_REF {URL} a && git clone -b "$STAGE_REF" $REPO b
RUN git clone -b ${{COPY}} {URL} c && git clone -b $ENV_REF {URL} d && git clone -b $LEGACY_REF {URL} e
RUN git clone -b $PREFIXED {URL} f && git clone -b ${{UNSET:-v0.5.0}} {URL} g && git clone -b v0.6.0 {URL} h
"""


def test_dockerfile_arg_and_env_values_are_where_their_pins_come_from() -> None:
    assert origins("Dockerfile", FileKind.DOCKERFILE, DOCKERFILE) == [
        ("$GLOBAL_REF", "v0.1.0", None, "Dockerfile"),  # the global ARG, redeclared without a value
        ("$STAGE_REF", "v0.2.0", URL, "Dockerfile"),  # quotes excluded; the URL from ENV REPO
        ("${COPY}", "v0.2.0", None, "Dockerfile"),  # ARG COPY=${STAGE_REF} copies STAGE_REF whole
        ("$ENV_REF", "v0.3.0", None, "Dockerfile"),
        ("$LEGACY_REF", "v0.4.0", None, "Dockerfile"),  # ENV NAME value
        ("$PREFIXED", None, None),  # v + STAGE_REF: two places
        ("${UNSET:-v0.5.0}", "v0.5.0", None, "Dockerfile"),  # the default, inside the use
        ("v0.6.0", None, None),
    ]


def test_dockerfile_arg_origin_has_the_exact_span() -> None:
    text = f"FROM a\nARG  TAG='v1'\nRUN git clone -b $TAG {URL}\n"
    (pin,) = pins("d/Dockerfile", FileKind.DOCKERFILE, text)
    assert pin.ref_origin == Origin("d/Dockerfile", Span(2, 11, 2, 13))


def test_a_build_arg_from_the_command_line_has_no_origin_in_a_file() -> None:
    found = origins("Dockerfile", FileKind.DOCKERFILE, DOCKERFILE, build_args={"STAGE_REF": "v9"})
    assert found[1] == ("$STAGE_REF", None, URL, "Dockerfile")
    assert found[2] == ("${COPY}", None, None)


# --- shell -----------------------------------------------------------------------------------------------

SCRIPT = f"""\
TAG=v1
export EXPORTED="v2"
readonly RO=v3 OTHER=x
declare -r DECLARED=v4
COPY=$TAG
VER=5; JOINED=v$VER
f() {{
  local LOCAL=v6
  git clone -b $LOCAL {URL} f
}}
f
git clone -b $TAG {URL} a && git clone -b $EXPORTED {URL} b && git clone -b $RO {URL} c
git clone -b $DECLARED {URL} d && git clone -b $COPY {URL} e && git clone -b $JOINED {URL} g
git clone {URL} h && cd h && BR=origin/release && git checkout $BR
"""


def test_shell_assignments_are_where_their_pins_come_from() -> None:
    assert origins("build.sh", FileKind.SHELL, SCRIPT) == [
        ("$LOCAL", "v6", None, "build.sh"),
        ("$TAG", "v1", None, "build.sh"),
        ("$EXPORTED", "v2", None, "build.sh"),
        ("$RO", "v3", None, "build.sh"),
        ("$DECLARED", "v4", None, "build.sh"),
        ("$COPY", "v1", None, "build.sh"),  # COPY=$TAG: TAG's value, where TAG is assigned
        ("$JOINED", None, None),  # v$VER: two places
        ("$BR", "release", None, "build.sh"),  # origin/release checks out release: its part of BR
    ]


def test_a_requirement_held_by_a_variable_points_into_its_value() -> None:
    text = f'PKG="git+{URL}@v1 other"\npip install $PKG\nBAD="git+{URL}@v\\$2"\npip install $BAD\n'
    assert origins("build.sh", FileKind.SHELL, text) == [
        ("$PKG", "v1", URL, "build.sh"),  # the field of the split value, and its parts
        ("$BAD", None, None),  # an escape inside the value: its parts are not at known offsets
    ]


# --- workflow --------------------------------------------------------------------------------------------

WORKFLOW = f"""\
env:
  TOP: v1
jobs:
  build:
    env:
      JOB: "v2"
      REPO: o/r
      NAME: r
    steps:
      - env:
          STEP: v3
        run: |
          git clone -b $TOP {URL} a
          git clone -b "$JOB" {URL} b && git clone -b $STEP {URL} c
      - uses: actions/checkout@v4
        env:
          REF: v4
        with:
          repository: ${{{{ env.REPO }}}}
          ref: ${{{{ env.REF }}}}
      - uses: actions/checkout@v4
        with:
          repository: o/${{{{ env.NAME }}}}
          ref: v-${{{{ env.JOB }}}}
"""


def test_workflow_env_at_every_level_is_where_its_pins_come_from() -> None:
    found = origins(".github/workflows/b.yml", FileKind.WORKFLOW, WORKFLOW)
    assert [pin for pin in found if pin[0] != "v4"] == [
        ("$TOP", "v1", None, ".github/workflows/b.yml"),
        ("$JOB", "v2", None, ".github/workflows/b.yml"),
        ("$STEP", "v3", None, ".github/workflows/b.yml"),
        ("${{ env.REF }}", "v4", "o/r", ".github/workflows/b.yml"),
        ("v-${{ env.JOB }}", None, None),  # partly written at the use, and so is the repository
    ]


@pytest.mark.parametrize("style", ["'v1'", '"v1"', "v1"])
def test_workflow_env_origin_excludes_the_quotes(style: str) -> None:
    text = f"env:\n  REF: {style}\njobs:\n  a:\n    steps:\n      - run: git clone -b $REF {URL}\n"
    (pin,) = pins(".github/workflows/b.yml", FileKind.WORKFLOW, text)
    column = 8 if style == "v1" else 9
    assert pin.ref_origin == Origin(".github/workflows/b.yml", Span(2, column, 2, column + 2))
