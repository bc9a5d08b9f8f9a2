r"""A pinned commit id that `git ls-remote` cannot confirm.

## What it does

Reports, as information, a `git checkout`, pip or `uses:` pin of a commit id that no branch or tag of
the remote has at its tip. `git ls-remote` lists only branch and tag tips (tags peeled to their
commits), so reflint can confirm a commit only when it is one of those; any other commit may exist or
not. A full id equal to a tip, or an abbreviated id that a tip starts with, is confirmed and not reported:
`uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683` is the tip of tag `v4.2.2`. When the
lookup of the remote failed, there is no ref list to confirm the id against and nothing is reported here:
RL010 (unreachable), RL011 (URL refused) or RL014 (no such repository) says why the pin went unchecked,
unless the remote is listed under `private-remotes`. When the remote was not looked up at all, the id is
reported as not confirmed, except for a local path, which RL017 reports.

## Why is this bad?

It is not bad in itself: a full commit id is the most reproducible pin there is. But a mistyped id, or
one that was only ever on a force-pushed branch, fails the build when it runs, and reflint cannot tell
beforehand. Pinning a release tag that points at the commit makes the pin checkable.

## Example

```dockerfile
RUN git clone https://gitcode.com/Ascend/MindSpeed.git && \
    cd MindSpeed && git checkout f2b0977e
```

## Use instead

```dockerfile
RUN git clone --depth 1 --branch v2.3.0_core_r0.12.1 https://gitcode.com/Ascend/MindSpeed.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import (
    exists,
    is_abbreviated_commit_id,
    is_full_commit_id,
    pinned_ref,
    tips_starting_with,
)
from ascend_reflint.model import Finding, Severity, Via
from ascend_reflint.remote import is_local_path

CODE = "RL008"
NAME = "unverifiable-commit"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = False

#: Ways of pinning that take a commit id (GitHub Actions only a full one: RL001 reports short ones).
_TAKES_COMMITS = (Via.CHECKOUT, Via.PIP_VCS, Via.ACTION)


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's commit id when no branch or tag tip confirms it (nothing when the lookup failed)."""
    pin, refs = context.pin, context.refs
    ref = pinned_ref(pin)
    if context.failure is not None or ref is None or ref.kind is not None or ref.via not in _TAKES_COMMITS:
        return
    if is_local_path(pin.url):
        return  # RL017: never looked up
    name = ref.name
    if not is_full_commit_id(name):
        if ref.via is Via.ACTION or not is_abbreviated_commit_id(name):
            return
        if refs is not None and exists(ref, refs):
            return
    if refs is None:
        yield context.finding(
            f'commit "{name}" of {pin.remote} was not confirmed: `git ls-remote` lists only the tips of '
            "branches and tags; check it against the remote's history"
        )
    elif not tips_starting_with(name, refs):
        yield context.finding(
            f'commit "{name}" is not the tip of any branch or tag of {refs.remote}, so `git ls-remote` '
            "cannot confirm that it exists; check it against the remote's history"
        )
