"""A pinned ref or URL that cannot be known without running the build.

## What it does

Reports, as information, a pin whose ref or URL holds something reflint cannot resolve from the file:
a variable the file never assigns (the base image or the caller may set it), a workflow expression
(`${{ matrix.version }}`), a command substitution (`$(cat VERSION)`). The message says why. Nothing is
looked up for such a pin and no other rule checks its ref.

## Why is this bad?

It may be fine, but reflint cannot check it, so a wrong ref there fails only when the build runs. A
default value in the file (`ARG MEGATRON_REF=core_v0.15.0`, `${MEGATRON_REF:-core_v0.15.0}`) or a
`--build-arg` on reflint's command line lets it be checked.

## Example

```dockerfile
ARG MEGATRON_REF
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
```

## Use instead

```dockerfile
ARG MEGATRON_REF=core_v0.15.0
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import Finding, Resolution, Severity
from ascend_reflint.remote import redact

CODE = "RL009"
NAME = "unresolved-ref"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = False


def check(context: PinContext) -> Iterator[Finding]:
    """Report a pin whose resolution is UNRESOLVED, with the reason resolution gave."""
    pin = context.pin
    if pin.resolution is not Resolution.UNRESOLVED:
        return
    why = pin.resolution_note or "no value is known"
    if pin.remote is None:
        yield context.finding(
            f'URL "{redact(pin.url)}" cannot be resolved statically ({why}), so this pin was not checked'
        )
    else:
        yield context.finding(
            f'ref "{pin.ref_text}" of {pin.remote} cannot be resolved statically ({why}), so it was not '
            "checked; a default value in the file lets reflint check it",
            ref=pin.ref_text,
        )
