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
from ascend_reflint.model import Finding, RemoteRefs, Severity, Via

CODE = "RL007"
NAME = "branch-flag-with-commit"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False


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
        yield context.finding(message, span=ref.span, ref=ref.name, suggestion=suggestion, at_use=True)


def _advice(context: PinContext, commit_id: str, refs: RemoteRefs | None) -> tuple[str, str | None]:
    """What to write instead, and the branch or tag to suggest when the commit is one's tip."""
    tip = first_tip(commit_id, refs) if refs is not None else None
    if tip is not None:
        kind, name = tip
        return f'it is the tip of {kind} "{name}" of {context.pin.remote}; pass that instead', name
    if context.pin.shallow:
        return f"clone without --branch and --depth, then `git checkout {commit_id}`", None
    return f"clone without --branch, then `git checkout {commit_id}`", None
