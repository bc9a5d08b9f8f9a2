"""Inline suppression, RL099 unused-ignore and the baseline, through ``reflint scan``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import scan_json, write_tree

DOCKERFILE = """\
FROM ubuntu
RUN git clone https://github.com/o/a.git && \\
    # reflint: ignore[RL015] built at head on purpose
    git clone https://github.com/o/b.git && \\
    git clone https://github.com/o/c.git
RUN git clone https://github.com/o/d.git  # reflint: ignore
# reflint: ignore[rl002, RL015, RL777]
RUN git clone https://github.com/o/e.git
# reflint: ignore
RUN echo nothing to suppress
"""
SCRIPT = """\
#!/bin/bash
git clone https://github.com/o/f.git  # reflint: ignore[RL015]
git clone https://github.com/o/g.git  # a trailing comment covers the next line too
git clone https://github.com/o/h.git
"""
WORKFLOW = """\
jobs:
  build:
    steps:
      - run: |
          # reflint: ignore[RL015]
          git clone https://github.com/o/h.git
      # reflint: ignore[RL002]
      - run: git clone https://github.com/o/i.git
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_tree(
        tmp_path, {"Dockerfile": DOCKERFILE, "install.sh": SCRIPT, ".github/workflows/ci.yml": WORKFLOW}
    )
    return tmp_path


def positions(document: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    return [(f["path"], f["line"], f["column"], f["code"]) for f in document["findings"]]


def test_comments_suppress_on_their_line_and_the_next_in_every_kind_of_file(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, _ = scan_json(capsys, "--offline", "--cache-dir", "cache", "--select", "RL015")
    assert code == 0
    assert positions(document) == [
        (".github/workflows/ci.yml", 8, 24, "RL015"),
        ("Dockerfile", 2, 15, "RL015"),
        ("Dockerfile", 5, 15, "RL015"),
        ("install.sh", 4, 11, "RL015"),
    ]


def test_unused_suppressions_are_reported_with_report_unused_ignores(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, err = scan_json(
        capsys,
        "--offline",
        "--cache-dir",
        "cache",
        "--select",
        "RL002,RL015,RL099",
        "--report-unused-ignores",
    )
    # RL002 needs ref lists, and --offline with an empty cache has none: the scan vouches for nothing.
    assert (code, err) == (1, "reflint: no remote could be checked: 10 pins unchecked\n")
    unused = [f for f in document["findings"] if f["code"] == "RL099"]
    assert [
        (f["path"], f["line"], f["column"], f["end_column"], f["severity"], f["message"]) for f in unused
    ] == [
        (
            ".github/workflows/ci.yml",
            7,
            7,
            31,
            "info",
            UNUSED_RL002,
        ),
        (
            "Dockerfile",
            7,
            1,
            39,
            "info",
            UNUSED_RL002,
        ),
        (
            "Dockerfile",
            7,
            1,
            39,
            "info",
            "RL777 in this `# reflint: ignore` is not a rule code (`reflint rules` lists them); remove it",
        ),
        (
            "Dockerfile",
            9,
            1,
            18,
            "info",
            "this `# reflint: ignore` suppresses nothing: no finding is reported on its line or the next; "
            "remove it",
        ),
    ]


def test_codes_of_rules_that_do_not_run_are_not_reported_unused(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_tree(tree, {".reflint.yaml": "ignore: [RL002]\nseverity: {RL099: warning}\n"})
    _, document, _ = scan_json(
        capsys, "--offline", "--cache-dir", "cache", "--select", "RL015,RL099", "--report-unused-ignores"
    )
    assert [(f["path"], f["line"], f["severity"]) for f in document["findings"] if f["code"] == "RL099"] == [
        ("Dockerfile", 7, "warning"),  # RL777
        ("Dockerfile", 9, "warning"),
    ]
    _, document, _ = scan_json(
        capsys, "--offline", "--cache-dir", "cache", "--report-unused-ignores", "--ignore", "RL099"
    )
    assert [f for f in document["findings"] if f["code"] == "RL099"] == []


UNUSED_RL002 = (
    "RL002 in this `# reflint: ignore` suppresses nothing: no RL002 finding is reported on its line or the "
    "next; remove RL002 from it"
)
VARIANT = "FROM ubuntu\nARG REF={ref}\nRUN git clone --branch ${{REF}} https://github.com/o/r.git\n"


def test_a_baseline_hides_known_findings_and_counts_the_stale_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_tree(
        tmp_path, {"Dockerfile.a2": VARIANT.format(ref="v1"), "Dockerfile.a3": VARIANT.format(ref="v2")}
    )
    options = ("--offline", "--cache-dir", "cache", "--select", "RL004")
    code, document, err = scan_json(capsys, *options, "--write-baseline", "baseline.json")
    assert (code, document["findings"], err) == (
        0,
        [],
        "reflint: wrote 2 findings to the baseline baseline.json\n",
    )
    recorded = json.loads((tmp_path / "baseline.json").read_text())["findings"]
    assert [(e["path"], e["code"], e["remote"], e["ref"]) for e in recorded] == [
        ("Dockerfile.a2", "RL004", "github.com/o/r", "v1"),
        ("Dockerfile.a3", "RL004", "github.com/o/r", "v2"),
    ]

    write_tree(tmp_path, {"Dockerfile.a2": "# moved down\n" + VARIANT.format(ref="v1")})
    code, document, err = scan_json(capsys, *options, "--baseline", "baseline.json")
    assert (code, document["findings"]) == (0, [])
    assert (
        err
        == "reflint: baseline baseline.json: 2 findings not reported; 0 baseline entries no longer match\n"
    )

    write_tree(tmp_path, {"Dockerfile.a3": VARIANT.format(ref="v3")})
    code, document, err = scan_json(capsys, *options, "--baseline", "baseline.json")
    assert code == 1
    assert [(f["path"], f["ref"]) for f in document["findings"]] == [("Dockerfile.a3", "v3")]
    assert err == (
        "reflint: baseline baseline.json: 1 findings not reported; 1 baseline entry no longer matches (fixed "
        "or changed; refresh it with --write-baseline baseline.json)\n"
    )


def test_a_scan_of_some_files_reads_and_writes_only_their_baseline_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # pre-commit passes the staged files: the other files' entries are neither stale nor dropped.
    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path, {"Dockerfile": DOCKERFILE, "install.sh": SCRIPT})
    options = ("--offline", "--cache-dir", "cache", "--select", "RL015")
    assert scan_json(capsys, *options, "--write-baseline", "baseline.json")[::2] == (
        0,
        "reflint: wrote 3 findings to the baseline baseline.json\n",
    )
    # install.sh alone: its entry matches; Dockerfile's 2 are not counted as stale.
    assert scan_json(capsys, *options, "--baseline", "baseline.json", "install.sh")[::2] == (
        0,
        "reflint: baseline baseline.json: 1 findings not reported; 0 baseline entries no longer match\n",
    )
    # Its clone gets a ref: its entry is stale, and refreshing from install.sh alone keeps Dockerfile's.
    write_tree(tmp_path, {"install.sh": SCRIPT.replace("h.git", "h.git --branch v1")})
    assert scan_json(capsys, *options, "--baseline", "baseline.json", "install.sh")[::2] == (
        0,
        "reflint: baseline baseline.json: 0 findings not reported; 1 baseline entry no longer matches (fixed "
        "or changed; refresh it with --write-baseline baseline.json)\n",
    )
    scan_json(capsys, *options, "--write-baseline", "baseline.json", "install.sh")
    recorded = json.loads((tmp_path / "baseline.json").read_text())["findings"]
    assert [(e["path"], e["remote"]) for e in recorded] == [
        ("Dockerfile", "github.com/o/a"),
        ("Dockerfile", "github.com/o/c"),
    ]
    # The whole project again: nothing new, nothing stale.
    assert scan_json(capsys, *options, "--baseline", "baseline.json")[::2] == (
        0,
        "reflint: baseline baseline.json: 2 findings not reported; 0 baseline entries no longer match\n",
    )


def test_a_missing_baseline_is_exit_2_and_both_options_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path, {"Dockerfile": "FROM x\n"})
    code, _, err = scan_json(capsys, "--offline", "--baseline", "nope.json")
    assert (code, err) == (
        2,
        "reflint: error: cannot read baseline nope.json: file not found (deleted or a broken symlink)\n",
    )
    code, _, err = scan_json(capsys, "--baseline", "a.json", "--write-baseline", "b.json")
    # argparse's usage (every option of scan: it grows with them), then the error as its last line.
    lines = err.splitlines()
    assert (code, lines[0].split(" [")[0], lines[-1]) == (
        2,
        "usage: reflint scan",
        "reflint scan: error: argument --write-baseline: not allowed with argument --baseline",
    )


GROUPED = """\
FROM ubuntu
RUN git clone -b v1 https://github.com/o/grouped.git
RUN git clone -b v2 https://github.com/o/grouped.git  # reflint: ignore[RL010] mirror only
RUN git clone -b v3 https://github.com/o/grouped.git
"""


def test_a_finding_for_all_pins_of_a_remote_is_suppressed_at_any_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path, {"Dockerfile": GROUPED.replace("  # reflint: ignore[RL010] mirror only", "")})
    args = ("--offline", "--cache-dir", "cache", "--select", "RL010,RL099", "--report-unused-ignores")
    _, document, _ = scan_json(capsys, *args)
    another = "another pin of github.com/o/grouped"
    assert [(f["line"], f["column"], f["code"], f["related"]) for f in document["findings"]] == [
        (
            2,
            21,
            "RL010",
            [
                {"path": "Dockerfile", "line": 3, "column": 21, "message": another},
                {"path": "Dockerfile", "line": 4, "column": 21, "message": another},
            ],
        )
    ]
    write_tree(tmp_path, {"Dockerfile": GROUPED})
    code, document, err = scan_json(capsys, *args)
    # Suppressed, but still true: no remote answered (--offline, empty cache), so the scan fails.
    assert (code, document["findings"], err) == (
        1,
        [],
        "reflint: no remote could be checked: 3 pins unchecked\n",
    )
