"""The memory of a running git's process tree, as the lookup stage's budget counts it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from ascend_reflint.lookup import memory

pytestmark = pytest.mark.skipif(not memory.available(), reason="needs Linux's /proc")


def _status_rss_anon(pid: int) -> int:
    """RssAnon of /proc/PID/status in bytes: the figure that statm's resident - shared must equal."""
    with open(f"/proc/{pid}/status", "rb") as status:
        for line in status:
            if line.startswith(b"RssAnon:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no RssAnon for {pid}")


def _tree(pid: int) -> list[int]:
    """pid and its descendants, through every thread's children file (a process that is gone is left out:
    the shells fork before they exec)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        try:
            for thread in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{thread}/children", "rb") as listing:
                    pending.extend(int(child) for child in listing.read().split())
        except FileNotFoundError:
            continue
        found.append(current)
    return found


@pytest.fixture
def sleeping_tree() -> Iterator[int]:
    """A shell with two sleeping children, and a grandchild under one of them: four processes."""
    proc = subprocess.Popen(["sh", "-c", "sleep 30 & sh -c 'sleep 30 & wait' & wait"])
    try:
        deadline = time.monotonic() + 10
        while len(_tree(proc.pid)) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # let the last fork exec its program: the memory compared must not move
        yield proc.pid
    finally:
        for pid in reversed(_tree(proc.pid)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
        proc.wait()


def test_a_tree_counts_the_anonymous_resident_memory_of_each_process(sleeping_tree: int) -> None:
    pids = _tree(sleeping_tree)
    assert len(pids) == 4
    expected = sum(_status_rss_anon(pid) for pid in pids)
    assert memory.tree_memory(sleeping_tree) == expected
    assert expected > 0


def test_a_process_that_has_ended_counts_as_nothing() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert memory.tree_memory(proc.pid) == 0
