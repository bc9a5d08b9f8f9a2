"""A pin that fetches over plain `http://` or `git://`.

## What it does

Reports a clone, checkout or pip install whose URL, as the recipe writes it, uses `http://` or
`git://`: transports with no encryption and no authentication of the server. URLs on the loopback
address (`localhost`, `127.0.0.1`, `::1`) are left alone: their traffic never leaves the machine.
reflint itself never sends your credentials over either transport, not even to a host allowed with
`--credentials-for`.

## Why is this bad?

Anyone on the network path between the build and the server (a shared runner's network, a Wi-Fi, a
proxy) can answer in the server's place and hand the build other code, at any ref it asks for.
Credentials sent this way can be read by the same people. github.com stopped serving `git://` in
March 2022, so such a clone of a GitHub repository also fails.

## Example

```dockerfile
RUN git clone --branch v1.2.1 git://github.com/deepseek-ai/DeepEP.git /opt/DeepEP
RUN pip install git+http://mirror.example.com/ISEEKYAN/mbridge.git@v0.15.1
```

## Use instead

```dockerfile
RUN git clone --branch v1.2.1 https://github.com/deepseek-ai/DeepEP.git /opt/DeepEP
RUN pip install git+https://mirror.example.com/ISEEKYAN/mbridge.git@v0.15.1
```
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import Finding, Severity
from ascend_reflint.remote import redact, url_host, url_scheme

CODE = "RL016"
NAME = "insecure-transport"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False

_WHY = {
    "http": "plain HTTP, which anyone on the network path can read and answer in the server's place",
    "git": "git's own protocol, which has no encryption and no authentication of the server",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report the pin's URL when its transport is ``http`` or ``git`` and its host is not loopback."""
    pin = context.pin
    scheme = url_scheme(pin.url)
    if scheme not in _WHY or _is_loopback(url_host(pin.url)):
        return
    host = url_host(pin.url) or ""
    gone = "; github.com stopped serving git:// in 2022" if scheme == "git" and host == "github.com" else ""
    yield context.finding(
        f'URL "{redact(pin.url)}" fetches over {_WHY[scheme]}, so the build may get other code than the '
        f"pin names{gone}; use https://",
        span=pin.url_span or pin.span,
    )


def _is_loopback(host: str | None) -> bool:
    if host is None:
        return False
    if host == "localhost" or host.endswith(".localhost"):  # RFC 6761: always the loopback address
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
