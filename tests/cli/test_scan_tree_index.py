"""A scan naming a few files (pre-commit) reads, of the rest of the work tree, only the files that the
cross-file rules compare them with, found through the tree index; it reports what a scan reading every
file reports, whatever was edited, added or removed since the index was written.

The files are dated a minute back (os.utime): the index never trusts a file modified less than two seconds
before it was stat'ed ("racy" files, as git's index), so files written by the test a moment ago would be
read every time and the index would never be used.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
CLONE = "RUN git clone --depth 1 --branch {} https://github.com/vllm-project/vllm.git\n"
OLD_A2, OLD_A3 = "docker/ascend/Dockerfile.ascend_8.2_a2", "docker/ascend/Dockerfile.ascend_8.2_a3"
NEW_A2, NEW_A3 = "docker/ascend/Dockerfile.ascend_8.3_a2", "docker/ascend/Dockerfile.ascend_8.3_a3"
INSTALL = "scripts/install_npu.sh"
TOOLS = "tools/setup.sh"
VLLM = "github.com/vllm-project/vllm"
#: Offline, the rules that compare files (the others would report every pin as not looked up).
CROSS = ("--offline", "--select", "RL004,RL005,RL006")
#: A minute back: older than the index's two seconds of doubt.
AGED = time.time() - 60


def _write(root: Path, path: str, text: str, when: float = AGED) -> None:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    os.utime(target, (when, when))


def _install(ref: str) -> str:
    return f"#!/bin/bash\ngit clone --depth 1 --branch {ref} https://github.com/vllm-project/vllm.git\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """verl's shape: two older Ascend images at vllm v0.9.1, two newer ones and the NPU install script at
    v0.11.0 (one drift family, 'ascend'), and a script of another folder at yet another ref."""
    root = tmp_path / "project"
    for path, ref in ((OLD_A2, "v0.9.1"), (OLD_A3, "v0.9.1"), (NEW_A2, "v0.11.0"), (NEW_A3, "v0.11.0")):
        _write(root, path, "FROM ubuntu:22.04\n" + CLONE.format(ref))
    _write(root, INSTALL, _install("v0.11.0"))
    _write(root, TOOLS, _install("v0.8.5"))
    _write(
        root,
        "tools/Dockerfile",
        "FROM ubuntu:22.04\nRUN pip install git+https://github.com/NVIDIA/apex.git@24.04.01\n",
    )
    monkeypatch.chdir(root)
    return root


def _context_line(stderr: list[str]) -> str:
    return next(line for line in stderr if "context:" in line)


def _findings(scan: Scan, *args: str) -> tuple[int, list[str]]:
    """Exit code and stdout of a scan, and check that it equals the scan that reads every file."""
    code, out, _ = scan(*CROSS, *args)
    assert scan(*CROSS, "--no-cache", *args)[:2] == (code, out)
    return code, out


MINORITY = [
    f'{OLD_A3}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and in {OLD_A2}, but 3 other pins '
    f'of drift family \'ascend\' are at "v0.11.0": {NEW_A2}, {NEW_A3}, {INSTALL}; pin "v0.11.0" as they do '
    "(or list the remote under drift-allowed-remotes)",
    f'{OLD_A2}:2:34: note: {VLLM} is pinned at "v0.9.1" here too',
    f'{NEW_A2}:2:34: note: {VLLM} is pinned at "v0.11.0" here',
    f'{NEW_A3}:2:34: note: {VLLM} is pinned at "v0.11.0" here',
    f'{INSTALL}:2:30: note: {VLLM} is pinned at "v0.11.0" here',
    "",
    "0 errors, 1 warning, 0 info in 1 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not checked)",
]
NOTHING = (
    "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not checked)"
)


def test_the_index_reads_only_the_files_compared_and_reports_the_same(project: Path, scan: Scan) -> None:
    # The first scan has no index: it reads the 6 other files and writes one.
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 6 of 6 other files read (the tree index summarised 0)"
    # The next reads its variant and the family's files that pin vllm: not tools/, not the apex image.
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 4 of 6 other files read (the tree index summarised 6)"


def test_an_edit_to_a_file_not_named_is_seen(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    # The install script moves to the older ref, which is now the majority (3 against 2): it is read again
    # because its stat changed.
    _write(project, INSTALL, _install("v0.9.1"), AGED + 1)
    assert _findings(scan, OLD_A3) == (0, [NOTHING])


def test_an_edit_that_keeps_the_size_and_the_modification_time_is_seen(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    _write(project, INSTALL, _install("v0.10.0"))  # the size of v0.11.0's, the same (aged) modification time
    assert (project / INSTALL).stat().st_size == len(_install("v0.11.0"))
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    # Only its change time (which os.utime sets to now) tells: it is read again (5: the 4 and itself).
    assert _context_line(err) == "reflint: context: 4 of 6 other files read (the tree index summarised 5)"
    # 3 refs, 2 pins each at most: no majority, and the install script is named for the ref it now has.
    assert out[0] == (
        f'{OLD_A3}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and in {OLD_A2}, but at "v0.10.0" '
        f"in {INSTALL}; the files of drift family 'ascend' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )
    assert (code, out) == _findings(scan, OLD_A3)


def test_a_file_that_starts_pinning_the_remote_is_read(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    _write(project, "docker/ascend/build_npu.sh", _install("v0.11.0"))
    _write(project, INSTALL, "#!/bin/bash\necho nothing pinned here any more\n", AGED + 2)
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert _context_line(err) == "reflint: context: 5 of 7 other files read (the tree index summarised 5)"
    assert "docker/ascend/build_npu.sh" in out[0]
    assert INSTALL not in out[0]
    assert (code, out) == _findings(scan, OLD_A3)


def test_a_file_modified_just_now_is_read_every_time(project: Path, scan: Scan) -> None:
    (project / "tools/Dockerfile").write_text("FROM ubuntu:22.04\n")  # now: racy
    scan(*CROSS, OLD_A3)
    _, _, err = scan(*CROSS, "--debug", OLD_A3)
    assert _context_line(err) == "reflint: context: 5 of 6 other files read (the tree index summarised 5)"


def test_a_deleted_file_leaves_the_index(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    (project / NEW_A3).unlink()
    _, _, err = scan(*CROSS, "--debug", OLD_A3)
    assert _context_line(err) == "reflint: context: 3 of 5 other files read (the tree index summarised 5)"
    # The files read for context; the named file never was.
    assert list(_index(project)["files"]) == [OLD_A2, NEW_A2, INSTALL, "tools/Dockerfile", TOOLS]


def _index(project: Path) -> dict[str, object]:
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    document = json.loads(path.read_text())
    assert isinstance(document, dict)
    return document


@pytest.mark.parametrize(
    "damage",
    [
        b"{not json",
        b'{"format": 1, "settings": "x", "files": {}}',
        b"[" * 100_000,
        b" " * (32 * 1024 * 1024 + 1),
    ],
    ids=["not JSON", "other settings", "nested too deep", "over 32 MiB"],
)
def test_a_damaged_index_counts_as_empty(project: Path, scan: Scan, damage: bytes) -> None:
    scan(*CROSS, OLD_A3)
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    path.write_bytes(damage)
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 6 of 6 other files read (the tree index summarised 0)"


def test_a_forged_summary_entry_is_ignored(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    document = json.loads(path.read_text())
    document["files"][INSTALL] = ["size", 0, 0, 0, None, False]
    path.write_text(json.dumps(document))
    _, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert out == MINORITY
    assert _context_line(err) == "reflint: context: 4 of 6 other files read (the tree index summarised 5)"


def test_a_workflow_that_builds_a_named_dockerfile_is_read_for_its_values(project: Path, scan: Scan) -> None:
    _write(
        project,
        "docker/ascend/Dockerfile.ascend_9_a2",
        "FROM ubuntu:22.04\nARG VLLM_REF\n" + CLONE.format("${VLLM_REF}"),
    )
    _write(
        project,
        ".github/workflows/build.yml",
        "on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: docker/build-push-action@v6\n        with:\n"
        "          file: docker/ascend/Dockerfile.ascend_9_a2\n          build-args: VLLM_REF=v0.9.1\n",
    )
    scan(*CROSS, "docker/ascend/Dockerfile.ascend_9_a2")
    code, out, err = scan(*CROSS, "--debug", "docker/ascend/Dockerfile.ascend_9_a2")
    assert _context_line(err) == "reflint: context: 6 of 8 other files read (the tree index summarised 8)"
    # The workflow gives the ref: without it the pin would be unresolved, and compared with nothing.
    assert out[0] == (
        f'docker/ascend/Dockerfile.ascend_9_a2:3:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and '
        f'in {OLD_A2}, {OLD_A3}, but at "v0.11.0" in {NEW_A2}, {NEW_A3}, {INSTALL}; the files of drift '
        "family 'ascend' should pin one ref (or list the remote under drift-allowed-remotes)"
    )
    assert (code, out) == _findings(scan, "docker/ascend/Dockerfile.ascend_9_a2")


def test_gitmodules_is_always_read_since_its_remotes_follow_the_origin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scan: Scan
) -> None:
    root = tmp_path / "project"
    _write(root, ".gitmodules", '[submodule "vllm"]\n\tpath = third_party/vllm\n\turl = ../vllm.git\n')
    _write(root, "Dockerfile", "FROM ubuntu:22.04\n" + CLONE.format("v0.9.1"))
    for command in (
        ["init", "-q"],
        ["remote", "add", "origin", "https://github.com/someone-else/verl.git"],
        ["update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},third_party/vllm"],
    ):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    monkeypatch.chdir(root)
    # The submodule is github.com/someone-else/vllm: nothing to compare the Dockerfile's pin with.
    assert _findings(scan, "Dockerfile") == (0, [NOTHING])
    # The origin moves: the same .gitmodules (same stat) now pins the Dockerfile's remote, at a commit.
    subprocess.run(
        ["git", "remote", "set-url", "origin", "https://github.com/vllm-project/verl.git"], check=True
    )
    code, out = _findings(scan, "Dockerfile")
    assert code == 0
    assert out[0] == (
        f'Dockerfile:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here, but at "{"1" * 40}" in '
        ".gitmodules; the files of folder '.' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )
