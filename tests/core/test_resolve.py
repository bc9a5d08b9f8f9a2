"""Variable expansion in refs and URLs (ascend_reflint.resolve)."""

import pytest

from ascend_reflint.model import Resolution
from ascend_reflint.resolve import Binding, Expansion, Scope, expand


@pytest.fixture
def scope() -> Scope:
    scope = Scope()
    scope.set("TAG", Binding("core_v0.18.0"))
    scope.set("EMPTY", Binding(""))
    scope.set("NOARG", Binding(None, Resolution.UNRESOLVED, "ARG NOARG has no default and no --build-arg"))
    return scope


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ('"$TAG"', Expansion("core_v0.18.0")),
        ("${TAG}", Expansion("core_v0.18.0")),
        ("'$TAG'", Expansion("$TAG")),
        ("v${TAG}-x", Expansion("vcore_v0.18.0-x")),
        ("${MCORE_REF:-core_r0.18.0}", Expansion("core_r0.18.0")),
        ("${EMPTY:-d}", Expansion("d")),
        ("${EMPTY-d}", Expansion("")),
        ("${NOARG:-fallback}", Expansion("fallback")),
        ("${TAG:+set}", Expansion("set")),
        ("${UNSET:+set}", Expansion("")),
        ("${UNSET:-${TAG}}", Expansion("core_v0.18.0")),
        ("$NOARG", Expansion(None, Resolution.UNRESOLVED, "ARG NOARG has no default and no --build-arg")),
        ("$UNSET", Expansion(None, Resolution.UNRESOLVED, "$UNSET is not set in this file")),
        ("$(git describe)", Expansion(None, Resolution.UNRESOLVED, "command substitution")),
        ("`date`", Expansion(None, Resolution.UNRESOLVED, "command substitution")),
        ("${{ matrix.ref }}", Expansion(None, Resolution.UNRESOLVED, "GitHub expression ${{ matrix.ref }}")),
        ("$1", Expansion(None, Resolution.UNRESOLVED, "$1 is set at run time")),
        ("${TAG%.*}", Expansion(None, Resolution.UNRESOLVED, "${TAG%.*} is computed at run time")),
        (r"a\ b", Expansion("a b")),
    ],
)
def test_expand(scope: Scope, word: str, expected: Expansion) -> None:
    assert expand(word, scope) == expected


def test_hinted_variable_is_empty_not_unresolved(scope: Scope) -> None:
    scope.hint_empty("MCORE_REF", "MCORE_REF is assigned only after this line, on line 12")
    assert expand("$MCORE_REF", scope) == Expansion(
        None, Resolution.EMPTY, "MCORE_REF is assigned only after this line, on line 12"
    )


def test_unresolved_wins_over_empty(scope: Scope) -> None:
    scope.hint_empty("LATE", "LATE is assigned later")
    assert expand("$LATE$(cmd)", scope).resolution is Resolution.UNRESOLVED


def test_docker_values_keep_quotes_literal(scope: Scope) -> None:
    assert expand("'$TAG'", scope, shell_quotes=False) == Expansion("'core_v0.18.0'")


def test_child_scope_shadows_and_falls_back(scope: Scope) -> None:
    child = scope.child()
    child.set("TAG", Binding("v2"))
    assert expand("$TAG/$EMPTY", child) == Expansion("v2/")
    assert expand("$TAG", scope) == Expansion("core_v0.18.0")
    assert expand("$TAG", child.copy()) == Expansion("v2")
