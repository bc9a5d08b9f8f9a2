"""Glob matching without pathspec at match time: each glob's compiled form (as pathspec compiles it, or as a
cache kept it) decides exactly as ``pathspec.PathSpec.match_file`` does."""

from __future__ import annotations

import pathspec
from hypothesis import given
from hypothesis import strategies as st

from ascend_reflint.check.globs import compiled, matches

PARTS = st.sampled_from(
    ["docker", "ascend", "npu", "a2", "Dockerfile", ".github", "workflows", "x.yml", "*", "**"]
)
GLOBS = st.lists(
    st.builds(
        lambda negated, parts, anchored: (
            ("!" if negated else "") + ("/" if anchored else "") + "/".join(parts)
        ),
        st.booleans(),
        st.lists(PARTS, min_size=1, max_size=3),
        st.booleans(),
    ),
    min_size=1,
    max_size=4,
)
PATHS = st.lists(
    st.sampled_from(["docker", "ascend", "npu_a2", "Dockerfile.npu", ".github", "workflows", "x.yml"]),
    min_size=1,
    max_size=4,
).map("/".join)


@given(GLOBS, PATHS)
def test_matching_is_pathspec_s(globs: list[str], path: str) -> None:
    assert matches(globs, path) == pathspec.PathSpec.from_lines("gitignore", globs).match_file(path)


def test_the_compiled_form_is_pathspec_s_pattern() -> None:
    pattern = pathspec.PathSpec.from_lines("gitignore", ["!*npu*"]).patterns[0]
    assert compiled("!*npu*") == (pattern.regex.pattern, False)
