"""A commit pin whose version comment names a tag that points elsewhere.

## What it does

Reads the comment beside a pinned commit id that names the version it stands for
(`uses: actions/checkout@<commit> # v4.2.2`, pre-commit's `rev: <commit>  # frozen: v6.0.0`, Renovate's
`# tag=v1.2.3`) and checks it against the remote's tags: the finding reports a comment whose tag points at
another commit (the peeled commit of an annotated tag, as `git ls-remote` lists it), and one that names a
tag the remote does not have. A comment that names a branch (`# main`) is not checked: a branch moves. A
pinned commit that the remote does not have at all is RL001's one finding, which names the comment's tag
and its commit.

## Why is this bad?

Reviewers, Dependabot and Renovate read the comment, not the commit id: a comment that lies hides what is
really built, whether by a slip (the commit was updated and the comment not) or on purpose (a pull
request that swaps the commit of a trusted release for another, keeping the reassuring comment). zizmor
("ref-version-mismatch") and pinact ("verify") check this for workflows; reflint checks every kind of file
that keeps such a comment.

## Example

```yaml
- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.1.0
```

## Use instead

```yaml
- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
```

## Fix

Safe (only the comment changes): the comment is corrected to the tag that points at the pinned commit,
when one does (a tag of the same naming scheme as the comment's first, then the newest release). When no
tag points at it there is no fix: pin the commit of the tag the comment names, or correct the comment.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import pinned_commit
from ascend_reflint.check.versions import parse_version
from ascend_reflint.model import Applicability, CommitState, Edit, Finding, Fix, Pin, RemoteRefs, Severity

CODE = "RL023"
NAME = "version-comment-mismatch"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = True
FIXES = (Applicability.SAFE,)


def check(context: PinContext) -> Iterator[Finding]:
    """Report a version comment whose tag is missing or points at another commit than the pin's."""
    pin, refs = context.pin, context.refs
    claimed = pin.version_comment
    if refs is None or claimed is None or pin.version_comment_span is None:
        return
    commit = pinned_commit(pin, refs)
    if commit is None or (context.commit is not None and context.commit.state is CommitState.ABSENT):
        return  # a commit that is not there at all is RL001's, which names the comment's tag
    tagged = refs.tags.get(claimed)
    if tagged is not None and tagged.startswith(commit):
        return
    if tagged is None and claimed in refs.branches:
        return
    said = f'the comment says the pinned commit {commit[:12]} is "{claimed}"'
    if tagged is None:
        head = f"{said}, which is not a tag of {refs.remote}"
    else:
        head = f"{said}, but that tag points at {tagged[:12]}"
    actual = _tag_at(commit, claimed, refs)
    if actual is None:
        yield context.finding(
            f"{head}; no tag points at the pinned commit: pin the commit of the tag meant, or correct the "
            "comment",
            span=pin.version_comment_span,
            ref=claimed,
        )
        return
    yield context.finding(
        f'{head}; the pinned commit is tag "{actual}"',
        span=pin.version_comment_span,
        ref=claimed,
        suggestion=actual,
        fix=_corrected(pin, claimed, actual),
    )


def _tag_at(commit: str, claimed: str, refs: RemoteRefs) -> str | None:
    """The tag that points at ``commit`` (a full or abbreviated id) and best replaces ``claimed``: one of
    the same naming scheme first (``v4.2.2`` for ``v4.1.0``, not ``4.2.2``), a release before a
    pre-release, then the newest version, then the longest name (``v4.2.2`` before its alias ``v4``)."""
    tags = [tag for tag, tagged in refs.tags.items() if tagged.startswith(commit)]
    if not tags:
        return None
    wanted = parse_version(claimed)

    def rank(tag: str) -> tuple[bool, bool, tuple[tuple[int, ...], ...], int, str]:
        version = parse_version(tag)
        same_scheme = wanted is not None and version is not None and version.skeleton == wanted.skeleton
        release = version is not None and version.is_release
        numbers = version.numbers if version is not None else ()
        return (same_scheme, release, numbers, len(tag), tag)

    return max(tags, key=rank)


def _corrected(pin: Pin, claimed: str, actual: str) -> Fix | None:
    from ascend_reflint.check.fixes import make_fix, writable

    if pin.version_comment_span is None or not writable(actual):
        return None
    edit = Edit(pin.path, pin.version_comment_span, actual, expected=claimed)
    return make_fix(Applicability.SAFE, f'correct the comment to "{actual}"', [edit])
