"""Shell builtins that change what later commands mean: assignments (``X=1``, ``export``/``declare``/
``local``/``readonly``/``typeset``, ``unset``, ``for``, ``read``, ``: ${X:=1}``) and directories (``cd``,
``pushd``, ``popd``). Semantics: bash(1) "PARAMETERS", "SHELL BUILTIN COMMANDS".

Assignments are statements of the tree (the walker hands their nodes here); ``read`` and the directory
commands are handlers of commands.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from ascend_reflint.extract.commands import assignment_names, cd_target
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.values import Value, assigned_provenance
from ascend_reflint.extract.shell.words import Word, word_runs
from ascend_reflint.model import Origin, Resolution
from ascend_reflint.resolve import Binding, Element, Scope


def assign(walker: Walker, node: Node, text: Text) -> None:
    """Assignments alone on a line: ``X=1``, ``A=1 B=2`` (in a function: global unless made local)."""
    nodes = node.children if node.type == "variable_assignments" else [node]
    for run in word_runs([child for child in nodes if child.is_named]):
        set_variable(walker, run, text, walker.env.scope, local=False)


def set_variable(
    walker: Walker, run: list[Node], text: Text, scope: Scope, array: bool = False, local: bool = True
) -> None:
    """Bind in ``scope`` the variable that the assignment ``run`` (an assignment and what touches it)
    assigns; ``array`` for ``declare -a``; ``local`` False for a plain assignment, which a function makes
    in its caller's scope (:meth:`Scope.assign`). ``A[i]=v`` sets one element of an array."""
    assignment = run[0]
    name_node = assignment.child_by_field_name("name")
    if assignment.type != "variable_assignment" or name_node is None:
        return
    if name_node.type == "subscript":
        _set_element(walker, run, name_node, text, scope)
        return
    if name_node.type != "variable_name":
        return
    name = text.node_text(name_node)
    binding = _binding(walker, run, name, text, scope, array)
    if local:
        scope.set(name, binding)
    else:
        scope.assign(name, binding)


def call_frame(walker: Walker, scope: Scope, arguments: list[Word], text: Text) -> Scope:
    """The frame of a function called with ``arguments`` (words of ``text``): ``$1`` … ``$9`` (empty past
    the last argument), ``$#``, ``$@`` and ``$*`` (arrays of the arguments), over ``scope``."""
    frame = scope.frame()
    elements = tuple(_element(walker, word, walker.expander.expand(word, text, scope)) for word in arguments)
    _bind_positional(frame, elements)
    return frame


def _bind_positional(frame: Scope, elements: tuple[Element, ...]) -> None:
    """Bind the positional parameters of ``frame`` to ``elements``."""
    for number in range(1, max(len(elements), 9) + 1):
        frame.set(str(number), elements[number - 1].binding if number <= len(elements) else Binding(""))
    frame.set("#", Binding(str(len(elements))))
    frame.set("@", Binding.array(elements))
    frame.set("*", Binding.array(elements))


#: A word that is one ``${NAME:=default}`` or ``${NAME=default}``.
_ASSIGN_DEFAULT = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<colon>:?)=.*\}", re.DOTALL)


def assign_defaults(walker: Walker, command: Command) -> None:
    """``: "${REF:=v1}"``: each argument that is one ``${NAME:=default}`` (``${NAME=default}``) assigns its
    default to NAME when NAME is unset (or empty, with the colon), as expanding it does (POSIX "Parameter
    Expansion", "Assign Default Values"); ``:`` itself does nothing. A variable whose value is not known
    takes the default, as :func:`ascend_reflint.resolve.expand` reads ``${NAME:-default}``."""
    scope = walker.env.scope
    for word in command.words[command.start :]:
        match = _ASSIGN_DEFAULT.fullmatch(word.display)
        if match is None or any(word.literal):
            continue
        name = match.group("name")
        current = scope.get(name)
        is_set = current is not None and current.resolution is Resolution.RESOLVED
        if is_set and current is not None and (current.value or not match.group("colon")):
            continue
        value = walker.expander.expand(word, command.text, scope)
        scope.assign(name, Binding(value.value, value.resolution, value.note, value.provenance))


def shift(walker: Walker, command: Command) -> None:
    """``shift [N]`` in a function: its positional parameters move down by N (bash(1) "shift")."""
    frame = walker.env.scope.innermost_frame()
    words = command.words[command.start :]
    count = words[0].display if words else "1"
    everything = frame.get("@") if frame is not None else None
    if frame is None or everything is None or everything.elements is None or not count.isdigit():
        return
    _bind_positional(frame, everything.elements[int(count) :])


def _binding(walker: Walker, run: list[Node], name: str, text: Text, scope: Scope, array: bool) -> Binding:
    assignment = run[0]
    offset = assignment.start_byte
    value_node = assignment.child_by_field_name("value")
    operator = next((child for child in assignment.children if child.type in ("=", "+=")), None)
    appends = operator is not None and operator.type == "+="
    if value_node is not None and value_node.type == "array":
        elements = _elements(walker, value_node, text, scope)
        previous = scope.get(name) if appends else None
        if previous is not None and previous.elements is None:
            return Binding(
                None, Resolution.UNRESOLVED, f"${name} is appended to on line {line_of(walker, text, offset)}"
            )
        return Binding.array(
            (previous.elements if previous is not None and previous.elements else ()) + elements
        )
    start = operator.end_byte if operator is not None else assignment.end_byte
    end = run[-1].end_byte
    word = Word.parse(text.text[start:end], start)
    value = walker.expander.expand(word, text, scope)
    if array:  # declare -a A=v: an array of one element
        return Binding.array((_element(walker, word, value),) if value.value is not None else ())
    if appends:
        previous = scope.get(name)
        if previous is None or previous.value is None or value.value is None:
            line = walker.expander.line(text, offset)
            return Binding(None, Resolution.UNRESOLVED, f"${name} is appended to on line {line}")
        return Binding(previous.value + value.value)  # written in two places: no one provenance
    if value.value is not None:
        provenance = assigned_provenance(word, value, walker.sink.path)
        return Binding(
            value.value, provenance=provenance, empty_because=_empty_because(walker, word, value, name)
        )
    if value.resolution is Resolution.EMPTY:
        return Binding(None, Resolution.EMPTY, value.note)
    return Binding(
        None, value.resolution, f"${name} (line {walker.expander.line(text, offset)}): {value.note}"
    )


def _empty_because(walker: Walker, word: Word, value: Value, name: str) -> str | None:
    """Why the value that ``word`` assigns to ``name`` is empty for good (``REF=``, ``REF=""``, ``REF=$EMPTY``
    with EMPTY so), or None (:attr:`ascend_reflint.resolve.Binding.empty_because`): no one outside the script
    replaces a plain assignment, as they may an ``ARG``'s default or ``${REF:-}``'s."""
    if value.value != "":
        return None
    if word.is_literal:
        return f"${name} is set to nothing on line {value.span.line}"
    return value.empty_because


def _elements(walker: Walker, array: Node, text: Text, scope: Scope) -> tuple[Element, ...]:
    """The elements of ``A=(…)``: each word, an unquoted expansion split into its fields (bash(1)
    "Arrays")."""
    nodes = [child for child in array.children if child.is_named and child.type != "comment"]
    words = [walker.expander.word(run, text) for run in word_runs(nodes)]
    elements: list[Element] = []
    for word in walker.expander.fields(words, text, scope):
        elements.append(_element(walker, word, walker.expander.expand(word, text, scope)))
    return tuple(elements)


def _element(walker: Walker, word: Word, value: Value) -> Element:
    """An array element from the word that writes it and its value (written: all of a word quoted in part,
    ``K="v"``, as :meth:`.Word.bounds` takes it)."""
    provenance = assigned_provenance(word, value, walker.sink.path)
    binding = Binding(value.value, value.resolution, value.note, provenance)
    return Element(binding, value.written, Origin(walker.sink.path, value.span))


def _set_element(walker: Walker, run: list[Node], subscript: Node, text: Text, scope: Scope) -> None:
    """``A[i]=v``: the element ``i`` (a number) of array A; an index past the end leaves A unknown."""
    name_node = subscript.child_by_field_name("name")
    index_node = subscript.child_by_field_name("index")
    if name_node is None or index_node is None:
        return
    name, index = text.node_text(name_node), text.node_text(index_node)
    assignment = run[0]
    operator = next((child for child in assignment.children if child.type == "="), None)
    previous = scope.get(name)
    elements = list(previous.elements) if previous is not None and previous.elements is not None else []
    if operator is None or not index.isdigit() or int(index) > len(elements):
        line = line_of(walker, text, assignment.start_byte)
        scope.set(
            name, Binding(None, Resolution.UNRESOLVED, f"an element of array {name} is set on line {line}")
        )
        return
    start, end = operator.end_byte, run[-1].end_byte
    word = Word.parse(text.text[start:end], start)
    element = _element(walker, word, walker.expander.expand(word, text, scope))
    elements[int(index) : int(index) + 1] = [element]
    scope.set(name, Binding.array(tuple(elements)))


def line_of(walker: Walker, text: Text, offset: int) -> int:
    """The file line of ``text``'s character at ``offset``."""
    return walker.expander.line(text, offset)


def declare(walker: Walker, node: Node, text: Text) -> None:
    """``export``/``declare``/``local``/``readonly``/``typeset`` assignments (``-a``: an indexed array,
    ``-A``: an associative one, whose values reflint does not follow)."""
    runs = word_runs([child for child in node.children if child.is_named])
    keyword = text.node_text(node.children[0]) if node.children else ""
    flags = [text.node_text(run[0]) for run in runs if run[0].type == "word"]
    options = "".join(flag[1:] for flag in flags if flag.startswith(("-", "+")))
    scope = walker.env.scope
    for run in runs:
        first = run[0]
        if "A" in options and first.type in ("variable_assignment", "variable_name"):
            name_node = first.child_by_field_name("name") if first.type == "variable_assignment" else first
            name = text.node_text(name_node) if name_node is not None else ""
            line = line_of(walker, text, first.start_byte)
            scope.set(
                name, Binding(None, Resolution.UNRESOLVED, f"${name} is an associative array (line {line})")
            )
        elif first.type == "variable_assignment":
            set_variable(walker, run, text, scope, "a" in options, local=_makes_local(keyword, options))
        elif first.type == "variable_name" and "a" in options:
            scope.set(text.node_text(first), Binding.array(()))
        elif first.type == "variable_name" and keyword in ("local", "declare", "typeset"):
            name = text.node_text(first)
            if scope.innermost_frame() is not None and _makes_local(keyword, options):
                scope.set(name, Binding(""))  # `local x`: a new, empty variable of the function


def _makes_local(keyword: str, options: str) -> bool:
    """Whether ``keyword options NAME=…`` makes NAME local to the running function (``local``, and
    ``declare``/``typeset`` without ``-g``); ``export`` and ``readonly`` assign in the caller's scope."""
    return keyword == "local" or (keyword in ("declare", "typeset") and "g" not in options)


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
