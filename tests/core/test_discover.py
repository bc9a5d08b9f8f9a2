"""Discovery: which files are read, and as which kind (ascend_reflint.discover)."""

import os
import subprocess
from pathlib import Path

import pytest

from ascend_reflint.discover import classify, discover
from ascend_reflint.model import FileKind, FileMessage


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


TREE = {
    "docker/Dockerfile.ascend_a2": "FROM x\n",
    "docker/build.dockerfile": "FROM x\n",
    "Containerfile": "FROM x\n",
    "scripts/install.sh": "git clone u\n",
    "scripts/setup": "#!/usr/bin/env bash\ngit clone u\n",
    "scripts/tool": "#!/usr/bin/python3\nprint()\n",
    ".github/workflows/ci.yml": "on: push\n",
    ".github/workflows/stash/old.yml": "on: push\n",
    "action.yml": "runs: {}\n",
    "config.yml": "a: 1\n",
    "requirements-npu.txt": "git+https://x/y@v1\n",
    "docs/extra.requirements.txt": "x\n",
    "pyproject.toml": "[project]\n",
    "README.md": "git clone\n",
    "build/ignored.sh": "git clone u\n",
}


def test_walk_outside_git_classifies_by_name_and_shebang(tmp_path: Path) -> None:
    _write(tmp_path, TREE)
    found = discover(["."], cwd=str(tmp_path))
    assert [(f.path, f.kind) for f in found.files] == [
        (".github/workflows/ci.yml", FileKind.WORKFLOW),
        ("Containerfile", FileKind.DOCKERFILE),
        ("action.yml", FileKind.WORKFLOW),
        ("build/ignored.sh", FileKind.SHELL),
        ("docker/Dockerfile.ascend_a2", FileKind.DOCKERFILE),
        ("docker/build.dockerfile", FileKind.DOCKERFILE),
        ("docs/extra.requirements.txt", FileKind.REQUIREMENTS),
        ("pyproject.toml", FileKind.PYPROJECT),
        ("requirements-npu.txt", FileKind.REQUIREMENTS),
        ("scripts/install.sh", FileKind.SHELL),
        ("scripts/setup", FileKind.SHELL),
    ]


def test_git_work_tree_uses_tracked_and_untracked_not_ignored(tmp_path: Path) -> None:
    _write(tmp_path, {**TREE, ".gitignore": "build/\n"})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "docker", "scripts"], check=True)
    found = discover([str(tmp_path / "docker"), str(tmp_path / "scripts")], cwd=str(tmp_path))
    assert [f.path for f in found.files] == [
        "docker/Dockerfile.ascend_a2",
        "docker/build.dockerfile",
        "scripts/install.sh",
        "scripts/setup",
    ]
    # The whole tree: tracked and untracked files, not the ignored build/ignored.sh.
    whole = discover(["."], cwd=str(tmp_path))
    assert [f.path for f in whole.files] == [
        ".github/workflows/ci.yml",
        "Containerfile",
        "action.yml",
        "docker/Dockerfile.ascend_a2",
        "docker/build.dockerfile",
        "docs/extra.requirements.txt",
        "pyproject.toml",
        "requirements-npu.txt",
        "scripts/install.sh",
        "scripts/setup",
    ]


def test_explicit_paths_are_read_even_with_unusual_names(tmp_path: Path) -> None:
    _write(tmp_path, {"recipes/image.txt": "# comment\nFROM ubuntu\n", "notes.txt": "hello\n"})
    found = discover(["recipes/image.txt", "notes.txt", "missing.sh"], cwd=str(tmp_path))
    assert [(f.path, f.kind, f.explicit) for f in found.files] == [
        ("recipes/image.txt", FileKind.DOCKERFILE, True)
    ]
    assert found.notices == [FileMessage("notes.txt", "skipped: not a kind of file reflint reads")]
    assert found.errors == [FileMessage("missing.sh", "no such file or directory")]


def test_exclude_globs_leave_paths_out(tmp_path: Path) -> None:
    _write(tmp_path, TREE)
    found = discover(["."], excludes=["scripts/", "*.dockerfile"], cwd=str(tmp_path))
    assert [f.path for f in found.files] == [
        ".github/workflows/ci.yml",
        "Containerfile",
        "action.yml",
        "build/ignored.sh",
        "docker/Dockerfile.ascend_a2",
        "docs/extra.requirements.txt",
        "pyproject.toml",
        "requirements-npu.txt",
    ]


def test_paths_outside_cwd_are_shown_as_given(tmp_path: Path) -> None:
    _write(tmp_path, {"a/install.sh": "x\n"})
    os.mkdir(tmp_path / "b")
    found = discover(["../a/install.sh"], cwd=str(tmp_path / "b"))
    assert [f.path for f in found.files] == ["../a/install.sh"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Dockerfile", FileKind.DOCKERFILE),
        ("dockerfile.npu", FileKind.DOCKERFILE),
        ("x/.github/workflows/a.yaml", FileKind.WORKFLOW),
        ("x/.github/a.yaml", None),
        ("requirements.txt", FileKind.REQUIREMENTS),
        ("notes.txt", None),
        ("run.bash", FileKind.SHELL),
        ("requirements/npu.txt", FileKind.REQUIREMENTS),
        ("deps/Requirements/gpu/extra.in", FileKind.REQUIREMENTS),
        ("requirements-dev.in", FileKind.REQUIREMENTS),
        ("constraints-cu128.txt", FileKind.REQUIREMENTS),
        ("constraints.in", None),
        ("requirements/README.md", None),
        ("MANIFEST.in", None),
        ("docs/requirements_notes/x.txt", None),
        ("sub/pyproject.toml", FileKind.PYPROJECT),
        ("environment.yml", FileKind.CONDA),
        ("examples/environment-gpu.yaml", FileKind.CONDA),
        ("envs/conda.yml", None),
        (".gitmodules", FileKind.SUBMODULE),
        ("vendor/x/.gitmodules", FileKind.SUBMODULE),
        ("gitmodules", None),
        (".pre-commit-config.yaml", FileKind.PRE_COMMIT),
        (".pre-commit-config.yml", FileKind.PRE_COMMIT),
        (".pre-commit-hooks.yaml", None),
    ],
)
def test_classify_by_name(name: str, kind: FileKind | None) -> None:
    assert classify(name) == kind


@pytest.mark.parametrize(
    "name",
    [
        "docs/dockerfile_build_guidance.rst",
        "Dockerfile.md",
        "Dockerfile.j2",
        "dockerfile.py",
        "Dockerfile.orig",
    ],
)
def test_documents_about_dockerfiles_are_not_dockerfiles(name: str) -> None:
    assert classify(name) is None
