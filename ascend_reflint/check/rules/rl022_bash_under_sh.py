r"""Bash syntax in a Dockerfile `RUN` that `/bin/sh` runs.

## What it does

Reports bash-only syntax in a shell-form `RUN` of a stage with no `SHELL` instruction that names bash: an
array (`DEPS=(a b)`, `DEPS+=(c)`), `[[ … ]]`, an array expansion (`"${DEPS[@]}"`, `${DEPS[0]}`), a
process substitution (`<(…)`, `>(…)`), a function defined with the `function` keyword, the builtins
`source`, `pushd`, `popd` and `dirs`, and the expansions dash calls a "Bad substitution": a substring
(`${V:0:3}`), a pattern substitution (`${V//./}`), a case modification (`${V^^}`), an indirect expansion
(`${!V}`) (ShellCheck's SC3046, SC3044, SC3057, SC3060, SC3059, SC3053). Docker runs such a `RUN` as
`/bin/sh -c` (Dockerfile reference, "RUN"), which is dash on Debian and Ubuntu images.

Every such construct is reported, not only those a pin depends on: the build fails on the first one
whatever the recipe fetches. When the stage's base image names a distribution whose `/bin/sh` is bash
(openEuler, CentOS, RHEL and UBI, Fedora, Rocky, AlmaLinux, Amazon Linux, Oracle Linux, EulerOS, and
PyPA's manylinux images built on them), the finding is an info: the build works there, and breaks when
the recipe moves to a Debian or Ubuntu base. A script given to `bash -c`, a heredoc with a `#!/bin/bash`
line, or a stage with `SHELL ["/bin/bash", "-c"]` is not reported, nor a stage built FROM an image that
sets that SHELL itself, which the stage inherits: Ascend's CANN images (`quay.io/ascend/cann`,
`ascendai/cann`, `…/ascendhub/cann`) and vllm-ascend's built on them.

## Why is this bad?

dash refuses the syntax ("Syntax error: "(" unexpected", "Bad substitution") or runs something else (`[[`
and `source` are "not found", so an `if [[ … ]]` quietly takes its `else` branch and `source set_env.sh &&
…` stops the build), and a pin behind it is never fetched, or fetched differently from what the recipe
says. For `source`, POSIX sh's own `.` does the same.

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
#: What POSIX sh writes for a bash-only command, where it has one (ShellCheck's SC3046: ``.`` for ``source``).
_POSIX = {"source": "."}


def check_issue(context: IssueContext) -> Iterator[Finding]:
    """Report the construct, as a warning; an info on a base image whose /bin/sh is bash."""
    issue = context.issue
    what = issue.detail or "bash syntax"
    posix = _POSIX.get(issue.subject)
    if issue.likely:
        advice = ['add `SHELL ["/bin/bash", "-c"]` before it', "run the script with `bash -c`"]
        advice += [f"write `{posix}` instead"] if posix else []
        yield context.finding(
            f"{what} `{issue.subject}` is bash syntax, but this RUN runs in /bin/sh (dash on Debian and "
            f"Ubuntu), which refuses it or runs something else; {', '.join(advice[:-1])}, or {advice[-1]}"
        )
        return
    instead = f" (or write `{posix}` instead)" if posix else ""
    yield context.finding(
        f"{what} `{issue.subject}` is bash syntax in a RUN that /bin/sh runs: this base image's /bin/sh is "
        'bash, but a Debian or Ubuntu base would refuse it; add `SHELL ["/bin/bash", "-c"]` to say so'
        f"{instead}",
        severity=Severity.INFO,
    )
