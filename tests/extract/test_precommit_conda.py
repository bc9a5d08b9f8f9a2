"""Pins in ``.pre-commit-config.yaml`` (ascend_reflint.extract.precommit) and in conda environment files'
``pip:`` lists (ascend_reflint.extract.conda)."""

from __future__ import annotations

import textwrap

import pytest

from ascend_reflint.extract import ExtractError
from ascend_reflint.extract.conda import extract_conda
from ascend_reflint.extract.precommit import extract_pre_commit
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via

FROZEN = "b70ff9611a01a2bf2f702aa537d14e71e330edba"


def source(kind: FileKind, path: str, text: str) -> SourceFile:
    return SourceFile(path=path, abspath=f"/repo/{path}", kind=kind, text=textwrap.dedent(text).lstrip("\n"))


def pre_commit(text: str) -> SourceFile:
    config = source(FileKind.PRE_COMMIT, ".pre-commit-config.yaml", text)
    extract_pre_commit(config)
    return config


def test_repo_and_rev_pins_with_the_frozen_comment() -> None:
    config = pre_commit(
        f"""
        repos:
          - repo: https://github.com/astral-sh/ruff-pre-commit
            rev: "v0.12.2"
            hooks: [{{id: ruff}}]
          - repo: https://github.com/netromdk/vermin
            rev: {FROZEN}  # frozen: v1.6.0
          - repo: local
            hooks: [{{id: mine, name: mine, entry: ./x, language: system}}]
          - repo: meta
            hooks: [{{id: check-useless-excludes}}]
          -   repo: 'https://github.com/psf/black'
              rev: 'refs/tags/26.3.0:refs/tags/26.3.0' # not frozen: v0
        """
    )
    assert config.pins == [
        Pin(
            path=".pre-commit-config.yaml",
            kind=FileKind.PRE_COMMIT,
            via=Via.PRE_COMMIT,
            span=Span(3, 11, 3, 18),
            url="https://github.com/astral-sh/ruff-pre-commit",
            remote="github.com/astral-sh/ruff-pre-commit",
            ref="v0.12.2",
            ref_text="v0.12.2",
            url_span=Span(2, 11, 2, 55),
        ),
        Pin(
            path=".pre-commit-config.yaml",
            kind=FileKind.PRE_COMMIT,
            via=Via.PRE_COMMIT,
            span=Span(6, 10, 6, 50),
            url="https://github.com/netromdk/vermin",
            remote="github.com/netromdk/vermin",
            ref=FROZEN,
            ref_text=FROZEN,
            url_span=Span(5, 11, 5, 45),
            version_comment="v1.6.0",
        ),
        Pin(
            path=".pre-commit-config.yaml",
            kind=FileKind.PRE_COMMIT,
            via=Via.PRE_COMMIT,
            span=Span(12, 13, 12, 46),
            url="https://github.com/psf/black",
            remote="github.com/psf/black",
            ref="refs/tags/26.3.0:refs/tags/26.3.0",
            ref_text="refs/tags/26.3.0:refs/tags/26.3.0",
            url_span=Span(11, 14, 11, 42),
        ),
    ]


def test_the_old_list_format_an_empty_rev_and_a_missing_one() -> None:
    config = pre_commit(
        """
        - repo: https://github.com/o/listed
          rev: v1
        - repo: https://github.com/o/empty
          rev: ""
        - repo: https://github.com/o/null
          rev:
        """
    )
    assert [(pin.url, pin.ref, pin.span, pin.resolution) for pin in config.pins] == [
        ("https://github.com/o/listed", "v1", Span(2, 8, 2, 10), Resolution.RESOLVED),
        ("https://github.com/o/empty", "", Span(4, 8, 4, 10), Resolution.EMPTY),
        ("https://github.com/o/null", None, Span(5, 9, 5, 34), Resolution.RESOLVED),
    ]


def test_pre_commit_traps_give_nothing() -> None:
    config = pre_commit(
        """
        # - repo: https://github.com/o/commented
        #   rev: v1
        repos:
          - repo: local
            rev: v1
          - hooks: []
        default_language_version: {python: python3}
        """
    )
    assert config.pins == []
    assert pre_commit("").pins == []
    assert pre_commit("repos: 3\n").pins == []


def test_malformed_yaml_is_an_extract_error() -> None:
    with pytest.raises(
        ExtractError, match="line 2, column 11: malformed YAML: '\\[' is never closed: at line 3, column 1"
    ):
        pre_commit("repos:\n  - repo: [unclosed\n")


def test_conda_pip_items_are_requirement_lines() -> None:
    environment = source(
        FileKind.CONDA,
        "examples/environment.yml",
        """
        name: voice
        channels: [conda-forge]
        dependencies:
          - python=3.10
          - git  # a conda package named git
          - pip
          - pip:
            - nemo_toolkit[asr] @ git+https://github.com/NVIDIA/NeMo.git@v2.4.0
            - "git+https://github.com/o/quoted.git@${REF}"
            - -r requirements/extra.txt
            # - git+https://github.com/o/commented.git@v0
            - plain==1.0  # git+https://github.com/o/in-a-comment.git@v0
        """,
    )
    extract_conda(environment)
    assert [(pin.via, pin.span, pin.url, pin.ref, pin.resolution) for pin in environment.pins] == [
        (
            Via.PIP_VCS,
            Span(8, 66, 8, 72),
            "https://github.com/NVIDIA/NeMo.git",
            "v2.4.0",
            Resolution.RESOLVED,
        ),
        (Via.PIP_VCS, Span(9, 44, 9, 50), "https://github.com/o/quoted.git", None, Resolution.UNRESOLVED),
    ]
    assert environment.named_files == [("requirements/extra.txt", FileKind.REQUIREMENTS)]
    assert {pin.kind for pin in environment.pins} == {FileKind.CONDA}


def test_conda_files_without_a_pip_list_give_nothing() -> None:
    for text in (
        "name: x\ndependencies: [python=3.10, pip]\n",
        "- a\n- b\n",
        "dependencies:\n  - pip: oops\n",
    ):
        environment = source(FileKind.CONDA, "environment.yml", text)
        extract_conda(environment)
        assert (environment.pins, environment.named_files) == ([], [])
