"""Git's configuration syntax read as data (ascend_reflint.extract.gitconfig), checked against what git itself
reads from the same file (``git config --file F --list``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ascend_reflint.extract import ExtractError
from ascend_reflint.extract.gitconfig import parse_git_config

TRICKY = (
    "\ufeff# comment\n"
    '[submodule "third_party/a b"] ; a comment after the header\n'
    "\tpath = third_party/a b  \t # a comment\n"
    '\turl = "  https://github.com/o/r.git  " \n'
    "\tbranch = re\\\n"
    "  lease ; the line above goes on here\n"
    "\tshallow\n"
    '\tURL = "quoted \\"inner\\" \\\\ \\t tab" ; the last url wins\n'
    "[Section.Sub]\n"
    "Key=\n"
    '[remote "origin"]\n'
    "\turl = git@github.com:o/super.git\n"
    '[submodule "es\\c\\"aped"]\n'
    "\tpath=x\n"
)


def git_list(tmp_path: Path, text: str) -> list[str]:
    config = tmp_path / "config"
    config.write_text(text, encoding="utf-8")
    completed = subprocess.run(
        ["git", "config", "--file", str(config), "--list", "-z"],
        capture_output=True,
        check=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
    )
    return [entry.replace("\n", "=", 1) for entry in completed.stdout.decode().split("\0") if entry]


def our_list(text: str) -> list[str]:
    listed = []
    for value in parse_git_config(text):
        name = (
            value.section + (f".{value.subsection}" if value.subsection is not None else "") + f".{value.key}"
        )
        listed.append(name if value.value is None else f"{name}={value.value}")
    return listed


def test_values_are_what_git_reads(tmp_path: Path) -> None:
    assert our_list(TRICKY) == git_list(tmp_path, TRICKY)
    assert values_of("url = before any section\n[s]\nk = v\n") == ["s.k=v"]


def values_of(text: str) -> list[str]:
    return our_list(text)


def test_each_value_maps_to_the_characters_that_spell_it() -> None:
    text = TRICKY.removeprefix("\ufeff")
    parsed = parse_git_config(text)
    values = {(v.subsection, v.key): v for v in parsed}
    url = parsed[1]
    begin, end = url.region()
    assert (url.value, text[begin:end]) == (
        "  https://github.com/o/r.git  ",
        "  https://github.com/o/r.git  ",
    )
    branch = values[("third_party/a b", "branch")]
    begin, end = branch.region()
    assert (branch.value, text[begin:end]) == ("re  lease", "re\\\n  lease")  # as git reads it
    empty = values[("sub", "key")]
    assert (empty.value, empty.region()) == ("", (text.index("Key=") + 4,) * 2)
    assert values[("third_party/a b", "shallow")].value is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[submodule "a"]\n\turl = "open\n', "line 2: unclosed quote in a value (git refuses the file)"),
        ('[submodule "a"]\n\turl = a\\qb\n', "line 2: bad escape in a value (git refuses the file)"),
        ('[submodule "a\n', "line 1: bad section header (git refuses the file)"),
        ("[sub]\n\t1url = x\n", "line 2: bad config line (git refuses the file)"),
    ],
)
def test_what_git_refuses_is_an_extract_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ExtractError) as raised:
        parse_git_config(text)
    assert str(raised.value) == message
    config = tmp_path / "config"
    config.write_text(text, encoding="utf-8")
    refused = subprocess.run(
        ["git", "config", "--file", str(config), "--list"], capture_output=True, check=False
    )
    assert refused.returncode != 0
