"""Discovery's display paths: built per folder, not per file, and the same as display_path gives each file.

Discovery writes a folder's display path once and puts each file's name after it (a ``relpath`` per file
took a second on 90,000 files); these tests hold it to :func:`display_path` of every file, for folders
given every way a user can (inside, at, above and outside the working directory, relative and absolute,
with ``.``, ``..``, doubled and trailing slashes), in a git work tree and outside one, with a file name
that is not UTF-8.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ascend_reflint.discover import discover, display_path, relpath

FILES = ("docker/Dockerfile", "docker/sub/build.sh", "scripts/x.sh", "top.sh")
UNDECODABLE = os.fsdecode(b"caf\xe9.sh")  # a Latin-1 name: a lone surrogate in Python (PEP 383)


def make_tree(root: Path, git: bool) -> Path:
    repo = root / "repo"
    for name in (*FILES, f"docker/{UNDECODABLE}"):
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "#!/bin/bash\ngit clone u\n" if name.endswith(".sh") else "FROM x\n", encoding="utf-8"
        )
    (root / "elsewhere").mkdir()
    if git:
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "add", "docker", "top.sh"], check=True)  # scripts/ untracked
    return repo


def expected(given: str, cwd: str) -> list[tuple[str, str]]:
    """What discovery showed before: display_path of the folder as given joined with each file's path, and
    the file's absolute path; in display order."""
    folder = os.path.abspath(os.path.join(cwd, given))
    shown = set()
    for top, _dirs, names in os.walk(folder):
        for name in names:
            shown.add(
                (
                    display_path(os.path.join(given, os.path.relpath(os.path.join(top, name), folder)), cwd),
                    os.path.join(top, name),
                )
            )
    return sorted(pair for pair in shown if not pair[0].endswith(".git") and "/.git/" not in f"/{pair[0]}")


@pytest.mark.parametrize("git", [False, True], ids=["walk", "git"])
@pytest.mark.parametrize(
    ("where", "given"),
    [
        ("repo", "."),
        ("repo", ""),
        ("repo", "./"),
        ("repo", "docker"),
        ("repo", "docker/"),
        ("repo", "./docker//sub/"),
        ("repo", "docker/.."),
        ("repo", "docker/../scripts"),
        ("repo/docker", ".."),
        ("repo/docker", "../scripts"),
        ("repo/docker/sub", "../.."),
        ("elsewhere", "../repo"),
        ("elsewhere", "../repo/docker/"),
        ("repo", "ABSOLUTE"),
        ("repo", "ABSOLUTE/docker"),
        ("elsewhere", "ABSOLUTE/docker"),
        ("elsewhere", "ABSOLUTE/docker/../scripts"),
    ],
)
def test_every_file_is_shown_as_display_path_shows_it(
    tmp_path: Path, git: bool, where: str, given: str
) -> None:
    repo = make_tree(tmp_path, git)
    cwd = str(tmp_path / where)
    given = given.replace("ABSOLUTE", str(repo))
    found = discover([given], cwd=cwd)
    assert [(source.path, source.abspath) for source in found.files] == expected(given, cwd)


@pytest.mark.parametrize("git", [False, True], ids=["walk", "git"])
def test_a_name_that_is_not_utf8_is_shown_with_its_byte_written_out(tmp_path: Path, git: bool) -> None:
    repo = make_tree(tmp_path, git)
    found = discover(["docker"], cwd=str(repo))
    shown = {source.path: source.abspath for source in found.files}
    assert shown["docker/caf\\xe9.sh"] == str(repo / "docker" / UNDECODABLE)


@pytest.mark.parametrize(
    ("path", "start"),
    [
        ("/a/b/c", "/a"),
        ("/a/b/c", "/a/"),
        ("/a/b", "/a/b"),
        ("/a/bc/d", "/a/b"),
        ("/a/./b", "/a"),
        ("/a/b/../c", "/a"),
        ("/a//b", "/a"),
        ("/a/b/", "/a"),
        ("/x/y", "/a"),
        ("/a/b", "/"),
        ("/", "/"),
    ],
)
def test_relpath_is_os_path_relpath(path: str, start: str) -> None:
    assert relpath(path, start) == os.path.relpath(path, start)
