"""Fixtures for the command-line tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gitfixtures import FakeRemotes, build_remotes

from ascend_reflint.cli import main

#: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]


@pytest.fixture
def scan(capsys: pytest.CaptureFixture[str]) -> Scan:
    """``reflint scan ARGS`` in the current directory with a cache of the test's own (``../cache``, beside
    the project), as a function returning (exit code, stdout lines, stderr lines)."""

    def run(*args: str) -> tuple[int, list[str], list[str]]:
        code = main(["scan", "--cache-dir", "../cache", *args])
        captured = capsys.readouterr()
        return code, captured.out.splitlines(), captured.err.splitlines()

    return run


@pytest.fixture(scope="module")
def remotes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    """Local bare repositories with real-looking refs, one set per test module (see gitfixtures)."""
    return build_remotes(tmp_path_factory.mktemp("remotes"))
