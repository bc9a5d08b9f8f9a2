"""A folder that holds several repositories is several projects: each repository's files are compared with
each other only (RL004, RL005, RL006), a workflow's ``docker build -f docker/Dockerfile`` is found in its
own repository, and a repository's own config gives it its own rule knowledge, as a scan of it alone
would. Two repositories, ``one`` and ``two``, pin vllm at other refs than each other, as verl and
vllm-ascend do side by side in one folder."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
VLLM_URL = "https://github.com/vllm-project/vllm.git"
VLLM = "github.com/vllm-project/vllm"
IMAGE, SCRIPT = "docker/ascend/Dockerfile.ascend", "scripts/install_npu.sh"
ALLOWED = "drift-allowed-remotes)"
OFFLINE = ("--offline", "--select", "RL005,RL009")
NOTHING_CHECKED = "0 remotes: 0 checked (0 cached), 0 not checked)"
#: A workflow of ``two`` that builds its docker/Dockerfile (the path is relative to the repository).
WORKFLOW = """\
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: docker build -f docker/Dockerfile --build-arg REF=v0.10.0 .
"""


def _write(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text, encoding="utf-8")


def _clone(ref: str) -> str:
    return f"git clone --depth 1 --branch {ref} {VLLM_URL}\n"


@pytest.fixture
def repos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``one`` (image at v0.9.1, script at v0.8.5, a config that lets vllm drift) and ``two`` (image and
    script at v0.11.0, and a Dockerfile whose ref a workflow gives), in a folder that is no repository."""
    root = tmp_path / "repos"
    for name in ("one", "two"):
        (root / name).mkdir(parents=True)
        subprocess.run(["git", "init", "--quiet", str(root / name)], check=True)
    _write(root, f"one/{IMAGE}", "FROM ubuntu:22.04\nRUN " + _clone("v0.9.1"))
    _write(root, f"one/{SCRIPT}", "#!/bin/sh\n" + _clone("v0.8.5"))
    _write(root, "one/.reflint.yaml", f"drift-allowed-remotes: [{VLLM}]\n")
    _write(root, f"two/{IMAGE}", "FROM ubuntu:22.04\nRUN " + _clone("v0.11.0"))
    _write(root, f"two/{SCRIPT}", "#!/bin/sh\n" + _clone("v0.11.0"))
    _write(root, "two/.github/workflows/build.yml", WORKFLOW)
    _write(
        root, "two/docker/Dockerfile", "FROM ubuntu:22.04\nARG REF\nRUN git clone --branch ${REF} " + VLLM_URL
    )
    monkeypatch.chdir(root)
    return root


def test_repositories_side_by_side_are_not_compared_and_each_keeps_its_config(
    repos: Path, scan: Scan
) -> None:
    # Before: one's two pins were each told to pin two's "v0.11.0" (2 RL005), and two's Dockerfile, looked
    # for in repos/docker/, had no REF (RL009).
    assert scan(*OFFLINE) == (
        0,
        [f"0 errors, 0 warnings, 0 info in 0 of 6 files (5 pins, {NOTHING_CHECKED}"],
        [],
    )


def test_without_its_config_a_repository_s_own_drift_is_reported_within_it(repos: Path, scan: Scan) -> None:
    (repos / "one/.reflint.yaml").unlink()
    family = "the files of drift family 'ascend' should pin one ref (or list the remote under " + ALLOWED
    assert scan(*OFFLINE)[:2] == (
        0,
        [
            f'one/{IMAGE}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here, but at "v0.8.5" in '
            f"one/{SCRIPT}; {family}",
            f'one/{SCRIPT}:2:30: note: {VLLM} is pinned at "v0.8.5" here',
            "",
            f'one/{SCRIPT}:2:30: RL005 [warning] {VLLM} is pinned at "v0.8.5" here, but at "v0.9.1" in '
            f"one/{IMAGE}; {family}",
            f'one/{IMAGE}:2:34: note: {VLLM} is pinned at "v0.9.1" here',
            "",
            "0 errors, 2 warnings, 0 info in 2 of 6 files (5 pins, 1 remote: 0 checked (0 cached), 1 not "
            "checked; looked up only to tell tags, branches and commit ids apart (RL004, RL005))",
        ],
    )


def test_a_nested_repository_s_config_that_is_not_valid_is_a_usage_error(repos: Path, scan: Scan) -> None:
    _write(repos, "one/.reflint.yaml", "rule-packs: [../pack.yaml]\n")
    assert scan(*OFFLINE) == (
        2,
        [],
        [
            "reflint: error: one/.reflint.yaml:1:14: rule-packs[0]: '../pack.yaml' is outside the project "
            f"root {repos / 'one'} (symbolic links followed); a repository's config may name only packs "
            "inside it (give others with --rule-pack FILE)"
        ],
    )


def test_config_names_the_one_config_of_the_scan(repos: Path, scan: Scan) -> None:
    # --config is the user's choice for the whole scan: one's own config does not apply, its drift shows.
    _write(repos, "ci.yaml", "select: [RL005]\n")
    code, out, _ = scan("--offline", "--config", "ci.yaml")
    assert (code, [line for line in out if ": RL005 [" in line]) == (
        0,
        [
            f'one/{IMAGE}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here, but at "v0.8.5" in '
            f"one/{SCRIPT}; the files of drift family 'ascend' should pin one ref (or list the remote under "
            "drift-allowed-remotes)",
            f'one/{SCRIPT}:2:30: RL005 [warning] {VLLM} is pinned at "v0.8.5" here, but at "v0.9.1" in '
            f"one/{IMAGE}; the files of drift family 'ascend' should pin one ref (or list the remote under "
            "drift-allowed-remotes)",
        ],
    )
