"""Where a finding goes: where the fix edit goes.

A ref or URL that reaches a pin through a variable (``ARG VLLM_TAG=v0.27.0`` … ``--branch ${VLLM_TAG}``, a
shell ``TAG=…``, the default of ``${TAG:-…}``, a workflow ``env:``) is fixed where it is written, so a
finding about that value is reported there (:attr:`ascend_reflint.model.Pin.ref_origin`, ``url_origin``),
with the use as a related place. That is where ruff and hadolint users look, where an editor should jump,
and where an ignore comment belongs; the use stays one ``note`` away.

When the place where the value is written is in a file that the scan does not report on (pre-commit passes
the staged files; a build argument given by a workflow that is not staged), the finding stays at the use,
in the file given, with the definition as a related place: a finding that nobody sees helps nobody.

Either way the related place is marked :attr:`~ascend_reflint.model.Related.same_value`, so that a
``# reflint: ignore`` comment at either end suppresses the finding, and the finding keeps the fingerprint
it had at the use (:attr:`~ascend_reflint.model.Finding.use_path`).

Findings about what the command does rather than about the value stay at the use: RL003 (a shallow clone),
RL007 (``--branch`` given a commit id: the command changes), RL015 (a clone with no ref: ``--branch`` is
added to the command).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container

from ascend_reflint.model import Finding, Origin, Related, Span

#: The related place's message at the use, when the finding sits where the value is written.
USED_HERE = "the value is used here"
#: The related place's message at the definition, when the finding sits at the use.
SET_HERE = "the value is set here"


def placed(finding: Finding, origin: Origin | None, reported: Container[str]) -> Finding:
    """``finding`` (at a pin's use) moved to ``origin``, where the value it is about is written.

    Args:
        finding: a finding at the use, its span the ref's or URL's token there.
        origin: where that value is written, or None (written at the use).
        reported: the display paths the scan reports on.

    Returns:
        The finding at ``origin`` with the use related, when ``origin``'s file is reported on; else the
        finding at the use with ``origin`` related; ``finding`` itself when there is no origin. An origin
        inside the use (the default of ``--branch "${REF:-v1}"``) is where the finding goes, with no note
        pointing a few columns away.
    """
    if origin is None or (origin.path == finding.path and origin.span == finding.span):
        return finding
    if origin.path == finding.path and _inside(origin.span, finding.span):
        return dataclasses.replace(finding, span=origin.span)
    if origin.path in reported:
        use = Related(finding.path, finding.span.line, finding.span.column, USED_HERE, same_value=True)
        return dataclasses.replace(
            finding,
            path=origin.path,
            span=origin.span,
            related=(use, *finding.related),
            use_path=finding.path if origin.path != finding.path else None,
        )
    definition = Related(origin.path, origin.span.line, origin.span.column, SET_HERE, same_value=True)
    return dataclasses.replace(finding, related=(definition, *finding.related))


def _inside(inner: Span, outer: Span) -> bool:
    """Whether ``inner`` lies within ``outer`` (positions compared as (line, column) pairs)."""
    starts_within = (outer.line, outer.column) <= (inner.line, inner.column)
    ends_within = (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)
    return starts_within and ends_within


def at_value(origin: Origin | None, path: str, line: int, column: int) -> tuple[str, int, int]:
    """``(path, line, column)`` of where a pin's value is written: ``origin`` when there is one, else the
    use at ``path``, ``line``, ``column`` (for related places that point at another pin)."""
    if origin is None:
        return path, line, column
    return origin.path, origin.span.line, origin.span.column
