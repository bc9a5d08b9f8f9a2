"""ascend_reflint.output: what reflint writes never holds a workflow command it did not mean, however the
text is cut into writes; reflint's own annotations and byte-exact text get through as meant."""

from __future__ import annotations

import io
import itertools
import json
import stat
from pathlib import Path

import pytest
from hostile.runner_commands import foreign_commands, obeyed
from hypothesis import given
from hypothesis import strategies as st

from ascend_reflint.output import (
    Channel,
    guard_text,
    json_text,
    replacing,
    shown,
    workflow_command,
    write_file,
    write_json,
)

#: Pieces that make commands, white space the runner trims, and line ends (a lone CR among them).
PIECES = ["::", ":", "##[", "#", "[", "]", " ", "\t", "\u00a0", "\u3000", "\r", "\n", "\r\n", "error", "x"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


def _written(chunks: list[str]) -> str:
    buffer = io.StringIO()
    channel = Channel(buffer, environ={})
    for chunk in chunks:
        channel.write(chunk)
    channel.close()
    return buffer.getvalue()


def _cut(text: str, cuts: list[int]) -> list[str]:
    points = sorted({0, len(text), *(cut % (len(text) + 1) for cut in cuts)})
    return [text[start:end] for start, end in itertools.pairwise(points)]


@given(TEXTS, st.lists(st.integers(min_value=0), max_size=8))
def test_no_command_survives_however_the_text_is_cut_into_writes(text: str, cuts: list[int]) -> None:
    written = _written(_cut(text, cuts))

    assert written == guard_text(text)
    assert obeyed(written) == []
    # Nothing is lost: the escapes read back as the text (the pieces hold no backslash of their own).
    assert written.replace("\\x3a", ":").replace("#\\x23[", "##[") == text


def test_a_command_at_a_line_start_is_escaped_and_one_inside_a_line_is_left() -> None:
    text = "  ::error::a\r::warning::b\nok ::notice::c\n\u2003::debug::d"
    assert guard_text(text) == "  \\x3a:error::a\r\\x3a:warning::b\nok ::notice::c\n\u2003\\x3a:debug::d"


def test_own_annotations_are_written_as_they_are_and_on_a_line_of_their_own() -> None:
    buffer = io.StringIO()
    channel = Channel(buffer, environ={})
    channel.write("text without a line end")
    command = workflow_command("error", [("file", "a::b,c.sh"), ("title", "RL001 x")], ["m", "n"])
    channel.write_command(command)

    assert buffer.getvalue() == "text without a line end\n::error file=a%3A%3Ab%2Cc.sh,title=RL001 x::m%0An\n"
    assert [(c.name, c.properties, c.data) for c in obeyed(buffer.getvalue())] == [
        ("error", {"file": "a::b,c.sh", "title": "RL001 x"}, "m\nn")
    ]


def test_exact_text_is_wrapped_in_stop_commands_only_under_actions() -> None:
    diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-::error::old\n+##[warning]new\n"
    outside, inside = io.StringIO(), io.StringIO()

    Channel(outside, environ={}).write_exact(diff)
    Channel(inside, environ={"GITHUB_ACTIONS": "true"}).write_exact(diff)

    assert outside.getvalue() == diff
    first, *middle, last = inside.getvalue().split("\n")[:-1]
    token = first.removeprefix("::stop-commands::")
    assert len(token) == 32 and "\n".join(middle) + "\n" == diff and last == f"::{token}::"
    assert [c.name for c in obeyed(inside.getvalue())] == ["stop-commands", token]


def test_shown_escapes_what_cannot_be_seen_and_masks_credentials() -> None:
    assert shown("a\rb\u00adc\ufe0fd\u2028e\U000e0100\tf") == "a\\x0db\\xadc\\ufe0fd\\u2028e\\U000e0100\tf"
    assert shown("https://u:secret@h/x") == "https://u:***@h/x"


def test_json_keeps_the_exact_text_and_no_command_in_its_lines() -> None:
    document = {"ref": "v1##[error]x", "path": "::error::y\n##[z", "soft": "#\u00ad#["}
    text = json_text(document)

    assert '"v1#\\u0023[error]x"' in text and "##[" not in text
    assert '"soft": "#\\u00ad#["' in text
    assert foreign_commands(text) == []

    assert json.loads(text) == document


#: JSON values as findings hold them: nested objects and arrays, empty ones, text to escape or mask.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXTS | st.sampled_from(["https://u:pw@h/x", "\u202e", "é"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXTS, children, max_size=3),
    max_leaves=12,
)


@given(st.lists(JSON_VALUES, max_size=4), st.integers(min_value=0, max_value=3))
def test_a_streamed_array_is_written_as_the_whole_document_would_be(items: list[object], depth: int) -> None:
    def document(array: object) -> object:
        for level in range(depth):  # the array at some depth, with keys before and after it
            array = {"before": ["#", {"x": level}], f"array{level}": array, "after": {"y": []}}
        return array

    buffer = io.StringIO()
    write_json(buffer, document(iter(items)))
    assert buffer.getvalue() == json_text(document(items))


def test_write_json_writes_a_document_without_an_iterator_whole_and_refuses_a_second_one() -> None:
    buffer = io.StringIO()
    write_json(buffer, {"a": [1], "b": "c"})
    assert buffer.getvalue() == '{\n  "a": [\n    1\n  ],\n  "b": "c"\n}\n'
    with pytest.raises(TypeError, match="generator is not JSON"):
        write_json(io.StringIO(), {"a": iter([1]), "b": (n for n in [2])})


def test_write_file_keeps_an_existing_files_mode_and_replaces_a_link(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    target = tmp_path / "target.txt"
    target.write_text("target")
    (tmp_path / "link.txt").symlink_to(target)

    write_file(str(kept), "new\n")
    write_file(str(tmp_path / "link.txt"), "through? no\n")

    assert (kept.read_text(), stat.S_IMODE(kept.stat().st_mode)) == ("new\n", 0o640)
    assert (target.read_text(), (tmp_path / "link.txt").is_symlink()) == ("target", False)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept.txt", "link.txt", "target.txt"]


def test_a_file_written_as_it_comes_replaces_the_target_only_when_it_is_whole(tmp_path: Path) -> None:
    report = tmp_path / "report.sarif"
    report.write_text("the last report\n")

    with pytest.raises(RuntimeError, match="the render failed"), replacing(str(report)) as handle:
        handle.write(b"half a report")
        raise RuntimeError("the render failed")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.sarif"]
    assert report.read_text() == "the last report\n"

    with replacing(str(report)) as handle:
        handle.write(b"a whole ")
        handle.write(b"report\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.sarif"]
    assert report.read_text() == "a whole report\n"
