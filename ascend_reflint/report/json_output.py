"""JSON output of ``reflint refs`` and ``reflint scan`` (the key sets the README documents)."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from ascend_reflint.inventory import Inventory
from ascend_reflint.model import FileMessage, Finding, Pin, ScanResult
from ascend_reflint.remote import redact


def pin_record(pin: Pin) -> dict[str, Any]:
    """One pin as the ``refs`` JSON shows it (:func:`dumps` masks the credentials of ``url``)."""
    return {
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
    }


def _messages(messages: list[FileMessage]) -> list[dict[str, str]]:
    return [{"path": m.path, "message": m.message} for m in messages]


def refs_document(inventory: Inventory) -> dict[str, Any]:
    """The ``refs --format json`` document: ``pins``, ``files_scanned``, ``errors``, ``notices``."""
    return {
        "pins": [pin_record(pin) for pin in inventory.pins],
        "files_scanned": len(inventory.files),
        "errors": _messages(inventory.errors),
        "notices": _messages(inventory.notices),
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
    }


def scan_document(result: ScanResult) -> dict[str, Any]:
    """The ``scan --format json`` document: ``findings``, ``errors``, ``summary``."""
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in result.findings:
        counts[finding.severity.label] += 1
    summary = result.summary
    return {
        "findings": [finding_record(f) for f in result.findings],
        "errors": _messages(result.errors),
        "summary": {
            "files": summary.files,
            "pins": summary.pins,
            "remotes": summary.remotes,
            "lookups": summary.lookups,
            "cached": summary.cached,
            "checked": summary.checked,
            "unchecked": summary.unchecked,
            "unchecked_pins": summary.unchecked_pins,
            "findings": counts,
        },
    }


def dumps(document: dict[str, Any]) -> str:
    """Serialise a document: indented, key order kept, non-ASCII kept, ending with a newline.

    Every string value goes through :func:`ascend_reflint.remote.redact` first, so that a password or
    token written in a URL (``https://user:TOKEN@host/…``) never reaches a JSON or SARIF document: the
    pins keep the real URL because the lookup needs it, and the documents show ``https://user:***@…``.
    Characters that a terminal acts on or that reorder what a reader sees are written as ``\\uXXXX``
    escapes, which any JSON reader turns back into the same text: JSON escapes C0 controls (``\\u001b``)
    itself, and this adds DEL, the C1 controls (``\\x9b`` is CSI to some terminals), format characters
    (bidirectional overrides such as U+202E) and lone surrogates (which UTF-8 cannot encode).
    """
    text = json.dumps(_redacted(document), indent=2, ensure_ascii=False)
    return _INVISIBLE.sub(_json_escape, text) + "\n"


#: Candidates for :func:`_json_escape`: DEL, C1 controls, and every non-ASCII character (checked there).
_INVISIBLE = re.compile("[\x7f-\U0010ffff]")


def _json_escape(match: re.Match[str]) -> str:
    """A character as JSON's ``\\uXXXX`` (a surrogate pair above U+FFFF) when it is Cc, Cf or Cs."""
    char = match.group()
    if unicodedata.category(char) not in ("Cc", "Cf", "Cs"):
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _redacted(value: Any) -> Any:
    """``value`` with :func:`~ascend_reflint.remote.redact` applied to every string in it (keys too)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {_redacted(key): _redacted(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(item) for item in value]
    return value
