"""Fixtures for the lookup tests: local remotes, a git wrapper that records each call, loopback servers."""

from __future__ import annotations

import contextlib
import http.server
import json
import shutil
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, build_remotes, set_env
from loopback import CLIENT_TIMEOUT, ServerThread, serve_http

from .support import GitCall, HttpServer


@pytest.fixture(scope="session")
def remotes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    """The repositories of ``tests/data/remotes``, built once per test session."""
    return build_remotes(tmp_path_factory.mktemp("remotes"))


@pytest.fixture
def git_env(remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> FakeRemotes:
    """``https://github.com/...`` (and the other forms) answered by :func:`remotes`, for this test."""
    set_env(monkeypatch, remotes.env())
    return remotes


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


#: The variables the wrapper records.
RECORDED_ENV = ("GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "SSH_ASKPASS", "GCM_INTERACTIVE", "GIT_SSH_COMMAND")

_WRAPPER = """#!{python}
import json, os, sys
null = os.stat(os.devnull)
stdin = os.fstat(0)
record = {{
    "pid": os.getpid(),
    "session_leader": os.getsid(0) == os.getpid(),
    "stdin_is_null": (stdin.st_dev, stdin.st_ino) == (null.st_dev, null.st_ino),
    "argv": sys.argv[1:],
    "env": {{name: os.environ.get(name) for name in {names!r}}},
}}
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps(record) + "\\n")
os.execv({git!r}, [{git!r}, *sys.argv[1:]])
"""


@pytest.fixture
def git_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[GitCall]]:
    """Make reflint run a wrapper that records each git call (``GIT_PYTHON_GIT_EXECUTABLE``); returns a
    function listing the calls."""
    log = tmp_path / "git-calls.jsonl"
    wrapper = tmp_path / "git-wrapper"
    real_git = shutil.which("git")
    assert real_git is not None
    wrapper.write_text(_WRAPPER.format(python=sys.executable, names=RECORDED_ENV, log=str(log), git=real_git))
    wrapper.chmod(0o755)
    monkeypatch.setenv("GIT_PYTHON_GIT_EXECUTABLE", str(wrapper))

    def calls() -> list[GitCall]:
        if not log.exists():
            return []
        records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        return [GitCall(**{**record, "argv": tuple(record["argv"])}) for record in records]

    return calls


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port whose listener never accepts: connections complete (backlog) and get no answer."""
    with socket.create_server(("127.0.0.1", 0), backlog=16) as server:
        yield server.getsockname()[1]


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port that refuses connections (bound, not listening, so no one else can take it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def http_server() -> Iterator[Callable[[int], HttpServer]]:
    """Start loopback HTTP servers: ``http_server(401)``; all stop when the test ends (see :mod:`loopback`).

    A 401 answer carries ``WWW-Authenticate: Basic``. When ``accept_authorization`` is set on the result,
    a request carrying exactly that header gets 404 instead (the credentials were accepted, the
    repository does not exist).
    """
    running: list[tuple[http.server.ThreadingHTTPServer, ServerThread]] = []

    def start(status: int) -> HttpServer:
        record = HttpServer(port=0, status=status, authorizations=[])

        class Handler(http.server.BaseHTTPRequestHandler):
            timeout = CLIENT_TIMEOUT  # a client that stops mid-request frees its thread

            def do_GET(self) -> None:
                authorization = self.headers.get("Authorization")
                record.authorizations.append(authorization)
                accepted = (
                    record.accept_authorization is not None and authorization == record.accept_authorization
                )
                code = 404 if accepted else record.status
                self.send_response(code)
                if code == 401:
                    self.send_header("WWW-Authenticate", 'Basic realm="test"')
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        server, thread = serve_http(Handler, f"http-{status}")
        running.append((server, thread))
        record.port = server.server_address[1]
        return record

    yield start
    with contextlib.ExitStack() as stopping:  # stops every server, even after one fails to stop
        for server, thread in running:
            stopping.callback(server.server_close)
            stopping.callback(thread.stop)
