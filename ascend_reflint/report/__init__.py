"""Report: formatters only format. Each takes the pipeline's values and returns or writes text."""

from __future__ import annotations

from typing import NamedTuple

from ascend_reflint.model import Applicability, Finding, ScanResult, Severity


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


class RuleCount(NamedTuple):
    """The findings of one rule at one severity, as ``--statistics`` counts them.

    Attributes:
        code: the rule's code (``RL002``).
        rule: the rule's name (``branch-pin``).
        severity: the severity of these findings (a rule's findings in documentation are capped to warnings,
            so a rule may have a count per severity).
        total: how many findings.
        fixable: how many of them ``--fix`` would fix with the options given (:func:`fixable`).
    """

    code: str
    rule: str
    severity: Severity
    total: int
    fixable: int


def rule_counts(result: ScanResult) -> list[RuleCount]:
    """The findings of ``result`` counted per rule and severity, most findings first, then by code, the
    higher severity first: the order of ruff's ``--statistics`` (count, then code), a line per severity so
    that the counts of each severity add up to the summary's totals."""
    counts: dict[tuple[str, Severity], list[int]] = {}
    names: dict[str, str] = {}
    for finding in result.findings:
        tally = counts.setdefault((finding.code, finding.severity), [0, 0])
        tally[0] += 1
        tally[1] += fixable(finding, result.unsafe_fixes)
        names[finding.code] = finding.rule
    ordered = sorted(counts, key=lambda key: (-counts[key][0], key[0], -key[1]))
    return [RuleCount(code, names[code], severity, *counts[code, severity]) for code, severity in ordered]
