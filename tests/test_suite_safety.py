"""The suite's own safety nets: every test is cut off from the machine's git configuration, has a time
limit, and its loopback servers stop even when a client never talks."""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
from loopback import STOP_TIMEOUT, serve_http


def test_git_sees_no_configuration_but_the_tests_own(isolated_git_config: Path) -> None:
    home = isolated_git_config
    assert (os.environ["HOME"], os.environ["XDG_CONFIG_HOME"], os.environ["XDG_CACHE_HOME"]) == (
        str(home),
        str(home / ".config"),
        str(home / ".cache"),
    )
    assert (os.environ["GIT_CONFIG_GLOBAL"], os.environ["GIT_CONFIG_NOSYSTEM"]) == (
        str(home / ".gitconfig"),
        "1",
    )
    assert (home / ".gitconfig").read_bytes() == b""
    assert sorted(name for name in os.environ if name.startswith(("GIT_", "GCM_"))) == sorted(
        [
            "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_NOSYSTEM",
            *(["GIT_EXEC_PATH"] if "GIT_EXEC_PATH" in os.environ else []),
        ]
    )
    # What git itself reads, from every scope: nothing at all.
    listed = subprocess.run(
        ["git", "config", "--list", "--show-origin"], cwd=home, capture_output=True, text=True, timeout=60
    )
    assert (listed.returncode, listed.stdout, listed.stderr) == (0, "", "")


def test_each_test_has_a_home_of_its_own(isolated_git_config: Path, tmp_path: Path) -> None:
    # Under pytest's base folder, beside (not inside) the test's tmp_path, and empty but for git's file.
    assert isolated_git_config.parent == tmp_path.parent
    assert sorted(path.name for path in isolated_git_config.iterdir()) == [".config", ".gitconfig"]


def test_every_test_has_a_time_limit_that_dumps_the_stacks(pytestconfig: pytest.Config) -> None:
    assert (pytestconfig.getini("timeout"), pytestconfig.getini("timeout_method")) == ("120", "signal")


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_loopback_server_stops_while_a_client_holds_a_silent_connection() -> None:
    server, thread = serve_http(_Quiet, "silent-client-test")
    with socket.create_connection(server.server_address, timeout=5) as client:
        client.sendall(b"GET")  # half a request line, then nothing: the handler's thread waits
        started = time.monotonic()
        thread.stop()
        stopped_within = time.monotonic() - started
    server.server_close()
    assert stopped_within < STOP_TIMEOUT
