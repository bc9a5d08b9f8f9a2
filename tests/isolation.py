"""Keep the machine's git configuration out of the tests (used by ``tests/conftest.py``).

Git reads more than ``~/.gitconfig``: the file ``GIT_CONFIG_GLOBAL`` names (instead of ``~/.gitconfig`` and
``$XDG_CONFIG_HOME/git/config``), the system file (``$(prefix)/etc/gitconfig``, or ``GIT_CONFIG_SYSTEM``)
unless ``GIT_CONFIG_NOSYSTEM`` is set, the ``GIT_CONFIG_COUNT``/``GIT_CONFIG_PARAMETERS`` variables, and,
whatever the config says, ``$XDG_CONFIG_HOME/git/ignore`` and ``git/attributes`` (or ``~/.config/git/…``)
as the default ``core.excludesFile`` and ``core.attributesFile`` (git-config(1), gitignore(5),
gitattributes(5)); curl, under git, reads ``~/.netrc``. So a test's environment gets its own empty home,
an empty global config file, no system config and none of the developer's ``GIT_*`` variables.

pip is the exception that needs the machine: the pre-commit test installs the hook from the package index
that pip is configured for, and the user-level part of pip's configuration lives in the home folder that
the isolation hides; :func:`machine_pip_config` carries it over as ``PIP_CONFIG_FILE``.
"""

from __future__ import annotations

import configparser
import os
from collections.abc import Mapping
from pathlib import Path

#: ``GIT_*`` variables a test may inherit: where git's own programs are (a relocated install needs it).
KEPT_GIT_VARIABLES = frozenset({"GIT_EXEC_PATH"})
#: Other variables git or its helpers read that belong to the developer's shell, not to a test.
DROPPED_VARIABLES = frozenset({"SSH_ASKPASS"})

#: The environment as the test session found it, before any isolation (for :func:`machine_pip_config`).
_MACHINE_ENVIRON = dict(os.environ)


def isolated_env(home: Path, environ: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The variables that isolate git from the machine, with ``home`` as the home folder.

    Args:
        home: an empty folder; its ``.gitconfig`` is created empty and named by ``GIT_CONFIG_GLOBAL``.
        environ: the environment to isolate (``os.environ``).

    Returns:
        ``(to_set, to_delete)``: variable name → value to set, and the names to remove from ``environ``.
    """
    global_config = home / ".gitconfig"
    global_config.touch()
    (home / ".config").mkdir(exist_ok=True)
    to_delete = [
        name
        for name in environ
        if (name.startswith(("GIT_", "GCM_")) and name not in KEPT_GIT_VARIABLES) or name in DROPPED_VARIABLES
    ]
    to_set = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "GIT_CONFIG_GLOBAL": str(global_config),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return to_set, [name for name in to_delete if name not in to_set]


def machine_pip_config(folder: Path) -> Path | None:
    """pip's user-level configuration as the machine has it, in one file for ``PIP_CONFIG_FILE``.

    pip reads the global files (``/etc/pip.conf``, ``/etc/xdg/pip/pip.conf``), then the user's
    (``$XDG_CONFIG_HOME/pip/pip.conf``, ``~/.pip/pip.conf``), then ``PIP_CONFIG_FILE`` (pip's "Configuration"
    docs). The isolated home hides the user's files; this merges them and the ``PIP_CONFIG_FILE`` the
    session started with, in pip's order (a later file's value wins), into ``folder/pip.conf``.

    Returns:
        The merged file, or None when the machine has no user-level or ``PIP_CONFIG_FILE`` configuration.
    """
    home = Path(_MACHINE_ENVIRON.get("HOME", "~")).expanduser()
    config_home = Path(_MACHINE_ENVIRON.get("XDG_CONFIG_HOME") or home / ".config")
    candidates = [home / ".pip" / "pip.conf", config_home / "pip" / "pip.conf"]
    if _MACHINE_ENVIRON.get("PIP_CONFIG_FILE"):
        candidates.append(Path(_MACHINE_ENVIRON["PIP_CONFIG_FILE"]))
    found = [path for path in candidates if path.is_file()]
    if not found:
        return None
    merged = configparser.RawConfigParser()
    merged.read(found, encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "pip.conf"
    with target.open("w", encoding="utf-8") as handle:
        merged.write(handle)
    return target
