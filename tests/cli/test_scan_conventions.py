"""``reflint scan`` keeps the conventions that users of ruff, zizmor and hadolint reach for: rule selection
by code, prefix or name; ``--color``, ``--quiet``, ``--statistics``, ``--output-format``; text output file by
file with ``path:line:col:`` on every line; one finding per problem; the config's ``exclude`` and
``per-file-ignores``; rules that need no ref list ask no remote; skipped paths named.

Real ``git ls-remote`` against the local bare repositories of ``tests/data/remotes``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

from ascend_reflint.cli import main

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]

DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone --depth 1 --branch core_r0.10.0 https://github.com/NVIDIA/Megatron-LM.git /opt/a
RUN git clone --depth 1 --branch mainline https://github.com/NVIDIA/Megatron-LM.git /opt/b
RUN git clone https://github.com/sgl-project/sgl-kernel-npu.git /opt/c
"""
SCRIPT = """\
#!/bin/bash
git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git
"""
MEGATRON = "github.com/nvidia/megatron-lm"
#: The branch core_r0.10.0 shares its name with a tag: one finding (RL002), never RL013 as well.
SHARED_NAME = (
    'Dockerfile:2:34: RL002 [error] ref "core_r0.10.0" is a branch of github.com/nvidia/megatron-lm, which '
    "moves whenever a commit lands on it; `git clone --branch` takes the branch although a tag has the same "
    "name: pin a name that is only a tag, or a commit id"
)
#: A name without a version: no "no ref names that version".
NO_VERSION = (
    'Dockerfile:3:34: RL001 [error] ref "mainline" is neither a branch nor a tag of '
    "github.com/nvidia/megatron-lm, so `git clone --branch` fails; the most similar of its 4 branches and 6 "
    'tags is "main"'
)
UNPINNED = (
    "Dockerfile:4:15: RL015 [warning] `git clone` of github.com/sgl-project/sgl-kernel-npu pins no ref, so "
    "the build takes whatever the default branch holds that day; add `--branch <tag>`{newest}, or check out "
    "a commit id after the clone"
)
RELEASE_BRANCH = (
    'scripts/install.sh:2:20: RL002 [error] ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, '
    'which moves whenever a commit lands on it: pin its release tag "core_v0.18.0"'
)
#: The line after the summary: RELEASE_BRANCH's fix is unsafe (the branch has moved on since the tag).
FIXABLE = "1 fixable with --fix --unsafe-fixes"


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    (root / "scripts").mkdir()
    (root / "scripts" / "install.sh").write_text(SCRIPT, encoding="utf-8")
    (root / "notes.txt").write_text("# not a recipe\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_text_output_goes_file_by_file_with_one_finding_per_problem(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan() == (
        1,
        [
            SHARED_NAME,
            NO_VERSION,
            UNPINNED.format(newest=' (newest release: "20250802")'),
            "",
            RELEASE_BRANCH,
            "",
            "3 errors, 1 warning, 0 info in 2 of 2 files (4 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
            FIXABLE,
        ],
        [],
    )


def test_rl013_is_reported_when_rl002_is_not_selected(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = scan("--select", "ambiguous-ref", "scripts/install.sh", "Dockerfile")
    assert (code, out) == (
        0,
        [
            'Dockerfile:2:34: RL013 [warning] "core_r0.10.0" is both a branch and a tag of '
            "github.com/nvidia/megatron-lm: `git clone --branch` takes the branch, while `git checkout` "
            "takes the tag (today they point at the same commit); pin a commit id or a name that is only a "
            "tag",
            "",
            "0 errors, 1 warning, 0 info in 1 of 2 files (4 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
        ],
    )


def test_rules_are_selected_by_code_prefix_and_name(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    by_prefix = scan("--select", "RL00", "--ignore", "ref-not-found")
    by_name = scan("--select", "branch-pin", "--extend-select", "rl015")
    summary = "2 errors, {} info in 2 of 2 files (4 pins, 2 remotes: 2 checked ({} cached), 0 not checked)"
    unpinned = UNPINNED.format(newest=' (newest release: "20250802")')
    assert by_prefix == (
        1,
        [SHARED_NAME, "", RELEASE_BRANCH, "", summary.format("0 warnings, 0", 0), FIXABLE],
        [],
    )
    assert by_name == (
        1,
        [SHARED_NAME, unpinned, "", RELEASE_BRANCH, "", summary.format("1 warning, 0", 2), FIXABLE],
        [],
    )


def test_rules_that_need_no_ref_list_ask_no_remote(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan("--select", "RL015") == (
        0,
        [
            UNPINNED.format(newest=""),
            "",
            "0 errors, 1 warning, 0 info in 1 of 2 files (4 pins, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )
    # The extraction cache and the read rule pack are written; no ref list and no history is.
    assert sorted(path.name for path in (project.parent / "cache").iterdir()) == ["extract", "packs"]


def test_statistics_count_findings_per_rule_as_ruff_does(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan("--statistics") == (
        1,
        [
            "2\tRL002\t[error] branch-pin",
            "1\tRL001\t[error] ref-not-found",
            "1\tRL015\t[warning] unpinned-clone",
            "3 errors, 1 warning, 0 info in 2 of 2 files (4 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
            FIXABLE,
        ],
        [],
    )


def test_statistics_give_each_severity_of_a_rule_a_line_that_adds_up_to_the_totals(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The README's release branch is an error capped to a warning, as every finding in documentation is.
    (project / "README.md").write_text(
        "```bash\ngit clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git\n```\n"
    )
    code, out, _ = scan("--statistics", "--select", "RL002")
    assert (code, out[:3]) == (
        1,
        [
            "2\tRL002\t[error] branch-pin",
            "1\tRL002\t[warning] branch-pin",
            "2 errors, 1 warning, 0 info in 3 of 3 files (5 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
        ],
    )


def _count(code: str, rule: str, severity: str, count: int, fixable_count: int) -> dict[str, object]:
    """One entry of the JSON statistics; ``fixable`` is true when every finding counted is fixable."""
    return {
        "code": code,
        "rule": rule,
        "severity": severity,
        "count": count,
        "fixable": fixable_count == count,
        "fixable_count": fixable_count,
    }


def test_statistics_in_json_are_ruffs_array_with_the_severity_and_what_fix_would_fix(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = scan("--statistics", "--format", "json")
    assert (code, json.loads("\n".join(out)), err) == (
        1,
        [
            _count("RL002", "branch-pin", "error", 2, 0),
            _count("RL001", "ref-not-found", "error", 1, 0),
            _count("RL015", "unpinned-clone", "warning", 1, 0),
        ],
        [],
    )
    # ruff's layout: two spaces a level, one key a line.
    assert out[:9] == [
        "[",
        "  {",
        '    "code": "RL002",',
        '    "rule": "branch-pin",',
        '    "severity": "error",',
        '    "count": 2,',
        '    "fixable": false,',
        '    "fixable_count": 0',
        "  },",
    ]
    # The release branch's fix is unsafe: with --unsafe-fixes it is one of the two that --fix would fix, and
    # the only one of its file.
    _, some, _ = scan("--statistics", "--format", "json", "--unsafe-fixes", "--select", "RL002")
    _, all_of_them, _ = scan("--statistics", "--format", "json", "--unsafe-fixes", "scripts/install.sh")
    assert json.loads("\n".join(some)) == [_count("RL002", "branch-pin", "error", 2, 1)]
    assert json.loads("\n".join(all_of_them)) == [_count("RL002", "branch-pin", "error", 1, 1)]


def test_statistics_in_json_of_a_clean_scan_are_an_empty_array(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan("--statistics", "--format", "json", "--select", "RL099") == (0, ["[]"], [])


def test_statistics_in_json_go_to_an_output_file_beside_the_text_statistics(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = scan(
        "--statistics", "-q", "--select", "RL015", "--format", "text", "--format", "json", "-o", "s.json"
    )
    assert (code, out) == (0, ["1\tRL015\t[warning] unpinned-clone"])
    assert json.loads((project / "s.json").read_text(encoding="utf-8")) == [
        _count("RL015", "unpinned-clone", "warning", 1, 0)
    ]


@pytest.mark.parametrize(
    ("formats", "named"),
    [
        (["--format", "github"], "github"),
        (["--format", "sarif"], "sarif"),
        (
            ["--format", "text", "--format", "sarif", "--format", "github", "-o", "a", "-o", "b"],
            "sarif or github",
        ),
    ],
)
def test_statistics_with_github_or_sarif_are_a_usage_error_before_any_lookup(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str], formats: list[str], named: str
) -> None:
    assert scan("--statistics", *formats) == (
        2,
        [],
        [
            f"reflint: error: --statistics has no {named} form: it counts findings in the text and json "
            "formats only"
        ],
    )
    assert not (project.parent / "cache").exists()


def test_statistics_leave_the_sarif_file_whole(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = scan("--statistics", "-q", "--select", "RL015", "--sarif-file", "r.sarif")
    assert (code, out) == (0, ["1\tRL015\t[warning] unpinned-clone"])
    results = json.loads((project / "r.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        ("RL015", 4)
    ]


def test_quiet_prints_the_findings_only(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan("--quiet", "--select", "RL002", "scripts/install.sh", "notes.txt") == (
        1,
        [RELEASE_BRANCH],
        [],
    )
    assert scan("-q", "--statistics", "--select", "RL002") == (
        1,
        ["2\tRL002\t[error] branch-pin"],
        [],
    )


def test_explicit_paths_that_scan_skips_are_named(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan("scripts/install.sh", "notes.txt") == (
        1,
        [
            RELEASE_BRANCH,
            "",
            "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
            FIXABLE,
        ],
        ["notes.txt: notice: skipped: not a kind of file reflint reads"],
    )


def test_output_format_is_an_alias_of_format(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = scan("--output-format", "github", "--select", "RL002", "scripts/install.sh")
    assert (code, out[0]) == (
        1,
        "::error file=scripts/install.sh,line=2,col=20,endLine=2,endColumn=32,title=RL002 branch-pin::"
        + RELEASE_BRANCH.split(" [error] ", 1)[1],
    )


#: The finding and summary in colour: the code and severity in the severity's colour, the summary in bold.
COLOURED = [
    "scripts/install.sh:2:20: \x1b[1;31mRL002 [error]\x1b[0m " + RELEASE_BRANCH.split(" [error] ", 1)[1],
    "",
    "\x1b[1m1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked ({} cached), 0 not "
    "checked)\x1b[0m",
    FIXABLE,
]


@pytest.mark.parametrize(
    ("option", "environment", "coloured"),
    [
        ([], {}, False),  # not a terminal
        (["--color", "always"], {}, True),
        (["--color", "always"], {"NO_COLOR": "1"}, True),  # the option wins
        ([], {"FORCE_COLOR": "1"}, True),
        ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, True),  # FORCE_COLOR wins, as in Node.js
        ([], {"FORCE_COLOR": ""}, False),  # set but empty: not set (force-color.org)
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
        (["--colour", "auto"], {"NO_COLOR": "1"}, False),
    ],
)
def test_color_follows_the_option_then_force_color_then_no_color(
    scan: Scan,
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    option: list[str],
    environment: dict[str, str],
    coloured: bool,
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    code, out, err = scan(*option, "scripts/install.sh")
    plain = [RELEASE_BRANCH, "", COLOURED[2][4:-4], FIXABLE]
    assert (code, err) == (1, [])
    lines = [line.format(0) for line in (COLOURED if coloured else plain)]
    assert out == lines


def test_help_says_which_options_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--help"]) == 0
    options = re.split(r"\n  (?=-)", capsys.readouterr().out.split("\noptions:\n", 1)[1])
    said = {
        " ".join(block.split()).split(" ", 1)[0]: "(repeatable)" in " ".join(block.split())
        for block in options
    }
    repeatable = {
        "--exclude",
        "--build-arg",
        "--format",
        "--output",
        "--select",
        "--extend-select",
        "--ignore",
        "--fixable",
        "--unfixable",
    }
    repeatable |= {"--rule-pack"}
    assert {option for option, says in said.items() if says} == repeatable


VENDORED = "third_party/dep/Dockerfile"
FIXTURE = "tests/fixtures/install.sh"


@pytest.mark.parametrize("key", ["exclude", "extend-exclude"])
def test_config_exclude_leaves_paths_out_also_when_they_are_given(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str], key: str
) -> None:
    for path in (VENDORED, FIXTURE):
        (project / path).parent.mkdir(parents=True)
        (project / path).write_text(SCRIPT if path.endswith(".sh") else DOCKERFILE, encoding="utf-8")
    (project / ".reflint.yaml").write_text(f"{key}: [third_party/, 'tests/**/fixtures/']\n", encoding="utf-8")
    summary = "1 error, 0 warnings, 0 info in 1 of {} (1 pin, 1 remote: 1 checked ({} cached), 0 not checked)"

    # As pre-commit passes staged files: the excluded ones are not read.
    given = scan("--select", "RL002", VENDORED, FIXTURE, "scripts/install.sh")
    walked = scan("--select", "RL002", "scripts", "third_party", "tests")

    assert given == (1, [RELEASE_BRANCH, "", summary.format("1 file", 0), FIXABLE], [])
    assert walked == (1, [RELEASE_BRANCH, "", summary.format("1 file", 1), FIXABLE], [])
    assert main(["refs", "third_party", "tests", "scripts"]) == 0
    assert (
        capsys.readouterr().out
        == "scripts/install.sh:2:20: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)\n"
    )


def test_per_file_ignores_are_relative_to_the_project_root_whatever_config_names(
    scan: Scan, project: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (project / ".git").mkdir()  # the project root
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "reflint.yaml").write_text(
        "per-file-ignores:\n  'scripts/*.sh': [branch-pin]\n  'docker/**': [RL015]\n", encoding="utf-8"
    )
    code, out, err = scan("--select", "RL002", "--config", str(shared / "reflint.yaml"))

    assert (code, out) == (
        1,
        [
            SHARED_NAME,
            "",
            "1 error, 0 warnings, 0 info in 1 of 2 files (4 pins, 2 remotes: 2 checked (0 cached), 0 not "
            "checked)",
        ],
    )
    assert err == [
        f"{shared / 'reflint.yaml'}: notice: per-file-ignores: 'docker/**' matches no file scanned; globs "
        f"are relative to the project root {project}"
    ]


DEFAULT_BRANCH = """\
#!/bin/bash
git clone --branch main https://github.com/Ascend/MindSpeed.git
git clone --branch maser https://github.com/Ascend/MindSpeed.git /opt/m2
git clone --branch feature-z https://github.com/Ascend/MindSpeed.git /opt/m3
"""
NOT_A_REF = (
    'ref "{}" is neither a branch nor a tag of github.com/ascend/mindspeed, so `git clone --branch` fails'
)


def test_rl001_suggests_the_default_branch_asked_once_and_names_a_letter_away(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "scripts" / "install.sh").write_text(DEFAULT_BRANCH, encoding="utf-8")
    first = main(["--debug", "scan", "--cache-dir", "../cache", "--select", "RL001", "scripts/install.sh"])
    first_run = capsys.readouterr()
    second = main(["--debug", "scan", "--cache-dir", "../cache", "--select", "RL001", "scripts/install.sh"])
    second_run = capsys.readouterr()

    assert (first, second) == (1, 1)
    assert second_run.out == first_run.out.replace("(0 cached)", "(1 cached)")
    assert first_run.out.splitlines() == [
        f'scripts/install.sh:2:20: RL001 [error] {NOT_A_REF.format("main")}; its default branch is "master"',
        f"scripts/install.sh:3:20: RL001 [error] {NOT_A_REF.format('maser')}; the closest of its 6 branches "
        'and 2 tags is branch "master"',
        f"scripts/install.sh:4:20: RL001 [error] {NOT_A_REF.format('feature-z')}; it has 6 branches and 2 "
        "tags",
        "",
        "3 errors, 0 warnings, 0 info in 1 of 1 file (3 pins, 1 remote: 1 checked (0 cached), 0 not checked)",
        "2 fixable with --fix --unsafe-fixes",
    ]
    # HEAD is asked once, only because `main` needs it, and answered from the cache afterwards.
    asked = "git ls-remote --symref -- https://github.com/Ascend/MindSpeed.git HEAD"
    assert [first_run.err.count(asked), second_run.err.count(asked)] == [1, 0]
