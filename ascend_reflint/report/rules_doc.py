"""``reflint rules``: every rule's code, name, default severity, whether it needs a lookup, and its doc."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, TextIO

from ascend_reflint.model import Applicability

if TYPE_CHECKING:
    from ascend_reflint.check.context import RuleInfo


def write_rules(
    stream: TextIO, codes: Collection[str] | None, output_format: str, *, listing: bool = False
) -> None:
    """Write the rules: each one's header and documentation, or (``listing``) one line each.

    Args:
        stream: where to write.
        codes: only the rules of these codes (:func:`ascend_reflint.check.rules.selected_codes` of what
            ``reflint rules`` was given); None for every rule.
        output_format: ``"text"`` or ``"json"`` (a list of records, whole documentation included, whether
            ``listing`` or not).
        listing: text only: ``CODE  name  severity  lookup  fix  summary`` per rule, aligned, as the
            README's rule table has them (the summary is the documentation's first line).
    """
    from ascend_reflint.check import all_rules

    rules = [rule for rule in all_rules() if codes is None or rule.code in codes]
    if output_format == "json":
        records = [
            {
                "code": r.code,
                "name": r.name,
                "severity": r.severity.label,
                "needs_lookup": r.needs_lookup,
                "fix": fix_kind(r.fixes),
                "doc": r.doc,
            }
            for r in rules
        ]
        from ascend_reflint.output import json_text

        stream.write(json_text(records))
    elif listing:
        stream.write("".join(line + "\n" for line in rule_lines(rules)))
    else:
        for rule in rules:
            stream.write(
                f"{rule.code} {rule.name} [{rule.severity.label}] ({_lookup(rule)}; {_fix(rule)})\n\n"
            )
            stream.write("".join(f"    {line}".rstrip() + "\n" for line in rule.doc.strip().splitlines()))
            stream.write("\n")


def rule_lines(rules: Sequence[RuleInfo]) -> list[str]:
    """One line per rule, its columns aligned: code, name, default severity, whether it needs a lookup,
    its fix, and what it reports (the first line of its documentation)."""
    rows = [(r.code, r.name, r.severity.label, _lookup(r), _fix(r)) for r in rules]
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(5)]
    return [
        "  ".join(
            [*(cell.ljust(width) for cell, width in zip(row, widths, strict=True)), rule.doc.splitlines()[0]]
        )
        for row, rule in zip(rows, rules, strict=True)
    ]


def _lookup(rule: RuleInfo) -> str:
    return "needs a lookup" if rule.needs_lookup else "no lookup"


def _fix(rule: RuleInfo) -> str:
    return f"{fix_kind(rule.fixes)} fix" if rule.fixes else "no fix"


def fix_kind(fixes: Sequence[Applicability]) -> str | None:
    """How a rule's findings are fixed: ``safe``, ``unsafe``, ``safe or unsafe`` (which one depends on the
    finding), or None for no fix."""
    return " or ".join(kind.value for kind in Applicability if kind in fixes) or None
