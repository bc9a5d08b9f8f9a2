"""The seams between the walker and the handlers of commands.

Every handler (``handle(walker, command)``, one per command family: :mod:`.builtins`, :mod:`.git`,
:mod:`.pip`, :mod:`.shells`) gets a :class:`Command`, and asks the :class:`Walker` for what it cannot do
alone: the current environment, values of words, repositories, the sink, and running more shell (a nested
script, the command a wrapper runs). Handlers never touch the walker's stack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from tree_sitter import Node

from ascend_reflint.extract.commands import WordPart
from ascend_reflint.extract.shell.dirs import Dir
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.repos import Repositories
from ascend_reflint.extract.shell.state import Env, Sink
from ascend_reflint.extract.shell.values import Expander
from ascend_reflint.extract.shell.words import Word
from ascend_reflint.resolve import Scope


class Command(NamedTuple):
    """A simple command about to run, as its handler gets it.

    Attributes:
        name: the command's name (the basename of its first word; after a wrapper, the wrapped command's).
        words: every word of the command line, unquoted expansions of known value split into fields.
        name_index: the index of the word that ``name`` comes from (words before it belong to wrappers).
        text: the text the words are in (for spans and nested scripts).
        scope: the variables of the command's process: the shell's, with its ``NAME=value`` prefixes and
            a wrapper's ``NAME=value`` arguments. The shell expands the command's arguments in its own
            scope (:attr:`Walker.env`), before the prefixes take effect.
        cwd: the directory the command runs in (the shell's, or a wrapper's ``-C DIR``).
        stdin: the body of a heredoc on the command's standard input, or None.
        herestring: the ``<<<`` redirection of the command, or None.
    """

    name: str
    words: list[Word]
    name_index: int
    text: Text
    scope: Scope
    cwd: Dir
    stdin: Node | None
    herestring: Node | None

    @property
    def start(self) -> int:
        """The index of the first word after the command's name."""
        return self.name_index + 1

    def part(self, part: WordPart) -> Word:
        """The word, or the end of a word (``--branch=v1``), that ``part`` names."""
        return self.words[part.word].sub(part.offset)


class Walker(Protocol):
    """What a handler may use of the walk.

    Attributes:
        env: the current shell's environment (variables, directories); a handler may change it as the
            command does (``cd``, ``read``).
        expander: words to values and file spans.
        repositories: the session's clones.
        sink: where pins and notices go.
    """

    env: Env
    expander: Expander
    repositories: Repositories
    sink: Sink

    def directory(self, base: Dir, word: Word, text: Text, scope: Scope) -> Dir:
        """The directory ``word`` names, from ``base``, with the variables of ``scope``."""
        ...

    def runtime_dir(self) -> Dir:
        """A directory computed at run time, unlike any other."""
        ...

    def dispatch(self, command: Command) -> None:
        """Run ``command`` with the handler of its name (a wrapper's handler runs the wrapped command so)."""
        ...

    def run_nested(
        self, nested: Text, parent: Text, scope: Scope, cwd: Dir, command_name: str, offset: int
    ) -> None:
        """Read ``nested``, a script that a command of ``parent`` at ``offset`` runs in a new shell
        (``bash -c``, a heredoc, ``eval``) with the variables of ``scope`` in ``cwd``, after that command."""
        ...


#: A command's handler.
Handler = Callable[[Walker, Command], None]
