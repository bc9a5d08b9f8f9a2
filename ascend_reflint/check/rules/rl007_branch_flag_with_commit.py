r"""`git clone --branch` is given a commit id.

## What it does

Reports a `git clone --branch X` (or `-b X`) where X is a commit id. A full 40-hex id is reported without
a lookup. A shorter hex name (7 to 39 digits) is reported only when the remote has no branch or tag of
that name: date tags such as `20251214` are real tags. When the id is the tip of a branch or tag, the
finding suggests that name.

## Why is this bad?

`--branch` takes only a branch or a tag name (git-clone(1)), so the clone always fails, with "Remote
branch 3f601f7 not found in upstream origin". A commit is reached by cloning and then checking it out;
a `--depth` clone may not hold it.

## Example

```dockerfile
RUN git clone --branch 3f601f7ac1c062c46502646ff04c535013bfca00 https://github.com/deepseek-ai/DeepEP.git
```

## Use instead

```dockerfile
RUN git clone https://github.com/deepseek-ai/DeepEP.git && \
    cd DeepEP && git checkout 3f601f7ac1c062c46502646ff04c535013bfca00
```

## Fix

Unsafe (the recipe is rewritten around the commit): `--branch <commit>` is deleted and
`&& git -C DIR checkout <commit>` follows the clone, DIR being the clone's directory. A `--depth N` clone
keeps its depth and fetches the commit by its full id first (`git -C DIR fetch --depth N origin
<commit>`); with an abbreviated id, `--shallow-since` or `--shallow-exclude`, the shallow options are
dropped instead. `--single-branch` is dropped, and a `--recurse-submodules` clone updates its submodules
after the checkout. A clone followed by a redirection, or whose directory is not known, is not rewritten.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import (
    exists,
    first_tip,
    is_abbreviated_commit_id,
    is_full_commit_id,
    named_refs,
)
from ascend_reflint.model import Applicability, Finding, Fix, Pin, RemoteRefs, Severity, Via

CODE = "RL007"
NAME = "branch-flag-with-commit"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False
FIXES = (Applicability.UNSAFE,)


def check(context: PinContext) -> Iterator[Finding]:
    """Report each ``--branch`` value of the pin that is a commit id."""
    refs = context.refs
    for ref in named_refs(context.pin):
        if ref.via is not Via.CLONE_BRANCH:
            continue
        abbreviated = is_abbreviated_commit_id(ref.name) and refs is not None and not exists(ref, refs)
        if not (is_full_commit_id(ref.name) or abbreviated):
            continue
        advice, suggestion = _advice(context, ref.name, refs)
        message = (
            f'`git clone --branch` takes a branch or a tag, never a commit id such as "{ref.name}", '
            f"so the clone fails: {advice}"
        )
        # The command changes (clone, then check out), not the value: the finding stays at the use.
        fix = _checkout_instead(context.pin) if ref.span == context.pin.span else None
        yield context.finding(
            message, span=ref.span, ref=ref.name, suggestion=suggestion, fix=fix, at_use=True
        )


def _checkout_instead(pin: Pin) -> Fix | None:
    """Clone without ``--branch``, then check the commit out (see the module docstring)."""
    from ascend_reflint.check.fixes import clone_then_checkout, make_fix

    written = pin.ref_text if pin.ref_text is not None else pin.ref
    rewritten = clone_then_checkout(pin, written, pin.ref) if written is not None else None
    if rewritten is None:
        return None
    edits, target = rewritten
    return make_fix(Applicability.UNSAFE, f"clone without --branch, then check out {target}", edits)


def _advice(context: PinContext, commit_id: str, refs: RemoteRefs | None) -> tuple[str, str | None]:
    """What to write instead, and the branch or tag to suggest when the commit is one's tip."""
    tip = first_tip(commit_id, refs) if refs is not None else None
    if tip is not None:
        kind, name = tip
        return f'it is the tip of {kind} "{name}" of {context.pin.remote}; pass that instead', name
    if context.pin.shallow:
        return f"clone without --branch and --depth, then `git checkout {commit_id}`", None
    return f"clone without --branch, then `git checkout {commit_id}`", None
