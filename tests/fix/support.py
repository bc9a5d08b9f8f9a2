"""What the fix tests share: the remotes they look up, a copy of a case's files, and scans through the CLI.

A case is a folder under ``data/cases/``: ``before/`` holds the files as a user wrote them, ``after/`` the
same files as ``reflint scan --fix`` must leave them, byte for byte (files that no fix touches are in both).
The remotes are ``data/remotes/HOST/OWNER/NAME.refs``: subsets of the real upstreams' ``git ls-remote``
answers (see ``tests/data/remotes/README.md`` for the format), served by local repositories whose commit
ids are :mod:`gitfixtures`' (the same on every machine), which is why ``after/`` files hold those ids.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from gitfixtures import FakeRemotes, build_remotes

from ascend_reflint.cli import main

DATA = Path(__file__).resolve().parent / "data"
CASES = DATA / "cases"


def remotes_for_fixes(tmp_path_factory: pytest.TempPathFactory) -> FakeRemotes:
    """The remotes of ``data/remotes``, built once per session by the fixture that calls this."""
    return build_remotes(tmp_path_factory.mktemp("fix-remotes"), DATA / "remotes")


def copy_case(name: str, side: str, to: Path) -> Path:
    """Copy ``data/cases/NAME/SIDE`` to ``to`` (created) and return ``to``."""
    shutil.copytree(CASES / name / side, to, dirs_exist_ok=True)
    return to


def files_of(folder: Path) -> dict[str, bytes]:
    """Relative path → bytes of every file under ``folder``."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``reflint scan ARGS`` in the current folder, its cache beside it: (exit code, stdout, stderr)."""
    code = main(["scan", "--cache-dir", "../cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def scan_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """The JSON document of ``reflint scan --format json ARGS``."""
    _, out, _ = scan(capsys, "--format", "json", *args)
    document: dict[str, Any] = json.loads(out)
    return document


def found(document: dict[str, Any]) -> list[tuple[str, str, int]]:
    """``(code, path, line)`` of each finding of a JSON document."""
    return [(f["code"], f["path"], f["line"]) for f in document["findings"]]
