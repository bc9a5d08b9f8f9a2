"""Shell builtins that change what later commands mean: assignments (``X=1``, ``export``/``declare``/
``local``/``readonly``/``typeset``, ``unset``, ``for``, ``read``) and directories (``cd``, ``pushd``,
``popd``). Semantics: bash(1) "PARAMETERS", "SHELL BUILTIN COMMANDS".

Assignments are statements of the tree (the walker hands their nodes here); ``read`` and the directory
commands are handlers of commands.
"""

from __future__ import annotations

from tree_sitter import Node

from ascend_reflint.extract.commands import assignment_names, cd_target
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.values import assigned_provenance
from ascend_reflint.extract.shell.words import Word, word_runs
from ascend_reflint.model import Resolution
from ascend_reflint.resolve import Binding, Scope


def assign(walker: Walker, node: Node, text: Text) -> None:
    """Assignments alone on a line: ``X=1``, ``A=1 B=2``."""
    nodes = node.children if node.type == "variable_assignments" else [node]
    for run in word_runs([child for child in nodes if child.is_named]):
        set_variable(walker, run, text, walker.env.scope)


def set_variable(walker: Walker, run: list[Node], text: Text, scope: Scope, array: bool = False) -> None:
    """Bind in ``scope`` the variable that the assignment ``run`` (an assignment and what touches it)
    assigns; ``array`` for ``declare -a``."""
    assignment = run[0]
    name_node = assignment.child_by_field_name("name")
    if assignment.type != "variable_assignment" or name_node is None or name_node.type != "variable_name":
        return
    name = text.node_text(name_node)
    scope.set(name, _binding(walker, run, name, text, scope, array))


def _binding(walker: Walker, run: list[Node], name: str, text: Text, scope: Scope, array: bool) -> Binding:
    assignment = run[0]
    offset = assignment.start_byte
    value_node = assignment.child_by_field_name("value")
    if array or (value_node is not None and value_node.type == "array"):
        return Binding(
            None, Resolution.UNRESOLVED, f"${name} is an array (line {walker.expander.line(text, offset)})"
        )
    operator = next((child for child in assignment.children if child.type in ("=", "+=")), None)
    start = operator.end_byte if operator is not None else assignment.end_byte
    end = run[-1].end_byte
    word = Word.parse(text.text[start:end], start)
    value = walker.expander.expand(word, text, scope)
    if operator is not None and operator.type == "+=":
        previous = scope.get(name)
        if previous is None or previous.value is None or value.value is None:
            line = walker.expander.line(text, offset)
            return Binding(None, Resolution.UNRESOLVED, f"${name} is appended to on line {line}")
        return Binding(previous.value + value.value)  # written in two places: no one provenance
    if value.value is not None:
        return Binding(value.value, provenance=assigned_provenance(word, value, walker.sink.path))
    if value.resolution is Resolution.EMPTY:
        return Binding(None, Resolution.EMPTY, value.note)
    return Binding(
        None, value.resolution, f"${name} (line {walker.expander.line(text, offset)}): {value.note}"
    )


def declare(walker: Walker, node: Node, text: Text) -> None:
    """``export``/``declare``/``local``/``readonly``/``typeset`` assignments (``-a``/``-A``: arrays)."""
    runs = word_runs([child for child in node.children if child.is_named])
    flags = [text.node_text(run[0]) for run in runs if run[0].type == "word"]
    array = any(flag.startswith(("-", "+")) and ("a" in flag or "A" in flag) for flag in flags)
    for run in runs:
        set_variable(walker, run, text, walker.env.scope, array)


def unset(walker: Walker, node: Node, text: Text) -> None:
    """``unset NAME…``: each variable is empty from here on."""
    for child in node.children:
        if child.type in ("variable_name", "word") and not text.node_text(child).startswith("-"):
            name = text.node_text(child)
            line = walker.expander.line(text, child.start_byte)
            walker.env.scope.set(name, Binding(None, Resolution.EMPTY, f"${name} is unset on line {line}"))


def for_loop(walker: Walker, node: Node, text: Text) -> None:
    """``for NAME in VALUES``: NAME's value when the loop has one value, else unresolved."""
    variable = node.child_by_field_name("variable")
    if variable is None:
        return
    name = text.node_text(variable)
    values = word_runs(node.children_by_field_name("value"))
    line = walker.expander.line(text, node.start_byte)
    scope = walker.env.scope
    if len(values) == 1:
        word = walker.expander.word(values[0], text)
        value = walker.expander.expand(word, text, scope)
        if value.value is not None and len(value.value.split()) == 1:
            provenance = assigned_provenance(word, value, walker.sink.path)
            scope.set(name, Binding(value.value, provenance=provenance))
            return
    scope.set(
        name, Binding(None, Resolution.UNRESOLVED, f"${name} takes each value of the loop on line {line}")
    )


def read(walker: Walker, command: Command) -> None:
    """``read NAME…``: each variable is set at run time."""
    words = command.words
    for position in assignment_names(words, command.start):
        name = words[position].display
        line = walker.expander.line(command.text, words[position].start)
        walker.env.scope.set(
            name, Binding(None, Resolution.UNRESOLVED, f"${name} is read at run time (line {line})")
        )


def change_directory(walker: Walker, command: Command) -> None:
    """``cd [DIR|-]``, ``pushd [DIR]``, ``popd``: the shell's current directory and directory stack."""
    env, name, words = walker.env, command.name, command.words
    if name == "popd":
        if env.stack:
            env.oldpwd, env.cwd, env.stack = env.cwd, env.stack[0], env.stack[1:]
        return
    target = cd_target(words, command.start)
    if target is None:
        new = ("~", ".") if name == "cd" else (env.stack[0] if env.stack else env.cwd)
    elif words[target].display == "-" and name == "cd":
        if env.oldpwd is None:
            return
        new = env.oldpwd
    elif words[target].display.startswith(("+", "-")):  # pushd +N rotates the stack: not followed
        new = walker.runtime_dir()
    else:
        new = walker.directory(env.cwd, words[target], command.text, env.scope)
    if name == "pushd":
        env.stack = (env.cwd, *env.stack) if target is not None else (env.cwd, *env.stack[1:])
    env.oldpwd, env.cwd = env.cwd, new
