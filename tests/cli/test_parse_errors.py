"""A file that does not parse is reported as ``path:line:column: error: message``, as findings are, at the
place to fix: a bracket or quote that YAML never closes is named where it opens, not where the parser gave
up (often the end of the file). Such a file has no pins: the summary counts neither it nor what was read of
it before the error. The config file's errors are located the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

WORKFLOW = """\
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: x/y@v1
        with: {a: [1, 2}
      - uses: actions/setup-python@v5
"""
PRE_COMMIT = """\
repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.12.2
    hooks: [ {id: ruff}
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.0.0


"""
PYPROJECT = """\
[project]
name = "x"
dependencies = [
  "foo @ git+https://github.com/a/b@v1",
  "bar =
]
"""
#: A pin, then a line that is not shell: the pin before it is not counted.
SCRIPT = "#!/bin/sh\ngit clone --branch v2 https://github.com/c/d.git\nif then fi (\n"
DOCKERFILE = (
    "FROM ubuntu\nRUN git clone --branch v1.0 https://github.com/a/b.git /b  # reflint: ignore[RL010]\n"
)
GITMODULES = '[submodule "x"]\n\tpath = x\n\turl = https://github.com/e/f.git\n[bad\n'

ERRORS = [
    ".github/workflows/ci.yml:8:19: error: malformed YAML: '[' is never closed: at line 8, column 24, "
    "did not find expected ',' or ']'",
    ".gitmodules:4: error: bad section header (git refuses the file)",
    ".pre-commit-config.yaml:4:12: error: malformed YAML: '[' is never closed: at line 5, column 3, "
    "did not find expected ',' or ']'",
    "build.sh:3: error: shell syntax error near 'then'",
    "pyproject.toml:5:9: error: invalid TOML: Illegal character '\\n'",
]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {
        ".github/workflows/ci.yml": WORKFLOW,
        ".pre-commit-config.yaml": PRE_COMMIT,
        "pyproject.toml": PYPROJECT,
        "build.sh": SCRIPT,
        "Dockerfile": DOCKERFILE,
        ".gitmodules": GITMODULES,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_each_file_that_does_not_parse_is_located_at_what_to_fix(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "--offline", "--cache-dir", "cache"]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [*ERRORS, "reflint: no remote could be checked: 1 pin unchecked"]
    # One file read (the Dockerfile, its one pin); build.sh's pin before its syntax error is not counted.
    assert captured.out.splitlines() == [
        "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 1 remote: 0 checked (0 cached), 1 not checked); "
        "5 files could not be read"
    ]


def test_refs_lists_no_pin_of_a_file_that_does_not_parse(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refs"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["Dockerfile:2:24: github.com/a/b v1.0 (clone-branch)"]
    assert captured.err.splitlines() == ERRORS


def test_refs_json_counts_the_files_read_as_the_scan_summary_does(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Six files found, five of them not parsed: one scanned, as the scan's summary says ("in 0 of 1 file").
    assert main(["refs", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["files_scanned"], len(document["errors"]), len(document["pins"])) == (1, 5, 1)
    assert main(["scan", "--offline", "--cache-dir", "cache", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["summary"]["files"] == 1


def test_json_gives_the_line_and_column_as_fields(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--offline", "--cache-dir", "cache", "--format", "json", "pyproject.toml"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert (document["errors"], document["summary"]["files"], document["summary"]["pins"]) == (
        [
            {
                "path": "pyproject.toml",
                "line": 5,
                "column": 9,
                "message": "invalid TOML: Illegal character '\\n'",
            }
        ],
        0,
        0,
    )


@pytest.mark.parametrize(
    ("text", "location", "problem"),
    [
        # The parser stops at the end of the file, where a value is missing: the '[' is what to close.
        (
            "jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n      - run: [\n\n# end\n",
            "5:14",
            "'[' is never closed: at line 8, column 1, did not find expected node content",
        ),
        (
            "jobs:\n  a:\n    env: {A: [actions/checkout@v4, \n",
            "3:14",
            "'[' is never closed: at line 4, column 1, did not find expected node content",
        ),
        (
            'jobs:\n  a:\n    name: "git build\n\n',
            "3:11",
            "'\"' is never closed: at line 5, column 1, found unexpected end of stream",
        ),
        # Not a bracket: where the parser stopped is the place.
        ("jobs:\n  a:\n   b: git\n  c\n", "4:3", "could not find expected ':'"),
    ],
)
def test_a_workflow_names_what_it_leaves_open(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    location: str,
    problem: str,
) -> None:
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["refs"]) == 0
    assert (
        capsys.readouterr().err == f".github/workflows/ci.yml:{location}: error: malformed YAML: {problem}\n"
    )


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            ".reflint.yaml",
            "ignore: [RL010\nselect: [RL001]\n",
            ".reflint.yaml:1:9: not valid YAML: '[' is never closed: at line 2, column 7, "
            "did not find expected ',' or ']'",
        ),
        (
            ".reflint.yaml",
            "ignore: [RL010,\n",
            ".reflint.yaml:1:9: not valid YAML: '[' is never closed: at line 2, column 1, "
            "did not find expected node content",
        ),
        (
            "pyproject.toml",
            '[tool.reflint]\nignore = ["RL010" "RL015"]\n',
            "pyproject.toml:2:19: not valid TOML: Unclosed array",
        ),
    ],
)
def test_a_config_that_does_not_parse_is_located(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    message: str,
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "--offline"]) == 2
    assert capsys.readouterr().err == f"reflint: error: {message}\n"
