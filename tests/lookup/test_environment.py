"""The user's git config as lookups see it, and the two environments git runs them in."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.lookup.credentials import CredentialPolicy, parse_credential_hosts
from ascend_reflint.lookup.environment import ISOLATED_SSH_OPTIONS, make_environments
from ascend_reflint.lookup.gitconfig import ConfigEntry, carried_entries, parse_config_list, rewrite_url

LISTING = (
    "global\0file:/home/u/.gitconfig\0credential.helper\nstore\0"
    "global\0file:/home/u/.gitconfig\0http.extraheader\nAUTHORIZATION: basic c2VjcmV0\0"
    "global\0file:/home/u/.gitconfig\0http.https://mirror.example/.proxy\nhttp://proxy:3128\0"
    "global\0file:/home/u/.gitconfig\0http.https://mirror.example/.extraheader\nX-Token: t\0"
    "global\0file:/home/u/.gitconfig\0http.sslcainfo\n/etc/ca.pem\0"
    "global\0file:/home/u/.gitconfig\0http.sslcert\n/home/u/client.pem\0"
    "command\0command line:\0url./srv/mirror/.insteadof\nhttps://github.com/\0"
    "command\0command line:\0url.https://x-access-token:TOKEN@github.com/.insteadof\nhttps://github.com/\0"
    "command\0command line:\0url./srv/mirror/nvidia/.insteadof\nhttps://github.com/NVIDIA/\0"
    "global\0file:/home/u/.gitconfig\0core.sshcommand\nssh -i /home/u/.ssh/deploy\0"
    "global\0file:/home/u/.gitconfig\0protocol.file.allow\nalways\0"
    "global\0file:/home/u/.gitconfig\0core.bare\0"
)


def test_the_listing_is_read_entry_by_entry() -> None:
    entries = parse_config_list(LISTING)
    assert entries[0] == ConfigEntry("credential.helper", "store", "file:/home/u/.gitconfig")
    assert entries[2].subsection == "https://mirror.example/"
    assert entries[-1] == ConfigEntry("core.bare", None, "file:/home/u/.gitconfig")
    assert len(entries) == 12


def test_only_what_reaching_a_server_needs_is_carried() -> None:
    assert [(e.key, e.value) for e in carried_entries(parse_config_list(LISTING))] == [
        ("http.https://mirror.example/.proxy", "http://proxy:3128"),
        ("http.sslcainfo", "/etc/ca.pem"),
        ("url./srv/mirror/.insteadof", "https://github.com/"),
        ("url./srv/mirror/nvidia/.insteadof", "https://github.com/NVIDIA/"),
        ("protocol.file.allow", "always"),
    ]


def test_rewrites_take_the_longest_matching_prefix_once() -> None:
    entries = parse_config_list(LISTING)
    assert (
        rewrite_url("https://github.com/NVIDIA/Megatron-LM.git", entries)
        == "/srv/mirror/nvidia/Megatron-LM.git"
    )
    assert rewrite_url("https://gitlab.com/o/r", entries) == "https://gitlab.com/o/r"


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://github.example.com/o/r.git", True),
        ("ssh://git@github.example.com/o/r.git", True),
        ("git@github.example.com:o/r.git", True),
        ("https://GitHub.Example.com/o/r", True),
        ("http://github.example.com/o/r.git", False),
        ("git://github.example.com/o/r.git", False),
        ("https://github.example.com.evil.test/o/r", False),
        ("https://evil.test/o/r", False),
        ("https://git.corp:8443/o/r", True),
        ("https://git.corp/o/r", False),
        ("/srv/github.example.com/o/r", False),
        ("https://[::1]/o/r", True),
    ],
)
def test_credentials_go_to_allowed_hosts_over_https_or_ssh_only(url: str, allowed: bool) -> None:
    policy = CredentialPolicy(frozenset(parse_credential_hosts("GitHub.example.com, git.corp:8443, [::1]")))
    assert policy.allows(url) is allowed


@pytest.mark.parametrize("text", ["https://github.com", "user@github.com", "*.github.com", "github.com/o"])
def test_a_host_list_holds_host_names_only(text: str) -> None:
    with pytest.raises(ValueError, match="not a host name"):
        parse_credential_hosts(text)


def test_the_isolated_environment_keeps_nothing_that_identifies_the_user(tmp_path: Path) -> None:
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "https_proxy": "http://proxy:3128",
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "credential.helper",
        "GIT_CONFIG_VALUE_0": "store",
        "GIT_CONFIG_PARAMETERS": "'http.extraheader'='X: y'",
        "GIT_SSL_CERT": "/home/u/client.pem",
        "SSH_AUTH_SOCK": "/tmp/agent.sock",
    }
    home = tmp_path / "home"
    home.mkdir()
    policy = CredentialPolicy(frozenset({"github.com"}))

    environments = make_environments(base, parse_config_list(LISTING), str(home), policy)

    ssh = "ssh " + " ".join(f"-o {option}" for option in ISOLATED_SSH_OPTIONS)
    isolated = {k: v for k, v in environments.isolated.items() if k not in ("GIT_ASKPASS", "SSH_ASKPASS")}
    assert isolated == {
        "PATH": "/usr/bin",
        "https_proxy": "http://proxy:3128",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_COUNT": "5",
        "GIT_CONFIG_KEY_0": "http.https://mirror.example/.proxy",
        "GIT_CONFIG_VALUE_0": "http://proxy:3128",
        "GIT_CONFIG_KEY_1": "http.sslcainfo",
        "GIT_CONFIG_VALUE_1": "/etc/ca.pem",
        "GIT_CONFIG_KEY_2": "url./srv/mirror/.insteadof",
        "GIT_CONFIG_VALUE_2": "https://github.com/",
        "GIT_CONFIG_KEY_3": "url./srv/mirror/nvidia/.insteadof",
        "GIT_CONFIG_VALUE_3": "https://github.com/NVIDIA/",
        "GIT_CONFIG_KEY_4": "protocol.file.allow",
        "GIT_CONFIG_VALUE_4": "always",
        "GIT_TERMINAL_PROMPT": "0",
        "GCM_INTERACTIVE": "never",
        "GIT_SSH_COMMAND": ssh,
    }
    assert (home / ".gitconfig").read_text() == ""
    # The user's own environment, kept whole, with the ssh command the user configured, in batch mode.
    assert environments.user["GIT_SSH_COMMAND"] == "ssh -i /home/u/.ssh/deploy -o BatchMode=yes"
    assert environments.user["GIT_CONFIG_PARAMETERS"] == base["GIT_CONFIG_PARAMETERS"]
    # github.com is allowed, but its URLs go to a local mirror after the user's rewrite: isolated.
    assert environments.for_url("https://github.com/o/r") is environments.isolated
    assert environments.for_url("https://gitlab.com/o/r") is environments.isolated
