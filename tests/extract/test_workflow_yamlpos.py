"""YAML nodes with positions and value-to-file maps (ascend_reflint.extract.yamlpos)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from ascend_reflint.extract import ExtractError, yamlpos
from ascend_reflint.extract.yamlpos import (
    LineIndex,
    YamlMapping,
    YamlScalar,
    YamlSequence,
    parse_yaml,
    scalar_source_map,
)
from ascend_reflint.model import Span


@pytest.fixture(autouse=True, params=["libyaml", "ruamel"])
def yaml_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs with libyaml's parser (when PyYAML has it) and with ruamel.yaml's."""
    if request.param == "ruamel":
        monkeypatch.setattr(yamlpos, "LibyamlLoader", None)
    elif yamlpos.LibyamlLoader is None:
        pytest.skip("PyYAML with libyaml is not installed")
    return str(request.param)


def _scalar(text: str, key: str = "run") -> YamlScalar:
    root = parse_yaml(text)
    assert isinstance(root, YamlMapping)
    node = root.get(key)
    assert isinstance(node, YamlScalar)
    return node


def _span_of(text: str, word: str, key: str = "run", occurrence: int = 0) -> Span:
    """The file span that the map gives for ``word`` (its ``occurrence``-th time) in the value of ``key``."""
    node = _scalar(text, key)
    start = -1
    for _ in range(occurrence + 1):
        start = node.value.index(word, start + 1)
    return scalar_source_map(text, node, LineIndex(text)).span(start, start + len(word))


def test_literal_block_lines_sit_below_the_indicator_at_the_block_indentation() -> None:
    text = "run: |\n  echo a\n  git clone -b v1 u\n"
    assert _span_of(text, "v1") == Span(3, 16, 3, 18)


def test_literal_block_with_comment_after_indicator_and_blank_lines() -> None:
    text = "run: |-  # a comment | >\n\n  echo a\n\n\n  git clone -b v1 u\nnext: x\n"
    assert _scalar(text).value == "\necho a\n\n\ngit clone -b v1 u"
    assert _span_of(text, "v1") == Span(6, 16, 6, 18)


def test_literal_keep_chomping_and_explicit_indentation_indicator() -> None:
    text = "steps:\n  - run: |2+\n        indented more\n      git clone -b v2 u\n\n"
    root = parse_yaml(text)
    assert isinstance(root, YamlMapping)
    steps = root.get("steps")
    assert isinstance(steps, YamlSequence) and isinstance(steps.items[0], YamlMapping)
    node = steps.items[0].get("run")
    assert isinstance(node, YamlScalar)
    assert node.value == "  indented more\ngit clone -b v2 u\n\n"
    source_map = scalar_source_map(text, node, LineIndex(text))
    start = node.value.index("v2")
    assert source_map.span(start, start + 2) == Span(4, 20, 4, 22)
    assert source_map.position(node.value.index("indented")) == (3, 9)


def test_folded_block_maps_each_word_to_its_own_line() -> None:
    text = "run: >\n  git clone\n  -b v3\n\n  u\n"
    assert _scalar(text).value == "git clone -b v3\nu\n"
    assert _span_of(text, "v3") == Span(3, 6, 3, 8)
    assert _span_of(text, "u") == Span(5, 3, 5, 4)


def test_plain_multi_line_scalar_maps_each_word_to_its_own_line() -> None:
    text = "run: git clone\n   -b v4\n   https://h/o/r\n"
    assert _scalar(text).value == "git clone -b v4 https://h/o/r"
    assert _span_of(text, "v4") == Span(2, 7, 2, 9)
    assert _span_of(text, "https://h/o/r") == Span(3, 4, 3, 17)


def test_double_quoted_escapes_and_line_continuation() -> None:
    text = 'run: "a\\"b \\\n    git clone -b v5\\tu"\n'
    assert _scalar(text).value == 'a"b git clone -b v5\tu'
    assert _span_of(text, "v5") == Span(2, 18, 2, 20)
    assert _span_of(text, 'a"b') == Span(1, 7, 1, 11)  # the escape's two characters count


def test_every_yaml_escape_is_as_wide_as_written() -> None:
    escapes = '\\0\\a\\b\\t\\\t\\n\\v\\f\\r\\e\\ \\"\\/\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F600'
    text = f'run: "{escapes} v9"\n'
    assert _scalar(text).value == '\0\a\b\t\t\n\v\f\r\x1b "/\\\x85\xa0\u2028\u2029A\u00e9\U0001f600 v9'
    assert _span_of(text, "v9") == Span(1, 7 + len(escapes) + 1, 1, 7 + len(escapes) + 3)


@pytest.mark.parametrize("yaml_backend", ["libyaml"], indirect=True)  # a question about libyaml only
def test_ruamel_yaml_is_not_imported_while_libyaml_parses(yaml_backend: str) -> None:
    code = (
        "import sys\n"
        "from ascend_reflint.extract.yamlpos import parse_yaml\n"
        "parse_yaml('a: [1, \"\\\\x41\"]')\n"
        "print(sorted(name for name in sys.modules if name.startswith('ruamel')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout == "[]\n"


def test_escaped_tab_after_a_folded_line_break() -> None:
    text = 'run: "x\\\\\n  \\tgit -b v1"\n'
    assert _scalar(text).value == "x\\ \tgit -b v1"
    assert _span_of(text, "v1") == Span(2, 12, 2, 14)


def test_single_quoted_doubled_quote() -> None:
    text = "run: 'it''s -b v6'\n"
    assert _scalar(text).value == "it's -b v6"
    assert _span_of(text, "v6") == Span(1, 16, 1, 18)


def test_anchor_and_tag_before_the_value_are_skipped() -> None:
    text = 'run: &x !!str "git -b v7"\nother: *x\n'
    assert _span_of(text, "v7") == Span(1, 23, 1, 25)
    assert _span_of(text, "v7", key="other") == Span(1, 23, 1, 25)


def test_alias_is_the_anchored_node_itself() -> None:
    root = parse_yaml("a: &x {k: v}\nb: *x\n")
    assert isinstance(root, YamlMapping)
    assert root.get("a") is root.get("b")


def test_crlf_line_ends() -> None:
    text = "a: 1\r\nrun: |\r\n  echo\r\n  git -b v8 u\r\n"
    assert _span_of(text, "v8") == Span(4, 10, 4, 12)


def test_columns_count_characters_not_bytes() -> None:
    text = 'run: "é\\u00e9 -b v9"\n'
    assert _span_of(text, "v9") == Span(1, 18, 1, 20)


def test_unalignable_value_maps_to_the_value_start() -> None:
    text = "run: plain words here\n"
    forged = YamlScalar("something else entirely", None, 5, 21)
    source_map = scalar_source_map(text, forged, LineIndex(text))
    assert source_map.span(10, 14) == Span(1, 6, 1, 7)


def test_scalars_are_text_as_written() -> None:
    root = parse_yaml("a: true\nb: 1\nc: 0x10\nd: ~\n")
    assert isinstance(root, YamlMapping)
    values = [value.value for _, value in root.pairs if isinstance(value, YamlScalar)]
    assert values == ["true", "1", "0x10", "~"]


def test_empty_stream_has_no_root() -> None:
    assert parse_yaml("# only a comment\n") is None


@pytest.mark.parametrize(
    ("text", "ruamel_message", "libyaml_message"),
    [
        (
            "a: b\n  c: d\n",
            "line 2, column 4: malformed YAML: mapping values are not allowed here",
            "line 2, column 4: malformed YAML: mapping values are not allowed in this context",
        ),
        (
            "a: [1, 2\nb: c\n",
            "line 1, column 4: malformed YAML: '[' is never closed: at line 2, column 2, expected ',' or "
            "']', but got ':'",
            "line 1, column 4: malformed YAML: '[' is never closed: at line 2, column 2, did not find "
            "expected ',' or ']'",
        ),
        (
            "a: *nowhere\n",
            "line 1, column 4: malformed YAML: alias *nowhere names no anchor before it",
            "line 1, column 4: malformed YAML: alias *nowhere names no anchor before it",
        ),
        (
            "a: 1\n---\nb: 2\n",
            "line 2, column 1: a second YAML document; a workflow or action file holds one",
            "line 2, column 1: a second YAML document; a workflow or action file holds one",
        ),
        (
            "a: \x07\n",
            "line 1, column 4: malformed YAML: special characters are not allowed",
            "line 1, column 4: malformed YAML: control characters are not allowed",
        ),
    ],
)
def test_malformed_yaml_names_the_line(
    text: str, ruamel_message: str, libyaml_message: str, yaml_backend: str
) -> None:
    with pytest.raises(ExtractError) as caught:
        parse_yaml(text)
    assert str(caught.value) == (ruamel_message if yaml_backend == "ruamel" else libyaml_message)


def test_deep_nesting_is_refused_early(yaml_backend: str) -> None:
    with pytest.raises(ExtractError) as caught:
        parse_yaml("a: " + "[" * 100 + "]" * 100 + "\n")
    assert str(caught.value) == "line 1, column 103: nested deeper than 100 levels; a workflow never is"
    # libyaml stops at its own limit of 1,000 levels before reflint sees the 101st.
    with pytest.raises(ExtractError) as caught:
        parse_yaml("a: " + "[" * 50_000 + "]" * 50_000 + "\n")
    assert (
        str(caught.value)
        == {
            "libyaml": "line 1, column 1003: malformed YAML: exceeded maximum nesting depth",
            "ruamel": "line 1, column 103: nested deeper than 100 levels; a workflow never is",
        }[yaml_backend]
    )


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f'a: !!python/object/apply:os.system ["touch {marker}"]\nb: !!python/name:os.system x\n'
    root = parse_yaml(text)
    assert not marker.exists()
    assert isinstance(root, YamlMapping)
    command = root.get("a")
    assert isinstance(command, YamlSequence)
    assert [item.value for item in command.items if isinstance(item, YamlScalar)] == [f"touch {marker}"]


def test_alias_bomb_costs_linear_memory() -> None:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]" for n in range(1, 30)]
    root = parse_yaml("\n".join(lines) + "\n")
    assert isinstance(root, YamlMapping)
    top = root.get("l29")
    assert isinstance(top, YamlSequence)
    assert len({id(item) for item in top.items}) == 1  # ten references to one node, 10**30 "lol"s never made


_STYLES = {
    "plain": str,
    "double": DoubleQuotedScalarString,
    "single": SingleQuotedScalarString,
    "literal": LiteralScalarString,
    "folded": FoldedScalarString,
}


def _backend_reads(text: str, backend: str) -> object:
    """What the parser that ``parse_yaml`` wraps (libyaml or ruamel.yaml) reads from ``text``, as plain
    Python values; None when it cannot read it."""
    try:
        if backend == "libyaml":
            return yaml.load(text, Loader=yaml.CSafeLoader)
        return YAML(typ="safe", pure=True).load(text)
    except Exception:  # any error of the parser: the text is not one this test can use
        return None


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.text(alphabet="ab $'\"\\#:-{}\t\né", max_size=40),
    style=st.sampled_from(sorted(_STYLES)),
    width=st.integers(min_value=8, max_value=60),
)
def test_every_spelled_character_maps_to_itself(
    value: str, style: str, width: int, yaml_backend: str
) -> None:
    """Whatever ruamel.yaml writes, each non-blank value character maps to that character in the file (or to
    the backslash of its escape)."""
    dumper = YAML()
    dumper.width = width
    written = io.StringIO()
    try:
        dumper.dump({"k": [_STYLES[style](value)]}, written)
    except ValueError:
        reject()  # a value that the style cannot hold
    text = written.getvalue()
    if _backend_reads(text, yaml_backend) != {"k": [value]}:
        reject()  # ruamel.yaml wrote what the parser itself reads otherwise: nothing to compare with
    root = parse_yaml(text)
    assert isinstance(root, YamlMapping)
    items = root.get("k")
    assert isinstance(items, YamlSequence) and isinstance(items.items[0], YamlScalar)
    node = items.items[0]
    assert node.value == value, text
    line_starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
    source_map = scalar_source_map(text, node, LineIndex(text))
    for offset, char in enumerate(node.value):
        if char in " \t\n":
            continue
        line, column = source_map.position(offset)
        found = text[line_starts[line - 1] + column - 1]
        assert found == char or (node.style == '"' and found == "\\"), (text, offset)
