"""Handlers of commands that run more shell: a shell given a script (``bash -c STRING``, a heredoc or a
here-string on its standard input), ``eval STRING``, and the wrappers that run another command (``sudo``,
``env``, ``time`` …). The script is read as a new shell started where the command runs; positions inside
it map back into the file.
"""

from __future__ import annotations

from ascend_reflint.extract.commands import WRAPPERS, shell_script, unwrap
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.values import assigned_provenance
from ascend_reflint.extract.shell.words import Word
from ascend_reflint.resolve import Binding


def run_shell(walker: Walker, command: Command) -> None:
    """``bash [options] -c STRING``, or ``bash`` reading a heredoc or a here-string: read the script."""
    script = shell_script(command.words, command.start)
    if script is None:
        return
    text, stdin, herestring = command.text, command.stdin, command.herestring
    if script.command is not None:
        _run_word(walker, command, command.words[script.command], f"{command.name} -c")
    elif stdin is not None:
        begin, end = stdin.start_byte, stdin.end_byte
        nested = Text(text.text[begin:end], text.roots(begin, end), text.depth + 1)
        walker.run_nested(nested, text, command.scope, command.cwd, command.name, begin)
    elif herestring is not None:
        value = next((child for child in reversed(herestring.children) if child.is_named), None)
        if value is not None:
            _run_word(walker, command, walker.expander.word(value, text), command.name)


def run_eval(walker: Walker, command: Command) -> None:
    """``eval STRING``: read the string as a script (one argument only: several are joined at run time)."""
    if len(command.words) == command.start + 1:
        _run_word(walker, command, command.words[command.start], "eval")


def _run_word(walker: Walker, command: Command, word: Word, command_name: str) -> None:
    """Read the script that ``word`` holds, when it can pin (it names git, npm or yarn)."""
    if not may_name_pin(word.display):
        return
    text = command.text
    roots = [text.root(word.start + offset) for offset in word.offsets]
    nested = Text(word.display, roots, text.depth + 1)
    walker.run_nested(nested, text, command.scope, command.cwd, command_name, word.bounds()[0])


def run_wrapped(walker: Walker, command: Command) -> None:
    """A wrapper (``sudo``, ``env``, ``time`` …, see :func:`~ascend_reflint.extract.commands.unwrap`): run the
    command it runs, with the ``NAME=value`` and ``-C DIR`` it gives that command."""
    words, text = command.words, command.text
    name: str | None = command.name
    index, scope, cwd = command.name_index, command.scope, command.cwd
    while name in WRAPPERS:
        wrapped = unwrap(name, words, index + 1)
        if wrapped.command is None:
            return
        if wrapped.environment:
            scope = scope.child()
            for position in wrapped.environment:
                variable, _, _ = words[position].display.partition("=")
                word = words[position].sub(len(variable) + 1)
                value = walker.expander.expand(word, text, walker.env.scope)
                provenance = assigned_provenance(word, value, walker.sink.path)
                scope.set(variable, Binding(value.value, value.resolution, value.note, provenance))
        if wrapped.directory is not None:
            cwd = walker.directory(cwd, command.part(wrapped.directory), text, walker.env.scope)
        index = wrapped.command
        name = walker.expander.command_name(words[index], text, scope)
    if name is not None:
        walker.dispatch(command._replace(name=name, name_index=index, scope=scope, cwd=cwd))
