"""SIGTERM and SIGHUP end a scan as SIGINT does (issue 10, item 7).

The attack, or the accident: a CI runner cancels the job (SIGTERM) or the terminal closes (SIGHUP) while
lookups hang on remotes that never answer. reflint used to die at once: every ``git ls-remote`` (each in a
session of its own) kept running and its temporary folder stayed. Now the signal unwinds the scan: the
git process groups are killed, the temporary folder is removed, and reflint exits with 128 + the signal's
number, as a shell reports it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from .support import HANG_GUARD_SECONDS, LoopbackServer, clean_env, never_answer, record, write_tree

JOBS = 6


def _processes_in(folder: Path) -> dict[int, str]:
    """pid → command name of every process whose working directory is under ``folder`` (Linux /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(entry / "cwd").startswith(str(folder)):
                found[int(entry.name)] = (entry / "comm").read_text().strip()
        except OSError:
            continue
    return found


def _sigint_as_from_a_terminal() -> None:
    """In the child before exec: SIGINT's default action, which Python turns into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie that no one has reaped yet has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="finds git processes through /proc")
@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_a_signal_kills_the_gits_removes_the_temporary_folder_and_exits_128_plus_n(
    tmp_path: Path,
    servers: Callable[[Callable[[socket.socket, threading.Event], None]], LoopbackServer],
    signum: int,
    status: int,
) -> None:
    silent = servers(never_answer)
    clones = "".join(
        f"RUN git clone --branch v1 http://127.0.0.1:{silent.port}/o/r{n}.git /opt/r{n}\n"
        for n in range(JOBS)
    )
    write_tree(tmp_path / "project", {"Dockerfile": f"FROM x\n{clones}"})
    temp = tmp_path / "tmp"
    temp.mkdir()
    command = ["scan", "--timeout", "100", "--jobs", str(JOBS), "--cache-dir", str(tmp_path / "cache")]
    process = subprocess.Popen(
        [sys.executable, "-m", "ascend_reflint", *command],
        cwd=tmp_path / "project",
        env=clean_env({"TMPDIR": str(temp)}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal: a test run started in the background (`&`, nohup) ignores SIGINT, and a
        # process that starts with a signal ignored keeps it ignored (POSIX), so reflint would never see it.
        preexec_fn=_sigint_as_from_a_terminal,
    )
    try:
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while silent.connections < JOBS and time.monotonic() < deadline:
            time.sleep(0.05)
        gits = _processes_in(temp)
        assert silent.connections == JOBS and list(gits.values()).count("git-remote-http") == JOBS

        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=HANG_GUARD_SECONDS)
        record(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))
    finally:
        if process.poll() is None:
            process.kill()

    assert (process.returncode, stderr) == (status, f"reflint: interrupted ({signal.Signals(signum).name})\n")
    assert [pid for pid in gits if _alive(pid)] == []
    assert list(temp.iterdir()) == []
