"""A ref that a Makefile variable (``MCORE := …``) or a CMake ``set()`` gives is reported where it is set,
with the use as a related place, and ``--fix`` edits it there, as for a Dockerfile ``ARG``: through a
variable that copies another (``TAG = $(MCORE)``), a comment after the value, a quoted ``set()``. A value
put together from pieces (``$(BASE).post1``) stays at the use, with no fix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
URL = "https://github.com/NVIDIA/Megatron-LM.git"
MAKEFILE = (
    "MCORE := core_r0.18.0  # the release\n"
    "TAG = $(MCORE)\n"
    "BASE = core_r0.18\n"
    "\n"
    "megatron:\n"
    f"\tgit clone --branch $(TAG) {URL} /opt/megatron\n"
    f"\tgit clone --branch $(BASE).0 {URL} /opt/pieces\n"
)
CMAKE = (
    "include(FetchContent)\n"
    'set(MCORE_TAG "core_r0.18.0")\n'
    f"FetchContent_Declare(mcore GIT_REPOSITORY {URL} GIT_TAG ${{MCORE_TAG}})\n"
)
BRANCH = (
    'RL002 [error] ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a '
    'commit lands on it: pin its release tag "core_v0.18.0"'
)


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    root.mkdir()
    (root / "Makefile").write_text(MAKEFILE)
    (root / "CMakeLists.txt").write_text(CMAKE)
    monkeypatch.chdir(root)
    return root


def test_the_finding_is_where_the_variable_is_set(project: Path, scan: Scan) -> None:
    code, out, _ = scan("--select", "RL002")
    assert code == 1
    assert out == [
        f"CMakeLists.txt:2:16: {BRANCH}",
        "CMakeLists.txt:3:93: note: the value is used here",
        "",
        f"Makefile:1:10: {BRANCH}",
        "Makefile:6:21: note: the value is used here",
        f"Makefile:7:21: {BRANCH}",
        "",
        "3 errors, 0 warnings, 0 info in 2 of 2 files (3 pins, 1 remote: 1 checked (0 cached), 0 not "
        "checked)",
        "2 fixable with --fix --unsafe-fixes",
    ]


def test_the_fix_edits_the_definition(project: Path, scan: Scan) -> None:
    code, _, _ = scan("--select", "RL002", "--fix", "--unsafe-fixes")
    assert code == 1  # the ref made of pieces has no fix
    assert (project / "Makefile").read_text() == MAKEFILE.replace(
        "MCORE := core_r0.18.0", "MCORE := core_v0.18.0"
    )
    assert (project / "CMakeLists.txt").read_text() == CMAKE.replace('"core_r0.18.0"', '"core_v0.18.0"')


def test_a_value_that_two_assignments_hold_stays_at_the_use(project: Path, scan: Scan) -> None:
    (project / "Makefile").write_text(
        "MCORE := core_r0.18.0\nifdef NEW\nMCORE := core_r0.18.0\nendif\n\n"
        f"megatron:\n\tgit clone --branch $(MCORE) {URL} /opt/megatron\n"
    )
    code, out, _ = scan("--select", "RL002", "Makefile")
    assert (code, out) == (
        1,
        [
            f"Makefile:7:21: {BRANCH}",
            "",
            "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
        ],
    )
