"""What ``reflint scan`` says about fixes, through the command line: ``[*]`` on fixable findings and the
line after the summary, as ruff says them; JSON's ``fix``; ``--diff``'s exit codes and its wrapping in
GitHub Actions; usage errors; and the files that are never edited (not parsed whole, symbolic links, one
definition feeding pins that need different values)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env
from support import copy_case, files_of, scan

TE_BRANCH = (
    'RL002 {}[error] ref "release_v2.10" is a branch of github.com/nvidia/transformerengine, which moves '
    'whenever a commit lands on it: pin its release tag "v2.10"'
)
MCORE_BRANCH = (
    'RL002 {}[error] ref "core_r0.13.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever '
    'a commit lands on it: pin its release tag "core_v0.13.0"'
)
SUMMARY = (
    "{} error{}, 0 warnings, 0 info in {} of 2 files (2 pins, 2 remotes: 2 checked ({} cached), 0 not "
    "checked)"
)


@pytest.fixture
def project(remotes: FakeRemotes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The ``rl002-safe`` case: a safe fix (release_v2.10 is v2.10) and an unsafe one (core_r0.13.0 has moved
    on since core_v0.13.0)."""
    set_env(monkeypatch, remotes.env())
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = copy_case("rl002-safe", "before", tmp_path / "project")
    monkeypatch.chdir(root)
    return root


def test_text_marks_what_fix_fixes_and_says_how_many_more_unsafe_fixes_would(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    findings = [
        "Dockerfile:2:12: " + TE_BRANCH.format("[*] "),
        "Dockerfile:3:79: note: the value is used here",
        "",
        "build.sh:3:30: " + MCORE_BRANCH.format(""),
        "",
        SUMMARY.format(2, "s", 2, 0),
        "[*] 1 fixable with --fix (1 more with --unsafe-fixes)",
    ]
    assert scan(capsys) == (1, "\n".join(findings) + "\n", "")
    code, out, err = scan(capsys, "--unsafe-fixes")
    assert (code, err) == (1, "")
    assert out.splitlines()[3:] == [
        "build.sh:3:30: " + MCORE_BRANCH.format("[*] "),
        "",
        SUMMARY.format(2, "s", 2, 2),
        "[*] 2 fixable with --fix",
    ]


def test_fix_reports_what_remains_and_a_second_fix_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    remaining = ["build.sh:3:30: " + MCORE_BRANCH.format(""), "", SUMMARY.format(1, "", 1, 0)]
    assert scan(capsys, "--fix") == (
        1,
        "\n".join([*remaining, "1 fixed, 1 remaining (1 more fixable with --unsafe-fixes)"]) + "\n",
        "",
    )
    fixed = files_of(project)
    assert scan(capsys, "--fix") == (
        1,
        "\n".join(
            [
                *remaining[:2],
                SUMMARY.format(1, "", 1, 2),
                "0 fixed, 1 remaining (1 more fixable with --unsafe-fixes)",
            ]
        )
        + "\n",
        "",
    )
    assert files_of(project) == fixed


def test_json_gives_each_fix_and_counts_what_is_fixable_and_fixed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = scan(capsys, "--format", "json")
    assert (code, err) == (1, "")
    document = json.loads(out)
    assert [finding["fix"] for finding in document["findings"]] == [
        {
            "applicability": "safe",
            "message": 'pin the tag "v2.10" instead of the branch "release_v2.10", which points at the '
            "commit the branch points at now",
            "edits": [
                {
                    "path": "Dockerfile",
                    "line": 2,
                    "column": 12,
                    "end_line": 2,
                    "end_column": 25,
                    "content": "v2.10",
                }
            ],
        },
        {
            "applicability": "unsafe",
            "message": 'pin the tag "core_v0.13.0" instead of the branch "core_r0.13.0", which points at '
            "another commit than the branch now",
            "edits": [
                {
                    "path": "build.sh",
                    "line": 3,
                    "column": 30,
                    "end_line": 3,
                    "end_column": 42,
                    "content": "core_v0.13.0",
                }
            ],
        },
    ]
    assert (document["summary"]["fixable"], document["summary"]["fixed"]) == (
        {"now": 1, "with_unsafe_fixes": 1},
        None,
    )
    code, out, err = scan(capsys, "--fix", "--format", "json")
    assert (code, err) == (1, "")
    summary = json.loads(out)["summary"]
    assert (summary["fixable"], summary["fixed"]) == (
        {"now": 0, "with_unsafe_fixes": 1},
        {"findings": 1, "pinned": 0, "files": 1, "rounds": 1},
    )


def test_diff_exits_0_with_nothing_to_fix_and_says_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan(capsys, "--diff", "build.sh") == (0, "", "reflint: nothing to fix\n")
    code, diff, err = scan(capsys, "--diff")
    assert (code, err) == (1, "reflint: would fix 1 finding in 1 file\n")
    assert diff == (
        "--- a/Dockerfile\n"
        "+++ b/Dockerfile\n"
        "@@ -1,3 +1,3 @@\n"
        " FROM ubuntu:22.04\n"
        "-ARG TE_REF=release_v2.10\n"
        "+ARG TE_REF=v2.10\n"
        " RUN pip install --no-deps git+https://github.com/NVIDIA/TransformerEngine.git@${TE_REF}\n"
    )


def test_diff_in_github_actions_is_wrapped_so_that_the_runner_obeys_no_command_in_it(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n# ::error::forged\nARG TE_REF=release_v2.10\n"
        "RUN pip install --no-deps git+https://github.com/NVIDIA/TransformerEngine.git@${TE_REF}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, err = scan(capsys, "--diff", "Dockerfile")
    assert (code, err) == (1, "reflint: would fix 1 finding in 1 file\n")
    lines = out.splitlines()
    token = lines[0].removeprefix("::stop-commands::")
    assert (len(token), lines[-1]) == (32, f"::{token}::")
    assert lines[1:-1] == [
        "--- a/Dockerfile",
        "+++ b/Dockerfile",
        "@@ -1,4 +1,4 @@",
        " FROM ubuntu:22.04",
        " # ::error::forged",
        "-ARG TE_REF=release_v2.10",
        "+ARG TE_REF=v2.10",
        " RUN pip install --no-deps git+https://github.com/NVIDIA/TransformerEngine.git@${TE_REF}",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pin-commits"], "reflint: error: --pin-commits needs --fix or --diff\n"),
        (
            ["--fix", "--write-baseline", "b.json"],
            "reflint: error: --write-baseline records findings; it cannot be given with --fix or --diff\n",
        ),
    ],
)
def test_usage_errors(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert scan(capsys, *args) == (2, "", message)


def test_a_file_that_did_not_parse_whole_is_never_edited(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = (
        "#!/bin/bash\n"
        "git clone --depth 1 https://github.com/Ascend/MindSpeed.git && cd MindSpeed && git checkout "
        "945122db154105a9e583a2673e7e9d271f91cb2e\n"
        "if then fi (\n"
    )
    (project / "build.sh").write_text(broken, encoding="utf-8")
    code, out, err = scan(capsys, "--fix", "--unsafe-fixes", "build.sh", "--select", "RL003")
    assert (project / "build.sh").read_text(encoding="utf-8") == broken
    assert code == 1
    # Not checked: the syntax error is what it reports (its pins are not counted).
    assert out.splitlines() == [
        "0 errors, 0 warnings, 0 info in 0 of 0 files (0 pins, 0 remotes: 0 checked (0 cached), 0 not "
        "checked); 1 file could not be read",
        "0 fixed, 0 remaining",
    ]
    assert err == "build.sh:3: error: shell syntax error near 'then'\n"


def test_a_symbolic_link_is_not_edited_its_target_is(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "docker").mkdir()
    os.replace(project / "Dockerfile", project / "docker" / "Dockerfile")
    (project / "Dockerfile").symlink_to("docker/Dockerfile")

    code, _, err = scan(capsys, "--fix", "--select", "RL002", "Dockerfile")

    assert (code, (project / "Dockerfile").is_symlink()) == (1, True)
    assert (project / "docker" / "Dockerfile").read_text(encoding="utf-8").splitlines()[1] == (
        "ARG TE_REF=release_v2.10"
    )
    assert err == "Dockerfile: notice: not fixed: a symbolic link: its target is fixed where it is scanned\n"
    scan(capsys, "--fix", "--select", "RL002")
    assert (project / "docker" / "Dockerfile").read_text(encoding="utf-8").splitlines()[
        1
    ] == "ARG TE_REF=v2.10"


def test_a_definition_that_feeds_pins_needing_different_values_is_not_fixed_and_the_finding_says_why(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n"
        "ARG REF=release_v2.10\n"
        "RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@${REF}\n"
        "RUN git clone --branch ${REF} https://github.com/NVIDIA/Megatron-LM.git\n",
        encoding="utf-8",
    )
    code, out, err = scan(capsys, "--format", "json", "--select", "RL001,RL002", "Dockerfile")
    assert (code, err) == (1, "")
    (megatron, te) = json.loads(out)["findings"]
    assert (megatron["code"], te["code"], te["line"], te["fix"]) == ("RL001", "RL002", 2, None)
    assert te["message"] == (
        'ref "release_v2.10" is a branch of github.com/nvidia/transformerengine, which moves whenever a '
        'commit lands on it: pin its release tag "v2.10"; no automatic fix: the value set at Dockerfile:2 '
        "also feeds another pin (Dockerfile:4) that needs another value"
    )


def test_a_default_value_is_where_the_finding_and_its_fix_go(
    remotes: FakeRemotes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``${REF:-v}`` (also ``${REF-v}``, ``: ${REF:=v}``, a function's argument, and ENV's ``${REF:-v}``) is
    reported at the default, where the fix edits it; the use is a note, unless the default is in it."""
    set_env(monkeypatch, remotes.env())
    root = copy_case("rl002-default", "before", tmp_path / "project")
    monkeypatch.chdir(root)
    findings = [
        "Dockerfile:3:22: " + TE_BRANCH.format("[*] "),
        "Dockerfile:4:80: note: the value is used here",
        "",
        "b.sh:4:19: " + TE_BRANCH.format("[*] "),
        "b.sh:5:66: note: the value is used here",
        "b.sh:6:78: " + TE_BRANCH.format("[*] "),
        "",
        "install.sh:5:18: " + TE_BRANCH.format("[*] "),
        "install.sh:7:66: note: the value is used here",
        "install.sh:6:22: " + TE_BRANCH.format("[*] "),
        "install.sh:3:70: note: the value is used here",
        "install.sh:6:1: note: called as `install_te ${TE_REF-release_v2.10}`",
        "",
        "5 errors, 0 warnings, 0 info in 3 of 3 files (5 pins, 1 remote: 1 checked (0 cached), 0 not "
        "checked)",
        "[*] 5 fixable with --fix",
    ]
    assert scan(capsys) == (1, "\n".join(findings) + "\n", "")
    code, out, err = scan(capsys, "--diff")
    assert (code, err) == (1, "reflint: would fix 5 findings in 3 files\n")
    changed = [line for line in out.splitlines() if line[:1] in "-+" and line[:3] not in ("---", "+++")]
    assert changed == [
        "-ENV TE_REF=${TE_REF:-release_v2.10}",
        "+ENV TE_REF=${TE_REF:-v2.10}",
        '-TE_REF="${TE_REF:-release_v2.10}"',
        '+TE_REF="${TE_REF:-v2.10}"',
        '-pip install "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_OTHER:-release_v2.10}"',
        '+pip install "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_OTHER:-v2.10}"',
        '-: "${TE_DEFAULT:=release_v2.10}"',
        '-install_te "${TE_REF-release_v2.10}"',
        '+: "${TE_DEFAULT:=v2.10}"',
        '+install_te "${TE_REF-v2.10}"',
    ]


def test_nothing_of_the_fix_stage_loads_for_a_scan_with_nothing_to_fix(tmp_path: Path) -> None:
    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu:22.04\nRUN git clone --branch v2.10 https://github.com/NVIDIA/TransformerEngine.git\n",
        encoding="utf-8",
    )
    args = ["scan", "--offline", "--select", "RL003,RL015", "--cache-dir", str(tmp_path / "c"), str(tmp_path)]
    program = (
        "import sys\n"
        "from ascend_reflint.cli import main\n"
        f"code = main({args!r})\n"
        "fixing = ('ascend_reflint.fix', 'ascend_reflint.check.fixes')\n"
        "print(code, sorted(m for m in sys.modules if m.startswith(fixing)))\n"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert completed.stdout.splitlines()[-1] == "0 []"


TE_URL = "https://github.com/NVIDIA/TransformerEngine.git"
TE_V2_11 = "0fc9c8698494c45b666c67fd45c75c00e099ee2d"
TE_V2_10 = "97bd662f269a533b265506b45973563d861a2fe2"


def test_pin_commits_pins_editable_lines_and_names_each_tag_it_leaves_with_why(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``#egg=`` is part of the URL (pip's comments start after a blank), so the tag's comment goes after
    it; a line with a comment of its own, and a clone that only an unsafe fix rewrites, are notices."""
    (project / "requirements.txt").write_text(
        f"-e git+{TE_URL}@v2.11#egg=transformer_engine\n"
        f"git+{TE_URL}@v2.11#egg=transformer_engine[pytorch]\n"
        f"--editable git+{TE_URL}@v2.11#egg=te # the editable one\n",
        encoding="utf-8",
    )
    (project / "build.sh").write_text(f"git clone --branch v2.11 {TE_URL} te\n", encoding="utf-8")
    notices = (
        'build.sh:1:20: notice: --pin-commits left "v2.11" as it is: pinning it rewrites the clone (an '
        "unsafe fix): add --unsafe-fixes\n"
        'requirements.txt:3:64: notice: --pin-commits left "v2.11" as it is: its line has no place for the '
        "tag's comment (another comment, or more of the command, follows)\n"
    )

    code, diff, err = scan(capsys, "--diff", "--pin-commits", "build.sh", "requirements.txt")

    assert (code, err) == (
        1,
        notices + "reflint: would fix 0 findings and pin 2 tags in 1 file; 2 tags left as they are "
        "(see above)\n",
    )
    assert diff == (
        "--- a/requirements.txt\n"
        "+++ b/requirements.txt\n"
        "@@ -1,3 +1,3 @@\n"
        f"--e git+{TE_URL}@v2.11#egg=transformer_engine\n"
        f"-git+{TE_URL}@v2.11#egg=transformer_engine[pytorch]\n"
        f"+-e git+{TE_URL}@{TE_V2_11}#egg=transformer_engine  # v2.11\n"
        f"+git+{TE_URL}@{TE_V2_11}#egg=transformer_engine[pytorch]  # v2.11\n"
        f" --editable git+{TE_URL}@v2.11#egg=te # the editable one\n"
    )
    code, _, err = scan(capsys, "--fix", "--pin-commits", "build.sh", "requirements.txt")
    assert (code, err) == (0, notices)
    assert (project / "requirements.txt").read_bytes() == (
        f"-e git+{TE_URL}@{TE_V2_11}#egg=transformer_engine  # v2.11\n"
        f"git+{TE_URL}@{TE_V2_11}#egg=transformer_engine[pytorch]  # v2.11\n"
        f"--editable git+{TE_URL}@v2.11#egg=te # the editable one\n"
    ).encode()
    assert scan(capsys, "--diff", "--pin-commits", "build.sh", "requirements.txt") == (
        0,
        "",
        notices + "reflint: nothing to fix; 2 tags left as they are (see above)\n",
    )


def test_a_fix_that_pin_commits_builds_on_still_counts(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RL002 takes the branch to its release tag (round 1), --pin-commits that tag to its commit (round 2):
    the branch pin is fixed, though the second edit wrote over the first."""
    (project / "requirements.txt").write_text(f"git+{TE_URL}@release_v2.10#egg=te\n", encoding="utf-8")

    code, diff, err = scan(capsys, "--diff", "--pin-commits", "requirements.txt")

    assert (code, err) == (
        1,
        "reflint: would fix 1 finding and pin 1 tag in 1 file, in 2 rounds: rescanning after the first fixes "
        "found more to fix (keep a rule's fixes out with --unfixable CODE)\n",
    )
    assert diff == (
        "--- a/requirements.txt\n+++ b/requirements.txt\n@@ -1 +1 @@\n"
        f"-git+{TE_URL}@release_v2.10#egg=te\n"
        f"+git+{TE_URL}@{TE_V2_10}#egg=te  # v2.10\n"
    )
