"""What a ref name means to git, pip and GitHub Actions: a commit id, a branch, a tag.

Facts used here:

- git-clone(1) ``--branch``: takes a branch name or a tag name, nothing else; a branch wins when both exist.
- gitrevisions(7) "<refname>": ``git checkout NAME`` in a fresh clone resolves ``refs/tags/NAME`` before
  ``refs/heads/NAME`` (the only local branch is the one the clone checked out), so a tag wins.
- pip's ``Git.get_revision_sha`` checks ``refs/remotes/origin/NAME`` before ``refs/tags/NAME``: a branch wins.
  pip takes commit ids too (it clones the whole history, then checks the id out).
- GitHub Actions resolves ``uses: owner/repo@NAME`` to the tag when a tag and a branch share the name
  (zizmor's "ref-confusion" audit), and takes only full 40-character commit ids since 2021-02-15 (GitHub
  changelog "GitHub Actions: Short SHA deprecation").
- pre-commit runs ``git fetch origin REV`` (a refspec: ``SRC:DST`` fetches SRC; a name resolves as
  gitrevisions(7) says, a tag before a branch); Poetry's ``rev`` tries a tag before a branch; uv's ``rev``
  a branch before a tag (:mod:`ascend_reflint.extract.pyproject`). uv's and Poetry's ``tag =`` and uv's
  ``branch =`` name one kind of ref (:attr:`Pin.ref_type`).
- ``git submodule update --remote`` follows the submodule's ``branch``, a branch of its remote
  (git-submodule(1)).
- CMake's ExternalProject and FetchContent (and CPM.cmake, which hands its ``GIT_TAG`` to FetchContent)
  clone and then run ``git checkout GIT_TAG --``: read as ``git checkout`` reads a name (CMake's documentation
  suggests ``origin/NAME`` for a branch). BuildKit's git source (``ADD URL.git#REF``) takes the branch when a
  branch and a tag share the name (``source/git/source.go``, ``resolveMetadataFromURL``).
- gitrevisions(7): ``refs/heads/X`` and ``refs/tags/X`` name one ref each; in a clone, ``origin/X`` is the
  remote's branch X and ``tags/X`` its tag X.
- An abbreviated object name is at least 4 hex digits (gitrevisions(7)); reflint counts only 7 or more,
  git's default ``core.abbrev``, as commit ids, because shorter hex names are usually words (``cafe``).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ascend_reflint.check.refindex import index_of
from ascend_reflint.model import Pin, RefType, RemoteRefs, Span, Via

_FULL_COMMIT_ID = re.compile(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}")
_ABBREVIATED_COMMIT_ID = re.compile(r"[0-9a-fA-F]{7,39}")
#: 4 to 6 hex digits, a digit and a letter among them: shorter than reflint looks up, but git resolves it
#: (gitrevisions(7): "a leading substring that is unique within the repository"; git's minimum is 4).
_SHORT_COMMIT_ID = re.compile(r"(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{4,6}")
_LOCAL_NAMES = frozenset({"HEAD", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD"})
_EXPRESSION_MARKS = ("~", "^", ":", "@{")
_FULL_PREFIXES = {"refs/heads/": RefType.BRANCH, "refs/tags/": RefType.TAG}
_CLONE_PREFIXES = {"origin/": RefType.BRANCH, "tags/": RefType.TAG}
#: Ways of pinning that take the tag when a branch and a tag share the name (see the module docstring).
_TAG_FIRST = (
    Via.CHECKOUT,
    Via.ACTION,
    Via.PRE_COMMIT,
    Via.POETRY,
    Via.FETCHCONTENT,
    Via.EXTERNAL_PROJECT,
    Via.CPM,
)
#: Ways of pinning that check the ref out in a clone, where ``origin/NAME`` and ``tags/NAME`` name the
#: remote's branch and tag.
_CHECKS_OUT = (Via.CHECKOUT, Via.FETCHCONTENT, Via.EXTERNAL_PROJECT, Via.CPM)

#: How each way of pinning names a git command for messages.
COMMAND = {
    Via.CLONE: "`git clone`",
    Via.CLONE_BRANCH: "`git clone --branch`",
    Via.CHECKOUT: "`git checkout`",
    Via.PIP_VCS: "pip",
    Via.ACTION: "GitHub Actions",
    Via.SUBMODULE: "`git submodule update`",
    Via.UV_SOURCE: "uv",
    Via.POETRY: "Poetry",
    Via.PRE_COMMIT: "pre-commit",
    Via.FETCHCONTENT: "FetchContent",
    Via.EXTERNAL_PROJECT: "ExternalProject",
    Via.CPM: "CPM.cmake",
    Via.GITLAB_INCLUDE: "GitLab's `include: project:`",
    Via.ADD_GIT: "BuildKit's `ADD` of a git repository",
    Via.BUILD_CONTEXT: "the build of a git repository context",
    Via.CARGO: "`cargo install --git`",
    Via.NPM: "npm",
}


class NamedRef(NamedTuple):
    """A ref that a pin asks git for, read as a branch or tag name to look up.

    Attributes:
        written: the ref as the pin holds it (resolved), e.g. ``origin/main``.
        name: the branch or tag name to look for on the remote, e.g. ``main``.
        kind: :attr:`RefType.BRANCH` or :attr:`RefType.TAG` when the written form names only one
            (``refs/tags/v1``, ``origin/main``), None when a branch or a tag may answer.
        span: where the ref is written.
        via: how it is fetched (``CLONE_BRANCH`` for the ``--branch`` of a clone that a checkout follows).
    """

    written: str
    name: str
    kind: RefType | None
    span: Span
    via: Via


def named_refs(pin: Pin) -> list[NamedRef]:
    """The refs a resolved pin asks git for, in file order.

    A clone followed by a checkout asks for two: the clone's ``--branch`` (fetched as by
    ``git clone --branch``, span :attr:`Pin.clone_ref_span`) and then the checked-out ref. A submodule asks
    for its commit and for the branch that ``git submodule update --remote`` follows. Refs that name no
    branch or tag of the remote by themselves (``HEAD~1``, ``FETCH_HEAD``, ``refs/pull/1/head``) are left
    out: git resolves them in the clone.

    Returns:
        The refs; empty for an unresolved pin or a pin with no ref.
    """
    if not pin.resolved:
        return []
    clone_ref = None
    if pin.clone_ref:
        span = pin.clone_ref_span or pin.span
        if pin.via is Via.SUBMODULE:
            clone_ref = NamedRef(pin.clone_ref, pin.clone_ref, RefType.BRANCH, span, pin.via)
        else:
            clone_ref = _named(pin.clone_ref, span, Via.CLONE_BRANCH)
    return [ref for ref in (clone_ref, pinned_ref(pin)) if ref is not None]


def pinned_ref(pin: Pin) -> NamedRef | None:
    """The ref the pin ends up on (its ``ref``, not a clone's ``--branch``); None as in :func:`named_refs`."""
    if not pin.resolved or not pin.ref:
        return None
    if pin.ref_type is not None:
        return NamedRef(pin.ref, pin.ref, pin.ref_type, pin.span, pin.via)
    return _named(pin.ref, pin.span, pin.via)


def _named(written: str, span: Span, via: Via) -> NamedRef | None:
    """Read ``written`` as git (``--branch``), ``git checkout``, pip or GitHub Actions would.

    gitrevisions(7): ``refs/heads/X`` and ``refs/tags/X`` name one ref; in a clone ``origin/X`` is the
    remote's branch X and ``tags/X`` its tag X; ``HEAD``, ``FETCH_HEAD``, ``ORIG_HEAD`` and expressions
    with ``~``, ``^``, ``:`` or ``@{`` are resolved locally. ``git clone --branch`` takes a bare name only.
    """
    if via is Via.CLONE_BRANCH:
        return NamedRef(written, written, None, span, via)
    if via is Via.PRE_COMMIT:
        return _named_refspec(written, span)
    if written in _LOCAL_NAMES or any(mark in written for mark in _EXPRESSION_MARKS):
        return None
    prefixes = dict(_FULL_PREFIXES)
    if via in _CHECKS_OUT:
        prefixes.update(_CLONE_PREFIXES)
    for prefix, kind in prefixes.items():
        if written.startswith(prefix):
            return NamedRef(written, written.removeprefix(prefix), kind, span, via)
    if written.startswith("refs/"):
        return None
    return NamedRef(written, written, None, span, via)


def _named_refspec(written: str, span: Span) -> NamedRef | None:
    """pre-commit's ``rev``, which ``git fetch origin`` takes as a refspec: ``[+]SRC[:DST]`` fetches SRC."""
    source = written.removeprefix("+").split(":", 1)[0]
    named = _named(source, span, Via.PIP_VCS) if source else None  # a name as pip's: no clone-local prefixes
    return NamedRef(written, named.name, named.kind, span, Via.PRE_COMMIT) if named is not None else None


def exists(ref: NamedRef, refs: RemoteRefs) -> bool:
    """True when the remote has the branch or tag that ``ref`` names."""
    in_branches = ref.kind is not RefType.TAG and ref.name in refs.branches
    in_tags = ref.kind is not RefType.BRANCH and ref.name in refs.tags
    return in_branches or in_tags


#: What git-check-ref-format(1) refuses anywhere in a ref name: ``..``, ``@{``, ``//``, control characters,
#: space, ``~ ^ : ? * [ \\``, a part that starts with ``.`` or ends with ``.lock``.
_NOT_IN_REF_NAME = re.compile(r"\.\.|@\{|//|[\x00-\x20\x7f~^:?*\[\\]|(?:^|/)\.|\.lock(?:/|$)")


def is_ref_name(name: str) -> bool:
    """True when ``name`` can be a branch or tag name, which ``git clone --branch`` takes (git-clone(1)),
    by git-check-ref-format(1)'s rules: not a revision such as ``core_v0.12.1~3``, ``v1^{commit}``,
    ``main@{2}`` or ``A..B``; not empty, ``@``, or ending with ``/`` or ``.``."""
    if name in ("", "@") or name.startswith("/") or name.endswith(("/", ".")):
        return False
    return _NOT_IN_REF_NAME.search(name) is None


def is_full_commit_id(name: str) -> bool:
    """True for a full object name: 40 hex digits (SHA-1) or 64 (SHA-256), either case."""
    return _FULL_COMMIT_ID.fullmatch(name) is not None


def is_abbreviated_commit_id(name: str) -> bool:
    """True for 7 to 39 hex digits: an abbreviated commit id, unless the remote has a ref of that name."""
    return _ABBREVIATED_COMMIT_ID.fullmatch(name) is not None


def is_short_commit_id(name: str) -> bool:
    """True for 4 to 6 hex digits with both a digit and a letter (``75f5``): too short for reflint to look up
    as a commit id, yet one that git takes while no other object of the repository starts with it."""
    return _SHORT_COMMIT_ID.fullmatch(name) is not None


def takes_abbreviated_commit_ids(ref: NamedRef) -> bool:
    """True when the way ``ref`` is pinned takes an abbreviated commit id (``git checkout``, pip …; not
    ``git clone --branch``, not ``uses:``, which takes full ids only) and it names no branch or tag."""
    return ref.kind is None and ref.via in _TAKES_COMMITS and ref.via is not Via.ACTION


#: Ways of pinning that take a commit id (GitHub Actions only a full one; a submodule is its commit).
_TAKES_COMMITS = (
    Via.CHECKOUT,
    Via.PIP_VCS,
    Via.ACTION,
    Via.SUBMODULE,
    Via.UV_SOURCE,
    Via.POETRY,
    Via.PRE_COMMIT,
    Via.FETCHCONTENT,
    Via.EXTERNAL_PROJECT,
    Via.CPM,
    Via.GITLAB_INCLUDE,
    Via.ADD_GIT,
    Via.BUILD_CONTEXT,
    Via.CARGO,
    Via.NPM,
)


def pinned_commit(pin: Pin, refs: RemoteRefs | None = None) -> str | None:
    """The commit id that ``pin`` checks out, lower-cased, or None when it pins no commit id.

    A pin names a commit when ``git checkout``, pip or ``uses:`` is given a full id, or (not ``uses:``,
    which takes only full ids) an abbreviated one, that is not also the name of a branch or tag of the
    remote (``refs``; without it, any hex name of 7 digits or more counts).
    """
    ref = pinned_ref(pin)
    if ref is None or ref.kind is not None or ref.via not in _TAKES_COMMITS:
        return None
    name = ref.name
    if not is_full_commit_id(name) and (ref.via is Via.ACTION or not is_abbreviated_commit_id(name)):
        return None
    if refs is not None and exists(ref, refs):
        return None
    return name.lower()


def fixed_commit(pin: Pin, refs: RemoteRefs | None) -> str | None:
    """The commit ``pin`` builds when that cannot move: the commit id it pins (lower-case, as written:
    maybe abbreviated), or the commit of the tag it ends up on, as the remote's ref list says (tags peeled;
    a tag is not expected to move, git-tag(1) "On Re-tagging"); None for a branch, which moves, for a name
    the ref list lacks, and for a name without a ref list.
    """
    commit = pinned_commit(pin, refs)
    if commit is not None or refs is None:
        return commit
    ref = pinned_ref(pin)
    if ref is None or ref.kind is RefType.BRANCH or gets_branch(ref, refs):
        return None
    tag = refs.tags.get(ref.name)
    return tag.lower() if tag is not None else None


def same_commit(first: str | None, second: str | None) -> bool:
    """True when two commit ids (any case, full or abbreviated) name one commit: one starts with the other;
    None is no commit and equals nothing."""
    if first is None or second is None:
        return False
    shorter, longer = sorted((first.lower(), second.lower()), key=len)
    return longer.startswith(shorter)


def gets_branch(ref: NamedRef, refs: RemoteRefs) -> bool:
    """True when ``ref`` ends up on a branch of the remote (see the module docstring for who prefers what)."""
    if ref.kind is RefType.TAG or ref.name not in refs.branches:
        return False
    tag_wins = ref.kind is None and ref.via in _TAG_FIRST
    return not (tag_wins and ref.name in refs.tags)


def first_tip(commit_id: str, refs: RemoteRefs) -> tuple[str, str] | None:
    """The tag, else the branch, whose tip commit starts with ``commit_id``, first by name.

    Args:
        commit_id: a full or abbreviated commit id (any case).
        refs: the remote's branches and tags (tag ids are already peeled to commits).

    Returns:
        ``(kind, name)``, ``kind`` being ``"tag"`` or ``"branch"``; None when no tip starts so. Found by
        bisection in the ref list's index (:mod:`ascend_reflint.check.refindex`).
    """
    return index_of(refs).first_tip(commit_id)


def describe_counts(refs: RemoteRefs) -> str:
    """``"427 branches and 76 tags"`` (singular forms for one, ``"no branches or tags"`` for none)."""
    if not refs.branches and not refs.tags:
        return "no branches or tags"
    return f"{_count(len(refs.branches), 'branch', 'branches')} and {_count(len(refs.tags), 'tag', 'tags')}"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def same_ref(first: str | None, second: str | None) -> bool:
    """True when two pins' refs name the same thing: the same text, or two commit ids (7 hex digits or
    more, any case) one of which abbreviates the other. ``None`` (no ref: the default branch) equals only
    ``None``."""
    if first == second:
        return True
    if first is None or second is None:
        return False
    commit_ids = all(is_full_commit_id(ref) or is_abbreviated_commit_id(ref) for ref in (first, second))
    shorter, longer = sorted((first.lower(), second.lower()), key=len)
    return commit_ids and longer.startswith(shorter)


def canonical_refs(refs: Sequence[str | None]) -> Callable[[str | None], str | None]:
    """A function that maps a ref to the form it is compared in: a commit id to the longest id of
    ``refs`` that it abbreviates (or is; the first in order of those as long), lower-cased; any other ref to
    itself. Each call costs a binary search and the ids that start alike, not a pass over all ids."""
    commits = sorted(
        {ref.lower() for ref in refs if ref and (is_full_commit_id(ref) or is_abbreviated_commit_id(ref))}
    )

    def canonical(ref: str | None) -> str | None:
        if ref is None or not (is_full_commit_id(ref) or is_abbreviated_commit_id(ref)):
            return ref
        lower = ref.lower()
        best = lower
        # The ids that start with `lower` follow it in sorted order (`lower` itself is among them).
        for commit in itertools.islice(commits, bisect.bisect_left(commits, lower), None):
            if not commit.startswith(lower):
                break
            if len(commit) > len(best):
                best = commit
        return best

    return canonical
