"""Lookups are bounded one by one and all together (issue 10, item 6).

The attacks: an endless ref advertisement grew one ``git ls-remote`` by 1.5 GB in 20 s (32 at once: tens
of GB); 5,000,000 refs took 2.9 GB and 90 s and were cached, to be paid again on every run; 10,000 hanging
remotes would have taken 1 h 44 min at the defaults. Now: caps on the refs and bytes of one ref list, one
memory budget for every lookup running (git's own memory counted), a deadline on the whole stage; what
passes a bound is RL010 and is never cached. The caps are set small here so that the tests stay fast.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes

from .support import LoopbackServer, json_output, never_answer, read_request, run_reflint, write_tree

ServerFactory = Callable[[Callable[[socket.socket, threading.Event], None]], LoopbackServer]
_HEAD = b"HTTP/1.0 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n\r\n"


def _pkt(text: str) -> bytes:
    data = text.encode("ascii")
    return f"{len(data) + 4:04x}".encode("ascii") + data


def _tags(start: int, count: int) -> bytes:
    return b"".join(_pkt(f"{'1' * 40} refs/tags/t{n:08d}\n") for n in range(start, start + count))


def _advertise(refs: int | None) -> Callable[[socket.socket, threading.Event], None]:
    """A smart-HTTP server's protocol-v0 ref advertisement (gitprotocol-http(5)) of ``refs`` tags, or,
    with None, of tags without end (the same block again and again, until the client hangs up)."""

    def handle(connection: socket.socket, stop: threading.Event) -> None:
        read_request(connection)
        head = _pkt("# service=git-upload-pack\n") + b"0000" + _pkt(f"{'1' * 40} refs/heads/main\0agent=t\n")
        connection.sendall(_HEAD + head)
        if refs is not None:
            connection.sendall(_tags(0, refs) + b"0000")
            return
        block = _tags(0, 20_000)
        with contextlib.suppress(OSError):
            while not stop.is_set():
                connection.sendall(block)

    return handle


def _dockerfile(lines: list[str]) -> str:
    return "FROM x\n" + "".join(f"RUN git clone --branch v1 {url} /opt/r{n}\n" for n, url in enumerate(lines))


def _scan(project: Path, tmp_path: Path, env: dict[str, str], *options: str) -> tuple[int, str, list[tuple]]:
    completed = run_reflint(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), *options], project, env
    )
    findings = [(f["code"], f["line"], f["message"]) for f in json_output(completed)["findings"]]
    return completed.returncode, completed.stderr, findings


def test_a_ref_list_past_the_caps_is_stopped_and_never_cached(tmp_path: Path, servers: ServerFactory) -> None:
    big = servers(_advertise(5000))
    url = f"http://127.0.0.1:{big.port}/o/big.git"
    write_tree(tmp_path / "project", {"Dockerfile": _dockerfile([url])})

    by_count = _scan(tmp_path / "project", tmp_path, {}, "--max-refs", "1000")
    by_size = _scan(tmp_path / "project", tmp_path, {}, "--max-ref-list-size", "0.1")
    within = _scan(tmp_path / "project", tmp_path, {}, "--max-refs", "10000")

    remote = f"127.0.0.1:{big.port}/o/big"
    unchecked = "reflint: no remote could be checked: 1 pin unchecked\n"
    assert by_count == (
        1,
        unchecked,
        [
            (
                "RL010",
                2,
                f"{remote} could not be looked up: ref list too large: more than 1000 refs (--max-refs), so "
                "this pin went unchecked",
            )
        ],
    )
    assert by_size == (
        1,
        unchecked,
        [
            (
                "RL010",
                2,
                f"{remote} could not be looked up: ref list too large: more than 102.4 KiB "
                "(--max-ref-list-size), so this pin went unchecked",
            )
        ],
    )
    # Within the caps the 5,001 refs are read, and then cached: the two stopped lookups cached nothing.
    assert within == (
        1,
        "",
        [
            (
                "RL001",
                2,
                f'ref "v1" is neither a branch nor a tag of {remote}, so `git clone --branch` fails; no ref '
                'names that version; the most similar of its 1 branch and 5000 tags are "t00000001", '
                '"t00000000", "t00000002"',
            )
        ],
    )
    assert [path.suffix for path in (tmp_path / "cache" / "remotes").iterdir()] == [".json"]
    assert big.connections == 3  # one ref advertisement per scan: no retry, none answered from a cache


def test_endless_advertisements_are_stopped_by_the_memory_budget_and_spare_a_good_remote(
    tmp_path: Path, remotes: FakeRemotes, servers: ServerFactory
) -> None:
    endless = [servers(_advertise(None)) for _ in range(3)]
    urls = [f"http://127.0.0.1:{server.port}/o/endless.git" for server in endless]
    lines = [*urls, "https://github.com/NVIDIA/Megatron-LM.git"]
    dockerfile = _dockerfile(lines).replace(
        "--branch v1 https://github.com", "--branch core_r0.18.0 https://github.com"
    )
    write_tree(tmp_path / "project", {"Dockerfile": dockerfile})

    code, stderr, found = _scan(
        tmp_path / "project",
        tmp_path,
        remotes.env(),
        "--lookup-memory",
        "48",
        "--timeout",
        "60",
        "--jobs",
        "4",
    )

    # git reads a whole advertisement before it prints a line: only its own memory shows the growth.
    # Each endless remote is stopped (the one holding the most, while the total is over the budget);
    # Megatron-LM, small, answers as it would alone.
    assert [(code_, line) for code_, line, _ in found] == [
        ("RL010", 2),
        ("RL010", 3),
        ("RL010", 4),
        ("RL002", 5),
    ]
    # Which of the two stops each one (its own git past the budget, or the most of the total) is a race.
    for _, line, message in found[:3]:
        remote = re.escape(f"127.0.0.1:{endless[line - 2].port}/o/endless")
        budget = re.escape("more than the memory budget of 48 MiB (--lookup-memory)")
        held = r"; this one held the most \([\d.]+ MiB\)"
        stopped = rf"git used {budget}|the lookups running at once used {budget}{held}"
        pattern = (
            rf"{remote} could not be looked up: ref list too large: (?:{stopped}), so this pin went unchecked"
        )
        assert re.fullmatch(pattern, message), message
    assert found[3][2] == MEGATRON_RELEASE_BRANCH
    assert (code, stderr) == (1, "")


def test_what_has_not_answered_by_the_deadline_is_not_looked_up(
    tmp_path: Path, servers: ServerFactory
) -> None:
    silent = [servers(never_answer) for _ in range(3)]
    urls = [f"http://127.0.0.1:{server.port}/o/silent.git" for server in silent]
    write_tree(tmp_path / "project", {"Dockerfile": _dockerfile(urls)})

    code, stderr, found = _scan(
        tmp_path / "project", tmp_path, {}, "--lookup-deadline", "1", "--timeout", "60", "--jobs", "2"
    )

    # Two ran and were stopped at the deadline; the third never started. None waited for its timeout.
    deadline = (
        "was not looked up: deadline (the lookups stop after 1 s; --lookup-deadline), so this pin went "
        "unchecked"
    )
    assert found == [
        ("RL010", line, f"127.0.0.1:{silent[line - 2].port}/o/silent {deadline}") for line in (2, 3, 4)
    ]
    assert [server.connections for server in silent] == [1, 1, 0]
    assert (code, stderr) == (1, "reflint: no remote could be checked: 3 pins unchecked\n")


class _TwoFaced:
    """A server whose first ``honest`` ref advertisements are small (``master`` and the tag ``v1``) and
    whose later ones never end: a ref list that passes the caps, then a default-branch question or a
    history fetch that would grow git without bound. ``endless_bytes`` counts what the endless ones sent."""

    def __init__(self, honest: int = 1) -> None:
        self.__name__ = "two_faced"  # what the server's thread is named after
        self.honest = honest
        self.answered = 0
        self.endless_bytes = 0
        self._lock = threading.Lock()

    def __call__(self, connection: socket.socket, stop: threading.Event) -> None:
        read_request(connection)
        with self._lock:
            self.answered += 1
            endless = self.answered > self.honest
        head = _pkt("# service=git-upload-pack\n") + b"0000"
        head += _pkt(f"{'1' * 40} refs/heads/master\0agent=t symref=HEAD:refs/heads/master\n")
        if not endless:
            connection.sendall(_HEAD + head + _pkt(f"{'1' * 40} refs/tags/v1\n") + b"0000")
            return
        connection.sendall(_HEAD + head)
        block = _tags(0, 20_000)
        with contextlib.suppress(OSError):
            while not stop.is_set():
                connection.sendall(block)
                with self._lock:
                    self.endless_bytes += len(block)


def test_an_endless_answer_to_the_default_branch_question_is_stopped_by_the_memory_budget(
    tmp_path: Path, servers: ServerFactory
) -> None:
    # A missing "main" makes RL001 ask for the remote's default branch (ls-remote --symref URL HEAD),
    # which ran outside the memory budget: git read the endless answer until the timeout (1.7 GB in 5 s).
    answers = _TwoFaced()
    server = servers(answers)
    url = f"http://127.0.0.1:{server.port}/o/r.git"
    write_tree(tmp_path / "project", {"Dockerfile": f"FROM x\nRUN git clone --branch main {url} /opt/r\n"})

    code, stderr, found = _scan(
        tmp_path / "project", tmp_path, {}, "--lookup-memory", "48", "--timeout", "30"
    )

    remote = f"127.0.0.1:{server.port}/o/r"
    # No suggestion (the question went unanswered), and git was stopped long before the timeout.
    assert (code, stderr) == (1, "")
    assert found == [
        (
            "RL001",
            2,
            f'ref "main" is neither a branch nor a tag of {remote}, so `git clone --branch` fails; it has 1 '
            "branch and 1 tag",
        )
    ]
    assert answers.answered == 2
    assert answers.endless_bytes < 256 * 1024 * 1024


def test_an_endless_answer_to_a_history_fetch_is_stopped_at_the_history_cap(
    tmp_path: Path, servers: ServerFactory
) -> None:
    # A commit that no tip names makes reflint fetch the remote's history, whose ref advertisement git
    # holds whole: an endless one grew git to 17 GB in the 60 s a fetch may take.
    answers = _TwoFaced()
    server = servers(answers)
    url = f"http://127.0.0.1:{server.port}/o/r.git"
    commit = "2" * 40
    write_tree(
        tmp_path / "project",
        {"Dockerfile": f"FROM x\nRUN git clone {url} /opt/r && cd /opt/r && git checkout {commit}\n"},
    )

    code, stderr, found = _scan(
        tmp_path / "project", tmp_path, {}, "--max-history-size", "64", "--timeout", "20"
    )

    remote = f"127.0.0.1:{server.port}/o/r"
    assert (code, stderr) == (0, "")
    assert found == [
        (
            "RL008",
            2,
            f'commit "{commit}" of {remote} could not be verified against its history: git held more than 64 '
            "MiB of memory",
        )
    ]
    assert answers.answered == 2
    assert answers.endless_bytes < 256 * 1024 * 1024
