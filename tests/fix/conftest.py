"""Fixtures for the fix tests."""

from __future__ import annotations

import pytest
from gitfixtures import FakeRemotes
from support import remotes_for_fixes


@pytest.fixture(scope="module")
def remotes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    """The fix tests' fake remotes (:func:`support.remotes_for_fixes`), built once per test module."""
    return remotes_for_fixes(tmp_path_factory)
