"""The start-up of every scan: a scan of a repository with no file to read loads what reading, checking and
looking up would need only once there is something to read (the fixed cost that pre-commit pays on every
commit; benchmarks/README.md has the figures), and still exits as README.md's exit table says. A warm scan
naming a few files (pre-commit's, every file in the extraction cache) loads no extractor."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ascend_reflint.cli import YOUNG_COLLECTION_THRESHOLD, main, run

#: What a scan that finds no file must not import: the stages after discovery, the cache's codec and hashes,
#: pathlib (with urllib.parse and ipaddress behind it), shutil (with bz2 and lzma behind it), which
#: argparse's help formatter imports for the terminal's width, and logging (its handler is installed when
#: there is a file to read).
NOT_AT_START_UP = (
    "ascend_reflint.check",
    "ascend_reflint.lookup",
    "ascend_reflint.extract",
    "ascend_reflint.codec",
)
NOR_STDLIB = ("pathlib", "urllib", "ipaddress", "hashlib", "json", "shutil", "bz2", "lzma", "logging")
#: What a warm scan naming files whose extractions are all cached must not import: the extractors and the
#: variable resolution they use (nothing is parsed), difflib (nothing is suggested), logging (nothing logs
#: without --debug) and hashlib (OpenSSL's: the cache's digests are CPython's own SHA-256).
NOT_WHEN_WARM = (
    "ascend_reflint.extract",
    "ascend_reflint.resolve",
    "difflib",
    "shutil",
    "logging",
    "hashlib",
    "_hashlib",
)


def test_a_scan_of_an_empty_repository_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)

    completed, imported = _scan_importing(tmp_path, "--cache-dir", str(tmp_path / "c"))

    assert completed.returncode == 1  # nothing was checked (README's table)
    assert completed.stdout == (
        "0 errors, 0 warnings, 0 info in 0 of 0 files "
        "(0 pins, 0 remotes: 0 checked (0 cached), 0 not checked)\n"
    )
    said = [line for line in completed.stderr.splitlines() if not line.startswith("import time:")]
    assert said == ["reflint: no recipe file found in .: nothing was checked"]
    assert "ascend_reflint.scan" in imported  # the test can fail: it reads what was imported
    assert sorted(name for name in imported if _in_packages(name, NOT_AT_START_UP)) == []
    assert sorted(name for name in imported if name.split(".")[0] in NOR_STDLIB) == []


def test_a_warm_scan_naming_files_imports_no_extractor(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "docker").mkdir(parents=True)
    (project / "docker" / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n"
        "ARG TAG=core_v0.12.1\n"
        "RUN git clone --depth 1 --branch ${TAG} https://github.com/NVIDIA/Megatron-LM.git\n"
    )
    (project / "install.sh").write_text(
        "#!/bin/bash\ngit clone https://github.com/o/r.git && cd r && git checkout v1.2.0\n"
    )
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    scan = ("--offline", "--cache-dir", str(tmp_path / "c"), "docker/Dockerfile", "install.sh")
    cold, imported_cold = _scan_importing(project, *scan)

    warm, imported = _scan_importing(project, *scan)

    assert (cold.returncode, warm.returncode) == (1, 1)  # nothing could be checked offline (README's table)
    assert warm.stdout == cold.stdout
    assert warm.stdout == (
        "docker/Dockerfile:3:41: RL010 [warning] github.com/nvidia/megatron-lm could not be looked up: "
        "unknown (offline): not in the cache, so this pin went unchecked\n\n"
        "install.sh:2:11: RL010 [warning] github.com/o/r could not be looked up: unknown (offline): "
        "not in the cache, so this pin went unchecked\n\n"
        "0 errors, 2 warnings, 0 info in 2 of 2 files "
        "(2 pins, 2 remotes: 0 checked (0 cached), 2 not checked)\n"
    )
    assert "ascend_reflint.extract.dockerfile" in imported_cold  # the test can fail: the cold run parses
    assert sorted(name for name in imported if _in_packages(name, NOT_WHEN_WARM)) == []


def test_a_warm_scan_that_logs_a_warning_still_says_it_as_reflint(tmp_path: Path) -> None:
    # The log handler is installed when something may log, not by a scan that extracts nothing.
    project = tmp_path / "project"
    project.mkdir()
    (project / "install.sh").write_text("git clone https://github.com/o/r.git && cd r && git checkout v1\n")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    scan = ("--offline", "--format", "github", "--cache-dir", str(tmp_path / "c"), "install.sh")
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(tmp_path)}  # a folder: the summary cannot be written
    runs = [_scan_importing(project, *scan, env=env) for _ in ("cold", "warm")]

    for completed, _ in runs:
        said = [line for line in completed.stderr.splitlines() if not line.startswith("import time:")]
        assert said == [
            f"reflint: cannot write the job summary {tmp_path}: Is a directory",
            "reflint: no remote could be checked: 1 pin unchecked",
        ]
    assert "ascend_reflint.extract.shell" not in runs[1][1]  # the test can fail: the second run is warm


def test_main_in_a_process_that_goes_on_leaves_the_garbage_collector_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr("ascend_reflint.cli._main", lambda argv: seen.append(gc.get_threshold()) or 0)
    before, frozen = gc.get_threshold(), gc.get_freeze_count()

    assert main(["scan"]) == 0

    assert seen == [(YOUNG_COLLECTION_THRESHOLD, *before[1:])]  # collected less often while it ran
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, frozen)


def test_the_program_freezes_what_is_left_before_it_exits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["reflint", "scan"])
    monkeypatch.setattr("ascend_reflint.cli._main", lambda argv: 0)
    before = gc.get_threshold()
    gc.unfreeze()
    try:
        assert run() == 0
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()

    assert frozen > 0  # the collections at exit walk none of the objects left
    assert gc.get_threshold() == before


def _scan_importing(
    cwd: Path, *arguments: str, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``reflint scan ARGUMENTS`` in ``cwd`` under ``python -X importtime`` (with the environment
    ``env``, default this process's): the completed process and the names of the modules it imported."""
    env = {key: value for key, value in (env or os.environ).items() if key != "PYTHONDONTWRITEBYTECODE"}
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "ascend_reflint", "scan", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in completed.stderr.splitlines()
        if line.startswith("import time:")
    }
    return completed, imported


def _in_packages(name: str, packages: tuple[str, ...]) -> bool:
    """True when the module ``name`` is one of ``packages`` or inside one."""
    return any(name == package or name.startswith(f"{package}.") for package in packages)
