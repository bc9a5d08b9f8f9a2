"""A checkout in a `--recursive` clone that no `git submodule update` follows.

## What it does

Reports a `git checkout` (`switch`, `reset --hard`) of a ref in a clone made with `--recursive`
(`--recurse-submodules`) when no `git submodule update` follows it and the checkout does not recurse:
neither given `--recurse-submodules` nor run with `submodule.recurse` true (`git -c`, the clone's
configuration set by `git clone -c` or a `git config` before the checkout, `git config --global`). The
finding is on the ref checked out; the clone is a related place.

## Why is this bad?

`git clone --recursive` checks out the submodules at the commits that the clone's branch (the default
branch, or `--branch`) records. A later `git checkout REF` moves the superproject only: git leaves the
submodules where they are unless `--recurse-submodules` is given or `submodule.recurse` is set
(git-checkout(1), git-submodule(1)). The build then compiles REF against the submodules of another
commit — a third-party library of the wrong version, headers that do not match — and fails, or worse,
builds. (A repository without submodules is not harmed; the `--recursive` is then noise, and dropping it
silences the rule.)

## Example

```dockerfile
RUN git clone --recursive https://github.com/ROCm/TransformerEngine.git
WORKDIR /workspace/TransformerEngine
RUN git checkout 236178e5
```

## Use instead

```dockerfile
RUN git clone --recursive https://github.com/ROCm/TransformerEngine.git
WORKDIR /workspace/TransformerEngine
RUN git checkout 236178e5 && git submodule update --init --recursive
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import Finding, Related, Severity, Via

CODE = "RL027"
NAME = "submodules-not-updated"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False


def check(context: PinContext) -> Iterator[Finding]:
    """Report a checkout whose pin says the submodules were left at the clone's commits."""
    pin = context.pin
    if pin.via is not Via.CHECKOUT or not pin.submodules_stale:
        return
    shown = pin.ref_text if pin.ref_text is not None else pin.ref
    cloned = f'"{pin.clone_ref}"' if pin.clone_ref else "its default branch"
    related = []
    if pin.clone_span is not None:
        clone = pin.clone_span
        related.append(Related(pin.path, clone.line, clone.column, "the clone with --recursive"))
    yield context.finding(
        f'the checkout of "{shown}" in a clone of {pin.remote or pin.url} made with --recursive leaves its '
        f"submodules, if it has any, at the commits that {cloned} records: `git checkout` does not move "
        "them; run `git submodule update --init --recursive` after it (or check out with "
        "--recurse-submodules)",
        related=related,
        at_use=True,
    )
