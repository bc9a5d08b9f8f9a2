"""``reflint rules``: every rule's code, name, default severity, whether it needs a lookup, and its doc."""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import TextIO

from ascend_reflint.model import Applicability


def write_rules(stream: TextIO, codes: Set[str], output_format: str) -> int:
    """Write the rule documentation.

    Args:
        stream: where to write.
        codes: only these rules, by code (any case) or kebab-case name (empty: all).
        output_format: ``"text"`` or ``"json"``.

    Returns:
        The exit code: 0, or 2 when a requested code does not exist.
    """
    from ascend_reflint.check import all_rules

    wanted = {code.upper() for code in codes} | {code.lower() for code in codes}
    rules = [rule for rule in all_rules() if not codes or rule.code in wanted or rule.name in wanted]
    unknown = sorted(
        code for code in codes if not any(code.upper() == r.code or code.lower() == r.name for r in rules)
    )
    if unknown:
        import sys

        from ascend_reflint.output import shown

        sys.stderr.write(f"reflint: error: unknown rule code(s): {shown(', '.join(unknown))}\n")
        return 2
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
        return 0
    for rule in rules:
        lookup = "needs a lookup" if rule.needs_lookup else "no lookup"
        fix = f"{fix_kind(rule.fixes)} fix" if rule.fixes else "no fix"
        stream.write(f"{rule.code} {rule.name} [{rule.severity.label}] ({lookup}; {fix})\n\n")
        stream.write("".join(f"    {line}".rstrip() + "\n" for line in rule.doc.strip().splitlines()))
        stream.write("\n")
    return 0


def fix_kind(fixes: Sequence[Applicability]) -> str | None:
    """How a rule's findings are fixed: ``safe``, ``unsafe``, ``safe or unsafe`` (which one depends on the
    finding), or None for no fix."""
    return " or ".join(kind.value for kind in Applicability if kind in fixes) or None
