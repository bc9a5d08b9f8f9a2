"""Remotes that misbehave, all in one scan with a good remote alongside, through the command line.

- one that accepts the connection and never answers: RL010, timed out, within ``--timeout``;
- one that asks for credentials (HTTP 401): RL014, not found or private (GitHub answers both alike);
- one that closes the connection mid-answer: RL010, unreachable;
- one with 100,000 refs: looked up in full, its pins get the right verdicts;
- the good remote's finding (a release branch pinned, RL002) is there as it would be alone.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path

from gitfixtures import FakeRemotes

from .support import (
    BIG_HOST,
    LoopbackServer,
    ask_for_credentials,
    close_mid_answer,
    insteadof_pair,
    json_output,
    never_answer,
    run_reflint,
    write_tree,
)

TIMEOUT = 3


def test_each_misbehaving_remote_gets_its_own_verdict_and_spares_the_others(
    tmp_path: Path,
    remotes: FakeRemotes,
    big_remote: Path,
    servers: Callable[[Callable[[socket.socket, threading.Event], None]], LoopbackServer],
) -> None:
    silent = servers(never_answer)
    private = servers(ask_for_credentials)
    broken = servers(close_mid_answer)
    lines = [
        "FROM ubuntu:22.04\n",
        "RUN git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git /opt/m\n",
        f"RUN git clone --branch v1 http://127.0.0.1:{silent.port}/slow/repo.git /opt/slow\n",
        f"RUN git clone --branch v1 http://127.0.0.1:{private.port}/private/repo.git /opt/private\n",
        f"RUN git clone --branch v1 http://127.0.0.1:{broken.port}/broken/repo.git /opt/broken\n",
        f"RUN git clone --branch t99998 https://{BIG_HOST}/org/big.git /opt/big\n",
        "RUN cd /opt/big && git checkout t5 && git checkout t100000\n",
    ]
    write_tree(tmp_path / "project", {"Dockerfile": "".join(lines)})
    env = remotes.env([insteadof_pair(big_remote, BIG_HOST)])

    completed = run_reflint(
        [
            "scan",
            "--format",
            "json",
            "--timeout",
            str(TIMEOUT),
            "--jobs",
            "8",
            "--cache-dir",
            str(tmp_path / "c"),
        ],
        cwd=tmp_path / "project",
        env=env,
    )

    document = json_output(completed)
    found = [(f["code"], f["line"], f["column"], f["remote"]) for f in document["findings"]]
    assert found == [
        ("RL002", 2, lines[1].index("core_r0.18.0") + 1, "github.com/nvidia/megatron-lm"),
        ("RL010", 3, lines[2].index("http:") + 1, f"127.0.0.1:{silent.port}/slow/repo"),
        ("RL014", 4, lines[3].index("http:") + 1, f"127.0.0.1:{private.port}/private/repo"),
        ("RL010", 5, lines[4].index("http:") + 1, f"127.0.0.1:{broken.port}/broken/repo"),
        ("RL001", 7, lines[6].index("t100000") + 1, f"{BIG_HOST}/org/big"),
    ]
    messages = [f["message"] for f in document["findings"]]
    assert f"could not be looked up: timed out (no answer within {TIMEOUT} s)" in messages[1]
    assert "was not found or is private" in messages[2]
    assert "could not be looked up: unreachable (fatal: unable to access" in messages[3]
    assert "transfer closed with" in messages[3]
    assert document["summary"]["lookups"] == 5
    assert (silent.connections, private.connections >= 1, broken.connections) == (1, True, 1)
    assert completed.returncode == 1
