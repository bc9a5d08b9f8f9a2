r"""A Dockerfile `RUN` that is not valid shell.

## What it does

Reports a `RUN` whose shell text does not parse, where bash says it does not: at a quote, a `(`, `$(`,
`{`, `if`, `for`, `while` or `case` that is never closed (a missing `fi`, `done` or `esac`), or at the
token where the shell stops (a `)` that closes nothing, a `then` or `fi` out of place, an `&&` or `;`
with no command before it, a `;;` outside a `case`). The text is the one the shell receives: the
continuation lines of a shell-form `RUN` joined, a heredoc's body, the script of an exec-form
`["bash", "-c", "…"]`.

Not reported: syntax that bash accepts and `/bin/sh` (dash) refuses, such as arrays (RL022's); a bad
substitution such as `${NAME }`, which the shell refuses only when it runs the line; the words of a `[`
or `test` (a command, whose words are checked when it runs: `[ \( a = b \) ]`); template
placeholders (`{{ ref }}`, `<branch>`); the `RUN`s of a template (`Dockerfile.j2`), whose shell gets the
rendered text. Every `RUN` of 13 real repositories' Dockerfiles that `bash -n` accepts passes
(`benchmarks/run_syntax_oracle.py`).

## Why is this bad?

Docker runs a shell-form `RUN` as `/bin/sh -c` (Dockerfile reference, "RUN"). The shell reads the text
a line at a time and runs each line it has read; at the error it stops ("Syntax error: end of file
unexpected (expecting "fi")", "Unterminated quoted string") and the build fails at this `RUN`, after
whatever ran before the error. The rest of the Dockerfile may be fine: this finding sits where the edit
goes.

## Example

```dockerfile
RUN if [ -n "$MEGATRON_REF" ]; then \
      git clone --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git; \
    fi; \
    pip install -e Megatron-LM)
```

The `)` at the end closes nothing.

## Use instead

```dockerfile
RUN if [ -n "$MEGATRON_REF" ]; then \
      git clone --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git; \
    fi; \
    pip install -e Megatron-LM
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import IssueContext
from ascend_reflint.model import Finding, IssueKind, Severity

CODE = "RL021"
NAME = "run-syntax-error"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False
KIND = IssueKind.RUN_SYNTAX_ERROR


def check_issue(context: IssueContext) -> Iterator[Finding]:
    """Report the RUN where its shell text stops parsing."""
    yield context.finding(
        f"this RUN is not valid shell: {context.issue.detail}; the shell refuses it, so the build fails at "
        "this RUN"
    )
