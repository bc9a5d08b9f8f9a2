"""Real ``git ls-remote`` runs: local remotes behind ``insteadOf``, loopback servers, unsafe URLs."""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

from ascend_reflint.lookup import LookupOptions, lookup_remotes
from ascend_reflint.model import FailureKind, LookupFailure, RemoteRefs

from .support import GitCall, HttpServer, live_group_members, ls_remote_calls, wait_for

MEGATRON = "github.com/nvidia/megatron-lm"
MEGATRON_URL = "https://github.com/NVIDIA/Megatron-LM.git"
#: The ssh command of a lookup whose host is not allowed credentials.
ISOLATED_SSH = (
    "ssh -o BatchMode=yes -o IdentityAgent=none -o PubkeyAuthentication=no -o PasswordAuthentication=no "
    "-o KbdInteractiveAuthentication=no -o GSSAPIAuthentication=no -o HostbasedAuthentication=no "
    "-o ForwardAgent=no -o ControlMaster=no -o ControlPath=none"
)


def _command_names(pids: list[int]) -> list[str]:
    """The command name of each process (``/proc/PID/comm``); a process gone meanwhile is left out."""
    names = []
    for pid in pids:
        try:
            names.append(Path(f"/proc/{pid}/comm").read_text().strip())
        except OSError:
            continue
    return names


def _refs(result: object) -> RemoteRefs:
    assert isinstance(result, RemoteRefs), result
    return result


def test_existing_remote_gives_exactly_its_branches_and_tags(git_env: FakeRemotes, cache_dir: Path) -> None:
    results, stats = lookup_remotes({MEGATRON: MEGATRON_URL}, LookupOptions(cache_dir=cache_dir))

    refs = _refs(results[MEGATRON])
    assert refs.remote == MEGATRON
    assert refs.branches == git_env["github.com/NVIDIA/Megatron-LM"].branches
    assert refs.tags == git_env["github.com/NVIDIA/Megatron-LM"].tags
    assert sorted(refs.branches) == ["core_r0.10.0", "core_r0.12.0", "core_r0.18.0", "main"]
    assert sorted(refs.tags) == [
        "core_r0.10.0",
        "core_v0.11.0",
        "core_v0.12.1",
        "core_v0.15.0",
        "core_v0.18.0",
        "core_v0.18.2",
    ]
    assert refs.head is None
    assert (stats.lookups, stats.cached, stats.notices) == (1, 0, [])


def test_ids_are_the_commits_and_an_annotated_tag_gives_its_peeled_commit(
    git_env: FakeRemotes, cache_dir: Path
) -> None:
    # The local repositories are built deterministically, so their ids are fixed.
    results, _ = lookup_remotes({MEGATRON: MEGATRON_URL}, LookupOptions(cache_dir=cache_dir))

    refs = _refs(results[MEGATRON])
    assert refs.branches["core_r0.18.0"] == "19fe17430b0d3f780146381a5f337b43d08c6636"
    assert (
        refs.tags["core_r0.10.0"]
        == refs.branches["core_r0.10.0"]
        == "bc9bce85e49f9aa4a7fc9980a70bcddc4e7b8a5e"
    )
    # core_v0.11.0 is annotated: the tag object is 4c1c9934…, the commit it points to 3b275b6d….
    assert refs.tags["core_v0.11.0"] == "3b275b6dc1eb4aaa87a7286bd3b5ce74f3fcd383"
    assert (
        refs.tags["core_v0.11.0"]
        == git_env["github.com/NVIDIA/Megatron-LM"].commit_of["aa6207e2da6bca789375f591c9124aa408d2509a"]
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/actions/checkout",
        "http://github.com/actions/checkout.git",
        "git@github.com:actions/checkout.git",
        "ssh://git@github.com/actions/checkout",
    ],
)
def test_every_url_form_of_a_remote_reaches_it(git_env: FakeRemotes, cache_dir: Path, url: str) -> None:
    results, _ = lookup_remotes({"github.com/actions/checkout": url}, LookupOptions(cache_dir=cache_dir))

    assert _refs(results["github.com/actions/checkout"]) == RemoteRefs(
        remote="github.com/actions/checkout",
        branches={"main": "3a4bb86d8548714997c907a21518d2f37fafa1f6"},
        tags={
            "v4": "62850acbd25e9c16e149ca338beca7ae046f8117",
            "v4.3.0": "1a15134feb2cc1606ab8cb14039e66dce79a7fad",
            "v4.4.0": "62850acbd25e9c16e149ca338beca7ae046f8117",
        },
        fetched_at=_refs(results["github.com/actions/checkout"]).fetched_at,
    )


def test_a_repository_missing_from_the_mirror_that_insteadof_points_at_is_not_in_the_mirror(
    git_env: FakeRemotes, cache_dir: Path
) -> None:
    # The user's config sends https://github.com/ to a mirror (here: local repositories) that lacks the
    # repository: a fact about the mirror, never "no such repository" (a 404 without a rewrite is, above).
    results, stats = lookup_remotes(
        {"github.com/nvidia/no-such-repo": "https://github.com/NVIDIA/no-such-repo.git"},
        LookupOptions(cache_dir=cache_dir),
    )

    missing = git_env.root.resolve() / "github.com/NVIDIA/no-such-repo.git"
    assert results == {
        "github.com/nvidia/no-such-repo": LookupFailure(
            remote="github.com/nvidia/no-such-repo", kind=FailureKind.NOT_IN_MIRROR, detail=str(missing)
        )
    }
    assert stats.lookups == 1


def test_refused_connection_is_unreachable(cache_dir: Path, closed_port: int) -> None:
    url = f"https://127.0.0.1:{closed_port}/x.git"
    results, _ = lookup_remotes({"127.0.0.1/x": url}, LookupOptions(cache_dir=cache_dir))

    failure = results["127.0.0.1/x"]
    assert isinstance(failure, LookupFailure)
    assert (failure.remote, failure.kind) == (f"127.0.0.1:{closed_port}/x", FailureKind.UNREACHABLE)
    # curl says how long it tried: the one part of the detail that is not known in advance.
    assert re.fullmatch(
        re.escape(
            f"fatal: unable to access '{url}/': Failed to connect to 127.0.0.1 port {closed_port} after "
        )
        + r"\d+ ms: Couldn't connect to server",
        failure.detail,
    ), failure.detail


def test_server_that_never_answers_times_out_and_its_git_process_group_is_killed(
    cache_dir: Path, silent_port: int, git_calls: Callable[[], list[GitCall]]
) -> None:
    done = threading.Event()
    seen_members: list[str] = []

    def watch_group() -> None:
        # While git waits for the server, its group holds git and git-remote-http (which starts within
        # about 25 ms even on one busy CPU: the 1.5 s timeout leaves a wide margin).
        wait_for(lambda: bool(ls_remote_calls(git_calls())) or done.is_set())
        calls = ls_remote_calls(git_calls())
        if calls:
            group = calls[0].pid
            wait_for(lambda: "git-remote-http" in _command_names(live_group_members(group)) or done.is_set())
            seen_members.extend(_command_names(live_group_members(group)))

    watcher = threading.Thread(target=watch_group)
    watcher.start()
    try:
        results, stats = lookup_remotes(
            {"127.0.0.1/x": f"http://127.0.0.1:{silent_port}/x.git"},
            LookupOptions(cache_dir=cache_dir, timeout=1.5),
        )
    finally:
        done.set()
        watcher.join()

    assert results == {
        "127.0.0.1/x": LookupFailure(
            remote=f"127.0.0.1:{silent_port}/x", kind=FailureKind.TIMEOUT, detail="no answer within 1.5 s"
        )
    }
    assert stats.lookups == 1
    (call,) = ls_remote_calls(git_calls())
    assert call.session_leader
    # git, and the helper it runs for http (git runs it through a second git: how many is git's choice).
    assert set(seen_members) == {"git", "git-remote-http"}
    assert wait_for(lambda: not live_group_members(call.pid)), live_group_members(call.pid)


def test_interrupted_lookup_kills_the_gits_still_running(
    git_env: FakeRemotes, cache_dir: Path, silent_port: int, git_calls: Callable[[], list[GitCall]]
) -> None:
    silent_url = f"http://127.0.0.1:{silent_port}/x.git"

    def progress(remote: str) -> None:
        # Interrupt once the silent remote's git is running too.
        wait_for(lambda: any(silent_url in call.argv for call in git_calls()))
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError, match="interrupted"):
        lookup_remotes(
            {MEGATRON: MEGATRON_URL, "127.0.0.1/x": silent_url},
            LookupOptions(cache_dir=cache_dir, timeout=120.0, jobs=2),
            progress=progress,
        )

    (silent,) = [call for call in git_calls() if silent_url in call.argv]
    assert wait_for(lambda: not live_group_members(silent.pid)), live_group_members(silent.pid)


@pytest.mark.parametrize(
    ("status", "kind", "message"),
    [
        (401, FailureKind.NOT_FOUND_OR_PRIVATE, "fatal: Authentication failed for '{url}/'"),
        (
            403,
            FailureKind.NOT_FOUND_OR_PRIVATE,
            "fatal: unable to access '{url}/': The requested URL returned error: 403",
        ),
        (404, FailureKind.NOT_FOUND, "fatal: repository '{url}/' not found"),
        (500, FailureKind.OTHER, "fatal: unable to access '{url}/': The requested URL returned error: 500"),
    ],
)
def test_http_answers_are_classified(
    cache_dir: Path,
    http_server: Callable[[int], HttpServer],
    status: int,
    kind: FailureKind,
    message: str,
) -> None:
    server = http_server(status)
    url = f"http://127.0.0.1:{server.port}/x.git"

    results, _ = lookup_remotes({"127.0.0.1/x": url}, LookupOptions(cache_dir=cache_dir))

    assert results == {
        "127.0.0.1/x": LookupFailure(
            remote=f"127.0.0.1:{server.port}/x", kind=kind, detail=message.format(url=url)
        )
    }


def test_a_credential_helper_never_answers_over_http_not_even_for_an_allowed_host(
    cache_dir: Path, tmp_path: Path, http_server: Callable[[int], HttpServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    helper = tmp_path / "credential-helper"
    marker = tmp_path / "helper-ran"
    helper.write_text(
        f"#!{sys.executable}\nopen({str(marker)!r}, 'w').close()\nprint('username=alice')\n"
        "print('password=s3cret')\n"
    )
    helper.chmod(0o755)
    set_env(
        monkeypatch,
        {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "credential.helper", "GIT_CONFIG_VALUE_0": str(helper)},
    )
    server = http_server(401)
    server.accept_authorization = "Basic " + base64.b64encode(b"alice:s3cret").decode()
    url = f"http://127.0.0.1:{server.port}/x.git"
    options = LookupOptions(cache_dir=cache_dir, credentials_for=frozenset({"127.0.0.1"}))

    results, _ = lookup_remotes({"127.0.0.1/x": url}, options)

    # Plain http: git was run without the user's config, so the helper never ran and nothing was sent.
    assert server.authorizations and set(server.authorizations) == {None}
    assert not marker.exists()
    assert results == {
        "127.0.0.1/x": LookupFailure(
            remote=f"127.0.0.1:{server.port}/x",
            kind=FailureKind.NOT_FOUND_OR_PRIVATE,
            detail=f"fatal: Authentication failed for '{url}/'",
        )
    }


def test_credentials_in_a_url_never_reach_the_detail(
    cache_dir: Path, http_server: Callable[[int], HttpServer]
) -> None:
    server = http_server(401)
    url = f"http://alice:s3cret@127.0.0.1:{server.port}/x.git"

    results, _ = lookup_remotes({"127.0.0.1/x": url}, LookupOptions(cache_dir=cache_dir))

    # The URL in git's message has no user or password at all.
    assert results == {
        "127.0.0.1/x": LookupFailure(
            remote=f"127.0.0.1:{server.port}/x",
            kind=FailureKind.NOT_FOUND_OR_PRIVATE,
            detail=f"fatal: Authentication failed for 'http://127.0.0.1:{server.port}/x.git/'",
        )
    }


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ext::sh -c touch% {marker}", "transport 'ext::' is not allowed"),
        ("--upload-pack=touch {marker}", "it looks like a command-line option"),
    ],
)
def test_unsafe_url_is_refused_before_git_runs(
    cache_dir: Path, tmp_path: Path, git_calls: Callable[[], list[GitCall]], url: str, reason: str
) -> None:
    marker = tmp_path / "marker"

    results, stats = lookup_remotes({"evil": url.format(marker=marker)}, LookupOptions(cache_dir=cache_dir))

    assert results == {"evil": LookupFailure(remote="evil", kind=FailureKind.UNSAFE, detail=reason)}
    assert not marker.exists()
    assert git_calls() == []
    assert (stats.lookups, stats.cached) == (0, 0)


def test_a_cold_lookup_runs_the_config_read_then_ls_remote_and_nothing_before(
    git_env: FakeRemotes, cache_dir: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    """The first lookup waits for no other git (GitPython's import ran ``git version`` first: 60 to 270 ms
    of a cold scan)."""
    results, _ = lookup_remotes({MEGATRON: MEGATRON_URL}, LookupOptions(cache_dir=cache_dir))

    assert isinstance(results[MEGATRON], RemoteRefs)
    assert [call.argv[:2] for call in git_calls()] == [("config", "--list"), ("ls-remote", "--heads")]
    assert "git" not in sys.modules


def test_each_remote_is_asked_by_one_noninteractive_git_in_its_own_session(
    git_env: FakeRemotes, cache_dir: Path, git_calls: Callable[[], list[GitCall]]
) -> None:
    requests = {
        "github.com/nvidia/megatron-lm": "https://github.com/NVIDIA/Megatron-LM.git",
        "github.com/vllm-project/vllm-ascend": "https://github.com/vllm-project/vllm-ascend.git",
        "github.com/ascend/mindspeed": "https://github.com/Ascend/MindSpeed.git",
        "github.com/sgl-project/sgl-kernel-npu": "https://github.com/sgl-project/sgl-kernel-npu",
        "github.com/actions/checkout": "git@github.com:actions/checkout.git",
        "github.com/nvidia/no-such-repo": "https://github.com/NVIDIA/no-such-repo.git",
    }
    completed: list[str] = []

    results, stats = lookup_remotes(
        requests, LookupOptions(cache_dir=cache_dir, jobs=3), progress=completed.append
    )

    calls = ls_remote_calls(git_calls())
    assert sorted(call.argv for call in calls) == sorted(
        ("ls-remote", "--heads", "--tags", "--", url) for url in requests.values()
    )
    silent = shutil.which("true")
    for call in calls:
        assert call.session_leader and call.stdin_is_null
        assert call.env == {
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_ASKPASS": silent,
            "SSH_ASKPASS": silent,
            "GCM_INTERACTIVE": "never",
            "GIT_SSH_COMMAND": ISOLATED_SSH,
        }
    assert list(results) == list(requests)
    assert sorted(completed) == sorted(requests)
    assert (stats.lookups, stats.cached) == (6, 0)
    answers = {
        remote: (result.branches, result.tags)
        for remote, result in results.items()
        if isinstance(result, RemoteRefs)
    }
    assert answers == {
        remote: (git_env[name].branches, git_env[name].tags)
        for remote, name in (
            ("github.com/nvidia/megatron-lm", "github.com/NVIDIA/Megatron-LM"),
            ("github.com/vllm-project/vllm-ascend", "github.com/vllm-project/vllm-ascend"),
            ("github.com/ascend/mindspeed", "github.com/Ascend/MindSpeed"),
            ("github.com/sgl-project/sgl-kernel-npu", "github.com/sgl-project/sgl-kernel-npu"),
            ("github.com/actions/checkout", "github.com/actions/checkout"),
        )
    }
    missing = git_env.root.resolve() / "github.com/NVIDIA/no-such-repo.git"
    assert results["github.com/nvidia/no-such-repo"] == LookupFailure(
        "github.com/nvidia/no-such-repo", FailureKind.NOT_IN_MIRROR, str(missing)
    )


def test_core_ssh_command_is_kept_and_made_batch_for_an_allowed_host_only(
    cache_dir: Path,
    closed_port: int,
    git_calls: Callable[[], list[GitCall]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_env(
        monkeypatch,
        {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "core.sshCommand",
            "GIT_CONFIG_VALUE_0": "/usr/bin/ssh -i /keys/deploy",
        },
    )
    request = {"x": f"https://127.0.0.1:{closed_port}/x.git"}
    allowed = LookupOptions(cache_dir=cache_dir, credentials_for=frozenset({"127.0.0.1"}))

    lookup_remotes(request, allowed)
    lookup_remotes(request, LookupOptions(cache_dir=cache_dir))

    first, second = ls_remote_calls(git_calls())
    assert first.env["GIT_SSH_COMMAND"] == "/usr/bin/ssh -i /keys/deploy -o BatchMode=yes"
    # Not allowed: the same ssh program, without the key it names, and offering nothing.
    assert second.env["GIT_SSH_COMMAND"] == ISOLATED_SSH.replace("ssh ", "/usr/bin/ssh ", 1)


_LAZY_IMPORT_PROBE = """
import sys
import time
from pathlib import Path
from ascend_reflint.lookup import LookupOptions, lookup_remotes
from ascend_reflint.lookup.cache import RefCache
from ascend_reflint.model import RemoteRefs

cache_dir = Path(sys.argv[1])
refs = RemoteRefs("github.com/a/warm", {"main": "1" * 40}, {}, fetched_at=time.time())
RefCache(cache_dir).store("https://github.com/a/warm anonymous", refs)
cold = {"https://github.com/a/cold": "https://github.com/a/cold"}
offline, _ = lookup_remotes(cold, LookupOptions(cache_dir=cache_dir, offline=True))
warm = {"https://github.com/a/warm": "https://github.com/a/warm"}
_, stats = lookup_remotes(warm, LookupOptions(cache_dir=cache_dir))
print(offline["https://github.com/a/cold"].kind.value, stats.cached, "git" in sys.modules)
"""


def test_offline_and_warm_cache_lookups_do_not_import_gitpython(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _LAZY_IMPORT_PROBE, str(tmp_path / "cache")],
        capture_output=True,
        text=True,
        check=True,
    )

    assert completed.stdout == "offline 1 False\n"


def test_a_git_that_cannot_be_started_fails_every_remote(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_PYTHON_GIT_EXECUTABLE", "/nonexistent/git")

    results, stats = lookup_remotes({MEGATRON: MEGATRON_URL}, LookupOptions(cache_dir=cache_dir))

    detail = "git cannot be run: [Errno 2] No such file or directory: '/nonexistent/git'"
    assert results == {MEGATRON: LookupFailure(MEGATRON, FailureKind.OTHER, detail)}
    assert stats.lookups == 0


def test_no_git_on_the_path_fails_every_remote_without_raising(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from ascend_reflint.lookup import LookupOptions, lookup_remotes\n"
        "results, _ = lookup_remotes({'github.com/a/b': 'https://github.com/a/b'}, "
        "LookupOptions(cache_dir=Path(sys.argv[1])))\n"
        "print(results['github.com/a/b'].kind.value, results['github.com/a/b'].detail)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "GIT_PYTHON_GIT_EXECUTABLE"}
    env["PATH"] = str(tmp_path / "empty")

    completed = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "cache")],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )

    assert completed.stdout == "other git cannot be run: [Errno 2] No such file or directory: 'git'\n"
