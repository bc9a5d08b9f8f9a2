r"""A pinned commit id that could not be verified against the remote's history.

## What it does

reflint verifies every commit id that `git checkout`, pip, `uses:`, uv, Poetry or pre-commit is given, and
every commit a submodule is recorded at: a full id that is the tip
of a branch or tag is confirmed by `git ls-remote` alone; any other id is looked up in the remote's commit
history, which reflint keeps in its cache (a treeless partial clone of the remote's branches and tags,
brought up to date with one `git fetch` when the remote's refs change). This rule reports, as information,
a commit pin whose verification could not run, and says why:

- commit verification is turned off (`--no-verify-commits`, or `verify-commits: false` in the config);
- `--offline`, and the remote's history is not in the cache, or the cached history cannot answer (it is
  older than the ref list, or only the server can say whether it has the commit outside its branches and
  tags);
- the history is larger than `--max-history-size`;
- fetching the history failed or took longer than its time limit.

When the lookup of the remote failed, nothing is reported here: RL010 (unreachable), RL011 (URL refused)
or RL014 (no such repository) says why the pin went unchecked. What verification finds is reported by
RL001 (no such commit), RL025 (a commit outside the repository's history) and RL026 (an ambiguous
abbreviated id).

## Why is this bad?

It is not bad in itself: a full commit id is the most reproducible pin there is. But a mistyped id, or
one that only ever lived on a fork or a force-pushed branch, fails the build (or builds code the
repository never had), and reflint could not tell this time.

## Example

```console
$ reflint scan --no-verify-commits
```

```dockerfile
RUN git clone https://gitcode.com/Ascend/MindSpeed.git && \
    cd MindSpeed && git checkout f2b0977e
```

## Use instead

Let reflint verify the commit (the default), or pin a release tag:

```dockerfile
RUN git clone --depth 1 --branch v2.3.0_core_r0.12.1 https://gitcode.com/Ascend/MindSpeed.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import CommitState, Finding, Severity

CODE = "RL008"
NAME = "unverifiable-commit"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = True


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's commit id when its verification could not run, with the reason."""
    verdict = context.commit
    if verdict is None or verdict.state is not CommitState.UNVERIFIED:
        return
    yield context.finding(
        f'commit "{verdict.pinned}" of {verdict.remote} could not be verified against its history: '
        f"{verdict.detail}"
    )
