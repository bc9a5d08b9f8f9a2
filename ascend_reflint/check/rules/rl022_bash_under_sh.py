r"""Bash syntax in a Dockerfile `RUN` that `/bin/sh` runs.

## What it does

Reports bash-only syntax in a shell-form `RUN` of a stage with no `SHELL` instruction that names bash: an
array (`DEPS=(a b)`, `DEPS+=(c)`), `[[ … ]]`, an array expansion (`"${DEPS[@]}"`, `${DEPS[0]}`), a
process substitution (`<(…)`, `>(…)`), a function defined with the `function` keyword. Docker runs such
a `RUN` as `/bin/sh -c` (Dockerfile reference, "RUN"), which is dash on Debian and Ubuntu images.

Every such construct is reported, not only those a pin depends on: the build fails on the first one
whatever the recipe fetches. When the stage's base image names a distribution whose `/bin/sh` is bash
(openEuler, CentOS, RHEL and UBI, Fedora, Rocky, AlmaLinux, Amazon Linux, Oracle Linux, EulerOS, and
PyPA's manylinux images built on them), the finding is an info: the build works there, and breaks when
the recipe moves to a Debian or Ubuntu base. A script given to `bash -c`, a heredoc with a `#!/bin/bash`
line, or a stage with `SHELL ["/bin/bash", "-c"]` is not reported.

## Why is this bad?

dash refuses the syntax ("Syntax error: "(" unexpected") or runs something else (`[[` is "not found",
so an `if [[ … ]]` quietly takes its `else` branch), and a pin behind it is never fetched, or fetched
differently from what the recipe says.

## Example

```dockerfile
FROM ubuntu:22.04
RUN DEPS=(git+https://github.com/NVIDIA/apex.git@25.04) && pip install "${DEPS[@]}"
```

## Use instead

```dockerfile
FROM ubuntu:22.04
SHELL ["/bin/bash", "-c"]
RUN DEPS=(git+https://github.com/NVIDIA/apex.git@25.04) && pip install "${DEPS[@]}"
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import IssueContext
from ascend_reflint.model import Finding, IssueKind, Severity

CODE = "RL022"
NAME = "bash-under-sh"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False
KIND = IssueKind.BASH_UNDER_SH


def check_issue(context: IssueContext) -> Iterator[Finding]:
    """Report the construct, as a warning; an info on a base image whose /bin/sh is bash."""
    issue = context.issue
    what = issue.detail or "bash syntax"
    if issue.likely:
        yield context.finding(
            f"{what} `{issue.subject}` is bash syntax, but this RUN runs in /bin/sh (dash on Debian and "
            'Ubuntu), which refuses it or runs something else; add `SHELL ["/bin/bash", "-c"]` before it, '
            "or run the script with `bash -c`"
        )
        return
    yield context.finding(
        f"{what} `{issue.subject}` is bash syntax in a RUN that /bin/sh runs: this base image's /bin/sh is "
        'bash, but a Debian or Ubuntu base would refuse it; add `SHELL ["/bin/bash", "-c"]` to say so',
        severity=Severity.INFO,
    )
