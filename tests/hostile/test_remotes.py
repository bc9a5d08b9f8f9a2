"""Remotes that misbehave, all in one scan with a good remote alongside, through the command line.

- one that accepts the connection and never answers: RL010, timed out, within ``--timeout``;
- one that asks for credentials (HTTP 401): RL014, not found or private (GitHub answers both alike);
- one that closes the connection mid-answer: RL010, unreachable;
- the good remote's finding (a release branch pinned, RL002) is there as it would be alone.

And a remote with 100,000 refs: looked up in full, its pins get the right verdicts. It has a scan of its
own with a ``--timeout`` far above what that lookup takes on a loaded machine (about 0.3 s of git on one
busy CPU), so that only a wrong verdict fails it, never a slow machine.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path

from expected import MEGATRON_RELEASE_BRANCH
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

#: The ``--timeout`` of the scan with a silent remote: how long that scan waits for it. The other remotes of
#: that scan are local and small, and answer within a tenth of it even on one busy CPU.
TIMEOUT = 3
#: The ``--timeout`` of the scan of the remote with 100,000 refs: a margin of over 100 times.
BIG_TIMEOUT = 60


def _scan(project: Path, env: dict[str, str], timeout: int) -> list[dict[str, object]]:
    """Scan ``project``, check the run's exit code (1: findings) and stderr, return the findings."""
    completed = run_reflint(
        ["scan", "--format", "json", "--timeout", str(timeout), "--jobs", "8", "--cache-dir", "../cache"],
        cwd=project,
        env=env,
    )
    assert (completed.returncode, completed.stderr) == (1, ""), completed.stderr
    document = json_output(completed)
    assert document["errors"] == []
    findings: list[dict[str, object]] = document["findings"]
    return findings


def test_each_misbehaving_remote_gets_its_own_verdict_and_spares_the_others(
    tmp_path: Path,
    remotes: FakeRemotes,
    servers: Callable[[Callable[[socket.socket, threading.Event], None]], LoopbackServer],
) -> None:
    silent = servers(never_answer)
    private = servers(ask_for_credentials)
    broken = servers(close_mid_answer)
    slow = f"127.0.0.1:{silent.port}/slow/repo"
    hidden = f"127.0.0.1:{private.port}/private/repo"
    cut = f"127.0.0.1:{broken.port}/broken/repo"
    lines = [
        "FROM ubuntu:22.04\n",
        "RUN git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git /opt/m\n",
        f"RUN git clone --branch v1 http://{slow}.git /opt/slow\n",
        f"RUN git clone --branch v1 http://{hidden}.git /opt/private\n",
        f"RUN git clone --branch v1 http://{cut}.git /opt/broken\n",
    ]
    write_tree(tmp_path / "project", {"Dockerfile": "".join(lines)})

    findings = _scan(tmp_path / "project", remotes.env(), TIMEOUT)

    url_column = lines[2].index("http:") + 1
    assert [
        (f["code"], f["line"], f["column"], f["end_column"], f["remote"], f["message"]) for f in findings
    ] == [
        ("RL002", 2, 24, 36, "github.com/nvidia/megatron-lm", MEGATRON_RELEASE_BRANCH),
        (
            "RL010",
            3,
            url_column,
            url_column + len(f"http://{slow}.git"),
            slow,
            f"{slow} could not be looked up: timed out (no answer within {TIMEOUT} s), so this pin went "
            "unchecked",
        ),
        (
            "RL014",
            4,
            url_column,
            url_column + len(f"http://{hidden}.git"),
            hidden,
            f"{hidden} was not found or is private: if it is mistyped, `git clone` fails here; a private one "
            "needs credentials in git's config and its host allowed them (--credentials-for HOST), or its "
            "remote listed under private-remotes",
        ),
        (
            "RL010",
            5,
            url_column,
            url_column + len(f"http://{cut}.git"),
            cut,
            # close_mid_answer announces 5,000 bytes and sends 78.
            f"{cut} could not be looked up: unreachable (fatal: unable to access 'http://{cut}.git/': "
            "transfer closed with 4922 bytes remaining to read), so this pin went unchecked",
        ),
    ]
    # git asks each server once, and the private one a second time after its 401, with what the silent
    # askpass gave it (nothing); then it gives up: no prompt, no third try.
    assert (silent.connections, private.connections, broken.connections) == (1, 2, 1)


def test_a_remote_with_100000_refs_is_looked_up_in_full(
    tmp_path: Path, remotes: FakeRemotes, big_remote: Path
) -> None:
    lines = [
        "FROM ubuntu:22.04\n",
        f"RUN git clone --branch t99998 https://{BIG_HOST}/org/big.git /opt/big\n",
        "RUN cd /opt/big && git checkout t5 && git checkout t100000\n",
    ]
    write_tree(tmp_path / "project", {"Dockerfile": "".join(lines)})

    findings = _scan(tmp_path / "project", remotes.env([insteadof_pair(big_remote, BIG_HOST)]), BIG_TIMEOUT)

    # The last tag (t99998) and one from the start of the list (t5) exist; t100000 is one past the end.
    column = lines[2].index("t100000") + 1
    assert [(f["code"], f["line"], f["column"], f["end_column"], f["message"]) for f in findings] == [
        (
            "RL001",
            3,
            column,
            column + len("t100000"),
            f'ref "t100000" is neither a branch nor a tag of {BIG_HOST}/org/big, so `git checkout` fails; no '
            'ref names that version; the most similar of its 1 branch and 99999 tags are "t99998", "t99997", '
            '"t99996"',
        )
    ]
