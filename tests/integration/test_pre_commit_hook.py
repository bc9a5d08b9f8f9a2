"""The pre-commit hook (.pre-commit-hooks.yaml): the files it passes, and a real ``pre-commit try-repo`` run.

The real run installs reflint the way pre-commit does for its users: a virtual environment built from a
git repository holding the project (a committed copy of the work tree, so that uncommitted and untracked
files count too: ``try-repo`` of a dirty repository takes only staged and tracked changes). That install
needs the package index pip is configured for; the test first checks that the index answers, and fails at
once with one line saying so when it does not (rather than after pip's retries).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from integration_support import (
    BAD_DOCKERFILE,
    BAD_REF_COLUMN,
    BAD_REF_LINE,
    BRANCH_PIN_CODE,
    FIXED_DOCKERFILE,
    MEGATRON_BRANCH,
    MEGATRON_TAG,
    PROJECT_ROOT,
    fake_github,
    git,
    unreachable_package_index,
)
from isolation import machine_pip_config
from ruamel.yaml import YAML

from ascend_reflint import discover
from ascend_reflint.discover import classify
from ascend_reflint.model import FileKind

HOOKS_FILE = PROJECT_ROOT / ".pre-commit-hooks.yaml"
#: What a pip install of the project needs, and the hook manifest.
PROJECT_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml")
PROJECT_FOLDERS = ("ascend_reflint", "rules")

#: Seconds one ``pre-commit try-repo`` may take: the first installs reflint and its dependencies from the
#: package index into a fresh virtual environment.
TRY_REPO_TIMEOUT = 300

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
    "prek.toml",
    "CMakeLists.txt",
    "cmake/deps.cmake",
    "Makefile",
    "server/Makefile-vllm",
    "rules.mk",
    "GNUmakefile",
    ".gitlab-ci.yml",
    ".gitlab/stages/00.pre.yml",
    "docker/rocm/Apptainerfile.rocm",
    "Singularity.def",
    "docker/Qwen2VL_Dockerfile",
    "README.md",
    "docs/install.rst",
    "tutorials/sft.ipynb",
    "docs/guide.qmd",
    "cicd/Dockerfile-uv.jinja",
    ".github/workflows/pr-test.yml.j2",
    "compose.yaml",
    "deploy/docker-compose.override.yml",
    "docker-bake.hcl",
    "ci/docker-bake.release.json",
)
NOT_READ = (
    "config.yml",
    ".github/workflows/old/ci.yml",
    "setup.cfg",
    "tool.py",
    "notes.txt",
    ".bashrc",
    "MANIFEST.in",
    "envs/conda.yml",
    "CMakeCache.txt",
    ".pre-commit-hooks.yaml",
)


def hooks() -> dict[str, dict[str, object]]:
    """The manifest's hooks by id."""
    return {
        entry["id"]: dict(entry) for entry in YAML(typ="safe").load(HOOKS_FILE.read_text(encoding="utf-8"))
    }


def hook() -> dict[str, object]:
    return hooks()["reflint"]


def test_manifest_is_valid_for_pre_commit() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(HOOKS_FILE)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "", "")
    assert list(hooks()) == ["reflint", "reflint-fix"]
    entry, fixing = hook(), hooks()["reflint-fix"]
    assert (entry["id"], entry["entry"], entry["language"]) == ("reflint", "reflint scan", "python")
    assert (entry["pass_filenames"], entry["require_serial"], entry["types"]) == (True, True, ["text"])
    # The fixing hook is the same hook with --fix: the same files, one process.
    assert {
        key: value for key, value in fixing.items() if key not in ("id", "name", "description", "entry")
    } == {key: value for key, value in entry.items() if key not in ("id", "name", "description", "entry")}
    assert (fixing["name"], fixing["entry"]) == ("reflint (fix)", "reflint scan --fix")


@pytest.mark.parametrize("path", READ_BY_NAME)
def test_files_pattern_passes_every_name_that_reflint_reads(path: str) -> None:
    assert re.search(str(hook()["files"]), path)
    assert classify(path) is not None


@pytest.mark.parametrize("path", NOT_READ)
def test_files_pattern_leaves_out_names_that_reflint_does_not_read(path: str) -> None:
    assert not re.search(str(hook()["files"]), path)
    assert classify(path) is None


#: A string of discover.py that could be (part of) a file or folder name.
_NAME_LIKE = re.compile(r"[\w.-]{1,40}")
#: discover.py's regular expressions of names (compose and bake files); not that of undecodable bytes.
_NAME_PATTERNS = [
    value for value in vars(discover).values() if isinstance(value, re.Pattern) and value.pattern.isascii()
]


def _discovery_fragments() -> tuple[set[str], set[str]]:
    """What discovery's own code spells, read from its source: the name-like string constants
    (``dockerfile``, ``.yml``, ``makefile-``, ``pyproject.toml`` …), and the folders they make alone and as
    tuples of parts (``(".github", "workflows")`` gives ``.github/workflows/``).

    Returns:
        ``(fragments, folders)``: lower-case fragments; folders ending in ``/``, the empty one included.
    """
    tree = ast.parse(Path(discover.__file__).read_text(encoding="utf-8"))
    fragments = {
        node.value.lower()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _NAME_LIKE.fullmatch(node.value)
    }
    joined = {
        "/".join(parts) + "/"
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple)
        and (
            parts := [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        )
        and len(parts) == len(node.elts)
        and all(_NAME_LIKE.fullmatch(part) for part in parts)
    }
    return fragments, {"", *(fragment + "/" for fragment in fragments), *joined}


def _discovery_names() -> list[str]:
    """Paths that discovery may read, built from :func:`_discovery_fragments`: every fragment alone and
    joined to another (``dockerfile.ascend``, ``requirements.txt``) in a folder; ``x`` plus every fragment
    (``x.yml``) in every folder; and, for each regular expression of discover.py (compose and bake files),
    its shortest match that discovery reads."""
    fragments, folders = _discovery_fragments()
    names = {f"sub/{first}{second}" for first in ("", *fragments) for second in fragments}
    names |= {f"{folder}x{fragment}" for folder in folders for fragment in fragments}
    for pattern in _NAME_PATTERNS:
        try:
            names.add(
                "sub/"
                + find(
                    st.from_regex(pattern, fullmatch=True), lambda name: classify(f"sub/{name}") is not None
                )
            )
        except NoSuchExample:
            continue
    return sorted(names)


def test_files_pattern_passes_every_kind_that_discovery_reads() -> None:
    """The hook's pattern and discovery cannot drift apart: every path built from discovery's own names
    that discovery reads is one the hook passes, and those paths reach every kind of file."""
    files = re.compile(str(hook()["files"]))
    read = {path: kind for path in _discovery_names() if (kind := classify(path)) is not None}
    assert [path for path in read if not files.search(path)] == []
    assert set(FileKind) - set(read.values()) == set()


@settings(suppress_health_check=[HealthCheck.filter_too_much])
@given(st.sampled_from(_NAME_PATTERNS).flatmap(lambda pattern: st.from_regex(pattern, fullmatch=True)))
def test_files_pattern_passes_every_name_that_discovery_patterns_read(name: str) -> None:
    path = f"docker/{name}"
    if classify(path) is not None:
        assert re.search(str(hook()["files"]), path)


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


def try_repo(
    hook_repo: Path, workspace: Path, environ: dict[str, str], hook_id: str = "reflint"
) -> list[str]:
    """Run ``pre-commit try-repo`` of one hook on ``workspace``'s Dockerfile; returns the lines from the
    hook's result on.

    The lines before (the config used, with a temporary path and a commit id, and pre-commit's notes on
    installing) are left out; the result line's dots are pre-commit's to choose, so it shows as
    ``NAME...Passed`` or ``NAME...Failed``.
    """
    completed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook_id, "--files", "Dockerfile"],
        cwd=workspace,
        env=environ,
        capture_output=True,
        text=True,
        timeout=TRY_REPO_TIMEOUT,
    )
    lines = completed.stdout.split("\n")
    name = re.escape(str(hooks()[hook_id]["name"]))
    result = next(
        (n for n, line in enumerate(lines) if re.fullmatch(rf"{name}\.+(Passed|Failed)", line)), None
    )
    assert result is not None, completed.stdout + completed.stderr
    return [
        re.sub(rf"^{name}\.+", f"{hooks()[hook_id]['name']}...", lines[result]),
        *lines[result + 1 :],
        f"exit {completed.returncode}",
    ]


def workspace_and_environment(
    tmp: Path, dockerfile: str, remotes: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, str]]:
    """A git repository in ``tmp`` whose staged Dockerfile is ``dockerfile``, and the environment that
    ``pre-commit try-repo`` runs in: ``remotes`` (the insteadOf rewrites), a pre-commit home shared by the
    tests (one install of the hook), the machine's pip configuration. Fails at once when pip's package
    index cannot be reached."""
    workspace = tmp / "project"
    workspace.mkdir()
    git("init", "--quiet", cwd=workspace)
    (workspace / "Dockerfile").write_text(dockerfile, encoding="utf-8")
    git("add", "Dockerfile", cwd=workspace)
    environ = {
        **os.environ,
        **remotes,
        "PRE_COMMIT_HOME": str(tmp_path_factory.getbasetemp() / "pre-commit-home"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
        "NO_COLOR": "1",
    }
    environ.pop("PRE_COMMIT", None)  # set when the test suite itself runs under pre-commit
    pip_config = machine_pip_config(tmp / "pip")  # the isolated home hides the user's pip configuration
    if pip_config is not None:
        environ["PIP_CONFIG_FILE"] = str(pip_config)
    unreachable = unreachable_package_index(environ)
    if unreachable is not None:
        pytest.fail(f"pre-commit try-repo cannot run: {unreachable}", pytrace=False)
    return workspace, environ


@pytest.mark.timeout(2 * TRY_REPO_TIMEOUT + 60)
def test_try_repo_fails_on_a_branch_pin_and_passes_once_it_is_fixed(
    hook_repository: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("pre-commit-run")
    (tmp / "remotes").mkdir()
    remotes = fake_github(tmp / "remotes")
    workspace, environ = workspace_and_environment(tmp, BAD_DOCKERFILE, remotes, tmp_path_factory)

    assert try_repo(hook_repository, workspace, environ) == [
        "reflint...Failed",
        "- hook id: reflint",
        "- exit code: 1",
        "",
        f'Dockerfile:{BAD_REF_LINE}:{BAD_REF_COLUMN}: {BRANCH_PIN_CODE} [error] ref "{MEGATRON_BRANCH}" is a '
        "branch of github.com/nvidia/megatron-lm, which moves whenever a commit lands on it: pin its release "
        f'tag "{MEGATRON_TAG}"',
        "",
        "1 error, 0 warnings, 0 info in 1 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not checked)",
        "1 fixable with --fix --unsafe-fixes",
        "",
        "",
        "exit 1",
    ]

    (workspace / "Dockerfile").write_text(FIXED_DOCKERFILE, encoding="utf-8")
    git("add", "Dockerfile", cwd=workspace)
    assert try_repo(hook_repository, workspace, environ) == ["reflint...Passed", "", "exit 0"]


#: TransformerEngine's release branch and tag at one commit (upstream's ids), so the fix is safe.
TE_REFS = [
    ("d0067d0da6cb01811b8072a7d304f0e00344ce2b", "HEAD"),
    ("d0067d0da6cb01811b8072a7d304f0e00344ce2b", "refs/heads/main"),
    ("769ed778341a32c8c593fda391700c0a80f65f1f", "refs/heads/release_v2.10"),
    ("769ed778341a32c8c593fda391700c0a80f65f1f", "refs/tags/v2.10"),
]
TE_PIN = "RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@{}\n"


@pytest.mark.timeout(2 * TRY_REPO_TIMEOUT + 60)
def test_try_repo_of_reflint_fix_fixes_a_branch_pin_then_passes(
    hook_repository: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("pre-commit-fix")
    build_repo(tmp / "remotes" / "github.com" / "NVIDIA" / "TransformerEngine.git", TE_REFS)
    dockerfile = "FROM ubuntu:22.04\n" + TE_PIN.format("release_v2.10")
    workspace, environ = workspace_and_environment(
        tmp, dockerfile, insteadof_env(tmp / "remotes"), tmp_path_factory
    )

    assert try_repo(hook_repository, workspace, environ, "reflint-fix") == [
        "reflint (fix)...Failed",
        "- hook id: reflint-fix",
        "- files were modified by this hook",
        "",
        "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 1 remote: 1 checked (0 cached), 0 not checked)",
        "1 fixed, 0 remaining",
        "",
        "",
        "exit 1",
    ]
    assert (workspace / "Dockerfile").read_text(encoding="utf-8") == "FROM ubuntu:22.04\n" + TE_PIN.format(
        "v2.10"
    )
    git("add", "Dockerfile", cwd=workspace)
    assert try_repo(hook_repository, workspace, environ, "reflint-fix") == [
        "reflint (fix)...Passed",
        "",
        "exit 0",
    ]
