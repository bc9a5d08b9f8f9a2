"""``--format github`` (report/github.py): workflow-command annotations, summary line, job summary."""

from __future__ import annotations

import io
import logging
import os
from pathlib import Path

import pytest

from ascend_reflint.model import FileMessage, Finding, Related, ScanResult, ScanSummary, Severity, Span
from ascend_reflint.output import Channel, escape_data, escape_property
from ascend_reflint.report.github import (
    annotation,
    job_summary,
    repository_root,
    root_relative,
    write_github,
)

SUMMARY = ScanSummary(files=3, pins=4, remotes=2, lookups=1, cached=1, checked=2)


def branch_pin(
    path: str = "docker/Dockerfile", line: int = 5, severity: Severity = Severity.ERROR
) -> Finding:
    return Finding(
        code="RL002",
        rule="branch-pin",
        severity=severity,
        path=path,
        span=Span(line, 28, line, 40),
        message="'core_r0.18.0' is a branch of github.com/nvidia/megatron-lm; "
        "the release is tag 'core_v0.18.0'",
        remote="github.com/nvidia/megatron-lm",
        ref="core_r0.18.0",
        suggestion="core_v0.18.0",
    )


def test_escaping_follows_the_actions_toolkit() -> None:
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext%3A a%2Cb"
    # '%' first, so that the escapes added for the other characters are not escaped again.
    assert escape_property("%3A:") == "%253A%3A"


def test_annotation_of_a_one_line_span_has_columns_suggestion_and_related_places(tmp_path: Path) -> None:
    finding = Finding(
        code="RL004",
        rule="variant-drift",
        severity=Severity.WARNING,
        path="docker/Dockerfile.a2",
        span=Span(3, 9, 3, 21),
        message="pins core_v0.12.1, the A3 variant pins core_v0.18.0",
        related=(Related("docker/Dockerfile.a3", 4, 9, "the A3 variant, at core_v0.18.0"),),
    )
    assert annotation(finding, str(tmp_path), cwd=str(tmp_path)) == (
        "::warning file=docker/Dockerfile.a2,line=3,col=9,endLine=3,endColumn=21,title=RL004 variant-drift"
        "::pins core_v0.12.1, the A3 variant pins core_v0.18.0"
        "%0Adocker/Dockerfile.a3:4:9: the A3 variant, at core_v0.18.0"
    )


def test_annotation_of_a_multi_line_span_has_no_columns(tmp_path: Path) -> None:
    finding = Finding(
        "RL009", "shallow-checkout", Severity.INFO, "build.sh", Span(2, 5, 4, 7), "clone, then checkout"
    )
    assert annotation(finding, str(tmp_path), cwd=str(tmp_path)) == (
        "::notice file=build.sh,line=2,endLine=4,title=RL009 shallow-checkout::clone, then checkout"
    )


def test_annotation_escapes_properties_and_makes_control_characters_visible(tmp_path: Path) -> None:
    finding = Finding(
        "RL001",
        "ref-not-found",
        Severity.ERROR,
        "odd,name:1.sh",
        Span(1, 1, 1, 4),
        "ref 'v1\x1b[31m' not found",
    )
    assert annotation(finding, str(tmp_path), cwd=str(tmp_path)) == (
        "::error file=odd%2Cname%3A1.sh,line=1,col=1,endLine=1,endColumn=4,title=RL001 ref-not-found"
        "::ref 'v1\\x1b[31m' not found"
    )


def test_paths_are_made_relative_to_the_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    environ = {"GITHUB_WORKSPACE": str(workspace)}
    root = repository_root(environ, cwd=str(workspace / "sub"))
    assert root == str(workspace)
    assert root_relative("docker/Dockerfile", root, cwd=str(workspace / "sub")) == "sub/docker/Dockerfile"
    assert root_relative("../other/Dockerfile", root, cwd=str(workspace)) is None
    assert annotation(branch_pin(), root, cwd=str(workspace / "sub")) == _branch_pin_line(
        "error", 5, "sub/docker/Dockerfile"
    )


def test_a_workspace_given_through_a_symbolic_link_still_matches(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert root_relative("Dockerfile", str(link), cwd=str(real)) == "Dockerfile"


def test_the_root_is_the_working_directory_outside_actions(tmp_path: Path) -> None:
    assert repository_root({}, cwd=str(tmp_path)) == str(tmp_path)
    assert repository_root({"GITHUB_WORKSPACE": ""}, cwd=str(tmp_path)) == str(tmp_path)


def test_write_github_writes_annotations_then_the_summary_line(tmp_path: Path) -> None:
    result = ScanResult(
        findings=[branch_pin()],
        errors=[FileMessage("scripts/bad.sh", "not UTF-8 text")],
        notices=[],
        summary=SUMMARY,
    )
    buffer = io.StringIO()
    stream = Channel(buffer)
    write_github(result, stream, {"GITHUB_WORKSPACE": str(tmp_path)}, cwd=str(tmp_path))
    assert buffer.getvalue() == (
        "::error file=docker/Dockerfile,line=5,col=28,endLine=5,endColumn=40,title=RL002 branch-pin"
        "::'core_r0.18.0' is a branch of github.com/nvidia/megatron-lm; the release is tag 'core_v0.18.0'"
        "%0Adid you mean 'core_v0.18.0'?\n"
        "::error file=scripts/bad.sh,title=reflint could not read this file::not UTF-8 text\n"
        "1 error, 0 warnings, 0 info in 1 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked); "
        "1 file could not be read\n"
    )


def _branch_pin_line(command: str, line: int, path: str = "docker/Dockerfile") -> str:
    """The annotation of :func:`branch_pin` at ``line``, as the workflow command ``command``."""
    return (
        f"::{command} file={path},line={line},col=28,endLine={line},endColumn=40,title=RL002 branch-pin"
        "::'core_r0.18.0' is a branch of github.com/nvidia/megatron-lm; the release is tag 'core_v0.18.0'"
        "%0Adid you mean 'core_v0.18.0'?"
    )


def test_ten_annotations_of_each_severity_fit(tmp_path: Path) -> None:
    findings = [branch_pin(line=n, severity=s) for s in Severity for n in range(1, 11)]
    buffer = io.StringIO()
    stream = Channel(buffer)
    write_github(ScanResult(findings, [], [], SUMMARY), stream, {}, cwd=str(tmp_path))
    assert buffer.getvalue().splitlines() == [
        # errors first, then warnings, then notices, whatever order the findings came in
        *(_branch_pin_line(command, n) for command in ("error", "warning", "notice") for n in range(1, 11)),
        "10 errors, 10 warnings, 10 info in 1 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked)",
    ]


def test_an_eleventh_error_is_announced_with_where_to_find_all(tmp_path: Path) -> None:
    findings = [branch_pin(line=n) for n in range(1, 12)]
    buffer = io.StringIO()
    stream = Channel(buffer)
    write_github(ScanResult(findings, [], [], SUMMARY), stream, {}, cwd=str(tmp_path))
    # Every annotation is written (the runner drops the ones past its limits), then where to see them all.
    assert buffer.getvalue().splitlines() == [
        *(_branch_pin_line("error", n) for n in range(1, 12)),
        "11 errors, 0 warnings, 0 info in 1 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked); "
        "GitHub shows at most 10 annotations of each severity per step and 50 per job, "
        "so some are not shown: "
        "all 11 findings are in the SARIF report "
        "(reflint scan --format sarif, uploaded with github/codeql-action/upload-sarif)",
    ]


def test_unreadable_files_count_as_error_annotations(tmp_path: Path) -> None:
    errors = [FileMessage(f"f{n}.sh", "binary") for n in range(11)]
    buffer = io.StringIO()
    stream = Channel(buffer)
    summary_file = tmp_path / "summary.md"
    write_github(
        ScanResult([], errors, [], SUMMARY), stream, {"GITHUB_STEP_SUMMARY": str(summary_file)}, str(tmp_path)
    )
    assert buffer.getvalue().splitlines() == [
        *(f"::error file=f{n}.sh,title=reflint could not read this file::binary" for n in range(11)),
        "0 errors, 0 warnings, 0 info in 0 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked); "
        "11 files could not be read; GitHub shows at most 10 annotations of each severity per step and 50 "
        "per job, so some are not shown: all 0 findings are in the job summary and in the SARIF report "
        "(reflint scan --format sarif, uploaded with github/codeql-action/upload-sarif)",
    ]
    assert summary_file.read_text(encoding="utf-8").splitlines() == [
        "### reflint",
        "",
        "0 errors, 0 warnings, 0 info in 0 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked); "
        "11 files could not be read",
        "",
        "Files that could not be read:",
        "",
        "| File | Reason |",
        "| --- | --- |",
        *(f"| f{n}.sh | binary |" for n in range(11)),
    ]


def test_job_summary_is_appended_as_an_escaped_table_with_links(tmp_path: Path) -> None:
    summary_file = tmp_path / "step_summary.md"
    summary_file.write_text("earlier step\n", encoding="utf-8")
    tricky = Finding(
        code="RL001",
        rule="ref-not-found",
        severity=Severity.WARNING,
        path="scripts/a b.sh",
        span=Span(7, 3, 7, 9),
        message="ref 'x|y' has *stars*, <b>tags</b> & a_b\nand a second line",
    )
    result = ScanResult([branch_pin(), tricky], [FileMessage("bin|ary", "not text")], [], SUMMARY)
    environ = {
        "GITHUB_WORKSPACE": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(summary_file),
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "org/repo",
        "GITHUB_SHA": "0123abcd",
    }
    buffer = io.StringIO()
    stream = Channel(buffer)
    write_github(result, stream, environ, cwd=str(tmp_path))
    assert summary_file.read_text(encoding="utf-8") == (
        "earlier step\n"
        "### reflint\n"
        "\n"
        "1 error, 1 warning, 0 info in 2 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked); "
        "1 file could not be read\n"
        "\n"
        "| Severity | Rule | Location | Message |\n"
        "| --- | --- | --- | --- |\n"
        "| error | RL002 branch-pin "
        "| [docker/Dockerfile:5:28](https://github.com/org/repo/blob/0123abcd/docker/Dockerfile#L5) "
        "| 'core\\_r0.18.0' is a branch of github.com/nvidia/megatron-lm; the release is tag 'core\\_v0.18.0'"
        "<br>did you mean 'core\\_v0.18.0'? |\n"
        "| warning | RL001 ref-not-found "
        "| [scripts/a b.sh:7:3](https://github.com/org/repo/blob/0123abcd/scripts/a%20b.sh#L7) "
        "| ref 'x\\|y' has \\*stars\\*, \\<b\\>tags\\</b\\> \\& a\\_b<br>and a second line |\n"
        "\n"
        "Files that could not be read:\n"
        "\n"
        "| File | Reason |\n"
        "| --- | --- |\n"
        "| bin\\|ary | not text |\n"
    )


def test_job_summary_without_findings_is_the_summary_line(tmp_path: Path) -> None:
    text, complete = job_summary(ScanResult([], [], [], SUMMARY), {}, str(tmp_path), cwd=str(tmp_path))
    assert (text, complete) == (
        "### reflint\n\n0 errors, 0 warnings, 0 info in 0 of 3 files "
        "(4 pins, 2 remotes: 2 checked (1 cached), 0 not checked)\n",
        True,
    )


def test_job_summary_leaves_out_rows_past_the_budget_and_says_so(tmp_path: Path) -> None:
    long_message = "é" * 300  # two bytes each: rows are longer than the 200 bytes kept for the note
    findings = [
        Finding("RL001", "ref-not-found", Severity.ERROR, "f", Span(n, 1, n, 2), long_message)
        for n in (1, 2, 3)
    ]
    result = ScanResult(findings, [], [], SUMMARY)
    full, _ = job_summary(result, {}, str(tmp_path), cwd=str(tmp_path))
    last_row = full.splitlines()[-1] + "\n"
    budget = len(full.encode()) - len(last_row.encode()) + 200  # every row but the last, and the note
    text, complete = job_summary(result, {}, str(tmp_path), cwd=str(tmp_path), budget=budget)
    assert not complete
    assert text == full[: -len(last_row)] + (
        "\nNot listed: 1 more (GitHub limits a step's job summary to 1024 KiB). "
        "The SARIF report has every finding.\n"
    )


def test_job_summary_lists_errors_first_and_cuts_the_least_severe(tmp_path: Path) -> None:
    # Findings come in path order: an info and a warning in "a", an error in "b". The table, like the
    # annotations, puts the error first, so that a summary cut to GitHub's limit keeps it.
    findings = [
        Finding("RL024", "newer-release", Severity.INFO, "a", Span(1, 1, 1, 2), "i" * 300),
        Finding("RL015", "head-tracking-ref", Severity.WARNING, "a", Span(2, 1, 2, 2), "w"),
        Finding("RL001", "ref-not-found", Severity.ERROR, "b", Span(3, 1, 3, 2), "e"),
    ]
    result = ScanResult(findings, [], [], SUMMARY)
    full, complete = job_summary(result, {}, str(tmp_path), cwd=str(tmp_path))
    rows = full.splitlines()[-3:]
    assert (complete, rows[:2]) == (
        True,
        ["| error | RL001 ref-not-found | b:3:1 | e |", "| warning | RL015 head-tracking-ref | a:2:1 | w |"],
    )
    budget = len(full.encode()) - len(rows[2].encode()) - 1 + 200  # all but the info row, and the note
    text, complete = job_summary(result, {}, str(tmp_path), cwd=str(tmp_path), budget=budget)
    assert (complete, text.splitlines()[-4:]) == (
        False,
        [
            "| error | RL001 ref-not-found | b:3:1 | e |",
            "| warning | RL015 head-tracking-ref | a:2:1 | w |",
            "",
            "Not listed: 1 more (GitHub limits a step's job summary to 1024 KiB). The SARIF report has every "
            "finding.",
        ],
    )


def test_a_job_summary_that_cannot_be_written_is_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    buffer = io.StringIO()
    stream = Channel(buffer)
    environ = {"GITHUB_STEP_SUMMARY": str(tmp_path)}  # a folder: open() fails
    with caplog.at_level(logging.WARNING, logger="reflint"):
        write_github(ScanResult([branch_pin()], [], [], SUMMARY), stream, environ, cwd=str(tmp_path))
    assert buffer.getvalue().splitlines() == [
        _branch_pin_line("error", 5),
        "1 error, 0 warnings, 0 info in 1 of 3 files (4 pins, 2 remotes: 2 checked (1 cached), 0 not "
        "checked)",
    ]
    assert [r.getMessage() for r in caplog.records] == [
        f"cannot write the job summary {tmp_path}: Is a directory"
    ]


def test_default_working_directory_is_the_process_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert root_relative("x/Dockerfile", os.fspath(tmp_path)) == "x/Dockerfile"
