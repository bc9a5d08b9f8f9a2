"""``reflint cache clean`` while a scan writes the cache: a folder that a writer fills during the removal
("Directory not empty") is removed again; what cannot be removed is named, the rest removed all the same;
a symbolic link is removed as a link, its target never touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ascend_reflint.cli import main

REMOVED = "2 extraction entries, 1 ref list, 0 failed lookups, 1 commit history and 0 read rule packs"


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    for name in ("extract/p/a.json", "extract/p/b.json", "remotes/r.json", "history/github.com-o-r/HEAD"):
        (cache / name).parent.mkdir(parents=True, exist_ok=True)
        (cache / name).write_text("{}", encoding="utf-8")
    (cache / "mine.txt").write_text("not reflint's", encoding="utf-8")
    return cache


def clean(capsys: pytest.CaptureFixture[str], cache: Path) -> tuple[int, str, str]:
    code = main(["cache", "clean", "--cache-dir", str(cache)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_folder_that_a_writer_fills_while_it_is_removed_is_removed_again(
    cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_rmdir = os.rmdir
    written: list[str] = []

    def rmdir_as_a_writer_adds_a_file(path: str, *, dir_fd: int | None = None) -> None:
        # A scan writes an entry into the extraction cache's project folder just before it is removed.
        if path == "p" and not written:
            folder = os.open(path, os.O_RDONLY, dir_fd=dir_fd)
            os.close(os.open("late.json", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=folder))
            os.close(folder)
            written.append(path)
        real_rmdir(path, dir_fd=dir_fd)

    monkeypatch.setattr(os, "rmdir", rmdir_as_a_writer_adds_a_file)
    assert clean(capsys, cache) == (0, f"removed {REMOVED} (0.0 MiB on disk) from {cache}\n", "")
    assert written == ["p"]
    assert sorted(path.name for path in cache.iterdir()) == ["mine.txt"]


def test_what_cannot_be_removed_is_named_and_the_rest_is_removed(
    cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_unlink = os.unlink

    def unlink_refused_for_one_entry(path: str, *, dir_fd: int | None = None) -> None:
        if path == "r.json":
            raise PermissionError(13, "Permission denied")
        real_unlink(path, dir_fd=dir_fd)

    monkeypatch.setattr(os, "unlink", unlink_refused_for_one_entry)
    code, out, err = clean(capsys, cache)
    [aside] = [path for path in cache.iterdir() if path.name.startswith(".remotes.removing-")]
    assert (code, out) == (2, f"removed what it could of {REMOVED} (0.0 MiB on disk) from {cache}\n")
    assert err == f"reflint: error: cannot remove {aside / 'r.json'}: Permission denied\n"
    assert sorted(path.name for path in cache.iterdir()) == [aside.name, "mine.txt"]

    # The next clean removes what the last one left aside.
    monkeypatch.setattr(os, "unlink", real_unlink)
    assert clean(capsys, cache) == (
        0,
        "removed 0 extraction entries, 0 ref lists, 0 failed lookups, 0 commit histories and 0 read rule "
        f"packs (0.0 MiB on disk) from {cache}\n",
        "",
    )
    assert sorted(path.name for path in cache.iterdir()) == ["mine.txt"]


def test_symbolic_links_are_removed_never_followed(
    cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    (outside / "keep").mkdir(parents=True)
    (outside / "keep" / "file").write_text("keep", encoding="utf-8")
    (cache / "extract" / "p" / "link").symlink_to(outside / "keep")  # inside a cache folder
    (cache / "packs").symlink_to(outside)  # a cache folder that is a link
    code, _, err = clean(capsys, cache)
    assert (code, err) == (0, "")
    assert sorted(path.name for path in cache.iterdir()) == ["mine.txt"]
    assert (outside / "keep" / "file").read_text(encoding="utf-8") == "keep"


def test_the_size_removed_is_the_disk_usage_as_du_counts_it(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Many small entries take more on disk than their length: the figure is what removing them frees
    (allocated blocks, ``du``), not the length of their contents (``du --apparent-size``)."""
    entries = [cache / "remotes" / f"e{number}.json" for number in range(600)]
    for entry in entries:
        entry.write_text("x" * 100, encoding="utf-8")
    files = [path for path in cache.rglob("*") if path.is_file() and path.parent != cache]
    disk = sum(path.lstat().st_blocks * 512 for path in files) / (1024 * 1024)
    apparent = sum(path.lstat().st_size for path in files) / (1024 * 1024)
    assert f"{apparent:.1f}" == "0.1"
    assert clean(capsys, cache) == (
        0,
        "removed 2 extraction entries, 601 ref lists, 0 failed lookups, 1 commit history and 0 read rule "
        f"packs ({disk:.1f} MiB on disk) from {cache}\n",
        "",
    )
