"""Instruction boundaries checked against an independent parser: dockerfile-parse's ``structure``.

For every Dockerfile fixture of the suite (each Dockerfile file under ``tests/``, and each Dockerfile text
that the Dockerfile extractor's tests write inline), the instructions reflint reads (keyword, first line,
last line, heredocs included) must be the ones dockerfile-parse lists, except where dockerfile-parse departs
from BuildKit in one of the known ways below. From the first instruction such a departure touches on, a
fixture is compared no further, and that instruction must differ (the expected difference is real).

ARG and ENV values are not compared: dockerfile-parse reports only the last stage's (its issue #116).
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from dockerfile_parse import DockerfileParser

from ascend_reflint.extract.dockerfile.lines import Instruction, parse

TESTS = Path(__file__).resolve().parents[1]

#: (keyword, first line, last line), lines 1-based.
Boundary = tuple[str, int, int]


def _has_heredoc(instruction: Instruction, lines: list[str], escape: str) -> bool:
    return bool(instruction.heredocs)


def _has_empty_continuation_line(instruction: Instruction, lines: list[str], escape: str) -> bool:
    first, last = instruction.line, _last_line(instruction)
    return any(not line.strip() for line in lines[first : last - 1])


def _ends_in_escaped_escape(instruction: Instruction, lines: list[str], escape: str) -> bool:
    return lines[_last_line(instruction) - 1].rstrip(" \t\r").endswith(escape * 2)


def _follows_a_byte_order_mark(instruction: Instruction, lines: list[str], escape: str) -> bool:
    return instruction.line == 1 and lines[0].startswith("\ufeff")


#: dockerfile-parse 2.0's known departures from BuildKit: name → (what it does, a test of whether an
#: instruction, given the file's lines and escape token, is one it touches).
KNOWN_DIFFERENCES: dict[str, tuple[str, Callable[[Instruction, list[str], str], bool]]] = {
    "heredoc": (
        "reads heredoc bodies and their terminators as instructions (dockerfile-parse issue #145)",
        _has_heredoc,
    ),
    "empty continuation line": (
        "ends an instruction at an empty line inside its continuation, which BuildKit skips with the warning "
        "'Empty continuation line'",
        _has_empty_continuation_line,
    ),
    "escaped escape token": (
        "continues a line that ends in an escaped escape token (\\\\), which BuildKit's line-continuation "
        "pattern does not",
        _ends_in_escaped_escape,
    ),
    "byte-order mark": (
        "keeps a UTF-8 byte-order mark in the first instruction's keyword; BuildKit drops it",
        _follows_a_byte_order_mark,
    ),
}


def _last_line(instruction: Instruction) -> int:
    if instruction.heredocs:
        return instruction.heredocs[-1].end_line
    logical = instruction.logical
    return logical.position(len(logical.text) - 1)[0] if logical.text else logical.first_line


def reflint_boundaries(text: str) -> tuple[list[Boundary], list[tuple[int, str]]]:
    """The instructions as reflint reads them, and the known differences: (first line touched, name)."""
    parsed = parse(text)
    lines = text.split("\n")
    boundaries = [(item.keyword, item.line, _last_line(item)) for item in parsed.instructions]
    touched = [
        (instruction.line, name)
        for instruction in parsed.instructions
        for name, (_what, touches) in KNOWN_DIFFERENCES.items()
        if touches(instruction, lines, parsed.escape)
    ]
    if parsed.error is not None:  # Docker refuses the file: there is nothing to compare from that line on
        error_line = int(re.match(r"line (\d+):", parsed.error).group(1))  # type: ignore[union-attr]
        touched.append((error_line, "refused by Docker"))
    return boundaries, sorted(touched)


def oracle_boundaries(text: str) -> list[Boundary]:
    """The instructions as dockerfile-parse reads them (comments left out)."""
    parser = DockerfileParser(fileobj=io.BytesIO(text.encode("utf-8")))
    return [
        (item["instruction"], item["startline"] + 1, item["endline"] + 1)
        for item in parser.structure
        if item["instruction"] != "COMMENT"
    ]


def dockerfile_fixtures() -> dict[str, str]:
    """Every Dockerfile fixture of the suite: id → text."""
    fixtures: dict[str, str] = {}
    for path in sorted(TESTS.rglob("*")):
        name = path.name
        if path.is_file() and (
            name.startswith(("Dockerfile", "Containerfile")) or name.endswith(".dockerfile")
        ):
            # Read as reflint reads them: a Latin-1 fixture (tests/fix) has one U+FFFD per byte.
            fixtures[str(path.relative_to(TESTS))] = path.read_bytes().decode("utf-8", "replace")
    first_instruction = re.compile(r"\ufeff?\s*(FROM|ARG)\s")
    for path in sorted((TESTS / "extract").glob("test_dockerfile*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            text = textwrap.dedent(node.value).lstrip("\n")  # as the tests' extract() helper reads it
            code = [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith("#")]
            if code and first_instruction.match(code[0]):
                fixtures[f"{path.relative_to(TESTS)}:{node.lineno}"] = text
    return fixtures


FIXTURES = dockerfile_fixtures()


def test_the_fixtures_are_found() -> None:
    assert {
        "cli/data/inventory/docker/Dockerfile.npu",
        "hostile/data/verl-shaped/docker/rocm/Dockerfile.rocm",
    } < set(FIXTURES)
    # The texts written in the Dockerfile extractor's tests: each of its test files holds some.
    assert {name.split(":")[0] for name in FIXTURES if ":" in name} == {
        str(path.relative_to(TESTS)) for path in (TESTS / "extract").glob("test_dockerfile*.py")
    }


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_instruction_boundaries_agree_with_dockerfile_parse(name: str) -> None:
    text = FIXTURES[name]
    ours, touched = reflint_boundaries(text)
    theirs = oracle_boundaries(text)
    if not touched:
        assert ours == theirs
        return
    first_touched = touched[0][0]
    assert [b for b in ours if b[1] < first_touched] == [b for b in theirs if b[1] < first_touched]
    if touched[0][1] != "refused by Docker":
        assert [b for b in ours if b[1] == first_touched] != [b for b in theirs if b[1] == first_touched]


@pytest.mark.parametrize(
    ("name", "text", "theirs"),
    [
        (
            "heredoc",
            "FROM a\nRUN <<EOF\ngit clone u\nEOF\n",
            [("FROM", 1, 1), ("RUN", 2, 2), ("GIT", 3, 3), ("EOF", 4, 4)],
        ),
        (
            "empty continuation line",
            "FROM a\nRUN a \\\n\n  b\n",
            [("FROM", 1, 1), ("RUN", 2, 3), ("B", 4, 4)],
        ),
        ("escaped escape token", "FROM a\nRUN a \\\\\nRUN b\n", [("FROM", 1, 1), ("RUN", 2, 3)]),
        ("byte-order mark", "\ufeffFROM a\n", [("\ufeffFROM", 1, 1)]),
    ],
)
def test_each_known_difference_is_still_dockerfile_parses(
    name: str, text: str, theirs: list[Boundary]
) -> None:
    ours, touched = reflint_boundaries(text)
    assert oracle_boundaries(text) == theirs
    assert ours != theirs
    assert [difference for _line, difference in touched] == [name]
