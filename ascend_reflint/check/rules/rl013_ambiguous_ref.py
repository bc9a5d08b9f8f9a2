"""A pinned name is both a branch and a tag of the remote.

## What it does

Reports a pin whose ref names both a branch and a tag. Tools disagree on which one they take:
`git clone --branch` and pip take the branch; `git checkout` and `git reset` after a clone take the tag
(gitrevisions(7) looks in `refs/tags/` before `refs/heads/`), and so does GitHub Actions for `uses:`;
`git switch` stops with "a branch is expected, got tag" (it takes a tag only with `--detach`).
Megatron-LM's `core_r0.8.0` to `core_r0.11.0` are such names. The message says what this pin gets and
whether the two point at different commits today; the finding suggests a tag that spells the same
version unambiguously (`core_v0.10.0`) when there is one. Where the pin takes the branch and RL002
reports that branch pin (an error, with the same advice), RL013 is not reported on the same ref: one
finding per problem, the more specific one. With RL002 not selected, RL013 reports it.

## Why is this bad?

Two recipes that pin the same name can build different code, and the branch can change under a pin that
was meant to be a tag. Deleting or moving one of them changes what the build gets, with no change in
the recipe.

## Example

```dockerfile
RUN git clone --depth 1 --branch core_r0.10.0 https://github.com/NVIDIA/Megatron-LM.git
```

## Use instead

```dockerfile
RUN git clone --depth 1 --branch core_v0.10.0 https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import pinned_ref
from ascend_reflint.check.suggest import same_version_tags
from ascend_reflint.model import Finding, Severity, Via

CODE = "RL013"
NAME = "ambiguous-ref"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = True

_WHO_TAKES_WHAT = {
    Via.CLONE_BRANCH: "`git clone --branch` takes the branch, while `git checkout` takes the tag",
    Via.PIP_VCS: "pip takes the branch, while `git checkout` takes the tag",
    # Via.CHECKOUT stands for checkout, switch and reset --hard alike, so the wording must hold for all three.
    Via.CHECKOUT: (
        "after a clone, `git checkout` and `git reset` take the tag and `git switch` refuses it (a branch is "
        "expected, got tag), while `git clone --branch` and pip take the branch"
    ),
    Via.ACTION: "GitHub Actions takes the tag, while `git clone --branch` and pip take the branch",
    Via.UV_SOURCE: "uv's `rev` takes the branch, while `git checkout` takes the tag",
    Via.POETRY: "Poetry's `rev` takes the tag and its `branch` the branch",
    Via.PRE_COMMIT: "pre-commit takes the tag, while `git clone --branch` and pip take the branch",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's ref when the remote has both a branch and a tag of that name."""
    ref, refs = pinned_ref(context.pin), context.refs
    if refs is None or ref is None or ref.kind is not None or ref.via not in _WHO_TAKES_WHAT:
        return
    name = ref.name
    if name not in refs.branches or name not in refs.tags:
        return
    drift = "different commits" if refs.branches[name] != refs.tags[name] else "the same commit"
    head = (
        f'"{name}" is both a branch and a tag of {refs.remote}: {_WHO_TAKES_WHAT[ref.via]} '
        f"(today they point at {drift})"
    )
    alternatives = same_version_tags(name, refs)
    if alternatives:
        yield context.finding(
            f'{head}; pin "{alternatives[0]}", which names only a tag', suggestion=alternatives[0]
        )
    else:
        yield context.finding(f"{head}; pin a commit id or a name that is only a tag")
