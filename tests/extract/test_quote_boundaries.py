"""A quote that ends a ``$NAME`` also ends the name: ``"$A"B`` is A's value followed by ``B``.

bash(1) "Parameter Expansion": the name is the longest run of name characters after ``$``, and quote removal
happens after expansion, so ``"$A"B`` and ``$A""B`` expand ``$A``; BuildKit's ``ProcessWord`` reads Dockerfile
``ENV``/``ARG`` values the same way. Variables named like the joined text (``AB``) are traps. A word quoted
in part (``"$A"B``) is reported at its first character, quote included: a span holds both quotes of a pair
or neither.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

SCRIPT = """#!/bin/bash
A=v1
AB=wrong
A_x=wrong
git clone --branch "$A"B https://github.com/o/r1.git
git clone --branch "$A"_x https://github.com/o/r2.git
git clone --branch $A""B https://github.com/o/r3.git
git clone --branch "${A}"B https://github.com/o/r4.git
git clone --branch "$A""$A" https://github.com/o/r5.git
git clone --branch "$AB" https://github.com/o/r6.git
"""

DOCKERFILE = """FROM ubuntu:22.04
ARG A=v1
ARG AB=wrong
ENV X="$A"B Y=$A"_9" Z=$AB
RUN git clone --branch "$X" https://github.com/o/r1.git && \\
    git clone --branch "$Y" https://github.com/o/r2.git && \\
    git clone --branch "$Z" https://github.com/o/r3.git && \\
    git clone --branch "$A"B https://github.com/o/r4.git
"""


@pytest.mark.parametrize(
    ("name", "text", "lines"),
    [
        (
            "install.sh",
            SCRIPT,
            [
                "install.sh:5:20: github.com/o/r1 v1B (clone-branch)",
                "install.sh:6:20: github.com/o/r2 v1_x (clone-branch)",
                "install.sh:7:20: github.com/o/r3 v1B (clone-branch)",
                "install.sh:8:20: github.com/o/r4 v1B (clone-branch)",
                "install.sh:9:20: github.com/o/r5 v1v1 (clone-branch)",
                "install.sh:10:21: github.com/o/r6 wrong (clone-branch)",
            ],
        ),
        (
            "Dockerfile",
            DOCKERFILE,
            [
                "Dockerfile:5:25: github.com/o/r1 v1B (clone-branch)",
                "Dockerfile:6:25: github.com/o/r2 v1_9 (clone-branch)",
                "Dockerfile:7:25: github.com/o/r3 wrong (clone-branch)",
                "Dockerfile:8:24: github.com/o/r4 v1B (clone-branch)",
            ],
        ),
    ],
    ids=["script", "dockerfile"],
)
def test_a_quote_ends_the_variable_name(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    lines: list[str],
) -> None:
    (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["refs"]) == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_a_quote_left_open_ends_the_span_at_the_end_of_the_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``v"1`` at the end of the file opens a quoted string that nothing closes: the span ends with the
    file's last character, not one past it. (In a Dockerfile RUN: a shell script that does not parse has no
    pins, a RUN that does not parse is one instruction of the file.)"""
    (tmp_path / "Dockerfile").write_text('FROM x\nRUN git clone https://github.com/o/r.git --branch v"1')
    monkeypatch.chdir(tmp_path)
    assert main(["refs", "--format", "json"]) == 0
    [pin] = json.loads(capsys.readouterr().out)["pins"]
    assert (pin["ref"], pin["line"], pin["column"], pin["end_line"], pin["end_column"]) == (
        "v1",
        2,
        51,
        2,
        54,
    )
