r"""A pinned commit that no branch or tag of its repository contains: it is not in the history.

## What it does

Reports a commit id that `git checkout`, pip, `uses:`, uv, Poetry or pre-commit is given, or that a
submodule is recorded at, when the commit exists on the server, which hands it out by id, but no branch or
tag of the repository reaches it. reflint finds this in the
remote's history, which it keeps in its cache (see RL008), and then asks the server for the commit by id
(`git fetch origin <id>`).

Such a commit is usually one of two things:

- a commit of a **fork**. GitHub keeps the objects of a whole fork network together and serves any of
  them through any repository's URL, so `https://github.com/NVIDIA/Megatron-LM` hands out a commit that
  only ever existed in someone's fork (zizmor calls this an *impostor commit*);
- a commit **left behind** by a force-push or a deleted branch, which the server keeps until it collects
  garbage, then drops.

## Why is this bad?

The recipe builds code that the named repository never had. For `git checkout` after a clone the build
fails at once (a clone fetches branches and tags only). pip and GitHub Actions fetch the commit by id, so
the build works today and fails when the server drops the commit, or, for a fork's commit, runs code
that the repository's maintainers never reviewed.

## Example

```dockerfile
RUN pip install "git+https://github.com/NVIDIA/Megatron-LM.git@8f3c2a9e5b1d4c7f6a0e9b8d7c6f5e4a3b2c1d0e"
```

## Use instead

A commit of the repository's own history (or the fork's URL, when the fork is what you mean):

```dockerfile
RUN pip install "git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.14.0"
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import CommitState, Finding, Severity, Via

CODE = "RL025"
NAME = "commit-not-in-history"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = True

_WHAT_HAPPENS = {
    Via.CHECKOUT: "a clone does not fetch it, so `git checkout` fails (unless the recipe fetches it by id)",
    Via.PIP_VCS: "pip fetches it by id, so the build runs code the repository never had",
    Via.ACTION: "GitHub runs it anyway: code the repository never had (a fork's commit, served through this "
    "URL, or one a force-push left)",
    Via.SUBMODULE: "`git submodule update` fetches it by id, so the submodule holds code the repository "
    "never had",
    Via.UV_SOURCE: "uv fetches it by id, so the build runs code the repository never had",
    Via.POETRY: "Poetry fetches branches and tags only, so the install fails",
    Via.PRE_COMMIT: "pre-commit fetches it by id, so the hooks run code the repository never had",
    Via.FETCHCONTENT: "a clone does not fetch it, so CMake's `git checkout` fails",
    Via.EXTERNAL_PROJECT: "a clone does not fetch it, so CMake's `git checkout` fails",
    Via.CPM: "a clone does not fetch it, so CPM's `git checkout` fails",
    Via.GITLAB_INCLUDE: "GitLab reads the included file at it anyway: code the project never had",
    Via.ADD_GIT: "BuildKit fetches it by id, so the image holds code the repository never had",
    Via.BUILD_CONTEXT: "BuildKit fetches it by id, so the image is built from code the repository never had",
    Via.CARGO: "cargo fetches it by id, so the build runs code the repository never had",
    Via.NPM: "a clone does not fetch it, so the install fails",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's commit id when the server has it outside every branch and tag."""
    verdict = context.commit
    if verdict is None or verdict.state is not CommitState.NOT_IN_HISTORY:
        return
    based = f" (it descends from {verdict.describe})" if verdict.describe else ""
    yield context.finding(
        f'commit "{verdict.pinned}" is not in the history of {verdict.remote}: no branch or tag contains it, '
        f"though the server hands it out by id{based}; {_WHAT_HAPPENS[context.pin.via]}; pin a commit that "
        "one of its branches or tags contains"
    )
