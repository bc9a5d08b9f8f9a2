r"""A checkout names a ref that only FETCH_HEAD holds.

## What it does

Reports `git checkout NAME` after a `git fetch … NAME` that stored no local ref for NAME, so that only
`FETCH_HEAD` holds what was fetched:

- a fetch from a URL rather than a remote's name (`git fetch https://… v1.0`): git makes no
  remote-tracking branch and no tag;
- a fetch of a tag by name (`git fetch origin v1.0`) into a repository that does not already hold the
  remote's tags (a `--depth`, `--single-branch` or `--no-tags` clone, or `git init` + `git remote add`):
  git makes no local tag;
- after `git clone --depth` or `--single-branch`, a fetch of another branch (`git fetch origin dev`): the
  clone's refspec covers its one branch, so git makes no `origin/dev`.

Whether NAME is a tag or a branch comes from the remote's ref list (`git ls-remote`). There is no finding
for a full commit id, for `git fetch origin tag NAME`, or for `git fetch origin BRANCH` after `git remote
add origin URL` or in a full clone (git updates `origin/BRANCH`, and `git checkout BRANCH` creates the
branch from it). Each case was verified with git 2.39.

## Why is this bad?

The checkout fails ("error: pathspec 'v1.0' did not match any file(s) known to git") and so does the
build, although the fetch succeeded.

## Example

```dockerfile
RUN git clone --depth 1 https://github.com/vllm-project/vllm.git && cd vllm && \
    git fetch --depth 1 origin v0.9.1 && git checkout v0.9.1
```

## Use instead

```dockerfile
RUN git clone --depth 1 https://github.com/vllm-project/vllm.git && cd vllm && \
    git fetch --depth 1 origin tag v0.9.1 && git checkout v0.9.1
```

or `git checkout FETCH_HEAD`, which checks out what the fetch brought whatever it is.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import is_full_commit_id
from ascend_reflint.model import Fetch, Finding, Related, RemoteRefs, Severity, Via

CODE = "RL020"
NAME = "checkout-of-fetch-head-only"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False  # a fetch from a URL needs none; a tag or branch by name needs the ref list


def check(context: PinContext) -> Iterator[Finding]:
    """Report a checkout by name of a ref that the fetch before it stored in FETCH_HEAD only."""
    pin = context.pin
    fetch = pin.fetch
    name = pin.ref
    if pin.via is not Via.CHECKOUT or fetch is None or name is None or fetch.tag or is_full_commit_id(name):
        return
    why = _why_missing(fetch, name, context.refs)
    if why is None:
        return
    advice = "check out FETCH_HEAD"
    if not fetch.by_url and context.refs is not None and name in context.refs.tags:
        advice += f", or fetch it as `git fetch origin tag {name}`"
    fetched_here = Related(pin.path, fetch.span.line, fetch.span.column, f"{name} is fetched here")
    yield context.finding(
        f'`git checkout {pin.ref_text}` fails ("pathspec did not match"): {why}, so only FETCH_HEAD holds '
        f"{name}; {advice}",
        related=(fetched_here,),
        at_use=True,
    )


def _why_missing(fetch: Fetch, name: str, refs: RemoteRefs | None) -> str | None:
    """Why the fetch stored no local ref of ``name`` (None when it did, or when that is not known)."""
    if fetch.by_url:
        return "the fetch names a URL, not a remote, which makes no remote-tracking branch or tag"
    if refs is None:
        return None
    if name in refs.tags and name not in refs.branches:
        if fetch.has_tags:
            return None
        return "a fetch of a tag by name makes no local tag, and the clone has not fetched the remote's tags"
    if name in refs.branches:
        tracked = fetch.tracked_branch
        if tracked is None or tracked == name or (tracked == "HEAD" and refs.head == refs.branches[name]):
            return None
        return f"the clone is single-branch (--depth or --single-branch), so the fetch makes no origin/{name}"
    return None
