"""Who gets credentials: the two environments git runs lookups in, and the rule that picks one per URL.

reflint runs in CI on recipes that strangers wrote, on machines whose git holds credentials (a credential
helper with the runner's token, ``http.extraHeader``, ``~/.netrc``, an ssh agent). A lookup of a URL that
such a recipe names must not hand those to its host. So there are two environments:

- **the user's**: the caller's environment and git config, whole. Only for a URL whose transport is
  ``https`` or ``ssh``, as written and after the user's ``insteadOf`` rewrites, to a host that the person
  running reflint allowed (``--credentials-for HOST``, ``REFLINT_CREDENTIALS_FOR``, the Action's
  ``credentials-for`` input; never the scanned repository's config, which a pull request controls).
- **the isolated one**, for every other URL: its own empty ``HOME`` (so no ``~/.netrc``, no
  ``~/.config/git``), ``GIT_CONFIG_GLOBAL`` an empty file in it, ``GIT_CONFIG_NOSYSTEM=1``, none of the
  caller's ``GIT_CONFIG_*`` variables, no client certificate (``GIT_SSL_CERT``/``KEY``), no ssh agent, and
  an ssh that offers no key, password or ticket. It carries only what reaching a server needs from the
  user's effective config (:func:`ascend_reflint.lookup.gitconfig.carried_entries`: ``insteadOf``
  rewrites, proxies, certificate authorities …), as ``GIT_CONFIG_COUNT`` variables; proxy variables
  (``https_proxy`` …) stay.

``http://`` and ``git://`` never get the user's environment, not even for an allowed host: anyone on the
network path reads what they carry.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ascend_reflint.lookup.credentials import CredentialPolicy
from ascend_reflint.lookup.git import is_openssh, noninteractive_env
from ascend_reflint.lookup.gitconfig import ConfigEntry, carried_entries, rewrite_url

#: Variables that the isolated environment drops: they identify the user to a server or point git at the
#: user's configuration (git(1), git-config(1) "ENVIRONMENT", curl's netrc, ssh-agent(1)).
_IDENTIFYING = frozenset(
    {
        "HOME",
        "XDG_CONFIG_HOME",
        "GIT_CONFIG",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_SSL_CERT",
        "GIT_SSL_KEY",
        "GIT_SSL_CERT_PASSWORD_PROTECTED",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_SSH_VARIANT",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "SSH_AUTH_SOCK",
        "SSH_AGENT_PID",
        "NETRC",
        "CURL_HOME",
    }
)
_CONFIG_PAIR = re.compile(r"GIT_CONFIG_(KEY|VALUE)_\d+")
#: OpenSSH options (ssh_config(5)) for a host that gets no credentials: no agent, key, password,
#: keyboard-interactive, Kerberos or host-based login, nothing forwarded, no shared master connection
#: (which would be logged in already). Options given with -o win over the user's ssh config files.
ISOLATED_SSH_OPTIONS = (
    "BatchMode=yes",
    "IdentityAgent=none",
    "PubkeyAuthentication=no",
    "PasswordAuthentication=no",
    "KbdInteractiveAuthentication=no",
    "GSSAPIAuthentication=no",
    "HostbasedAuthentication=no",
    "ForwardAgent=no",
    "ControlMaster=no",
    "ControlPath=none",
)


class LookupEnvironments(NamedTuple):
    """The two environments (see the module docstring) and the user's config they were made from.

    Attributes:
        user: the full environment for git, for URLs :class:`CredentialPolicy` allows.
        isolated: the environment for every other URL.
        config: the user's effective git config entries.
        policy: the hosts allowed credentials.
    """

    user: Mapping[str, str]
    isolated: Mapping[str, str]
    config: Sequence[ConfigEntry]
    policy: CredentialPolicy

    def for_url(self, url: str) -> Mapping[str, str]:
        """The environment to look ``url`` up in: the user's when :func:`as_fetched` allows credentials,
        else the isolated one."""
        return self.user if as_fetched(url, self.config, self.policy)[1] else self.isolated


def as_fetched(url: str, config: Sequence[ConfigEntry], policy: CredentialPolicy) -> tuple[str, bool]:
    """The URL git fetches for ``url`` (after the user's ``insteadOf`` rewrites in ``config``), and whether
    the lookup runs with the user's git config and credentials: only when ``policy`` allows both ``url`` as
    written and the URL fetched."""
    fetched = rewrite_url(url, config)
    return fetched, policy.allows(url) and policy.allows(fetched)


def make_environments(
    base: Mapping[str, str], config: Sequence[ConfigEntry], home: str, policy: CredentialPolicy
) -> LookupEnvironments:
    """Build both environments.

    Args:
        base: the caller's environment, already free of repository variables (see
            :func:`ascend_reflint.lookup.git.base_env`).
        config: the user's effective git config (``git config --list`` in ``base``).
        home: an empty directory to be the isolated ``HOME``; an empty ``.gitconfig`` is written in it.
        policy: the hosts allowed credentials.

    Raises:
        OSError: the isolated ``.gitconfig`` cannot be written.
    """
    ssh_command = next((e.value for e in reversed(config) if e.key == "core.sshcommand" and e.value), None)
    user = {**base, **noninteractive_env(base, ssh_command)}
    global_config = os.path.join(home, ".gitconfig")
    with open(global_config, "x", encoding="utf-8"):
        pass
    isolated = {
        name: value
        for name, value in base.items()
        if name not in _IDENTIFYING and not _CONFIG_PAIR.fullmatch(name)
    }
    isolated.update(
        {
            "HOME": home,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "GIT_CONFIG_GLOBAL": global_config,
            "GIT_CONFIG_NOSYSTEM": "1",
            **_config_variables(carried_entries(config)),
            **noninteractive_env({}, None),
            "GIT_SSH_COMMAND": isolated_ssh_command(base, ssh_command),
        }
    )
    return LookupEnvironments(user=user, isolated=isolated, config=tuple(config), policy=policy)


def isolated_ssh_command(environ: Mapping[str, str], ssh_command: str | None) -> str:
    """``ssh -o …`` with :data:`ISOLATED_SSH_OPTIONS`, using the ssh program the user chose when it is
    OpenSSH (its other arguments, which may name a key, are dropped), else ``ssh``."""
    import shlex

    chosen = environ.get("GIT_SSH_COMMAND") or ssh_command or "ssh"
    program = shlex.split(chosen)[0] if is_openssh(chosen) else "ssh"
    return " ".join([shlex.quote(program), *(f"-o {option}" for option in ISOLATED_SSH_OPTIONS)])


def _config_variables(entries: Iterable[ConfigEntry]) -> dict[str, str]:
    """``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` for ``entries`` (git-config(1))."""
    variables: dict[str, str] = {}
    count = 0
    for count, entry in enumerate(entries, start=1):
        variables[f"GIT_CONFIG_KEY_{count - 1}"] = entry.key
        variables[f"GIT_CONFIG_VALUE_{count - 1}"] = entry.value or ""
    variables["GIT_CONFIG_COUNT"] = str(count)
    return variables
