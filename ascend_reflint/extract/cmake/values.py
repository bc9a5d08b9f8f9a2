"""CMake variables: what ``set()``, ``option()``, ``unset()`` and ``project()`` give them, in file order, and
arguments evaluated as CMake evaluates them (cmake-language(7): "Escape Sequences", "Variable References",
"Lists").

- ``${NAME}`` is the variable's value; references nest (``${DEP_${NAME}_TAG}``); ``$CACHE{NAME}`` reads the
  same value here; ``$ENV{NAME}`` is the environment's, unknown statically.
- A variable the file never sets expands to nothing in CMake, but ``cmake -D``, the cache or an included
  file may set it: reflint reports it unresolved, never empty.
- ``set(NAME a b c)`` is the list ``a;b;c``; ``set(NAME … CACHE TYPE DOC [FORCE])`` sets the cache entry,
  which ``-DNAME=…`` overrides: the value written is taken, as a Dockerfile ``ARG`` default is;
  ``set(NAME … PARENT_SCOPE)`` sets nothing in the current scope.
- An assignment inside ``if()``/``foreach()``/``while()`` happens only sometimes: its value is taken when
  nothing set the variable before (the ``if(NOT DEFINED X) set(X v1)`` idiom), and the variable is
  unresolved when the branches, or the branch and what came before, disagree. Assignments in
  ``function()``/``macro()`` bodies stay in them.
- Commands that compute a value into a variable (``string()``, ``list()``, ``file()``, ``math()``,
  ``execute_process()`` …) make it unresolved.
"""

from __future__ import annotations

from ascend_reflint.extract.cmake.lexer import Argument
from ascend_reflint.model import Resolution
from ascend_reflint.resolve import Binding, Provenance

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r"}
#: How deep ``${…}`` references may nest before the value is left unresolved.
_MAX_NESTING = 32


class Evaluated:
    """An argument's value: ``value`` (None when not known statically) and why it is not."""

    __slots__ = ("note", "value")

    def __init__(self, value: str | None, note: str | None = None) -> None:
        self.value = value
        self.note = note

    @property
    def resolution(self) -> Resolution:
        return Resolution.RESOLVED if self.value is not None else Resolution.UNRESOLVED


class Variables:
    """The variables of one CMake file's top-level scope, as the file sets them in order."""

    __slots__ = ("_bindings", "_conditional")

    def __init__(self) -> None:
        self._bindings: dict[str, Binding] = {}
        #: The line of the innermost ``if()``/``foreach()``/``while()`` around the current command, or 0.
        self._conditional = 0

    def enter_conditional(self, line: int) -> int:
        """Assignments from here on happen only when the block on ``line`` runs; returns the previous state
        for :meth:`leave_conditional`."""
        previous, self._conditional = self._conditional, self._conditional or line
        return previous

    def leave_conditional(self, previous: int) -> None:
        self._conditional = previous

    def set(self, name: str, value: Evaluated, line: int, provenance: Provenance | None = None) -> None:
        """``set(NAME …)`` on ``line`` with the evaluated value (see the module docstring for conditions),
        written at ``provenance`` when one argument there holds all of it."""
        if value.value is not None:
            binding = Binding(value.value, provenance=provenance)
        else:
            binding = _unresolved(name, line, value.note)
        old = self._bindings.get(name)
        if self._conditional and old is not None and old.value != binding.value:
            binding = Binding(
                None,
                Resolution.UNRESOLVED,
                f"${{{name}}} is set differently depending on the if() on line {self._conditional} "
                f"(line {line})",
            )
        elif self._conditional and old is not None:
            binding = binding._replace(provenance=None)  # two set() hold the value: no one place to edit
        self._bindings[name] = binding

    def provenance(self, name: str) -> Provenance | None:
        """Where the value of ``name`` is written, when one ``set()`` argument holds all of it."""
        binding = self._bindings.get(name)
        return binding.provenance if binding is not None else None

    def computed(self, name: str, command: str, line: int) -> None:
        """A command other than ``set()`` writes ``name`` (``string(TOLOWER … NAME)``): unresolved."""
        self._bindings[name] = Binding(
            None, Resolution.UNRESOLVED, f"${{{name}}} is computed by {command}() on line {line}"
        )

    def unset(self, name: str) -> None:
        self._bindings.pop(name, None)

    def evaluate(self, text: str, argument: Argument) -> Evaluated:
        """The value of ``argument`` (a bracket argument is taken literally; escapes and references are
        evaluated in the others), as one string (a list keeps its ``;``)."""
        content = text[argument.content_start : argument.content_end]
        if argument.kind == "bracket":
            return Evaluated(content)
        return self.expand(content, quoted=argument.kind == "quoted")

    def expand(self, content: str, quoted: bool = False) -> Evaluated:
        """Evaluate escape sequences and variable references of an argument's content (iteratively:
        nested references push a buffer each)."""
        if "\\" not in content and "$" not in content:
            return Evaluated(content)
        stack: list[tuple[str, list[str]]] = [("", [])]
        note: str | None = None
        index, size = 0, len(content)
        while index < size:
            char = content[index]
            if char == "\\" and index + 1 < size:
                stack[-1][1].append(_escape(content[index + 1], quoted))
                index += 2
                continue
            opener = _reference_opener(content, index)
            if opener is not None and len(stack) <= _MAX_NESTING:
                stack.append((opener, []))
                index += len(opener) + 1
                continue
            if char == "}" and len(stack) > 1:
                kind, pieces = stack.pop()
                name = "".join(pieces)
                value, why = self._lookup(kind, name)
                note = note or why
                stack[-1][1].append(value if value is not None else f"${{{name}}}")
                index += 1
                continue
            stack[-1][1].append(char)
            index += 1
        if len(stack) > 1:
            note = note or "a variable reference is not closed"
        if note is not None:
            return Evaluated(None, note)
        return Evaluated("".join(stack[0][1]))

    def _lookup(self, kind: str, name: str) -> tuple[str | None, str | None]:
        if kind == "$ENV":
            return None, f"$ENV{{{name}}} is the environment's, set when CMake runs"
        binding = self._bindings.get(name)
        if binding is None:
            return (
                None,
                f"${{{name}}} is not set in this file (cmake -D, the cache or an included file may set it)",
            )
        if binding.value is None:
            return None, binding.note
        return binding.value, None


def split_list(value: str) -> list[str]:
    """An unquoted argument's value divided into arguments at each ``;`` not escaped (cmake-language(7)
    "Lists"); empty elements are dropped, as CMake drops them from unquoted arguments."""
    parts: list[str] = []
    current: list[str] = []
    index = 0
    while index < len(value):
        char = value[index]
        if char == "\\" and value.startswith(";", index + 1):
            current.append(";")
            index += 2
            continue
        if char == ";":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    parts.append("".join(current))
    return [part for part in parts if part]


def _unresolved(name: str, line: int, note: str | None) -> Binding:
    return Binding(None, Resolution.UNRESOLVED, f"${{{name}}} (line {line}): {note}")


def _escape(char: str, quoted: bool) -> str:
    """What ``\\`` + ``char`` stands for: ``\\t``, ``\\n``, ``\\r``; ``\\;`` stays (it keeps a list from
    dividing); a line break after ``\\`` in a quoted argument continues the line; any other character is
    itself."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char == ";":
        return "\\;"
    if char == "\n" and quoted:
        return ""
    return char


def _reference_opener(content: str, index: int) -> str | None:
    """``$``, ``$ENV`` or ``$CACHE`` when a variable reference starts at ``index`` (the ``{`` follows)."""
    if content[index] != "$":
        return None
    for opener in ("$", "$ENV", "$CACHE"):
        if content.startswith(opener + "{", index):
            return opener
    return None
