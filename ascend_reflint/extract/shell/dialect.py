"""Bash syntax that a POSIX ``/bin/sh`` refuses or reads otherwise: what a Dockerfile ``RUN`` in shell form
may not hold when no ``SHELL`` instruction names bash (RL022).

The constructs (bash(1); dash(1) has none of them): arrays (``A=(…)``, ``A+=(…)``), ``[[ … ]]``,
subscripted expansions (``${A[@]}``, ``${A[0]}``), process substitution (``<(…)``, ``>(…)``), the
``function`` keyword, the builtins ``source``, ``pushd``, ``popd`` and ``dirs`` (dash: "source: not
found"; ShellCheck's SC3046, SC3044), and the expansions that dash calls a "Bad substitution": a substring
(``${V:0:3}``, SC3057), a pattern substitution (``${V/a/b}``, SC3060), a case modification (``${V^^}``,
SC3059) and an indirect expansion (``${!V}``, SC3053). Heredoc bodies are data for another program and
are not looked into; a script given to ``bash -c`` is a text of its own, read as bash.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from tree_sitter import Node

from ascend_reflint.extract.shell.parse import Text

#: Text that may hold a construct: a cheap test before the tree is looked through.
_MAY_HOLD = re.compile(
    r"\[\[|=\(|\[[^\]]*\]\}|[<>]\(|\b(?:function|source|pushd|popd|dirs)\b"
    r"|\$\{(?:!|\w+(?::[^-=?+]|/|\^|,))"
)
#: Builtins of bash that dash lacks (dash(1) "Builtins"), by name.
_BASH_BUILTINS = frozenset({"source", "pushd", "popd", "dirs"})
#: The operators of ``${V…}`` that dash refuses, by tree-sitter-bash's node type, and what each is.
_BASH_OPERATORS = {
    ":": "the substring expansion",
    "/": "the pattern substitution",
    "//": "the pattern substitution",
    "/#": "the pattern substitution",
    "/%": "the pattern substitution",
    "^": "the case modification",
    "^^": "the case modification",
    ",": "the case modification",
    ",,": "the case modification",
}


class SystemShell(NamedTuple):
    """The ``/bin/sh`` that runs a Dockerfile ``RUN`` in shell form: ``likely_dash`` is False when the stage's
    base image ships bash as ``/bin/sh`` (its bash syntax then works, but not on a Debian or Ubuntu base)."""

    likely_dash: bool


class Construct(NamedTuple):
    """A bash-only construct: where it is (``[start, end)`` of the text), as written, and what it is."""

    start: int
    end: int
    written: str
    what: str


def may_hold_bash_syntax(text: str) -> bool:
    """Whether ``text`` may hold a bash-only construct: a cheap test before any parsing."""
    return _MAY_HOLD.search(text) is not None


def bash_only_constructs(text: Text, root: Node) -> Iterator[Construct]:
    """The bash-only constructs of ``text`` (parsed into ``root``), in text order."""
    if not may_hold_bash_syntax(text.text):
        return
    pending = [root]
    found: list[Construct] = []
    while pending:
        node = pending.pop()
        construct = _construct(node, text)
        if construct is not None:
            found.append(construct)
        if node.type != "heredoc_body":
            pending.extend(child for child in node.children if child.child_count)
    yield from sorted(found)


def _construct(node: Node, text: Text) -> Construct | None:
    kind = node.type
    first = node.children[0] if node.child_count else None
    if kind == "variable_assignment":
        value = node.child_by_field_name("value")
        if value is not None and value.type == "array":
            end = value.start_byte + 1
            return Construct(node.start_byte, end, text.text[node.start_byte : end], "the array assignment")
    elif kind == "test_command" and first is not None and first.type == "[[":
        return Construct(first.start_byte, first.end_byte, "[[", "the test")
    elif kind == "expansion" and any(child.type == "subscript" for child in node.children):
        return Construct(node.start_byte, node.end_byte, text.node_text(node), "the array expansion")
    elif kind == "expansion":
        what = _expansion_operator(node)
        if what is not None:
            return Construct(node.start_byte, node.end_byte, text.node_text(node), what)
    elif kind == "command" and first is not None and first.type == "command_name":
        if text.node_text(first) in _BASH_BUILTINS:
            return Construct(first.start_byte, first.end_byte, text.node_text(first), "the command")
    elif kind == "process_substitution" and first is not None:
        return Construct(first.start_byte, first.end_byte, text.node_text(first), "the process substitution")
    elif kind == "function_definition" and first is not None and first.type == "function":
        return Construct(first.start_byte, first.end_byte, "function", "the function definition")
    return None


def _expansion_operator(node: Node) -> str | None:
    """What bash-only operator the ``${…}`` expansion ``node`` applies (``${!V}``, ``${V:0:3}``,
    ``${V/a/b}``, ``${V^^}``), or None for a POSIX one (``${V:-d}``, ``${#V}``, ``${V%x}``)."""
    children = node.children
    if len(children) > 1 and children[1].type == "!":
        return "the indirect expansion"
    for index, child in enumerate(children):
        if child.type == "variable_name":
            operator = children[index + 1].type if index + 1 < len(children) else ""
            return _BASH_OPERATORS.get(operator)
    return None
