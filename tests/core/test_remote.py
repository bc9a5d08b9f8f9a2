"""URL normalisation, transport safety and credential redaction (ascend_reflint.remote)."""

import pytest

from ascend_reflint.remote import normalise_remote, redact, repo_dir_name, unsafe_reason


@pytest.mark.parametrize(
    ("url", "remote"),
    [
        ("https://github.com/NVIDIA/Megatron-LM.git", "github.com/nvidia/megatron-lm"),
        ("https://github.com/nvidia/megatron-lm", "github.com/nvidia/megatron-lm"),
        ("https://github.com/NVIDIA/Megatron-LM/", "github.com/nvidia/megatron-lm"),
        ("git@github.com:NVIDIA/Megatron-LM.git", "github.com/nvidia/megatron-lm"),
        ("ssh://git@github.com/NVIDIA/Megatron-LM.git", "github.com/nvidia/megatron-lm"),
        ("https://user:secret@GitCode.com/Ascend/MindSpeed.git", "gitcode.com/ascend/mindspeed"),
        ("https://git.example.com:8443/Team/Repo.git", "git.example.com:8443/Team/Repo"),
        ("https://git.example.com:443/Team/Repo.git", "git.example.com/Team/Repo"),
        ("file:///srv/git/repo.git", "file/srv/git/repo"),
        ("${REPO}", None),
        ("", None),
        ("not a url", None),
    ],
)
def test_normalise_remote(url: str, remote: str | None) -> None:
    assert normalise_remote(url) == remote


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://github.com/o/r.git", None),
        ("git@github.com:o/r.git", None),
        ("ssh://git@github.com/o/r", None),
        ("git://example.com/o/r", None),
        ("file:///srv/r.git", None),
        ("--upload-pack=touch /tmp/x", "it looks like a command-line option"),
        ("ext::sh -c touch% /tmp/x", "transport 'ext::' is not allowed"),
        ("fd::3", "transport 'fd::' is not allowed"),
        ("ftp://example.com/r.git", "transport 'ftp' is not allowed (allowed: file, git, http, https, ssh)"),
        ("https://example.com/\x1b[31m", "it holds control characters"),
        ("", "the URL is empty"),
    ],
)
def test_unsafe_reason(url: str, reason: str | None) -> None:
    assert unsafe_reason(url) == reason


def test_redact_replaces_password_and_token_user() -> None:
    text = (
        "clone https://user:ghp_SECRET@github.com/o/r and https://ghp_TOKEN@github.com/o/r, ssh://git@h/o/r"
    )
    assert (
        redact(text)
        == "clone https://user:***@github.com/o/r and https://***@github.com/o/r, ssh://git@h/o/r"
    )


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("https://github.com/NVIDIA/Megatron-LM.git", "Megatron-LM"),
        ("https://gitcode.com/Ascend/MindSpeed", "MindSpeed"),
        ("git@github.com:o/repo.git", "repo"),
        ("https://github.com/o/r/", "r"),
    ],
)
def test_repo_dir_name(url: str, name: str) -> None:
    assert repo_dir_name(url) == name
