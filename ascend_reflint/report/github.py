"""GitHub Actions output: workflow-command annotations, a summary line, and a Markdown job summary.

Workflow commands (https://docs.github.com/actions/reference/workflow-commands) are lines of the form
``::error file=PATH,line=L,col=C,endLine=EL,endColumn=E,title=TITLE::MESSAGE`` that the runner turns into
annotations on the run and on the pull request's diff. They are built and written by
:mod:`ascend_reflint.output` (escaping as actions/toolkit does, text from outside made safe), which also
keeps text from outside from forming commands of its own.

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per job (actions/toolkit
``docs/problem-matchers.md``, "Limitations") and drops the rest silently. When a scan has more, the summary
line says so and points to the job summary (``$GITHUB_STEP_SUMMARY``), which lists every finding, and to the
SARIF report, which code scanning shows in full.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from urllib.parse import quote

from ascend_reflint.model import FileMessage, Finding, ScanResult, Severity
from ascend_reflint.output import Channel, OutputFileError, append_file, log_warning, shown, workflow_command
from ascend_reflint.report import did_you_mean
from ascend_reflint.report.text import summary_line

#: Annotations of one kind (error, warning, notice) that GitHub shows per step.
ANNOTATIONS_PER_KIND_PER_STEP = 10
#: Annotations that GitHub shows per job, all steps and kinds together (other steps' annotations count too).
ANNOTATIONS_PER_JOB = 50
#: Bytes that one step may write to its job summary; GitHub refuses a larger one ("Job summary" docs).
STEP_SUMMARY_LIMIT = 1024 * 1024

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
#: A file that could not be read or parsed is an ``error``: its pins went unchecked, and it fails the run.
_FILE_ERROR_COMMAND = "error"
#: ASCII punctuation that Markdown could read as markup in a table cell; CommonMark lets a backslash
#: escape any ASCII punctuation, and GFM tables need ``\\|`` for a literal pipe.
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>|~&")
#: Bytes kept free for the note that counts the rows a too-long job summary leaves out.
_FOOTER_ROOM = 200


def repository_root(environ: Mapping[str, str], cwd: str | None = None) -> str:
    """The folder that annotation and SARIF paths are relative to.

    Args:
        environ: the process environment; ``GITHUB_WORKSPACE`` (set by the Actions runner to the
            checkout) wins when set and not empty.
        cwd: the working directory, the root otherwise (default: the process's).

    Returns:
        An absolute path.
    """
    workspace = environ.get("GITHUB_WORKSPACE")
    return os.path.abspath(workspace or cwd or os.getcwd())


def root_relative(path: str, root: str, cwd: str | None = None) -> str | None:
    """``path`` (a display path: relative to ``cwd``, or absolute) relative to ``root``, ``/``-separated.

    Symbolic links in ``root`` and ``cwd`` are resolved before comparing (the runner's workspace path
    may be a link), those in ``path`` itself are not: a linked file is reported where it is linked.

    Returns:
        The relative path, or None when ``path`` is not under ``root``.
    """
    base = os.path.realpath(cwd or os.getcwd())
    absolute = os.path.normpath(os.path.join(base, path))
    for candidate_root in dict.fromkeys((os.path.realpath(root), os.path.abspath(root))):
        try:
            relative = os.path.relpath(absolute, candidate_root)
        except ValueError:  # another drive on Windows
            continue
        if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
            return relative.replace(os.sep, "/")
    return None


def _shown_path(path: str, root: str, cwd: str | None) -> str:
    """The path annotations show: relative to the root when under it, else as the finding gives it."""
    return root_relative(path, root, cwd) or path


def annotation(finding: Finding, root: str, cwd: str | None = None) -> str:
    """The workflow command for one finding (no trailing newline).

    ``col``/``endColumn`` are given only when the span is on one line: GitHub's annotations support
    columns on a single line only (Checks API, "annotations"). ``endColumn`` is exclusive, as in
    :class:`ascend_reflint.model.Span`. The message is the finding's message, then ``did you mean 'REF'?``
    (unless the message names REF)
    and one ``path:line:column: message`` line per related place, each made safe for a terminal.

    Args:
        finding: the finding.
        root: the repository root (see :func:`repository_root`).
        cwd: the folder the finding's path is relative to (default: the process's).

    Returns:
        ``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE rule-name::MESSAGE``, with
        ``warning`` or ``notice`` for the other severities.
    """
    span = finding.span
    properties: list[tuple[str, str]] = [
        ("file", _shown_path(finding.path, root, cwd)),
        ("line", str(span.line)),
    ]
    if span.line == span.end_line:
        properties.append(("col", str(span.column)))
        properties += [("endLine", str(span.end_line)), ("endColumn", str(span.end_column))]
    else:
        properties.append(("endLine", str(span.end_line)))
    properties.append(("title", f"{finding.code} {finding.rule}"))
    return workflow_command(_COMMAND[finding.severity], properties, _message_lines(finding, root, cwd))


def _message_lines(finding: Finding, root: str, cwd: str | None) -> list[str]:
    """The message, ``did you mean 'REF'?``, and ``path:line:column: message`` per related place."""
    lines = [finding.message]
    hint = did_you_mean(finding)
    if hint is not None:
        lines.append(hint)
    lines += [f"{_shown_path(r.path, root, cwd)}:{r.line}:{r.column}: {r.message}" for r in finding.related]
    return lines


def file_error_annotation(error: FileMessage, root: str, cwd: str | None = None) -> str:
    """The workflow command for a file that could not be read: ``::warning file=PATH,line=L,col=C,title=…::
    MESSAGE``, with the line and column where it stops parsing when known."""
    properties = [("file", _shown_path(error.path, root, cwd))]
    if error.line is not None:
        properties.append(("line", str(error.line)))
        if error.column is not None:
            properties.append(("col", str(error.column)))
    properties.append(("title", "reflint could not read this file"))
    return workflow_command(_FILE_ERROR_COMMAND, properties, [error.message])


def _error_location(error: FileMessage, root: str, cwd: str | None) -> str:
    """``path:line:column`` of a file error, as much as is known, the path relative to the root."""
    return _shown_path(error.path, root, cwd) + error.location[len(error.path) :]


def write_github(
    result: ScanResult, stream: Channel, environ: Mapping[str, str], cwd: str | None = None
) -> None:
    """Write an annotation per finding and per unreadable file (errors, then warnings, then notices), the
    summary line; append the job summary.

    Args:
        result: the scan's result.
        stream: where the workflow commands go (the step's standard output).
        environ: the process environment: ``GITHUB_WORKSPACE`` (the root paths are relative to),
            ``GITHUB_STEP_SUMMARY`` (the job summary file, appended to when set), and
            ``GITHUB_SERVER_URL``/``GITHUB_REPOSITORY``/``GITHUB_SHA`` (links in the job summary).
        cwd: the folder the findings' paths are relative to (default: the process's).

    A job summary that cannot be written is logged as a warning; the annotations are written all the same.
    """
    root = repository_root(environ, cwd)
    # Errors first, then warnings, then notices (each in path order): GitHub shows only the first 10 of
    # each kind per step, and a run's most serious findings must be among those it shows.
    by_severity = _by_severity(result.findings)
    for finding in (f for f in by_severity if f.severity is Severity.ERROR):
        stream.write_command(annotation(finding, root, cwd))
    for error in result.errors:
        stream.write_command(file_error_annotation(error, root, cwd))
    for finding in (f for f in by_severity if f.severity is not Severity.ERROR):
        stream.write_command(annotation(finding, root, cwd))
    summary_complete = False
    summary_path = environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        summary_complete = _append_job_summary(result, summary_path, environ, root, cwd)
    stream.write(_summary_with_limits(result, summary_complete) + "\n")


def _summary_with_limits(result: ScanResult, in_job_summary: bool) -> str:
    """The plain summary line, with a note when GitHub will not show every annotation."""
    text = summary_line(result)
    if not annotations_hidden(result):
        return text
    where = "in the job summary and in the SARIF report" if in_job_summary else "in the SARIF report"
    return (
        f"{text}; GitHub shows at most {ANNOTATIONS_PER_KIND_PER_STEP} annotations of each severity per step "
        f"and {ANNOTATIONS_PER_JOB} per job, so some are not shown: all {len(result.findings)} findings are "
        f"{where} (reflint scan --format sarif, uploaded with github/codeql-action/upload-sarif)"
    )


def annotations_hidden(result: ScanResult) -> bool:
    """True when GitHub will drop some of the annotations :func:`write_github` writes for ``result``."""
    counts = {"error": 0, "warning": 0, "notice": 0}
    for finding in result.findings:
        counts[_COMMAND[finding.severity]] += 1
    counts[_FILE_ERROR_COMMAND] += len(result.errors)
    # Three kinds of at most 10 stay under the 50 per job: only the per-kind limit can be passed by one step.
    return max(counts.values()) > ANNOTATIONS_PER_KIND_PER_STEP


def _append_job_summary(
    result: ScanResult, summary_path: str, environ: Mapping[str, str], root: str, cwd: str | None
) -> bool:
    """Append :func:`job_summary` to the file; True when it was written with every finding."""
    try:
        used = os.path.getsize(summary_path) if os.path.exists(summary_path) else 0
        markdown, complete = job_summary(result, environ, root, cwd, budget=STEP_SUMMARY_LIMIT - used)
        append_file(summary_path, markdown)
    except OSError as exc:
        log_warning("cannot write the job summary %s: %s", summary_path, exc.strerror or exc)
        return False
    except OutputFileError as exc:
        log_warning("cannot write the job summary %s: %s", exc.path, exc.reason)
        return False
    return complete


def job_summary(
    result: ScanResult,
    environ: Mapping[str, str],
    root: str,
    cwd: str | None = None,
    budget: int = STEP_SUMMARY_LIMIT,
) -> tuple[str, bool]:
    """The Markdown job summary: a heading, the summary line, a table of findings (errors first, then
    warnings, then info, each in the scan's order, as the annotations are: when the table is cut to fit
    ``budget``, what is left out is the least severe) and one of unreadable files.

    Table cells are escaped (Markdown punctuation with a backslash, ``|`` as ``\\|``, line breaks as
    ``<br>``, terminal control characters as ``\\xNN``). A location links to the file at the commit when
    ``GITHUB_SERVER_URL``, ``GITHUB_REPOSITORY`` and ``GITHUB_SHA`` are set and the file is in the root.

    Args:
        result: the scan's result.
        environ: the process environment (for the links).
        root: the repository root.
        cwd: the folder the findings' paths are relative to (default: the process's).
        budget: the most UTF-8 bytes to return; rows that do not fit are left out and counted.

    Returns:
        ``(markdown, complete)``: the text, ending with a newline; complete is False when rows were left out.
    """
    head = f"### reflint\n\n{summary_line(result)}\n"
    tables: list[tuple[str, list[str]]] = []
    if result.findings:
        tables.append(
            (
                "\n| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |\n",
                [_finding_row(f, environ, root, cwd) for f in _by_severity(result.findings)],
            )
        )
    if result.errors:
        tables.append(
            (
                "\nFiles that could not be read:\n\n| File | Reason |\n| --- | --- |\n",
                [f"| {_cell(_error_location(e, root, cwd))} | {_cell(e.message)} |\n" for e in result.errors],
            )
        )
    return _fit(head, tables, budget)


def _by_severity(findings: Sequence[Finding]) -> list[Finding]:
    """``findings`` with the most severe first, in their order otherwise (a stable sort)."""
    return sorted(findings, key=lambda finding: -finding.severity)


def _fit(head: str, tables: Sequence[tuple[str, list[str]]], budget: int) -> tuple[str, bool]:
    """``head`` then each table (its intro, its rows), leaving out the last rows that would pass ``budget``.

    A table none of whose rows fit is left out whole; a note at the end counts the rows left out.
    """
    whole = head + "".join(intro + "".join(rows) for intro, rows in tables)
    if _size(whole) <= budget:
        return whole, True
    room = budget - _size(head) - _FOOTER_ROOM
    parts = [head]
    left_out = 0
    for intro, rows in tables:
        used = _size(intro)
        taken: list[str] = []
        for row in rows:
            if used + _size(row) > room:
                break
            taken.append(row)
            used += _size(row)
        if taken:
            parts.append(intro + "".join(taken))
            room -= used
        left_out += len(rows) - len(taken)
    parts.append(
        f"\nNot listed: {left_out} more (GitHub limits a step's job summary to "
        f"{STEP_SUMMARY_LIMIT // 1024} KiB). The SARIF report has every finding.\n"
    )
    return "".join(parts), False


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def _finding_row(finding: Finding, environ: Mapping[str, str], root: str, cwd: str | None) -> str:
    relative = root_relative(finding.path, root, cwd)
    span = finding.span
    location = _cell(f"{relative or finding.path}:{span.line}:{span.column}")
    link = _blob_url(relative, span.line, environ)
    if link is not None:
        location = f"[{location}]({link})"
    lines = _message_lines(finding, root, cwd)
    rule = _cell(f"{finding.code} {finding.rule}")
    message = "<br>".join(_cell(line) for line in lines)
    return f"| {finding.severity.label} | {rule} | {location} | {message} |\n"


def _blob_url(relative: str | None, line: int, environ: Mapping[str, str]) -> str | None:
    """``SERVER/OWNER/REPO/blob/SHA/PATH#Lline``, or None without the variables or outside the root."""
    server = environ.get("GITHUB_SERVER_URL")
    repository = environ.get("GITHUB_REPOSITORY")
    sha = environ.get("GITHUB_SHA")
    if relative is None or not (server and repository and sha):
        return None
    return f"{server.rstrip('/')}/{quote(repository)}/blob/{quote(sha)}/{quote(relative)}#L{line}"


def _cell(text: str) -> str:
    """Text as one Markdown table cell: markup escaped, line breaks as ``<br>``."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "<br>".join(_escape_markdown(shown(line)) for line in lines)


def _escape_markdown(text: str) -> str:
    return "".join(f"\\{char}" if char in _MARKDOWN_SPECIAL else char for char in text)
