"""Refs, URLs and paths are printed as data: never as rich markup, never as raw control characters — on a
terminal (rich table, coloured lines) as in pipes and every other format.

The hostile text: a ref ``[red]x[/red]`` (rich markup), a ref holding an OSC escape that would retitle the
terminal, a file whose name holds a screen-clearing escape and markup, and a right-to-left override.
"""

from __future__ import annotations

import json
from pathlib import Path

from gitfixtures import FakeRemotes

from .support import run_in_terminal, run_reflint, write_tree

MARKUP_REF = "[red]x[/red]"
ESCAPE_REF = "v1\x1b]0;PWNED\x07"
ESCAPED_REF = "v1\\x1b]0;PWNED\\x07"
#: A file name holding markup and an escape that clears the screen, as written and as printed.
EVIL_NAME = "[bold]evil[/bold]\x1b[2J.sh"
EVIL_NAME_SHOWN = "[bold]evil[/bold]\\x1b[2J.sh"
RTL_REF = "v2\u202eexe.sh"
RTL_REF_SHOWN = "v2\\u202eexe.sh"


def _project(root: Path) -> None:
    url = "https://github.com/NVIDIA/Megatron-LM.git"
    write_tree(
        root,
        {
            "build.sh": (
                "#!/bin/bash\n"
                f"git clone --branch '{MARKUP_REF}' {url} /opt/a\n"
                f"git clone --branch '{ESCAPE_REF}' {url} /opt/b\n"
                f"git clone --branch '{RTL_REF}' {url} /opt/c\n"
            ),
            EVIL_NAME: f"git clone --branch core_r0.18.0 {url} /opt/d\n",
        },
    )


def _assert_printed_as_data(output: str) -> None:
    assert MARKUP_REF in output
    assert ESCAPED_REF in output and "\x1b]0;" not in output
    assert EVIL_NAME_SHOWN in output and "\x1b[2J" not in output
    assert RTL_REF_SHOWN in output and "\u202e" not in output


def test_refs_table_on_a_terminal_prints_markup_and_escapes_literally(tmp_path: Path) -> None:
    _project(tmp_path)

    output = run_in_terminal(["refs"], tmp_path)

    assert "4 pins in 2 files" in output  # the rich table's title: the terminal path was taken
    _assert_printed_as_data(output)
    assert f"│ {EVIL_NAME_SHOWN}:1:20 │" in output


def test_coloured_scan_on_a_terminal_prints_markup_and_escapes_literally(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    _project(tmp_path)

    output = run_in_terminal(["scan", "--cache-dir", str(tmp_path / "cache")], tmp_path, remotes.env())

    _assert_printed_as_data(output)
    # Coloured (the rich path), and the colour on the code and severity, however long the escaped path.
    assert f"{EVIL_NAME_SHOWN}:1:20: \x1b[1;31mRL002 [error]\x1b[0m ref " in output
    for line in (2, 3, 4):
        assert f"build.sh:{line}:21: \x1b[1;31mRL001 [error]\x1b[0m ref " in output


def test_plain_outputs_print_markup_and_escapes_literally(tmp_path: Path, remotes: FakeRemotes) -> None:
    _project(tmp_path)
    env = remotes.env()
    cache = ["--cache-dir", str(tmp_path / "cache")]

    refs = run_reflint(["refs"], tmp_path, env)
    scan = run_reflint(["scan", *cache], tmp_path, env)
    github = run_reflint(["scan", *cache, "--format", "github"], tmp_path, env)
    json_run = run_reflint(["scan", *cache, "--format", "json"], tmp_path, env)
    sarif = run_reflint(["scan", *cache, "--format", "sarif"], tmp_path, env)
    document = json.loads(json_run.stdout)

    for output in (refs.stdout, scan.stdout, github.stdout):
        _assert_printed_as_data(output)
    # JSON keeps the data exact, with the characters a terminal acts on written as \u escapes.
    assert {f["ref"] for f in document["findings"] if f["code"] == "RL001"} == {
        MARKUP_REF,
        ESCAPE_REF,
        RTL_REF,
    }
    for output in (json_run.stdout, sarif.stdout):
        assert "\x1b" not in output and "\u202e" not in output
        assert "\\u001b]0;PWNED\\u0007" in output and "v2\\u202eexe.sh" in output
