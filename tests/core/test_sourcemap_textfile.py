"""Offset maps and lenient decoding (ascend_reflint.sourcemap, ascend_reflint.textfile)."""

import codecs
import os
from pathlib import Path

import pytest

from ascend_reflint.model import Span
from ascend_reflint.sourcemap import SourceMap
from ascend_reflint.textfile import FileReadError, read_text


def test_identity_map_counts_lines_and_columns() -> None:
    source_map = SourceMap.identity("ab\ncd\n", first_line=5, first_column=3)
    assert source_map.position(0) == (5, 3)
    assert source_map.position(4) == (6, 2)
    assert source_map.span(3, 5) == Span(6, 1, 6, 3)


def test_joined_continuation_maps_each_piece_back() -> None:
    # "RUN git clone \\\n    -b v1 URL" joined as Docker does: the second line follows the first directly.
    source_map = SourceMap()
    source_map.add(0, 1, 5)  # "git clone " from line 1, column 5
    source_map.add(10, 2, 1)  # "    -b v1 URL" from line 2
    assert source_map.span(17, 19) == Span(2, 8, 2, 10)


def test_utf8_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "a.sh"
    path.write_bytes(codecs.BOM_UTF8 + b"git clone x\r\ncd x\r\n")
    assert read_text(str(path)) == ("git clone x\ncd x\n", None)


def test_utf16_with_bom_is_text(tmp_path: Path) -> None:
    path = tmp_path / "a.sh"
    path.write_bytes(codecs.BOM_UTF16_LE + "git clone -b v1 u\n".encode("utf-16-le"))
    assert read_text(str(path)) == ("git clone -b v1 u\n", "decoded as UTF-16-LE (byte-order mark)")


def test_latin1_comment_is_read_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "a.sh"
    path.write_bytes(b"# caf\xe9\ngit clone -b v1 u\n")
    assert read_text(str(path)) == (
        "# caf\ufffd\ngit clone -b v1 u\n",
        "not valid UTF-8 (first at line 1); undecodable bytes read as U+FFFD",
    )


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: p.write_bytes(b"\x7fELF\0\0"), "binary file (holds NUL bytes)"),
        (
            lambda p: p.write_bytes(b"x" * 11),
            "file is 11 bytes, over the limit of 10 (raise it with --max-file-size)",
        ),
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: None, "file not found (deleted or a broken symlink)"),
        (lambda p: os.symlink(p, p), "symlink loop"),
    ],
)
def test_unreadable_files_raise_a_clear_error(tmp_path: Path, setup, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "f"
    setup(path)
    with pytest.raises(FileReadError) as caught:
        read_text(str(path), max_bytes=10)
    assert str(caught.value) == message
