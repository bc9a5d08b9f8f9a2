"""Fixtures for the hostile-input tests: local remotes (one with 100,000 refs) and misbehaving servers; and,
for every test here, a check that no output of reflint holds a workflow command it did not mean."""

from __future__ import annotations

import contextlib
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, build_remotes

from .runner_commands import foreign_commands
from .support import BIG_HOST, BIG_REF_COUNT, RECORDED_OUTPUT, LoopbackServer, clean_env


@pytest.fixture(autouse=True)
def no_forged_workflow_commands() -> Iterator[None]:
    """After each test, read what every reflint run of it wrote (stdout and stderr, as recorded by
    ``support.run_reflint``, ``support.record`` and ``support.run_in_terminal``) as the GitHub Actions
    runner would: nothing may be a command except reflint's own annotations."""
    RECORDED_OUTPUT.clear()
    yield
    forged = [(what, command) for what, text in RECORDED_OUTPUT for command in foreign_commands(text)]
    RECORDED_OUTPUT.clear()
    assert forged == []


@pytest.fixture(scope="session")
def remotes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    """The repositories of ``tests/data/remotes``, built once per session."""
    return build_remotes(tmp_path_factory.mktemp("remotes"))


@pytest.fixture(scope="session")
def big_remote(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare repository at ``ROOT/bigrefs.example/org/big.git`` with 100,000 refs, all on one commit.

    Returns:
        ROOT, the folder to send ``https://bigrefs.example/`` to.
    """
    root = tmp_path_factory.mktemp("big")
    repo = root / BIG_HOST / "org" / "big.git"
    repo.parent.mkdir(parents=True)
    env = clean_env(
        {
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t.invalid",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t.invalid",
            "GIT_AUTHOR_DATE": "1700000000 +0000",
            "GIT_COMMITTER_DATE": "1700000000 +0000",
        }
    )

    def git(*args: str, stdin: str = "") -> str:
        return subprocess.run(
            ["git", *args], input=stdin, capture_output=True, text=True, check=True, env=env
        ).stdout.strip()

    git("init", "--quiet", "--bare", str(repo))
    tree = git("-C", str(repo), "mktree")
    commit = git("-C", str(repo), "commit-tree", tree, "-m", "one commit")
    names = sorted(["refs/heads/main", *(f"refs/tags/t{n}" for n in range(BIG_REF_COUNT - 1))])
    # packed-refs is git's own format for many refs (gitrepository-layout(5)): one "<id> <name>" line each.
    lines = "".join(f"{commit} {name}\n" for name in names)
    (repo / "packed-refs").write_text(f"# pack-refs with: peeled fully-peeled sorted \n{lines}")
    assert git("-C", str(repo), "rev-parse", "t99998") == commit
    return root


@pytest.fixture
def servers() -> Iterator[Callable[[Callable[..., None]], LoopbackServer]]:
    """Start loopback servers with a connection handler; all stop when the test ends."""
    started: list[LoopbackServer] = []

    def start(handle: Callable[..., None]) -> LoopbackServer:
        server = LoopbackServer(handle)
        started.append(server)
        return server

    yield start
    with contextlib.ExitStack() as stopping:  # stops every server, even after one fails to stop
        for server in started:
            stopping.callback(server.stop)


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port that refuses connections (bound, not listening, so no one else can take it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]
