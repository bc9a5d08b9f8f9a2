"""A reader that goes away, or a standard stream closed from the start, changes nothing but the output lost.

``reflint scan | head -1`` closes the pipe while reflint writes, or before: either way the exit code is the
one the README's table gives for what was found, standard error says what it always says, and nothing
else (no traceback, no "Exception ignored"). ``reflint scan >&-`` and ``2>&-`` are the same: the output
goes nowhere, and no file that reflint opens takes the closed descriptor's number.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

CLONES = 3
UNCHECKED = f"reflint: no remote could be checked: {CLONES} pins unchecked\n"
#: About 100 KB of ``refs`` output: more than a pipe holds, so that writes fail once head has gone.
MANY_CLONES = 1500


def _project(root: Path, clones: int) -> Path:
    root.mkdir()
    lines = "".join(f"git clone --branch v{n} https://github.com/o/r{n}.git\n" for n in range(clones))
    (root / "install.sh").write_text("#!/bin/bash\n" + lines, encoding="utf-8")
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return _project(tmp_path / "project", CLONES)


def _reflint(*args: str) -> list[str]:
    return [sys.executable, "-m", "ascend_reflint", *args]


def _gone_reader(command: list[str], cwd: Path) -> tuple[int, str]:
    """Run ``command`` with its standard output a pipe whose read end is closed before it writes a byte:
    (exit code, standard error)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    return process.wait(timeout=120), err


def _closed(descriptors: tuple[int, ...]) -> Callable[[], None]:
    def close() -> None:
        for descriptor in descriptors:
            os.close(descriptor)

    return close


@pytest.mark.parametrize(
    ("args", "code", "err"),
    [
        (("refs",), 0, ""),
        (("scan", "--offline"), 1, UNCHECKED),  # offline: nothing could be checked
        (("scan", "--offline", "--exit-zero"), 0, UNCHECKED),
    ],
    ids=["refs", "scan", "scan-exit-zero"],
)
def test_a_reader_gone_before_the_first_byte_leaves_the_exit_code_and_stderr_as_they_are(
    project: Path, args: tuple[str, ...], code: int, err: str
) -> None:
    command = _reflint(*args, "--cache-dir", "../cache")
    whole = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)
    assert (whole.returncode, whole.stderr) == (code, err)
    assert _gone_reader(command, project) == (code, err)


def test_head_taking_one_line_leaves_the_exit_code_and_stderr_as_they_are(tmp_path: Path) -> None:
    project = _project(tmp_path / "project", MANY_CLONES)
    # bash reports reflint's exit code after the pipe's; head takes the first line and goes.
    pipeline = f'{" ".join(_reflint("refs"))} | head -1; echo "exit ${{PIPESTATUS[0]}}"'
    completed = subprocess.run(["bash", "-c", pipeline], cwd=project, capture_output=True, text=True)
    assert (completed.returncode, completed.stdout, completed.stderr) == (
        0,
        "install.sh:2:20: github.com/o/r0 v0 (clone-branch)\nexit 0\n",
        "",
    )


@pytest.mark.parametrize(
    ("closed", "err"),
    [((1,), UNCHECKED), ((2,), ""), ((1, 2), "")],
    ids=["stdout", "stderr", "both"],
)
def test_a_standard_stream_closed_from_the_start_is_dev_null(
    project: Path, tmp_path: Path, closed: tuple[int, ...], err: str
) -> None:
    command = _reflint("scan", "--offline", "--cache-dir", "../cache", "--format", "sarif", "--output")
    completed = subprocess.run(
        [*command, str(tmp_path / "r.sarif")],
        cwd=project,
        stdout=subprocess.PIPE if 1 not in closed else None,
        stderr=subprocess.PIPE if 2 not in closed else None,
        text=True,
        preexec_fn=_closed(closed),
        check=False,
    )
    assert (completed.returncode, completed.stderr or "") == (1, err)
    assert (tmp_path / "r.sarif").read_text(encoding="utf-8").count('"ruleId"') == CLONES


def test_version_to_a_reader_gone_or_a_closed_stdout_exits_0_without_a_word(tmp_path: Path) -> None:
    command = _reflint("--version")
    assert _gone_reader(command, tmp_path) == (0, "")
    closed = subprocess.run(
        command, cwd=tmp_path, stderr=subprocess.PIPE, text=True, preexec_fn=_closed((1,)), check=False
    )
    assert (closed.returncode, closed.stderr) == (0, "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_version_to_a_full_device_says_why_in_one_line_and_exits_2(tmp_path: Path) -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        completed = subprocess.run(
            _reflint("--version"), cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, text=True, check=False
        )
    assert (completed.returncode, completed.stderr) == (
        2,
        "reflint: error: cannot write to standard output: No space left on device\n",
    )
