"""Text that is not UTF-8 is still a recipe: decoded leniently, with a notice, linted like any other, with
positions counted in characters of the decoded text."""

from __future__ import annotations

import codecs
from pathlib import Path

from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes

from .support import json_output, run_reflint, write_tree

URL = "https://github.com/NVIDIA/Megatron-LM.git"


def test_latin1_utf16_and_bom_files_are_linted_at_character_positions(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    # Each file pins the release branch core_r0.18.0 after non-ASCII text on the same line, so a column
    # counted in bytes would differ from the one counted in characters.
    # "â\u201a" is b"\xe2\x82" in cp1252: the start of a 3-byte UTF-8 sequence, which must count as 2 columns.
    latin1 = f"#!/bin/sh\n# Café crème\necho 'â\u201a déjà vu' && git clone --branch core_r0.18.0 {URL}\n"
    utf16 = f"FROM ubuntu:22.04\nRUN echo '日本語 ünïcode' && git clone --branch core_r0.18.0 {URL}\n"
    crlf = f"FROM ubuntu:22.04\r\nRUN echo 'ß' && \\\r\n    git clone --branch core_r0.18.0 {URL}\r\n"
    write_tree(
        tmp_path,
        {
            "latin1.sh": latin1.encode("cp1252"),
            "Dockerfile.utf16le": codecs.BOM_UTF16_LE + utf16.encode("utf-16-le"),
            "Dockerfile.utf16be": codecs.BOM_UTF16_BE + utf16.encode("utf-16-be"),
            "Dockerfile.utf8bom": codecs.BOM_UTF8 + crlf.encode("utf-8"),
            "Dockerfile.utf32": codecs.BOM_UTF32_LE + utf16.encode("utf-32-le"),
        },
    )
    env = remotes.env()

    refs_run = run_reflint(["refs", "--format", "json"], tmp_path, env)
    scan_run = run_reflint(["scan", "--format", "json", "--cache-dir", str(tmp_path / "c")], tmp_path, env)

    assert [(run.returncode, run.stderr) for run in (refs_run, scan_run)] == [(0, ""), (1, "")]
    refs, scan = json_output(refs_run), json_output(scan_run)
    utf16_column = utf16.split("\n")[1].index("core_r0.18.0") + 1
    latin1_column = latin1.split("\n")[2].index("core_r0.18.0") + 1
    crlf_column = crlf.split("\r\n")[2].index("core_r0.18.0") + 1
    expected = [
        ("Dockerfile.utf16be", 2, utf16_column, utf16_column + 12),
        ("Dockerfile.utf16le", 2, utf16_column, utf16_column + 12),
        ("Dockerfile.utf32", 2, utf16_column, utf16_column + 12),
        ("Dockerfile.utf8bom", 3, crlf_column, crlf_column + 12),
        ("latin1.sh", 3, latin1_column, latin1_column + 12),
    ]
    assert [(p["path"], p["line"], p["column"], p["end_column"]) for p in refs["pins"]] == expected
    assert [p["ref_text"] for p in refs["pins"]] == ["core_r0.18.0"] * 5
    assert [
        (f["path"], f["line"], f["column"], f["end_column"], f["code"], f["message"])
        for f in scan["findings"]
    ] == [(*position, "RL002", MEGATRON_RELEASE_BRANCH) for position in expected]
    assert refs["errors"] == scan["errors"] == []
    assert refs["notices"] == [
        {"path": "Dockerfile.utf16be", "message": "decoded as UTF-16-BE (byte-order mark)"},
        {"path": "Dockerfile.utf16le", "message": "decoded as UTF-16-LE (byte-order mark)"},
        {"path": "Dockerfile.utf32", "message": "decoded as UTF-32-LE (byte-order mark)"},
        {
            "path": "latin1.sh",
            "message": "not valid UTF-8 (first at line 2); undecodable bytes read as U+FFFD",
        },
    ]
