"""Baseline: adopt reflint on a repository with old findings and fail only on new ones.

A baseline file records findings by :meth:`~ascend_reflint.model.Finding.fingerprint` (code, path, remote and
resolved ref — not line numbers, so edits above a pin keep matching; a changed ARG value is a new finding).
The same key is SARIF's ``partialFingerprints``.

A scan of some files (pre-commit passes the staged ones) reads and writes the entries of those files only:
the others are neither stale nor dropped.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ascend_reflint.model import Finding

FORMAT_VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be read or written; the message names the file and the cause."""


@dataclass(frozen=True)
class BaselineResult:
    """Findings left after the baseline, and how many baseline entries matched nothing any more."""

    findings: list[Finding]
    stale: int


def write_baseline(path: str, findings: Sequence[Finding], scope: Collection[str] | None = None) -> None:
    """Record ``findings`` in ``path`` (JSON, sorted, one entry per finding with its readable key), with
    :func:`ascend_reflint.output.write_file`: a symbolic link at ``path`` is replaced, never followed.

    Args:
        path: the baseline file.
        findings: the findings to record.
        scope: the display paths of the files scanned, when the scan did not cover the whole project
            (explicit files, a sub-folder): the entries that ``path`` already holds for other files are
            kept, so that a scan of the staged files does not drop the rest of the baseline. None: the
            file records ``findings`` alone.

    Raises:
        BaselineError: the file cannot be written, or (with ``scope``) it exists and is not a baseline.
    """
    kept: list[dict[str, Any]] = []
    if scope is not None and os.path.lexists(path):
        kept = [entry for entry in _read_entries(path) if not _in_scope(entry, scope)]
    entries = sorted(
        [
            *kept,
            *(
                {
                    "fingerprint": f.fingerprint(),
                    "code": f.code,
                    "path": f.path,
                    "remote": f.remote,
                    "ref": f.ref,
                }
                for f in findings
            ),
        ],
        key=lambda e: (
            str(e.get("path") or ""),
            str(e.get("code") or ""),
            str(e.get("remote") or ""),
            str(e.get("ref") or ""),
            e["fingerprint"],
        ),
    )
    document = {"reflint-baseline": FORMAT_VERSION, "findings": entries}
    from ascend_reflint.output import OutputFileError, json_text, write_file

    try:
        write_file(path, json_text(document))
    except OutputFileError as exc:
        raise BaselineError(f"cannot write baseline {exc.path}: {exc.reason}") from None


def apply_baseline(
    path: str, findings: Sequence[Finding], scope: Collection[str] | None = None
) -> BaselineResult:
    """Drop the findings that ``path`` records (each entry matches as many findings as it was written for).

    Args:
        path: the baseline file.
        findings: the scan's findings.
        scope: the display paths of the files scanned, when the scan did not cover the whole project: the
            entries of other files neither match nor count as stale (they were not looked at). None: every
            entry counts.

    Raises:
        BaselineError: the file is missing, unreadable or not a reflint baseline.
    """
    entries = _read_entries(path)
    known = Counter(entry["fingerprint"] for entry in entries if scope is None or _in_scope(entry, scope))
    kept: list[Finding] = []
    for finding in findings:
        key = finding.fingerprint()
        if known[key] > 0:
            known[key] -= 1
        else:
            kept.append(finding)
    return BaselineResult(kept, sum(known.values()))


def _in_scope(entry: dict[str, Any], scope: Collection[str]) -> bool:
    """True when the entry is of a file scanned (an entry without a path, hand-made, always is)."""
    where = entry.get("path")
    return not isinstance(where, str) or where in scope


def _read_entries(path: str) -> list[dict[str, Any]]:
    from ascend_reflint.sidefile import BASELINE_MAX_BYTES, read_side_file
    from ascend_reflint.textfile import FileReadError

    try:
        document = json.loads(read_side_file(path, BASELINE_MAX_BYTES))
    except FileReadError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise BaselineError(f"baseline {path} is not valid JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("reflint-baseline") != FORMAT_VERSION:
        raise BaselineError(
            f'{path} is not a reflint baseline (expected "reflint-baseline": {FORMAT_VERSION})'
        )
    entries = document.get("findings")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("fingerprint"), str) for e in entries
    ):
        raise BaselineError(f'baseline {path}: "findings" must be a list of entries with a "fingerprint"')
    return entries
