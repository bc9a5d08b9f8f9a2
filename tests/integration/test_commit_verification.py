"""End to end: a recipe tree pinning commits of stand-in repositories with real history, one scan written as
text, JSON, GitHub annotations and SARIF at once. Every verdict of commit verification appears: in the
history (no finding), a tag's commit (no finding), outside the history (RL025), absent (RL001),
ambiguous (RL026), and not verifiable (RL008: a history larger than the cap)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixtures import insteadof_env, set_env
from historyfixtures import History, add_large_file, build_history
from integration_support import sarif_schema_errors

from ascend_reflint.cli import main

ENGINE = "github.com/acme/engine"
ORPHAN_MESSAGE = (
    'commit "03b7197a5d7c7e9ba321dab1097141220b892df9" is not in the history of github.com/acme/engine: no '
    "branch or tag contains it, though the server hands it out by id (it descends from v1.0-1-g03b7197); "
    "GitHub runs it anyway: code the repository never had (a fork's commit, served through this URL, or one "
    "a force-push left); pin a commit that one of its branches or tags contains"
)
AMBIGUOUS_MESSAGE = (
    'commit id "62a4dc2" is ambiguous in github.com/acme/engine: 2 commits of its history start with it '
    "(62a4dc2571f2 (v1.0-3-g62a4dc25), 62a4dc2ca95e (v1.0-3-g62a4dc2c)), so `git checkout` refuses it; "
    "write the full id"
)
TOO_LARGE_MESSAGE = (
    'commit "09a084dcdce74c63aef6db733bb75cb50503b83b" of github.com/acme/bulky could not be verified '
    "against its history: its history is larger than the cap of 0.1 MiB (--max-history-size)"
)
MISSING_MESSAGE = (
    'commit "0badc0de0badc0de0badc0de0badc0de0badc0de" is not in github.com/acme/engine: no branch or tag of '
    "it contains the commit, and the server does not have it, so pip fails"
)
#: (path, line, column, end column, code, rule, severity, message), in report order.
FINDINGS = [
    (".github/workflows/ci.yml", 8, 27, 67, "RL025", "commit-not-in-history", "error", ORPHAN_MESSAGE),
    ("Dockerfile", 3, 88, 95, "RL026", "ambiguous-commit-id", "error", AMBIGUOUS_MESSAGE),
    ("Dockerfile", 4, 93, 133, "RL008", "unverifiable-commit", "info", TOO_LARGE_MESSAGE),
    ("requirements.txt", 2, 48, 88, "RL001", "ref-not-found", "error", MISSING_MESSAGE),
]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> History:
    engine = build_history(tmp_path / "remotes")
    bulky = build_history(tmp_path / "remotes", name="bulky", allow_filter=False)
    add_large_file(bulky, 200_000)  # sent whole, as the server refuses filters: past a 0.1 MiB cap
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    project = tmp_path / "project"
    (project / ".github" / "workflows").mkdir(parents=True)
    (project / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n"
        "RUN git clone https://github.com/acme/engine.git /opt/engine && cd /opt/engine && "
        f"git checkout {engine.work[:10]}\n"
        "RUN git clone https://github.com/acme/engine.git /opt/e2 && cd /opt/e2 && "
        f"git checkout {engine.twin_prefix}\n"
        "RUN git clone https://github.com/acme/bulky.git /opt/bulky && cd /opt/bulky && "
        f"git checkout {bulky.work}\n"
    )
    (project / "requirements.txt").write_text(
        f"engine @ git+https://github.com/acme/engine.git@{engine.release}\n"
        f"tools @ git+https://github.com/acme/engine.git@{engine.missing}\n"
    )
    (project / ".github" / "workflows" / "ci.yml").write_text(
        "name: ci\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - uses: acme/engine@{engine.main_tip}\n"
        f"      - uses: acme/engine@{engine.orphan}\n"
    )
    monkeypatch.chdir(project)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    return engine


def test_every_verdict_in_text_json_github_and_sarif(  # type: ignore[no-untyped-def]
    tree: History, tmp_path: Path, capsys
) -> None:
    formats = ["--format", "text", "--format", "json", "--format", "github", "--format", "sarif"]
    outputs = ["-o", "out.json", "-o", "annotations.txt", "-o", "out.sarif"]
    options = ["--cache-dir", str(tmp_path / "cache"), "--max-history-size", "0.1", "--ignore", "RL005"]
    assert main(["scan", *options, *formats, *outputs]) == 1
    summary = (
        "3 errors, 0 warnings, 1 info in 3 of 3 files (7 pins, 2 remotes: 2 checked (0 cached), 0 not "
        "checked)"
    )

    text = capsys.readouterr().out.splitlines()
    lines = [
        f"{path}:{line}:{column}: {code} [{severity}] {message}"
        for path, line, column, _, code, _, severity, message in FINDINGS
    ]
    # One file after another, a blank line between files and before the summary.
    assert text == [lines[0], "", lines[1], lines[2], "", lines[3], "", summary]

    document = json.loads(Path("out.json").read_text())
    assert [
        (
            f["path"],
            f["line"],
            f["column"],
            f["end_column"],
            f["code"],
            f["rule"],
            f["severity"],
            f["message"],
        )
        for f in document["findings"]
    ] == FINDINGS
    assert {f["remote"] for f in document["findings"]} == {ENGINE, "github.com/acme/bulky"}
    assert all(f["suggestion"] is None and f["related"] == [] for f in document["findings"])

    kinds = {"error": "error", "info": "notice"}
    annotations = [
        f"::{kinds[severity]} file={path},line={line},col={column},endLine={line},endColumn={end},"
        f"title={code} {rule}::{message}"
        for path, line, column, end, code, rule, severity, message in FINDINGS
    ]
    # Errors first, then notices: GitHub shows the first 10 of each per step.
    assert Path("annotations.txt").read_text().splitlines() == [
        annotations[0],
        annotations[1],
        annotations[3],
        annotations[2],
        summary,
    ]

    sarif = json.loads(Path("out.sarif").read_text())
    assert sarif_schema_errors(sarif) == []
    run = sarif["runs"][0]
    levels = {"error": "error", "info": "note"}
    assert [
        (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["region"],
            result["ruleId"],
            result["level"],
            result["message"]["text"],
        )
        for result in run["results"]
    ] == [
        (
            path,
            {"startLine": line, "startColumn": column, "endLine": line, "endColumn": end},
            code,
            levels[severity],
            message,
        )
        for path, line, column, end, code, _, severity, message in FINDINGS
    ]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert rules["RL025"]["name"] == "commit-not-in-history"
    assert rules["RL025"]["shortDescription"]["text"] == (
        "A pinned commit that no branch or tag of its repository contains: it is not in the history."
    )
    assert rules["RL026"]["shortDescription"]["text"] == (
        "An abbreviated commit id that several commits of the repository's history start with."
    )
