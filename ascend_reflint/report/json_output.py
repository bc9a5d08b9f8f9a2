"""JSON output of ``reflint refs`` and ``reflint scan`` (the key sets the README documents)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from ascend_reflint.inventory import Inventory
from ascend_reflint.model import FileMessage, Finding, Fix, Origin, Pin, ScanResult, Span
from ascend_reflint.output import write_json
from ascend_reflint.report import fix_counts, rule_counts


def pin_record(pin: Pin, describe: str | None = None) -> dict[str, Any]:
    """One pin as the ``refs`` JSON shows it (:func:`ascend_reflint.output.json_text` masks the credentials
    of ``url``); ``describe`` (the nearest tag of the commit it checks out) is added when known."""
    record = {
        "path": pin.path,
        "line": pin.span.line,
        "column": pin.span.column,
        "end_line": pin.span.end_line,
        "end_column": pin.span.end_column,
        "kind": pin.kind.value,
        "via": pin.via.value,
        "url": pin.url,
        "remote": pin.remote,
        "ref": pin.ref,
        "ref_text": pin.ref_text,
        "clone_ref": pin.clone_ref,
        "resolved": pin.resolved,
        "depth": pin.depth,
        "shallow": pin.shallow,
        "ref_type": pin.ref_type.value if pin.ref_type is not None else None,
        "version_comment": pin.version_comment,
        "ref_origin": _origin(pin.ref_origin),
        "url_origin": _origin(pin.url_origin),
        "call_sites": [{**_span(site.path, site.span), "call": site.call} for site in pin.call_sites],
    }
    if pin.template:
        record["template"] = True
    if describe is not None:
        record["describe"] = describe
    return record


def _origin(origin: Origin | None) -> dict[str, Any] | None:
    """Where a value is defined, as ``{"path", "line", "column", "end_line", "end_column"}``, or None."""
    return None if origin is None else _span(origin.path, origin.span)


def _span(path: str, span: Span) -> dict[str, Any]:
    return {
        "path": path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }


def _messages(messages: list[FileMessage]) -> list[dict[str, str | int | None]]:
    """Each message as ``{"path", "line", "column", "message"}``, the line and column only when known; the
    path is null for a message about no file (the caches')."""
    return [_message(m) for m in messages]


def _message(message: FileMessage) -> dict[str, str | int | None]:
    form: dict[str, str | int | None] = {"path": message.path or None}
    if message.line is not None:
        form["line"] = message.line
    if message.column is not None:
        form["column"] = message.column
    form["message"] = message.message
    return form


def write_refs_json(inventory: Inventory, stream: TextIO, describes: Mapping[Pin, str] | None = None) -> None:
    """Write the ``refs --format json`` document to ``stream``: ``pins``, ``files_scanned`` (the files
    read: those that could not be read or parsed are ``errors``, as the scan's summary counts them),
    ``errors``, ``notices``; as :func:`~ascend_reflint.output.json_text` gives it, one pin at a time
    (:func:`~ascend_reflint.output.write_json`).

    Args:
        inventory: what ``refs`` found.
        stream: the text stream written to.
        describes: pin → the nearest tag of the commit it checks out (``v0.8.4-12-gc0ffee1``), for the
            commit pins that scans verified and cached.
    """
    described = describes or {}
    write_json(
        stream, _refs_document(inventory, (pin_record(pin, described.get(pin)) for pin in inventory.pins))
    )


def _refs_document(inventory: Inventory, pins: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The ``refs`` document with ``pins`` in its place (an iterator that :func:`write_json` writes)."""
    return {
        "pins": pins,
        # As the scan's summary counts them: a file that could not be read or parsed is one of the errors.
        "files_scanned": sum(1 for source in inventory.files if source.error is None),
        "errors": _messages(inventory.errors),
        "notices": _messages(
            [*inventory.notices, *(FileMessage("", notice) for notice in inventory.cache_notices)]
        ),
    }


def finding_record(finding: Finding) -> dict[str, Any]:
    """One finding as the ``scan`` JSON shows it."""
    return {
        "code": finding.code,
        "rule": finding.rule,
        "severity": finding.severity.label,
        "path": finding.path,
        "line": finding.span.line,
        "column": finding.span.column,
        "end_line": finding.span.end_line,
        "end_column": finding.span.end_column,
        "message": finding.message,
        "remote": finding.remote,
        "ref": finding.ref,
        "suggestion": finding.suggestion,
        "related": [
            {"path": r.path, "line": r.line, "column": r.column, "message": r.message}
            for r in finding.related
        ],
        "fix": fix_record(finding.fix),
    }


def fix_record(fix: Fix | None) -> dict[str, Any] | None:
    """A finding's fix as JSON shows it (ruff's keys, reflint's positions): ``applicability``
    (``safe``/``unsafe``), ``message`` and ``edits``, each with ``path``, ``line``, ``column``,
    ``end_line``, ``end_column`` (the span replaced, as findings give spans) and ``content`` (the new
    text); None for a finding reflint cannot fix."""
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "message": fix.message,
        "edits": [
            {
                "path": edit.path,
                "line": edit.span.line,
                "column": edit.span.column,
                "end_line": edit.span.end_line,
                "end_column": edit.span.end_column,
                "content": edit.content,
            }
            for edit in fix.edits
        ],
    }


def write_scan_json(result: ScanResult, stream: TextIO) -> None:
    """Write the ``scan --format json`` document to ``stream``: ``findings``, ``errors``, ``notices``,
    ``summary``; as :func:`~ascend_reflint.output.json_text` gives it, one finding at a time
    (:func:`~ascend_reflint.output.write_json`): thousands of findings, each with its related places, cost
    the memory of one finding's text, not the whole document's.

    ``summary.fixable`` counts the findings that ``--fix`` would fix with the options given, and those
    that ``--unsafe-fixes`` would fix besides; after ``--fix``, ``summary.fixed`` says what it applied.

    Args:
        result: the scan's result.
        stream: the text stream written to.
    """
    write_json(stream, _scan_document(result, (finding_record(f) for f in result.findings)))


def _scan_document(result: ScanResult, findings: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The ``scan`` document with ``findings`` in its place (an iterator that :func:`write_json` writes)."""
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in result.findings:
        counts[finding.severity.label] += 1
    summary = result.summary
    fixable, more = fix_counts(result)
    fixed = result.fixed
    return {
        "findings": findings,
        "errors": _messages(result.errors),
        "notices": _messages(result.notices),
        "summary": {
            "files": summary.files,
            "pins": summary.pins,
            "remotes": summary.remotes,
            "lookups": summary.lookups,
            "cached": summary.cached,
            "cached_failures": summary.cached_failures,
            "checked": summary.checked,
            "unchecked": summary.unchecked,
            "unchecked_pins": summary.unchecked_pins,
            "findings": counts,
            "fixable": {"now": fixable, "with_unsafe_fixes": more},
            "fixed": (
                {
                    "findings": fixed.fixed,
                    "pinned": fixed.pinned,
                    "files": fixed.files,
                    "rounds": fixed.rounds,
                }
                if fixed is not None
                else None
            ),
        },
    }


def statistics_document(result: ScanResult) -> list[dict[str, Any]]:
    """The ``scan --format json --statistics`` document: ruff's ``--statistics --output-format json`` array,
    one object per rule and severity (:func:`ascend_reflint.report.rule_counts`, most findings first):
    ``code``, ``rule`` (the name, as findings call it; ruff's ``name``), ``severity``, ``count``,
    ``fixable`` (true when ``--fix`` would fix every one of them, with the options given, as ruff's
    ``fixable``) and ``fixable_count`` (how many it would fix). An empty array when nothing was found."""
    return [
        {
            "code": entry.code,
            "rule": entry.rule,
            "severity": entry.severity.label,
            "count": entry.total,
            "fixable": entry.fixable == entry.total,
            "fixable_count": entry.fixable,
        }
        for entry in rule_counts(result)
    ]
