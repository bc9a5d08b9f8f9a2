"""URLs from scanned files never become git options, transports or shell text (RL011 ``unsafe-url``).

Each test first shows that the URL is dangerous: given to git as it stands, with the same configuration,
it runs a program that creates a marker file. Then reflint scans a folder holding it, through the command
line, and the marker must not appear, the URL must be reported at its exact place, and git must never
have been asked about it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes, git_config_env

from .support import (
    clean_env,
    evil_script,
    git_recorder,
    json_output,
    run_reflint,
    write_tree,
)

MEGATRON_LINE = "RUN git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git /opt/m\n"


def _column(line: str, token: str) -> int:
    """The 1-based column of ``token`` in ``line`` (it must be there once)."""
    assert line.count(token) == 1, (line, token)
    return line.index(token) + 1


def _git(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_option_and_helper_urls_are_refused_and_never_reach_git(tmp_path: Path, remotes: FakeRemotes) -> None:
    ext, ext_marker = evil_script(tmp_path, "ext")
    pack, pack_marker = evil_script(tmp_path, "upload-pack")
    ssh, ssh_marker = evil_script(tmp_path, "ssh")
    pairs = [*remotes_pairs(remotes), ("protocol.ext.allow", "always"), ("protocol.fd.allow", "always")]
    env = clean_env(git_config_env(pairs))
    # The control: git itself runs these when handed them without reflint's checks.
    _git("ls-remote", f"ext::{ext}", cwd=tmp_path, env=env)
    assert ext_marker.exists()
    ext_marker.unlink()
    megatron = str(remotes["github.com/NVIDIA/Megatron-LM"].path)
    _git("ls-remote", f"--upload-pack={pack}", megatron, cwd=tmp_path, env=env)
    assert pack_marker.exists()
    pack_marker.unlink()

    dockerfile = [
        "FROM ubuntu:22.04\n",
        f'RUN git clone --branch v1 "ext::{ext}" /opt/a\n',
        f'RUN git clone -- "--upload-pack={pack}" /opt/b\n',
        f'RUN pip install "git+ext::{ext}@v1"\n',
        'RUN git clone "fd::17" /opt/c\n',
        'RUN git clone --branch v1 "svn://svn.example.invalid/r" /opt/d\n',
        f'RUN git clone "ssh://-oProxyCommand={ssh}/r" /opt/e\n',
        MEGATRON_LINE,
    ]
    requirements = [f"git+ext::{ext}@v1\n", f"git+--upload-pack={pack}@v1\n"]
    script = ["#!/bin/bash\n", f"git clone 'ext::{ext}' /opt/x && cd x && git checkout v2\n"]
    project = tmp_path / "project"
    write_tree(
        project,
        {
            "Dockerfile": "".join(dockerfile),
            "requirements.txt": "".join(requirements),
            "build.sh": "".join(script),
        },
    )
    recorder_env, calls = git_recorder(tmp_path)

    completed = run_reflint(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")],
        cwd=project,
        env={**env, **recorder_env},
    )

    assert not ext_marker.exists() and not pack_marker.exists() and not ssh_marker.exists()
    assert (completed.returncode, completed.stderr) == (1, "")
    document = json_output(completed)
    ext_reason = "transport 'ext::' is not allowed"
    option_reason = "it looks like a command-line option"
    assert _findings(document) == [
        _refused("Dockerfile", 2, dockerfile[1], f"ext::{ext}", ext_reason),
        _refused("Dockerfile", 3, dockerfile[2], f"--upload-pack={pack}", option_reason),
        _refused("Dockerfile", 4, dockerfile[3], f"ext::{ext}", ext_reason),
        _refused("Dockerfile", 5, dockerfile[4], "fd::17", "transport 'fd::' is not allowed"),
        _refused(
            "Dockerfile",
            6,
            dockerfile[5],
            "svn://svn.example.invalid/r",
            "transport 'svn' is not allowed (allowed: file, git, http, https, ssh)",
        ),
        _refused(
            "Dockerfile",
            7,
            dockerfile[6],
            f"ssh://-oProxyCommand={ssh}/r",
            "its user or host starts with '-', which ssh reads as an option",
        ),
        # The good remote in the same scan is looked up and checked as usual.
        (
            "RL002",
            "Dockerfile",
            8,
            _column(MEGATRON_LINE, "core_r0.18.0"),
            _column(MEGATRON_LINE, "core_r0.18.0") + len("core_r0.18.0"),
            MEGATRON_RELEASE_BRANCH,
        ),
        _refused("build.sh", 2, script[1], f"ext::{ext}", ext_reason),
        _refused("requirements.txt", 1, requirements[0], f"ext::{ext}", ext_reason),
        _refused("requirements.txt", 2, requirements[1], f"--upload-pack={pack}", option_reason),
    ]
    looked_up = [call["argv"] for call in calls() if call["argv"][:1] == ["ls-remote"]]
    assert looked_up == [
        ["ls-remote", "--heads", "--tags", "--", "https://github.com/NVIDIA/Megatron-LM.git"]
    ]


def _findings(document: dict[str, Any]) -> list[tuple[str, str, int, int, int, str]]:
    """``(code, path, line, column, end column, message)`` of each finding."""
    return [
        (f["code"], f["path"], f["line"], f["column"], f["end_column"], f["message"])
        for f in document["findings"]
    ]


def _refused(path: str, number: int, line: str, url: str, reason: str) -> tuple[str, str, int, int, int, str]:
    """The RL011 finding on ``url``, the whole of it as written on ``line`` (line ``number`` of ``path``)."""
    column = _column(line, url)
    message = (
        f'URL "{url}" was refused and never given to git: {reason}; use an https://, ssh:// or '
        "git@host:owner/name URL"
    )
    return ("RL011", path, number, column, column + len(url), message)


def remotes_pairs(remotes: FakeRemotes) -> list[tuple[str, str]]:
    """The ``insteadOf`` pairs that send github.com to the local remotes."""
    env = remotes.env()
    count = int(env["GIT_CONFIG_COUNT"])
    return [(env[f"GIT_CONFIG_KEY_{n}"], env[f"GIT_CONFIG_VALUE_{n}"]) for n in range(count)]


MIRROR_MISS = "so this pin went unchecked; add it to the mirror to have it checked"


def test_a_shell_never_reads_a_url(tmp_path: Path, remotes: FakeRemotes) -> None:
    evil, marker = evil_script(tmp_path, "shell")
    env = clean_env(remotes.env())
    line = f'RUN git clone --branch v1 "https://github.com/NVIDIA/Megatron-LM.git;{evil}" /opt/m\n'
    pip = f'RUN pip install "git+https://github.com/actions/checkout|{evil}@v4"\n'
    write_tree(tmp_path / "project", {"Dockerfile": "FROM x\n" + line + pip})
    recorder_env, calls = git_recorder(tmp_path)

    completed = run_reflint(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")],
        cwd=tmp_path / "project",
        env={**env, **recorder_env},
    )

    assert not marker.exists()
    assert (completed.returncode, completed.stderr) == (
        1,
        "reflint: no remote could be checked: 2 pins unchecked\n",
    )
    # Each URL reached git as one argument after "--", and the mirror (the tests' insteadOf) had no such
    # repository.
    looked_up = sorted(call["argv"] for call in calls() if call["argv"][:1] == ["ls-remote"])
    megatron_url = f"https://github.com/NVIDIA/Megatron-LM.git;{evil}"
    checkout_url = f"https://github.com/actions/checkout|{evil}"
    assert looked_up == [
        ["ls-remote", "--heads", "--tags", "--", megatron_url],
        ["ls-remote", "--heads", "--tags", "--", checkout_url],
    ]
    assert _findings(json_output(completed)) == [
        (
            "RL010",
            "Dockerfile",
            2,
            _column(line, megatron_url),
            _column(line, megatron_url) + len(megatron_url),
            f"the mirror that your git config sends {megatron_url} to (url.<base>.insteadOf) has no copy of "
            f"github.com/nvidia/megatron-lm.git;{evil}, {MIRROR_MISS}",
        ),
        (
            "RL010",
            "Dockerfile",
            3,
            _column(pip, checkout_url),
            _column(pip, checkout_url) + len(checkout_url),
            f"the mirror that your git config sends {checkout_url} to (url.<base>.insteadOf) has no copy of "
            f"github.com/actions/checkout|{evil}, {MIRROR_MISS}",
        ),
    ]


def test_git_runs_non_interactively_outside_the_scanned_folder(tmp_path: Path, remotes: FakeRemotes) -> None:
    project = tmp_path / "project"
    write_tree(project, {"Dockerfile": "FROM x\n" + MEGATRON_LINE})
    recorder_env, calls = git_recorder(tmp_path)

    completed = run_reflint(
        ["scan", "--cache-dir", str(tmp_path / "cache")], cwd=project, env={**remotes.env(), **recorder_env}
    )

    assert (completed.returncode, completed.stderr) == (1, "")
    assert completed.stdout.splitlines() == [
        f"Dockerfile:2:24: RL002 [error] {MEGATRON_RELEASE_BRANCH}",
        "",
        "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not checked)",
        "1 fixable with --fix --unsafe-fixes",
    ]
    (call,) = [call for call in calls() if call["argv"][:1] == ["ls-remote"]]
    assert call["argv"] == [
        "ls-remote",
        "--heads",
        "--tags",
        "--",
        "https://github.com/NVIDIA/Megatron-LM.git",
    ]
    silent = shutil.which("true")
    assert call["env"]["GIT_ASKPASS"] == silent
    assert call["env"]["SSH_ASKPASS"] == silent
    assert call["env"]["GIT_TERMINAL_PROMPT"] == "0"
    # github.com is not allowed credentials here: the ssh that git would use offers none.
    assert call["env"]["GIT_SSH_COMMAND"] == (
        "ssh -o BatchMode=yes -o IdentityAgent=none -o PubkeyAuthentication=no -o PasswordAuthentication=no "
        "-o KbdInteractiveAuthentication=no -o GSSAPIAuthentication=no -o HostbasedAuthentication=no "
        "-o ForwardAgent=no -o ControlMaster=no -o ControlPath=none"
    )
    workdir = Path(call["cwd"])
    assert workdir.name.startswith("reflint-git-") and not workdir.exists()
    assert call["env"]["GIT_CEILING_DIRECTORIES"] == str(workdir.parent)


def test_the_scanned_folders_own_git_config_runs_nothing(tmp_path: Path, closed_port: int) -> None:
    # An unpacked archive can carry a .git/config: it must not choose how reflint's git connects.
    project = tmp_path / "project"
    project.mkdir()
    fsmonitor, fsmonitor_marker = evil_script(tmp_path, "fsmonitor")
    ext, ext_marker = evil_script(tmp_path, "ext")
    ssh, ssh_marker = evil_script(tmp_path, "ssh")
    helper, helper_marker = evil_script(tmp_path, "credential")
    rewritten = f"https://127.0.0.1:{closed_port}/"
    env = clean_env()
    _git("init", "--quiet", cwd=project, env=env)
    for key, value in (
        ("core.fsmonitor", str(fsmonitor)),
        ("core.sshCommand", str(ssh)),
        (f"url.ext::{ext} .insteadOf", rewritten),  # "ext::EVIL o/r.git": the path is an argument
        ("protocol.ext.allow", "always"),
        ("credential.helper", f"!{helper}"),
    ):
        _git("config", key, value, cwd=project, env=env)
    # The control: git in that folder runs what its config says.
    _git("ls-remote", "--", f"{rewritten}o/r.git", cwd=project, env=env)
    assert ext_marker.exists()
    ext_marker.unlink()
    _git("status", cwd=project, env=env)
    assert fsmonitor_marker.exists()
    fsmonitor_marker.unlink()
    write_tree(
        project,
        {
            "Dockerfile": (
                "FROM x\n"
                f"RUN git clone --branch v1 {rewritten}o/r.git /opt/r\n"
                f"RUN git clone --branch v1 ssh://git@127.0.0.1:{closed_port}/o/s.git /opt/s\n"
            )
        },
    )

    completed = run_reflint(["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")], cwd=project)

    assert [m.exists() for m in (fsmonitor_marker, ext_marker, ssh_marker, helper_marker)] == [False] * 4
    # Warnings only, saying which remotes went unchecked and why; since not one remote could be checked,
    # the scan says so and fails (exit 0 would read "checked and clean").
    assert (completed.returncode, completed.stderr) == (
        1,
        "reflint: no remote could be checked: 2 pins unchecked\n",
    )
    findings = [
        (code, path, number, column, end, re.sub(r" after \d+ ms:", " after N ms:", message))
        for code, path, number, column, end, message in _findings(json_output(completed))
    ]
    assert findings == [
        (
            "RL010",
            "Dockerfile",
            2,
            27,
            27 + len(f"{rewritten}o/r.git"),
            f"127.0.0.1:{closed_port}/o/r could not be looked up: unreachable (fatal: unable to access "
            f"'{rewritten}o/r.git/': Failed to connect to 127.0.0.1 port {closed_port} after N ms: Couldn't "
            "connect to server), so this pin went unchecked",
        ),
        (
            "RL010",
            "Dockerfile",
            3,
            27,
            27 + len(f"ssh://git@127.0.0.1:{closed_port}/o/s.git"),
            f"127.0.0.1:{closed_port}/o/s could not be looked up: unreachable (ssh: connect to host "
            f"127.0.0.1 port {closed_port}: Connection refused), so this pin went unchecked",
        ),
    ]
