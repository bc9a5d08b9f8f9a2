"""Helpers for the hostile-input tests: run the real command line, write trees, read spans back."""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import pty
import resource
import select
import shutil
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from loopback import CLIENT_TIMEOUT, POLL_INTERVAL, ServerThread

from ascend_reflint.model import Span

#: Git configuration that hides the developer's own (git-config(1), "ENVIRONMENT").
GIT_ISOLATION = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
#: A guard against a test that hangs; far above what any run here takes (no timing is asserted).
HANG_GUARD_SECONDS = 120
#: The host of the remote with 100,000 refs (see the ``big_remote`` fixture).
BIG_HOST = "bigrefs.example"
#: Address space and CPU seconds a bounded run may use (far above what a scan needs: about 150 MB and 2 s).
ADDRESS_SPACE = 2 * 1024**3
CPU_SECONDS = 60
#: How many refs it has: ``main`` and the tags ``t0`` … ``t99998``.
BIG_REF_COUNT = 100_000
#: What each reflint run of the current test wrote, one entry per stream: ``(what, text)``. The
#: ``no_forged_workflow_commands`` fixture (conftest.py) reads every one with the runner's rules.
RECORDED_OUTPUT: list[tuple[str, str]] = []


def record(completed: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """Keep a finished run's stdout and stderr in :data:`RECORDED_OUTPUT`; returns the run."""
    command = " ".join(str(arg) for arg in completed.args[-6:])
    RECORDED_OUTPUT.append((f"stdout of {command}", completed.stdout or ""))
    RECORDED_OUTPUT.append((f"stderr of {command}", completed.stderr or ""))
    return completed


def run_reflint(
    args: Sequence[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    preexec_fn: Any = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m ascend_reflint ARGS`` in ``cwd`` (no shell), capturing text output.

    Args:
        args: the command line after ``reflint``.
        cwd: the working directory.
        env: variables laid over the cleaned environment (see :func:`clean_env`).
        preexec_fn: run in the child before exec (see :func:`drop_file_permission_override`).

    Returns:
        The completed process; a run that takes longer than :data:`HANG_GUARD_SECONDS` raises
        ``subprocess.TimeoutExpired``.
    """
    return record(
        subprocess.run(
            [sys.executable, "-m", "ascend_reflint", *args],
            cwd=cwd,
            env=clean_env(env),
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=HANG_GUARD_SECONDS,
            preexec_fn=preexec_fn,
            check=False,
        )
    )


def bounded() -> None:
    """Before exec, in the child (``preexec_fn``): cap its address space and CPU time (setrlimit(2)), so
    that a run which would read without bound is killed instead of passing."""
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment without git, ssh or GitHub Actions settings, with :data:`GIT_ISOLATION`,
    ``NO_COLOR`` and then ``extra`` laid over it: what a run sees does not depend on the developer's shell."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("GIT_", "SSH_", "GITHUB_", "GCM_")) and name != "NO_COLOR"
    }
    return {**kept, **GIT_ISOLATION, "NO_COLOR": "1", **(extra or {})}


def insteadof_pair(root: Path, host: str) -> tuple[str, str]:
    """The git config pair that sends ``https://HOST/`` to ``ROOT/HOST/`` (git-config(1) ``insteadOf``)."""
    return (f"url.{(root / host).resolve()}/.insteadOf", f"https://{host}/")


def json_output(completed: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON document a run wrote to stdout (its stderr in the message when it is not JSON)."""
    try:
        document: dict[str, Any] = json.loads(completed.stdout)
    except ValueError as error:
        raise AssertionError(
            f"not JSON: {error}\nstdout: {completed.stdout}\nstderr: {completed.stderr}"
        ) from None
    return document


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Write ``files`` (path relative to ``root`` → text, or bytes written as they are) under ``root``."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def text_at(text: str, span: Span) -> str:
    """The characters of ``text`` that ``span`` covers (lines end at ``\\n``; columns count characters)."""
    lines = text.split("\n")
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1 : span.end_column - 1]
    parts = [lines[span.line - 1][span.column - 1 :]]
    parts += lines[span.line : span.end_line - 1]
    parts.append(lines[span.end_line - 1][: span.end_column - 1])
    return "\n".join(parts)


def findings_of(document: Mapping[str, Any]) -> list[tuple[str, str, int, int]]:
    """``(code, path, line, column)`` of each finding of a ``scan`` JSON document."""
    return [(f["code"], f["path"], f["line"], f["column"]) for f in document["findings"]]


_PR_CAPBSET_DROP = 24  # prctl(2)
_CAP_DAC_OVERRIDE = 1  # capabilities(7)
_CAP_DAC_READ_SEARCH = 2


def drop_file_permission_override() -> None:
    """In a child process before exec: drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set.

    Tests run as root, whom file permission bits do not stop. After exec, the child's root has no
    capability outside its bounding set (capabilities(7), "Transformation of capabilities during
    execve"), so a file of mode 000 gives EACCES even to root, as it would to any user.

    Raises:
        OSError: prctl refused (no CAP_SETPCAP: not root, or a restricted container).
    """
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error))


class LoopbackServer:
    """A TCP server on 127.0.0.1 whose every connection is handed to ``handle`` in its own thread.

    Nothing it does can wait for ever (see :mod:`loopback`): the listener polls for :meth:`stop`, each
    connection has a timeout, and :meth:`stop` fails the test if the server does not stop in time.

    Args:
        handle: called with the accepted socket and a stop event; the server closes the socket after.

    Attributes:
        port: the port it listens on.
        connections: how many connections it accepted.
    """

    def __init__(self, handle: Callable[[socket.socket, threading.Event], None]) -> None:
        self._handle = handle
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(POLL_INTERVAL)
        self._stop = threading.Event()
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self.port: int = self._listener.getsockname()[1]
        self.connections = 0
        self._thread = ServerThread(self._accept, f"loopback-{handle.__name__}")

    def _accept(self) -> None:
        try:
            connection, _ = self._listener.accept()
        except TimeoutError:
            return
        connection.settimeout(CLIENT_TIMEOUT)
        with self._lock:
            self._open.append(connection)
            self.connections += 1
        threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with contextlib.suppress(OSError):
            self._handle(connection, self._stop)
        with contextlib.suppress(OSError):
            connection.close()

    def stop(self) -> None:
        """Stop accepting and close every connection still open.

        Raises:
            AssertionError: the accepting thread did not stop in time.
        """
        self._stop.set()
        try:
            self._thread.stop()
        finally:
            self._listener.close()
            with self._lock:
                for connection in self._open:
                    with contextlib.suppress(OSError):
                        connection.close()


def read_request(connection: socket.socket) -> bytes:
    """Read an HTTP request's head (up to the blank line)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def never_answer(connection: socket.socket, stop: threading.Event) -> None:
    """Accept the connection, read what comes, and answer nothing until the server stops."""
    connection.settimeout(0.2)
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            if connection.recv(65536) == b"":
                return


def ask_for_credentials(connection: socket.socket, stop: threading.Event) -> None:
    """Answer any HTTP request with 401 and a Basic challenge (what GitHub answers for a private repo)."""
    read_request(connection)
    connection.sendall(
        b'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm="test"\r\n'
        b"Content-Length: 0\r\nConnection: close\r\n\r\n"
    )


def close_mid_answer(connection: socket.socket, stop: threading.Event) -> None:
    """Start a smart-HTTP ref advertisement (git's protocol-v0 pkt-lines), then close the connection."""
    read_request(connection)
    body = b"001e# service=git-upload-pack\n0000" + b"00a0" + b"1" * 40
    connection.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n"
        b"Content-Length: 5000\r\n\r\n" + body
    )


#: The variables the recording git wrapper writes down.
RECORDED_ENV = (
    "GIT_TERMINAL_PROMPT",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_SSH_COMMAND",
    "GIT_CEILING_DIRECTORIES",
)

_WRAPPER = """#!{python}
import json, os, sys
record = {{"argv": sys.argv[1:], "cwd": os.getcwd(), "env": {{n: os.environ.get(n) for n in {names!r}}}}}
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps(record) + "\\n")
os.execv({git!r}, [{git!r}, *sys.argv[1:]])
"""


def git_recorder(folder: Path) -> tuple[dict[str, str], Callable[[], list[dict[str, Any]]]]:
    """A git wrapper that writes down each call (argv, working directory, the :data:`RECORDED_ENV`) and
    then runs the real git.

    Returns:
        ``(env, calls)``: the variable that makes reflint's GitPython run the wrapper
        (``GIT_PYTHON_GIT_EXECUTABLE``), and a function that lists the calls so far.
    """
    log = folder / "git-calls.jsonl"
    wrapper = folder / "git-wrapper"
    real_git = shutil.which("git")
    assert real_git is not None
    wrapper.write_text(_WRAPPER.format(python=sys.executable, names=RECORDED_ENV, log=str(log), git=real_git))
    wrapper.chmod(0o755)

    def calls() -> list[dict[str, Any]]:
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]

    return {"GIT_PYTHON_GIT_EXECUTABLE": str(wrapper)}, calls


def evil_script(folder: Path, name: str) -> tuple[Path, Path]:
    """An executable that creates a marker file when it runs; its path holds no space or quote.

    Returns:
        ``(script, marker)``; the marker does not exist yet.
    """
    marker = folder / f"ran-{name}"
    script = folder / f"evil-{name}.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 1\n")
    script.chmod(0o755)
    return script, marker


def run_in_terminal(
    args: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m ascend_reflint ARGS`` with a pseudo-terminal (200 columns) as stdin, stdout and
    stderr, ``TERM=xterm-256color`` and no ``NO_COLOR``, as a person at a terminal would.

    Returns:
        The finished run: its exit code, and as ``stdout`` everything it wrote to the terminal, decoded as
        UTF-8 (the terminal turns ``\\n`` into ``\\r\\n``; ``stderr`` is empty: it went there too); the
        output is also kept in :data:`RECORDED_OUTPUT`.
    """
    environ = clean_env({"TERM": "xterm-256color", "COLUMNS": "200", "LINES": "50", **(env or {})})
    environ.pop("NO_COLOR")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "ascend_reflint", *args],
        cwd=cwd,
        env=environ,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every process holding the terminal has closed it
                break
            if not data:
                break
            chunks.append(data)
        process.wait(timeout=HANG_GUARD_SECONDS)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    output = b"".join(chunks).decode("utf-8", "replace")
    RECORDED_OUTPUT.append((f"terminal of reflint {' '.join(args)}", output))
    return subprocess.CompletedProcess(process.args, process.returncode, output, "")
