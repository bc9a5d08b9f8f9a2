"""What the Hypothesis ``explore`` profile of tests/hostile found in the shell and workflow extractors, each
through ``reflint refs`` as a user runs it: the exact pins, where they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

MEGATRON = "https://github.com/NVIDIA/Megatron-LM.git"


#: A pin as these tests compare it: path, (line, column, end line, end column), URL, ref as written.
PinRow = tuple[str, tuple[int, int, int, int], str, "str | None"]


def refs_json(tmp_path: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> list[PinRow]:
    """``reflint refs --format json`` over ``files`` written in ``tmp_path``: per pin, its path, span, URL
    and ref as written."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    assert main(["refs", "--format", "json", str(tmp_path)]) == 0
    return [
        (
            Path(pin["path"]).relative_to(tmp_path).as_posix(),
            (pin["line"], pin["column"], pin["end_line"], pin["end_column"]),
            pin["url"],
            pin["ref_text"],
        )
        for pin in json.loads(capsys.readouterr().out)["pins"]
    ]


def test_a_line_that_starts_with_a_backslash_is_a_command_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `\git` runs git, bypassing an alias; tree-sitter-bash read the line break before it as part of a
    # word, which made the second clone arguments of the first: one pin, its URL "….git\ngit"
    apex = "https://github.com/NVIDIA/apex.git"
    files = {
        # a line of a quoted string that starts with a backslash stays in the string (the cd is read)
        "install.sh": (
            f"git clone {MEGATRON}\n\\git clone {apex}\n"
            'echo "one\n\\"two\\"" \'three\n\\\'\n'
            "\\cd apex && \\git checkout v1\n"
        ),
        "Dockerfile": f"FROM ubuntu:22.04\nRUN <<EOF\ngit clone {MEGATRON}\n\\git clone {apex}\nEOF\n",
        # a literal block: the value's lines start where the indentation ends
        ".github/workflows/ci.yml": (
            "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n"
            f"          git clone {MEGATRON}\n          \\git clone {apex}\n"
        ),
    }
    assert refs_json(tmp_path, files, capsys) == [
        (".github/workflows/ci.yml", (7, 21, 7, 62), MEGATRON, None),
        (".github/workflows/ci.yml", (8, 22, 8, 56), apex, None),
        ("Dockerfile", (3, 11, 3, 52), MEGATRON, None),
        ("Dockerfile", (4, 12, 4, 46), apex, None),
        ("install.sh", (1, 11, 1, 52), MEGATRON, None),
        ("install.sh", (6, 27, 6, 29), apex, "v1"),
    ]


def test_a_nel_that_folds_a_quoted_run_script_keeps_every_pin_where_it_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # YAML 1.1 reads NEL (U+0085) as a line break, and libyaml and ruamel.yaml fold it away; the map from
    # the value to the file did not, so every pin of the scalar was put on its first character
    workflow = (
        "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - run: 'git clone {MEGATRON}\n\n          \x85git clone https://github.com/NVIDIA/apex.git\n\n"
        "          '\n"
    )
    assert refs_json(tmp_path, {".github/workflows/ci.yml": workflow}, capsys) == [
        (".github/workflows/ci.yml", (6, 25, 6, 66), MEGATRON, None),
        (".github/workflows/ci.yml", (8, 22, 8, 56), "https://github.com/NVIDIA/apex.git", None),
    ]


def test_a_ref_that_ends_in_an_escape_is_covered_to_the_end_of_the_escape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a character that an escape writes mapped to the escape's first character only, so the span of a ref
    # that ends on one stopped inside it ('\\u65e5\\' for 日本): YAML's double-quoted \u, \x and '' of a
    # single-quoted scalar, and an exec-form RUN's JSON escapes (refs of a workflow are as the shell reads
    # them, of an exec-form RUN as the file writes them)
    files = {
        ".github/workflows/ci.yml": (
            "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
            f'      - run: "pip install git+{MEGATRON}@\\u65e5\\u672c"\n'
            f'      - run: "git clone -b core_v0.12.\\x31 {MEGATRON}"\n'
            f"      - run: 'git clone -b \"v1''\" {MEGATRON}'\n"
        ),
        "Dockerfile": (
            f'FROM ubuntu:22.04\nRUN ["git", "clone", "-b", "core_v0.12.\\u0031", "{MEGATRON}"]\n'
            'RUN ["git", "clone", "\\"https://github.com/NVIDIA/apex.git\\""]\n'
        ),
    }
    assert refs_json(tmp_path, files, capsys) == [
        (".github/workflows/ci.yml", (6, 73, 6, 85), MEGATRON, "日本"),
        (".github/workflows/ci.yml", (7, 28, 7, 43), MEGATRON, "core_v0.12.1"),
        (".github/workflows/ci.yml", (8, 29, 8, 33), MEGATRON, "v1'"),
        ("Dockerfile", (2, 29, 2, 46), MEGATRON, "core_v0.12.\\u0031"),
        ("Dockerfile", (3, 23, 3, 61), '"https://github.com/NVIDIA/apex.git"', None),
    ]
