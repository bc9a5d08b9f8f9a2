r"""A checkout runs outside the clone it is meant for.

## What it does

Reports a `git checkout` (`switch`, `reset --hard`) that runs in the directory a clone was just made
from, not in the clone: `git clone URL sub && git checkout REF` with no `cd sub` and no `git -C sub`.
The finding names the clone it was meant for, as a related place.

## Why is this bad?

The checkout runs in another directory. In a Dockerfile that is usually no repository at all, and git
fails with "not a git repository". In a workflow or a script run from a checkout, it is the wrong
repository: the checkout succeeds or fails there, and the clone stays at its default branch, so the build
uses code the recipe did not pin.

## Example

```dockerfile
RUN git clone https://github.com/NVIDIA/Megatron-LM.git megatron && \
    git checkout core_v0.12.1
```

## Use instead

```dockerfile
RUN git clone https://github.com/NVIDIA/Megatron-LM.git megatron && \
    git -C megatron checkout core_v0.12.1
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import IssueContext
from ascend_reflint.model import Finding, IssueKind, Severity

CODE = "RL019"
NAME = "checkout-outside-clone"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False
KIND = IssueKind.CHECKOUT_OUTSIDE_CLONE


def check_issue(context: IssueContext) -> Iterator[Finding]:
    """Report the checkout, naming the clone it was meant for."""
    issue = context.issue
    meant = issue.related[0].message if issue.related else "the clone above"
    folder = issue.detail
    advice = f"`cd {folder}` first, or use `git -C {folder}`" if folder else "`cd` into the clone first"
    yield context.finding(
        f"`{issue.command}` runs in the directory the clone was made from, not in {meant}: there it finds "
        f'no repository ("not a git repository") or another one, and the clone keeps its default branch; '
        f"{advice}"
    )
