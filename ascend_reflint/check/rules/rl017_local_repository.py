"""A pin that fetches a repository from a path on the building machine.

## What it does

Reports, as information, a pin whose URL as the recipe writes it is a local path: `/srv/git/repo`,
`./repo`, `../x/.git`, `~/repo`, `//host/share/repo` (still a path to git) or `file:///srv/repo`.
reflint never looks such a URL up, and never touches the path: its refs are not checked, and the
other ref rules say nothing about this pin. Your own `url.<base>.insteadOf` rewrites of real URLs to
local mirrors are not affected: the URL is judged as the recipe writes it.

## Why is this bad?

It is not always bad: a `COPY` of a source tree followed by a clone of it is a common way to build from
a checkout. But the build then depends on what is at that path on the machine that builds, which the
recipe does not pin, and reflint cannot check the ref. Looking the path up would also tell whoever
wrote the recipe which paths exist on the machine that runs reflint, and what their refs are: a recipe
from a pull request could probe a CI runner that way.

## Example

```dockerfile
RUN git clone --branch v1.2.1 /src/DeepEP /opt/DeepEP
```

## Use instead

```dockerfile
RUN git clone --branch v1.2.1 https://github.com/deepseek-ai/DeepEP.git /opt/DeepEP
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import Finding, Severity
from ascend_reflint.remote import is_local_path, redact

CODE = "RL017"
NAME = "local-repository"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = False


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin once when its URL is a local path."""
    pin = context.pin
    if not is_local_path(pin.url):
        return
    what = f'its ref "{pin.ref or pin.ref_text}" was' if pin.ref_text is not None else "what it fetches was"
    yield context.finding(
        f'"{redact(pin.url)}" is a local path, a repository on the machine that builds: reflint does not '
        f"look local paths up, so {what} not checked",
        span=pin.url_span or pin.span,
    )
