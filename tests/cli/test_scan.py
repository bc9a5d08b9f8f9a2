"""``reflint scan`` end to end: real ``git ls-remote`` against local bare repos reached through
``url.<base>.insteadOf`` from the real https URLs (no network).

gitcode.com/Ascend/MindSpeed is served by its GitHub mirror's ref list (tests/data/remotes), a stand-in
because gitcode could not be recorded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes, set_env
from loopback import http_status_server

from ascend_reflint.cli import main
from ascend_reflint.lookup.cache import RefCache

DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone --depth 1 --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git && \\
    git clone --depth 1 --branch core_v0.18.9 https://github.com/NVIDIA/Megatron-LM.git /opt/m2 && \\
    git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git /opt/m3
RUN git clone --branch core_r0.18.0 https://gitcode.com/Ascend/MindSpeed.git
RUN pip install git+https://github.com/vllm-project/vllm-ascend.git@v0.11.0rc9
"""
MEGATRON = "github.com/nvidia/megatron-lm"
#: The findings on DOCKERFILE: (code, path, line, column, end column, ref, suggestion).
FINDINGS = [
    # the release branch where the release tag core_v0.18.0 exists
    ("RL002", "Dockerfile", 2, 34, 46, "core_r0.18.0", "core_v0.18.0"),
    # a ref that exists nowhere: no release of 0.18.9, so no suggestion of another version
    ("RL001", "Dockerfile", 3, 34, 46, "core_v0.18.9", None),
    # a release candidate past the last one: the nearest candidate of the same release
    ("RL001", "Dockerfile", 6, 69, 79, "v0.11.0rc9", "v0.11.0rc3"),
]
#: The cache keys of the URLs DOCKERFILE pins → the fake repository that answers for each (gitcode's is
#: GitHub's mirror). One per URL as written, normalised, looked up without credentials.
CACHED_REMOTES = {
    "https://github.com/nvidia/megatron-lm anonymous": "github.com/NVIDIA/Megatron-LM",
    "https://gitcode.com/ascend/mindspeed anonymous": "github.com/Ascend/MindSpeed",
    "https://github.com/vllm-project/vllm-ascend anonymous": "github.com/vllm-project/vllm-ascend",
}
MISSING_AND_UNREACHABLE = """\
git clone --branch v1 https://github.com/nobody/missing.git
git clone --branch v1 https://127.0.0.1:9/o/unreachable.git
"""


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    mirror = (remotes.root / "github.com" / "Ascend").resolve()
    set_env(monkeypatch, remotes.env(extra=[(f"url.{mirror}/.insteadOf", "https://gitcode.com/Ascend/")]))
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(DOCKERFILE)
    monkeypatch.chdir(root)
    return root


def scan_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["scan", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def brief(document: dict) -> list[tuple]:  # type: ignore[type-arg]
    return [
        (f["code"], f["path"], f["line"], f["column"], f["end_column"], f["ref"], f["suggestion"])
        for f in document["findings"]
    ]


def _where(finding: dict) -> tuple:  # type: ignore[type-arg]
    """A finding's code, severity, line, column and end column."""
    return (finding["code"], finding["severity"], finding["line"], finding["column"], finding["end_column"])


def test_megatron_release_branch_and_missing_refs(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = scan_json(capsys, "--cache-dir", str(tmp_path / "cache"))
    assert code == 1
    assert brief(document) == FINDINGS
    # the existing tag core_v0.12.1 (line 4) and MindSpeed's release branch (line 5) are not findings
    assert document["summary"] == {
        "files": 1,
        "pins": 5,
        "remotes": 3,
        "lookups": 3,
        "cached": 0,
        "cached_failures": 0,
        "checked": 3,
        "unchecked": 0,
        "unchecked_pins": 0,
        "findings": {"error": 3, "warning": 0, "info": 0},
        "fixable": {"now": 0, "with_unsafe_fixes": 2},
        "fixed": None,
    }
    assert [f["message"] for f in document["findings"]] == [
        MEGATRON_RELEASE_BRANCH,
        'ref "core_v0.18.9" is neither a branch nor a tag of github.com/nvidia/megatron-lm, so `git clone '
        "--branch` fails; no ref names that version; the most similar of its 4 branches and 6 tags are "
        '"core_v0.18.2", "core_v0.18.0", "core_r0.18.0"',
        'ref "v0.11.0rc9" is neither a branch nor a tag of github.com/vllm-project/vllm-ascend, so pip '
        'fails; the closest of its 1 branch and 5 tags is tag "v0.11.0rc3"',
    ]


def test_text_output_does_not_repeat_a_suggestion_that_the_message_names(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "--cache-dir", str(tmp_path / "cache"), "--select", "RL002"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"Dockerfile:2:34: RL002 [error] {MEGATRON_RELEASE_BRANCH}",
        "",
        "1 error, 0 warnings, 0 info in 1 of 1 file (5 pins, 3 remotes: 3 checked (0 cached), 0 not checked)",
        "1 fixable with --fix --unsafe-fixes",
    ]


def test_missing_repository_mirror_without_a_copy_and_unreachable_host(
    project: Path, tmp_path: Path, remotes: FakeRemotes, capsys: pytest.CaptureFixture[str]
) -> None:
    with http_status_server(404) as port:
        missing = f"git clone --branch v1 http://127.0.0.1:{port}/nobody/missing.git\n"
        (project / "install.sh").write_text(missing + MISSING_AND_UNREACHABLE)
        code, document = scan_json(
            capsys,
            "install.sh",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--timeout",
            "5",
            "--ignore",
            "RL016",
        )
    assert code == 1
    assert [
        (*_where(f), re.sub(r" after \d+ ms:", " after N ms:", f["message"])) for f in document["findings"]
    ] == [
        (
            # The server itself says there is no such repository: the clone fails.
            "RL014",
            "error",
            1,
            23,
            23 + len(f"http://127.0.0.1:{port}/nobody/missing.git"),
            f"127.0.0.1:{port}/nobody/missing does not exist (fatal: repository "
            f"'http://127.0.0.1:{port}/nobody/missing.git/' not found), so `git clone` fails here; check the "
            "owner and name in the URL",
        ),
        (
            # The user's git config sends github.com to a mirror that lacks the repository: said of the
            # mirror, as a remote that went unchecked, never "does not exist".
            "RL010",
            "warning",
            2,
            23,
            60,
            "the mirror that your git config sends https://github.com/nobody/missing.git to "
            "(url.<base>.insteadOf) has no copy of github.com/nobody/missing, so this pin went unchecked; "
            "add it to the mirror to have it checked",
        ),
        (
            "RL010",
            "warning",
            3,
            23,
            60,
            # A remote that cannot be reached is unreachable, never "ref not found" (no RL001).
            "127.0.0.1:9/o/unreachable could not be looked up: unreachable (fatal: unable to access "
            "'https://127.0.0.1:9/o/unreachable.git/': Failed to connect to 127.0.0.1 port 9 after N ms: "
            "Couldn't connect to server), so this pin went unchecked",
        ),
    ]
    assert document["summary"] == {
        "files": 1,
        "pins": 3,
        "remotes": 3,
        "lookups": 3,
        "cached": 0,
        "cached_failures": 0,
        "checked": 1,
        "unchecked": 2,
        "unchecked_pins": 2,
        "findings": {"error": 1, "warning": 2, "info": 0},
        "fixable": {"now": 0, "with_unsafe_fixes": 0},
        "fixed": None,
    }


def test_second_run_is_answered_from_the_cache(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = str(tmp_path / "cache")
    cold_code, cold = scan_json(capsys, "--cache-dir", cache)
    warm_code, warm = scan_json(capsys, "--cache-dir", cache)
    refreshed_code, refreshed = scan_json(capsys, "--cache-dir", cache, "--refresh")
    assert (cold_code, warm_code, refreshed_code) == (1, 1, 1)
    assert (cold["summary"]["lookups"], cold["summary"]["cached"]) == (3, 0)
    assert (warm["summary"]["lookups"], warm["summary"]["cached"]) == (0, 3)
    assert (refreshed["summary"]["lookups"], refreshed["summary"]["cached"]) == (3, 0)
    assert warm["findings"] == refreshed["findings"] == cold["findings"]
    assert brief(cold) == FINDINGS


def test_offline_with_an_empty_cache_is_unknown_not_missing(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = scan_json(capsys, "--offline", "--cache-dir", str(tmp_path / "empty"))
    # Warnings only, one per remote, on its first pin; none says a ref does not exist. Exit 1 all the same:
    # no remote could be checked, and exit 0 would read "checked and clean".
    assert code == 1
    unknown = "could not be looked up: unknown (offline): not in the cache, so {} went unchecked"
    assert [(*_where(f), f["message"], f["related"]) for f in document["findings"]] == [
        (
            "RL010",
            "warning",
            2,
            47,
            88,
            f"{MEGATRON} " + unknown.format("3 pins of it in this file"),
            [
                {"path": "Dockerfile", "line": line, "column": 47, "message": "another pin of " + MEGATRON}
                for line in (3, 4)
            ],
        ),
        ("RL010", "warning", 5, 37, 77, "gitcode.com/ascend/mindspeed " + unknown.format("this pin"), []),
        (
            "RL010",
            "warning",
            6,
            21,
            68,
            "github.com/vllm-project/vllm-ascend " + unknown.format("this pin"),
            [],
        ),
    ]
    assert document["summary"] == {
        "files": 1,
        "pins": 5,
        "remotes": 3,
        "lookups": 0,
        "cached": 0,
        "cached_failures": 0,
        "checked": 0,
        "unchecked": 3,
        "unchecked_pins": 5,
        "findings": {"error": 0, "warning": 3, "info": 0},
        "fixable": {"now": 0, "with_unsafe_fixes": 0},
        "fixed": None,
    }


def test_many_pins_of_one_remote_make_one_lookup(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        f"git clone --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git /opt/m{i}"
        for i in range(40)
    ]
    lines.append("git clone --branch core_v0.12.1 https://github.com/nvidia/megatron-lm /opt/lower")
    (project / "many.sh").write_text("\n".join(lines) + "\n")
    # RL005 would compare many.sh with the Dockerfile beside it; this test is about lookups only.
    code, document = scan_json(capsys, "many.sh", "--cache-dir", str(tmp_path / "cache"), "--ignore", "RL005")
    assert code == 0
    assert document["summary"] == {
        "files": 1,
        "pins": 41,
        "remotes": 1,
        "lookups": 1,
        "cached": 0,
        "cached_failures": 0,
        "checked": 1,
        "unchecked": 0,
        "unchecked_pins": 0,
        "findings": {"error": 0, "warning": 0, "info": 0},
        "fixable": {"now": 0, "with_unsafe_fixes": 0},
        "fixed": None,
    }


def test_two_scans_at_once_share_one_cache(project: Path, tmp_path: Path, remotes: FakeRemotes) -> None:
    cache = str(tmp_path / "cache")
    command = [sys.executable, "-m", "ascend_reflint", "scan", "--format", "json", "--cache-dir", cache]
    running = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=os.environ) for _ in range(2)]
    outputs = [process.communicate(timeout=60)[0] for process in running]
    assert [process.returncode for process in running] == [1, 1]
    first, second = (json.loads(output) for output in outputs)
    assert brief(first) == brief(second) == FINDINGS
    # One whole entry per URL, holding what the remote holds.
    assert sorted((Path(cache) / "remotes").glob("*.json")) == sorted(
        RefCache(Path(cache)).entry_path(remote) for remote in CACHED_REMOTES
    )
    for remote, repository in CACHED_REMOTES.items():
        refs = RefCache(Path(cache)).load(remote, max_age=None)
        assert refs is not None
        assert (refs.branches, refs.tags) == (remotes[repository].branches, remotes[repository].tags)
    third = subprocess.run(command, capture_output=True, text=True, check=False)
    assert (third.returncode, third.stderr) == (1, "")
    assert (
        json.loads(third.stdout)["summary"]["lookups"],
        json.loads(third.stdout)["summary"]["cached"],
    ) == (0, 3)
