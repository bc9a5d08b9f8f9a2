"""Discovery: which files are read, and as which kind (ascend_reflint.discover)."""

import os
import subprocess
from pathlib import Path

import pytest

from ascend_reflint.discover import classify, discover, is_template
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
        ("README.md", FileKind.DOCS),
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
        "README.md",
        "action.yml",
        "docker/Dockerfile.ascend_a2",
        "docker/build.dockerfile",
        "docs/extra.requirements.txt",
        "pyproject.toml",
        "requirements-npu.txt",
        "scripts/install.sh",
        "scripts/setup",
    ]


def test_files_git_tracks_but_the_work_tree_lacks_are_left_out(tmp_path: Path) -> None:
    _write(tmp_path, TREE)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    # Deleted, not staged: git still lists them (a recipe, a script found by its shebang, a plain file).
    for name in ("docker/build.dockerfile", "scripts/setup", "config.yml"):
        (tmp_path / name).unlink()
    (tmp_path / "docker/Dockerfile.ascend_a2").unlink()
    (tmp_path / "docker/Dockerfile.ascend_a2").mkdir()  # and a folder where a tracked file was
    found = discover(["."], cwd=str(tmp_path))
    assert [f.path for f in found.files] == [
        ".github/workflows/ci.yml",
        "Containerfile",
        "README.md",
        "action.yml",
        "build/ignored.sh",
        "docs/extra.requirements.txt",
        "pyproject.toml",
        "requirements-npu.txt",
        "scripts/install.sh",
    ]
    assert found.errors == []


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
        "README.md",
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
        ("dev-requirements.txt", FileKind.REQUIREMENTS),
        ("dev-requirements.in", FileKind.REQUIREMENTS),
        ("scripts/freesound_download_resample/freesound_requirements.txt", FileKind.REQUIREMENTS),
        ("test_requirements_gpu.txt", FileKind.REQUIREMENTS),
        ("requirements.md", FileKind.DOCS),
        ("dev-requirements.md", FileKind.DOCS),
        ("requirementsnotes/x.txt", None),
        ("constraints-cu128.txt", FileKind.REQUIREMENTS),
        ("constraints.in", None),
        ("requirements/README.md", FileKind.DOCS),
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
        ("CMakeLists.txt", FileKind.CMAKE),
        ("requirements/CMakeLists.txt", FileKind.CMAKE),
        ("cmake/FindNCCL.cmake", FileKind.CMAKE),
        ("CMakeCache.txt", None),
        ("Makefile", FileKind.MAKEFILE),
        ("server/Makefile-flash-att-v2", FileKind.MAKEFILE),
        ("Makefile.am", FileKind.MAKEFILE),
        ("rules.mk", FileKind.MAKEFILE),
        ("GNUmakefile", FileKind.MAKEFILE),
        ("Makefile.md", FileKind.DOCS),
        (".gitlab-ci.yml", FileKind.GITLAB_CI),
        (".gitlab/stages/00.pre.yml", FileKind.GITLAB_CI),
        ("x/.gitlab/ci.yaml", FileKind.GITLAB_CI),
        ("docker/Qwen2VL_Dockerfile", FileKind.DOCKERFILE),
        ("Dockerfile_dev", FileKind.DOCKERFILE),
        ("docker/rocm/Apptainerfile.rocm", FileKind.APPTAINER),
        ("Singularity", FileKind.APPTAINER),
        ("singularity_build.py", None),
        ("docs/install.rst", FileKind.DOCS),
        ("tutorials/sft.ipynb", FileKind.DOCS),
        ("docs/guide.qmd", FileKind.DOCS),
        ("pkg/__pycache__/makefile.cpython-311.pyc", None),
        ("Dockerfile.tar.gz", None),
        ("requirements.txt.gz", None),
        ("build.sh.o", None),
        ("lib/Makefile.so", None),
        ("Dockerfile.png", None),
    ],
)
def test_classify_by_name(name: str, kind: FileKind | None) -> None:
    assert classify(name) == kind


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("docs/dockerfile_build_guidance.rst", FileKind.DOCS),
        ("Dockerfile.md", FileKind.DOCS),
        ("dockerfile.py", None),
        ("Dockerfile.orig", None),
    ],
)
def test_documents_about_dockerfiles_are_not_dockerfiles(name: str, kind: FileKind | None) -> None:
    assert classify(name) == kind


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Dockerfile.j2", FileKind.DOCKERFILE),
        ("cicd/Dockerfile-uv.jinja", FileKind.DOCKERFILE),
        (".github/workflows/pr-test.yml.j2", FileKind.WORKFLOW),
        (".gitlab-ci.yml.tmpl", FileKind.GITLAB_CI),
        ("Makefile.jinja2", FileKind.MAKEFILE),
        ("src/chat_templates/qwen3.jinja", None),
        ("k8s/lws.yaml.jinja2", None),
    ],
)
def test_templates_have_the_kind_of_their_name_without_the_template_suffix(
    name: str, kind: FileKind | None
) -> None:
    assert (classify(name), is_template(name)) == (kind, True)


def test_a_def_file_is_a_definition_file_only_with_a_bootstrap_header(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "apptainer/train.def": "# comment\n\nBootstrap: docker\nFrom: ubuntu:22.04\n",
            "exports.def": "EXPORTS\n  main\n",
        },
    )
    assert classify(str(tmp_path / "apptainer/train.def")) is FileKind.APPTAINER
    assert classify(str(tmp_path / "exports.def")) is None


def test_no_docs_leaves_documentation_out_and_says_so_for_an_explicit_path(tmp_path: Path) -> None:
    _write(tmp_path, {"README.md": "```bash\ngit clone u\n```\n", "install.sh": "git clone u\n"})
    found = discover([".", "README.md"], cwd=str(tmp_path), docs=False)
    assert [(f.path, f.kind) for f in found.files] == [("install.sh", FileKind.SHELL)]
    assert found.notices == [FileMessage("README.md", "skipped: documentation is not read (--no-docs)")]
