"""Where TOML strings are written (ascend_reflint.extract.tomlpos): every string form, every way to name a
key, checked against what ``tomllib`` reads, by hand and over generated documents."""

from __future__ import annotations

import sys
import textwrap
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_reflint.extract.tomlpos import KeyPath, toml_strings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def located(text: str) -> dict[KeyPath, tuple[str, str]]:
    """Key path → (value, the file's text from the value's first character to its last)."""
    found = {}
    for string in toml_strings(text):
        begin, end = string.region()
        found[string.path] = (string.value, text[begin:end])
    return found


def string_leaves(data: Any, path: KeyPath = ()) -> dict[KeyPath, str]:
    """Every string in ``tomllib``'s reading of a document, by key path."""
    if isinstance(data, str):
        return {path: data}
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    leaves: dict[KeyPath, str] = {}
    for key, value in items:
        leaves.update(string_leaves(value, (*path, key)))
    return leaves


def assert_agrees_with_tomllib(text: str) -> None:
    """Same strings at the same key paths as ``tomllib``, and each character's file text decodes to it."""
    strings = toml_strings(text)
    assert {s.path: s.value for s in strings} == string_leaves(tomllib.loads(text))
    for string in strings:
        for char, start, end in zip(string.value, string.starts, string.ends, strict=True):
            raw = text[start:end]
            assert raw == char or tomllib.loads(f'x = "{raw}"')["x"] == char, (string.path, raw, char)


DOCUMENT = textwrap.dedent(
    '''\
    # a comment with "a string" in it
    title = "basic \\"quoted\\" \\u00e9\\U0001F600 \\t" # trailing "comment"
    literal = 'C:\\path #not a comment'
    multi = """
    first line
      second \\
        joined"""
    multi_literal = \'\'\'
    raw \\n ''quotes'' \'\'\'
    quote_before_end = """ends with two quotes"\""""
    empty = ""
    date = 1979-05-27 07:32:00Z
    number = 3
    "quoted key" = "q"
    'literal key' = "l"
    a.b . "c.d" = "dotted"

    [tool.uv.sources]
    flash_mla = [
        { git = "https://github.com/deepseek-ai/FlashMLA", rev = "nv_dev" }, # "no"
        # { git = "https://github.com/o/commented" },
    ]
    deep_gemm = { git = "https://github.com/deepseek-ai/DeepGEMM.git", tag = "v1" }

    [ "tool" . poetry.dependencies ]
    x = {git="git@github.com:o/x.git",branch='main'}

    [[repos]]
    name = "first"
    [[repos]]
    name = "second"
    [repos.sub]
    key = "in the second repo"
    [[repos.hooks]]
    id = "hook of the second repo"
    '''
)


def test_every_form_is_located_and_agrees_with_tomllib() -> None:
    assert_agrees_with_tomllib(DOCUMENT)
    found = located(DOCUMENT)
    assert found[("title",)] == ('basic "quoted" é😀 \t', 'basic \\"quoted\\" \\u00e9\\U0001F600 \\t')
    assert found[("literal",)] == ("C:\\path #not a comment", "C:\\path #not a comment")
    assert found[("multi",)] == ("first line\n  second joined", "first line\n  second \\\n    joined")
    assert found[("multi_literal",)] == ("raw \\n ''quotes'' ", "raw \\n ''quotes'' ")
    assert found[("quote_before_end",)] == ('ends with two quotes""', 'ends with two quotes""')
    assert found[("empty",)] == ("", '""')  # an empty string is shown on its quotes
    assert found[("a", "b", "c.d")] == ("dotted", "dotted")
    assert found[("tool", "uv", "sources", "flash_mla", 0, "rev")] == ("nv_dev", "nv_dev")
    assert found[("tool", "poetry", "dependencies", "x", "branch")] == ("main", "main")
    assert found[("repos", 1, "sub", "key")][0] == "in the second repo"
    assert found[("repos", 1, "hooks", 0, "id")][0] == "hook of the second repo"
    assert ("tool", "uv", "sources", "flash_mla", 1, "git") not in found


def test_offsets_point_at_the_file_characters() -> None:
    text = 'k = "a\\u0062c"\n'
    (string,) = toml_strings(text)
    assert (string.starts, string.ends, string.literal) == ((5, 6, 12), (6, 12, 13), (4, 14))
    assert string.region(1, 2) == (6, 12)


def test_crlf_line_ends() -> None:
    text = '[tool.uv]\r\n[[tool.uv.index]]\r\nname = "a"\r\n[tool.uv.sources.t]\r\nt = "x"\r\n'
    assert_agrees_with_tomllib(text)
    assert located(text)[("tool", "uv", "sources", "t", "t")] == ("x", "x")


def test_text_that_is_not_toml_ends_without_error() -> None:
    for broken in ('k = "open', "[unclosed", "= 1", 'a = [1, "x"', "a = {b = ", "\\"):
        toml_strings(broken)


_BARE = st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True)
_ANY_KEY = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=6)
_STRING = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@st.composite
def toml_documents(draw: st.DrawFn) -> str:
    """A document with random keys and strings, written in every string and key form, with comments,
    inline tables, arrays, ``[table]`` and ``[[array of tables]]`` headers."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        lines.append(f"{key(draw)} = {value(draw, 2)}{comment(draw)}")
    for _ in range(draw(st.integers(0, 3))):
        header = ".".join(key(draw) for _ in range(draw(st.integers(1, 2))))
        double = draw(st.booleans())
        lines.append(f"[[z.{header}]]" if double else f"[t.{header}]")
        lines.extend(f"{key(draw)} = {value(draw, 2)}{comment(draw)}" for _ in range(draw(st.integers(0, 3))))
    text = "\n".join(lines) + "\n"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:  # a key drawn twice: not a document
        return 'k = "v"\n'
    return text


def key(draw: st.DrawFn) -> str:
    choice = draw(st.sampled_from(["bare", "basic", "literal"]))
    if choice == "bare":
        return draw(_BARE)
    name = draw(_ANY_KEY)
    if choice == "literal" and "'" not in name and not any(c in name for c in "\n\r"):
        return f"'{name}'"
    return basic(name, draw)


def value(draw: st.DrawFn, depth: int) -> str:
    kinds = ["string", "string", "number"] + (["array", "table"] if depth else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "number":
        return str(draw(st.integers(-5, 5)))
    if kind == "array":
        items = [value(draw, depth - 1) for _ in range(draw(st.integers(0, 3)))]
        return "[\n  " + ",  # c\n  ".join(items) + ("," if items and draw(st.booleans()) else "") + "\n]"
    if kind == "table":
        pairs = [
            f"{key(draw)}{draw(_KEY_TAIL)} = {value(draw, depth - 1)}" for _ in range(draw(st.integers(0, 2)))
        ]
        return "{ " + ", ".join(pairs) + " }"
    return string(draw)


_KEY_TAIL = st.sampled_from(["", ".inner", ' . "q.d"'])


def string(draw: st.DrawFn) -> str:
    text = draw(_STRING)
    form = draw(st.sampled_from(["basic", "literal", "multi", "multi_literal"]))
    printable = all(c in "\t\n" or (ord(c) >= 32 and c != "\x7f") for c in text)
    if form == "literal" and printable and "'" not in text and "\n" not in text:
        return f"'{text}'"
    if form == "multi_literal" and printable and "'''" not in text and not text.endswith("'"):
        return f"'''{text}'''"
    if form == "multi":
        escaped = basic(text, draw)[1:-1].replace("\\n", "\n")
        return f'"""{escaped}"""' if not escaped.endswith('"') else f'"""{escaped}\\u0020"""'
    return basic(text, draw)


def basic(text: str, draw: st.DrawFn) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif ord(char) < 32 or char == "\x7f":
            out.append(f"\\u{ord(char):04x}")
        elif draw(st.integers(0, 9)) == 0:
            out.append(f"\\U{ord(char):08X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def comment(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(["", '  # "not a string"', " #"]))


@settings(max_examples=300, deadline=None)
@given(toml_documents())
def test_generated_documents_agree_with_tomllib(text: str) -> None:
    assert_agrees_with_tomllib(text)
