"""A repository URL that reflint refuses to give to git.

## What it does

Reports a pin whose URL git must not be run with: a transport other than `https`, `http`, `ssh`, `git`
and `file` (such as `ext::`, which runs a command), a URL that starts with `-` and so reads as an
option, control characters, white space (`"https://github.com/o/r .git"`), or text that is not a git URL
at all. reflint never looks such a URL up. Credentials in the URL are masked in the message. A local
path is not refused: RL017 reports it.

## Why is this bad?

`git clone 'ext::sh -c "..."'` runs a command on the build machine, and a URL such as
`--upload-pack=...` turns into an option. Even where the build's own git refuses them
(`protocol.allow`), the recipe is broken or hostile. A text that is not a URL, or a URL with a space in
it, fails the clone.

## Example

```dockerfile
RUN git clone --branch v1.2.1 "ext::sh -c touch% /tmp/pwned" /opt/DeepEP
```

## Use instead

```dockerfile
RUN git clone --branch v1.2.1 https://github.com/deepseek-ai/DeepEP.git /opt/DeepEP
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import FailureKind, Finding, Severity
from ascend_reflint.remote import redact, unsafe_reason

CODE = "RL011"
NAME = "unsafe-url"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's URL when it is not safe to give git."""
    reason = _unsafe(context)
    if reason is None:
        return
    yield context.finding(
        f'URL "{redact(context.pin.url)}" was refused and never given to git: {reason}; '
        "use an https://, ssh:// or git@host:owner/name URL",
        span=context.pin.url_span or context.pin.span,
    )


def _unsafe(context: PinContext) -> str | None:
    pin = context.pin
    # An unresolved URL is kept as written ("$REPO"); only a resolved one can be judged.
    if pin.resolved or pin.remote is not None:
        reason = unsafe_reason(pin.url)
        if reason is not None:
            return reason
    failure = context.failure
    if failure is not None and failure.kind is FailureKind.UNSAFE:
        return failure.detail or "the lookup refused it"
    return None
