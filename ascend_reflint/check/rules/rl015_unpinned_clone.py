"""A clone or pip install of a repository with no ref at all.

## What it does

Reports a `git clone URL` that no `--branch` and no later `git checkout` pins, a
`pip install git+URL` without `@ref`, and a uv git source or a Poetry git dependency without `tag`,
`branch` or `rev`. The message names the remote's newest release tag when the remote
was looked up. Remotes listed under `head-tracking-remotes` in a rule pack are exempt. So is the scanned
project's own repository (the `origin` of its git config, or the repository that its `pyproject.toml` or
`setup.py` names) where documentation clones it (install-from-source steps follow the repository's own
development head by design), and where any recipe does when a pack lists it under
`self-head-tracking-remotes` (the default pack lists `github.com/volcengine/verl`, whose Dockerfiles
build verl at its head on purpose; another project's recipe that clones verl is reported). A local
path is left to RL017: what it holds is pinned, if at all, by what put it there.

## Why is this bad?

The build takes whatever the default branch holds on the day it runs, so two builds of one recipe can
differ, and a push upstream can break a build that passed yesterday with nothing changed here.

## Example

```dockerfile
RUN pip install git+https://github.com/ISEEKYAN/mbridge.git
RUN git clone https://github.com/deepseek-ai/DeepEP.git
```

## Use instead

```dockerfile
RUN pip install git+https://github.com/ISEEKYAN/mbridge.git@v0.15.1
RUN git clone --branch v1.2.1 https://github.com/deepseek-ai/DeepEP.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.suggest import newest_release_tag
from ascend_reflint.model import Finding, Severity, Via
from ascend_reflint.remote import is_local_path, redact, unsafe_reason

CODE = "RL015"
NAME = "unpinned-clone"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False

#: Per way of pinning that may name no ref: what is unpinned, what follows, and what to add.
_BUILD_MOVES = "the build takes whatever the default branch holds that day"
_LOCK_MOVES = "the lock file takes whatever the default branch holds on the day it is made or updated"
_TOML_ADVICE = 'add `tag = "<tag>"`{release} or `rev = "<commit id>"`'
_UNPINNED = {
    Via.CLONE: (
        "`git clone` of {target}",
        _BUILD_MOVES,
        "add `--branch <tag>`{release}, or check out a commit id after the clone",
    ),
    Via.PIP_VCS: (
        "pip's git+ URL of {target}",
        _BUILD_MOVES,
        'end the URL with "@<tag>"{release} or "@<commit id>"',
    ),
    Via.UV_SOURCE: ("the uv git source of {target}", _LOCK_MOVES, _TOML_ADVICE),
    Via.POETRY: ("the Poetry git dependency on {target}", _LOCK_MOVES, _TOML_ADVICE),
    Via.ADD_GIT: (
        "the `ADD` of {target}",
        _BUILD_MOVES,
        'end the URL with "#<tag>"{release} or "#<commit id>"',
    ),
    Via.BUILD_CONTEXT: (
        "the git build context {target}",
        _BUILD_MOVES,
        'end the URL with "#<tag>"{release} or "#<commit id>"',
    ),
    Via.CARGO: (
        "`cargo install --git` of {target}",
        _BUILD_MOVES,
        "add `--tag <tag>`{release} or `--rev <commit id>`",
    ),
    Via.NPM: (
        "the npm git dependency on {target}",
        _BUILD_MOVES,
        'end it with "#<tag>"{release} or "#<commit id>"',
    ),
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report a clone or pip VCS install that pins no ref."""
    pin = context.pin
    if pin.ref_text is not None or pin.via not in _UNPINNED:
        return
    if context.tracks_head or unsafe_reason(pin.url) is not None:
        return  # a refused URL is RL011's finding: its ref is beside the point
    if is_local_path(pin.url):
        return  # RL017's
    target = pin.remote or f'"{redact(pin.url)}"'
    newest = newest_release_tag(context.refs) if context.refs is not None else None
    release = f' (newest release: "{newest}")' if newest else ""
    what, consequence, advice = _UNPINNED[pin.via]
    yield context.finding(  # the command gains a ref: at the use, whatever variable gave the URL
        f"{what.format(target=target)} pins no ref, so {consequence}; {advice.format(release=release)}",
        at_use=True,
    )
