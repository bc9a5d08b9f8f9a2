"""Refs, URLs and paths are printed as data: never as rich markup, never as raw control characters — on a
terminal (rich table, coloured lines) as in pipes and every other format.

The hostile text: a ref ``[red]x[/red]`` (rich markup), a ref holding an OSC escape that would retitle the
terminal, a file whose name holds a screen-clearing escape and markup, and a right-to-left override.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from expected import MEGATRON_RELEASE_BRANCH
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
    """No character of the hostile text reached the output raw (each is written out as an escape)."""
    assert ("\x1b]0;" in output, "\x1b[2J" in output, "\u202e" in output) == (False, False, False)


#: Where each pin is, as printed (path, line, column), its ref as printed, and the ref's end column.
PINS = [
    (EVIL_NAME_SHOWN, 1, 20, "core_r0.18.0", 32),
    ("build.sh", 2, 21, MARKUP_REF, 33),
    ("build.sh", 3, 21, ESCAPED_REF, 33),
    ("build.sh", 4, 21, RTL_REF_SHOWN, 30),
]
NOT_A_REF = "is neither a branch nor a tag of github.com/nvidia/megatron-lm, so `git clone --branch` fails"
#: Each pin's finding: code, rule name, message.
FINDINGS = [
    ("RL002", "branch-pin", MEGATRON_RELEASE_BRANCH),
    ("RL001", "ref-not-found", f'ref "{MARKUP_REF}" {NOT_A_REF}; it has 4 branches and 6 tags'),
    ("RL001", "ref-not-found", f'ref "{ESCAPED_REF}" {NOT_A_REF}; it has 4 branches and 6 tags'),
    (
        "RL001",
        "ref-not-found",
        f'ref "{RTL_REF_SHOWN}" {NOT_A_REF}; no ref names that version; the most similar of its 4 branches '
        'and 6 tags are "core_v0.11.0", "core_v0.12.1", "core_v0.15.0"',
    ),
]
SUMMARY = (
    "4 errors, 0 warnings, 0 info in 2 of 2 files (4 pins, 1 remote: {checked} checked ({cached} cached), "
    "{unchecked} not checked)"
)


#: Column widths of the rich table ``reflint refs`` prints on a 200-column terminal.
WIDTHS = (34, 31, 20, 14, 7)


def _rule(left: str, middle: str, right: str, line: str) -> str:
    return left + middle.join(line * width for width in WIDTHS) + right


#: ``reflint refs`` on a terminal: a rich table, its title in italics, its header in bold, refs in green.
REFS_TABLE = [
    "\x1b[3m4 pins in 2 files" + " " * 95 + "\x1b[0m",
    _rule("┏", "┳", "┓", "━"),
    "┃"
    + "┃".join(
        f"\x1b[1m \x1b[0m\x1b[1m{title.ljust(width - 2)}\x1b[0m\x1b[1m \x1b[0m"
        for title, width in zip(("location", "remote", "ref", "via", "clone"), WIDTHS, strict=True)
    )
    + "┃",
    _rule("┡", "╇", "┩", "━"),
    *(
        f"│ {f'{path}:{line}:{column}'.ljust(32)} │ github.com/nvidia/megatron-lm │ "
        f"\x1b[32m{ref.ljust(18)}\x1b[0m │ clone-branch │       │"
        for path, line, column, ref, _ in PINS
    ),
    _rule("└", "┴", "┘", "─"),
    "",
]


def test_refs_table_on_a_terminal_prints_markup_and_escapes_literally(tmp_path: Path) -> None:
    _project(tmp_path)

    completed = run_in_terminal(["refs"], tmp_path)

    assert completed.returncode == 0
    assert completed.stdout.split("\r\n") == REFS_TABLE
    _assert_printed_as_data(completed.stdout)


def _text_report(code_style: str = "{}", summary_style: str = "{}") -> list[str]:
    """The findings and summary as the text format prints them (with colours when styles are given): the
    files one after another, a blank line between them and before the summary."""
    lines = []
    for (path, line, column, _, _), (code, _, message) in zip(PINS, FINDINGS, strict=True):
        if lines and not lines[-1].startswith(f"{path}:"):
            lines.append("")
        lines.append(f"{path}:{line}:{column}: {code_style.format(f'{code} [error]')} {message}")
    # The RL002 finding's fix is unsafe: the release branch has moved on since the tag.
    fixable = "1 fixable with --fix --unsafe-fixes"
    return [*lines, "", summary_style.format(SUMMARY.format(checked=1, cached=0, unchecked=0)), fixable]


def test_coloured_scan_on_a_terminal_prints_markup_and_escapes_literally(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    _project(tmp_path)

    completed = run_in_terminal(["scan", "--cache-dir", str(tmp_path / "cache")], tmp_path, remotes.env())

    assert completed.returncode == 1
    _assert_printed_as_data(completed.stdout)
    # After the progress bar: the findings coloured (the rich path), the colour on the code and severity
    # however long the escaped path, the summary in bold.
    report = completed.stdout[completed.stdout.index(f"{EVIL_NAME_SHOWN}:1:20: ") :]
    assert report.split("\r\n") == [*_text_report("\x1b[1;31m{}\x1b[0m", "\x1b[1m{}\x1b[0m"), ""]


def test_plain_outputs_print_markup_and_escapes_literally(
    tmp_path: Path, remotes: FakeRemotes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _project(tmp_path)
    env = remotes.env()
    # Outside the scanned tree: answers from a cache inside it are warned about.
    cache = ["--cache-dir", str(tmp_path_factory.mktemp("cache"))]

    refs = run_reflint(["refs"], tmp_path, env)
    scan = run_reflint(["scan", *cache], tmp_path, env)
    github = run_reflint(["scan", *cache, "--format", "github"], tmp_path, env)
    json_run = run_reflint(["scan", *cache, "--format", "json"], tmp_path, env)
    sarif = run_reflint(["scan", *cache, "--format", "sarif"], tmp_path, env)
    document = json.loads(json_run.stdout)

    runs = (refs, scan, github, json_run, sarif)
    assert [(run.returncode, run.stderr) for run in runs] == [(0, "")] + [(1, "")] * 4
    assert refs.stdout.splitlines() == [
        f"{path}:{line}:{column}: github.com/nvidia/megatron-lm {ref} (clone-branch)"
        for path, line, column, ref, _ in PINS
    ]
    assert scan.stdout.splitlines() == _text_report()
    assert github.stdout.splitlines() == [
        *(
            f"::error file={path},line={line},col={column},endLine={line},endColumn={end},"
            f"title={code} {name}::{message}"
            for (path, line, column, _, end), (code, name, message) in zip(PINS, FINDINGS, strict=True)
        ),
        SUMMARY.format(checked=1, cached=1, unchecked=0),
    ]
    for output in (refs.stdout, scan.stdout, github.stdout):
        _assert_printed_as_data(output)
    # JSON keeps the data exact, with the characters a terminal acts on written as \u escapes.
    assert [(f["path"], f["code"], f["ref"]) for f in document["findings"]] == [
        ("[bold]evil[/bold]\x1b[2J.sh", "RL002", "core_r0.18.0"),
        ("build.sh", "RL001", MARKUP_REF),
        ("build.sh", "RL001", ESCAPE_REF),
        ("build.sh", "RL001", RTL_REF),
    ]
    for output in (json_run.stdout, sarif.stdout):
        assert ("\x1b" in output, "\u202e" in output) == (False, False)
        assert ("\\u001b]0;PWNED\\u0007" in output, "v2\\u202eexe.sh" in output) == (True, True)
