"""The walk: one run of a session over a parsed text and the texts nested in it, in execution order.

The walk keeps an explicit stack of typed work items (never Python recursion, so that deeply nested input
cannot exhaust the interpreter's stack). Execution order is the shell's: a command substitution runs
before its command, a pipeline's elements each in a subshell, a function's body where it is first called
(the functions never called are read last, in reverse order of definition). Commands are dispatched through
one table, ``{command name: entry}``, whose entries also say which commands are worth reading at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from ascend_reflint.extract.commands import SHELLS, WRAPPERS
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.shell import builtins, docker, git, packages, pip, shells
from ascend_reflint.extract.shell.command import Command, Handler
from ascend_reflint.extract.shell.dialect import SystemShell, bash_only_constructs
from ascend_reflint.extract.shell.dirs import Dir, RuntimeDirs, named, start_dir
from ascend_reflint.extract.shell.parse import (
    STATEMENTS,
    Text,
    code_mentions_git,
    first_error,
    variables_mention_git,
)
from ascend_reflint.extract.shell.repos import Repositories
from ascend_reflint.extract.shell.state import Env, Sink
from ascend_reflint.extract.shell.values import Expander
from ascend_reflint.extract.shell.words import Word, word_runs
from ascend_reflint.model import CallSite, CommandIssue, IssueKind, Span
from ascend_reflint.resolve import Scope
from ascend_reflint.sourcemap import SourceMap

#: Nested scripts (``bash -c`` inside a heredoc inside …) deeper than this are not read.
_MAX_NESTED_SCRIPTS = 16
#: Calls of one function that are read (each is read with its own arguments), and calls nested in calls.
_MAX_CALLS_PER_FUNCTION = 64
_MAX_CALL_DEPTH = 16
#: The longest call shown as a pin's call site.
_MAX_CALL_TEXT = 80
#: What starts a command or process substitution (``$((…))`` too): a node without it holds none.
_SUBSTITUTION = re.compile(r"\$\(|`|[<>]\(")


def _always(command_text: str) -> bool:
    return True


def _assigns_default(command_text: str) -> bool:
    return "=" in command_text


def _may_name_git(command_text: str) -> bool:
    return "git" in command_text or "$" in command_text


def _builds(command_text: str) -> bool:
    return "build" in command_text or " b " in command_text


def _mentions_pip(command_text: str) -> bool:
    return "pip" in command_text


def _may_name_repository(command_text: str) -> bool:
    return "/" in command_text or "$" in command_text


class _Entry:
    """A command's handler, and the cheap test on the command's text that says whether it can matter
    (make a pin or change what later commands mean)."""

    __slots__ = ("handle", "wanted")

    def __init__(self, handle: Handler, wanted: Callable[[str], bool]) -> None:
        self.handle = handle
        self.wanted = wanted


_PIP = _Entry(pip.run_pip, _may_name_git)
_PYTHON = _Entry(pip.run_pip, _mentions_pip)

#: Every command that can make a pin or change what later commands mean, by name.
_COMMANDS: dict[str, _Entry] = {
    "git": _Entry(git.run_git, _may_name_git),
    "eval": _Entry(shells.run_eval, _may_name_git),
    "uv": _PIP,
    "cd": _Entry(builtins.change_directory, _always),
    "pushd": _Entry(builtins.change_directory, _always),
    "popd": _Entry(builtins.change_directory, _always),
    "read": _Entry(builtins.read, _always),
    "shift": _Entry(builtins.shift, _always),
    ":": _Entry(builtins.assign_defaults, _assigns_default),
    "docker": _Entry(docker.run_docker, _builds),
    "podman": _Entry(docker.run_docker, _builds),
    "cargo": _Entry(packages.run_cargo, _may_name_git),
    "npm": _Entry(packages.run_npm, _may_name_repository),
    "yarn": _Entry(packages.run_npm, _may_name_repository),
    "pnpm": _Entry(packages.run_npm, _may_name_repository),
    **{name: _Entry(shells.run_shell, _always) for name in SHELLS},
    **{name: _Entry(shells.run_wrapped, _always) for name in WRAPPERS},
}


def _call_site(path: str, span: Span, name: str, arguments: list[Word]) -> CallSite:
    """The call of function ``name`` with ``arguments`` at ``span`` of ``path``, for related locations."""
    call = " ".join([name, *(word.written() or word.display for word in arguments)])
    if len(call) > _MAX_CALL_TEXT:
        call = call[: _MAX_CALL_TEXT - 1] + "…"
    return CallSite(path, span, f"called as `{call}`")


def _entry(name: str) -> _Entry | None:
    """The entry for the command ``name``, also for the names with versions (``pip3``, ``python3.11``)."""
    entry = _COMMANDS.get(name)
    if entry is None:
        if name.startswith("python"):
            return _PYTHON
        if name.startswith("pip"):
            return _PIP
    return entry


# Work items on the stack: small slotted classes (cheaper to make than named tuples, and typed).


class _OnNode:
    """A work item about one node of a text; its class says what to do with it."""

    __slots__ = ("node", "text")

    def __init__(self, node: Node, text: Text) -> None:
        self.node = node
        self.text = text


class _Visit(_OnNode):
    """Walk a node; ``stdin`` is the heredoc body on a command's standard input."""

    __slots__ = ("stdin",)

    def __init__(self, node: Node, text: Text, stdin: Node | None = None) -> None:
        self.node = node
        self.text = text
        self.stdin = stdin


class _SimpleCommand(_OnNode):
    """Run a simple command (after its command substitutions); ``stdin`` as for :class:`_Visit`."""

    __slots__ = ("stdin",)

    def __init__(self, node: Node, text: Text, stdin: Node | None) -> None:
        self.node = node
        self.text = text
        self.stdin = stdin


class _Substitutions(_OnNode):
    """Run the command substitutions inside a word or expression (before the command that holds it)."""

    __slots__ = ()


class _Assign(_OnNode):
    """Assignments alone on a line."""

    __slots__ = ()


class _Declare(_OnNode):
    """``export``/``declare``/``local``/``readonly``/``typeset``."""

    __slots__ = ()


class _ForLoop(_OnNode):
    """Bind a ``for`` loop's variable (after its values' command substitutions, before its body)."""

    __slots__ = ()


class _Isolate(_OnNode):
    """Run a pipeline's element in a subshell."""

    __slots__ = ()


class _Restore:
    """Leave a subshell: the environment from before it."""

    __slots__ = ("env",)

    def __init__(self, env: Env) -> None:
        self.env = env


class _Nested:
    """Read a script that a command runs, in a new shell (see :meth:`ShellWalker.run_nested`)."""

    __slots__ = ("command_name", "cwd", "nested", "offset", "parent", "scope")

    def __init__(
        self, nested: Text, parent: Text, scope: Scope, cwd: Dir, command_name: str, offset: int
    ) -> None:
        self.nested = nested
        self.parent = parent
        self.scope = scope
        self.cwd = cwd
        self.command_name = command_name
        self.offset = offset


class _Call:
    """Run a function: for a call (``command``: its words after the function's name, and their text), or,
    at the end of the run, once with no arguments when it was never called."""

    __slots__ = ("arguments", "name", "span", "text")

    def __init__(
        self,
        name: str,
        arguments: list[Word] | None = None,
        text: Text | None = None,
        span: Span | None = None,
    ) -> None:
        self.name = name
        self.arguments = arguments
        self.text = text
        self.span = span


class _Return:
    """Return from a function: the caller's variables and call sites again."""

    __slots__ = ("call_sites", "scope")

    def __init__(self, scope: Scope, call_sites: tuple[CallSite, ...]) -> None:
        self.scope = scope
        self.call_sites = call_sites


_Item = (
    _Visit
    | _Substitutions
    | _SimpleCommand
    | _Assign
    | _Declare
    | _ForLoop
    | _Isolate
    | _Restore
    | _Nested
    | _Call
    | _Return
)


class ShellWalker:
    """One run of a session: the walk over one text and the texts nested in it (see the module docstring).

    Implements :class:`~ascend_reflint.extract.shell.command.Walker` for the handlers.
    """

    def __init__(
        self,
        scope: Scope,
        cwd: str,
        sink: Sink,
        repositories: Repositories,
        runtime_dirs: RuntimeDirs,
        source_map: SourceMap,
    ) -> None:
        """Args:
        scope: the variables the caller knows (the run's assignments go to a child of it).
        cwd: the directory the run starts in (``""`` when unknown).
        sink: where pins and notices go.
        repositories: the session's clones (the run adds to them).
        runtime_dirs: the session's directories computed at run time.
        source_map: maps offsets of the run's text to file positions.
        """
        self.caller_scope = scope
        self.sink = sink
        self.repositories = repositories
        self.runtime_dirs = runtime_dirs
        self.expander = Expander(source_map, sink.path)
        self.env = Env(scope.child(), start_dir(cwd))
        self._stack: list[_Item] = []
        self._functions: dict[str, tuple[Node, Text]] = {}
        self._called: dict[str, int] = {}
        self._depth = 0

    def run(self, text: str, system_shell: SystemShell | None = None) -> None:
        """Walk ``text``; with ``system_shell``, the text is a Dockerfile RUN that ``/bin/sh`` runs, and its
        bash-only constructs are recorded as command issues (RL022).

        Raises:
            ExtractError: when ``text`` does not parse (after walking what does).
        """
        top = Text(text, 0, 0)
        root = top.parse()
        error = first_error(top, root, self.expander.source_map) if root.has_error else None
        if system_shell is not None:
            self._bash_only(top, root, system_shell)
        if code_mentions_git(text, root) or variables_mention_git(text, self.caller_scope):
            self._push_children(root, top)
            self._drain()
            for name in reversed(list(self._functions)):
                self._stack.append(_Call(name))  # never called: read once, its parameters unset
            self._drain()
        if error is not None:
            raise ExtractError(error)

    def _bash_only(self, top: Text, root: Node, system_shell: SystemShell) -> None:
        """Record each bash-only construct of a text that ``/bin/sh`` runs."""
        sink = self.sink
        for construct in bash_only_constructs(top, root):
            sink.issues.append(
                CommandIssue(
                    kind=IssueKind.BASH_UNDER_SH,
                    path=sink.path,
                    span=self.expander.span(top, construct.start, construct.end),
                    command="RUN",
                    subject=construct.written,
                    detail=construct.what,
                    likely=system_shell.likely_dash,
                    stage=sink.stage,
                )
            )

    # --- the Walker protocol ------------------------------------------------------------------------

    def directory(self, base: Dir, word: Word, text: Text, scope: Scope) -> Dir:
        """The directory ``word`` names, from ``base`` (see :func:`.dirs.named`)."""

        def inner(argument: str) -> Dir | None:
            """The directory the argument of ``$(dirname ARGUMENT)`` names (positions do not matter)."""
            inner_word = Word.parse(argument, word.start)
            return self.directory(base, inner_word, text, scope)

        value = self.expander.expand(word, text, scope).value
        return named(base, word, value, self.runtime_dirs, inner)

    def runtime_dir(self) -> Dir:
        """A directory computed at run time, unlike any other."""
        return self.runtime_dirs.new()

    def dispatch(self, command: Command) -> None:
        """Run ``command`` with its handler (any command without one may be a pip install)."""
        entry = _entry(command.name)
        (pip.run_pip if entry is None else entry.handle)(self, command)

    def run_nested(
        self, nested: Text, parent: Text, scope: Scope, cwd: Dir, command_name: str, offset: int
    ) -> None:
        """Read ``nested`` in a new shell after the current command (not deeper than a limit)."""
        if nested.depth > _MAX_NESTED_SCRIPTS:
            line = self.expander.line(parent, offset)
            self.sink.notices.append(
                f"line {line}: scripts nested more than {_MAX_NESTED_SCRIPTS} deep are not read"
            )
            return
        self._stack.append(_Nested(nested, parent, scope, cwd, command_name, offset))

    # --- the stack ----------------------------------------------------------------------------------

    def _drain(self) -> None:
        stack = self._stack
        while stack:
            item = stack.pop()
            match item:
                case _Visit():
                    self._visit(item.node, item.text, item.stdin)
                case _SimpleCommand():
                    self._command(item.node, item.text, item.stdin)
                case _Substitutions():
                    self._substitutions(item.node, item.text)
                case _Assign():
                    builtins.assign(self, item.node, item.text)
                case _Declare():
                    builtins.declare(self, item.node, item.text)
                case _ForLoop():
                    builtins.for_loop(self, item.node, item.text)
                case _Isolate():
                    self._stack.append(_Restore(self.env))
                    self.env = self.env.subshell()
                    self._stack.append(_Visit(item.node, item.text))
                case _Restore():
                    self.env = item.env
                case _Nested():
                    self._nested(item)
                case _Call():
                    self._call(item)
                case _Return():
                    self.env.scope = item.scope
                    self.sink.call_sites = item.call_sites
                    self._depth -= 1

    def _push_children(self, node: Node, text: Text) -> None:
        """Walk the children of ``node`` next, in order; leaves (words, operators, comments) run nothing."""
        if node.child_count:
            self._stack.extend(_Visit(child, text) for child in reversed(node.children) if child.child_count)

    def _push_substitutions(self, node: Node, text: Text) -> None:
        """Look for command substitutions in the children of ``node``. A leaf holds none (the words of most
        commands are leaves), nor does a node whose text has no ``$(``, backquote, ``<(`` or ``>(``."""
        if node.child_count and _SUBSTITUTION.search(text.text, node.start_byte, node.end_byte):
            self._stack.extend(
                _Substitutions(child, text) for child in reversed(node.children) if child.child_count
            )

    # --- walking ------------------------------------------------------------------------------------

    def _visit(self, node: Node, text: Text, stdin: Node | None) -> None:
        kind = node.type
        stack = self._stack
        if kind == "command":
            stack.append(_SimpleCommand(node, text, stdin))
            self._push_substitutions(node, text)
        elif kind in ("variable_assignment", "variable_assignments"):
            stack.append(_Assign(node, text))
            self._push_substitutions(node, text)
        elif kind == "declaration_command":
            stack.append(_Declare(node, text))
            self._push_substitutions(node, text)
        elif kind == "unset_command":
            builtins.unset(self, node, text)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is not None and body is not None:
                self._functions[text.node_text(name)] = (body, text)
        elif kind in ("subshell", "command_substitution", "process_substitution"):
            stack.append(_Restore(self.env))
            self.env = self.env.subshell()
            self._push_children(node, text)
        elif kind == "pipeline":
            for child in reversed(node.children):
                if child.is_named:
                    stack.append(_Isolate(child, text))
        elif kind == "for_statement":
            body = node.child_by_field_name("body")
            if body is not None:
                stack.append(_Visit(body, text))
            stack.append(_ForLoop(node, text))
            for value in reversed(node.children_by_field_name("value")):
                stack.append(_Substitutions(value, text))
        elif kind == "redirected_statement":
            self._redirected(node, text)
        elif kind != "comment":
            self._push_children(node, text)

    def _substitutions(self, node: Node, text: Text) -> None:
        """Look for command substitutions inside a word or expression (they run before the command)."""
        if node.type in ("command_substitution", "process_substitution") or node.type in STATEMENTS:
            self._visit(node, text, None)
        else:
            self._push_substitutions(node, text)

    def _redirected(self, node: Node, text: Text) -> None:
        """A statement with redirections; a heredoc's body is the standard input of a command body."""
        body = node.child_by_field_name("body")
        stdin: Node | None = None
        for child in node.children:
            if child.type == "heredoc_redirect" and stdin is None:
                stdin = next((part for part in child.children if part.type == "heredoc_body"), None)
        for child in reversed(node.children):
            if body is not None and child == body and body.type == "command":
                self._visit(body, text, stdin)
            else:
                self._stack.append(_Visit(child, text))

    def _call(self, call: _Call) -> None:
        """Run a function's body for a call, its arguments bound to ``$1`` … ``$@`` in a frame of its own
        (``local`` variables live there) and the call site on each pin it makes; or, at the end of the run,
        once with its parameters unset when it was never called. Calls past a bound are not read (a
        notice says so)."""
        name = call.name
        if name not in self._functions or (call.arguments is None and name in self._called):
            return
        calls = self._called.get(name, 0)
        self._called[name] = calls + 1
        body, body_text = self._functions[name]
        if call.arguments is None or call.text is None or call.span is None:
            self._stack.append(_Visit(body, body_text))
            return
        if calls >= _MAX_CALLS_PER_FUNCTION or self._depth >= _MAX_CALL_DEPTH:
            if calls == _MAX_CALLS_PER_FUNCTION or self._depth >= _MAX_CALL_DEPTH:
                line = self.expander.line(call.text, call.arguments[0].start if call.arguments else 0)
                self.sink.notices.append(
                    f"line {line}: function {name} is called more than {_MAX_CALLS_PER_FUNCTION} times or "
                    f"{_MAX_CALL_DEPTH} deep; the calls after that are not read"
                )
            return
        site = _call_site(self.sink.path, call.span, name, call.arguments)
        self._stack.append(_Return(self.env.scope, self.sink.call_sites))
        self._depth += 1
        self.env.scope = builtins.call_frame(self, self.env.scope, call.arguments, call.text)
        self.sink.call_sites = (site,)
        self._stack.append(_Visit(body, body_text))

    def _nested(self, item: _Nested) -> None:
        """Read a script that a command runs (``bash -c``, a heredoc): a new shell started from here."""
        root = item.nested.parse()
        if root.has_error:
            line, command_name = self.expander.line(item.parent, item.offset), item.command_name
            self.sink.notices.append(
                f"line {line}: the script given to {command_name} does not parse; reflint read what it could"
            )
        self._stack.append(_Restore(self.env))
        self.env = Env(item.scope.child(), item.cwd)
        self._push_children(root, item.nested)

    # --- commands -----------------------------------------------------------------------------------

    def _command(self, node: Node, text: Text, stdin: Node | None) -> None:
        """A simple command: its ``NAME=value`` prefixes, its name and words, then its handler."""
        parts = [
            child
            for index, child in enumerate(node.children)
            if child.type == "variable_assignment" or node.field_name_for_child(index) in ("name", "argument")
        ]
        runs = word_runs(parts)
        first = 0
        while first < len(runs) and runs[first][0].type == "variable_assignment":
            first += 1
        prefix, rest = runs[:first], runs[first:]
        if not rest or (prefix and self._on_own_line(prefix[-1][-1], rest[0][0], text)):
            for run in prefix:  # `A=1 B=2` alone on a line (tree-sitter-bash may join the next line to it)
                builtins.set_variable(self, run, text, self.env.scope)
            prefix = []
            if not rest:
                return
        name_raw = text.text[rest[0][0].start_byte : rest[0][-1].end_byte]
        if "$(" in name_raw or "`" in name_raw:  # a computed command name is not known statically
            return
        name_word = self.expander.word(rest[0], text)
        name = self.expander.command_name(name_word, text, self.env.scope)
        if name is None or not self._wanted(name, node, text):
            return
        scope = self.env.scope
        if prefix:
            scope = scope.child()
            for run in prefix:
                builtins.set_variable(self, run, text, scope)
        arguments = [self.expander.word(run, text) for run in rest[1:]]
        words = [name_word, *self.expander.fields(arguments, text, self.env.scope)]
        herestring = next((child for child in node.children if child.type == "herestring_redirect"), None)
        name = self.expander.command_name(words[0], text, scope)  # the prefixes may name another command
        if name is None:
            return
        if name in self._functions:
            span = self.expander.span(text, node.start_byte, node.end_byte)
            self._stack.append(_Call(name, words[1:], text, span))
            return
        self.dispatch(Command(name, words, 0, text, scope, self.env.cwd, stdin, herestring))

    @staticmethod
    def _on_own_line(assignment: Node, name: Node, text: Text) -> bool:
        """True when a line break (not a continued line) separates an assignment from the command after it."""
        gap = text.text[assignment.end_byte : name.start_byte]
        return "\n" in gap.replace("\\\r\n", "").replace("\\\n", "")

    def _wanted(self, name: str, node: Node, text: Text) -> bool:
        """Whether the command named ``name`` can make a pin or change what later commands mean."""
        if name in self._functions:
            return True
        entry = _entry(name)
        return entry is not None and entry.wanted(text.node_text(node))
