"""Commands that run other commands or change where they run: shells (``bash -c``, standard input),
wrappers (``sudo``, ``env``, ``time`` …), ``cd`` and ``read``.

Sources: bash(1) "INVOCATION" and "SHELL BUILTIN COMMANDS"; sudo(8), env(1), timeout(1) and the others'
manuals for their options.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ascend_reflint.extract.commands.options import CommandWord, WordPart

SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "ash", "mksh"})
#: Long options that take the next word as their value.
_LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file"})


class ShellScript(NamedTuple):
    """Where a shell invocation takes its script from.

    Attributes:
        command: index of the ``-c`` string, or None when the script comes from standard input.
    """

    command: int | None


def shell_script(words: Sequence[CommandWord], start: int) -> ShellScript | None:
    """How ``bash [options] [-c STRING | FILE]`` (bash(1) "INVOCATION", "OPTIONS"; sh and dash alike) gets
    its commands: the one reader of a shell's options, for command lines and for exec-form ``RUN``
    arguments (:class:`~ascend_reflint.extract.commands.options.LiteralWord`) alike.

    Single-letter options may be bundled (``-ec``, ``-lc``); each ``o`` or ``O`` among them takes the next
    word as its value, in order, as bash's ``parse_shell_options`` reads them: in ``bash -ceuxo pipefail
    STRING`` the script is STRING. ``--rcfile FILE`` and ``--init-file FILE`` take a value too.

    Args:
        words: the command's words.
        start: the index of the first word after the shell's name.

    Returns:
        ``ShellScript(i)`` for ``-c`` (also inside ``-ec``, ``-lc``), ``ShellScript(None)`` when the shell
        reads standard input (no file argument, or ``-s``), None when it runs a script file.
    """
    reads_command = False
    index = start
    while index < len(words):
        text = words[index].literal_prefix
        if text == "--" or text == "-":
            index += 1
            break
        if text in _LONG_WITH_VALUE:
            index += 2
            continue
        if text.startswith("--"):
            index += 1
            continue
        if text[:1] in ("-", "+") and len(text) > 1:
            letters = text[1:]
            if text[0] == "-" and "c" in letters:
                reads_command = True
            if text[0] == "-" and "s" in letters and not reads_command:
                return ShellScript(None)
            index += 1 + letters.count("o") + letters.count("O")
            continue
        break
    if reads_command:
        return ShellScript(index) if index < len(words) else None
    return ShellScript(None) if index >= len(words) else None


class Wrapped(NamedTuple):
    """A command run by a wrapper (``sudo git clone …``).

    Attributes:
        command: index of the wrapped command's first word, or None when the wrapper runs nothing.
        environment: indexes of ``NAME=VALUE`` words the wrapper puts in the command's environment
            (``env`` and ``sudo`` take them).
        directory: the directory the wrapper runs the command in (``env -C DIR``), or None.
    """

    command: int | None
    environment: tuple[int, ...] = ()
    directory: WordPart | None = None


_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")

#: wrapper → (options that take a separate value, whether the command follows a positional argument).
_WRAPPERS: dict[str, tuple[frozenset[str], bool]] = {
    "sudo": (
        frozenset(
            {
                "-u",
                "-g",
                "-C",
                "-D",
                "-h",
                "-p",
                "-r",
                "-t",
                "-T",
                "-U",
                "--user",
                "--group",
                "--chdir",
                "--host",
                "--prompt",
                "--role",
                "--type",
                "--command-timeout",
                "--other-user",
                "--close-from",
            }
        ),
        False,
    ),
    "doas": (frozenset({"-u", "-C"}), False),
    "env": (frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}), False),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), False),
    "exec": (frozenset({"-a"}), False),
    "command": (frozenset(), False),
    "builtin": (frozenset(), False),
    "nice": (frozenset({"-n", "--adjustment"}), False),
    "nohup": (frozenset(), False),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), False),
    "timeout": (frozenset({"-k", "--kill-after", "-s", "--signal"}), True),
}

WRAPPERS = frozenset(_WRAPPERS)


def unwrap(name: str, words: Sequence[CommandWord], start: int) -> Wrapped:
    """The command that a wrapper (``sudo``, ``env``, ``time``, ``exec``, ``command``, ``nice``, ``nohup``,
    ``stdbuf``, ``timeout``, ``builtin``, ``doas``) runs.

    ``command -v``/``-V`` only looks a command up, so it runs nothing.

    Args:
        name: the wrapper's name (one of :data:`WRAPPERS`).
        words: the command's words.
        start: the index of the first word after the wrapper's name.

    Returns:
        Where the wrapped command starts, and what the wrapper adds to its environment.
    """
    with_value, skips_positional = _WRAPPERS[name]
    environment: list[int] = []
    directory: WordPart | None = None
    index = start
    while index < len(words):
        text = words[index].literal_prefix
        if text == "--":
            index += 1
            break
        if name == "command" and text in ("-v", "-V"):
            return Wrapped(None)
        if name in ("env", "sudo") and _ASSIGNMENT_WORD.match(text):
            environment.append(index)
            index += 1
            continue
        if not text.startswith("-") or text == "-":
            break
        option, equals, _ = text.partition("=")
        if name == "env" and option in ("-C", "--chdir"):
            directory = WordPart(index, len(option) + 1) if equals else WordPart(index + 1)
        index += 2 if text in with_value else 1
    while (
        name in ("env", "sudo") and index < len(words) and _ASSIGNMENT_WORD.match(words[index].literal_prefix)
    ):
        environment.append(index)
        index += 1
    if skips_positional:
        index += 1
    if index >= len(words):
        return Wrapped(None, tuple(environment), directory)
    return Wrapped(index, tuple(environment), directory)


def cd_target(words: Sequence[CommandWord], start: int) -> int | None:
    """The index of ``cd``'s directory word (after ``-L``/``-P``/``-e``/``-@`` and ``--``), or None."""
    index = start
    while index < len(words):
        text = words[index].display
        if text == "--":
            return index + 1 if index + 1 < len(words) else None
        if text in ("-L", "-P", "-e", "-@", "-LP", "-PL", "-Pe", "-eP"):
            index += 1
            continue
        return index
    return None


def assignment_names(words: Sequence[CommandWord], start: int) -> list[int]:
    """The indexes of the variable-name words of ``read [options] NAME…`` (bash(1) "read")."""
    names: list[int] = []
    index = start
    while index < len(words):
        text = words[index].display
        if text in ("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"):
            index += 2
            continue
        if not text.startswith("-") and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
            names.append(index)
        index += 1
    return names
