"""Notices (a file read with a caveat, a cache that cannot be written) are in ``scan --format json`` as in
``refs --format json``; a notice about no file (the caches') has a null path in JSON and ``reflint:`` in
place of a path on standard error, never a made-up path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

#: A Dockerfile in Latin-1 (not UTF-8, read leniently: a notice), its pin ignored: the scan has no finding.
DOCKERFILE = (
    "# caf\xe9\nFROM x\nRUN git clone https://github.com/o/r.git /r  # reflint: ignore[RL010,RL015]\n"
)
LATIN_1 = "not valid UTF-8 (first at line 1); undecodable bytes read as U+FFFD"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "Dockerfile").write_bytes(DOCKERFILE.encode("latin-1"))
    # A file where the extraction cache's folder goes: the cache cannot be written.
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "extract").write_text("not a folder", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path


def test_scan_json_has_the_notices_and_a_cache_notice_names_no_file(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tree / "cache"
    assert main(["scan", "--offline", "--format", "json", "--cache-dir", str(cache)]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["notices"] == [
        {"path": "Dockerfile", "message": LATIN_1},
        {"path": None, "message": f"cannot write the extraction cache in {cache}: Not a directory"},
    ]
    assert captured.err == (
        f"reflint: notice: cannot write the extraction cache in {cache}: Not a directory\n"
        "reflint: no remote could be checked: 1 pin unchecked\n"
    )


def test_refs_json_has_the_same_notices(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache = tree / "cache"
    assert main(["refs", "--format", "json", "--cache-dir", str(cache)]) == 0
    assert json.loads(capsys.readouterr().out)["notices"] == [
        {"path": "Dockerfile", "message": LATIN_1},
        {"path": None, "message": f"cannot write the extraction cache in {cache}: Not a directory"},
    ]


def test_refs_text_says_reflint_where_no_file_is_concerned(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tree / "cache"
    assert main(["refs", "--cache-dir", str(cache)]) == 0
    assert capsys.readouterr().err == (
        f"Dockerfile: notice: {LATIN_1}\n"
        f"reflint: notice: cannot write the extraction cache in {cache}: Not a directory\n"
    )


@pytest.mark.parametrize(
    ("text", "notice"),
    [
        # The cells' list is never closed: Python's JSON reader stops at the end of the text, line 5.
        (
            '{\n "cells": [\n  {"cell_type": "code", "source": ["!git clone https://github.com/o/r.git"]\n}\n',
            "line 5, column 1: not a Jupyter notebook (not JSON: Expecting ',' delimiter): not read",
        ),
        (
            '{"metadata": {}, "nbformat": 4, "git": 1}\n',
            "not a Jupyter notebook (no JSON with cells): not read",
        ),
    ],
    ids=["malformed", "no-cells"],
)
def test_a_notebook_that_is_not_one_is_a_notice_at_the_json_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    notice: str,
) -> None:
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["refs"]) == 0
    assert capsys.readouterr().err == f"nb.ipynb: notice: {notice}\n"
    assert main(["refs", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["notices"] == [{"path": "nb.ipynb", "message": notice}]
