"""Baseline: adopt reflint on a repository with old findings and fail only on new ones.

A baseline file records findings by :meth:`~ascend_reflint.model.Finding.fingerprint` (code, path, remote and
resolved ref — not line numbers, so edits above a pin keep matching; a changed ARG value is a new finding).
The same key is SARIF's ``partialFingerprints``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ascend_reflint.model import Finding

FORMAT_VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be read or written; the message names the file and the cause."""


@dataclass(frozen=True)
class BaselineResult:
    """Findings left after the baseline, and how many baseline entries matched nothing any more."""

    findings: list[Finding]
    stale: int


def write_baseline(path: str, findings: Sequence[Finding]) -> None:
    """Record ``findings`` in ``path`` (JSON, sorted, one entry per finding with its readable key), with
    :func:`ascend_reflint.output.write_file`: a symbolic link at ``path`` is replaced, never followed.

    Raises:
        BaselineError: the file cannot be written.
    """
    entries = sorted(
        (
            {"fingerprint": f.fingerprint(), "code": f.code, "path": f.path, "remote": f.remote, "ref": f.ref}
            for f in findings
        ),
        key=lambda e: (e["path"], e["code"], e["remote"] or "", e["ref"] or "", e["fingerprint"]),
    )
    document = {"reflint-baseline": FORMAT_VERSION, "findings": entries}
    from ascend_reflint.output import OutputFileError, json_text, write_file

    try:
        write_file(path, json_text(document))
    except OutputFileError as exc:
        raise BaselineError(f"cannot write baseline {exc.path}: {exc.reason}") from None


def apply_baseline(path: str, findings: Sequence[Finding]) -> BaselineResult:
    """Drop the findings that ``path`` records (each entry matches as many findings as it was written for).

    Raises:
        BaselineError: the file is missing, unreadable or not a reflint baseline.
    """
    known = Counter(_read_fingerprints(path))
    kept: list[Finding] = []
    for finding in findings:
        key = finding.fingerprint()
        if known[key] > 0:
            known[key] -= 1
        else:
            kept.append(finding)
    return BaselineResult(kept, sum(known.values()))


def _read_fingerprints(path: str) -> list[str]:
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
    return [e["fingerprint"] for e in entries]
