"""A pinned ref or URL that expands to nothing where it is used.

## What it does

Reports a pin whose ref (or URL) is a variable that the file itself shows is empty at that point: it is
assigned only further down, only in another Dockerfile build stage (`ARG` and `ENV` do not cross
`FROM`), or only on a commented-out line. The message says which.

## Why is this bad?

`git clone --branch "" URL` fails; a bare `git checkout` silently stays on the default branch, so the
build takes whatever that branch holds; pip rejects a `git+URL@` with an empty revision. The variable
was meant to hold a ref, and the recipe does not do what it says.

## Example

```dockerfile
FROM base AS build
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
ARG MEGATRON_REF=core_v0.15.0
```

## Use instead

```dockerfile
FROM base AS build
ARG MEGATRON_REF=core_v0.15.0
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import COMMAND
from ascend_reflint.model import Finding, Resolution, Severity, Via
from ascend_reflint.remote import redact

CODE = "RL012"
NAME = "empty-ref"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False

_CONSEQUENCE = {
    Via.CLONE_BRANCH: '`git clone --branch ""` fails',
    Via.CHECKOUT: "a bare `git checkout` stays on the default branch",
    Via.PIP_VCS: 'pip rejects the empty revision after "@"',
    Via.ACTION: "the `uses:` has no ref and the workflow is invalid",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report a pin whose resolution is EMPTY, with the reason resolution gave."""
    pin = context.pin
    if pin.resolution is not Resolution.EMPTY:
        return
    why = pin.resolution_note or "the variable is empty here"
    if pin.remote is None:
        yield context.finding(
            f'URL "{redact(pin.url)}" expands to nothing here ({why}), so {COMMAND[pin.via]} gets no '
            "repository; assign the variable before this line"
        )
        return
    consequence = _CONSEQUENCE.get(pin.via, f"{COMMAND[pin.via]} gets an empty ref")
    yield context.finding(
        f'ref "{pin.ref_text}" expands to nothing here ({why}), so {consequence}; assign the variable '
        "before this line",
        ref=pin.ref_text,
    )
