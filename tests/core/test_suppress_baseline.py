"""Inline suppression comments and the baseline file (ascend_reflint.suppress, ascend_reflint.baseline)."""

import json
from pathlib import Path

import pytest

from ascend_reflint.baseline import BaselineError, apply_baseline, write_baseline
from ascend_reflint.model import FileKind, Finding, Related, Severity, SourceFile, Span
from ascend_reflint.suppress import Suppression, apply_suppressions, find_suppressions, unused

DOCKERFILE = """FROM ubuntu
RUN git clone -b core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git && \\
    # reflint: ignore[RL002, rl013] release branch on purpose
    git clone -b nope https://github.com/o/r.git
RUN git clone -b x https://github.com/o/s.git  # reflint: ignore
# reflint: ignore[RL001]
"""


def _finding(code: str, line: int, path: str = "Dockerfile", ref: str = "x") -> Finding:
    return Finding(code, "rule", Severity.ERROR, path, Span(line, 5, line, 9), "m", "github.com/o/r", ref)


def _source() -> SourceFile:
    return SourceFile("Dockerfile", "/x/Dockerfile", FileKind.DOCKERFILE, text=DOCKERFILE)


def test_pragmas_are_found_with_codes_and_positions() -> None:
    assert find_suppressions(_source()) == [
        Suppression("Dockerfile", Span(3, 5, 3, 36), frozenset({"RL002", "RL013"})),
        Suppression("Dockerfile", Span(5, 48, 5, 65), None),
        Suppression("Dockerfile", Span(6, 1, 6, 25), frozenset({"RL001"})),
    ]


def test_pragma_covers_its_line_and_the_next_only_for_named_codes() -> None:
    suppressions = find_suppressions(_source())
    findings = [_finding("RL002", 2), _finding("RL002", 4), _finding("RL001", 4), _finding("RL015", 5)]
    assert apply_suppressions(findings, suppressions) == [_finding("RL002", 2), _finding("RL001", 4)]
    assert [(s.span.line, what) for s, what in unused(suppressions)] == [(3, "RL013"), (6, "RL001")]


GROUPED = """FROM ubuntu
RUN git clone -b v1 https://github.com/o/r.git
RUN git clone -b v2 https://github.com/o/r.git  # reflint: ignore[RL014]
# reflint: ignore[RL004]
RUN git clone -b v3 https://github.com/o/r.git
"""


def _grouped(code: str, related: tuple[Related, ...]) -> Finding:
    at = Span(2, 21, 2, 47)
    return Finding(code, "rule", Severity.ERROR, "Dockerfile", at, "m", "github.com/o/r", "v1", None, related)


def test_a_comment_at_a_related_line_of_the_same_file_suppresses_the_finding() -> None:
    source = SourceFile("Dockerfile", "/x/Dockerfile", FileKind.DOCKERFILE, text=GROUPED)
    suppressions = find_suppressions(source)
    other_pins = (Related("Dockerfile", 3, 21, "another pin"), Related("Dockerfile", 5, 21, "another pin"))
    elsewhere = (Related("Dockerfile.a3", 3, 21, "pinned at v9 here"), Related("Dockerfile.a3", 5, 21, "x"))
    grouped, drift = _grouped("RL014", other_pins), _grouped("RL004", elsewhere)
    assert apply_suppressions([grouped, drift], suppressions) == [drift]
    assert [(s.span.line, what) for s, what in unused(suppressions)] == [(4, "RL004")]


def test_baseline_drops_known_findings_and_counts_stale_entries(tmp_path: Path) -> None:
    path = str(tmp_path / "baseline.json")
    old = [_finding("RL002", 2), _finding("RL001", 9, ref="gone")]
    write_baseline(path, old)
    assert json.loads(Path(path).read_text())["findings"][1] == {
        "fingerprint": old[0].fingerprint(),
        "code": "RL002",
        "path": "Dockerfile",
        "remote": "github.com/o/r",
        "ref": "x",
    }
    moved = _finding("RL002", 20)  # same code, path, remote, ref: a line moved down is not new
    new = _finding("RL002", 3, ref="changed-arg")
    result = apply_baseline(path, [moved, new])
    assert result.findings == [new]
    assert result.stale == 1


def test_baseline_that_is_not_a_baseline_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text('{"findings": []}')
    with pytest.raises(BaselineError, match=r'is not a reflint baseline \(expected "reflint-baseline": 1\)'):
        apply_baseline(str(path), [])
