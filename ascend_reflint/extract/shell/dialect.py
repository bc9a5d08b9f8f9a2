"""Bash syntax that a POSIX ``/bin/sh`` refuses or reads otherwise: what a Dockerfile ``RUN`` in shell form
may not hold when no ``SHELL`` instruction names bash (RL022).

The constructs (bash(1); dash(1) has none of them): arrays (``A=(…)``, ``A+=(…)``), ``[[ … ]]``,
subscripted expansions (``${A[@]}``, ``${A[0]}``), process substitution (``<(…)``, ``>(…)``) and the
``function`` keyword. Heredoc bodies are data for another program and are not looked into; a script given
to ``bash -c`` is a text of its own, read as bash.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from tree_sitter import Node

from ascend_reflint.extract.shell.parse import Text

#: Text that may hold a construct: a cheap test before the tree is looked through.
_MAY_HOLD = re.compile(r"\[\[|=\(|\[[^\]]*\]\}|[<>]\(|\bfunction\b")


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
    elif kind == "process_substitution" and first is not None:
        return Construct(first.start_byte, first.end_byte, text.node_text(first), "the process substitution")
    elif kind == "function_definition" and first is not None and first.type == "function":
        return Construct(first.start_byte, first.end_byte, "function", "the function definition")
    return None
