"""RL003's finding is at the ref that needs the history (the build fails there); its related location is
where its fix applies, the shallow option as written, in every format: text's ``note:``, JSON's
``related``, SARIF's ``relatedLocations``, beside the fix's edit that ``--diff`` shows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
#: MindSpeed is under the shipped pack's full-history-remotes: no lookup is needed to report it.
DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone \\
      --depth 1 https://gitcode.com/Ascend/MindSpeed.git && \\
    cd MindSpeed && git checkout f2b0977e
"""
MESSAGE = (
    "a shallow clone (`--depth 1`) of gitcode.com/ascend/mindspeed, which the rule pack lists under "
    'full-history-remotes: its commits are checked out by id (here "f2b0977e"), and a shallow clone holds '
    "only the newest ones; drop the shallow option"
)
NOTE = "the shallow option, which the fix deletes"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_text_notes_the_option_that_the_diff_deletes(project: Path, scan: Scan) -> None:
    assert scan("--select", "RL003") == (
        1,
        [
            f"Dockerfile:4:34: RL003 [*] [error] {MESSAGE}",
            f"Dockerfile:3:7: note: {NOTE}",
            "",
            "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
            "[*] 1 fixable with --fix",
        ],
        [],
    )
    assert scan("--select", "RL003", "--diff") == (
        1,
        [
            "--- a/Dockerfile",
            "+++ b/Dockerfile",
            "@@ -1,4 +1,3 @@",
            " FROM ubuntu:22.04",
            "-RUN git clone \\",
            "-      --depth 1 https://gitcode.com/Ascend/MindSpeed.git && \\",
            "+RUN git clone https://gitcode.com/Ascend/MindSpeed.git && \\",
            "     cd MindSpeed && git checkout f2b0977e",
        ],
        ["reflint: would fix 1 finding in 1 file"],
    )


def test_json_and_sarif_give_the_same_places(project: Path, scan: Scan) -> None:
    code, out, _ = scan("--select", "RL003", "--format", "json")
    (finding,) = json.loads("\n".join(out))["findings"]
    assert (code, finding["line"], finding["column"], finding["related"], finding["fix"]["edits"]) == (
        1,
        4,
        34,
        [{"path": "Dockerfile", "line": 3, "column": 7, "message": NOTE}],
        # The edit starts where the clone's word ends: the line break before the option goes with it.
        [{"path": "Dockerfile", "line": 2, "column": 14, "end_line": 3, "end_column": 16, "content": ""}],
    )
    code, out, _ = scan("--select", "RL003", "--format", "sarif")
    (result,) = json.loads("\n".join(out))["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    (related,) = result["relatedLocations"]
    assert (code, region["startLine"], region["startColumn"], related["physicalLocation"]["region"]) == (
        1,
        4,
        34,
        {"startLine": 3, "startColumn": 7},
    )
    assert related["message"] == {"text": NOTE}
