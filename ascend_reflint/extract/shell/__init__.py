"""Shell extraction: the pins that a shell script, a Dockerfile ``RUN`` or a workflow ``run:`` block makes.

A script is parsed with tree-sitter-bash and walked in execution order, once, with an explicit stack (never
Python recursion, so that deeply nested input cannot exhaust the interpreter's stack). The walk keeps the
state that decides what a command means: variables (assignments, ``export``/``declare``/``local``/
``readonly``, ``unset``, ``read``, ``for``), the current directory (``cd``, ``pushd``/``popd``, ``git -C``,
``env -C``), and the clones made so far, so that ``git clone URL && cd NAME && git checkout REF`` is one pin.

What is extracted:

- ``git clone`` (via CLONE, CLONE_BRANCH, or CHECKOUT for each later ``git checkout``/``switch``/
  ``reset --hard`` in the clone's directory: every checkout is a pin of its own, with the clone's options
  and the ``fetched_ref`` that a ``git fetch … REF`` in the clone brought in before it; a clone that is
  checked out later gives no pin of its own);
- ``git fetch URL REF`` (a URL, not a remote's name: ``git init DIR && git -C DIR fetch --depth 1 URL REF
  && git -C DIR checkout FETCH_HEAD``): via CHECKOUT, one pin for the fetch (its ``clone_span`` is the
  ``git fetch`` words) or, when FETCH_HEAD is checked out, one per such checkout;
- pip VCS requirements, ``git+URL[@REF][#fragment]`` given to ``pip``/``python -m pip``/``uv pip``
  install (via PIP_VCS).

A ref written as nothing (``--branch ""``, ``git checkout ''``, ``git+URL@``) is a pin with ``ref`` and
``ref_text`` ``""`` and resolution EMPTY ("the ref is empty"): git and pip refuse it. Its span is the
quotes (the ``@`` for pip), since what is between them has no width. A ref written as a variable whose
value is empty is UNRESOLVED, not EMPTY: recipes give an optional build argument an empty default, which
the build sets, and test it before use (vllm-ascend: ``ARG VLLM_COMMIT=""`` … ``if [ -n "$VLLM_COMMIT" ];
then … git fetch --depth 1 $VLLM_REPO "$VLLM_COMMIT"``), so nothing about the ref is known statically.

What runs is read: commands behind wrappers (``sudo``, ``env``, ``time``, ``exec``, …), in lists,
pipelines, subshells, ``if``/``for``/``while``/``case``, functions (read where they are first called, or at
the end when never called), command substitutions, ``bash -c STRING``/``eval STRING``, and heredocs or
here-strings fed to a shell (``bash <<EOF``), whose text is parsed again with positions mapped back into
the file. What does not run is not read: comments, arguments of ``echo``/``printf``, heredocs written to
files, ``cmd | bash`` (the piped text is not known statically).

Positions: tree-sitter reports byte offsets; they are turned into character offsets of the text and then
into file positions through the caller's :class:`~ascend_reflint.sourcemap.SourceMap`. Spans exclude
quotes: for ``--branch "$TAG"`` the ref span and ``ref_text`` are ``$TAG``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from ascend_reflint.extract import ExtractError, commands
from ascend_reflint.extract.shell.dirs import Dir, RuntimeDirs, join, named, start_dir
from ascend_reflint.extract.shell.parse import STATEMENTS, Text, code_mentions_git, first_error
from ascend_reflint.extract.shell.repos import Checkout, Clone, Repositories, parse_depth
from ascend_reflint.extract.shell.state import Env, Sink
from ascend_reflint.extract.shell.values import Expanded, Expander, Value, combined, empty_ref
from ascend_reflint.extract.shell.words import Word, word_runs
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote, repo_dir_name
from ascend_reflint.resolve import Binding, Scope
from ascend_reflint.sourcemap import SourceMap

#: Variable names referenced in a word (``$NAME``, ``${NAME…}``).
_VARIABLE_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_SCP_LIKE_URL = re.compile(r"^[\w.-]+@[\w.-]+:")
#: git's ``<transport>::<address>`` form for remote helpers (git-remote-helpers(7)).
_HELPER_TRANSPORT = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")

#: Nested scripts (``bash -c`` inside a heredoc inside …) deeper than this are not read.
_MAX_NESTED_SCRIPTS = 16

# Work items on the walk's stack: (operation, node or value, text, extra).
_VISIT, _SUBST, _COMMAND, _ASSIGN, _DECLARE, _FOR, _ISOLATE, _RESTORE, _NESTED, _CALL = range(10)


class ShellSession:
    """One shell process's worth of state: variables, current directory, clones awaiting a checkout.

    A session reads one or more script bodies with :meth:`run` (a whole file; the ``RUN`` instructions of
    one Dockerfile stage; a workflow step) and hands out the pins with :meth:`finish`. Each :meth:`run`
    is one shell process: the variables it assigns and the ``cd`` it does end with it (a Dockerfile
    ``RUN`` or a workflow step starts a new shell), while its clones stay (they are on the file system), so
    that ``RUN git clone URL`` / ``WORKDIR /x/NAME`` / ``RUN git checkout REF`` is one pin.

    Attributes:
        cwd: the directory the next :meth:`run` starts in, settable by the caller (Dockerfile ``WORKDIR``);
            ``""`` when unknown (relative paths are then relative to one unknown start directory).
        scope: the variables the caller knows (Dockerfile ``ARG``/``ENV``, workflow ``env:``, hints of
            variables the file shows empty); during :meth:`run` the script's own assignments are visible
            through a child of it, in order.
    """

    def __init__(self, path: str, kind: FileKind, scope: Scope, stage: str | None = None) -> None:
        """Args:
        path: the file's display path (copied into every pin).
        kind: the kind of file (copied into every pin).
        scope: the variables visible when each script body starts.
        stage: the Dockerfile build stage (copied into every pin), None elsewhere.
        """
        self.path = path
        self.kind = kind
        self.scope = scope
        self.stage = stage
        self.cwd = ""
        self.sink = Sink(path, kind, stage)
        self.repositories = Repositories()
        self.runtime_dirs = RuntimeDirs()

    @property
    def notices(self) -> list[str]:
        """Caveats about what could not be read, in the order found."""
        return self.sink.notices

    def run(self, text: str, source_map: SourceMap) -> None:
        """Extract one script body.

        Args:
            text: the shell text.
            source_map: maps character offsets of ``text`` to the file's positions.

        Raises:
            ExtractError: when ``text`` does not parse; the message names the file line of the first error.
                What the well-formed parts hold is extracted first (and :meth:`finish` returns it).
        """
        if self.may_pin(text):
            _Runner(self, source_map).run(text)

    def may_pin(self, text: str) -> bool:
        """Whether :meth:`run` can find anything in ``text`` (a cheap test: when False, a caller need not
        build the source map). Every pin is a ``git …`` command or a ``git+`` URL, written in the text or
        held by a variable that it uses."""
        return "git" in text or self._variables_mention_git(text)

    def _variables_mention_git(self, text: str) -> bool:
        """True when a variable that ``text`` uses has a value (from the caller) that mentions git."""
        for name in set(_VARIABLE_REFERENCE.findall(text)):
            binding = self.scope.get(name)
            if binding is not None and binding.value is not None and "git" in binding.value:
                return True
        return False

    def finish(self) -> list[Pin]:
        """All pins found so far, in file order (by span)."""
        pins = self.sink.pins + self.repositories.pins(self.sink)
        pins.sort(key=lambda pin: (pin.span.line, pin.span.column, pin.span.end_line, pin.span.end_column))
        return pins


class _Runner:
    """One :meth:`ShellSession.run`: the walk over a text and the texts nested in it."""

    def __init__(self, session: ShellSession, source_map: SourceMap) -> None:
        self.session = session
        self.source_map = source_map
        self.expander = Expander(source_map)
        self.env = Env(session.scope.child(), start_dir(session.cwd))
        self.stack: list[tuple[int, Any, Any, Any]] = []
        self.functions: dict[str, tuple[Node, Text]] = {}
        self.called: set[str] = set()

    # --- driving ------------------------------------------------------------------------------------

    def run(self, text: str) -> None:
        top = Text(text, 0, 0)
        root = top.parse()
        error = first_error(top, root, self.source_map) if root.has_error else None
        if code_mentions_git(text, root) or self.session._variables_mention_git(text):
            self._push_children(_VISIT, root, top)
            self._drain()
            for name in reversed(list(self.functions)):
                self.stack.append((_CALL, name, None, None))
            self._drain()
        if error is not None:
            raise ExtractError(error)

    def _drain(self) -> None:
        stack = self.stack
        handlers: dict[int, Callable[[Any, Any, Any], None]] = {
            _VISIT: self._visit,
            _SUBST: self._subst,
            _COMMAND: self._command,
            _ASSIGN: self._assign,
            _DECLARE: self._declare,
            _FOR: self._for,
            _ISOLATE: self._isolate,
            _RESTORE: self._restore,
            _NESTED: self._nested,
            _CALL: self._call,
        }
        while stack:
            operation, item, text, extra = stack.pop()
            handlers[operation](item, text, extra)

    def _push_children(self, operation: int, node: Node, text: Text) -> None:
        if node.child_count:
            self.stack.extend((operation, child, text, None) for child in reversed(node.children))

    def _push_substitutions(self, node: Node, text: Text) -> None:
        """Look for command substitutions in the children of ``node`` (a leaf holds none: the words of
        most commands are leaves)."""
        if node.child_count:
            self.stack.extend(
                (_SUBST, child, text, None) for child in reversed(node.children) if child.child_count
            )

    # --- walking ------------------------------------------------------------------------------------

    def _visit(self, node: Node, text: Text, extra: Any) -> None:
        kind = node.type
        stack = self.stack
        if kind == "command":
            stack.append((_COMMAND, node, text, extra))
            self._push_substitutions(node, text)
        elif kind in ("variable_assignment", "variable_assignments"):
            stack.append((_ASSIGN, node, text, None))
            self._push_substitutions(node, text)
        elif kind == "declaration_command":
            stack.append((_DECLARE, node, text, None))
            self._push_substitutions(node, text)
        elif kind == "unset_command":
            self._unset(node, text)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is not None and body is not None:
                self.functions[text.node_text(name)] = (body, text)
        elif kind in ("subshell", "command_substitution", "process_substitution"):
            stack.append((_RESTORE, self.env, None, None))
            self.env = self.env.subshell()
            self._push_children(_VISIT, node, text)
        elif kind == "pipeline":
            for child in reversed(node.children):
                if child.is_named:
                    stack.append((_ISOLATE, child, text, None))
        elif kind == "for_statement":
            body = node.child_by_field_name("body")
            if body is not None:
                stack.append((_VISIT, body, text, None))
            stack.append((_FOR, node, text, None))
            for value in reversed(node.children_by_field_name("value")):
                stack.append((_SUBST, value, text, None))
        elif kind == "redirected_statement":
            self._redirected(node, text)
        elif kind != "comment":
            self._push_children(_VISIT, node, text)

    def _subst(self, node: Node, text: Text, extra: Any) -> None:
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
                self.stack.append((_VISIT, child, text, None))

    def _isolate(self, node: Node, text: Text, extra: Any) -> None:
        """Run ``node`` in a subshell (a pipeline's element)."""
        self.stack.append((_RESTORE, self.env, None, None))
        self.env = self.env.subshell()
        self.stack.append((_VISIT, node, text, None))

    def _restore(self, env: Env, text: Any, extra: Any) -> None:
        self.env = env

    def _call(self, name: str, text: Any, extra: Any) -> None:
        """Read a function's body where it is first called (or at the end when it never is)."""
        if name in self.called or name not in self.functions:
            return
        self.called.add(name)
        body, body_text = self.functions[name]
        self.stack.append((_VISIT, body, body_text, None))

    def _nested(self, nested: Text, parent: Text, extra: tuple[Scope, Dir, str, int]) -> None:
        """Read a script that a command runs (``bash -c``, a heredoc): a new shell started from here."""
        scope, cwd, command_name, offset = extra
        root = nested.parse()
        if root.has_error:
            line = self.source_map.position(parent.root(offset))[0]
            self.session.sink.notices.append(
                f"line {line}: the script given to {command_name} does not parse; reflint read what it could"
            )
        self.stack.append((_RESTORE, self.env, None, None))
        self.env = Env(scope.child(), cwd)
        self._push_children(_VISIT, root, nested)

    # --- variables ----------------------------------------------------------------------------------

    def _assign(self, node: Node, text: Text, extra: Any) -> None:
        """Assignments alone on a line: ``X=1``, ``A=1 B=2``."""
        nodes = node.children if node.type == "variable_assignments" else [node]
        for run in word_runs([child for child in nodes if child.is_named]):
            self._set(run, text, self.env.scope)

    def _set(self, run: list[Node], text: Text, scope: Scope, array: bool = False) -> None:
        """Bind the variable that the assignment ``run`` (an assignment and what touches it) assigns."""
        assignment = run[0]
        name_node = assignment.child_by_field_name("name")
        if assignment.type != "variable_assignment" or name_node is None or name_node.type != "variable_name":
            return
        name = text.node_text(name_node)
        scope.set(name, self._binding(run, name, text, scope, array))

    def _binding(self, run: list[Node], name: str, text: Text, scope: Scope, array: bool) -> Binding:
        assignment = run[0]
        offset = assignment.start_byte
        value_node = assignment.child_by_field_name("value")
        if array or (value_node is not None and value_node.type == "array"):
            return Binding(
                None, Resolution.UNRESOLVED, f"${name} is an array (line {self.expander.line(text, offset)})"
            )
        operator = next((child for child in assignment.children if child.type in ("=", "+=")), None)
        start = operator.end_byte if operator is not None else assignment.end_byte
        end = run[-1].end_byte
        value = self.expander.expand(Word.parse(text.text[start:end], start), text, scope)
        if operator is not None and operator.type == "+=":
            previous = scope.get(name)
            if previous is None or previous.value is None or value.value is None:
                return Binding(
                    None,
                    Resolution.UNRESOLVED,
                    f"${name} is appended to on line {self.expander.line(text, offset)}",
                )
            value.value = previous.value + value.value
        if value.value is not None:
            return Binding(value.value)
        if value.resolution is Resolution.EMPTY:
            return Binding(None, Resolution.EMPTY, value.note)
        return Binding(
            None, value.resolution, f"${name} (line {self.expander.line(text, offset)}): {value.note}"
        )

    def _declare(self, node: Node, text: Text, extra: Any) -> None:
        """``export``/``declare``/``local``/``readonly``/``typeset`` assignments (``-a``/``-A``: arrays)."""
        runs = word_runs([child for child in node.children if child.is_named])
        flags = [text.node_text(run[0]) for run in runs if run[0].type == "word"]
        array = any(flag.startswith(("-", "+")) and ("a" in flag or "A" in flag) for flag in flags)
        for run in runs:
            self._set(run, text, self.env.scope, array)

    def _unset(self, node: Node, text: Text) -> None:
        for child in node.children:
            if child.type in ("variable_name", "word") and not text.node_text(child).startswith("-"):
                name = text.node_text(child)
                line = self.expander.line(text, child.start_byte)
                self.env.scope.set(name, Binding(None, Resolution.EMPTY, f"${name} is unset on line {line}"))

    def _for(self, node: Node, text: Text, extra: Any) -> None:
        variable = node.child_by_field_name("variable")
        if variable is None:
            return
        name = text.node_text(variable)
        values = word_runs(node.children_by_field_name("value"))
        line = self.expander.line(text, node.start_byte)
        if len(values) == 1:
            value = self.expander.expand(self.expander.word(values[0], text), text, self.env.scope)
            if value.value is not None and len(value.value.split()) == 1:
                self.env.scope.set(name, Binding(value.value))
                return
        self.env.scope.set(
            name, Binding(None, Resolution.UNRESOLVED, f"${name} takes each value of the loop on line {line}")
        )

    def _directory(self, base: Dir, word: Word, text: Text, scope: Scope) -> Dir:
        """The directory ``word`` names, from ``base``."""
        value = self.expander.expand(word, text, scope).value
        return named(base, word, value, self.session.runtime_dirs)

    # --- commands -----------------------------------------------------------------------------------

    def _command(self, node: Node, text: Text, stdin: Node | None) -> None:
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
                self._set(run, text, self.env.scope)
            prefix = []
            if not rest:
                return
        name_raw = text.text[rest[0][0].start_byte : rest[0][-1].end_byte]
        if "$(" in name_raw or "`" in name_raw:  # a computed command name is not known statically
            return
        name_word = self.expander.word(rest[0], text)
        name = self.expander.command_name(name_word, text, self.env.scope)
        if name is None or not self._interesting(name, node, text):
            return
        scope = self.env.scope
        if prefix:
            scope = scope.child()
            for run in prefix:
                self._set(run, text, scope)
        words = [
            name_word,
            *self.expander.fields([self.expander.word(run, text) for run in rest[1:]], text, self.env.scope),
        ]
        herestring = next((child for child in node.children if child.type == "herestring_redirect"), None)
        self._interpret(words, text, scope, stdin, herestring)

    @staticmethod
    def _on_own_line(assignment: Node, name: Node, text: Text) -> bool:
        """True when a line break (not a continued line) separates an assignment from the command after it."""
        gap = text.text[assignment.end_byte : name.start_byte]
        return "\n" in gap.replace("\\\r\n", "").replace("\\\n", "")

    def _interesting(self, name: str, node: Node, text: Text) -> bool:
        """Whether the command named ``name`` can make a pin or change what later commands mean."""
        if (
            name in ("cd", "pushd", "popd", "read")
            or name in self.functions
            or name in commands.SHELLS
            or name in commands.WRAPPERS
        ):
            return True
        raw = text.node_text(node)
        if name.startswith("python"):
            return "pip" in raw
        if name in ("git", "eval", "uv") or name.startswith("pip"):
            return "git" in raw or "$" in raw
        return False

    def _interpret(
        self, words: list[Word], text: Text, scope: Scope, stdin: Node | None, herestring: Node | None
    ) -> None:
        index = 0
        cwd = self.env.cwd
        name = self.expander.command_name(words[0], text, scope)
        if name in self.functions:
            self.stack.append((_CALL, name, None, None))
            return
        while name in commands.WRAPPERS:
            wrapped = commands.unwrap(name, words, index + 1)
            if wrapped.command is None:
                return
            if wrapped.environment:
                scope = scope.child()
                for position in wrapped.environment:
                    variable, _, _ = words[position].display.partition("=")
                    value = self.expander.expand(words[position].sub(len(variable) + 1), text, self.env.scope)
                    scope.set(variable, Binding(value.value, value.resolution, value.note))
            if wrapped.directory is not None:
                cwd = self._directory(cwd, self._part(words, wrapped.directory), text, self.env.scope)
            index = wrapped.command
            name = self.expander.command_name(words[index], text, scope)
        if name is None:
            return
        start = index + 1
        if name == "git":
            self._git(words, index, text, cwd)
        elif name in ("cd", "pushd", "popd"):
            self._cd(name, words, start, text)
        elif name == "read":
            self._read(words, start, text)
        elif name in commands.SHELLS:
            self._shell(name, words, start, text, scope, cwd, stdin, herestring)
        elif name == "eval":
            if len(words) == start + 1:
                self._nested_word(words[start], text, scope, cwd, "eval")
        else:
            for position in commands.pip_requirements(name, words, start):
                self._pip(words[position], text)

    @staticmethod
    def _part(words: list[Word], part: commands.WordPart) -> Word:
        return words[part.index].sub(part.offset)

    def _read(self, words: list[Word], start: int, text: Text) -> None:
        for position in commands.assignment_names(words, start):
            name = words[position].display
            line = self.expander.line(text, words[position].start)
            self.env.scope.set(
                name, Binding(None, Resolution.UNRESOLVED, f"${name} is read at run time (line {line})")
            )

    def _cd(self, name: str, words: list[Word], start: int, text: Text) -> None:
        env = self.env
        if name == "popd":
            if env.stack:
                env.oldpwd, env.cwd, env.stack = env.cwd, env.stack[0], env.stack[1:]
            return
        target = commands.cd_target(words, start)
        if target is None:
            new = ("~", ".") if name == "cd" else (env.stack[0] if env.stack else env.cwd)
        elif words[target].display == "-" and name == "cd":
            if env.oldpwd is None:
                return
            new = env.oldpwd
        elif words[target].display.startswith(("+", "-")):  # pushd +N rotates the stack: not followed
            new = self.session.runtime_dirs.new()
        else:
            new = self._directory(env.cwd, words[target], text, env.scope)
        if name == "pushd":
            env.stack = (env.cwd, *env.stack) if target is not None else (env.cwd, *env.stack[1:])
        env.oldpwd, env.cwd = env.cwd, new

    def _shell(
        self,
        name: str,
        words: list[Word],
        start: int,
        text: Text,
        scope: Scope,
        cwd: Dir,
        stdin: Node | None,
        herestring: Node | None,
    ) -> None:
        script = commands.shell_script(words, start)
        if script is None:
            return
        if script.command is not None:
            self._nested_word(words[script.command], text, scope, cwd, f"{name} -c")
        elif stdin is not None:
            begin, end = stdin.start_byte, stdin.end_byte
            nested = Text(text.text[begin:end], text.roots(begin, end), text.depth + 1)
            self._push_nested(nested, text, scope, cwd, name, begin)
        elif herestring is not None:
            value = next((child for child in reversed(herestring.children) if child.is_named), None)
            if value is not None:
                self._nested_word(self.expander.word(value, text), text, scope, cwd, name)

    def _nested_word(self, word: Word, text: Text, scope: Scope, cwd: Dir, command_name: str) -> None:
        if "git" not in word.display:
            return
        roots = [text.root(word.start + offset) for offset in word.offsets]
        self._push_nested(
            Text(word.display, roots, text.depth + 1), text, scope, cwd, command_name, word.bounds()[0]
        )

    def _push_nested(
        self, nested: Text, text: Text, scope: Scope, cwd: Dir, command_name: str, offset: int
    ) -> None:
        if nested.depth > _MAX_NESTED_SCRIPTS:
            line = self.expander.line(text, offset)
            self.session.sink.notices.append(
                f"line {line}: scripts nested more than {_MAX_NESTED_SCRIPTS} deep are not read"
            )
            return
        self.stack.append((_NESTED, nested, text, (scope, cwd, command_name, offset)))

    # --- git ----------------------------------------------------------------------------------------

    def _git(self, words: list[Word], index: int, text: Text, cwd: Dir) -> None:
        git = commands.parse_git(words, index + 1)
        if git is None:
            return
        scope = self.env.scope
        repository = cwd
        for part in git.directories:
            repository = self._directory(repository, self._part(words, part), text, scope)
        if git.work_tree is not None:
            tree = self._directory(repository, self._part(words, git.work_tree), text, scope)
            if git.work_tree_is_git_dir and posixpath.basename(tree[1]) == ".git":
                tree = (tree[0], posixpath.dirname(tree[1]) or ".")
            repository = tree
        subcommand = words[git.subcommand].display
        start = git.subcommand + 1
        command_span = self.expander.span(text, words[index].bounds()[0], words[git.subcommand].bounds()[1])
        if subcommand == "clone":
            self._clone(words, start, text, repository, command_span)
        elif subcommand in ("checkout", "switch", "reset"):
            self._checkout(subcommand, words, start, text, repository)
        elif subcommand == "fetch":
            self._fetch(words, start, text, repository, command_span)

    def _names_remote(self, word: Word, text: Text, paths: bool) -> bool:
        """Whether the word's value looks like a repository URL rather than a directory or a remote's name:
        ``…://…``, scp-like ``user@host:path``, a remote helper's ``<transport>::<address>`` (``ext::…``,
        which reflint must see, to refuse it), and with ``paths`` a path (``/…``, ``./…``, ``../…``)."""
        value = word.display if word.is_literal else self.expander.expand(word, text, self.env.scope).value
        value = value if value is not None else word.display
        return (
            "://" in value
            or bool(_SCP_LIKE_URL.match(value) or _HELPER_TRANSPORT.match(value))
            or (paths and value.startswith(("/", "./", "../")))
        )

    def _may_split(self, word: Word, text: Text) -> bool:
        """Whether the word may stand for any number of words: an unquoted expansion of unknown value.

        (:meth:`_fields` has already split the unquoted expansions whose value is known.)
        """
        if word.is_literal or any(quote in word.raw for quote in "\"'"):
            return False
        return self.expander.expand(word, text, self.env.scope).value is None

    def _clone(self, words: list[Word], start: int, text: Text, parent: Dir, clone_span: Span) -> None:
        may_split = [index >= start and self._may_split(word, text) for index, word in enumerate(words)]
        names_remote = [
            index >= start and self._names_remote(word, text, paths=False) for index, word in enumerate(words)
        ]
        clone = commands.parse_clone(words, start, may_split, names_remote)
        if clone is None:
            return
        scope = self.env.scope
        url = self.expander.expand(words[clone.url], text, scope)
        branch = self.expander.expand(self._part(words, clone.branch), text, scope) if clone.branch else None
        if branch is not None:
            branch = empty_ref(branch)
        depth = (
            self.expander.expand(self._part(words, clone.depth), text, scope).value if clone.depth else None
        )
        origin = (
            self.expander.expand(self._part(words, clone.origin), text, scope).value if clone.origin else None
        )
        path: Dir | None
        if clone.directory is not None:
            path = self._directory(parent, words[clone.directory], text, scope)
        else:
            name = repo_dir_name(url.value if url.value is not None else words[clone.url].display)
            if name and clone.bare:
                name += ".git"
            path = join(parent, name) if name and "$" not in name and "`" not in name else None
        self.session.repositories.add(
            Clone(
                url=url,
                clone_span=clone_span,
                branch=branch,
                depth=parse_depth(depth),
                shallow=clone.shallow,
                single_branch=clone.single_branch,
                recurse_submodules=clone.recurse_submodules,
                origin=origin or "origin",
                parent=parent,
                path=path,
            )
        )

    def _checkout(self, subcommand: str, words: list[Word], start: int, text: Text, repository: Dir) -> None:
        target = commands.checkout_target(subcommand, words, start)
        if target is None:
            return
        ref = self.expander.expand(words[target], text, self.env.scope)
        clone = self.session.repositories.find(repository, fetch_head=ref.value == "FETCH_HEAD")
        if clone is None:
            return
        if ref.value is not None:
            if commands.is_relative_ref(ref.value):
                return
            if ref.value == "FETCH_HEAD":
                fetched = clone.fetched
                if fetched is None:
                    ref.value, ref.resolution = None, Resolution.UNRESOLVED
                    ref.note = "FETCH_HEAD names no ref that this script fetched"
                else:
                    ref.value, ref.resolution, ref.note = fetched.value, fetched.resolution, fetched.note
            else:
                ref.value = commands.checkout_ref_name(ref.value, clone.origin)
        clone.checkouts.append(Checkout(empty_ref(ref), clone.fetched, clone.shallow, clone.depth))

    def _fetch(self, words: list[Word], start: int, text: Text, repository: Dir, fetch_span: Span) -> None:
        """``git fetch``: of a URL and a ref, a repository of its own (see :class:`_Clone`); of a remote's
        name, the ref it brings into the clone in ``repository`` (and ``--unshallow``)."""
        fetch = commands.parse_fetch(words, start)
        ref = None
        if fetch.refspec is not None:
            ref = self.expander.expand(self._part(words, fetch.refspec).cut(":"), text, self.env.scope)
        if (
            ref is not None
            and fetch.repository is not None
            and self._names_remote(words[fetch.repository], text, paths=True)
        ):
            self._fetch_url(words, fetch, empty_ref(ref), text, repository, fetch_span)
            return
        clone = self.session.repositories.find(repository)
        if clone is None:
            return
        if fetch.unshallow:
            clone.shallow, clone.depth = False, None
        if ref is not None:
            clone.fetched = empty_ref(ref)

    def _fetch_url(
        self,
        words: list[Word],
        fetch: commands.FetchCommand,
        ref: Value,
        text: Text,
        repository: Dir,
        fetch_span: Span,
    ) -> None:
        """``git fetch [--depth N] URL REF``: REF of URL lands in FETCH_HEAD of ``repository``."""
        assert fetch.repository is not None
        scope = self.env.scope
        depth = (
            self.expander.expand(self._part(words, fetch.depth), text, scope).value if fetch.depth else None
        )
        self.session.repositories.add(
            Clone(
                url=self.expander.expand(words[fetch.repository], text, scope),
                clone_span=fetch_span,
                branch=None,
                depth=parse_depth(depth),
                shallow=fetch.shallow,
                single_branch=False,
                recurse_submodules=False,
                origin="origin",
                parent=repository,
                path=repository,
                fetched=ref,
                fetch_only=True,
            )
        )

    # --- pip ----------------------------------------------------------------------------------------

    def _pip(self, word: Word, text: Text) -> None:
        """A pip requirement word: a pin when it holds ``git+URL[@REF]``, as written or once expanded."""
        if "git+" not in word.display and word.is_literal:
            return  # nothing to expand, so vcs_parts would look for "git+" in the display
        expanded = Expanded(self.expander, word, text, self.env.scope)
        parts = commands.vcs_parts(expanded.text, expanded.known)
        if parts is None:
            return
        url = expanded.value(*parts.url)
        ref: Value | None = None
        if parts.ref is not None:
            ref = expanded.value(*parts.ref)
        elif parts.at is not None:  # an empty revision: written so, or expansions that give nothing
            at_span = expanded.value(parts.at, parts.at + 1).span
            ref = empty_ref(expanded.vanished_after(parts.at) or Value("", "", at_span))
        resolution, note = combined(ref, url)
        self.session.sink.pins.append(
            Pin(
                path=self.session.path,
                kind=self.session.kind,
                via=Via.PIP_VCS,
                span=ref.span if ref is not None else url.span,
                url=url.value if url.value is not None else url.written,
                remote=normalise_remote(url.value) if url.value is not None else None,
                ref=None if ref is None else ref.value,
                ref_text=None if ref is None else ref.written,
                resolution=resolution,
                resolution_note=note,
                url_span=url.span,
                stage=self.session.stage,
            )
        )


def extract_shell_file(source: SourceFile) -> None:
    """Fill ``source.pins`` and ``source.notices`` from a whole shell script.

    Args:
        source: a file whose ``text`` has been read.

    Raises:
        ExtractError: when the script does not parse (message with the line of the first error); the pins
            of its well-formed parts are in ``source.pins`` all the same.
    """
    text = source.text or ""
    if "git" not in text:  # as ShellSession.may_pin says, before building a source map
        return
    session = ShellSession(source.path, source.kind, Scope())
    try:
        session.run(text, SourceMap.identity(text))
    finally:
        source.pins = session.finish()
        source.notices.extend(session.notices)
