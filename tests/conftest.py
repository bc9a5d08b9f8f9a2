"""Settings for the whole suite: no test sees the machine's git configuration, and Hypothesis runs the same
examples on every run unless asked to explore.

Git isolation (see :mod:`isolation`): each test gets its own empty home folder (``HOME``,
``XDG_CONFIG_HOME``, ``XDG_CACHE_HOME``), ``GIT_CONFIG_GLOBAL`` naming an empty file,
``GIT_CONFIG_NOSYSTEM=1`` and none of the developer's ``GIT_*`` variables. A test that needs git
configuration sets it itself, after this fixture (``GIT_CONFIG_COUNT`` and
``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` through ``monkeypatch`` or a subprocess's ``env``, or a
repository's own ``.git/config``). The same isolation holds for the whole session from its start, so that
session- and module-scoped fixtures that run git are isolated too.

Hypothesis profiles: ``ci`` (the default) runs 150 examples a test, derived from the test itself
(``derandomize``), with no example database, so every run checks the same inputs; ``explore``
(``REFLINT_HYPOTHESIS_PROFILE=explore``, or pytest's ``--hypothesis-profile explore``) runs 3,000 random
examples a test and prints how to reproduce a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from isolation import isolated_env

_BASE = settings(database=None, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", _BASE, max_examples=150, derandomize=True)
settings.register_profile("explore", _BASE, max_examples=3000, derandomize=False)
settings.load_profile(os.environ.get("REFLINT_HYPOTHESIS_PROFILE", "ci"))

_session_home: Path | None = None
_session_saved: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    """Isolate the whole session (session- and module-scoped fixtures run before any test's fixture)."""
    global _session_home
    _session_home = Path(tempfile.mkdtemp(prefix="reflint-tests-home-"))
    to_set, to_delete = isolated_env(_session_home, os.environ)
    for name in [*to_set, *to_delete]:
        _session_saved[name] = os.environ.get(name)
    for name in to_delete:
        del os.environ[name]
    os.environ.update(to_set)


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in _session_saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if _session_home is not None:
        shutil.rmtree(_session_home, ignore_errors=True)


@pytest.fixture(autouse=True)
def isolated_git_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Give the test an empty home folder and git configuration of its own; returns the home folder."""
    home = tmp_path_factory.mktemp("home")
    to_set, to_delete = isolated_env(home, os.environ)
    for name in to_delete:
        monkeypatch.delenv(name)
    for name, value in to_set.items():
        monkeypatch.setenv(name, value)
    return home
