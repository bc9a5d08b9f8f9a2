"""The fix stage's parts on their own: file contents and their encodings, which fixes go together in a
round, the diff's headers, and writing that refuses a file changed meanwhile."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from ascend_reflint.fix.apply import apply_round
from ascend_reflint.fix.contents import ContentError, FileContent
from ascend_reflint.fix.diff import quote_path, unified_diff
from ascend_reflint.fix.rounds import FixOutcome, write_fixed
from ascend_reflint.model import Applicability, Edit, Fix, ScanResult, ScanSummary, Span
from ascend_reflint.scan import ScanRun


def content(tmp_path: Path, data: bytes, name: str = "f") -> FileContent:
    path = tmp_path / name
    path.write_bytes(data)
    return FileContent.read(name, str(path), 1 << 20)


def edit(
    line: int, column: int, end_line: int, end_column: int, text: str, expected: str | None = None
) -> Edit:
    return Edit("f", Span(line, column, end_line, end_column), text, expected)


def test_a_new_line_takes_the_line_end_of_the_line_it_is_on(tmp_path: Path) -> None:
    crlf = content(tmp_path, b"a\r\nb\r\nc")
    crlf.apply([edit(2, 1, 2, 1, "# note\n"), edit(3, 2, 3, 2, "\nd")])
    assert crlf.encoded() == b"a\r\n# note\r\nb\r\nc\r\nd"


def test_bytes_that_are_not_utf8_stay_and_count_one_character_each(tmp_path: Path) -> None:
    latin1 = content(tmp_path, "# M\u00fcller\nv1\n".encode("latin-1"))
    assert latin1.as_read == "# M\ufffdller\nv1\n"
    assert not latin1.holds(edit(2, 1, 2, 3, "v\u00e9", "v1"))  # which encoding? not a guess
    latin1.apply([edit(2, 1, 2, 3, "v2", "v1"), edit(1, 4, 1, 5, "", "\ufffd")])
    assert latin1.encoded() == b"# Mller\nv2\n"


@pytest.mark.parametrize("bom", [codecs.BOM_UTF16_LE, codecs.BOM_UTF32_BE])
def test_utf16_and_utf32_files_are_not_edited(tmp_path: Path, bom: bytes) -> None:
    with pytest.raises(ContentError, match="in UTF-16 or UTF-32"):
        content(tmp_path, bom + "v1\n".encode("utf-16-le"))


def test_an_edit_applies_only_where_the_text_is_what_it_expects(tmp_path: Path) -> None:
    text = content(tmp_path, b"ARG TAG=v1\n")
    assert (text.holds(edit(1, 9, 1, 11, "v2", "v1")), text.holds(edit(1, 9, 1, 11, "v2", "v0"))) == (
        True,
        False,
    )
    assert not text.holds(edit(1, 9, 1, 13, "v2"))  # past the end of the line
    assert not text.holds(edit(3, 1, 3, 1, "x"))


def fix(*edits: Edit) -> Fix:
    return Fix(Applicability.SAFE, "fix", edits)


def test_a_round_takes_fixes_in_order_and_leaves_overlapping_ones_for_the_next(tmp_path: Path) -> None:
    text = content(tmp_path, b"git clone --depth 1 --branch v1 URL\n")
    first = fix(edit(1, 10, 1, 20, ""))  # " --depth 1"
    touching = fix(edit(1, 20, 1, 32, ""))  # " --branch v1": starts where the first ends
    overlapping = fix(edit(1, 18, 1, 22, "x"))
    same_point = [fix(edit(1, 36, 1, 36, " && a")), fix(edit(1, 36, 1, 36, " && b"))]
    twice = fix(edit(1, 10, 1, 20, ""))  # the very edit of `first`: made once

    done = apply_round([first, touching, overlapping, *same_point, twice], {"f": text}, lambda path: text)

    assert (done.applied, done.waiting) == (
        [first, touching, same_point[0], twice],
        [overlapping, same_point[1]],
    )
    assert text.encoded() == b"git clone URL && a\n"


def test_the_diff_names_files_as_git_does_and_marks_a_last_line_without_a_line_end(tmp_path: Path) -> None:
    changed = content(tmp_path, b"a\nv1", "Dockerfile")
    changed.apply([Edit("Dockerfile", Span(2, 1, 2, 3), "v2")])
    assert unified_diff([changed]) == (
        "--- a/Dockerfile\n+++ b/Dockerfile\n@@ -1,2 +1,2 @@\n a\n-v1\n\\ No newline at end of file\n+v2\n"
        "\\ No newline at end of file\n"
    )
    assert [quote_path(path) for path in ("a/docker/Dockerfile", 'a/x"y', "a/caf\u00e9", "a/t\tb")] == [
        "a/docker/Dockerfile",
        '"a/x\\"y"',
        '"a/caf\\303\\251"',
        '"a/t\\tb"',
    ]


def test_a_file_changed_since_it_was_read_is_not_written(tmp_path: Path) -> None:
    changed = content(tmp_path, b"ARG TAG=v1\n")
    changed.apply([edit(1, 9, 1, 11, "v2", "v1")])
    (tmp_path / "f").write_bytes(b"ARG TAG=v3\n")
    run = ScanRun(ScanResult([], [], [], ScanSummary(1, 1, 1, 1, 0)), {})

    errors = write_fixed(FixOutcome(run, {"f": changed}))

    assert [(error.path, error.message) for error in errors] == [
        ("f", "not fixed: it changed while reflint ran")
    ]
    assert (tmp_path / "f").read_bytes() == b"ARG TAG=v3\n"


def test_an_edit_that_a_later_one_undid_is_not_standing_and_one_built_on_is(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_bytes(b"ARG A=v1\nARG B=v1\n")
    content = FileContent.read("Dockerfile", str(path), 1024)
    first = content.apply(
        [Edit("Dockerfile", Span(1, 7, 1, 9), "v22"), Edit("Dockerfile", Span(2, 7, 2, 9), "v2")]
    )
    assert (first, content.standing()) == ([0, 1], {0, 1})
    undone = content.apply([Edit("Dockerfile", Span(1, 7, 1, 10), "v1")])  # back to what the file had
    overwritten = content.apply([Edit("Dockerfile", Span(2, 7, 2, 9), "v3")])
    assert (undone, overwritten, content.standing(), content.encoded()) == (
        [2],
        [3],
        {1, 3},
        b"ARG A=v1\nARG B=v3\n",
    )
