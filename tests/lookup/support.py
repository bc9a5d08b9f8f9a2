"""Helpers for the lookup tests (the fixtures that use them are in ``conftest.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class GitCall:
    """One git process as the recording wrapper saw it (the wrapper execs git, keeping its pid)."""

    pid: int
    session_leader: bool
    stdin_is_null: bool
    argv: tuple[str, ...]
    env: dict[str, str | None]


@dataclass
class HttpServer:
    """A loopback HTTP server answering every request with ``status``; records Authorization headers."""

    port: int
    status: int
    authorizations: list[str | None]
    accept_authorization: str | None = None


def ls_remote_calls(calls: list[GitCall]) -> list[GitCall]:
    return [call for call in calls if call.argv[:1] == ("ls-remote",)]


def live_group_members(pgid: int) -> list[int]:
    """Pids of processes in process group ``pgid`` that are not zombies (read from /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, _ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            members.append(int(entry.name))
    return members


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; returns its last value."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
