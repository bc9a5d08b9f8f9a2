"""RL001's "closest" ref for a missing versioned name: a tag of the same version counts when its numbers are
marked alike (``1.0`` for ``v1.0``: a ``v`` marks a version, none is needed) and a zero-padded number is a
version's (``2026.01.05`` for ``v2026.1.5``: a calendar month and day); a build counter of another
numbering never does (``t00000002`` for ``v2``: another marker, and ``00000002`` is a fixed-width counter,
not 2, so ``t2`` gets no suggestion either). The "most similar" names then list the alike-marked first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
MAIN, BUILD1, BUILD2, RELEASE = (digit * 40 for digit in "1234")
REFS = [
    (MAIN, "HEAD"),
    (MAIN, "refs/heads/main"),
    (BUILD1, "refs/tags/t00000001"),
    (BUILD2, "refs/tags/t00000002"),
    (RELEASE, "refs/tags/1.0"),
    (RELEASE, "refs/tags/2026.01.05"),
]
MISSING = "is neither a branch nor a tag of github.com/o/builds, so `git clone --branch` fails;"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    build_repo(tmp_path / "remotes/github.com/o/builds.git", REFS)
    set_env(monkeypatch, insteadof_env(tmp_path / "remotes"))
    root = tmp_path / "project"
    root.mkdir()
    clones = "".join(
        f"RUN git clone --branch {ref} https://github.com/o/builds.git\n"
        for ref in ("v1.0", "v2", "v2026.1.5", "t2")
    )
    (root / "Dockerfile").write_text("FROM ubuntu:22.04\n" + clones, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _missing(line: int, ref: str, then: str) -> str:
    return f'Dockerfile:{line}:24: RL001 [error] ref "{ref}" {MISSING} {then}'


def test_a_suggestion_is_a_tag_of_the_same_version_marked_alike(project: Path, scan: Scan) -> None:
    closest = "the closest of its 1 branch and 4 tags is tag"
    similar = "no ref names that version; the most similar of its 1 branch and 4 tags are"
    assert scan("--select", "RL001") == (
        1,
        [
            _missing(2, "v1.0", f'{closest} "1.0"'),
            _missing(3, "v2", f'{similar} "1.0", "2026.01.05", "t00000002"'),
            _missing(4, "v2026.1.5", f'{closest} "2026.01.05"'),
            _missing(5, "t2", f'{similar} "t00000002", "t00000001", "1.0"'),
            "",
            "4 errors, 0 warnings, 0 info in 1 of 1 file (4 pins, 1 remote: 1 checked (0 cached), 0 not "
            "checked)",
            "2 fixable with --fix --unsafe-fixes",
        ],
        [],
    )
