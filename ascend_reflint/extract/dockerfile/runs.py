"""``RUN`` → shell text: the shell texts that a ``RUN`` instruction executes, each built with a
:class:`~ascend_reflint.sourcemap.SourceMapBuilder` so that positions stay the file's own.

- Shell form: the command line (continuation lines joined), unless a ``SHELL`` other than a POSIX shell
  runs it; with heredocs, see :mod:`.heredocs`.
- Exec form (``RUN ["prog", "arg", …]``, no shell, no variable expanded): ``["bash", "-c", SCRIPT]`` is
  SCRIPT; any other argv is read as the one command it is, each argument a quoted word.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Iterator

from ascend_reflint.extract.commands import SHELLS, LiteralWord, shell_script
from ascend_reflint.extract.dockerfile.execform import JsonString, json_array, json_strings
from ascend_reflint.extract.dockerfile.heredocs import copy_body, heredoc_command, shebang, stdin_command
from ascend_reflint.extract.dockerfile.lines import Instruction, Logical, heredoc_word, shell_words
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.model import Pin
from ascend_reflint.resolve import unquote
from ascend_reflint.sourcemap import SourceMapBuilder

#: The shells that ``/bin/sh`` is on Debian, Ubuntu and Alpine (``SHELL ["/bin/sh", "-c"]`` names them too).
_SYSTEM_SHELLS = frozenset({"sh", "dash", "ash"})
#: Characters that a shell word may hold unquoted and still mean itself (for exec-form arguments).
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")
_INTERPRETERS = re.compile(r"(?:python[0-9.]*|pypy[0-9.]*|perl|ruby|node|php|lua|Rscript)")


class RunTexts:
    """The shell texts of one Dockerfile's ``RUN`` instructions, and the notices of those not read."""

    def __init__(self, file_text: str, notices: list[str]) -> None:
        """Args:
        file_text: the Dockerfile's text (for :meth:`written_in_file`).
        notices: where to say that a RUN was not scanned (the file's notices, in order).
        """
        self._file_text = file_text
        self._file_lines: list[str] | None = None  # split once, when an exec-form pin first needs them
        self._notices = notices
        #: The file lines of the exec-form RUNs read (see :meth:`written_in_file`).
        self._exec_form_lines: set[int] = set()

    def shell_texts(
        self, instruction: Instruction, shell: tuple[str, int] | None, args_start: int
    ) -> Iterator[SourceMapBuilder]:
        """The shell texts that a RUN executes, each mapped back to the file (none for a non-shell RUN).

        Args:
            instruction: the ``RUN`` (or ``ONBUILD RUN``).
            shell: the stage's ``SHELL`` program and its line, None for the default ``/bin/sh -c``.
            args_start: the offset of the command in the instruction's text (after the keyword and flags).

        Raises:
            ExtractError: for an exec form that is a JSON array of anything but strings.
        """
        logical = instruction.logical
        rest = logical.text[args_start:]
        start = args_start + len(rest) - len(rest.lstrip())
        command = rest.strip()
        values = json_array(command)
        if values is not None:
            yield from self._exec_form(logical, start, values)
            return
        if shell is not None and posixpath.basename(shell[0]) not in SHELLS:
            self._skip_notice(instruction, f"runs in {shell[0]} (SHELL on line {shell[1]})")
            return
        if not instruction.heredocs:
            out = SourceMapBuilder()
            logical.copy_to(out, start, start + len(command))
            yield out
            return
        yield from self._heredoc_run(instruction, start, command)

    @staticmethod
    def runs_in_system_shell(
        instruction: Instruction, shell: tuple[str, int] | None, args_start: int
    ) -> bool:
        """Whether the shell texts of a RUN (:meth:`shell_texts`) run in the image's ``/bin/sh``: shell form,
        no ``SHELL`` naming another shell than sh, and no heredoc that a shebang or a named shell runs
        (``RUN bash <<EOF``, ``#!/bin/bash``)."""
        command = instruction.logical.text[args_start:].strip()
        if command.startswith("["):
            try:
                if json_array(command) is not None:
                    return False  # exec form: no shell
            except ExtractError:
                return False  # a bad exec form: shell_texts says so

        if shell is not None and posixpath.basename(shell[0]) not in _SYSTEM_SHELLS:
            return False
        heredocs = instruction.heredocs
        if len(heredocs) != 1:
            return True
        if heredoc_word(command) is not None:  # RUN <<EOF: the body is the script, unless a shebang says
            return shebang(heredocs[0]) in (None, *_SYSTEM_SHELLS)
        words = stdin_command(shell_words(command))
        return words is None or posixpath.basename(unquote(words[0])[0]) in _SYSTEM_SHELLS

    def written_in_file(self, pin: Pin) -> Pin:
        r"""``pin`` with ``ref_text`` taken from the file when the pin comes from an exec-form RUN.

        An exec-form argument reaches the shell extractor wrapped in single quotes that the file does not
        hold (the argument ``'v1'`` becomes the shell word ``''\''v1'\'''``); what the file holds at the
        ref's span is the ref as written.
        """
        if not pin.ref_text or pin.span.line not in self._exec_form_lines:
            return pin
        if self._file_lines is None:
            self._file_lines = self._file_text.split("\n")
        lines = self._file_lines
        span = pin.span
        if span.line == span.end_line:
            written = lines[span.line - 1][span.column - 1 : span.end_column - 1]
        else:
            pieces = [lines[span.line - 1][span.column - 1 :], *lines[span.line : span.end_line - 1]]
            written = "\n".join([*pieces, lines[span.end_line - 1][: span.end_column - 1]])
        return dataclasses.replace(pin, ref_text=written)

    def _exec_form(self, logical: Logical, args_start: int, values: list[str]) -> Iterator[SourceMapBuilder]:
        if not values:
            return
        last_line = logical.position(len(logical.text) - 1)[0]
        self._exec_form_lines.update(range(logical.position(args_start)[0], last_line + 1))
        strings = json_strings(logical.text, args_start, values)
        script = _shell_c_script(values)
        if script is not None:
            out = SourceMapBuilder()
            _emit_json_string(out, logical, strings[script], quoted=False)
            yield out
            return
        out = SourceMapBuilder()
        for index, string in enumerate(strings):
            if index:
                out.insert(" ", *logical.position(string.open_offset))
            _emit_json_string(out, logical, string, quoted=_PLAIN_WORD.fullmatch(string.value) is None)
        yield out

    def _heredoc_run(self, instruction: Instruction, start: int, command: str) -> Iterator[SourceMapBuilder]:
        """A RUN with heredocs, as BuildKit's ``dispatchRun`` runs it."""
        logical = instruction.logical
        heredocs = instruction.heredocs
        body_is_script = len(heredocs) == 1 and heredoc_word(command) is not None
        stdin_words = stdin_command(shell_words(command)) if len(heredocs) == 1 else None
        if not body_is_script and stdin_words is not None:
            program = posixpath.basename(unquote(stdin_words[0])[0])
            if program in SHELLS:
                body_is_script = True
            elif _INTERPRETERS.fullmatch(program):
                self._skip_notice(instruction, f"heredoc is run by {program}, not a shell", heredocs[0].body)
                return
        if body_is_script:
            heredoc = heredocs[0]
            interpreter = shebang(heredoc)
            if interpreter is not None and interpreter not in SHELLS:
                self._skip_notice(instruction, f"heredoc is run by {interpreter}, not a shell", heredoc.body)
                return
            out = SourceMapBuilder()
            copy_body(out, heredoc)
            yield out
            return
        laid_out = heredoc_command(logical, start, command, heredocs)
        if laid_out is not None:
            yield laid_out
            return
        out = SourceMapBuilder()
        logical.copy_to(out, start, start + len(command))
        for heredoc in heredocs:
            out.insert("\n", *logical.position(len(logical.text)))
            copy_body(out, heredoc)
            out.copy(heredoc.name, heredoc.end_line, heredoc.end_column)
        yield out

    def _skip_notice(self, instruction: Instruction, why: str, text: str | None = None) -> None:
        """Say that a RUN was not scanned, when it could have held a pin."""
        if may_name_pin(instruction.logical.text if text is None else text):
            self._notices.append(f"line {instruction.line}: RUN {why}; not scanned for pins")


def _shell_c_script(values: list[str]) -> int | None:
    """The index of the script in ``["bash", "-c", "script", …]`` (the options read as
    :func:`~ascend_reflint.extract.commands.shell_script` reads a command line's), or None when argv runs no
    shell script."""
    if posixpath.basename(values[0]) not in SHELLS:
        return None
    script = shell_script([LiteralWord(value) for value in values], 1)
    return None if script is None else script.command


def _emit_json_string(out: SourceMapBuilder, logical: Logical, string: JsonString, *, quoted: bool) -> None:
    """Append a JSON string's value to ``out``; ``quoted`` wraps it in single quotes for the shell.

    The opening and closing single quotes map to the JSON string's own quotes, so that a quoted word's span
    covers the string literal in the file.
    """
    if quoted:
        out.insert("'", *logical.position(string.open_offset))
    ends = [offset for _text, offset, _copied in string.pieces[1:]] + [string.close_offset]
    for (text, offset, copied), end in zip(string.pieces, ends, strict=True):
        if not copied and len(text) == 1 and text != "'":  # an escape: the character it stands for
            out.spelled(text, *logical.position(offset), end - offset)
            continue
        if not quoted or "'" not in text:
            _emit_piece(out, logical, text, offset, copied)
            continue
        position = 0
        for index, part in enumerate(text.split("'")):
            if index:  # a single quote inside single quotes: close, escaped quote, reopen
                out.insert("'\\''", *logical.position(offset + position - 1 if copied else offset))
            _emit_piece(out, logical, part, offset + position if copied else offset, copied)
            position += len(part) + 1
    if quoted:
        out.insert("'", *logical.position(string.close_offset))


def _emit_piece(out: SourceMapBuilder, logical: Logical, text: str, offset: int, copied: bool) -> None:
    if copied:
        logical.copy_to(out, offset, offset + len(text))
    else:
        out.insert(text, *logical.position(offset))
