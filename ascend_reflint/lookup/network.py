"""Run the lookups that need the network: one ``git ls-remote`` per URL, at most ``jobs`` at once, every one
bounded, and the whole stage too.

One thread runs them all: it starts git processes, reads their output as it comes (``selectors`` on the
pipes), and enforces, without waiting for git to cooperate:

- **a timeout per lookup** (``timeout``): git's process group is killed → ``timeout``;
- **caps per lookup** on what git's output may hold (``max_refs`` lines, ``max_bytes``): past either, git
  is killed → ``too-large``; its refs are never cached;
- **one memory budget for all lookups** (``memory`` bytes), whatever ``jobs`` is: every 50 ms the memory
  that each running git's processes hold (:mod:`ascend_reflint.lookup.memory`) is added to the ref lists
  already read; while the sum is over the budget, no lookup starts, and the running lookup that holds the
  most is killed → ``too-large``. git reads a whole advertisement before it prints a line, so this is
  what stops an endless one;
- **a deadline on the whole stage** (``deadline``): what has not answered by then — running or not yet
  started — is ``deadline``.

Output is parsed as it arrives (:class:`~ascend_reflint.lookup.git.RefListReader`), so reflint never
holds the text of a ref list; git's stderr is kept up to :data:`STDERR_BYTES`.
"""

from __future__ import annotations

import collections
import contextlib
import os
import select
import selectors
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO

from ascend_reflint.lookup import memory
from ascend_reflint.lookup.classify import classify_failure, clean_detail, timeout_failure
from ascend_reflint.lookup.git import RefListReader, kill_group
from ascend_reflint.model import FailureKind, LookupFailure, LookupResult

#: How often the memory of running lookups is measured, in seconds.
MEMORY_TICK = 0.05
#: How much of git's stderr is kept (the classifier needs the first lines).
STDERR_BYTES = 64 * 1024
#: How long to wait for a killed git to be reaped, in seconds.
_REAP_SECONDS = 2.0
_CHUNK = 256 * 1024
_MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The bounds of the network lookups (see the module docstring).

    Attributes:
        jobs: lookups running at once (at least 1).
        timeout: seconds one lookup may take.
        deadline: seconds the whole stage may take.
        max_refs: lines one ref list may hold.
        max_bytes: bytes one ref list may hold.
        memory: bytes that all lookups together may hold: git's processes and the ref lists read.
    """

    jobs: int
    timeout: float
    deadline: float
    max_refs: int
    max_bytes: int
    memory: int


@dataclass(frozen=True)
class Request:
    """One URL to look up.

    Attributes:
        key: the lookup key (:func:`ascend_reflint.remote.lookup_key`), what results are filed under.
        url: the URL to give git.
        remote: the normalised remote, the name results carry.
    """

    key: str
    url: str
    remote: str


@dataclass
class _Lookup:
    """One running git."""

    request: Request
    proc: subprocess.Popen[bytes]
    started: float
    reader: RefListReader = field(default_factory=RefListReader)
    stderr: bytearray = field(default_factory=bytearray)
    stdout_done: bool = False
    git_memory: int = 0

    @property
    def charge(self) -> int:
        """Bytes this lookup holds: its git processes, and the refs read from them."""
        return self.git_memory + self.reader.kept_bytes

    def keep_stderr(self, data: bytes) -> None:
        """Keep the start of git's stderr, up to :data:`STDERR_BYTES`."""
        room = STDERR_BYTES - len(self.stderr)
        if room > 0:
            self.stderr += data[:room]


Starter = Callable[[Request], subprocess.Popen[bytes]]
Finisher = Callable[[Request, LookupResult], None]


def run_lookups(requests: Iterable[Request], start: Starter, limits: Limits, finish: Finisher) -> None:
    """Look every request up (see the module docstring) and hand each result to ``finish``.

    Args:
        requests: what to look up, in order.
        start: starts the git of one request; may raise OSError (git cannot be started).
        limits: the bounds.
        finish: called once per request, in this thread, as its answer is known.

    Raises:
        Whatever ``start`` or ``finish`` raise (but OSError from ``start``), and KeyboardInterrupt; every
        git still running is killed first.
    """
    _Run(start, limits, finish).run(collections.deque(requests))


class _Run:
    """The state of one :func:`run_lookups` call."""

    def __init__(self, start: Starter, limits: Limits, finish: Finisher) -> None:
        self.start, self.limits, self.finish = start, limits, finish
        self.selector = selectors.DefaultSelector()
        self.running: list[_Lookup] = []
        self.held = 0  # bytes of the ref lists already read
        self.measured = memory.available()

    def run(self, pending: collections.deque[Request]) -> None:
        stage_ends = time.monotonic() + self.limits.deadline
        next_tick = time.monotonic()
        try:
            while pending or self.running:
                now = time.monotonic()
                if now >= stage_ends:
                    self._stop_at_deadline(pending)
                    return
                if now >= next_tick:
                    self._enforce_budget()
                    next_tick = now + MEMORY_TICK
                self._admit(pending, now)
                self._wait(min(stage_ends, next_tick, *self._timeouts()))
                self._expire(time.monotonic())
                self._reap()
        except BaseException:
            for lookup in self.running:
                kill_group(lookup.proc)
            raise
        finally:
            for lookup in list(self.running):
                self._close(lookup)
            self.selector.close()

    def _timeouts(self) -> list[float]:
        return [lookup.started + self.limits.timeout for lookup in self.running]

    def _admit(self, pending: collections.deque[Request], now: float) -> None:
        """Start lookups while there is a free job and room in the memory budget."""
        while pending and len(self.running) < self.limits.jobs:
            if self._total() >= self.limits.memory:
                if not self.running:  # the ref lists already read fill the budget: nothing can start
                    detail = (
                        "ref list too large: the ref lists already read fill the memory budget of "
                        f"{_size(self.limits.memory)} (--lookup-memory)"
                    )
                    self._fail_all(pending, FailureKind.TOO_LARGE, detail)
                return
            request = pending.popleft()
            try:
                proc = self.start(request)
            except OSError as error:
                detail = clean_detail(f"git cannot be run: {error}")
                self.finish(request, LookupFailure(request.remote, FailureKind.OTHER, detail))
                continue
            lookup = _Lookup(request, proc, now)
            self.running.append(lookup)
            for stream in (proc.stdout, proc.stderr):
                assert stream is not None
                self.selector.register(stream, selectors.EVENT_READ, lookup)

    def _wait(self, until: float) -> None:
        """Read what the gits wrote, waiting until ``until`` at most (briefly when one is about to end)."""
        if not self.running:
            return
        timeout = max(0.0, until - time.monotonic())
        if any(lookup.stdout_done for lookup in self.running):
            timeout = min(timeout, 0.01)  # its end is seen by polling, not by a pipe
        for key, _ in self.selector.select(timeout):
            lookup: _Lookup = key.data
            if lookup in self.running:  # not stopped earlier in this round
                self._read(lookup, key.fileobj)  # type: ignore[arg-type]

    def _read(self, lookup: _Lookup, stream: IO[bytes]) -> None:
        data = os.read(stream.fileno(), _CHUNK)
        if not data:
            self.selector.unregister(stream)
            lookup.stdout_done = lookup.stdout_done or stream is lookup.proc.stdout
        elif stream is lookup.proc.stdout:
            self._read_refs(lookup, data)
        else:
            lookup.keep_stderr(data)

    def _read_refs(self, lookup: _Lookup, data: bytes) -> None:
        reader = lookup.reader
        reader.feed(data)
        if reader.lines > self.limits.max_refs:
            self._stop(lookup, f"ref list too large: more than {self.limits.max_refs} refs (--max-refs)")
        elif reader.bytes_read > self.limits.max_bytes:
            self._stop(
                lookup, f"ref list too large: more than {_size(self.limits.max_bytes)} (--max-ref-list-size)"
            )

    def _enforce_budget(self) -> None:
        """Measure the running gits; while over the budget, stop the lookup that holds the most."""
        if self.measured:
            for lookup in self.running:
                lookup.git_memory = memory.tree_memory(lookup.proc.pid)
        budget = _size(self.limits.memory)
        while self.running and self._total() > self.limits.memory:
            largest = max(self.running, key=lambda lookup: lookup.charge)
            if largest.charge > self.limits.memory:
                detail = (
                    f"ref list too large: git used more than the memory budget of {budget} (--lookup-memory)"
                )
            else:
                detail = (
                    f"ref list too large: the lookups running at once used more than the memory budget of "
                    f"{budget} (--lookup-memory); this one held the most ({_size(largest.charge)})"
                )
            self._stop(largest, detail)

    def _total(self) -> int:
        return self.held + sum(lookup.charge for lookup in self.running)

    def _expire(self, now: float) -> None:
        for lookup in list(self.running):
            if now >= lookup.started + self.limits.timeout:
                self._stop(lookup, None)

    def _reap(self) -> None:
        """Finish the lookups whose git has ended and whose output has been read to its end."""
        for lookup in list(self.running):
            if not lookup.stdout_done:
                continue
            returncode = lookup.proc.poll()
            if returncode is None:
                continue
            self._drain_stderr(lookup)
            self._close(lookup)
            request = lookup.request
            if returncode == 0:
                self.held += lookup.reader.kept_bytes
                self.finish(request, lookup.reader.result(request.remote, fetched_at=time.time()))
            else:
                stderr = bytes(lookup.stderr).decode("utf-8", "replace")
                self.finish(request, classify_failure(request.remote, returncode, stderr))

    def _drain_stderr(self, lookup: _Lookup) -> None:
        """Read what is left in git's stderr without waiting: a process that left git's group (a
        daemonised ssh) may hold it open after git has ended."""
        stream = lookup.proc.stderr
        assert stream is not None
        while not stream.closed and select.select([stream], [], [], 0)[0]:
            data = os.read(stream.fileno(), _CHUNK)
            if not data:
                break
            lookup.keep_stderr(data)

    def _stop(self, lookup: _Lookup, too_large: str | None) -> None:
        """Kill a lookup's git: ``too_large`` says why, None means its timeout passed."""
        kill_group(lookup.proc)
        self._close(lookup)
        remote = lookup.request.remote
        if too_large is None:
            failure = timeout_failure(remote, self.limits.timeout)
        else:
            failure = LookupFailure(remote, FailureKind.TOO_LARGE, too_large)
        self.finish(lookup.request, failure)

    def _stop_at_deadline(self, pending: collections.deque[Request]) -> None:
        detail = (
            f"not looked up: deadline (the lookups stop after {self.limits.deadline:g} s; --lookup-deadline)"
        )
        stopped = [lookup.request for lookup in self.running]
        for lookup in list(self.running):
            kill_group(lookup.proc)
            self._close(lookup)
        self._fail_all(collections.deque([*stopped, *pending]), FailureKind.DEADLINE, detail)
        pending.clear()

    def _fail_all(self, requests: collections.deque[Request], kind: FailureKind, detail: str) -> None:
        while requests:
            request = requests.popleft()
            self.finish(request, LookupFailure(request.remote, kind, detail))

    def _close(self, lookup: _Lookup) -> None:
        """Forget a lookup: unregister and close its pipes, reap its git."""
        with contextlib.suppress(ValueError):
            self.running.remove(lookup)
        for stream in (lookup.proc.stdout, lookup.proc.stderr):
            if stream is None:
                continue
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(stream)
            stream.close()
        try:
            lookup.proc.wait(timeout=_REAP_SECONDS)
        except subprocess.TimeoutExpired:
            kill_group(lookup.proc)


def _size(size: int) -> str:
    """``"512 MiB"``, ``"1.5 MiB"``; ``"300 KiB"`` below one MiB."""
    if size < _MIB:
        return f"{size / 1024:g} KiB"
    return f"{size / _MIB:.4g} MiB"
