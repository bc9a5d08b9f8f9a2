r"""An abbreviated commit id that several commits of the repository's history start with.

## What it does

Reports an abbreviated commit id (7 to 39 hex digits) given to `git checkout` or pip when more than one
commit of the remote's branches and tags starts with it. reflint looks the id up in the remote's history,
which it keeps in its cache (see RL008); the message lists the commits, with the nearest tag of each.

Only commits (and tags, which name commits) are compared: the history reflint keeps holds no trees or
files, which a full clone has and which can share the prefix too.

## Why is this bad?

git refuses an ambiguous id: `git checkout` stops with "short object ID ... is ambiguous" (and so does
pip, which runs it). A short id that was unique when it was written becomes ambiguous as the history
grows, so a recipe that built yesterday can fail today.

## Example

```dockerfile
RUN git clone https://github.com/deepseek-ai/DeepEP.git && cd DeepEP && git checkout a84a248
```

## Use instead

The full id:

```dockerfile
RUN git clone https://github.com/deepseek-ai/DeepEP.git && \
    cd DeepEP && git checkout a84a2482b5f3c4d9e8f7a6b5c4d3e2f1a0b9c8d7
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import COMMAND
from ascend_reflint.model import CommitState, Finding, Severity

CODE = "RL026"
NAME = "ambiguous-commit-id"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = True

#: How many digits of each candidate the message shows.
_SHOWN_DIGITS = 12


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's abbreviated commit id when several commits of the history start with it."""
    verdict = context.commit
    if verdict is None or verdict.state is not CommitState.AMBIGUOUS:
        return
    listed = ", ".join(
        f"{commit[:_SHOWN_DIGITS]} ({describe})" if describe else commit[:_SHOWN_DIGITS]
        for commit, describe in verdict.candidates
    )
    count = len(verdict.candidates)
    yield context.finding(
        f'commit id "{verdict.pinned}" is ambiguous in {verdict.remote}: {count} commits of its history '
        f"start with it ({listed}), so {COMMAND[context.pin.via]} refuses it; write the full id"
    )
