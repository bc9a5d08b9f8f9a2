"""The pre-commit hook (.pre-commit-hooks.yaml): the files it passes, and a real ``pre-commit try-repo`` run.

The real run installs reflint the way pre-commit does for its users: a virtual environment built from a
git repository holding the project (a committed copy of the work tree, so that uncommitted and untracked
files count too: ``try-repo`` of a dirty repository takes only staged and tracked changes). That install
needs PyPI; it happens once per test session, in a temporary PRE_COMMIT_HOME.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from integration_support import (
    BAD_DOCKERFILE,
    BAD_REF_COLUMN,
    BAD_REF_LINE,
    BRANCH_PIN_CODE,
    FIXED_DOCKERFILE,
    MEGATRON_TAG,
    PROJECT_ROOT,
    fake_github,
    git,
)
from ruamel.yaml import YAML

from ascend_reflint.discover import classify

HOOKS_FILE = PROJECT_ROOT / ".pre-commit-hooks.yaml"
#: What a pip install of the project needs, and the hook manifest.
PROJECT_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml")
PROJECT_FOLDERS = ("ascend_reflint", "rules")

READ_BY_NAME = (
    "Dockerfile",
    "docker/Dockerfile.ascend_a3",
    "docker/containerfile",
    "Containerfile.dev",
    "x/build.dockerfile",
    "install.sh",
    "tools/setup.BASH",
    ".github/workflows/ci.yml",
    ".github/workflows/nightly.yaml",
    "action.yml",
    "sub/action.yaml",
    "requirements.txt",
    "deps/requirements-npu.txt",
    "dev.requirements.txt",
    "pyproject.toml",
    "requirements-dev.in",
    "constraints-cu128.txt",
    "requirements/npu.txt",
    "deps/requirements/gpu/extra.in",
    "sub/pyproject.toml",
    "environment.yml",
    "examples/environment-npu.yaml",
    ".gitmodules",
    ".pre-commit-config.yaml",
    "x/.pre-commit-config.yml",
)
NOT_READ = (
    "README.md",
    "config.yml",
    ".github/workflows/old/ci.yml",
    "setup.cfg",
    "tool.py",
    "notes.txt",
    ".bashrc",
    "MANIFEST.in",
    "requirements/README.md",
    "envs/conda.yml",
    ".pre-commit-hooks.yaml",
)


def hook() -> dict[str, object]:
    (entry,) = YAML(typ="safe").load(HOOKS_FILE.read_text(encoding="utf-8"))
    return dict(entry)


def test_manifest_is_valid_for_pre_commit() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(HOOKS_FILE)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "", "")
    entry = hook()
    assert (entry["id"], entry["entry"], entry["language"]) == ("reflint", "reflint scan", "python")
    assert (entry["pass_filenames"], entry["require_serial"], entry["types"]) == (True, True, ["text"])


@pytest.mark.parametrize("path", READ_BY_NAME)
def test_files_pattern_passes_every_name_that_reflint_reads(path: str) -> None:
    assert re.search(str(hook()["files"]), path)
    assert classify(path) is not None


@pytest.mark.parametrize("path", NOT_READ)
def test_files_pattern_leaves_out_names_that_reflint_does_not_read(path: str) -> None:
    assert not re.search(str(hook()["files"]), path)
    assert classify(path) is None


def test_files_pattern_passes_extension_less_scripts_whatever_their_mode(tmp_path: Path) -> None:
    script = tmp_path / "scripts" / "build"
    script.parent.mkdir()
    script.write_text("#!/usr/bin/env bash\ngit clone https://github.com/NVIDIA/Megatron-LM.git\n")
    script.chmod(0o644)  # pre-commit's `shell` tag would need the executable bit; the pattern does not
    assert re.search(str(hook()["files"]), "scripts/build")
    assert classify(str(script)) is not None


@pytest.fixture(scope="module")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository whose one commit holds the project as the work tree has it now."""
    repository = tmp_path_factory.mktemp("hook-repo")
    for name in PROJECT_FILES:
        shutil.copy2(PROJECT_ROOT / name, repository / name)
    for folder in PROJECT_FOLDERS:
        shutil.copytree(
            PROJECT_ROOT / folder, repository / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    git("init", "--quiet", cwd=repository)
    git("add", "--all", cwd=repository)
    git("commit", "--quiet", "-m", "snapshot", cwd=repository)
    return repository


def try_repo(hook_repo: Path, workspace: Path, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "reflint", "--files", "Dockerfile"],
        cwd=workspace,
        env=environ,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_try_repo_fails_on_a_branch_pin_and_passes_once_it_is_fixed(
    hook_repository: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("pre-commit-run")
    workspace = tmp / "project"
    workspace.mkdir()
    git("init", "--quiet", cwd=workspace)
    (workspace / "Dockerfile").write_text(BAD_DOCKERFILE, encoding="utf-8")
    git("add", "Dockerfile", cwd=workspace)
    (tmp / "remotes").mkdir()
    environ = {
        **os.environ,
        **fake_github(tmp / "remotes"),
        "PRE_COMMIT_HOME": str(tmp_path_factory.getbasetemp() / "pre-commit-home"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
        "NO_COLOR": "1",
    }
    environ.pop("PRE_COMMIT", None)  # set when the test suite itself runs under pre-commit

    failed = try_repo(hook_repository, workspace, environ)
    location = f"Dockerfile:{BAD_REF_LINE}:{BAD_REF_COLUMN}: {BRANCH_PIN_CODE} [error] "
    finding = [line for line in failed.stdout.splitlines() if line.startswith(location)]
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert len(finding) == 1, failed.stdout
    assert f"did you mean '{MEGATRON_TAG}'?" in failed.stdout

    (workspace / "Dockerfile").write_text(FIXED_DOCKERFILE, encoding="utf-8")
    git("add", "Dockerfile", cwd=workspace)
    passed = try_repo(hook_repository, workspace, environ)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"^reflint\.+Passed$", passed.stdout, re.MULTILINE), passed.stdout
