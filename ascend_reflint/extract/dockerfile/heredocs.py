"""``RUN`` with heredocs: what BuildKit's ``dispatchRun`` hands the shell, laid out so that tree-sitter-bash
reads it as the shell does (see :func:`heredoc_command`), every character at its file position.
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple

from ascend_reflint.extract.dockerfile.lines import HEREDOC_WORD, Heredoc, Logical, heredoc_word
from ascend_reflint.sourcemap import SourceMapBuilder


def copy_body(out: SourceMapBuilder, heredoc: Heredoc) -> None:
    """Append a heredoc's body, line by line at column 1 of its own lines."""
    for index, body_line in enumerate(heredoc.body.split("\n")[:-1]):
        out.copy(body_line + "\n", heredoc.first_line + index, 1)


def _reads_stdin(word: str) -> bool:
    """True for a heredoc word on standard input: ``<<EOF``, ``0<<EOF`` (not ``3<<EOF``)."""
    match = HEREDOC_WORD.fullmatch(word)
    return match is not None and match.group(1) in ("", "0")


def stdin_command(words: list[tuple[str, int, int]]) -> list[str] | None:
    """The words of ``prog [-options]`` when a command line is just that and one heredoc on its standard
    input, which may stand anywhere among them (bash(1) "REDIRECTION": a simple command's redirections
    may precede it): ``bash -ex <<EOF``, ``<<EOF sh -ex``. None for any other command line."""
    heredocs = [index for index, (word, _start, _end) in enumerate(words) if heredoc_word(word) is not None]
    if len(heredocs) != 1 or not _reads_stdin(words[heredocs[0]][0]):
        return None
    rest = [word for index, (word, _start, _end) in enumerate(words) if index != heredocs[0]]
    if not rest or not all(option[:1] in ("-", "+") and "c" not in option[1:] for option in rest[1:]):
        return None
    return rest


#: A shell's control operators, longest first (bash(1) "DEFINITIONS").
_CONTROL_OPERATORS = ("&&", "||", ";;", "|&", ";", "|", "&", "(", ")")
#: Reserved words that may stand before a simple command, and those that end a compound command.
_OPENING_WORDS = frozenset({"!", "if", "then", "else", "elif", "while", "until", "do", "{", "time"})
_CLOSING_WORDS = frozenset({"fi", "done", "esac", "}"})
#: What may come just before ``(`` inside a word: ``$(…)``, ``=(…)``, ``<(…)``, ``>(…)``, extglob ``@(…)``.
_WORD_PARENTHESIS = frozenset("$=<>@!+*?")


class _SimpleCommand(NamedTuple):
    """The words of one simple command of a command line and the control operator that ends it.

    Offsets are into the command line; ``operator`` is ``(start, end)``, ``end == start`` at the end of
    the line.
    """

    words: list[tuple[int, int]]
    operator: tuple[int, int]


def _simple_commands(command: str) -> list[_SimpleCommand]:
    """Split a command line into simple commands at its control operators.

    Quotes, escapes, backquotes and parenthesised parts of a word (``$(…)``, ``<(…)``) stay in the word;
    ``&`` and ``|`` of a redirection (``2>&1``, ``&>f``, ``>|f``) are not operators.
    """
    commands: list[_SimpleCommand] = []
    words: list[tuple[int, int]] = []
    position = 0
    while position < len(command):
        if command[position].isspace():
            position += 1
            continue
        operator = None
        if not command.startswith("&>", position):
            operator = next((op for op in _CONTROL_OPERATORS if command.startswith(op, position)), None)
        if operator is None:
            end = _command_word_end(command, position)
            words.append((position, end))
            position = end
            continue
        commands.append(_SimpleCommand(words, (position, position + len(operator))))
        words = []
        position += len(operator)
    commands.append(_SimpleCommand(words, (len(command), len(command))))
    return commands


def _command_word_end(command: str, start: int) -> int:
    """The offset just after the shell word that starts at ``command[start]``."""
    position, depth, quote = start, 0, ""
    while position < len(command):
        char = command[position]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            position += 1
        elif quote:
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char == "`":
            closing = command.find("`", position + 1)
            position = len(command) if closing == -1 else closing
        elif char == "(" and (depth or (position > start and command[position - 1] in _WORD_PARENTHESIS)):
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif depth == 0 and (char.isspace() or (char in ";&|()" and not _in_redirection(command, position))):
            return position
        position += 1
    return len(command)


def _in_redirection(command: str, position: int) -> bool:
    """True for an ``&`` or ``|`` that belongs to a redirection: ``>&``, ``<&``, ``&>``, ``>|``."""
    before = command[position - 1] if position else ""
    if command[position] == "&":
        return before in ("<", ">") or command.startswith("&>", position)
    return command[position] == "|" and before == ">"


def heredoc_command(
    logical: Logical, start: int, command: str, heredocs: list[Heredoc]
) -> SourceMapBuilder | None:
    """A RUN's command line (``logical.text[start:]``) and its heredocs, laid out for tree-sitter-bash.

    BuildKit hands the shell ``COMMAND⏎BODY1⏎NAME1⏎BODY2⏎NAME2``. tree-sitter-bash cannot read two heredocs
    on one line, a heredoc before the command name (``<<EOF bash``) or a ``;`` after a heredoc, all valid
    shell, so the text is laid out as bash reads the same commands:

    - a simple command keeps one heredoc, the last on its standard input (of several on one descriptor the
      last wins, and only standard input can feed a script to a shell); a heredoc before the command name
      moves to the command's end;
    - the simple command goes into a brace group that holds its body: ``{ bash <<A⏎BODY⏎A⏎} && { sh <<B⏎
      BODY⏎B⏎}`` (a group runs in the same shell, with the same standard input);
    - a heredoc of a compound command (``done <<EOF``) stays where it is, its body after the line.

    Every character keeps its file position; inserted characters map to the character they stand next to.

    Returns:
        The shell text, or None when the heredoc words here are not the instruction's heredocs.
    """
    simple_commands = _simple_commands(command)
    heredoc_words = [
        word
        for simple in simple_commands
        for word in simple.words
        if heredoc_word(command[word[0] : word[1]]) is not None
    ]
    if len(heredoc_words) != len(heredocs):
        return None
    body_of = dict(zip(heredoc_words, heredocs, strict=True))
    out = SourceMapBuilder()
    cursor = 0
    after_line: list[Heredoc] = []

    def copy_to(end: int) -> None:
        nonlocal cursor
        if end > cursor:
            logical.copy_to(out, start + cursor, start + end)
            cursor = end

    for simple in simple_commands:
        stdin = [
            word for word in simple.words if word in body_of and _reads_stdin(command[word[0] : word[1]])
        ]
        kept = stdin[-1] if stdin else None
        name = next(
            (
                word
                for word in simple.words
                if word not in body_of and command[word[0] : word[1]] not in _OPENING_WORDS
            ),
            None,
        )
        in_place = None
        if kept is not None and name is not None and command[name[0] : name[1]] in _CLOSING_WORDS:
            after_line.append(body_of[kept])
            in_place, kept = kept, None
        elif name is None:
            kept = None  # a heredoc with no command: read and thrown away
        moved = False
        for word in simple.words:
            before_name = name is not None and word[0] < name[0]
            if word in body_of and word != in_place and (word != kept or before_name):
                copy_to(word[0])
                cursor = word[1]  # dropped, or moved to the end of the command
                moved = moved or word == kept
            elif kept is not None and word == name:
                copy_to(word[0])
                out.insert("{ ", *logical.position(start + word[0]))
        if simple.words:
            copy_to(simple.words[-1][1])
        if kept is None:
            continue
        if moved:
            out.insert(" ", *logical.position(start + kept[0]))
            logical.copy_to(out, start + kept[0], start + kept[1])
        heredoc = body_of[kept]
        out.insert("\n", *logical.position(start + simple.words[-1][1] - 1))
        copy_body(out, heredoc)
        out.copy(heredoc.name, heredoc.end_line, heredoc.end_column)
        out.insert("\n}", heredoc.end_line, heredoc.end_column + len(heredoc.name))
    copy_to(len(command))
    for heredoc in after_line:
        out.insert("\n", *logical.position(start + len(command)))
        copy_body(out, heredoc)
        out.copy(heredoc.name, heredoc.end_line, heredoc.end_column)
    return out


def shebang(heredoc: Heredoc) -> str | None:
    """The interpreter named by a heredoc's ``#!`` line (``env`` resolved), or None without one."""
    first = heredoc.body.split("\n", 1)[0]
    if heredoc.chomp:
        first = first.lstrip("\t")
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    if not words:
        return None
    program = posixpath.basename(words[0])
    if program == "env":
        rest = [word for word in words[1:] if not word.startswith("-")]
        program = posixpath.basename(rest[0]) if rest else program
    return program
