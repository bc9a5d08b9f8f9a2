"""Which hosts may receive the user's git credentials: only those that the person running reflint names
(``--credentials-for HOST``, the ``REFLINT_CREDENTIALS_FOR`` environment variable, the Action's
``credentials-for`` input), and only over ``https`` or ``ssh``. Never the scanned repository's own
config, which a pull request controls. See :mod:`ascend_reflint.lookup.environment` for what "with" and
"without credentials" mean for git.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import urlsplit

from ascend_reflint.remote import url_host, url_scheme

#: The environment variable that allows hosts credentials, besides ``--credentials-for``.
CREDENTIALS_ENV = "REFLINT_CREDENTIALS_FOR"
#: Transports that may carry credentials (encrypted, and the server authenticated).
SECURE_SCHEMES = frozenset({"https", "ssh"})
_DEFAULT_PORTS = {"https": 443, "ssh": 22}
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
#: A host with an optional port; compiled on first use (re keeps it): only ``--credentials-for`` needs it.
_HOST = rf"(?:\[[0-9A-Fa-f:.]+\]|{_LABEL}(?:\.{_LABEL})*)(?::[0-9]{{1,5}})?"


def parse_credential_hosts(text: str) -> list[str]:
    """Read a comma-separated list of hosts (``github.example.com,git.corp:8443``), as
    ``--credentials-for`` and :data:`CREDENTIALS_ENV` take them.

    Returns:
        The hosts, lower-case, in order (empty items skipped); an IPv6 address without its brackets
        (``[::1]:8443`` → ``::1:8443``), as :func:`ascend_reflint.remote.url_host` gives hosts.

    Raises:
        ValueError: an item that is not a host name or address with an optional port (a URL, a path,
            ``user@host``, a wildcard).
    """
    hosts = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if not re.fullmatch(_HOST, item):
            raise ValueError(f"not a host name (with an optional :port): {item!r}")
        hosts.append(item.lower().replace("[", "").replace("]", ""))
    return hosts


class CredentialPolicy(NamedTuple):
    """The hosts that may receive the user's credentials.

    Attributes:
        hosts: ``host`` (any port) or ``host:port`` entries, lower-case.
    """

    hosts: frozenset[str] = frozenset()

    def allows(self, url: str) -> bool:
        """True when ``url`` may be looked up with the user's credentials: ``https`` or ``ssh``
        (``git@host:path`` too) to an allowed host (an entry without a port allows every port). Never
        for ``http``, ``git`` or a local path."""
        scheme, host = url_scheme(url), url_host(url)
        if scheme not in SECURE_SCHEMES or host is None:
            return False
        return host in self.hosts or f"{host}:{_port(url, scheme)}" in self.hosts


def _port(url: str, scheme: str) -> int | None:
    """The port git connects to for ``url``: the one written, else the transport's default."""
    if "://" not in url:
        return _DEFAULT_PORTS[scheme]  # scp-like: always ssh's port
    try:
        port = urlsplit(url).port
    except ValueError:
        return None
    return port if port is not None else _DEFAULT_PORTS[scheme]
