r"""An option that takes a value is left without one.

## What it does

Reports a `git clone`, `git fetch`, `git pull`, `git checkout` or `git switch` option that takes a value
(`-b`, `--branch`, `--depth`, `--origin` …) but is the last word of the command: written at the end
(`git clone URL -b`), or followed by a `#`, which the shell reads as the start of a comment
(`-b #8f3c2a1`, where the `#` was meant as part of the ref). In a Dockerfile `RUN`, whose continuation lines
Docker joins into one line before the shell reads it, that comment runs to the end of the whole `RUN`:
every command after it, later clones included, is part of the comment and never runs. The finding says
so.

## Why is this bad?

git refuses the command ("error: switch `b' requires a value"), so the build fails; or, when the comment
also swallowed the repository, "You must specify a repository to clone". When the rest of a `RUN` is a
comment, the commands in it silently do not run: the image lacks what the recipe says it installs, and
the build may still pass.

## Example

```dockerfile
RUN git clone -b #8f3c2a1 https://github.com/NVIDIA/apex.git && \
    cd apex && pip install -v --no-build-isolation .
```

## Use instead

```dockerfile
RUN git clone https://github.com/NVIDIA/apex.git && \
    cd apex && git checkout 8f3c2a1 && pip install -v --no-build-isolation .
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import IssueContext
from ascend_reflint.model import Finding, IssueKind, Severity

CODE = "RL018"
NAME = "option-without-value"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False
KIND = IssueKind.OPTION_WITHOUT_VALUE
#: The longest comment quoted in a message.
_QUOTED = 40


def check_issue(context: IssueContext) -> Iterator[Finding]:
    """Report the option, and what the comment after it swallowed."""
    issue = context.issue
    option = f"`{issue.command} {issue.subject}`"
    comment = issue.detail
    if comment is None:
        yield context.finding(
            f"{option} is the last word of the command, so it has no value and git refuses it "
            f'("switch requires a value"); give {issue.subject} its value or remove it'
        )
        return
    first, _, more = comment.partition(" ")
    shown = (first if len(first) <= _QUOTED else first[: _QUOTED - 1] + "…") + (" …" if more.strip() else "")
    rest = (
        "; Docker joins the RUN's lines first, so the rest of the RUN is a comment too and never runs"
        if issue.rest_of_run
        else ", and the rest of the line with it"
    )
    yield context.finding(
        f'{option} has no value: the shell reads "{shown}" as a comment, so git gets {issue.subject} '
        f"alone and refuses it{rest}; remove the `#` or quote the value"
    )
