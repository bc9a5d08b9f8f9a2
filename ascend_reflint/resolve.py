"""Resolve variables in refs and URLs: the values a recipe gives them, statically, never guessed.

The expansion forms follow the POSIX shell's "Parameter Expansion" (``$V``, ``${V}``, ``${V:-d}``,
``${V-d}``, ``${V:+x}``, ``${V+x}``), which Docker's ARG/ENV substitution also implements (Dockerfile
reference, "Environment replacement"). Anything else that computes a value at run time (``$(cmd)``,
backticks, ``${{ expr }}`` in GitHub workflows, positional parameters, pattern operators) stays unresolved.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass

from ascend_reflint.model import Resolution


@dataclass(frozen=True, slots=True)
class Binding:
    """A variable's value at one point of a recipe.

    Attributes:
        value: the value, or None when it is not known statically (``ARG X`` with no default).
        resolution: RESOLVED when ``value`` is known; UNRESOLVED or EMPTY otherwise.
        note: why the value is not known, for messages.
    """

    value: str | None
    resolution: Resolution = Resolution.RESOLVED
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Expansion:
    """The result of expanding a word: its value when resolved, else None and why."""

    value: str | None
    resolution: Resolution = Resolution.RESOLVED
    note: str | None = None


class Scope:
    """The variables visible at one point, with an optional parent (workflow → job → step).

    ``hints`` name variables that the file shows to be empty at this point (assigned only later, only in
    another build stage, only on a commented-out line): an unset variable with a hint expands as EMPTY,
    one without as UNRESOLVED.
    """

    __slots__ = ("_hints", "_parent", "_vars")

    def __init__(self, parent: Scope | None = None) -> None:
        self._parent = parent
        self._vars: dict[str, Binding] = {}
        self._hints: dict[str, str] = {}

    def set(self, name: str, binding: Binding) -> None:
        """Bind ``name`` in this scope (shadows any parent's binding)."""
        self._vars[name] = binding

    def unset(self, name: str) -> None:
        """Forget ``name`` in this scope (``unset NAME``)."""
        self._vars.pop(name, None)

    def get(self, name: str) -> Binding | None:
        """The binding of ``name`` here or in a parent, or None when unset."""
        scope: Scope | None = self
        while scope is not None:
            found = scope._vars.get(name)
            if found is not None:
                return found
            scope = scope._parent
        return None

    def hint_empty(self, name: str, note: str) -> None:
        """Record that the file shows ``name`` empty at this point, and why (shown in RL012's message)."""
        self._hints[name] = note

    def empty_hint(self, name: str) -> str | None:
        """The note given to :meth:`hint_empty` for ``name`` here or in a parent, or None."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope._hints:
                return scope._hints[name]
            scope = scope._parent
        return None

    def child(self) -> Scope:
        """A new scope whose lookups fall back to this one."""
        return Scope(self)

    def copy(self) -> Scope:
        """A flat copy with the same bindings, parents included, that can change independently."""
        flat = Scope()
        chain: list[Scope] = []
        scope: Scope | None = self
        while scope is not None:
            chain.append(scope)
            scope = scope._parent
        for link in reversed(chain):
            flat._vars.update(link._vars)
            flat._hints.update(link._hints)
        return flat

    def names(self) -> builtins.set[str]:
        """Every variable name bound here or in a parent."""
        names: builtins.set[str] = builtins.set()
        scope: Scope | None = self
        while scope is not None:
            names.update(scope._vars)
            scope = scope._parent
        return names


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MAX_NESTED_DEFAULTS = 64
_BRACED = re.compile(r"\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-=+?])(?P<word>.*))?\}", re.DOTALL)


def expand(word: str, scope: Scope, *, shell_quotes: bool = True) -> Expansion:
    """Expand the variables in ``word`` with the values in ``scope``.

    Args:
        word: the word as written (quotes included when ``shell_quotes``): ``"$TAG"``, ``v${VER:-1.0}``.
        scope: the variables visible where the word is used.
        shell_quotes: remove shell quoting (``'…'`` literal, ``"…"`` expanding, backslash escapes); False
            for Dockerfile ARG/ENV values, which the dockerfile reader has already unquoted.

    Returns:
        The value when every part resolves; otherwise ``value`` None with UNRESOLVED (something computed at
        run time or never set in the file) or EMPTY (the file shows a variable empty here), and a note.
    """
    return _Expander(word, scope, shell_quotes).run()


def has_expansion(word: str) -> bool:
    """True when ``word`` holds anything that expansion would change (``$``, a backtick)."""
    return "$" in word or "`" in word


class _Expander:
    """A single left-to-right pass over one word (no recursion into the parser: defaults recurse)."""

    def __init__(self, word: str, scope: Scope, shell_quotes: bool, depth: int = 0) -> None:
        self.word = word
        self.scope = scope
        self.shell_quotes = shell_quotes
        self.out: list[str] = []
        self.resolution = Resolution.RESOLVED
        self.note: str | None = None
        self.depth = depth  # defaults nested in defaults recurse: bounded so input cannot exhaust the stack

    def run(self) -> Expansion:
        word, i, n = self.word, 0, len(self.word)
        in_double = False
        while i < n:
            ch = word[i]
            if self.shell_quotes and ch == "'" and not in_double:
                end = word.find("'", i + 1)
                end = n if end == -1 else end
                self.out.append(word[i + 1 : end])
                i = end + 1
            elif self.shell_quotes and ch == '"':
                in_double = not in_double
                i += 1
            elif self.shell_quotes and ch == "\\" and i + 1 < n:
                nxt = word[i + 1]
                if in_double and nxt not in '$`"\\\n':
                    self.out.append("\\")
                if nxt != "\n":
                    self.out.append(nxt)
                i += 2
            elif ch == "`":
                end = word.find("`", i + 1)
                self._unresolved("command substitution")
                i = n if end == -1 else end + 1
            elif ch == "$":
                i = self._dollar(i)
            else:
                self.out.append(ch)
                i += 1
        if self.resolution is Resolution.RESOLVED:
            return Expansion("".join(self.out))
        return Expansion(None, self.resolution, self.note)

    def _dollar(self, i: int) -> int:
        word, n = self.word, len(self.word)
        if i + 1 >= n:
            self.out.append("$")
            return n
        nxt = word[i + 1]
        if word.startswith("${{", i):
            end = word.find("}}", i + 3)
            self._unresolved(f"GitHub expression {word[i : end + 2 if end != -1 else n].strip()}")
            return n if end == -1 else end + 2
        if nxt == "(":
            end = _matching(word, i + 1, "(", ")")
            self._unresolved("command substitution")
            return end
        if nxt == "{":
            end = _matching(word, i + 1, "{", "}")
            self._braced(word[i + 1 : end])
            return end
        match = _NAME.match(word, i + 1)
        if match:
            self._variable(match.group(0))
            return match.end()
        if nxt.isdigit() or nxt in "@*#?$!-":
            self._unresolved(f"${nxt} is set at run time")
            return i + 2
        self.out.append("$")
        return i + 1

    def _braced(self, body: str) -> None:
        match = _BRACED.fullmatch(body)
        if match is None:
            self._unresolved(f"${body} is computed at run time")
            return
        name, op, default = match.group("name"), match.group("op"), match.group("word")
        if op is None:
            self._variable(name)
            return
        binding = self.scope.get(name)
        is_set = binding is not None and binding.resolution is Resolution.RESOLVED
        value = binding.value if is_set and binding is not None else None
        colon = op.startswith(":")
        use_value = is_set and (not colon or bool(value))
        kind = op[-1]
        if kind in "-=":
            if use_value:
                self.out.append(value or "")
            else:
                self._nested(default or "")
        elif kind == "+":
            if use_value:
                self._nested(default or "")
        elif use_value:  # "?": fails the script when unset; the value is all a pin can use
            self.out.append(value or "")
        else:
            self._variable(name)

    def _nested(self, text: str) -> None:
        if self.depth >= _MAX_NESTED_DEFAULTS:
            self._unresolved("the expansion is nested too deeply")
            return
        inner = _Expander(text, self.scope, self.shell_quotes, self.depth + 1).run()
        if inner.resolution is Resolution.RESOLVED:
            self.out.append(inner.value or "")
        else:
            self._mark(inner.resolution, inner.note)

    def _variable(self, name: str) -> None:
        binding = self.scope.get(name)
        if binding is None:
            hint = self.scope.empty_hint(name)
            if hint is not None:
                self._mark(Resolution.EMPTY, hint)
            else:
                self._unresolved(f"${name} is not set in this file")
        elif binding.resolution is Resolution.RESOLVED:
            self.out.append(binding.value or "")
        else:
            self._mark(binding.resolution, binding.note or f"${name} has no value here")

    def _unresolved(self, note: str) -> None:
        self._mark(Resolution.UNRESOLVED, note)

    def _mark(self, resolution: Resolution, note: str | None) -> None:
        # UNRESOLVED wins over EMPTY: "empty" is a claim that the whole value is known to be missing.
        if self.resolution is Resolution.RESOLVED or (
            self.resolution is Resolution.EMPTY and resolution is Resolution.UNRESOLVED
        ):
            self.resolution = resolution
            self.note = note


def _matching(text: str, start: int, opening: str, closing: str) -> int:
    """The index just after the bracket that closes ``text[start]`` (or ``len(text)`` when none does)."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index + 1
    return len(text)
