"""URL normalisation, transport safety and credential redaction (ascend_reflint.remote)."""

import pytest

from ascend_reflint.remote import (
    is_local_path,
    lookup_key,
    normalise_remote,
    redact,
    repo_dir_name,
    unsafe_reason,
)


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


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://github.com/NVIDIA/Megatron-LM.git", "https://github.com/nvidia/megatron-lm"),
        ("https://github.com/nvidia/megatron-lm/", "https://github.com/nvidia/megatron-lm"),
        ("HTTPS://GitHub.com/NVIDIA/Megatron-LM", "https://github.com/nvidia/megatron-lm"),
        ("git://github.com/NVIDIA/Megatron-LM.git", "git://github.com/nvidia/megatron-lm"),
        ("https://TOKEN@github.com/NVIDIA/Megatron-LM.git", "https://TOKEN@github.com/nvidia/megatron-lm"),
        ("https://a@b.com:PASS@github.com/o/r", "https://a@b.com:PASS@github.com/o/r"),
        ("https://github.com:8443/o/r.git", "https://github.com:8443/o/r"),
        ("git@github.com:NVIDIA/Megatron-LM.git", "git@github.com:nvidia/megatron-lm"),
        ("ssh://git@github.com/NVIDIA/Megatron-LM.git", "ssh://git@github.com/nvidia/megatron-lm"),
        ("https://git.example.com/Team/Repo.git", "https://git.example.com/Team/Repo"),
        ("../x/.git", None),
        ("file:///srv/r.git", None),
        ("$REPO", None),
    ],
)
def test_lookup_key_keeps_scheme_user_host_port_and_path(url: str, key: str | None) -> None:
    assert lookup_key(url) == key


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("../x/.git", True),
        ("/etc", True),
        ("//host/share/r", True),
        ("./x", True),
        ("~/src/r", True),
        ("FILE:///srv/r", True),
        (".", True),
        ("https://github.com/o/r", False),
        ("git@github.com:o/r", False),
        ("x/.git", False),
    ],
)
def test_local_paths_are_told_apart_as_written(url: str, local: bool) -> None:
    assert is_local_path(url) is local


def test_white_space_is_refused_in_a_url_but_not_in_a_local_path() -> None:
    reason = "it holds white space, which no git URL does (a stray space or a line break inside quotes?)"
    assert unsafe_reason("https://github.com/o/r .git") == reason
    assert unsafe_reason("git@github.com:o/r .git") == reason
    assert unsafe_reason("/srv/my repo") is None
