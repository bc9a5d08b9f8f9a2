"""One finding per problem: when two rules report the same token, only the more specific one is kept.

Some rules describe one problem from two sides. RL002 (branch-pin) and RL013 (ambiguous-ref) both fire on
Megatron-LM's ``core_r0.10.0`` in ``git clone --branch core_r0.10.0``, a branch and a tag of one name, with
the same advice (pin ``core_v0.10.0``); the clone takes ``refs/heads`` (git-clone(1) ``--branch``; pip
prefers the branch too), so the branch pin is what gets built, and RL002 says so. The choice is made after
``--select``/``--ignore``, so that a user who turns RL002 off still gets RL013.
"""

from __future__ import annotations

from collections.abc import Sequence

from ascend_reflint.model import Finding

#: ``(kept, dropped)``: when both codes report one span of one file, the second is not reported.
PRECEDENCE: tuple[tuple[str, str], ...] = (("RL002", "RL013"),)


def without_overlaps(findings: Sequence[Finding]) -> list[Finding]:
    """``findings`` less each one that a more specific finding on the same token stands for.

    Args:
        findings: the findings after rule selection, in any order.

    Returns:
        The findings kept, in the order given.
    """
    at = {(finding.code, finding.path, finding.span) for finding in findings}
    dropped = {dropped for kept, dropped in PRECEDENCE}

    def overlapped(finding: Finding) -> bool:
        if finding.code not in dropped:
            return False
        stronger = (kept for kept, weaker in PRECEDENCE if weaker == finding.code)
        return any((code, finding.path, finding.span) in at for code in stronger)

    return [finding for finding in findings if not overlapped(finding)]
