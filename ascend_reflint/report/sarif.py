"""SARIF 2.1.0 output, as GitHub code scanning accepts it.

Sources: the OASIS SARIF 2.1.0 standard (errata 01) and its JSON schema, and GitHub's "SARIF support for
code scanning" (the properties it reads: ``tool.driver`` with ``rules``, ``results`` with ``ruleId``,
``ruleIndex``, ``level``, ``message.text``, ``locations``, ``relatedLocations`` and
``partialFingerprints``).

Paths are relative to the repository root (``uriBaseId`` ``%SRCROOT%``, whose absolute ``file:`` URI is in
``originalUriBaseIds``); a file outside the root gets its absolute ``file:`` URI. Regions use the model's
positions unchanged: SARIF's lines and columns are 1-based and its ``endColumn`` is exclusive (§3.30.5 to
§3.30.8), and ``columnKind`` ``unicodeCodePoints`` says columns count characters, as reflint does.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO
from urllib.parse import quote

from ascend_reflint import __version__
from ascend_reflint.model import FileMessage, Finding, Fix, ScanResult, Severity
from ascend_reflint.report import did_you_mean
from ascend_reflint.report.github import root_relative

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/ascend-reflint/reflint"
#: Where a rule's documentation is on the web: its row of the rule table in docs/rules.md, on the default
#: branch of the repository that pyproject.toml's ``Homepage`` names (reflint has no release tag yet).
RULE_HELP_URI = INFORMATION_URI + "/blob/main/docs/rules.md#{anchor}"
#: The key of reflint's entry in ``partialFingerprints``; a new version would mean a new way to compute it.
FINGERPRINT_KEY = "reflint/v1"
SOURCE_ROOT = "%SRCROOT%"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
#: The first sentence of a paragraph: up to a full stop (or ! or ?) followed by a space or the end.
_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)


class RuleDescription(Protocol):
    """What SARIF needs of a rule; :class:`ascend_reflint.check.RuleInfo` has this shape."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def needs_lookup(self) -> bool: ...
    @property
    def doc(self) -> str: ...


def sarif_document(
    result: ScanResult, rules: Sequence[RuleDescription], root: str, cwd: str | None = None
) -> dict[str, Any]:
    """The SARIF log of one scan: one run, one rule per code, one result per finding.

    Args:
        result: the scan's result.
        rules: every rule (``check.all_rules()``), in the order ``rules`` are listed; a code that a finding
            has but ``rules`` lacks gets a rule made from the finding, after them.
        root: the absolute path of the repository root
            (see :func:`ascend_reflint.report.github.repository_root`).
        cwd: the folder the findings' paths are relative to (default: the process's).

    Returns:
        The document as JSON-ready dicts and lists (serialise it with
        :func:`ascend_reflint.output.json_text`, or write it with :func:`write_sarif`, which holds one
        result at a time).

    Each result's ``partialFingerprints["reflint/v1"]`` is :meth:`Finding.fingerprint` (code, path, remote,
    ref: no line numbers, so moving a line keeps the alert). A second finding with the same fingerprint in
    one scan gets ``":2"`` appended (``":3"`` for the third …) so that code scanning does not merge them.
    Files that could not be read are ``toolExecutionNotifications`` of level ``error``; the execution still
    counts as successful, as the scan went on.
    """
    document, index = _skeleton(result, rules, root, cwd)
    document["runs"][0]["results"] = list(_results(result, index, _Places(root, cwd)))
    return document


def write_sarif(
    result: ScanResult, rules: Sequence[RuleDescription], root: str, stream: TextIO, cwd: str | None = None
) -> None:
    """Write :func:`sarif_document` to ``stream`` as :func:`~ascend_reflint.output.json_text` gives it (the
    same text), one result at a time: thousands of findings, each with its related places, cost the memory
    of one result's text, not the whole document's objects and text at once.

    Args: as :func:`sarif_document`'s, and ``stream``, the text stream written to.
    """
    from ascend_reflint.output import write_json

    document, index = _skeleton(result, rules, root, cwd)
    document["runs"][0]["results"] = _results(result, index, _Places(root, cwd))
    write_json(stream, document)


def _skeleton(
    result: ScanResult, rules: Sequence[RuleDescription], root: str, cwd: str | None
) -> tuple[dict[str, Any], dict[str, int]]:
    """The SARIF log without its results, and each rule code's index in its rules."""
    descriptors, index = _rule_descriptors(rules, result.findings)
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if result.errors:
        invocation["toolExecutionNotifications"] = [_notification(e, root, cwd) for e in result.errors]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "reflint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": descriptors,
            }
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": _directory_uri(root)}},
        "columnKind": "unicodeCodePoints",
        "results": [],
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}, index


def _results(result: ScanResult, index: dict[str, int], places: _Places) -> Iterator[dict[str, Any]]:
    """One SARIF result per finding, in order, each with its fingerprint made unique in the scan."""
    seen: dict[str, int] = {}
    for finding in result.findings:
        fingerprint = finding.fingerprint()
        seen[fingerprint] = seen.get(fingerprint, 0) + 1
        if seen[fingerprint] > 1:
            fingerprint = f"{fingerprint}:{seen[fingerprint]}"
        yield _result(finding, index[finding.code], fingerprint, places)


class _Places:
    """The ``artifactLocation`` and the shown path of each path of one document, each worked out once (a
    family's files are the related places of thousands of findings; each costs two ``realpath`` calls)."""

    def __init__(self, root: str, cwd: str | None) -> None:
        self.root = root
        self.cwd = cwd
        self._artifacts: dict[str, dict[str, str]] = {}
        self._shown: dict[str, str] = {}

    def artifact(self, path: str) -> dict[str, str]:
        """:func:`_artifact` of ``path`` (a new dict each time: the document may be changed by its reader)."""
        found = self._artifacts.get(path)
        if found is None:
            found = self._artifacts[path] = _artifact(path, self.root, self.cwd)
        return dict(found)

    def shown(self, path: str) -> str:
        """``path`` relative to the root when under it, else as given."""
        found = self._shown.get(path)
        if found is None:
            found = self._shown[path] = _shown(path, self.root, self.cwd)
        return found


def _rule_descriptors(
    rules: Sequence[RuleDescription], findings: Sequence[Finding]
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The ``reportingDescriptor`` list and code → its index in it."""
    descriptors: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for rule in rules:
        if rule.code not in index:
            index[rule.code] = len(descriptors)
            descriptors.append(rule_descriptor(rule))
    for finding in findings:
        if finding.code not in index:
            index[finding.code] = len(descriptors)
            descriptors.append(
                {
                    "id": finding.code,
                    "name": finding.rule,
                    "shortDescription": {"text": finding.rule},
                    "defaultConfiguration": {"level": _LEVEL[finding.severity]},
                }
            )
    return descriptors, index


def rule_descriptor(rule: RuleDescription) -> dict[str, Any]:
    """One rule as a SARIF ``reportingDescriptor``.

    ``shortDescription`` is the first sentence of the doc's first paragraph (Markdown headings skipped),
    ``fullDescription`` that paragraph, ``help`` the whole doc (as text and as Markdown: the docs are
    written in Markdown), ``helpUri`` the rule's row in docs/rules.md on the web (:data:`RULE_HELP_URI`:
    code scanning links the alert to it). Tags: ``reflint``, and ``needs-lookup`` for rules that ask the
    remote.
    """
    doc = inspect.cleandoc(rule.doc)
    paragraph = _first_paragraph(doc) or rule.name
    sentence = _FIRST_SENTENCE.match(paragraph)
    tags = ["reflint"] + (["needs-lookup"] if rule.needs_lookup else [])
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": sentence.group(1) if sentence else paragraph},
        "fullDescription": {"text": paragraph},
        "help": {"text": doc or rule.name, "markdown": doc or rule.name},
        "helpUri": RULE_HELP_URI.format(anchor=rule.code.lower()),
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": tags},
    }


def _first_paragraph(doc: str) -> str:
    """The first paragraph of ``doc`` that is not only headings, its lines joined by spaces."""
    for block in re.split(r"\n\s*\n", doc):
        lines = [
            line.strip() for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")
        ]
        if lines:
            return " ".join(lines)
    return ""


def _result(finding: Finding, rule_index: int, fingerprint: str, places: _Places) -> dict[str, Any]:
    span = finding.span
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": _message(finding, places.shown)},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": places.artifact(finding.path),
                    "region": {
                        "startLine": span.line,
                        "startColumn": span.column,
                        "endLine": span.end_line,
                        "endColumn": span.end_column,
                    },
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    if finding.related:
        result["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": {
                    "artifactLocation": places.artifact(related.path),
                    "region": {"startLine": related.line, "startColumn": related.column},
                },
                "message": {"text": related.message},
            }
            for number, related in enumerate(finding.related, start=1)
        ]
    if finding.fix is not None:
        result["fixes"] = [sarif_fix(finding.fix, places.root, places.cwd)]
    return result


def sarif_fix(fix: Fix, root: str, cwd: str | None = None) -> dict[str, Any]:
    """A finding's fix as a SARIF ``fix`` object (§3.55): its message as ``description``, one
    ``artifactChange`` per file (§3.56) with a ``replacement`` per edit (§3.57): the ``deletedRegion`` the
    edit replaces (an insertion point when its start and end are equal, §3.30.9) and the
    ``insertedContent``. Whether the fix is safe is in ``properties.applicability``."""
    changes: dict[str, list[dict[str, Any]]] = {}
    for edit in fix.edits:
        span = edit.span
        changes.setdefault(edit.path, []).append(
            {
                "deletedRegion": {
                    "startLine": span.line,
                    "startColumn": span.column,
                    "endLine": span.end_line,
                    "endColumn": span.end_column,
                },
                "insertedContent": {"text": edit.content},
            }
        )
    return {
        "description": {"text": fix.message},
        "artifactChanges": [
            {"artifactLocation": _artifact(path, root, cwd), "replacements": replacements}
            for path, replacements in changes.items()
        ],
        "properties": {"applicability": fix.applicability.value},
    }


def result_message(finding: Finding, root: str, cwd: str | None = None) -> str:
    """A result's ``message.text``: the message, ``Did you mean 'REF'?`` (unless the message names REF), and
    links to the related places.

    Each related place is an embedded link ``[path:line:column](id)`` to the ``relatedLocations`` entry of
    that id, which code scanning shows as a link; square brackets and backslashes in a link's text are
    escaped with a backslash (SARIF §3.11.6), and need no escaping elsewhere. Braces are left single:
    §3.11.5 asks for ``{{``/``}}``, but only consumers that substitute placeholders undo that, and a
    ``${VAR}`` shown as ``${{VAR}}`` would read as a GitHub expression.
    """
    return _message(finding, lambda path: _shown(path, root, cwd))


def _message(finding: Finding, shown: Callable[[str], str]) -> str:
    """:func:`result_message`, with ``shown`` giving each related place's path as the link shows it."""
    text = finding.message
    hint = did_you_mean(finding)
    if hint is not None:
        text += f" {hint[0].upper()}{hint[1:]}"
    links = [
        f"[{_link_text(f'{shown(r.path)}:{r.line}:{r.column}')}]({number}) {r.message}"
        for number, r in enumerate(finding.related, start=1)
    ]
    if links:
        text += " Related: " + "; ".join(links)
    return text


def _link_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _shown(path: str, root: str, cwd: str | None) -> str:
    return root_relative(path, root, cwd) or path


def _artifact(path: str, root: str, cwd: str | None) -> dict[str, str]:
    """An ``artifactLocation``: a relative URI against ``%SRCROOT%``, or an absolute ``file:`` URI."""
    relative = root_relative(path, root, cwd)
    if relative is not None:
        return {"uri": quote(relative), "uriBaseId": SOURCE_ROOT}
    return {"uri": Path(os.path.abspath(os.path.join(cwd or os.getcwd(), path))).as_uri()}


def _notification(error: FileMessage, root: str, cwd: str | None) -> dict[str, Any]:
    """A ``notification`` (SARIF §3.58) for a file that could not be read, with the line and column where
    it stops parsing as its region when known."""
    location: dict[str, Any] = {"artifactLocation": _artifact(error.path, root, cwd)}
    if error.line is not None:
        location["region"] = {"startLine": error.line}
        if error.column is not None:
            location["region"]["startColumn"] = error.column
    return {
        "level": "error",
        "message": {"text": error.message},
        "locations": [{"physicalLocation": location}],
    }


def _directory_uri(path: str) -> str:
    """The absolute ``file:`` URI of a folder, ending with ``/`` as SARIF §3.14.14 requires of a base URI."""
    uri = Path(path).absolute().as_uri()
    return uri if uri.endswith("/") else uri + "/"
