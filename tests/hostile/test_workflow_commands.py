"""Nothing from a scanned repository reaches the CI log as a workflow command (issue 10, item 1).

The GitHub Actions runner obeys ``::command::`` at the start of a line of stdout or stderr (after white
space; a lone CR also ends a line) and ``##[command]`` anywhere (see ``runner_commands.py``). The attacks:
file names, a ref, config and rule-pack keys and a git server's error message that hold such commands,
through every command and format. Each is shown neutralised (``\\x3a:``, ``#\\x23[``, ``#\\u0023[`` in
JSON) and keeps its meaning: JSON gives back the exact text. The ``no_forged_workflow_commands`` fixture
reads every output of every test in this folder as the runner would.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from gitfixtures import FakeRemotes

from .runner_commands import foreign_commands, obeyed
from .support import LoopbackServer, json_output, read_request, run_reflint, write_tree

BINARY = b"FROM x\nRUN \0\0\0 git clone https://github.com/a/b.git\n"
#: File names that would be commands, as written and as reflint shows them.
NAMES = {
    "::stop-commands::x.sh": "\\x3a:stop-commands::x.sh",
    "z##[stop-commands]tok.sh": "z#\\x23[stop-commands]tok.sh",
    "\u00a0::warning::nbsp.sh": "\u00a0\\x3a:warning::nbsp.sh",
    "a\r::error::cr.sh": "a\\x0d::error::cr.sh",
    "soft#\u00ad#[error]x.sh": "soft#\\xad#[error]x.sh",
}
#: The same names in the ``file`` property of an annotation: exact but for what ``shown`` escapes.
ANNOTATED = {
    "::stop-commands::x.sh": "::stop-commands::x.sh",
    "z##[stop-commands]tok.sh": "z#\\x23[stop-commands]tok.sh",
    "\u00a0::warning::nbsp.sh": "\u00a0::warning::nbsp.sh",
    "a\r::error::cr.sh": "a\\x0d::error::cr.sh",
    "soft#\u00ad#[error]x.sh": "soft#\\xad#[error]x.sh",
}
REF = "v1##[error]X"
REF_SHOWN = "v1#\\x23[error]X"


def _pkt_line(text: str) -> bytes:
    data = text.encode()
    return b"%04x" % (len(data) + 4) + data


def _error_from_server(connection: socket.socket, stop: threading.Event) -> None:
    """Answer git's ref advertisement with an ``ERR`` pkt-line (git prints ``fatal: remote error: …``)."""
    read_request(connection)
    body = (
        _pkt_line("# service=git-upload-pack\n") + b"0000" + _pkt_line("ERR no ##[stop-commands]tok1 here\n")
    )
    connection.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body) + body
    )


def _project(root: Path, port: int) -> None:
    files: dict[str, str | bytes] = {name: BINARY for name in NAMES}
    files["Dockerfile"] = (
        "FROM ubuntu:22.04\n"
        f'RUN git clone --branch "{REF}" https://github.com/NVIDIA/Megatron-LM.git /opt/m\n'
        f"RUN git clone --branch v1 http://127.0.0.1:{port}/o/r.git /opt/r\n"
    )
    write_tree(root, files)


def test_file_names_refs_and_server_errors_never_become_workflow_commands(
    tmp_path: Path,
    remotes: FakeRemotes,
    servers: Callable[[Callable[[socket.socket, threading.Event], None]], LoopbackServer],
) -> None:
    server = servers(_error_from_server)
    project = tmp_path / "project"
    _project(project, server.port)
    summary = tmp_path / "step-summary.md"
    env = remotes.env()
    actions = {**env, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    scan = ["scan", "--cache-dir", str(tmp_path / "cache"), "--timeout", "20"]

    refs = run_reflint(["refs"], project)
    refs_json = run_reflint(["refs", "--format", "json"], project)
    text = run_reflint([*scan, "--format", "text"], project, env)
    as_json = run_reflint([*scan, "--format", "json"], project, env)
    github = run_reflint([*scan, "--format", "github"], project, actions)
    sarif = run_reflint([*scan, "--format", "sarif", "--output", str(tmp_path / "r.sarif")], project, env)
    debug = run_reflint(["--debug", *scan, "--format", "text"], project, env)

    errors = "".join(f"{shown}: error: binary file (holds NUL bytes)\n" for shown in sorted(NAMES.values()))
    remote = f"127.0.0.1:{server.port}/o/r"
    assert refs.stdout == (
        f"Dockerfile:2:25: github.com/nvidia/megatron-lm {REF_SHOWN} (clone-branch)\n"
        f"Dockerfile:3:24: {remote} v1 (clone-branch)\n"
    )
    assert refs.stderr == errors
    assert text.stderr == errors
    detail = "fatal: remote error: no #\\x23[stop-commands]tok1 here"
    assert text.stdout.splitlines()[:2] == [
        f'Dockerfile:2:25: RL001 [error] ref "{REF_SHOWN}" is neither a branch nor a tag of '
        "github.com/nvidia/megatron-lm, so `git clone --branch` fails; no ref names that version; the most "
        'similar of its 4 branches and 6 tags are "core_r0.10.0", "core_v0.11.0", "core_v0.12.1"',
        f"Dockerfile:3:27: RL010 [warning] {remote} could not be looked up: git failed ({detail}), so this "
        "pin went unchecked",
    ]
    # JSON keeps the exact text: `#\u0023[` reads back as `##[`.
    assert '"ref": "v1#\\u0023[error]X"' in refs_json.stdout and "##[" not in refs_json.stdout
    assert [pin["ref"] for pin in json_output(refs_json)["pins"]] == [REF, "v1"]
    assert sorted(error["path"] for error in json_output(refs_json)["errors"]) == sorted(NAMES)
    findings = json_output(as_json)["findings"]
    assert [(f["code"], f["ref"]) for f in findings] == [("RL001", REF), ("RL010", "v1")]
    assert findings[1]["message"] == (
        f"{remote} could not be looked up: git failed (fatal: remote error: no ##[stop-commands]tok1 here), "
        "so this pin went unchecked"
    )
    assert "##[" not in as_json.stdout
    # In the log the only commands are reflint's annotations: both findings and each unreadable file.
    commands = obeyed(github.stdout)
    assert [(c.name, c.properties["file"]) for c in commands] == [
        ("error", "Dockerfile"),
        *(("error", ANNOTATED[name]) for name in sorted(NAMES)),
        ("warning", "Dockerfile"),  # errors first: GitHub shows 10 of each kind per step
    ]
    for written in (summary.read_text(encoding="utf-8"), (tmp_path / "r.sarif").read_text(encoding="utf-8")):
        assert "##[" not in written and foreign_commands(written) == []
    notified = json.loads((tmp_path / "r.sarif").read_text(encoding="utf-8"))["runs"][0]["invocations"][0]
    assert len(notified["toolExecutionNotifications"]) == len(NAMES)
    assert "ls-remote" in debug.stderr  # --debug logged, through the same guard
    assert sarif.stdout == ""


def test_config_and_rule_pack_keys_with_line_breaks_stay_on_their_line(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            ".reflint.yaml": '"x\\n::add-mask::y": 1\n',
            "pack.yaml": 'name: p\n"k\\n##[stop-commands]t": 1\n',
            "Dockerfile": "FROM x\n",
        },
    )

    config = run_reflint(["scan", "--offline"], tmp_path)
    (tmp_path / ".reflint.yaml").unlink()
    pack = run_reflint(["scan", "--offline", "--rule-pack", "pack.yaml"], tmp_path)

    assert (config.returncode, config.stdout) == (2, "")
    assert config.stderr == 'reflint: error: .reflint.yaml:1:1: "x\\x0a::add-mask::y": unknown key\n'
    assert (pack.returncode, pack.stdout) == (2, "")
    assert pack.stderr == 'reflint: error: pack.yaml:2:1: "k\\x0a#\\x23[stop-commands]t": unknown key\n'
