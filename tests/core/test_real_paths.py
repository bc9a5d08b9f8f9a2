"""The real paths that invocations compare are what :func:`os.path.realpath` gives, found folder by folder."""

from __future__ import annotations

import os
from pathlib import Path

from ascend_reflint.invocations import _RealPaths


def test_real_paths_are_those_of_os_path_realpath(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "Dockerfile").write_text("FROM x\n")
    (root / "link").symlink_to(root / "a")  # a linked folder
    (root / "a" / "file-link").symlink_to("b/Dockerfile")  # a linked file, relative
    (root / "a" / "up").symlink_to("../a/b")  # a link whose target climbs
    (root / "a" / "dangling").symlink_to("nowhere")
    paths = [
        "a/b/Dockerfile",
        "link/b/Dockerfile",
        "a/file-link",
        "link/file-link",
        "a/up/Dockerfile",
        "link/up/Dockerfile",
        "a/missing",
        "a/dangling",
        "link/up/..",
    ]
    real_path = _RealPaths()

    found = [real_path(f"{root}/{path}") for path in paths]

    assert found == [os.path.realpath(f"{root}/{path}") for path in paths]
    assert found[:6] == [f"{root}/a/b/Dockerfile"] * 6  # the test can fail: every link was followed
