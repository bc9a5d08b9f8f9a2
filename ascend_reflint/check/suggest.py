"""Which existing ref a pin most likely meant, and which refs to name in a message.

The rules (documented for users in RL001 and RL002):

1. **A versioned name** (``core_r0.18.0``, ``v0.11.0rc9``) is matched by version, never by spelling alone:
   version numbers matter more than letters (see :mod:`ascend_reflint.check.versions`).

   a. A ref that spells the *same version* (``core_v0.18.0`` for ``core_r0.18.0``) is the answer.
   b. Otherwise a ref of the *same release* whose last qualifier differs: the oldest one at or after the
      name asked for, else the newest one before it. ``v0.11.0rc9`` with tags up to ``v0.11.0rc3`` gives
      ``v0.11.0`` when that release exists (it supersedes every candidate), else ``v0.11.0rc3``.
   c. Otherwise a ref with the same numbers and a close spelling (``fp8-upcst-PV`` → ``fp8-upcast-PV``).
   d. Otherwise nothing: another version is never suggested (``core_v0.18.2`` is not ``core_v0.18.0``).

   In (a) and (b) a ref counts only when its parts are marked alike
   (:meth:`~ascend_reflint.check.versions.RefVersion.markers_agree`: ``1.0`` and ``core_v1.0`` for
   ``v1.0``, ``core_v0.18.0`` for ``core_r0.18.0``, never the build ``t00000001`` for ``v1``, whose
   zero-padded counter is not the version 1 either). Tags come before branches, and a branch counts only
   when its letters are close too (a difflib ratio of the skeletons of at least 0.5, or one skeleton ending
   with the other: ``releases/v#`` and ``v#``), so that bot branches such as ``ci/bump-0.20.0`` are not
   offered for ``core_r0.20.0``. Among equals: the exact analogue of the name asked for, which writes as
   many numbers (:attr:`~ascend_reflint.check.versions.RefVersion.components`: ``core_v0.11`` for
   ``core_r0.11``, ``core_v0.11.0`` for ``core_r0.11.0``, ``releases/v4`` for ``v4`` rather than
   ``releases/v4.0.0``); then the closest letters (``core_v`` is closer to ``core_r`` than ``v`` is), then
   the shorter name, then the name.
2. **A name without digits** is matched by spelling against the remote's names that hold no digits
   either: difflib's ratio at least :data:`NAME_CUTOFF`, or a few edits away (:func:`within_edits`:
   one letter added, dropped, changed or two swapped, two for long names).
3. **A branch of a proposed change** (:data:`~ascend_reflint.check.refindex.PROPOSAL_REF`:
   ``jww3-patch-1``, ``dependabot/…``, ``pull/…``, ``gh-readonly-queue/…``) is never an answer, however it
   is numbered, and a name of that form asked for is matched by spelling only, not as a version.
4. **A name that means "the default branch"** (:data:`DEFAULT_BRANCH_NAMES`: ``main``, ``master``, …)
   with no close spelling gets the remote's default branch, when it was asked for
   (:attr:`RemoteRefs.default_branch <ascend_reflint.model.RemoteRefs.default_branch>`, see
   :mod:`ascend_reflint.lookup.head`): ``--branch main`` on a remote whose default branch is ``master``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ascend_reflint.check.refindex import Candidate, index_of, is_proposal
from ascend_reflint.check.versions import RefVersion, parse_version
from ascend_reflint.model import RemoteRefs

#: The least difflib ratio at which a spelling counts as close (``hybrid_ep`` → ``hybrid-ep``: 0.89;
#: ``mian`` → ``main``: 0.75; ``v0.8.5-sleep-numa`` → ``v0.8.5``: 0.52, not close).
NAME_CUTOFF = 0.75
#: The least difflib ratio of two skeletons (``core_r#``, ``core_v#``) at which a branch of the same
#: release counts as a spelling of the name asked for.
BRANCH_LETTERS_CUTOFF = 0.5
#: The least ratio for the looser "nearest names" list in messages.
NEAREST_CUTOFF = 0.6
#: Names that stand for "the default branch": git's ``init.defaultBranch`` values and the usual others. Only
#: for these is the remote's default branch a suggestion (``feature-x`` missing says nothing about it).
DEFAULT_BRANCH_NAMES = frozenset({"main", "master", "trunk", "default", "develop", "development", "dev"})
_T = TypeVar("_T")


def ref_kind(name: str, refs: RemoteRefs) -> str:
    """``"tag"`` when ``name`` is a tag of the remote, else ``"branch"``."""
    return "tag" if name in refs.tags else "branch"


def same_version_tags(name: str, refs: RemoteRefs) -> list[str]:
    """Tags other than ``name`` that spell the same version as ``name``, best first.

    Args:
        name: a ref name, usually a branch (``core_r0.18.0``, ``release_v2.11``).
        refs: the remote's branches and tags.

    Returns:
        Tag names (``["core_v0.18.0"]``, ``["v2.11"]``); empty when ``name`` has no version or no tag
        matches.
    """
    return list(_remembered(refs, ("same_version_tags", name), lambda: _same_version_tags(name, refs)))


def _same_version_tags(name: str, refs: RemoteRefs) -> list[str]:
    wanted = _version_of(name)
    if wanted is None:
        return []
    matches = [
        c
        for c in index_of(refs).same_version(wanted)
        if c.is_tag and c.name != name and _marked_alike(wanted, c)
    ]
    return [candidate.name for candidate in sorted(matches, key=lambda c: _tie_break(wanted, c))]


def branch_release_tag(name: str, refs: RemoteRefs, *, shares_name: bool = False) -> str | None:
    """The tag RL002 suggests for the branch ``name``: the best of :func:`same_version_tags`; when a tag
    has the branch's very name (``shares_name``: Megatron-LM's ``core_r0.10.0``), the best that names only
    a tag, since a name that is also a branch would get the branch again.

    Returns:
        The tag name (``core_v0.13.0`` for ``core_r0.13.0``), or None when no tag spells the version.
    """
    tags = same_version_tags(name, refs)
    if shares_name:
        tags = [tag for tag in tags if tag not in refs.branches]
    return tags[0] if tags else None


def suggest_ref(name: str, refs: RemoteRefs) -> str | None:
    """The existing branch or tag that ``name`` most likely meant (see the module docstring).

    Args:
        name: a ref that is neither a branch nor a tag of the remote.
        refs: the remote's branches and tags.

    Returns:
        A branch or tag name, or None when nothing is close enough.
    """
    return _remembered(refs, ("suggest_ref", name), lambda: _suggest_ref(name, refs))


def _suggest_ref(name: str, refs: RemoteRefs) -> str | None:
    index = index_of(refs)
    wanted = _version_of(name)
    if wanted is None:
        close = _closest_spelling(name, _other(index.plain_near_in_length(name), name), NAME_CUTOFF)
        if close is None and name.lower() in DEFAULT_BRANCH_NAMES and refs.default_branch not in ("", None):
            return refs.default_branch
        return close
    same_release = [c for c in _other(index.same_release(wanted), name) if _marked_alike(wanted, c)]
    tags = [c for c in same_release if c.is_tag]
    branches = [c for c in same_release if not c.is_tag and _letters_close(wanted, c)]
    for group in (tags, branches):
        if group:
            return _best_of_release(wanted, group)
    return _closest_spelling(name, _other(index.same_numbers(wanted), name), NAME_CUTOFF)


def sole_suggestion(name: str, refs: RemoteRefs) -> str | None:
    """:func:`suggest_ref`'s answer when nothing else comes as close: the only name of the remote that
    passes the rule that chose it, or the one that beats every other there on letters (``core_v0.18.0``
    over ``v0.18.0`` for ``core_r0.18.0``); None when two names tie, or there is no answer. A fix writes
    this one; a message may name any.

    Args:
        name: a ref that is neither a branch nor a tag of the remote.
        refs: the remote's branches and tags.
    """
    return _remembered(refs, ("sole_suggestion", name), lambda: _sole_suggestion(name, refs))


def _sole_suggestion(name: str, refs: RemoteRefs) -> str | None:
    suggestion = suggest_ref(name, refs)
    if suggestion is None:
        return None
    index = index_of(refs)
    wanted = _version_of(name)
    if wanted is None:
        close = _by_spelling(name, _other(index.plain_near_in_length(name), name), NAME_CUTOFF)
        return suggestion if len(close) <= 1 else None
    same_release = _other(index.same_release(wanted), name)
    tags = [c for c in same_release if c.is_tag]
    branches = [c for c in same_release if not c.is_tag and _letters_close(wanted, c)]
    group = tags or branches
    if not group:
        close = _by_spelling(name, _other(index.same_numbers(wanted), name), NAME_CUTOFF)
        return suggestion if len(close) == 1 else None
    chosen = next(c for c in group if c.name == suggestion)
    assert chosen.version is not None
    rivals = [
        c
        for c in group
        if c is not chosen
        and c.version is not None
        and c.version.parts[-1].qualifier_key == chosen.version.parts[-1].qualifier_key
        and _tie_break(wanted, c)[:3] == _tie_break(wanted, chosen)[:3]
    ]
    return None if rivals else suggestion


def wants_default_branch(name: str, refs: RemoteRefs) -> bool:
    """True when only the remote's default branch can answer for the missing ``name``: it means "the
    default branch" (:data:`DEFAULT_BRANCH_NAMES`) and no name of the remote is spelt close to it. The
    lookup stage then asks the remote for it (:mod:`ascend_reflint.lookup.head`), once."""
    if name.lower() not in DEFAULT_BRANCH_NAMES or name in refs.branches or name in refs.tags:
        return False
    candidates = _other(index_of(refs).plain_near_in_length(name), name)
    return _closest_spelling(name, candidates, NAME_CUTOFF) is None


def within_edits(ours: str, theirs: str) -> bool:
    """True when ``theirs`` is one edit from ``ours`` (a letter added, dropped or changed, or two
    neighbours swapped: the optimal string alignment distance), two for names of 10 letters or more; never
    for names under 4 letters, where one edit makes another word (``dev``, ``doc``)."""
    if min(len(ours), len(theirs)) < 4:
        return False
    allowed = 2 if min(len(ours), len(theirs)) >= 10 else 1
    if abs(len(ours) - len(theirs)) > allowed:
        return False
    previous2: list[int] = []
    previous = list(range(len(theirs) + 1))
    for i, ours_char in enumerate(ours, start=1):
        current = [i] + [0] * len(theirs)
        for j, theirs_char in enumerate(theirs, start=1):
            cost = ours_char != theirs_char
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ours_char == theirs[j - 2] and ours[i - 2] == theirs_char:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1] <= allowed


def nearest_names(name: str, refs: RemoteRefs, limit: int = 3) -> list[str]:
    """A few names of the remote near ``name``, nearest first, for a message.

    Looser than :func:`suggest_ref`: a versioned name gets the tags, and the branches with close letters,
    that have the nearest numbers (``0.19`` and ``0.18`` for ``0.20``), those whose parts are marked alike
    first (``1.0`` before ``t00000002`` for ``v2``); a name without digits gets the closest spellings
    (ratio at least :data:`NEAREST_CUTOFF`).

    Args:
        name: the ref asked for.
        refs: the remote's branches and tags.
        limit: how many names at most.

    Returns:
        Up to ``limit`` names; empty when nothing is near.
    """
    return list(_remembered(refs, ("nearest_names", name, limit), lambda: _nearest_names(name, refs, limit)))


def _nearest_names(name: str, refs: RemoteRefs, limit: int) -> list[str]:
    index = index_of(refs)
    wanted = _version_of(name)
    if wanted is None:
        close = _by_spelling(name, _other(index.near_in_length(name), name), NEAREST_CUTOFF)
        return [candidate.name for candidate in close[:limit]]
    comparable = [
        c for c in _other(index.near_in_numbers(wanted), name) if c.is_tag or _letters_close(wanted, c)
    ]
    comparable.sort(key=lambda c: _nearness(wanted, c))
    return [candidate.name for candidate in comparable[:limit]]


def _nearness(wanted: RefVersion, candidate: Candidate) -> tuple[Any, ...]:
    """How near ``candidate`` is to the version asked for: parts marked alike first, then the numbers, then
    the letters (smaller is nearer)."""
    assert candidate.version is not None
    marked_alike = wanted.markers_agree(candidate.version)
    return (not marked_alike, *_number_distance(wanted, candidate.version), *_tie_break(wanted, candidate))


def newest_release_tag(refs: RemoteRefs) -> str | None:
    """The remote's newest final-release tag, by version numbers.

    Tags are grouped by skeleton (``core_v#``, ``v#``); the largest group is the remote's release line
    (Megatron-LM: ``core_v0.19.0``, not its stray ``v2.6``); ties go to the group whose newest tag is
    newer.

    Args:
        refs: the remote's branches and tags.

    Returns:
        A tag name, or None when no tag is a final release (``rc``, ``-dev`` and such are not).
    """
    return _remembered(refs, ("newest_release_tag",), lambda: _newest_release_tag(refs))


def _newest_release_tag(refs: RemoteRefs) -> str | None:
    families: dict[str, list[tuple[tuple[tuple[int, ...], ...], str]]] = {}
    for candidate in index_of(refs).versioned():
        version = candidate.version
        if candidate.is_tag and version is not None and version.is_release:
            families.setdefault(version.skeleton, []).append((version.numbers, candidate.name))
    if not families:
        return None
    release_line = max(families.values(), key=lambda family: (len(family), max(family)))
    return max(release_line)[1]


def _remembered(refs: RemoteRefs, key: tuple[Any, ...], compute: Callable[[], _T]) -> _T:
    """``compute()``, remembered with the ref list's index (:func:`~ascend_reflint.check.refindex.index_of`)
    under ``key``: the rules ask the same questions of a remote for every pin that names the same ref."""
    return index_of(refs).remembered(key, compute)


def _version_of(name: str) -> RefVersion | None:
    """The version ``name`` spells, None for a branch of a proposed change (``jww3-patch-1``,
    ``dependabot/…``: :func:`~ascend_reflint.check.refindex.is_proposal`), whose number is no release's."""
    return None if is_proposal(name) else parse_version(name)


def _other(candidates: Sequence[Candidate], name: str) -> list[Candidate]:
    """``candidates`` but ``name`` itself."""
    return [candidate for candidate in candidates if candidate.name != name]


def _best_of_release(wanted: RefVersion, candidates: Sequence[Candidate]) -> str:
    asked = wanted.parts[-1].qualifier_key

    def qualifier(candidate: Candidate) -> tuple[tuple[int, int], ...]:
        assert candidate.version is not None
        return candidate.version.parts[-1].qualifier_key

    later = [qualifier(c) for c in candidates if qualifier(c) >= asked]
    target = min(later) if later else max(qualifier(c) for c in candidates)
    group = [c for c in candidates if qualifier(c) == target]
    return min(group, key=lambda c: _tie_break(wanted, c)).name


def _marked_alike(wanted: RefVersion, candidate: Candidate) -> bool:
    assert candidate.version is not None
    return wanted.markers_agree(candidate.version)


def _letters_close(wanted: RefVersion, candidate: Candidate) -> bool:
    assert candidate.version is not None
    ours, theirs = wanted.skeleton, candidate.version.skeleton
    if _skeleton_ratio(ours, theirs) >= BRANCH_LETTERS_CUTOFF:
        return True
    shorter, longer = sorted((ours, theirs), key=len)
    return any(ch.isalpha() for ch in shorter) and longer.endswith(shorter)


def _tie_break(wanted: RefVersion, candidate: Candidate) -> tuple[bool, bool, float, int, str]:
    """Among names of one version or release (smaller is better): tags, then the names that write as many
    numbers as the one asked for (rule 1, "exact analogues"), then the closest letters, the shorter name,
    the name."""
    assert candidate.version is not None
    letters = _skeleton_ratio(wanted.skeleton, candidate.version.skeleton)
    analogue = candidate.version.components == wanted.components
    return (not candidate.is_tag, not analogue, -letters, len(candidate.name), candidate.name)


@functools.lru_cache(maxsize=4096)
def _skeleton_ratio(ours: str, theirs: str) -> float:
    """difflib's ratio of two skeletons (few distinct ones: ``core_r#``, ``v#``, ``release_v#``)."""
    import difflib  # not at the top: a scan that suggests nothing never needs it

    return difflib.SequenceMatcher(None, ours, theirs).ratio()


def _closest_spelling(name: str, candidates: Sequence[Candidate], cutoff: float) -> str | None:
    close = _by_spelling(name, candidates, cutoff)
    return close[0].name if close else None


def _by_spelling(name: str, candidates: Sequence[Candidate], cutoff: float) -> list[Candidate]:
    """Candidates whose spelling is at least ``cutoff`` close to ``name`` (case ignored), closest first."""
    import difflib

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(name.lower())
    scored: list[tuple[float, bool, str, Candidate]] = []
    for candidate in candidates:
        lower = candidate.name.lower()
        matcher.set_seq1(lower)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            ratio = matcher.ratio()
            if ratio >= cutoff:
                scored.append((-ratio, not candidate.is_tag, candidate.name, candidate))
                continue
        if within_edits(name.lower(), lower):
            scored.append((-matcher.ratio(), not candidate.is_tag, candidate.name, candidate))
    return [entry[-1] for entry in sorted(scored, key=lambda entry: entry[:3])]


def _number_distance(wanted: RefVersion, other: RefVersion) -> tuple[int, int]:
    """``(-agreeing, gap)``: how many leading numbers agree (more is nearer) and the gap at the first
    number that differs (smaller is nearer). Equal numbers sort before any difference."""
    agreeing = 0
    for ours, theirs in zip(wanted.numbers, other.numbers, strict=True):
        width = max(len(ours), len(theirs))
        for a, b in zip(_padded(ours, width), _padded(theirs, width), strict=True):
            if a != b:
                return (-agreeing, abs(a - b))
            agreeing += 1
    return (-(agreeing + 1), 0)


def _padded(numbers: tuple[int, ...], width: int) -> tuple[int, ...]:
    return numbers + (0,) * (width - len(numbers))
