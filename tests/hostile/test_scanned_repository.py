"""The git that reflint runs in the scanned work tree (``git ls-files``) runs nothing that the tree names.

A partial clone whose sparse index lacks a tree makes ``git ls-files`` fetch the tree from the remote
that the repository's config names, through any transport that config allows (``ext::PROGRAM``). The
repository can be the scanned folder's own ``.git`` (an unpacked archive) or a folder committed in a pull
request that git takes for a bare repository (``HEAD``, ``config``, ``index``, ``objects/``, ``refs/``):
reflint asks git about the submodules of every ``.gitmodules`` it reads, in that file's folder.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .support import clean_env, evil_script, json_output, run_reflint, write_tree

_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t.invalid",
}
GITMODULES = '[submodule "x"]\n\tpath = x\n\turl = https://github.com/NVIDIA/Megatron-LM.git\n'


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=clean_env(_IDENTITY),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def _lazy_fetching_repository(work_tree: Path, program: Path) -> Path:
    """A git work tree at ``work_tree`` whose sparse index names a tree that is missing, in a partial clone
    whose remote is ``ext::PROGRAM``: any git that reads the full index runs PROGRAM.

    Returns:
        Its ``.git`` folder.
    """
    write_tree(work_tree, {"kept/f": "kept\n", "away/deep/f": "away\n"})
    _git(work_tree.parent, "init", "--quiet", str(work_tree))
    _git(work_tree, "add", ".")
    _git(work_tree, "commit", "--quiet", "-m", "two folders")
    _git(work_tree, "sparse-checkout", "set", "--cone", "--sparse-index", "kept")
    tree = _git(work_tree, "rev-parse", "HEAD:away").stdout.strip()
    (work_tree / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    for key, value in (
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.url", f"ext::{program}"),
        ("remote.origin.promisor", "true"),
        ("protocol.ext.allow", "always"),
    ):
        _git(work_tree, "config", key, value)
    return work_tree / ".git"


def test_a_bare_repository_committed_in_a_pull_request_runs_nothing(tmp_path: Path) -> None:
    program, marker = evil_script(tmp_path, "lazy-fetch")
    git_dir = _lazy_fetching_repository(tmp_path / "made", program)
    pull_request = tmp_path / "pull-request"
    shutil.copytree(git_dir, pull_request / "vendor", ignore=shutil.ignore_patterns("hooks", "logs"))
    write_tree(
        pull_request,
        {"vendor/.gitmodules": GITMODULES, "vendor/refs/heads/.keep": "", "vendor/objects/.keep": ""},
    )
    _git(tmp_path, "init", "--quiet", str(pull_request))
    _git(pull_request, "add", ".")
    _git(pull_request, "commit", "--quiet", "-m", "a pull request")
    checkout = tmp_path / "checkout"
    _git(tmp_path, "clone", "--quiet", str(pull_request), str(checkout))
    # The control: git run in the committed folder, as reflint ran it, runs the program.
    subprocess.run(
        ["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--stage", "--", "."],
        cwd=checkout / "vendor",
        env=clean_env(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert marker.exists()
    marker.unlink()

    completed = run_reflint(["refs"], cwd=checkout)

    assert not marker.exists()
    assert (completed.returncode, completed.stdout) == (0, "")
    assert completed.stderr == (
        "vendor/.gitmodules: notice: not at the root of a git work tree (a copy inside another repository?), "
        "so git does not read it: no submodule pins\n"
    )


def test_an_archives_partial_clone_runs_nothing(tmp_path: Path) -> None:
    program, marker = evil_script(tmp_path, "lazy-fetch")
    archive = tmp_path / "archive"
    _lazy_fetching_repository(archive, program)
    write_tree(archive, {"kept/Dockerfile": "FROM x\nRUN git clone --branch v1 https://github.com/o/r.git\n"})
    subprocess.run(
        ["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--cached", "--", "."],
        cwd=archive,
        env=clean_env(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert marker.exists()
    marker.unlink()

    completed = run_reflint(["refs", "--format", "json"], cwd=archive)

    assert not marker.exists()
    assert (completed.returncode, completed.stderr) == (0, "")
    document = json_output(completed)
    assert [(pin["path"], pin["ref"]) for pin in document["pins"]] == [("kept/Dockerfile", "v1")]
    assert (document["files_scanned"], document["errors"]) == (1, [])
