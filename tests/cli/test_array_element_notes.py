"""A ref from an array element whose value is not known says which element, as the script names it.

``${REFS[1]}``, ``${REFS[-1]}`` (bash(1) "Arrays": a negative index counts back from the end), an element
that ``"${A[@]}"`` hands to git (reported at the value that its ``--branch=`` gives), an element copied
from another array (``a=("${REFS[@]}")``): each note names the element (``REFS[1]``), what it is written
as, and why that has no static value.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.cli import main

SCRIPT = """#!/bin/bash
REFS=(v1 "$X" v3 "$(cat ref.txt)" K="$Y")
git clone --branch "${REFS[1]}" https://github.com/o/r.git
git clone --branch "${REFS[3]}" https://github.com/o/r.git
git clone --branch "${REFS[-1]}" https://github.com/o/r.git
a=("${REFS[@]}")
git clone --branch "${a[1]}" https://github.com/o/r.git
OPTS=(--branch="$X" --depth 1)
git clone "${OPTS[@]}" https://github.com/o/r.git
echo "${REFS[@]}" > refs.txt
"""


def _unresolved(line: int, column: int, ref: str, why: str, hint: bool) -> str:
    tail = "; a default value in the file lets reflint check it" if hint else ""
    return (
        f'install.sh:{line}:{column}: RL009 [info] ref "{ref}" of github.com/o/r cannot be resolved '
        f"statically ({why}), so it was not checked{tail}"
    )


def test_the_note_names_the_element(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "install.sh").write_text(SCRIPT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "--select", "RL009", "--cache-dir", str(tmp_path / "cache")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        _unresolved(3, 21, "${REFS[1]}", "REFS[1] is $X: $X is not set in this file", True),
        _unresolved(4, 21, "${REFS[3]}", "REFS[3] is $(cat ref.txt): command substitution", False),
        _unresolved(5, 21, "${REFS[-1]}", 'REFS[-1] is K="$Y": $Y is not set in this file', True),
        _unresolved(7, 21, "${a[1]}", "a[1], from REFS[1], is $X: $X is not set in this file", True),
        _unresolved(8, 17, "$X", 'OPTS[0] is --branch="$X": $X is not set in this file', True),
        "",
        "0 errors, 0 warnings, 5 info in 1 of 1 file (5 pins, 0 remotes: 0 checked (0 cached), 0 not "
        "checked)",
    ]
