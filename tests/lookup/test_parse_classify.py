"""Reading ``ls-remote`` output, classifying git's failures, and the non-interactive environment."""

from __future__ import annotations

import shutil

import pytest

from ascend_reflint.lookup.classify import classify_failure
from ascend_reflint.lookup.git import noninteractive_env, parse_ls_remote
from ascend_reflint.model import FailureKind, LookupFailure, RemoteRefs

# Real Megatron-LM ids: core_v0.11.0 is annotated (tag object a272a9ab…, commit aa6207e2…).
LS_REMOTE_OUTPUT = """\
D98E8A64DDF34856E74B24714E3BEDB2F5A39553\tHEAD
dc0ee41ada177d4c74ba46bb501bba5967264815\trefs/heads/core_r0.18.0
d98e8a64ddf34856e74b24714e3bedb2f5a39553\trefs/heads/main
0123456789012345678901234567890123456789\trefs/pull/1/head
7ee599a25ca15f042c1087176b73ebddb0566d02\trefs/tags/core_r0.10.0
aa6207e2da6bca789375f591c9124aa408d2509a\trefs/tags/core_v0.11.0^{}
a272a9ab7c79e1cd5dee8f1b836fea2fa7385413\trefs/tags/core_v0.11.0
warning: redirecting to https://github.com/NVIDIA/Megatron-LM.git/
not-an-id\trefs/heads/bogus
ba7b5ebce12af60627a80985792a1449ce45f46c\trefs/tags/core_v0.18.0
"""


def test_ls_remote_output_gives_branches_tags_and_peeled_commits() -> None:
    refs = parse_ls_remote("github.com/nvidia/megatron-lm", LS_REMOTE_OUTPUT, fetched_at=12.5)

    assert refs == RemoteRefs(
        remote="github.com/nvidia/megatron-lm",
        branches={
            "core_r0.18.0": "dc0ee41ada177d4c74ba46bb501bba5967264815",
            "main": "d98e8a64ddf34856e74b24714e3bedb2f5a39553",
        },
        tags={
            "core_r0.10.0": "7ee599a25ca15f042c1087176b73ebddb0566d02",
            "core_v0.11.0": "aa6207e2da6bca789375f591c9124aa408d2509a",
            "core_v0.18.0": "ba7b5ebce12af60627a80985792a1449ce45f46c",
        },
        head="d98e8a64ddf34856e74b24714e3bedb2f5a39553",
        fetched_at=12.5,
    )


def test_empty_repository_has_no_refs() -> None:
    assert parse_ls_remote("github.com/a/empty", "", fetched_at=1.0) == RemoteRefs(
        "github.com/a/empty", {}, {}, None, 1.0
    )


R = "github.com/owner/name"


@pytest.mark.parametrize(
    ("stderr", "kind", "detail"),
    [
        (
            "remote: Repository not found.\n"
            "fatal: repository 'https://github.com/owner/name.git/' not found\n",
            FailureKind.NOT_FOUND,
            "remote: Repository not found.",
        ),
        (
            "ERROR: Repository not found.\nfatal: Could not read from remote repository.\n\n"
            "Please make sure you have the correct access rights\nand the repository exists.\n",
            FailureKind.NOT_FOUND,
            "ERROR: Repository not found.",
        ),
        (
            "fatal: '/srv/mirror/name.git' does not appear to be a git repository\n"
            "fatal: Could not read from remote repository.\n",
            FailureKind.NOT_FOUND,
            "fatal: '/srv/mirror/name.git' does not appear to be a git repository",
        ),
        (
            "fatal: could not read Username for 'https://github.com': terminal prompts disabled\n",
            FailureKind.NOT_FOUND_OR_PRIVATE,
            "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
        ),
        (
            "fatal: Authentication failed for 'https://gitlab.com/owner/name.git/'\n",
            FailureKind.NOT_FOUND_OR_PRIVATE,
            "fatal: Authentication failed for 'https://gitlab.com/owner/name.git/'",
        ),
        (
            "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n",
            FailureKind.AUTH_REQUIRED,
            "git@github.com: Permission denied (publickey).",
        ),
        (
            "fatal: unable to access 'https://x.invalid/o/n.git/': Could not resolve host: x.invalid\n",
            FailureKind.UNREACHABLE,
            "fatal: unable to access 'https://x.invalid/o/n.git/': Could not resolve host: x.invalid",
        ),
        (
            "ssh: Could not resolve hostname nowhere.invalid: Name or service not known\n"
            "fatal: Could not read from remote repository.\n",
            FailureKind.UNREACHABLE,
            "ssh: Could not resolve hostname nowhere.invalid: Name or service not known",
        ),
        (
            "ssh: connect to host example.com port 22: Connection refused\n",
            FailureKind.UNREACHABLE,
            "ssh: connect to host example.com port 22: Connection refused",
        ),
        (
            "fatal: unable to access 'https://github.com/openssl/openssl.git/': "
            "SSL certificate problem: self-signed certificate in certificate chain\n",
            FailureKind.UNREACHABLE,
            "fatal: unable to access 'https://github.com/openssl/openssl.git/': "
            "SSL certificate problem: self-signed certificate in certificate chain",
        ),
        (
            "fatal: unable to access 'https://gitcode.com/Ascend/MindSpeed.git/': "
            "gnutls_handshake() failed: The TLS connection was non-properly terminated.\n",
            FailureKind.UNREACHABLE,
            "fatal: unable to access 'https://gitcode.com/Ascend/MindSpeed.git/': "
            "gnutls_handshake() failed: The TLS connection was non-properly terminated.",
        ),
        (
            "fatal: repository 'https://github.com/openssl/connection-refused.git/' not found\n",
            FailureKind.NOT_FOUND,
            "fatal: repository 'https://github.com/openssl/connection-refused.git/' not found",
        ),
        (
            "error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502\n"
            "fatal: expected flush\n",
            FailureKind.OTHER,
            "error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502",
        ),
        (
            "fatal: unable to access 'https://alice:tok3n@example.com/o/n.git/': "
            "The requested URL returned error: 403\n",
            FailureKind.NOT_FOUND_OR_PRIVATE,
            "fatal: unable to access 'https://alice:***@example.com/o/n.git/': "
            "The requested URL returned error: 403",
        ),
        ("remote: \x1b[31mproject moved\x1b[0m\x07\n", FailureKind.OTHER, "remote: [31mproject moved[0m"),
        ("", FailureKind.OTHER, "git exited with status 128"),
    ],
    ids=[
        "github-https-with-credentials",
        "github-ssh",
        "local-path",
        "credentials-asked",
        "authentication-failed",
        "ssh-publickey",
        "no-such-host",
        "ssh-no-such-host",
        "ssh-refused",
        "tls-certificate",
        "tls-handshake",
        "url-looking-like-a-network-error",
        "http-502",
        "redacted",
        "control-characters",
        "silent",
    ],
)
def test_failures_are_classified_by_gits_message(stderr: str, kind: FailureKind, detail: str) -> None:
    assert classify_failure(R, 128, stderr) == LookupFailure(remote=R, kind=kind, detail=detail)


SILENT = shutil.which("true")
BASE = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": SILENT, "SSH_ASKPASS": SILENT, "GCM_INTERACTIVE": "never"}


@pytest.mark.parametrize(
    ("environ", "configured", "ssh_command"),
    [
        ({}, None, "ssh -o BatchMode=yes"),
        ({}, "ssh -i ~/.ssh/deploy", "ssh -i ~/.ssh/deploy -o BatchMode=yes"),
        ({"GIT_SSH_COMMAND": "/usr/bin/ssh -p 2222"}, "ssh -i key", "/usr/bin/ssh -p 2222 -o BatchMode=yes"),
        ({"GIT_SSH": "/opt/bin/my-ssh"}, None, None),
        ({"GIT_SSH": "/opt/bin/my-ssh"}, "ssh -4", "ssh -4 -o BatchMode=yes"),
        ({"GIT_SSH_COMMAND": "plink -batch"}, None, None),
        ({"GIT_SSH_COMMAND": "ssh 'unbalanced"}, None, None),
    ],
    ids=[
        "default",
        "core.sshCommand",
        "GIT_SSH_COMMAND-wins",
        "GIT_SSH",
        "core.sshCommand-over-GIT_SSH",
        "plink",
        "unparsable",
    ],
)
def test_ssh_is_made_batch_only_when_it_is_openssh(
    environ: dict[str, str], configured: str | None, ssh_command: str | None
) -> None:
    expected = dict(BASE) if ssh_command is None else {**BASE, "GIT_SSH_COMMAND": ssh_command}

    assert noninteractive_env(environ, configured) == expected
