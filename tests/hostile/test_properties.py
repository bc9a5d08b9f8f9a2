"""Property tests over the extractors: any text extracts without raising anything but ``ExtractError``,
and every pin's span covers exactly the ref (or URL) it reports (see :mod:`.spans`).

The examples come from the suite's Hypothesis profile (``tests/conftest.py``): the same 150 a test on every
run, or many random ones with ``REFLINT_HYPOTHESIS_PROFILE=explore``. Each strategy is also checked to
reach pins (``test_each_recipe_strategy_reaches_pins``): an extractor that found nothing, or raised on
everything, would pass the span checks.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import Phase, find, given, reject, settings
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


#: How an ExtractError says where the problem is: "line N: …" or "line N, column M: …", or for a pyproject,
#: Python's TOML parser's "invalid TOML: … (at line N, column M)" or "(at end of document)".
_PROBLEM_AT = re.compile(
    r"line (?P<line>\d+)[:,] .+"
    r"|invalid TOML: .+ \((at line (?P<toml_line>\d+), column \d+|at end of document)\)",
    re.DOTALL,
)


def _extract(kind: FileKind, path: str, text: str) -> SourceFile:
    """Extract ``text`` as the file ``path``; an ``ExtractError`` is fine (pins found so far are kept) when it
    says where the problem is: a line of the text."""
    # Outside any git work tree: a .gitmodules there gives pins (URLs and branches; no index to read the
    # commits from), where one inside this project's work tree but not at its root gives none.
    source = SourceFile(path=path, abspath=f"/nonexistent/{path}", kind=kind, text=text)
    try:
        extract_file(source, {"REF": "v9"})
    except ExtractError as error:
        where = _PROBLEM_AT.fullmatch(str(error))
        assert where is not None, str(error)
        line = where["line"] or where["toml_line"]
        assert line is None or 1 <= int(line) <= text.count("\n") + 1, str(error)
        source.notices.append(f"raised: {error}")
    return source


@given(st.sampled_from(KINDS), st.text())
def test_arbitrary_text_never_raises(kind_and_path: tuple[FileKind, str], text: str) -> None:
    source = _extract(*kind_and_path, text)
    assert span_violations(source) == []


@given(st.sampled_from(KINDS), st.binary(max_size=400))
def test_arbitrary_bytes_read_as_text_never_raise(kind_and_path: tuple[FileKind, str], data: bytes) -> None:
    try:
        text, _ = decode(data)
    except FileReadError:
        reject()  # binary: not text (were every example rejected, Hypothesis would fail the test)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    assert span_violations(_extract(*kind_and_path, text)) == []


@given(shell_scripts())
def test_shell_scripts_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.SHELL, "build.sh", text)) == []


@given(dockerfiles())
def test_dockerfile_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.DOCKERFILE, "Dockerfile", text)) == []


@given(workflows())
def test_workflow_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.WORKFLOW, ".github/workflows/ci.yml", text)) == []


@given(requirement_files())
def test_requirements_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.REQUIREMENTS, "requirements.txt", text)) == []


@given(pyprojects())
def test_pyproject_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.PYPROJECT, "pyproject.toml", text)) == []


@given(tool_sources())
def test_uv_and_poetry_source_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.PYPROJECT, "pyproject.toml", text)) == []


@given(gitmodules())
def test_submodule_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.SUBMODULE, ".gitmodules", text)) == []


@given(pre_commit_configs())
def test_pre_commit_spans_cover_what_pins_name(text: str) -> None:
    assert span_violations(_extract(FileKind.PRE_COMMIT, ".pre-commit-config.yaml", text)) == []


@pytest.mark.parametrize("text", ["pip install git+\n", 'sh -c "pip install git+"$"(cat url)"\n'])
def test_a_bare_git_plus_is_no_pin_and_no_internal_error(text: str) -> None:
    # Found by the properties above: "git+" with nothing after it gave an empty URL range at the end of
    # the word, which the shell extractor indexed past (IndexError, the whole file lost).
    source = _extract(FileKind.SHELL, "build.sh", text)
    assert source.pins == []


@pytest.mark.parametrize(
    ("kind", "path", "strategy"),
    [
        (FileKind.SHELL, "build.sh", shell_scripts()),
        (FileKind.DOCKERFILE, "Dockerfile", dockerfiles()),
        (FileKind.WORKFLOW, ".github/workflows/ci.yml", workflows()),
        (FileKind.REQUIREMENTS, "requirements.txt", requirement_files()),
        (FileKind.PYPROJECT, "pyproject.toml", pyprojects()),
        (FileKind.PYPROJECT, "pyproject.toml", tool_sources()),
        (FileKind.SUBMODULE, ".gitmodules", gitmodules()),
        (FileKind.PRE_COMMIT, ".pre-commit-config.yaml", pre_commit_configs()),
    ],
    ids=[
        "shell",
        "dockerfile",
        "workflow",
        "requirements",
        "pyproject",
        "tool-sources",
        "gitmodules",
        "pre-commit",
    ],
)
def test_each_recipe_strategy_reaches_pins(
    kind: FileKind, path: str, strategy: st.SearchStrategy[str]
) -> None:
    """The control for the span properties: some example of each strategy extracts without an error into
    two pins or more (an extractor that found nothing, or always raised, would pass those, not this).
    The first such example is enough: no shrinking."""

    def two_pins_and_no_error(text: str) -> bool:
        source = _extract(kind, path, text)
        return len(source.pins) >= 2 and not any(note.startswith("raised: ") for note in source.notices)

    found = find(
        strategy, two_pins_and_no_error, settings=settings(max_examples=2000, phases=[Phase.generate])
    )
    assert two_pins_and_no_error(found)
