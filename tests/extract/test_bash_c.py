"""``bash [options] -c SCRIPT``: one reader of a shell's options for command lines and exec-form ``RUN``.

bash reads each ``o`` (and ``O``) of a bundle of single-letter options as taking the next word as its value
(bash(1) "OPTIONS", ``parse_shell_options``): in ``bash -ceuxo pipefail SCRIPT`` the script is SCRIPT, written
in a ``RUN`` in shell form, in a script, or in exec form.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.cli import main
from ascend_reflint.extract.commands import LiteralWord, ShellScript, shell_script


def literal_words(text: str) -> list[LiteralWord]:
    return [LiteralWord(word) for word in text.split()]


@pytest.mark.parametrize(
    ("arguments", "script"),
    [
        ("-ceuxo pipefail SCRIPT", ShellScript(2)),
        ("-eo pipefail -c SCRIPT", ShellScript(3)),
        ("-o pipefail -ec SCRIPT", ShellScript(3)),
        ("-ceo pipefail -o nounset SCRIPT", ShellScript(4)),
        ("-cOo extglob pipefail SCRIPT", ShellScript(3)),
        ("+o posix -c SCRIPT", ShellScript(3)),
        ("--rcfile rc -c SCRIPT", ShellScript(3)),
        ("--login --noprofile -c SCRIPT", ShellScript(3)),
        ("-eo pipefail script.sh", None),
        ("-so pipefail", ShellScript(None)),
        ("-co pipefail", None),
    ],
)
def test_each_o_of_a_bundle_takes_the_next_word(arguments: str, script: ShellScript | None) -> None:
    assert shell_script(literal_words(arguments), 0) == script


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        (
            "Dockerfile",
            "FROM ubuntu:22.04\nRUN bash -ceuxo pipefail 'git clone -b v1 https://github.com/o/r.git'\n",
            "docker/Dockerfile:2:40: github.com/o/r v1 (clone-branch)",
        ),
        (
            "Dockerfile",
            'FROM ubuntu:22.04\nRUN ["bash", "-ceuxo", "pipefail", "git clone -b v1 https://github.com/o/r.git"]\n',
            "docker/Dockerfile:2:50: github.com/o/r v1 (clone-branch)",
        ),
        (
            "install.sh",
            '#!/bin/bash\nbash -ceuxo pipefail "git clone -b v1 https://github.com/o/r.git"\n',
            "docker/install.sh:2:36: github.com/o/r v1 (clone-branch)",
        ),
    ],
    ids=["shell form", "exec form", "script"],
)
def test_bash_ceuxo_pipefail_pins_in_shell_form_exec_form_and_scripts(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    line: str,
) -> None:
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["refs"]) == 0
    assert capsys.readouterr().out.splitlines() == [line]
