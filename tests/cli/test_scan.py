"""``reflint scan`` end to end: real ``git ls-remote`` against local bare repos reached through
``url.<base>.insteadOf`` from the real https URLs (no network).

gitcode.com/Ascend/MindSpeed is served by its GitHub mirror's ref list (tests/data/remotes), a stand-in
because gitcode could not be recorded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, build_remotes, set_env

from ascend_reflint.cli import main

DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone --depth 1 --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git && \\
    git clone --depth 1 --branch core_v0.18.9 https://github.com/NVIDIA/Megatron-LM.git /opt/m2 && \\
    git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git /opt/m3
RUN git clone --branch core_r0.18.0 https://gitcode.com/Ascend/MindSpeed.git
RUN pip install git+https://github.com/vllm-project/vllm-ascend.git@v0.11.0rc9
"""
MISSING_AND_UNREACHABLE = """\
git clone --branch v1 https://github.com/nobody/missing.git
git clone --branch v1 https://127.0.0.1:9/o/unreachable.git
"""


@pytest.fixture(scope="module")
def remotes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    return build_remotes(tmp_path_factory.mktemp("remotes"))


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


def test_megatron_release_branch_and_missing_refs(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = scan_json(capsys, "--cache-dir", str(tmp_path / "cache"))
    assert code == 1
    assert brief(document) == [
        # the release branch where the release tag core_v0.18.0 exists
        ("RL002", "Dockerfile", 2, 34, 46, "core_r0.18.0", "core_v0.18.0"),
        # a ref that exists nowhere: no release of 0.18.9, so no suggestion of another version
        ("RL001", "Dockerfile", 3, 34, 46, "core_v0.18.9", None),
        # a release candidate past the last one: the nearest candidate of the same release
        ("RL001", "Dockerfile", 6, 69, 79, "v0.11.0rc9", "v0.11.0rc3"),
    ]
    # the existing tag core_v0.12.1 (line 4) and MindSpeed's release branch (line 5) are not findings
    assert document["summary"] == {
        "files": 1,
        "pins": 5,
        "remotes": 3,
        "lookups": 3,
        "cached": 0,
        "checked": 3,
        "unchecked": 0,
        "unchecked_pins": 0,
        "findings": {"error": 3, "warning": 0, "info": 0},
    }
    assert document["findings"][0]["message"] == (
        'ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a commit '
        'lands on it: pin its release tag "core_v0.18.0"'
    )


def test_text_output_says_did_you_mean(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "--cache-dir", str(tmp_path / "cache"), "--select", "RL002"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        'Dockerfile:2:34: RL002 [error] ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, '
        'which moves whenever a commit lands on it: pin its release tag "core_v0.18.0"',
        "  did you mean 'core_v0.18.0'?",
        "1 error, 0 warnings, 0 info in 1 file (5 pins, 3 remotes: 3 checked (0 cached), 0 not checked)",
    ]


def test_missing_repository_and_unreachable_host(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "install.sh").write_text(MISSING_AND_UNREACHABLE)
    code, document = scan_json(capsys, "install.sh", "--cache-dir", str(tmp_path / "cache"), "--timeout", "5")
    assert code == 1
    assert [(f["code"], f["severity"], f["line"], f["remote"]) for f in document["findings"]] == [
        ("RL014", "error", 1, "github.com/nobody/missing"),
        ("RL010", "warning", 2, "127.0.0.1:9/o/unreachable"),
    ]
    assert "could not be looked up: unreachable" in document["findings"][1]["message"]
    assert not any(f["code"] == "RL001" for f in document["findings"])


def test_second_run_is_answered_from_the_cache(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = str(tmp_path / "cache")
    _, cold = scan_json(capsys, "--cache-dir", cache)
    _, warm = scan_json(capsys, "--cache-dir", cache)
    assert (cold["summary"]["lookups"], cold["summary"]["cached"]) == (3, 0)
    assert (warm["summary"]["lookups"], warm["summary"]["cached"]) == (0, 3)
    assert warm["findings"] == cold["findings"]
    _, refreshed = scan_json(capsys, "--cache-dir", cache, "--refresh")
    assert (refreshed["summary"]["lookups"], refreshed["summary"]["cached"]) == (3, 0)


def test_offline_with_an_empty_cache_is_unknown_not_missing(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = scan_json(capsys, "--offline", "--cache-dir", str(tmp_path / "empty"))
    assert code == 1  # nothing could be checked: exit 0 would say "checked and clean"
    assert {f["code"] for f in document["findings"]} == {"RL010"}
    assert document["summary"]["lookups"] == 0
    assert (document["summary"]["checked"], document["summary"]["unchecked"]) == (0, 3)
    assert all("unknown (offline)" in f["message"] for f in document["findings"])


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
        "checked": 1,
        "unchecked": 0,
        "unchecked_pins": 0,
        "findings": {"error": 0, "warning": 0, "info": 0},
    }


def test_two_scans_at_once_share_one_cache(project: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    command = [sys.executable, "-m", "ascend_reflint", "scan", "--format", "json", "--cache-dir", cache]
    running = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=os.environ) for _ in range(2)]
    outputs = [process.communicate(timeout=60)[0] for process in running]
    assert [process.returncode for process in running] == [1, 1]
    first, second = (json.loads(output) for output in outputs)
    assert brief(first) == brief(second)
    entries = list(Path(cache).rglob("*.json"))
    assert len(entries) == 3
    assert all(isinstance(json.loads(entry.read_text()), dict) for entry in entries)
    third = json.loads(subprocess.run(command, capture_output=True, text=True, check=False).stdout)
    assert (third["summary"]["lookups"], third["summary"]["cached"]) == (0, 3)
