"""A clone or pip install of a repository with no ref at all.

## What it does

Reports a `git clone URL` that no `--branch` and no later `git checkout` pins, and a
`pip install git+URL` without `@ref`. The message names the remote's newest release tag when the remote
was looked up. Remotes listed under `head-tracking-remotes` in a rule pack are exempt: a project's own
Dockerfile that builds the project at its head does so on purpose (the default pack lists
`github.com/volcengine/verl`). A local path is left to RL017: what it holds is pinned, if at all, by
what put it there.

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


def check(context: PinContext) -> Iterator[Finding]:
    """Report a clone or pip VCS install that pins no ref."""
    pin = context.pin
    if pin.ref_text is not None or pin.via not in (Via.CLONE, Via.PIP_VCS):
        return
    if context.policy.is_head_tracking(pin.remote) or unsafe_reason(pin.url) is not None:
        return  # a refused URL is RL011's finding: its ref is beside the point
    if is_local_path(pin.url):
        return  # RL017's
    target = pin.remote or f'"{redact(pin.url)}"'
    newest = newest_release_tag(context.refs) if context.refs is not None else None
    release = f' (newest release: "{newest}")' if newest else ""
    if pin.via is Via.CLONE:
        what = f"`git clone` of {target}"
        advice = f"add `--branch <tag>`{release}, or check out a commit id after the clone"
    else:
        what = f"pip's git+ URL of {target}"
        advice = f'end the URL with "@<tag>"{release} or "@<commit id>"'
    yield context.finding(
        f"{what} pins no ref, so the build takes whatever the default branch holds that day; {advice}"
    )
