"""Extractors of the shell and build kinds, one behaviour each: what a user writes, the pin (or none) that
reflint reports, at its exact place."""

from __future__ import annotations

import json

from ascend_reflint.extract import extract_file
from ascend_reflint.model import FileKind, SourceFile


def _pins(path: str, kind: FileKind, text: str) -> list[tuple[int, int, int, str | None, str | None, str]]:
    source = SourceFile(path, "/nonexistent/" + path, kind, text=text)
    extract_file(source)
    return [
        (pin.span.line, pin.span.column, pin.span.end_column, pin.ref, pin.ref_text, pin.via.value)
        for pin in source.pins
    ]


def test_cmake_bracket_argument_is_literal_and_escapes_are_read() -> None:
    text = (
        'set(T "v\\\\1")\n'
        "FetchContent_Declare(x GIT_REPOSITORY [=[https://github.com/o/r.git]=] GIT_TAG ${T})\n"
    )
    assert _pins("CMakeLists.txt", FileKind.CMAKE, text) == [(2, 80, 84, "v\\1", "${T}", "fetchcontent")]


def test_cmake_variable_set_inside_a_function_does_not_leak() -> None:
    text = (
        "set(T v1)\nfunction(f)\n  set(T v2)\nendfunction()\n"
        "ExternalProject_Add(x GIT_REPOSITORY https://github.com/o/r.git GIT_TAG ${T})\n"
    )
    assert _pins("x.cmake", FileKind.CMAKE, text) == [(5, 73, 77, "v1", "${T}", "external-project")]


def test_makefile_oneshell_keeps_cd_for_the_rule() -> None:
    text = ".ONESHELL:\nall:\n\tgit clone https://github.com/o/r.git\n\tcd r\n\tgit checkout v2\n"
    assert _pins("Makefile", FileKind.MAKEFILE, text) == [(5, 15, 17, "v2", "v2", "checkout")]


def test_makefile_define_and_a_simple_variable() -> None:
    text = "define REF\nv1\nendef\nURL := https://github.com/o/r.git\n\nall:\n\tgit clone -b $(REF) $(URL)\n"
    assert _pins("Makefile", FileKind.MAKEFILE, text) == [(7, 15, 21, "v1", "$(REF)", "clone-branch")]


def test_console_block_joins_a_prompted_line_with_its_continuation_and_skips_output() -> None:
    text = (
        "```console\n$ git clone --branch v1 \\\n    https://github.com/o/r.git\nCloning into 'r'...\n"
        "$ echo done\ngit clone --branch output https://github.com/o/output.git\n```\n"
    )
    assert _pins("README.md", FileKind.DOCS, text) == [(2, 22, 24, "v1", "v1", "clone-branch")]


def test_fence_in_a_blockquote_with_tildes() -> None:
    text = "> ~~~sh\n> git clone -b v3 https://github.com/o/r.git\n> ~~~\n"
    assert _pins("README.md", FileKind.DOCS, text) == [(2, 16, 18, "v3", "v3", "clone-branch")]


def test_rst_prompt_directive_lines_are_commands() -> None:
    text = ".. prompt:: bash $\n\n   git clone -b v4 https://github.com/o/r.git\n"
    assert _pins("index.rst", FileKind.DOCS, text) == [(3, 17, 19, "v4", "v4", "clone-branch")]


def test_notebook_of_a_python3_kernel_expands_python_strings_and_maps_escapes() -> None:
    cell = 'REF = "v5"\n!pip install "git+https://github.com/o/r.git@$REF"\n'
    notebook = {
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": cell.splitlines(True)}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    }
    text = json.dumps(notebook, indent=1)
    line = text.split("\n").index(next(line for line in text.split("\n") if "!pip" in line)) + 1
    column = text.split("\n")[line - 1].index("$REF") + 1
    assert _pins("x.ipynb", FileKind.DOCS, text) == [(line, column, column + 4, "v5", "$REF", "pip-vcs")]


def test_apptainer_environment_reaches_the_runscript_not_post() -> None:
    text = (
        "Bootstrap: docker\nFrom: ubuntu\n\n%environment\n    export REF=v6\n\n%post\n"
        "    git clone -b $REF https://github.com/o/r.git\n\n%runscript\n"
        "    git clone -b $REF https://github.com/o/r.git\n"
    )
    assert _pins("Apptainerfile", FileKind.APPTAINER, text) == [
        (8, 18, 22, None, "$REF", "clone-branch"),
        (11, 18, 22, "v6", "$REF", "clone-branch"),
    ]


def test_gitlab_job_extends_a_hidden_job_for_its_variables() -> None:
    text = (
        ".base:\n  variables:\n    REF: v7\njob:\n  extends: .base\n"
        "  script:\n    - git clone -b $REF https://github.com/o/r.git\n"
    )
    assert _pins(".gitlab-ci.yml", FileKind.GITLAB_CI, text) == [(7, 20, 24, "v7", "$REF", "clone-branch")]
