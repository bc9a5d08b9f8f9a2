"""Report: formatters only format. Each takes the pipeline's values and returns or writes text."""

from __future__ import annotations

from ascend_reflint.model import Finding


def did_you_mean(finding: Finding) -> str | None:
    """``did you mean 'REF'?`` for a finding with a suggestion, or None: without one, or when the message
    already names it (``pin its release tag "core_v0.18.0"``), since saying it twice adds nothing."""
    suggestion = finding.suggestion
    if suggestion is None or f'"{suggestion}"' in finding.message:
        return None
    return f"did you mean '{suggestion}'?"
