"""What the command line says when it is used wrongly, and pipes that close early (ascend_reflint.cli)."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ascend_reflint.cli import main


@pytest.fixture
def recipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "install.sh").write_text("git clone --branch v1 https://github.com/o/r.git\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["scan", "--offline", "--select", "RL999"],
            "reflint: error: --select: unknown rule code RL999 (`reflint rules` lists the rules)\n",
        ),
        (
            ["scan", "--offline", "--extend-select", "RL9"],
            "reflint: error: --extend-select: no rule code starts with RL9 (`reflint rules` lists the "
            "rules)\n",
        ),
        (
            ["scan", "--offline", "--ignore", "RL001,brnch-pin"],
            "reflint: error: --ignore: 'brnch-pin' is not a rule code (RL002), a code prefix (RL00) or a "
            "rule name (branch-pin) (did you mean 'branch-pin'?); `reflint rules` lists the rules\n",
        ),
        (["scan", "--offline", "dockr/"], "reflint: error: no such file or directory: dockr/\n"),
        (["refs", "dockr/"], "reflint: error: no such file or directory: dockr/\n"),
        (
            ["scan", "--offline", "--refresh"],
            "reflint: error: --offline and --refresh contradict each other: "
            "--refresh asks every remote again\n",
        ),
        (
            ["scan", "--offline", "--format", "json", "--format", "sarif"],
            "reflint: error: json and sarif cannot share standard output: give each one an --output FILE\n",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_clear_line(
    recipe: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", message)


def test_select_accumulates_across_repeats(
    recipe: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (recipe / "more.sh").write_text("git clone https://github.com/o/unpinned.git\n")
    code = main(
        [
            "scan",
            "--offline",
            "--cache-dir",
            str(tmp_path / "c"),
            "--select",
            "RL010",
            "--select",
            "RL015",
            "--format",
            "json",
            "--fail-on",
            "warning",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    assert sorted({(f["code"], f["path"]) for f in document["findings"]}) == [
        ("RL010", "install.sh"),
        ("RL010", "more.sh"),
        ("RL015", "more.sh"),
    ]


def test_build_arg_without_value_takes_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "Dockerfile").write_text(
        "FROM x\nARG REF\nRUN git clone -b $REF https://github.com/o/r.git\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REF", "v2.0")
    assert main(["refs", "--build-arg", "REF"]) == 0
    assert capsys.readouterr().out == "Dockerfile:3:18: github.com/o/r v2.0 (clone-branch)\n"


def test_a_closed_pipe_is_not_an_internal_error(recipe: Path) -> None:
    completed = subprocess.run(
        f"{sys.executable} -m ascend_reflint rules | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (completed.returncode, completed.stdout, completed.stderr) == (
        0,
        "RL001 ref-not-found [error] (needs a lookup; unsafe fix)\n",
        "",
    )


def test_rules_takes_codes_in_any_case_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "rl002", "ref-not-found", "--format", "json"]) == 0
    assert [rule["code"] for rule in json.loads(capsys.readouterr().out)] == ["RL001", "RL002"]
    assert main(["rules", "no-such-rule"]) == 2
    assert capsys.readouterr().err == (
        "reflint: error: 'no-such-rule' is not a rule code (RL002), a code prefix (RL00) or a rule name "
        "(branch-pin); `reflint rules` lists the rules\n"
    )


def test_output_dash_is_standard_output(recipe: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--output", "-"]) == 0
    assert capsys.readouterr().out == "install.sh:1:20: github.com/o/r v1 (clone-branch)\n"
    assert not (recipe / "-").exists()


def test_a_closed_stdout_does_not_cost_the_sarif_file(recipe: Path, tmp_path: Path) -> None:
    sarif = tmp_path / "r.sarif"
    scan = [sys.executable, "-m", "ascend_reflint", "scan", "--offline", "--cache-dir", str(tmp_path / "c")]
    scan += ["--format", "text", "--format", "sarif", "--output"]
    # bash reports reflint's exit code after the pipe's; head reads one byte and closes it.
    command = f'{shlex.join([*scan, str(sarif)])} | head -c 1; echo " ${{PIPESTATUS[0]}}"'
    completed = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    whole = subprocess.run(
        [*scan, str(tmp_path / "whole.sarif")], capture_output=True, text=True, check=False
    )

    # The text went as far as head took it; reflint exits 1 (offline, nothing was checked) and says so on
    # stderr whether it wrote all its text before head closed the pipe or not. The SARIF file is the one an
    # uninterrupted run writes.
    unchecked = "reflint: no remote could be checked: 1 pin unchecked\n"
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "i 1\n", unchecked)
    assert (whole.returncode, whole.stderr) == (1, unchecked)
    assert json.loads(sarif.read_text()) == json.loads((tmp_path / "whole.sarif").read_text())


def test_a_refused_url_is_only_rl011(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.sh").write_text('git clone "ssh://-oProxyCommand=touch%20/tmp/x/y" /opt/a\n')
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "--offline", "--cache-dir", str(tmp_path / "c"), "--format", "json"]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["code"], f["line"], f["column"], f["end_column"]) for f in findings] == [("RL011", 1, 12, 49)]


@pytest.mark.parametrize(
    ("option", "value", "unit"),
    [
        ("--timeout", "nan", "seconds"),
        ("--timeout", "inf", "seconds"),
        ("--timeout", "1e309", "seconds"),  # float() reads it as infinity
        ("--cache-ttl", "nan", "seconds"),
        ("--cache-ttl", "inf", "seconds"),
        ("--max-history-size", "nan", "MiB"),
    ],
)
def test_a_float_option_that_is_not_a_finite_number_above_0_is_a_usage_error(
    recipe: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, unit: str
) -> None:
    assert main(["scan", "--offline", "--cache-dir", str(recipe / "c"), option, value]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == (
        f"reflint scan: error: argument {option}: must be a finite number of {unit} above 0: '{value}'"
    )
