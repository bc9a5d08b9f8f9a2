"""The majority vote of the drift rules (RL004, RL005): the ref that pins of one remote which disagree
should all pin.

The rules group the pins into *sides* by what they build (a tag's or a commit id's commit, else the ref).
Each side votes, with its weight (RL004: its files; RL005: its pins), for what it should build:

- a side on a tag or a commit id votes for itself, and so does one whose ref the remote's list does not
  say is a branch (no ref list: offline, or not looked up);
- a side on a branch that RL002 reports (the ref list says the pin gets a branch, and the remote is not
  under ``head-tracking-remotes`` or ``branch-release-remotes``) votes for the tag RL002 suggests: the
  release tag of the same version (Megatron-LM's tag ``core_v0.13.0`` for its branch ``core_r0.13.0``).
  A branch without such a tag votes for itself, but wins only when every side is such a branch: a tag or
  a commit never loses to a branch.

The winner is what gets more votes than everything else (none on a tie). The sides that voted for it are
the majority: they are not reported, not even a branch that voted for its release tag, which RL002
reports with the fix to that tag (one finding per problem; that fix ends the drift too). The others are
out of step, and a fix takes them to the winner's ref: never to a branch that RL002 reports, unless they
are on one already.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ascend_reflint.check.context import ProjectContext
from ascend_reflint.check.refnames import (
    canonical_refs,
    gets_branch,
    is_abbreviated_commit_id,
    is_full_commit_id,
    pinned_ref,
)
from ascend_reflint.check.suggest import branch_release_tag
from ascend_reflint.model import Pin, RefType


class Majority(NamedTuple):
    """What the vote elected.

    Attributes:
        sides: the indexes of the sides that voted for it (not reported).
        ref: the ref to pin, as the majority writes it (a branch's release tag when only branches voted
            for that tag); None when the majority pins several refs of the remote (a file that pins two).
        ref_type: the recipe's own word for ``ref`` (uv's ``tag =``), as the majority's pins of it say.
        branches: the branches of the majority that voted for their release tag ``ref``, in order.
        known: True when ``ref`` is known not to be a branch that RL002 reports (a commit id, or the
            remote's ref list says so), or every side is on such a branch: only then may a fix take an
            odd pin to ``ref``.
    """

    sides: frozenset[int]
    ref: str | None
    ref_type: RefType | None
    branches: tuple[str, ...]
    known: bool = True

    def advice(self) -> str:
        """``pin "v1" as they do``; ``pin "core_v0.13.0", the release tag of their branch "core_r0.13.0"``
        when some of them pin a branch; ``pin what they pin`` when they pin several refs."""
        if self.ref is None:
            return "pin what they pin"
        if not self.branches:
            return f'pin "{self.ref}" as they do'
        named = " and ".join(f'"{branch}"' for branch in self.branches)
        return f'pin "{self.ref}", the release tag of their branch{"es" * (len(self.branches) > 1)} {named}'


class _Ballot(NamedTuple):
    """How one pin votes: for ``aim`` (a commit id or a ref, as :func:`canonical_refs` compares them);
    ``tag`` is the release tag it votes for instead of its branch; ``bare_branch`` marks a branch that
    RL002 reports and that has no release tag."""

    aim: str | None
    tag: str | None = None
    bare_branch: bool = False


def elect(context: ProjectContext, sides: Sequence[Sequence[Pin]], weights: Sequence[int]) -> Majority | None:
    """The majority of ``sides`` (see the module docstring).

    Args:
        context: the project (its ref lists, by remote, and the rule packs).
        sides: the pins of each side, one remote's; a side without pins (variants that do not pin the
            remote) votes for pinning nothing.
        weights: each side's votes.

    Returns:
        The :class:`Majority`, or None when no candidate has more votes than every other.
    """
    ballots = _ballots(context, [pin for side in sides for pin in side])
    aims = [frozenset(ballots[id(pin)].aim for pin in side) for side in sides]
    votes: dict[frozenset[str | None], int] = {}
    for aim, weight in zip(aims, weights, strict=True):
        votes[aim] = votes.get(aim, 0) + weight
    bare = {
        aim for aim, side in zip(aims, sides, strict=True) if any(ballots[id(p)].bare_branch for p in side)
    }
    candidates = [aim for aim in votes if aim not in bare] or list(votes)
    most = max(votes[aim] for aim in candidates)
    winners = [aim for aim in candidates if votes[aim] == most]
    if len(winners) != 1:
        return None
    chosen = frozenset(index for index, aim in enumerate(aims) if aim == winners[0])
    if len(winners[0]) != 1:
        return Majority(chosen, None, None, ())
    backers = [ballots[id(pin)] for index in sorted(chosen) for pin in sides[index]]
    pins = [pin for index in sorted(chosen) for pin in sides[index]]
    branches = tuple(dict.fromkeys(p.ref for p, b in zip(pins, backers, strict=True) if b.tag and p.ref))
    as_written = [pin for pin, ballot in zip(pins, backers, strict=True) if ballot.tag is None]
    if not as_written:
        return Majority(chosen, backers[0].tag, None, branches)
    first = as_written[0]
    known = first.remote in context.refs or is_commit_id(first.ref)
    return Majority(chosen, first.ref, first.ref_type, branches, known)


def _ballots(context: ProjectContext, pins: Sequence[Pin]) -> dict[int, _Ballot]:
    """``id(pin)`` → how it votes: the commit it builds when that cannot move, else its ref; a branch that
    RL002 reports votes for its release tag's commit."""
    raw: dict[int, _Ballot] = {}
    for pin in pins:
        built = context.fixed_commit(pin) or pin.ref
        tag = _release_tag(context, pin)
        if tag is None:
            raw[id(pin)] = _Ballot(built)
        elif tag:
            assert pin.remote is not None
            raw[id(pin)] = _Ballot(context.refs[pin.remote].tags[tag].lower(), tag)
        else:
            raw[id(pin)] = _Ballot(built, bare_branch=True)
    canonical = canonical_refs([ballot.aim for ballot in raw.values()])
    return {key: ballot._replace(aim=canonical(ballot.aim)) for key, ballot in raw.items()}


def _release_tag(context: ProjectContext, pin: Pin) -> str | None:
    """For a pin on a branch that RL002 reports, the release tag RL002 suggests, or ``""`` when there is
    none; None for any other pin (a tag, a commit id, a branch RL002 accepts, a ref of unknown kind)."""
    remote = pin.remote
    refs = context.refs.get(remote) if remote is not None else None
    ref = pinned_ref(pin)
    if refs is None or ref is None or not gets_branch(ref, refs):
        return None
    policy = context.policy
    if policy.is_head_tracking(remote) or policy.is_branch_release(remote):
        return None
    tag = branch_release_tag(ref.name, refs, shares_name=ref.kind is None and ref.name in refs.tags)
    return tag or ""


def is_commit_id(ref: str | None) -> bool:
    """True for a full or abbreviated commit id (7 to 40 hex digits)."""
    return ref is not None and (is_full_commit_id(ref) or is_abbreviated_commit_id(ref))
