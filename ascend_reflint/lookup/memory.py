"""How much memory a running git and the processes it started hold, read from Linux's ``/proc``.

``git ls-remote`` reads a remote's whole ref advertisement into memory before it prints a line (and
``git-remote-https`` buffers the HTTP answer too), so what reflint reads from git's output cannot bound
what git holds: an endless advertisement grows git by tens of MB a second while its output stays empty.
The lookup stage therefore measures git's processes themselves.

What is counted is each process's anonymous resident memory: the heap that grows with the refs read,
without the shared libraries and program text that every git maps and that ``VmRSS`` counts again for each
process. It is read from ``/proc/PID/statm`` as ``resident - shared`` pages: proc(5) gives ``shared`` as
``RssFile + RssShmem``, so the difference is ``RssAnon`` of ``/proc/PID/status``, read from one short line
instead of about fifty. The processes are git and its descendants, found through
``/proc/PID/task/PID/children`` (proc(5), Linux 3.5 and later): the children that the main thread started,
which is where git starts its remote helper, transport and credential programs (``run_command`` is called
from the main thread in ``ls-remote``).

The measurement runs every 50 ms for every running lookup (45 at once on a large repository), so it reads
with ``os.open``/``os.read`` and no file objects: about 2.4 ms per round of 45 lookups, where reading
``status`` and listing every thread's ``children`` took 6 ms.

Elsewhere (no ``/proc``), nothing is measured and git's memory is bounded by the lookup's timeout and the
stage's deadline alone.
"""

from __future__ import annotations

import os

_PROC = "/proc"
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def available() -> bool:
    """True when this system lets :func:`tree_memory` measure anything."""
    return os.path.exists(f"{_PROC}/self/statm")


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
    fields = _read(f"{_PROC}/{pid}/statm").split()
    try:
        return (int(fields[1]) - int(fields[2])) * _PAGE  # proc(5): resident, shared, in pages
    except (ValueError, IndexError):
        return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in _read(f"{_PROC}/{pid}/task/{pid}/children").split()]
    except ValueError:
        return []


def _read(path: str) -> bytes:
    """The first 4 KiB of a ``/proc`` file (both files read here are one short line), or b"" if gone."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(fd, 4096)
    except OSError:
        return b""
    finally:
        os.close(fd)
