"""The rules for commands that break the build (RL018, RL019, RL020, RL022, and RL012 for a repository URL
that expands to nothing), through ``reflint scan`` with exact findings and the traps that stay silent.

RL020's cases are verified with real git: each script runs with bash against a local bare repository (the
real URL sent there with ``url.<base>.insteadOf``), and reflint reports exactly the scripts whose checkout
git refuses.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gitfixtures import build_repo, git_config_env, set_env

from ascend_reflint.cli import main

URL = "https://github.com/o/fetchy.git"
#: What hides the developer's own git configuration (as gitfixtures.insteadof_env sets it).
ISOLATION = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
#: The fake upstream: a default branch, another branch, a lightweight and an annotated tag.
UPSTREAM = [
    ("1111111111111111111111111111111111111111", "HEAD"),
    ("1111111111111111111111111111111111111111", "refs/heads/main"),
    ("2222222222222222222222222222222222222222", "refs/heads/other"),
    ("3333333333333333333333333333333333333333", "refs/tags/v1.0"),
    ("4444444444444444444444444444444444444444", "refs/tags/v2.0"),
    ("5555555555555555555555555555555555555555", "refs/tags/v2.0^{}"),
]


def scan(
    root: Path, capsys: pytest.CaptureFixture[str], *paths: str, code: int = 1
) -> list[tuple[object, ...]]:
    """The findings of the command rules in ``paths``, once the scan's exit code is checked to be ``code``."""
    args = ["scan", "--format", "json", "--no-verify-commits", "--cache-dir", str(root / ".cache"), *paths]
    assert main(args) == code
    document = json.loads(capsys.readouterr().out)
    return [
        (f["code"], f["path"], f["line"], f["column"], f["end_column"], f["message"], f["related"])
        for f in document["findings"]
        if f["code"] in ("RL012", "RL018", "RL019", "RL020", "RL022")
    ]


# --- RL020 against real git -----------------------------------------------------------------------------

#: How each case makes its repository, then fetches and checks out.
FULL = f"git clone -q {URL} t && cd t"
SHALLOW = f"git clone -q --depth 1 {URL} t && cd t"
SINGLE = f"git clone -q --single-branch {URL} t && cd t"
ADDED = f"git init -q t && cd t && git remote add origin {URL}"
BARE = "git init -q t && cd t"
#: name → (script, whether git fails it). Each script runs in a folder of its own.
FETCH_CASES = {
    "full-clone-tag": (f"{FULL} && git fetch -q origin v1.0 && git checkout -q v1.0", False),
    "full-clone-branch": (f"{FULL} && git fetch -q origin other && git checkout -q other", False),
    "shallow-tag": (f"{SHALLOW} && git fetch -q --depth 1 origin v1.0 && git checkout -q v1.0", True),
    "shallow-other-branch": (
        f"{SHALLOW} && git fetch -q --depth 1 origin other && git checkout -q other",
        True,
    ),
    "single-branch-other": (f"{SINGLE} && git fetch -q origin other && git checkout -q other", True),
    "remote-add-branch": (f"{ADDED} && git fetch -q origin other && git checkout -q other", False),
    "remote-add-tag": (f"{ADDED} && git fetch -q origin v2.0 && git checkout -q v2.0", True),
    "remote-add-tag-refspec": (f"{ADDED} && git fetch -q origin tag v1.0 && git checkout -q v1.0", False),
    "url-branch": (f"{BARE} && git fetch -q {URL} other && git checkout -q other", True),
    "url-fetch-head": (f"{BARE} && git fetch -q {URL} v1.0 && git checkout -q FETCH_HEAD", False),
}


@pytest.fixture
def fetchy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder, with github.com/o/fetchy served by a local bare repository."""
    remotes = tmp_path / "remotes"
    build_repo(remotes / "github.com" / "o" / "fetchy.git", UPSTREAM)
    # file://, not a path: git ignores --depth when it clones a local path
    base = f"file://{(remotes / 'github.com').resolve()}/"
    set_env(monkeypatch, {**git_config_env([(f"url.{base}.insteadOf", "https://github.com/")]), **ISOLATION})
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def test_rl020_reports_exactly_the_checkouts_that_git_refuses(
    fetchy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    refused = set()
    for name, (script, fails) in FETCH_CASES.items():
        (fetchy / f"{name}.sh").write_text(f"#!/bin/bash\n{script}\n")
        workdir = fetchy.parent / "runs" / name
        workdir.mkdir(parents=True)
        returncode = subprocess.run(
            [bash, str(fetchy / f"{name}.sh")], cwd=workdir, capture_output=True
        ).returncode
        assert (returncode != 0) == fails, name  # git itself says which checkouts fail
        if fails:
            refused.add(f"{name}.sh")

    found = scan(fetchy, capsys, ".")

    assert {path for code, path, *_ in found if code == "RL020"} == refused
    by_path = {path: (line, column, message) for code, path, line, column, _end, message, _rel in found}
    assert by_path["shallow-tag.sh"] == (
        2,
        123,
        '`git checkout v1.0` fails ("pathspec did not match"): a fetch of a tag by name makes no local tag, '
        "and the clone has not fetched the remote's tags, so only FETCH_HEAD holds v1.0; check out "
        "FETCH_HEAD, or fetch it as `git fetch origin tag v1.0`",
    )
    assert by_path["url-branch.sh"][2] == (
        '`git checkout other` fails ("pathspec did not match"): the fetch names a URL, not a remote, which '
        "makes no remote-tracking branch or tag, so only FETCH_HEAD holds other; check out FETCH_HEAD"
    )


def test_rl020_is_silent_for_a_full_commit_id_after_a_bare_fetch(
    fetchy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    (fetchy / "commit.sh").write_text(
        f"git init -q t && cd t && git fetch -q {URL} {commit} && git checkout {commit}\n"
    )
    assert scan(fetchy, capsys, "commit.sh", code=0) == []


# --- RL018, RL019, RL022, RL012 ----------------------------------------------------------------------------

DOCKERFILE = """\
FROM ubuntu:22.04 AS base
RUN git clone -b #8f3c2a1 https://github.com/NVIDIA/apex.git && \\
    cd apex && pip install .
RUN git clone https://github.com/NVIDIA/Megatron-LM.git megatron && \\
    git checkout core_v0.12.1
RUN git clone https://github.com/NVIDIA/Megatron-LM.git m2 && cd m2 && git checkout core_v0.12.1
RUN DEPS=(git+https://github.com/NVIDIA/apex.git@25.04) && pip install "${DEPS[@]}"
RUN bash -c 'if [[ -n "$X" ]]; then git clone https://github.com/NVIDIA/apex.git; fi'
# RUN if [[ -n "$X" ]]; then git clone https://github.com/NVIDIA/apex.git; fi
FROM openeuler/openeuler:24.03 AS oe
RUN if [[ -n "$X" ]]; then echo; fi
FROM ubuntu:22.04 AS bash
SHELL ["/bin/bash", "-c"]
RUN if [[ -n "$X" ]]; then echo; fi
"""


RL018_MESSAGE = (
    '`git clone -b` has no value: the shell reads "#8f3c2a1 …" as a comment, so git gets -b alone and '
    "refuses it; Docker joins the RUN's lines first, so the rest of the RUN is a comment too and never runs; "
    "remove the `#` or quote the value"
)
MEGATRON_CLONE = "the clone of https://github.com/NVIDIA/Megatron-LM.git into megatron"
RL019_MESSAGE = (
    f"`git checkout core_v0.12.1` runs in the directory the clone was made from, not in {MEGATRON_CLONE}: "
    'there it finds no repository ("not a git repository") or another one, and the clone keeps its default '
    "branch; `cd megatron` first, or use `git -C megatron`"
)
RL022_DASH = (
    "is bash syntax, but this RUN runs in /bin/sh (dash on Debian and Ubuntu), which refuses it or runs "
    'something else; add `SHELL ["/bin/bash", "-c"]` before it, or run the script with `bash -c`'
)
RL022_BASH = (
    "is bash syntax in a RUN that /bin/sh runs: this base image's /bin/sh is bash, but a Debian or Ubuntu "
    'base would refuse it; add `SHELL ["/bin/bash", "-c"]` to say so'
)


def test_commands_that_break_the_build_and_the_traps_beside_them(
    fetchy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (fetchy / "Dockerfile").write_text(DOCKERFILE)
    clone = {"path": "Dockerfile", "line": 4, "column": 5, "message": MEGATRON_CLONE}
    assert scan(fetchy, capsys, "Dockerfile") == [
        ("RL018", "Dockerfile", 2, 15, 17, RL018_MESSAGE, []),
        ("RL019", "Dockerfile", 5, 18, 30, RL019_MESSAGE, [clone]),
        ("RL022", "Dockerfile", 7, 5, 11, f"the array assignment `DEPS=(` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 7, 73, 83, f"the array expansion `${{DEPS[@]}}` {RL022_DASH}", []),
        # an openEuler base: its /bin/sh is bash
        ("RL022", "Dockerfile", 11, 8, 10, f"the test `[[` {RL022_BASH}", []),
    ]


BASHISMS = """\
FROM ubuntu:22.04
RUN source /opt/env.sh && echo ${FOO:0:3} ${FOO: -2}
RUN pushd /x && popd && echo ${BAR//./} ${BAR^^} ${!BAR}
RUN . /opt/env.sh && echo ${FOO:-x} ${#FOO} ${FOO%.*} && bash -c "source /opt/env.sh"
FROM openeuler/openeuler:24.03
RUN source /opt/env.sh
FROM quay.io/ascend/cann:8.3.rc1-910b-ubuntu22.04-py3.11
RUN source /usr/local/Ascend/ascend-toolkit/set_env.sh && echo ${FOO:0:3}
FROM ubuntu:22.04
SHELL ["/bin/bash", "-c"]
RUN source /opt/env.sh && pushd /x
"""
SOURCE_DASH = RL022_DASH.replace(", or run the script", ", run the script") + ", or write `.` instead"


def test_bash_builtins_and_expansions_that_dash_refuses(
    fetchy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ShellCheck's SC3046 (source), SC3044 (pushd, popd), SC3057 (substring), SC3060, SC3059, SC3053 in a
    RUN that dash runs; silent on their POSIX forms, in ``bash -c``, on a CANN base (its image sets SHELL to
    bash) and after SHELL; an info on openEuler, whose /bin/sh is bash."""
    (fetchy / "Dockerfile").write_text(BASHISMS)
    assert scan(fetchy, capsys, "Dockerfile", code=0) == [
        ("RL022", "Dockerfile", 2, 5, 11, f"the command `source` {SOURCE_DASH}", []),
        ("RL022", "Dockerfile", 2, 32, 42, f"the substring expansion `${{FOO:0:3}}` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 2, 43, 53, f"the substring expansion `${{FOO: -2}}` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 3, 5, 10, f"the command `pushd` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 3, 17, 21, f"the command `popd` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 3, 30, 40, f"the pattern substitution `${{BAR//./}}` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 3, 41, 49, f"the case modification `${{BAR^^}}` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 3, 50, 57, f"the indirect expansion `${{!BAR}}` {RL022_DASH}", []),
        ("RL022", "Dockerfile", 6, 5, 11, f"the command `source` {RL022_BASH} (or write `.` instead)", []),
    ]


def test_a_repository_url_that_expands_to_nothing_names_the_word_git_takes(
    fetchy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    script = f"# REPO={URL}\ngit init w && cd w && git fetch $REPO {commit} && git checkout FETCH_HEAD\n"
    script += 'git clone "$REPO" quoted\n'
    (fetchy / "fetch.sh").write_text(script)
    why = "$REPO is only assigned on a commented-out line (line 1)"
    assert [finding[:6] for finding in scan(fetchy, capsys, "fetch.sh")] == [
        (
            "RL012",
            "fetch.sh",
            2,
            33,
            38,
            f'URL "$REPO" expands to nothing here ({why}; unquoted, it vanishes, so git takes the next word, '
            f'"{commit}", as the repository); assign the variable before this line',
        ),
        (  # quoted, it stays an empty word
            "RL012",
            "fetch.sh",
            3,
            12,
            17,
            f'URL "$REPO" expands to nothing here ({why}), so `git clone` gets no repository; assign the '
            "variable before this line",
        ),
    ]
