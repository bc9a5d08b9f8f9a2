"""A pinned ref is neither a branch nor a tag of its remote, nor a commit id the pin may name.

## What it does

Looks every pinned ref up in its remote's branches and tags (one `git ls-remote` per remote) and reports
a ref that is neither. The `--branch` of a clone that a `git checkout` follows is checked too: git looks
that one up first; so is the `branch` of a git submodule, which `git submodule update --remote` follows.
Where a recipe says which kind of ref it names (uv's `tag =` and `branch =`, Poetry's `tag =`), only that
kind counts.

A commit id that `git checkout`, pip or `uses:` is given is looked up in the remote's history (see RL008
for how), and reported here when it is not there: an abbreviated id that no commit of the remote's
branches and tags starts with, or a full id that none of them contains and that the server will not hand
out by id either. (A commit the server does hand out by id, outside every branch and tag, is RL025; an
abbreviated id that several commits start with is RL026.) When the absent commit carries a version comment
(`uses: actions/checkout@<commit> # v4.2.2`), the finding names the comment's tag and the commit that tag
points at: RL023, which checks such comments, leaves this case to RL001 (one problem, one finding).
`git clone --branch` never takes a commit id (RL007). A name of 7 to 39 hex digits counts as an
abbreviated commit id unless the remote has a ref of that name (date tags such as `20251214` are refs).
GitHub Actions takes only full 40-character commit ids, so a short one in `uses:` is reported here. A name
of 4 to 6 hex digits, a digit and a letter among them (`@75f5`), that is no ref is reported as a warning:
git takes it as an abbreviated commit id while exactly one object of the repository starts with it, but it
is too short for reflint to verify (and the more the repository grows, the likelier another object starts
with it).

The finding suggests the ref you most likely meant. Version numbers matter more than letters: the same
version spelt another way comes first (`core_v0.18.0` for `core_r0.18.0`); then another release
candidate or the release of the same version (the oldest at or after the one asked for, else the newest
before it: `v0.11.0` for `v0.11.0rc9` when 0.11.0 is out, else `v0.11.0rc3`); tags before branches;
then the exact analogue, which writes as many numbers (`llmb-r0.4` for `llmb-v0.4`, `llmb-r0.4.0` for
`llmb-v0.4.0`, `1.0.0` rather than the major tag `v1` for `v1.0.0`); never another version
(`core_v0.18.2` is not offered for `core_v0.18.1`), nor a number marked another way (`1.0` is offered
for `v1.0`, since a `v` only marks a version, but the build tag `t00000001` is not offered for `v1`:
another letter, and a zero-padded counter rather than the version 1; a two-digit `01` is a calendar
month, so `2026.01.05` is offered for `v2026.1.5`). A name without digits gets the
closest spelling, or a name a letter or two away (`hybrid_ep` → `hybrid-ep`, `maser` → `master`); a name
that means "the default branch" (`main`, `master`, `trunk`, `develop`, …) with none close gets the
remote's actual default branch (`--branch main` where the default is `master`), asked for with
`git ls-remote --symref -- URL HEAD` only then, once per remote, and cached. A branch of a proposed
change is never offered, however it is numbered: GitHub's web editor's `USER-patch-N`, `dependabot/…`,
`renovate/…`, `pull/…`, the merge queue's `gh-readonly-queue/…`. The message names the
suggestion, as a fact, or, when there is none, a few of the nearest refs; and how many branches and tags
the remote has.

## Why is this bad?

The build fails at this line: `git clone --branch` stops with "Remote branch not found in upstream
origin", `git checkout` (and pip, which runs it) with "pathspec ... did not match any file(s) known to
git".
In a Dockerfile that is after every earlier layer has been built, and in CI after the runner has been
set up.

## Example

```dockerfile
RUN git clone --depth 1 --branch v0.11.0rc9 https://github.com/vllm-project/vllm-ascend.git
```

## Use instead

```dockerfile
RUN git clone --depth 1 --branch v0.11.0 https://github.com/vllm-project/vllm-ascend.git
```

## Fix

Unsafe (the build gets a ref it did not name): the suggestion replaces the ref where it is written, only
when it is the one name that close (the same version spelt one way, one spelling a letter away, the
default branch for `main`); a suggestion that another name ties with has no fix.
An absent commit id whose version comment names a tag of the remote is replaced by the commit of that
tag.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import (
    COMMAND,
    NamedRef,
    describe_counts,
    exists,
    first_tip,
    is_abbreviated_commit_id,
    is_full_commit_id,
    is_short_commit_id,
    named_refs,
    takes_abbreviated_commit_ids,
)
from ascend_reflint.check.suggest import (
    DEFAULT_BRANCH_NAMES,
    nearest_names,
    ref_kind,
    sole_suggestion,
    suggest_ref,
)
from ascend_reflint.check.versions import parse_version
from ascend_reflint.model import (
    Applicability,
    CommitState,
    Finding,
    Fix,
    Pin,
    RefType,
    Related,
    RemoteRefs,
    Severity,
    Via,
)

CODE = "RL001"
NAME = "ref-not-found"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = True
FIXES = (Applicability.UNSAFE,)

_FAILS = {
    Via.CLONE_BRANCH: "`git clone --branch` fails",
    Via.CHECKOUT: "`git checkout` fails",
    Via.PIP_VCS: "pip fails",
    Via.ACTION: "the workflow fails",
    Via.SUBMODULE: "`git submodule update` fails",
    Via.UV_SOURCE: "uv fails",
    Via.POETRY: "Poetry fails",
    Via.PRE_COMMIT: "pre-commit cannot install the hooks",
    Via.FETCHCONTENT: "CMake's download step fails",
    Via.EXTERNAL_PROJECT: "CMake's download step fails",
    Via.CPM: "CPM's download fails",
    Via.GITLAB_INCLUDE: "GitLab refuses the pipeline",
    Via.ADD_GIT: "the image build fails",
    Via.BUILD_CONTEXT: "the image build fails",
    Via.CARGO: "`cargo install` fails",
    Via.NPM: "the install fails",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report each ref of the pin that its remote does not have (see the module docstring)."""
    refs = context.refs
    if refs is None:
        return
    for ref in named_refs(context.pin):
        if exists(ref, refs):
            continue
        if ref.kind is None and (is_full_commit_id(ref.name) or is_abbreviated_commit_id(ref.name)):
            if ref.via is Via.ACTION and not is_full_commit_id(ref.name):
                yield _short_action_id(context, ref, refs)
            elif ref.via is not Via.CLONE_BRANCH:
                yield from _absent_commit(context, ref)
            continue
        if is_short_commit_id(ref.name) and takes_abbreviated_commit_ids(ref):
            yield context.finding(
                _short_id(ref, refs), severity=Severity.WARNING, span=ref.span, ref=ref.written
            )
            continue
        if _other_kind_has(ref, refs):
            message = f'{_head(ref, refs)}: "{ref.name}" is a {_other_kind(ref)} there'
            yield context.finding(message, span=ref.span, ref=ref.written, suggestion=ref.name)
            continue
        suggestion = suggest_ref(ref.name, refs)
        yield context.finding(
            _message(ref, refs, suggestion),
            span=ref.span,
            ref=ref.written,
            suggestion=suggestion,
            fix=_suggested(context.pin, ref, refs),
        )


def _suggested(pin: Pin, ref: NamedRef, refs: RemoteRefs) -> Fix | None:
    """Write the suggestion where the ref is, when it is the only one that close (see the docstring)."""
    from ascend_reflint.check.fixes import make_fix, ref_edit, renamed, token_edit

    sole = sole_suggestion(ref.name, refs)
    if sole is None:
        return None
    kind = RefType.TAG if sole in refs.tags else RefType.BRANCH
    if ref.kind not in (None, kind) or pin.ref_type not in (None, kind):
        return None  # `origin/X` or uv's `branch =` take a branch only, `tags/X` and `tag =` a tag only
    new = renamed(ref, sole)
    edit = ref_edit(pin, new) if ref.span == pin.span else token_edit(pin.path, ref.span, ref.written, new)
    message = f'pin {kind.value} "{sole}", the one name of {refs.remote} that close to "{ref.name}"'
    return make_fix(Applicability.UNSAFE, message, [edit], [pin])


def _other_kind(ref: NamedRef) -> str:
    return "tag" if ref.kind is RefType.BRANCH else "branch"


def _other_kind_has(ref: NamedRef, refs: RemoteRefs) -> bool:
    """True when a ref written as a branch (``origin/X``) is a tag there, or the other way round."""
    if ref.kind is None:
        return False
    return ref.name in (refs.tags if ref.kind is RefType.BRANCH else refs.branches)


def _head(ref: NamedRef, refs: RemoteRefs) -> str:
    if ref.kind is None:
        missing = f'ref "{ref.written}" is neither a branch nor a tag of {refs.remote}'
    else:
        kind = "branch" if ref.kind is RefType.BRANCH else "tag"
        missing = f'ref "{ref.written}" names {kind} "{ref.name}", which {refs.remote} does not have'
    return f"{missing}, so {_fails(ref)}"


def _fails(ref: NamedRef) -> str:
    """What fails when ``ref`` is missing; a submodule's ``branch`` matters to ``--remote`` only."""
    if ref.via is Via.SUBMODULE and ref.kind is RefType.BRANCH:
        return "`git submodule update --remote` fails"
    return _FAILS[ref.via]


def _message(ref: NamedRef, refs: RemoteRefs, suggestion: str | None) -> str:
    head, name, counts = _head(ref, refs), ref.name, describe_counts(refs)
    if suggestion is not None and suggestion == refs.default_branch and name.lower() in DEFAULT_BRANCH_NAMES:
        return f'{head}; its default branch is "{suggestion}"'
    if suggestion is not None:
        return f'{head}; the closest of its {counts} is {ref_kind(suggestion, refs)} "{suggestion}"'
    nearest = nearest_names(name, refs)
    if not nearest:
        return f"{head}; it has {counts}"
    listed = ", ".join(f'"{near}"' for near in nearest)
    # Only a name with a version in it can miss "that version"; `hybrid_ep2` near `hybrid-ep` just differs.
    missing = "no ref names that version; " if parse_version(name) is not None else ""
    verb = "is" if len(nearest) == 1 else "are"
    return f"{head}; {missing}the most similar of its {counts} {verb} {listed}"


def _short_id(ref: NamedRef, refs: RemoteRefs) -> str:
    """A short hex name (``75f5``) that no branch or tag has: git takes it as an abbreviated commit id,
    which reflint does not verify below 7 hex digits (see :func:`is_short_commit_id`)."""
    return (
        f'ref "{ref.written}" is neither a branch nor a tag of {refs.remote}, nor a commit id reflint can '
        f"verify ({len(ref.name)} hex digits; it looks commit ids up from 7): {COMMAND[ref.via]} finds the "
        f'commit only while exactly one object of the repository starts with "{ref.name}"; pin the '
        "commit's full id"
    )


def _absent_commit(context: PinContext, ref: NamedRef) -> Iterator[Finding]:
    """The pinned commit id, when commit verification found it in neither the history nor the server."""
    verdict = context.commit
    if verdict is None or verdict.state is not CommitState.ABSENT:
        return
    head = f'commit "{ref.name}" is not in {verdict.remote}: {verdict.detail}, so {_fails(ref)}'
    pin, refs = context.pin, context.refs
    claimed, comment_span = pin.version_comment, pin.version_comment_span
    if claimed is None or comment_span is None or refs is None or claimed in refs.branches:
        yield context.finding(head, span=ref.span, ref=ref.written)
        return
    tagged = refs.tags.get(claimed)
    note = Related(pin.path, comment_span.line, comment_span.column, "the version comment")
    if tagged is None:
        yield context.finding(
            f'{head}; its version comment names "{claimed}", which is not a tag of {refs.remote} either: pin '
            "the commit of the tag meant, and correct the comment",
            span=ref.span,
            ref=ref.written,
            related=[note],
        )
        return
    yield context.finding(
        f'{head}; its version comment says "{claimed}", whose tag is commit {tagged[:12]}: pin that commit',
        span=ref.span,
        ref=ref.written,
        suggestion=tagged,
        related=[note],
        fix=_commit_of_comment(pin, ref, claimed, tagged),
    )


def _commit_of_comment(pin: Pin, ref: NamedRef, claimed: str, commit: str) -> Fix | None:
    """Pin the commit that the version comment's tag points at, in place of an absent commit id."""
    from ascend_reflint.check.fixes import make_fix, ref_edit, token_edit

    edit = (
        ref_edit(pin, commit) if ref.span == pin.span else token_edit(pin.path, ref.span, ref.written, commit)
    )
    message = f'pin commit {commit[:12]}, that of tag "{claimed}" as the version comment says'
    return make_fix(Applicability.UNSAFE, message, [edit], [pin])


def _short_action_id(context: PinContext, ref: NamedRef, refs: RemoteRefs) -> Finding:
    name, span = ref.name, ref.span
    head = (
        f'"{name}" is not a branch or tag of {refs.remote}, and GitHub Actions takes only full '
        "40-character commit ids, so the workflow fails"
    )
    tip = first_tip(name, refs)
    if tip is None:
        return context.finding(f"{head}: write the commit's full id", span=span, ref=name)
    kind, tip_name = tip
    full_id = (refs.tags if kind == "tag" else refs.branches)[tip_name]
    return context.finding(
        f'{head}: write "{full_id}" (the tip of {kind} "{tip_name}")', span=span, ref=name, suggestion=full_id
    )
