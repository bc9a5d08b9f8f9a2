"""What ``reflint --help`` says, and that the package, the Action and the hook describe reflint alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from ascend_reflint.cli import main

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

PROJECT = Path(__file__).resolve().parents[2]
#: What reflint reads, in a phrase that every description shares and that no new kind of file outdates.
WHAT_IT_READS = "(Dockerfiles, scripts, CI files, dependency files and more)"


def reflint(*args: str, columns: int = 100) -> subprocess.CompletedProcess[str]:
    """``python -m ascend_reflint ARGS`` with a terminal ``columns`` wide as argparse sees it."""
    return subprocess.run(
        [sys.executable, "-m", "ascend_reflint", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": str(columns)},
        timeout=60,
    )


def test_help_says_what_reflint_reads_in_one_sentence() -> None:
    completed = reflint("--help")
    assert (completed.returncode, completed.stderr) == (0, "")
    assert completed.stdout.split("\n\n")[1] == (
        "Lint the git refs that build recipes pin (Dockerfiles, scripts, CI files, dependency files and\n"
        "more)."
    )


def test_the_package_the_action_and_the_hooks_describe_reflint_alike() -> None:
    pyproject = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    action = YAML(typ="safe").load((PROJECT / "action.yml").read_text(encoding="utf-8"))
    hooks = YAML(typ="safe").load((PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert (
        pyproject["project"]["description"]
        == f"A linter for the git refs that build recipes pin {WHAT_IT_READS}."
    )
    assert action["description"].startswith(f"Check the git refs that build recipes pin {WHAT_IT_READS}: ")
    assert (
        hooks[0]["description"]
        == f"Check the git refs that build recipes pin {WHAT_IT_READS} against their remotes."
    )


def usage(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    """The usage lines that ``reflint COMMAND --help`` begins with."""
    assert main([*command, "--help"]) == 0
    return capsys.readouterr().out.split("\n\n")[0] + "\n"


@pytest.mark.parametrize(
    ("argv", "command", "error"),
    [
        (["scan", "--foo", "."], ["scan"], "unrecognized arguments: --foo"),
        (["scan", "--formt", "json"], ["scan"], "unrecognized arguments: --formt (did you mean --format?)"),
        # No abbreviations: each names the options it begins.
        (
            ["scan", "--unsafe", "--fix"],
            ["scan"],
            "unrecognized arguments: --unsafe (did you mean --unsafe-fixes?)",
        ),
        (["scan", "--stat"], ["scan"], "unrecognized arguments: --stat (did you mean --statistics?)"),
        (
            ["scan", "--no"],
            ["scan"],
            "unrecognized arguments: --no "
            "(did you mean one of --no-cache, --no-docs or --no-verify-commits?)",
        ),
        (["scan", "--fix-only"], ["scan"], "unrecognized arguments: --fix-only (did you mean --fix?)"),
        (
            ["refs", "--col", "never"],
            ["refs"],
            "unrecognized arguments: --col (did you mean one of --color or --colour?)",
        ),
        (["--offline", "scan"], ["scan"], "unrecognized arguments: --offline (give it after 'reflint scan')"),
        (
            ["cache", "clean", "--cachedir", "x"],
            ["cache", "clean"],
            "unrecognized arguments: --cachedir (did you mean --cache-dir?), x",
        ),
        (["--foo"], [], "unrecognized arguments: --foo"),
    ],
)
def test_an_unknown_option_gets_its_commands_usage_and_the_option_it_likely_means(
    argv: list[str],
    command: list[str],
    error: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main(argv) == 2
    captured = capsys.readouterr()
    prog = " ".join(["reflint", *command])
    assert (captured.out, captured.err) == ("", f"{usage(capsys, *command)}{prog}: error: {error}\n")


@pytest.mark.parametrize(
    ("argv", "command", "choice", "meant"),
    [
        (["scna"], [], "argument COMMAND: invalid choice: 'scna'", "scan"),
        (["cache", "clen"], ["cache"], "argument ACTION: invalid choice: 'clen'", "clean"),
        (
            ["scan", "--format", "jsn"],
            ["scan"],
            "argument --format/--output-format: invalid choice: 'jsn'",
            "json",
        ),
    ],
)
def test_a_mistyped_command_or_choice_gets_the_one_it_likely_means(
    argv: list[str],
    command: list[str],
    choice: str,
    meant: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main(argv) == 2
    captured = capsys.readouterr()
    prog = " ".join(["reflint", *command])
    usage_text = usage(capsys, *command)
    # argparse's own list of the choices sits between the two (its quoting differs across Python versions).
    assert (captured.out, captured.err[: len(usage_text)]) == ("", usage_text)
    last = captured.err[len(usage_text) :]
    assert last.startswith(f"{prog}: error: {choice} (choose from ")
    assert last.endswith(f") (did you mean '{meant}'?)\n")
    assert main(["xyz"]) == 2
    assert "did you mean" not in capsys.readouterr().err


def test_rules_takes_what_select_takes(capsys: pytest.CaptureFixture[str]) -> None:
    """Codes, prefixes and names, comma-separated or not, as ``--select`` takes them."""
    assert main(["rules", "RL00", "rl013,unused-ignore", "--format", "json"]) == 0
    assert [rule["code"] for rule in json.loads(capsys.readouterr().out)] == [
        *(f"RL00{n}" for n in range(1, 10)),
        "RL013",
        "RL099",
    ]
    assert main(["rules", "RL9"]) == 2
    assert capsys.readouterr() == (
        "",
        "reflint: error: no rule code starts with RL9 (`reflint rules` lists the rules)\n",
    )


def test_rules_list_gives_one_aligned_line_per_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--list", "RL02"]) == 0
    assert capsys.readouterr() == (
        "RL020  checkout-of-fetch-head-only  error    no lookup       no fix      "
        "A checkout names a ref that only FETCH_HEAD holds.\n"
        "RL021  run-syntax-error             error    no lookup       no fix      "
        "A Dockerfile `RUN` that is not valid shell.\n"
        "RL022  bash-under-sh                warning  no lookup       no fix      "
        "Bash syntax in a Dockerfile `RUN` that `/bin/sh` runs.\n"
        "RL023  version-comment-mismatch     warning  needs a lookup  safe fix    "
        "A commit pin whose version comment names a tag that points elsewhere.\n"
        "RL024  newer-release                info     needs a lookup  unsafe fix  "
        "A pinned release tag has a newer release of the same line on the remote.\n"
        "RL025  commit-not-in-history        error    needs a lookup  no fix      "
        "A pinned commit that no branch or tag of its repository contains: it is not in the history.\n"
        "RL026  ambiguous-commit-id          error    needs a lookup  no fix      "
        "An abbreviated commit id that several commits of the repository's history start with.\n"
        "RL027  submodules-not-updated       warning  no lookup       no fix      "
        "A checkout in a `--recursive` clone that no `git submodule update` follows.\n",
        "",
    )
