"""The start-up of every scan: a scan of a repository with no file to read loads what reading, checking and
looking up would need only once there is something to read (the fixed cost that pre-commit pays on every
commit; benchmarks/README.md has the figures), and still exits as README.md's exit table says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: What a scan that finds no file must not import: the stages after discovery, the cache's codec and hashes,
#: pathlib (with urllib.parse and ipaddress behind it), and shutil (with bz2 and lzma behind it), which
#: argparse's help formatter imports for the terminal's width.
NOT_AT_START_UP = (
    "ascend_reflint.check",
    "ascend_reflint.lookup",
    "ascend_reflint.extract",
    "ascend_reflint.codec",
)
NOR_STDLIB = ("pathlib", "urllib", "ipaddress", "hashlib", "json", "shutil", "bz2", "lzma")


def test_a_scan_of_an_empty_repository_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    completed = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "ascend_reflint",
            "scan",
            "--cache-dir",
            str(tmp_path / "c"),
        ],
        cwd=tmp_path,
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

    assert completed.returncode == 0
    assert completed.stdout == (
        "0 errors, 0 warnings, 0 info in 0 of 0 files "
        "(0 pins, 0 remotes: 0 checked (0 cached), 0 not checked)\n"
    )
    assert "ascend_reflint.scan" in imported  # the test can fail: it reads what was imported
    assert sorted(name for name in imported if _in_packages(name)) == []
    assert sorted(name for name in imported if name.split(".")[0] in NOR_STDLIB) == []


def _in_packages(name: str) -> bool:
    """True when the module ``name`` is one of :data:`NOT_AT_START_UP` or inside one."""
    return any(name == package or name.startswith(f"{package}.") for package in NOT_AT_START_UP)
