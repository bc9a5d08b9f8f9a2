"""Report: formatters only format. Each takes the pipeline's values and returns or writes text."""

from __future__ import annotations

from ascend_reflint.model import Applicability, Finding, ScanResult


def did_you_mean(finding: Finding) -> str | None:
    """``did you mean 'REF'?`` for a finding with a suggestion, or None: without one, or when the message
    already names it (``pin its release tag "core_v0.18.0"``), since saying it twice adds nothing."""
    suggestion = finding.suggestion
    if suggestion is None or f'"{suggestion}"' in finding.message:
        return None
    return f"did you mean '{suggestion}'?"


def fixable(finding: Finding, unsafe_fixes: bool) -> bool:
    """True when ``--fix`` (with ``--unsafe-fixes`` when ``unsafe_fixes``) would apply the finding's fix."""
    fix = finding.fix
    return fix is not None and (unsafe_fixes or fix.applicability is Applicability.SAFE)


def fix_counts(result: ScanResult) -> tuple[int, int]:
    """``(fixable, more with --unsafe-fixes)``: the findings of ``result`` that ``--fix`` would fix with the
    options given, and those that ``--unsafe-fixes`` would fix besides (0 when it was given)."""
    now = sum(1 for finding in result.findings if fixable(finding, result.unsafe_fixes))
    more = sum(1 for finding in result.findings if finding.fix is not None) - now
    return now, more
