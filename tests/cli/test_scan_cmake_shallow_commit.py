"""RL003 on CMake: ``GIT_SHALLOW`` true with a commit id as ``GIT_TAG``. CMake clones with ``--depth 1
--no-single-branch`` (the newest commit of each branch and tag) and then checks ``GIT_TAG`` out, so a
commit works only at a tag (which is never reported) or at a branch's tip (until the branch moves on);
CMake's documentation says a commit hash is not allowed with ``GIT_SHALLOW``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemote, build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
MAIN = "1111111111111111111111111111111111111111"
RELEASE = "2222222222222222222222222222222222222222"
NO_TIP = "0123456789abcdef0123456789abcdef01234567"
URL = "https://github.com/NVIDIA/cutlass.git"
DOC = (
    "(CMake's documentation: with GIT_SHALLOW, GIT_TAG works only with branch names and tags); drop "
    "GIT_SHALLOW"
)


@pytest.fixture
def cutlass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeRemote:
    remotes = tmp_path / "remotes"
    remote = build_repo(
        remotes / "github.com/NVIDIA/cutlass.git",
        [(MAIN, "HEAD"), (MAIN, "refs/heads/main"), (RELEASE, "refs/tags/v3.9.2")],
    )
    set_env(monkeypatch, insteadof_env(remotes))
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return remote


def _cmake(*declarations: str) -> None:
    Path("CMakeLists.txt").write_text(
        "include(FetchContent)\n" + "\n".join(declarations) + "\n", encoding="utf-8"
    )


def _finding(line: int, column: int, via: str, commit: str, fails: str) -> list[str]:
    """The finding at ``GIT_TAG``'s commit, and its note at the ``GIT_SHALLOW`` after it, which the fix
    deletes."""
    return [
        f"CMakeLists.txt:{line}:{column}: RL003 [*] [error] GIT_SHALLOW makes {via} clone "
        "github.com/nvidia/cutlass with `--depth 1`, which holds the newest commit of each branch and tag "
        "only, so the checkout of "
        f'commit "{commit}" {fails} {DOC}',
        f"CMakeLists.txt:{line}:{column + len(commit) + 1}: note: GIT_SHALLOW, which the fix deletes",
    ]


def test_without_a_lookup_a_shallow_commit_is_reported_and_a_tag_is_not(
    cutlass: FakeRemote, scan: Scan
) -> None:
    commit = cutlass.commit_of[RELEASE]
    _cmake(
        f"FetchContent_Declare(a GIT_REPOSITORY {URL} GIT_TAG {commit} GIT_SHALLOW ON)",
        f"ExternalProject_Add(b GIT_REPOSITORY {URL} GIT_TAG v3.9.2 GIT_SHALLOW TRUE)",
        f"FetchContent_Declare(c GIT_REPOSITORY {URL} GIT_TAG {commit})",
        f"CPMAddPackage(NAME d GITHUB_REPOSITORY NVIDIA/cutlass GIT_TAG {commit[:12]} GIT_SHALLOW 1)",
    )
    unless = "fails unless it is the tip of a branch or tag"
    assert scan("--select", "RL003") == (
        1,
        [
            *_finding(2, 85, "FetchContent", commit, unless),
            *_finding(5, 63, "CPM.cmake", commit[:12], unless),
            "",
            "2 errors, 0 warnings, 0 info in 1 of 1 file (4 pins, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
            "[*] 2 fixable with --fix",
        ],
        [],
    )


def test_the_ref_list_tells_a_tag_a_branch_tip_and_no_tip(cutlass: FakeRemote, scan: Scan) -> None:
    at_tag, at_main = cutlass.commit_of[RELEASE], cutlass.commit_of[MAIN]
    _cmake(
        f"FetchContent_Declare(a GIT_REPOSITORY {URL} GIT_TAG {at_tag} GIT_SHALLOW ON)",
        f"FetchContent_Declare(b GIT_REPOSITORY {URL} GIT_TAG {at_main} GIT_SHALLOW ON)",
        f"FetchContent_Declare(c GIT_REPOSITORY {URL} GIT_TAG {NO_TIP} GIT_SHALLOW ON)",
    )
    branch = 'works only while it is the tip of branch "main", and fails once that branch moves on'
    assert scan("--select", "RL003,RL010") == (
        1,
        [
            *_finding(3, 85, "FetchContent", at_main, branch),
            *_finding(4, 85, "FetchContent", NO_TIP, "fails: it is the tip of no branch or tag"),
            "",
            "2 errors, 0 warnings, 0 info in 1 of 1 file (3 pins, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
            "[*] 2 fixable with --fix",
        ],
        [],
    )


def test_the_fix_drops_git_shallow(cutlass: FakeRemote, scan: Scan) -> None:
    commit = cutlass.commit_of[MAIN]
    _cmake(f"FetchContent_Declare(a\n  GIT_REPOSITORY {URL}\n  GIT_TAG {commit}\n  GIT_SHALLOW ON\n)")
    code, _, _ = scan("--select", "RL003", "--fix")
    fixed = f"include(FetchContent)\nFetchContent_Declare(a\n  GIT_REPOSITORY {URL}\n  GIT_TAG {commit}\n)\n"
    assert (code, Path("CMakeLists.txt").read_bytes()) == (0, fixed.encode())
