"""A remote could not be looked up, so its pins went unchecked.

## What it does

Reports, once per file and remote (at the first pin that needed the remote, with the count of such pins
in the message and the other pins as related places), a `git ls-remote` that gave no answer: the remote
was unreachable (DNS, connection, TLS), did not answer within `--timeout`, asked for credentials, was not
in the cache under `--offline`, advertised a ref list larger than reflint reads (`--max-refs`,
`--max-ref-list-size`, `--lookup-memory`: "ref list too large"), or was not looked up before the lookups'
deadline (`--lookup-deadline`: "not looked up: deadline"). The message quotes git's first error line.
A remote listed under `private-remotes` is not reported for asking for credentials. Each URL is looked up
on its own (scheme, user, host, port and path): a pin over `git://` that fails does not stand for one
over `https://` of the same repository. A `# reflint: ignore[RL010]` comment at any of the file's pins of
that URL suppresses the finding.

When your git configuration sends the remote's URL to a mirror (`url.<base>.insteadOf`, common in CI and
air-gapped setups) and the mirror has no such repository, that is reported here too, as "the mirror that
your git config sends <the pin's URL> to (url.<base>.insteadOf) has no copy of <remote>" (the pin's own
URL, whichever spelling of it a scan of other files looked up first): it says nothing about the remote
itself (RL014 is only for a remote that answered "no such repository" to its own URL), and the build, in a
container or on another machine, may not use the mirror at all.

## Why is this bad?

The refs pinned to that remote were not checked, so a wrong one would fail only when the build runs. A
remote that reflint cannot reach may also be one the build cannot reach (a mirror behind a firewall, a
host that has moved).

## Example

```dockerfile
RUN git clone --branch v1.2.1 https://git.mirror.invalid/deepseek-ai/DeepEP.git
```

## Use instead

```dockerfile
RUN git clone --branch v1.2.1 https://github.com/deepseek-ai/DeepEP.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import FailureKind, Finding, LookupFailure, Severity
from ascend_reflint.remote import redact

CODE = "RL010"
NAME = "remote-unreachable"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = True

_REASONS = {
    FailureKind.UNREACHABLE: "unreachable",
    FailureKind.TIMEOUT: "timed out",
    FailureKind.OFFLINE: "unknown (offline): not in the cache",
    FailureKind.AUTH_REQUIRED: "git asked for credentials",
    FailureKind.TOO_LARGE: "ref list too large",
    FailureKind.DEADLINE: "not looked up: deadline",
    FailureKind.OTHER: "git failed",
    FailureKind.NOT_IN_MIRROR: "the mirror that your git config sends it to has no copy of it",
    FailureKind.NOT_IN_MIRROR_OR_PRIVATE: "the mirror that your git config sends it to asked for credentials",
}
#: What the mirror said, per kind.
_MIRROR_ANSWERS = {
    FailureKind.NOT_IN_MIRROR: "has no copy of {remote}",
    FailureKind.NOT_IN_MIRROR_OR_PRIVATE: "has no copy of {remote} that it gives without credentials",
}
#: Kinds whose detail already starts with the reason's words.
_SELF_EXPLAINED = (FailureKind.OFFLINE, FailureKind.TOO_LARGE, FailureKind.DEADLINE)


def check(context: PinContext) -> Iterator[Finding]:
    """Report a failed lookup of the pin's remote at the file's first pin that needed it."""
    failure = context.failure
    if failure is None or failure.kind not in _REASONS or not context.first_of_remote:
        return
    if failure.kind is FailureKind.AUTH_REQUIRED and context.policy.is_private(failure.remote):
        return
    count = len(context.remote_pins)
    unchecked = "this pin went unchecked" if count == 1 else f"{count} pins of it in this file went unchecked"
    if failure.kind is FailureKind.DEADLINE:
        message = f"{failure.remote} was {_reason(failure)}, so {unchecked}"
    elif failure.kind in _MIRROR_ANSWERS:
        # Said of the mirror, never of the remote: the build (in a container, on another machine) may not
        # use the mirror at all, and the repository may well exist upstream.
        # The pin's own URL, not the mirror URL that the lookup fetched: one lookup stands for every spelling
        # of a remote's URL, and which spelling came first depends on the files scanned.
        answer = _MIRROR_ANSWERS[failure.kind].format(remote=failure.remote)
        message = (
            f"the mirror that your git config sends {redact(context.pin.url)} to (url.<base>.insteadOf) "
            f"{answer}, so {unchecked}; add it to the mirror to have it checked"
        )
    else:
        message = f"{failure.remote} could not be looked up: {_reason(failure)}, so {unchecked}"
    if failure.kind is FailureKind.AUTH_REQUIRED:
        message += (
            "; if it is private, allow reflint your credentials for its host (--credentials-for HOST), or "
            "list it under private-remotes in a rule pack"
        )
    span = context.pin.url_span or context.pin.span
    yield context.finding(message, span=span, related=context.other_pins_of_remote())


def _reason(failure: LookupFailure) -> str:
    if failure.kind in _SELF_EXPLAINED and failure.detail:
        return failure.detail
    reason = _REASONS[failure.kind]
    return f"{reason} ({failure.detail})" if failure.detail else reason
