"""A password or token written in a URL never leaves reflint: not in any output format, not on stderr or in
``--debug`` logs, not in the cache (names or content), not in error messages.

Pins keep the real URL (git needs it to authenticate); every formatter masks it (``user:***@``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes

from ascend_reflint.lookup.cache import FailureCache, RefCache

from .support import clean_env, json_output, record, run_in_terminal, run_reflint, write_tree

TOKEN = "tok3n-5ecret-c4f3b00c"


def _project(root: Path, closed_port: int) -> dict[str, str]:
    github = f"https://alice:{TOKEN}@github.com"
    files = {
        "Dockerfile": (
            "FROM ubuntu:22.04\n"
            f"RUN git clone --branch core_r0.18.0 {github}/NVIDIA/Megatron-LM.git /opt/m\n"
            f'RUN git clone --branch v1 "svn://alice:{TOKEN}@svn.example.invalid/r" /opt/s\n'
            f"RUN git clone https://{TOKEN}@127.0.0.1:{closed_port}\n"
            f"RUN git clone --branch v1 https://bob:{TOKEN}@127.0.0.1:{closed_port}/o/r.git /opt/r\n"
        ),
        "requirements.txt": f"git+https://x-access-token:{TOKEN}@github.com/actions/checkout@v4\n",
        ".github/workflows/ci.yml": (
            "on: push\n"
            "env:\n"
            f"  MIRROR: https://ci:{TOKEN}@github.com/Ascend/MindSpeed.git\n"
            "jobs:\n"
            "  build:\n"
            "    runs-on: ubuntu-latest\n"
            "    steps:\n"
            "      - run: |\n"
            f'          pip install "git+https://{TOKEN}@github.com/NVIDIA/Megatron-LM.git@core_v0.18.0"\n'
            '          git clone --branch no-such-branch "$MIRROR"\n'
        ),
    }
    write_tree(root, files)
    return files


def _credential_rewrites(remotes: FakeRemotes) -> dict[str, str]:
    """The local remotes, also for the credential-bearing prefixes (git matches ``insteadOf`` textually)."""
    base = f"{(remotes.root / 'github.com').resolve()}/"
    extra = [
        (f"url.{base}.insteadOf", f"https://{user}@github.com/")
        for user in (f"alice:{TOKEN}", f"x-access-token:{TOKEN}", TOKEN, f"ci:{TOKEN}")
    ]
    return remotes.env(extra)


def test_no_output_log_or_cache_file_holds_the_token(
    tmp_path: Path, remotes: FakeRemotes, closed_port: int
) -> None:
    project = tmp_path / "project"
    _project(project, closed_port)
    cache = tmp_path / "cache"
    reports = tmp_path / "reports"
    reports.mkdir()
    summary = reports / "step-summary.md"
    env = _credential_rewrites(remotes)
    scan = ["scan", "--cache-dir", str(cache), "--timeout", "20"]
    runs = [
        run_reflint(["refs"], project, env),
        run_reflint(["refs", "--format", "json"], project, env),
        run_reflint(["refs", "--format", "json", "--output", str(reports / "refs.json")], project, env),
        run_reflint(["--debug", *scan, "--format", "text"], project, env),
        run_reflint([*scan, "--format", "json", "--refresh"], project, env),
        run_reflint([*scan, "--format", "github"], project, {**env, "GITHUB_STEP_SUMMARY": str(summary)}),
        run_reflint([*scan, "--format", "sarif", "--output", str(reports / "scan.sarif")], project, env),
        run_reflint(
            [*scan, "--offline", "--format", "json", "--output", str(reports / "scan.json")], project, env
        ),
    ]
    terminal = [run_in_terminal(["refs"], project, env), run_in_terminal(scan, project, env)]

    assert [(run.returncode, run.stderr) for run in runs[:3]] == [(0, "")] * 3
    assert [(run.returncode, run.stderr) for run in runs[4:]] == [(1, "")] * 4
    assert (runs[3].returncode, [run.returncode for run in terminal]) == (1, [0, 1])
    texts = [run.stdout + run.stderr for run in runs] + [run.stdout for run in terminal]
    texts += [path.read_text(encoding="utf-8") for path in reports.iterdir()]
    cache_files = [path for path in cache.rglob("*") if path.is_file()]
    texts += [path.read_text(encoding="utf-8") for path in cache_files] + [str(path) for path in cache_files]
    assert [TOKEN in text for text in texts] == [False] * len(texts)
    # The outputs did show those URLs, masked: the test would see the token if it were there.
    assert [(pin["path"], pin["line"], pin["url"]) for pin in json_output(runs[1])["pins"]] == [
        (".github/workflows/ci.yml", 9, "https://***@github.com/NVIDIA/Megatron-LM.git"),
        (".github/workflows/ci.yml", 10, "https://ci:***@github.com/Ascend/MindSpeed.git"),
        ("Dockerfile", 2, "https://alice:***@github.com/NVIDIA/Megatron-LM.git"),
        ("Dockerfile", 3, "svn://alice:***@svn.example.invalid/r"),
        ("Dockerfile", 4, f"https://***@127.0.0.1:{closed_port}"),
        ("Dockerfile", 5, f"https://bob:***@127.0.0.1:{closed_port}/o/r.git"),
        ("requirements.txt", 1, "https://x-access-token:***@github.com/actions/checkout"),
    ]
    unreachable = f"https://127.0.0.1:{closed_port}/o/r.git/"
    assert [
        (f["code"], f["path"], f["line"], re.sub(r" after \d+ ms:", " after N ms:", f["message"]))
        for f in json_output(runs[4])["findings"]
    ] == [
        (
            "RL024",
            ".github/workflows/ci.yml",
            9,
            'a newer release of "core_v0.18.0" exists on github.com/nvidia/megatron-lm: "core_v0.18.2"',
        ),
        (
            "RL001",
            ".github/workflows/ci.yml",
            10,
            'ref "no-such-branch" is neither a branch nor a tag of github.com/ascend/mindspeed, so `git '
            "clone --branch` fails; it has 6 branches and 2 tags",
        ),
        ("RL002", "Dockerfile", 2, MEGATRON_RELEASE_BRANCH),
        (
            "RL011",
            "Dockerfile",
            3,
            'URL "svn://alice:***@svn.example.invalid/r" was refused and never given to git: transport '
            "'svn' is not allowed (allowed: file, git, http, https, ssh); use an https://, ssh:// or "
            "git@host:owner/name URL",
        ),
        (
            "RL015",
            "Dockerfile",
            4,
            f'`git clone` of "https://***@127.0.0.1:{closed_port}" pins no ref, so the build takes '
            "whatever the default branch holds that day; add `--branch <tag>`, or check out a commit id "
            "after the clone",
        ),
        (
            "RL010",
            "Dockerfile",
            5,
            f"127.0.0.1:{closed_port}/o/r could not be looked up: unreachable (fatal: unable to access "
            f"'{unreachable}': Failed to connect to 127.0.0.1 port {closed_port} after N ms: Couldn't "
            "connect to server), so this pin went unchecked",
        ),
    ]
    # --debug did log the git commands, masked; one lookup per URL as written, so Megatron-LM twice (its
    # two pins give two tokens), each isolated: no host was allowed credentials.
    looked_up = sorted(re.findall(r"git ls-remote --heads --tags -- (\S+) \(isolated\)", runs[3].stderr))
    assert looked_up == sorted(
        [
            f"https://bob:***@127.0.0.1:{closed_port}/o/r.git",
            "https://alice:***@github.com/NVIDIA/Megatron-LM.git",
            "https://ci:***@github.com/Ascend/MindSpeed.git",
            "https://x-access-token:***@github.com/actions/checkout",
            "https://***@github.com/NVIDIA/Megatron-LM.git",
        ]
    )
    # One entry per URL that answered, named after its masked key.
    looked_up_urls = [
        "https://alice:***@github.com/nvidia/megatron-lm",
        "https://***@github.com/nvidia/megatron-lm",
        "https://ci:***@github.com/ascend/mindspeed",
        "https://x-access-token:***@github.com/actions/checkout",
    ]
    # The URL that could not be reached keeps its failure a minute, under its masked key too; no file's
    # extraction is cached, since each holds a token.
    unreachable_key = f"https://bob:***@127.0.0.1:{closed_port}/o/r anonymous"
    # The shipped rule pack is kept read, as a scan left it (no token: it is reflint's own).
    packs = sorted((cache / "packs").iterdir())
    assert len(packs) == 1
    assert sorted(cache_files) == sorted(
        [
            *(RefCache(cache).entry_path(f"{key} anonymous") for key in looked_up_urls),
            FailureCache(cache).entry_path(unreachable_key),
            *packs,
        ]
    )


_FAILING_EXTRACTOR = f"""
import sys
import ascend_reflint.extract.shell as shell

def failing(source):
    raise RuntimeError("cannot read https://alice:{TOKEN}@github.com/a/b.git")

shell.extract_shell_file = failing
from ascend_reflint.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_debug_tracebacks_and_error_messages_are_masked(tmp_path: Path) -> None:
    write_tree(tmp_path, {"build.sh": "git clone https://github.com/a/b.git\n"})

    completed = record(
        subprocess.run(
            [sys.executable, "-c", _FAILING_EXTRACTOR, "--debug", "refs", "--format", "json"],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
    )

    assert TOKEN not in completed.stdout + completed.stderr
    # The traceback and the error entry were written, with the URL masked.
    lines = completed.stderr.splitlines()
    assert (completed.returncode, lines[:2], lines[-2]) == (
        0,
        ["reflint: extracting build.sh failed", "Traceback (most recent call last):"],
        "RuntimeError: cannot read https://alice:***@github.com/a/b.git",
    )
    assert re.fullmatch(
        r"reflint: extract: 1 file read: 0 from the extraction cache \(.+\), 1 extracted", lines[-1]
    )
    assert json_output(completed)["errors"] == [
        {
            "path": "build.sh",
            "message": "internal error while extracting (RuntimeError: cannot read "
            "https://alice:***@github.com/a/b.git); run with --debug",
        }
    ]


#: A stand-in for ssh that answers as OpenSSH does to a key it refuses: ``user@host: Permission denied``.
_FAKE_SSH = """#!/bin/sh
for argument in "$@"; do
  case "$argument" in *@*) echo "$argument: Permission denied (publickey)." >&2 ;; esac
done
exit 255
"""


def test_query_tokens_passwords_with_at_signs_and_scp_users_are_masked_everywhere(
    tmp_path: Path, remotes: FakeRemotes, closed_port: int
) -> None:
    tokens = ["query-t0ken-1", "p@ss-t0ken-2", "scp-t0ken-3", "private-t0ken-4"]
    lines = [
        f"RUN git clone --branch v1 https://github.com/NVIDIA/Megatron-LM.git?access_token={tokens[0]} /a\n",
        f"RUN git clone --branch v1 https://a@b.com:{tokens[1]}@127.0.0.1:{closed_port}/o/r.git /b\n",
        f"RUN git clone --branch v1 {tokens[2]}@127.0.0.1:o/r.git /c\n",
        f"RUN git clone --branch v1 http://127.0.0.1:{closed_port}/o/r.git?private_token={tokens[3]} /d\n",
    ]
    project = tmp_path / "project"
    write_tree(project, {"Dockerfile": "FROM x\n" + "".join(lines)})
    ssh = tmp_path / "fake-ssh"
    ssh.write_text(_FAKE_SSH)
    ssh.chmod(0o755)
    env = {**remotes.env(), "GIT_SSH_COMMAND": str(ssh)}
    summary = tmp_path / "summary.md"
    # The user's own ssh command (the fake) is used only for hosts allowed credentials.
    scan = [
        "scan",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--timeout",
        "20",
        "--credentials-for",
        "127.0.0.1",
    ]

    runs = [
        run_reflint(["refs"], project, env),
        run_reflint(["refs", "--format", "json"], project, env),
        run_reflint(["--debug", *scan, "--format", "json"], project, env),
        run_reflint([*scan, "--format", "github"], project, {**env, "GITHUB_STEP_SUMMARY": str(summary)}),
        run_reflint([*scan, "--format", "sarif", "--output", str(tmp_path / "r.sarif")], project, env),
    ]

    texts = [run.stdout + run.stderr for run in runs]
    texts += [summary.read_text(), (tmp_path / "r.sarif").read_text()]
    texts += [path.read_text() for path in (tmp_path / "cache").rglob("*.json")]
    assert [token for token in tokens for text in texts if token in text] == []
    assert [pin["url"] for pin in json_output(runs[1])["pins"]] == [
        "https://github.com/NVIDIA/Megatron-LM.git?access_token=***",
        f"https://a@b.com:***@127.0.0.1:{closed_port}/o/r.git",
        "***@127.0.0.1:o/r.git",
        f"http://127.0.0.1:{closed_port}/o/r.git?private_token=***",
    ]
    # The URL that RL010 names (the pin's own, which the user's insteadOf sends to a mirror) is masked, and
    # so are git's own messages: ssh's user@host.
    assert [(run.returncode, run.stderr) for run in (runs[0], runs[1], runs[3], runs[4])] == [
        (0, ""),
        (0, ""),
        (1, "reflint: no remote could be checked: 4 pins unchecked\n"),
        (1, "reflint: no remote could be checked: 4 pins unchecked\n"),
    ]
    assert runs[2].returncode == 1
    url = "https://github.com/NVIDIA/Megatron-LM.git?access_token=***"
    port = closed_port
    assert [
        (f["line"], re.sub(r" after \d+ ms:", " after N ms:", f["message"]))
        for f in json_output(runs[2])["findings"]
    ] == [
        (
            2,
            f"the mirror that your git config sends {url} to (url.<base>.insteadOf) has no copy of "
            "github.com/nvidia/megatron-lm, so this pin went unchecked; add it to the mirror to have it "
            "checked",
        ),
        (
            3,
            f"127.0.0.1:{port}/o/r could not be looked up: git failed (fatal: unable to access "
            f"'https://b.com:***@127.0.0.1:{port}/o/r.git/': URL using bad/illegal format or missing URL), "
            "so this pin went unchecked",
        ),
        (
            4,
            "127.0.0.1/o/r could not be looked up: git asked for credentials (***@127.0.0.1: Permission "
            "denied (publickey).), so this pin went unchecked; if it is private, allow reflint your "
            "credentials for its host (--credentials-for HOST), or list it under private-remotes in a rule "
            "pack",
        ),
        (
            5,
            f"127.0.0.1:{port}/o/r could not be looked up: unreachable (fatal: unable to access "
            f"'http://127.0.0.1:{port}/o/r.git?private_token=***': Failed to connect to 127.0.0.1 port "
            f"{port} after N ms: Couldn't connect to server), so this pin went unchecked",
        ),
    ]
    assert "ls-remote" in runs[2].stderr  # --debug logged the git commands, URLs and all
