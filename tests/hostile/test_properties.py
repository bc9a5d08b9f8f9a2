"""Property tests over the extractors: any text extracts without raising anything but ``ExtractError``,
and every pin's span covers exactly the ref (or URL) it reports (see :mod:`.spans`).

The suite runs 150 examples a test, derived from the test itself (``derandomize``), so that a run is
quick and repeatable. ``REFLINT_PROPERTY_EXAMPLES=3000`` runs that many random examples instead, to search.
"""

from __future__ import annotations

import contextlib
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_reflint.extract import ExtractError, extract_file
from ascend_reflint.model import FileKind, SourceFile
from ascend_reflint.textfile import FileReadError, decode

from .spans import span_violations
from .strategies import (
    dockerfiles,
    gitmodules,
    pre_commit_configs,
    pyprojects,
    requirement_files,
    shell_scripts,
    tool_sources,
    workflows,
)

_SEARCH = os.environ.get("REFLINT_PROPERTY_EXAMPLES")
EXAMPLES = settings(
    max_examples=int(_SEARCH or 150),
    derandomize=_SEARCH is None,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

KINDS = (
    (FileKind.SHELL, "build.sh"),
    (FileKind.DOCKERFILE, "Dockerfile"),
    (FileKind.WORKFLOW, ".github/workflows/ci.yml"),
    (FileKind.WORKFLOW, "action.yml"),
    (FileKind.REQUIREMENTS, "requirements.txt"),
    (FileKind.PYPROJECT, "pyproject.toml"),
    (FileKind.CONDA, "environment.yml"),
    (FileKind.SUBMODULE, ".gitmodules"),
    (FileKind.PRE_COMMIT, ".pre-commit-config.yaml"),
)


def _extract(kind: FileKind, path: str, text: str) -> SourceFile:
    """Extract ``text`` as the file ``path``; an ``ExtractError`` is fine (pins found so far are kept)."""
    source = SourceFile(path=path, abspath=path, kind=kind, text=text)
    with contextlib.suppress(ExtractError):
        extract_file(source, {"REF": "v9"})
    return source


@EXAMPLES
@given(st.sampled_from(KINDS), st.text())
def test_arbitrary_text_never_raises(kind_and_path: tuple[FileKind, str], text: str) -> None:
    source = _extract(*kind_and_path, text)
    assert span_violations(source) == []


@EXAMPLES
@given(st.sampled_from(KINDS), st.binary(max_size=400))
def test_arbitrary_bytes_read_as_text_never_raise(kind_and_path: tuple[FileKind, str], data: bytes) -> None:
    try:
        text, _ = decode(data)
    except FileReadError:
        return
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    assert span_violations(_extract(*kind_and_path, text)) == []


@EXAMPLES
@given(shell_scripts())
def test_shell_scripts_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.SHELL, "build.sh", text)) == []


@EXAMPLES
@given(dockerfiles())
def test_dockerfile_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.DOCKERFILE, "Dockerfile", text)) == []


@EXAMPLES
@given(workflows())
def test_workflow_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.WORKFLOW, ".github/workflows/ci.yml", text)) == []


@EXAMPLES
@given(requirement_files())
def test_requirements_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.REQUIREMENTS, "requirements.txt", text)) == []


@EXAMPLES
@given(pyprojects())
def test_pyproject_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.PYPROJECT, "pyproject.toml", text)) == []


@EXAMPLES
@given(tool_sources())
def test_uv_and_poetry_source_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.PYPROJECT, "pyproject.toml", text)) == []


@EXAMPLES
@given(gitmodules())
def test_submodule_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.SUBMODULE, ".gitmodules", text)) == []


@EXAMPLES
@given(pre_commit_configs())
def test_pre_commit_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.PRE_COMMIT, ".pre-commit-config.yaml", text)) == []


@pytest.mark.parametrize("text", ["pip install git+\n", 'sh -c "pip install git+"$"(cat url)"\n'])
def test_a_bare_git_plus_is_no_pin_and_no_internal_error(text: str) -> None:
    # Found by the properties above: "git+" with nothing after it gave an empty URL range at the end of
    # the word, which the shell extractor indexed past (IndexError, the whole file lost).
    source = _extract(FileKind.SHELL, "build.sh", text)
    assert source.pins == []
