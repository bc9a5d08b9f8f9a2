"""Build stages as BuildKit dispatches them: what a value-less ``ARG X`` in a stage takes.

``dispatchArg`` (moby/buildkit frontend/dockerfile/dockerfile2llb/convert.go): the build argument, else the
ARG's default, else a global ``ARG X=…``'s value; else the ARG sets nothing and the stage keeps what it has,
which a stage built ``FROM parent`` copied from the parent (``dispatchState.init``).
"""

from __future__ import annotations

from ascend_reflint.extract import extract_file
from ascend_reflint.model import FileKind, Origin, SourceFile, Span

URL = "https://github.com/o/r.git"

STAGES = f"""\
ARG GLOBAL=v9
ARG BARE
FROM ubuntu AS base
ARG REF=v1
ARG GLOBAL=v2
ARG BARE=v3
ENV FROM_ENV=v4
FROM base AS build
ARG REF
ARG GLOBAL
ARG BARE
ARG FROM_ENV
RUN git clone -b $REF {URL} a && git clone -b $GLOBAL {URL} b && git clone -b $BARE {URL} c
RUN git clone -b $FROM_ENV {URL} d
FROM ubuntu AS unrelated
ARG REF
RUN git clone -b $REF {URL} e
"""


Ref = tuple[str | None, str | None, int | None]


def refs(text: str, build_args: dict[str, str] | None = None) -> list[Ref]:
    """Per pin: the ref as written, its value, and the line of its origin."""
    source = SourceFile(path="Dockerfile", abspath="/x/Dockerfile", kind=FileKind.DOCKERFILE, text=text)
    extract_file(source, build_args)
    return [
        (pin.ref_text, pin.ref, pin.ref_origin.span.line if pin.ref_origin else None) for pin in source.pins
    ]


def test_a_value_less_arg_in_a_stage_built_from_a_parent_keeps_the_parents_value() -> None:
    assert refs(STAGES) == [
        ("$REF", "v1", 4),  # the parent's value, where the parent's ARG gives it
        ("$GLOBAL", "v9", 1),  # a global ARG=value beats the parent's
        ("$BARE", "v3", 6),  # a global ARG without a value gives none: the parent's stays
        ("$FROM_ENV", "v4", 7),  # ARG sets nothing, the parent's ENV stays
        ("$REF", None, None),  # a stage not built from the parent has no value
    ]


def test_a_build_argument_beats_every_value_a_stage_has() -> None:
    assert refs(STAGES, {"REF": "v7"})[0] == ("$REF", "v7", None)


def test_the_parents_value_keeps_its_exact_origin() -> None:
    source = SourceFile(path="Dockerfile", abspath="/x/Dockerfile", kind=FileKind.DOCKERFILE, text=STAGES)
    extract_file(source)
    assert source.pins[0].ref_origin == Origin("Dockerfile", Span(4, 9, 4, 11))
