"""A finding goes where its fix goes: a ref that comes through a variable is reported where the variable is
set (``ARG MEGATRON_REF=…``, ``MINDSPEED_REF=…``), with the use as a related place; RL004 reports the odd
variant out, once; an ignore comment at either place suppresses; and a baseline written by reflint before
findings moved (``data/placement-baselines``, written by main at 5fac236) still matches them.

The tree is ``data/placement``: three Ascend variants (``Dockerfile.a2``, ``.a3``, ``.310p``) that pin
Megatron-LM's release branch through ``ARG MEGATRON_REF``, and vllm-ascend through ``ARG VLLM_ASCEND_TAG``
(``v0.9.1`` in two of them, ``v0.11.0rc3`` in 310p), and a script that checks out ``$MINDSPEED_REF``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

from ascend_reflint.cli import main

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]

DATA = Path(__file__).resolve().parent / "data"
BASELINE = DATA / "placement-baselines" / "written-by-5fac236.json"
BRANCH = (
    'RL002 [error] ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a '
    'commit lands on it: pin its release tag "core_v0.18.0"'
)
#: Each variant's RL002, at its ARG line, and the use.
RELEASE_BRANCH = [
    "docker/Dockerfile.{variant}:2:18: " + BRANCH,
    "docker/Dockerfile.{variant}:4:34: note: the value is used here",
]
DRIFT = [
    "docker/Dockerfile.310p:3:21: RL004 [error] github.com/vllm-project/vllm-ascend is pinned at "
    '"v0.11.0rc3" '
    'here but at "v0.9.1" in 2 of its variants (docker/Dockerfile.a2, docker/Dockerfile.a3); pin "v0.9.1" as '
    "they do (or list the remote under variant-allowed-drift)",
    "docker/Dockerfile.310p:5:34: note: the value is used here",
    'docker/Dockerfile.a2:3:21: note: github.com/vllm-project/vllm-ascend is pinned at "v0.9.1" here',
    'docker/Dockerfile.a3:3:21: note: github.com/vllm-project/vllm-ascend is pinned at "v0.9.1" here',
]
NOT_FOUND = [
    'scripts/install.sh:3:15: RL001 [error] ref "v2.3.0_core_r0.12.1" is neither a branch nor a tag of '
    "github.com/ascend/mindspeed, so `git checkout` fails; the closest of its 6 branches and 2 tags is "
    "branch "
    '"2.3.0_core_r0.12.1"',
    "scripts/install.sh:5:31: note: the value is used here",
]
UNPINNED = (
    "scripts/install.sh:6:11: RL015 [warning] `git clone` of github.com/sgl-project/sgl-kernel-npu pins no "
    "ref, so the build takes whatever the default branch holds that day; add `--branch <tag>` (newest "
    'release: "20250802"), or check out a commit id after the clone'
)
SUMMARY = (
    "{} errors, {} warning{}, 0 info in {} of {} files (8 pins, 4 remotes: 4 checked ({} cached), 0 not "
    "checked)"
)


def release_branch(variant: str) -> list[str]:
    return [line.format(variant=variant) for line in RELEASE_BRANCH]


@pytest.fixture
def tree(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    shutil.copytree(DATA / "placement", root)
    monkeypatch.chdir(root)
    return root


def test_findings_sit_where_the_value_is_set_and_rl004_reports_the_odd_variant_once(
    scan: Scan, tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scan() == (
        1,
        [
            *release_branch("310p"),
            *DRIFT,
            "",
            *release_branch("a2"),
            "",
            *release_branch("a3"),
            "",
            *NOT_FOUND,
            UNPINNED,
            "",
            SUMMARY.format(5, 1, "", 4, 4, 0),
            # RL002 three times (the branch has moved on since the tag), RL004, RL001: all unsafe.
            "5 fixable with --fix --unsafe-fixes",
        ],
        [],
    )


def test_json_and_sarif_give_the_use_as_a_related_place(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    formats = ["--format", "json", "--format", "sarif", "-o", "../r.sarif", "--select", "RL001"]
    assert main(["scan", "--cache-dir", "../cache", *formats]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    (result,) = json.loads((tree.parent / "r.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]

    assert (finding["path"], finding["line"], finding["column"], finding["end_column"]) == (
        "scripts/install.sh",
        3,
        15,
        34,
    )
    assert finding["related"] == [
        {"path": "scripts/install.sh", "line": 5, "column": 31, "message": "the value is used here"}
    ]
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3,
        "startColumn": 15,
        "endLine": 3,
        "endColumn": 34,
    }
    assert result["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "scripts/install.sh", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 5, "startColumn": 31},
            },
            "message": {"text": "the value is used here"},
        }
    ]


def test_a_baseline_written_before_findings_moved_still_matches_them(
    scan: Scan, tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The RL004 entries of the variants that agree (a2 and a3) are stale: only the odd one is reported now.
    assert scan("--baseline", str(BASELINE)) == (
        0,
        [SUMMARY.format(0, 0, "s", 0, 4, 0)],
        [
            f"reflint: baseline {BASELINE}: 6 findings not reported; 2 baseline entries no longer match "
            "(fixed "
            f"or changed; refresh it with --write-baseline {BASELINE})"
        ],
    )


@pytest.mark.parametrize(
    ("line", "comment", "suppressed"),
    [
        (2, "ARG MEGATRON_REF=core_r0.18.0  # reflint: ignore[RL002] tracked on purpose", True),
        (4, "# reflint: ignore[RL002]", True),  # above the RUN that uses the value
        (4, "# reflint: ignore[RL015]", False),  # the control: another rule's code
    ],
)
def test_an_ignore_comment_at_the_definition_or_at_the_use_suppresses(
    scan: Scan, tree: Path, capsys: pytest.CaptureFixture[str], line: int, comment: str, suppressed: bool
) -> None:
    path = tree / "docker" / "Dockerfile.a3"
    lines = path.read_text(encoding="utf-8").splitlines()
    if line == 2:
        lines[1] = comment
    else:
        lines.insert(line - 1, comment)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    code, out, err = scan("--select", "RL002", "docker/Dockerfile.a3")

    summary = (
        "{} error{}, 0 warnings, 0 info in {} of 1 file (2 pins, 2 remotes: 2 checked ({} cached), 0 not "
        "checked)"
    )
    assert (code, err) == (0 if suppressed else 1, [])
    if suppressed:
        assert out == [summary.format(0, "s", 0, 0)]
    else:
        assert out == [
            f"docker/Dockerfile.a3:2:18: {BRANCH}",
            "docker/Dockerfile.a3:5:34: note: the value is used here",
            "",
            summary.format(1, "", 1, 0),
            "1 fixable with --fix --unsafe-fixes",
        ]
