"""How much memory a running git and the processes it started hold, read from Linux's ``/proc``.

``git ls-remote`` reads a remote's whole ref advertisement into memory before it prints a line (and
``git-remote-https`` buffers the HTTP answer too), so what reflint reads from git's output cannot bound
what git holds: an endless advertisement grows git by tens of MB a second while its output stays empty.
The lookup stage therefore measures git's processes themselves.

What is counted is each process's anonymous resident memory (``RssAnon`` in ``/proc/PID/status``,
proc(5)): the heap that grows with the refs read, without the shared libraries and program text that
every git maps and that ``VmRSS`` counts again for each process. The processes are git and its
descendants, found through ``/proc/PID/task/TID/children`` (proc(5), Linux 3.5 and later).

Elsewhere (no ``/proc``), nothing is measured and git's memory is bounded by the lookup's timeout and the
stage's deadline alone.
"""

from __future__ import annotations

import os

_PROC = "/proc"


def available() -> bool:
    """True when this system lets :func:`tree_memory` measure anything."""
    return os.path.exists(f"{_PROC}/self/status")


def tree_memory(pid: int) -> int:
    """The anonymous resident memory of process ``pid`` and all its descendants, in bytes.

    Processes that end while they are being read count as 0. Returns 0 when nothing can be read.
    """
    total, pending, seen = 0, [pid], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        total += _anonymous_rss(current)
        pending.extend(_children(current))
    return total


def _anonymous_rss(pid: int) -> int:
    try:
        with open(f"{_PROC}/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"RssAnon:"):
                    return int(line.split()[1]) * 1024  # proc(5): in kB
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        threads = os.listdir(f"{_PROC}/{pid}/task")
    except OSError:
        return []
    children: list[int] = []
    for thread in threads:
        try:
            with open(f"{_PROC}/{pid}/task/{thread}/children", "rb") as listing:
                children.extend(int(child) for child in listing.read().split())
        except (OSError, ValueError):
            continue
    return children
