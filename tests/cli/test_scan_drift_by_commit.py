"""RL005 and RL004 compare what pins build: a commit id and the tag that points at it are one pin, as the
remote's ref list says (a submodule's recorded commit beside ``--branch <its release tag>``), while a
branch is never the commit at its tip (it moves on), and a tag at another commit is drift as before. With
only the drift rules selected, reflint looks up just the remotes that are pinned both by commit and by
name."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
MEGATRON_URL = "https://github.com/NVIDIA/Megatron-LM.git"
GITMODULES = f'[submodule "megatron"]\n\tpath = third_party/megatron\n\turl = {MEGATRON_URL}\n'


@pytest.fixture
def megatron(remotes: FakeRemotes) -> dict[str, str]:
    """Megatron-LM's tags and branches → the local commit ids that the fake remote gives them."""
    remote = remotes["github.com/NVIDIA/Megatron-LM"]
    return {**remote.branches, **remote.tags}


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "--quiet", str(root)], check=True)
    monkeypatch.chdir(root)
    return root


def _submodule_at(root: Path, commit: str) -> None:
    (root / ".gitmodules").write_text(GITMODULES, encoding="utf-8")
    subprocess.run(
        [
            "git",
            "-C",
            str(root),
            "update-index",
            "--add",
            "--cacheinfo",
            f"160000,{commit},third_party/megatron",
        ],
        check=True,
    )


def _dockerfile(root: Path, ref: str) -> None:
    (root / "Dockerfile").write_text(
        f"FROM ubuntu:22.04\nRUN git clone --depth 1 --branch {ref} {MEGATRON_URL}\n", encoding="utf-8"
    )


def _drift_both_ways(commit: str, ref: str, summary: str) -> list[str]:
    """What ``scan --select RL005`` prints when the submodule's ``commit`` and the Dockerfile's ``ref``
    differ: one finding on each side, the other side related."""
    remote = "github.com/nvidia/megatron-lm"
    family = "the files of folder '.' should pin one ref (or list the remote under drift-allowed-remotes)"
    return [
        f'.gitmodules:3:8: RL005 [warning] {remote} is pinned at "{commit}" here, but at "{ref}" in '
        f"Dockerfile; {family}",
        f'Dockerfile:2:34: note: {remote} is pinned at "{ref}" here',
        "",
        f'Dockerfile:2:34: RL005 [warning] {remote} is pinned at "{ref}" here, but at "{commit}" in '
        f".gitmodules; {family}",
        f'.gitmodules:3:8: note: {remote} is pinned at "{commit}" here',
        "",
        summary,
    ]


CHECKED = (
    "0 errors, 0 warnings, 0 info in 0 of 2 files (2 pins, 1 remote: 1 checked (0 cached), 0 not checked)"
)
#: With only the drift rules, the summary says why a remote was looked up at all.
DRIFT_ONLY = CHECKED[:-1] + "; looked up only to tell tags, branches and commit ids apart (RL004, RL005))"
TWO_WARNINGS = DRIFT_ONLY.replace("0 warnings", "2 warnings").replace("in 0 of", "in 2 of")


@pytest.mark.parametrize(("select", "summary"), [("RL005", DRIFT_ONLY), ("RL001,RL005", CHECKED)])
def test_a_submodule_commit_and_its_release_tag_elsewhere_do_not_drift(
    project: Path, megatron: dict[str, str], scan: Scan, select: str, summary: str
) -> None:
    _submodule_at(project, megatron["core_v0.12.1"])
    _dockerfile(project, "core_v0.12.1")
    assert scan("--select", select) == (0, [summary], [])


def test_only_the_drift_rules_offline_compare_as_written_and_say_why_the_remote_counts(
    project: Path, megatron: dict[str, str], scan: Scan
) -> None:
    commit = megatron["core_v0.12.1"]
    _submodule_at(project, commit)
    _dockerfile(project, "core_v0.12.1")
    summary = TWO_WARNINGS.replace(
        "1 checked (0 cached), 0 not checked", "0 checked (0 cached), 1 not checked"
    )
    # Nothing to vouch for: exit 0, and no "no remote could be checked" line.
    assert scan("--select", "RL005", "--offline") == (
        0,
        _drift_both_ways(commit, "core_v0.12.1", summary),
        [],
    )


def test_a_tag_at_another_commit_drifts(project: Path, megatron: dict[str, str], scan: Scan) -> None:
    commit = megatron["core_v0.12.1"]
    _submodule_at(project, commit)
    _dockerfile(project, "core_v0.14.0")
    assert scan("--select", "RL005") == (0, _drift_both_ways(commit, "core_v0.14.0", TWO_WARNINGS), [])


def test_a_branch_is_not_the_commit_at_its_tip_and_loses_to_it(
    project: Path, megatron: dict[str, str], scan: Scan
) -> None:
    commit = megatron["core_r0.12.0"]
    _submodule_at(project, commit)
    _dockerfile(project, "core_r0.12.0")
    # One pin each, but a commit never loses to a branch that RL002 reports (the branch has no release tag
    # to vote for: there is no core_v0.12.0), so only the Dockerfile is out of step.
    remote = "github.com/nvidia/megatron-lm"
    assert scan("--select", "RL005") == (
        0,
        [
            f'Dockerfile:2:34: RL005 [warning] {remote} is pinned at "core_r0.12.0" here, but 1 other pin '
            f'of folder \'.\' is at "{commit}": .gitmodules; pin "{commit}" as they do (or list the remote '
            "under drift-allowed-remotes)",
            f'.gitmodules:3:8: note: {remote} is pinned at "{commit}" here',
            "",
            TWO_WARNINGS.replace("2 warnings", "1 warning").replace("in 2 of", "in 1 of"),
        ],
        [],
    )


def test_variants_that_pin_a_tag_and_its_commit_do_not_drift(
    project: Path, megatron: dict[str, str], scan: Scan
) -> None:
    commit = megatron["core_v0.12.1"]
    for variant, ref in (("a2", "core_v0.12.1"), ("a3", commit), ("310p", commit[:10])):
        (project / f"Dockerfile.{variant}").write_text(
            f"FROM ubuntu:22.04\nRUN pip install git+{MEGATRON_URL}@{ref}\n", encoding="utf-8"
        )
    summary = DRIFT_ONLY.replace("2 pins", "3 pins").replace("0 of 2 files", "0 of 3 files")
    assert scan("--select", "RL004") == (0, [summary], [])
