"""The user's git configuration as lookups see it: read once, and split into what every lookup may carry and
what only hosts allowed to receive credentials get.

Facts used here:

- git-config(1): ``git config --list --show-scope --show-origin -z`` prints every effective entry (system,
  global, and the command scope: ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` and
  ``GIT_CONFIG_PARAMETERS``) as ``scope NUL origin NUL key LF value NUL`` (``key NUL`` for a key without
  a value), includes followed; section and variable names lower-cased, subsections as written.
- git-config(1) ``url.<base>.insteadOf``: a URL that starts with the value is rewritten to start with
  ``<base>``; when several values match, the longest wins (git's ``remote.c``, ``alias_url``: the first of
  the longest, in config order). The rewrite is applied once.
- The ``http.*`` names that git 2.39's ``http.c`` reads (``http.<url>.*`` takes the same names). Of those,
  :data:`CARRIED_HTTP` is what reaching a server needs — proxies, certificate authorities, TLS and HTTP
  versions, speed limits — and the rest sends something that identifies the user: ``extraHeader``, client
  certificates (``sslCert``, ``sslKey``), cookies (``cookieFile``, ``saveCookies``), Kerberos delegation
  (``delegation``) and ``emptyAuth``. Credential helpers (``credential.*``), ``core.askPass`` and
  ``core.sshCommand`` (which may name a key) are never carried either.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ascend_reflint.remote import redact

#: ``http.*`` and ``http.<url>.*`` variables that every lookup keeps (lower-case, as ``--list`` prints them).
CARRIED_HTTP = frozenset(
    {
        "proxy",
        "proxyauthmethod",
        "proxysslcainfo",
        "proxysslcert",
        "proxysslkey",
        "proxysslcertpasswordprotected",
        "sslcainfo",
        "sslcapath",
        "sslbackend",
        "sslverify",
        "sslversion",
        "sslcipherlist",
        "ssltry",
        "pinnedpubkey",
        "schannelcheckrevoke",
        "schannelusesslcainfo",
        "version",
        "lowspeedlimit",
        "lowspeedtime",
        "useragent",
        "curloptresolve",
        "followredirects",
        "noepsv",
        "maxrequests",
        "minsessions",
    }
)
#: Other ``section.variable`` names that every lookup keeps: the ``git://`` proxy command and the
#: transports the user allows (git-config(1) ``core.gitProxy``, ``protocol.*``).
_CARRIED_PLAIN = frozenset({"core.gitproxy", "protocol.allow", "protocol.version"})


class ConfigEntry(NamedTuple):
    """One effective git config entry.

    Attributes:
        key: ``section[.subsection].name``, section and name lower-case (``url./srv/git/.insteadof``).
        value: the value, or None for a key written without ``=`` (a boolean true).
        origin: where git read it (``file:/home/u/.gitconfig``, ``command line:``).
    """

    key: str
    value: str | None
    origin: str

    @property
    def section(self) -> str:
        """The section name (``url``, ``http``)."""
        return self.key.split(".", 1)[0]

    @property
    def name(self) -> str:
        """The variable name, the last dotted part (``insteadof``)."""
        return self.key.rsplit(".", 1)[-1]

    @property
    def subsection(self) -> str | None:
        """What lies between the section and the name (``/srv/git/`` of ``url./srv/git/.insteadof``), or
        None."""
        parts = self.key.split(".", 1)
        if len(parts) < 2 or "." not in parts[1]:
            return None
        return parts[1].rsplit(".", 1)[0]


def parse_config_list(output: str) -> list[ConfigEntry]:
    """Read ``git config --list --show-scope --show-origin -z`` output (see the module docstring).

    Args:
        output: git's standard output, decoded.

    Returns:
        The entries in git's order; a truncated last record is dropped.
    """
    fields = output.split("\0")
    entries: list[ConfigEntry] = []
    for index in range(0, len(fields) - 2, 3):
        _scope, origin, item = fields[index : index + 3]
        key, newline, value = item.partition("\n")
        if key:
            entries.append(ConfigEntry(key=key, value=value if newline else None, origin=origin))
    return entries


def is_carried(entry: ConfigEntry) -> bool:
    """True when a lookup for a host that may not have credentials still keeps ``entry``.

    A rewrite whose ``<base>`` holds a password or token (``url.https://user:TOKEN@host/.insteadOf``, a
    common way to give CI access to private repositories) is a credential, and is not carried.
    """
    section, name = entry.section, entry.name
    if section == "url":
        base = entry.subsection
        return name in ("insteadof", "pushinsteadof") and base is not None and redact(base) == base
    if section == "http":
        return name in CARRIED_HTTP
    if section == "protocol" and name == "allow":
        return True  # protocol.allow and protocol.<name>.allow
    return f"{section}.{name}" in _CARRIED_PLAIN and entry.subsection is None


def carried_entries(entries: Iterable[ConfigEntry]) -> list[ConfigEntry]:
    """The entries with a value that :func:`is_carried` keeps, in order."""
    return [entry for entry in entries if entry.value is not None and is_carried(entry)]


def rewrite_url(url: str, entries: Sequence[ConfigEntry]) -> str:
    """``url`` after git's ``url.<base>.insteadOf`` rewriting with ``entries`` (see the module docstring).

    Args:
        url: a URL as a recipe wrote it.
        entries: the effective config entries.

    Returns:
        The URL git fetches: ``<base>`` + the rest, for the longest matching ``insteadOf`` value; ``url``
        itself when none matches.
    """
    best_base, best_length = None, 0
    for entry in entries:
        if entry.section != "url" or entry.name != "insteadof" or entry.subsection is None:
            continue
        prefix = entry.value or ""
        if prefix and url.startswith(prefix) and len(prefix) > best_length:
            best_base, best_length = entry.subsection, len(prefix)
    return url if best_base is None else best_base + url[best_length:]


def read_user_config(
    git: str, env: Mapping[str, str], directory: str, timeout: float
) -> tuple[list[ConfigEntry], str | None]:
    """The user's effective git config, as git started in ``directory`` with ``env`` sees it.

    Args:
        git: the git program.
        env: the whole environment (see :func:`ascend_reflint.lookup.git.base_env`).
        directory: an empty directory outside any repository.
        timeout: seconds git may take.

    Returns:
        ``(entries, None)``, or ``([], why)`` when git could not list them (a broken config file, a
        timeout); lookups then carry nothing from the user's config.

    Raises:
        OSError: git cannot be started.
    """
    args = [git, "config", "--list", "--show-scope", "--show-origin", "-z"]
    try:
        completed = subprocess.run(
            args, cwd=directory, env=dict(env), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return [], f"`git config --list` gave no answer within {timeout:g} s"
    if completed.returncode != 0:
        reason = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        return [], f"`git config --list` failed: {reason[0] if reason else completed.returncode}"
    return parse_config_list(completed.stdout.decode("utf-8", "surrogateescape")), None
