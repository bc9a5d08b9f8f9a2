"""Everything reflint prints or writes passes through here: standard output, standard error, ``--output``
files, the job summary, the baseline, cache entries, log lines and argparse's messages.

reflint runs in CI on files that strangers wrote, and the GitHub Actions runner obeys *workflow commands*
in the output of a step. Its rules (actions/runner, ``src/Runner.Common/ActionCommand.cs`` and
``src/Runner.Worker/ActionCommandManager.cs``):

- stdout and stderr are read line by line, a line ending at ``\\n``, ``\\r\\n`` or a lone ``\\r``
  (.NET ``StreamReader.ReadLine``);
- a line is trimmed of leading Unicode white space (``String.TrimStart``) and, when it then starts with
  ``::``, the text up to the next ``::`` names the command (``TryParseV2``);
- otherwise ``##[`` anywhere in the line starts the legacy form, the command name running to ``]``
  (``TryParse``);
- only registered commands are obeyed (``error``, ``warning``, ``stop-commands``, ``add-mask`` …, matched
  without regard to case); ``::stop-commands::TOKEN`` ignores every command until ``::TOKEN::``.

So that no text from outside (a file name, a ref, a URL, a config key, a message of git or of a server)
can become a command, this module guarantees, for every byte that reflint writes:

1. no line starts, after white space, with ``::``, unless it is one of reflint's own annotations
   (:meth:`Channel.write_command`): the first ``:`` of any other such line is written ``\\x3a``;
2. the bytes ``##[`` never occur: they are written ``#\\x23[`` in text and ``#\\u0023[`` in JSON, which a
   JSON reader turns back into the same string;
3. text from outside is shown with :func:`shown`: credentials masked, and characters that a terminal acts
   on or that a reader cannot see (control, format, default-ignorable characters; ICU's comparisons,
   which .NET may use for ``StartsWith``/``IndexOf``, skip the latter) written as ``\\xNN``/``\\uNNNN``,
   so that they cannot end a line or hide inside ``::``/``##[`` either.

Text that must stay byte-exact (a diff) is wrapped, when ``GITHUB_ACTIONS`` is set, in
``::stop-commands::TOKEN`` … ``::TOKEN::`` with a random token (:meth:`Channel.write_exact`).

Files are written with :func:`write_file`: to a temporary file in the target's folder, then renamed over
the target, so that a symbolic link at the target is replaced, never followed.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import re
import stat
import sys
import threading
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

if TYPE_CHECKING:
    import logging

#: The workflow commands that reflint itself writes (annotations, see ``report/github.py``).
OWN_COMMANDS = ("error", "warning", "notice")

#: Characters that Unicode makes "default ignorable" (DerivedCoreProperties.txt,
#: ``Default_Ignorable_Code_Point``) that are not control or format characters (those are escaped by
#: category): combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and other
#: variation selectors, and the code points reserved as ignorable. None is ASCII: the pattern is compiled
#: (and kept by re) when text outside ASCII is first shown, not by every command.
_IGNORABLE = (
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2065\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8"
    "\U000e0000-\U000e0fff]"
)
#: Escaped wherever they come from outside: controls, format characters, lone surrogates, and the line and
#: paragraph separators (U+2028, U+2029), which some viewers break lines at.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: A line end as the runner reads lines: ``\r\n``, a lone ``\r``, or ``\n``.
_LINE_END = re.compile(r"\r\n?|\n")
_LEGACY = "##["
_LEGACY_TEXT = "#\\x23["
_LEGACY_JSON = "#\\u0023["
_COLON_TEXT = "\\x3a"


def shown(text: str) -> str:
    """``text`` from outside (a path, ref, URL, key, git's message) as it may appear in any output.

    Credentials are masked (:func:`ascend_reflint.remote.redact`: pins keep the real URL, which the lookup
    needs; output never shows it). Control characters (Unicode category Cc: ESC, CR, LF …), format
    characters (Cf: bidirectional overrides such as U+202E, which can reorder what a reviewer sees), lone
    surrogates (Cs: no encoding can write them), line and paragraph separators (Zl, Zp) and the other
    default-ignorable characters become ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``; a tab stays. Nothing
    else changes: workflow commands are neutralised where lines are written (:class:`Channel`), so that
    text keeps its meaning.

    Args:
        text: any text.

    Returns:
        The text, safe to put inside a line.
    """
    from ascend_reflint.remote import redact  # imported when first shown: `reflint --version` needs none

    text = redact(text)
    if text.isprintable() and (text.isascii() or not re.search(_IGNORABLE, text)):
        return text
    return "".join(_escaped(char) if _invisible(char) else char for char in text)


def _invisible(char: str) -> bool:
    if char == "\t":
        return False
    return unicodedata.category(char) in _ESCAPED_CATEGORIES or _is_ignorable(char)


def _is_ignorable(char: str) -> bool:
    return not char.isascii() and re.match(_IGNORABLE, char) is not None


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def shown_lines(text: str) -> str:
    """A message of several lines (``\\n``-separated), each line made safe with :func:`shown`."""
    return "\n".join(shown(line) for line in text.split("\n"))


def _blank(char: str) -> bool:
    """White space as ``String.TrimStart`` sees it (``Char.IsWhiteSpace``), widened to every Python white
    space and to characters a reader cannot see: over-escaping a line is harmless, under-escaping is not."""
    return (
        char.isspace() or unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cc", "Cf") or _is_ignorable(char)
    )


def _guard_line(line: str, at_start: bool) -> str:
    """One line (no line end) with ``::`` at its start (when ``at_start``) and ``##[`` neutralised."""
    if at_start:
        lead = len(line) - len(line.lstrip(" "))  # a document's indentation, without a call per space
        while lead < len(line) and _blank(line[lead]):
            lead += 1
        if line.startswith("::", lead):
            line = line[:lead] + _COLON_TEXT + line[lead + 1 :]
    return line.replace(_LEGACY, _LEGACY_TEXT)


def guard_text(text: str) -> str:
    """A whole text (lines that reflint wrote, none of them its own command) with the line rules applied:
    see the module docstring, points 1 and 2."""
    channel = Channel(io.StringIO())
    channel.write(text)
    channel.close()
    return channel.raw.getvalue()  # type: ignore[attr-defined,no-any-return]


class Channel(io.TextIOBase, TextIO):
    """A text stream that applies the line rules of the module docstring to everything written to it.

    Writes may split a line anywhere: the start of a line is held back while it is only white space and
    at most one ``:``, and a trailing ``#`` or ``##`` until the next character is known; a line end, the
    next write or :meth:`close` decides. :meth:`flush` flushes what is decided.

    A reader that goes away (``reflint scan | head -1``: the pipe's read end closed, EPIPE) ends the output,
    not the run: what comes after is dropped, the stream's descriptor is pointed at ``/dev/null`` (so that
    flushing at exit does not fail again), and the command goes on to the exit code that its results give,
    whenever the reader left. (Python ignores SIGPIPE: the write fails with ``BrokenPipeError``; see the
    Python docs, library/signal.html, "Note on SIGPIPE".)

    Args:
        raw: the stream written to (standard output, standard error, a ``StringIO`` for a file).
        environ: the environment; ``GITHUB_ACTIONS`` decides whether :meth:`write_exact` stops commands.
    """

    def __init__(self, raw: TextIO, environ: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.raw = raw
        self._environ = os.environ if environ is None else environ
        self._held = ""
        self._mid_line = False
        self._reader_gone = False
        # Log records from lookup threads and the main thread's output may be written at once.
        self._lock = threading.RLock()

    # -- the stream interface that print(), logging, argparse and rich use ----------------------------
    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.raw, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.raw, "errors", None)

    def flush(self) -> None:
        self._unless_reader_gone(self.raw.flush)

    def close(self) -> None:
        """Write what is held back and flush; the underlying stream stays open. Safe to call again, and
        after the underlying stream was closed (the garbage collector calls it)."""
        with self._lock:
            if self.raw.closed:
                return
            if self._held:
                self._put(_guard_line(self._held, not self._mid_line))
                self._held = ""
                self._mid_line = True
            with contextlib.suppress(OSError, ValueError):
                self.flush()

    def write(self, text: str) -> int:
        """Write ``text`` (any part of any number of lines) with the line rules applied.

        Returns:
            ``len(text)``, as :meth:`io.TextIOBase.write` does.
        """
        with self._lock:
            data = self._held + text
            self._held = ""
            out: list[str] = []
            start = 0
            for end in _LINE_END.finditer(data):
                out.append(_guard_line(data[start : end.start()], not self._mid_line) + end.group())
                self._mid_line = False
                start = end.end()
            tail = data[start:]
            if tail:
                decided, self._held = self._split_tail(tail)
                if decided:
                    out.append(_guard_line(decided, not self._mid_line))
                    self._mid_line = True
            self._put("".join(out))
        return len(text)

    def _split_tail(self, tail: str) -> tuple[str, str]:
        """``(what can be written now, what must wait for the next character)`` of an unfinished line."""
        if not self._mid_line:
            lead = 0
            while lead < len(tail) and _blank(tail[lead]):
                lead += 1
            if tail[lead:] in ("", ":"):
                return "", tail
        hashes = min(2, len(tail) - len(tail.rstrip("#")))
        return (tail[:-hashes], tail[-hashes:]) if hashes else (tail, "")

    def _end_line(self) -> None:
        """Finish the current line, if one is started, so that what comes next starts a line."""
        if self._held or self._mid_line:
            self.write("\n")

    # -- reflint's own commands ------------------------------------------------------------------------
    def write_command(self, line: str) -> None:
        """Write one of reflint's own annotations, a line ``::error …::…`` (or ``warning``, ``notice``)
        built by :func:`workflow_command`, on a line of its own.

        Raises:
            ValueError: ``line`` is not such a command, or holds a line end.
        """
        name = line[2:].split(" ", 1)[0].split("::", 1)[0]
        if not line.startswith("::") or name not in OWN_COMMANDS or _LINE_END.search(line):
            raise ValueError(f"not one of reflint's annotations: {line[:40]!r}")
        with self._lock:
            self._end_line()
            self._put(line.replace(_LEGACY, _LEGACY_TEXT) + "\n")

    def write_exact(self, text: str) -> None:
        """Write ``text`` byte for byte (a diff), on lines of its own.

        When ``GITHUB_ACTIONS`` is set, the runner is told to obey no command until a random token
        (``::stop-commands::TOKEN`` before, ``::TOKEN::`` after: GitHub's "Stopping and starting workflow
        commands"); the token is 32 hexadecimal digits that ``text`` does not hold. A newline is added
        after ``text`` when it does not end with one, so that the token stands on its own line. Outside
        Actions nothing reads commands and ``text`` is written as it is.

        The bytes are UTF-8 whatever the stream's encoding, and a lone surrogate in ``text`` (a byte that
        is not UTF-8, decoded with ``surrogateescape``: a Latin-1 file's diff) is written as that byte,
        when the stream has a binary ``buffer`` (standard output does).
        """
        import secrets

        with self._lock:
            self._end_line()
            if not self._environ.get("GITHUB_ACTIONS"):
                self._write_bytes(text)
                return
            token = secrets.token_hex(16)
            while token.lower() in text.lower():  # pragma: no cover - 2**-128 per try
                token = secrets.token_hex(16)
            newline = "" if text.endswith(("\n", "\r")) else "\n"
            self._write_bytes(f"::stop-commands::{token}\n{text}{newline}::{token}::\n")

    def _write_bytes(self, text: str) -> None:
        """Write ``text`` to the raw stream's binary buffer as UTF-8, surrogates as the bytes they stand
        for; to the raw stream as text when it has no buffer (a ``StringIO``)."""
        buffer = getattr(self.raw, "buffer", None)
        if buffer is None:
            self._put(text)
            return
        data = text.encode("utf-8", "surrogateescape")

        def write() -> None:
            self.raw.flush()
            buffer.write(data)
            buffer.flush()

        self._unless_reader_gone(write)

    def _put(self, text: str) -> None:
        """Write ``text`` to the raw stream, unless its reader has gone (see the class docstring)."""
        self._unless_reader_gone(lambda: self.raw.write(text))

    def _unless_reader_gone(self, action: Callable[[], object]) -> None:
        """Call ``action`` (a write or a flush) unless the reader has gone; when it goes during the call
        (``BrokenPipeError``), drop the output from then on and point the stream's descriptor at
        ``/dev/null``."""
        if self._reader_gone:
            return
        try:
            action()
        except BrokenPipeError:
            self._reader_gone = True
            with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
                _to_devnull(self.raw.fileno())


def escape_data(text: str) -> str:
    """Escape a workflow command's message: ``%`` → ``%25``, CR → ``%0D``, LF → ``%0A``.

    Source: actions/toolkit ``packages/core/src/command.ts``, ``escapeData``.
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property: as :func:`escape_data`, and ``:`` → ``%3A``, ``,`` → ``%2C``.

    Source: actions/toolkit ``packages/core/src/command.ts``, ``escapeProperty``.
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(name: str, properties: Sequence[tuple[str, str]], lines: Sequence[str]) -> str:
    """``::name key=value,…::message``, one line, for :meth:`Channel.write_command`.

    Property values and the message's lines may come from outside: each is made safe with :func:`shown`
    (a line break inside one is escaped like any control character), then escaped as actions/toolkit
    does; the lines are joined by ``%0A``, which GitHub shows as line breaks.

    Args:
        name: one of :data:`OWN_COMMANDS`.
        properties: ``(key, value)`` pairs, in order.
        lines: the annotation's text, line by line.
    """
    joined = ",".join(f"{key}={escape_property(shown(value))}" for key, value in properties)
    message = "\n".join(shown(line) for line in lines)
    return f"::{name} {joined}::{escape_data(message)}"


def json_text(document: Any, indent: int | None = 2, default: Callable[[Any], Any] | None = None) -> str:
    """Serialise a JSON document: key order kept, non-ASCII kept, ending with a newline.

    Every string (keys too) goes through :func:`ascend_reflint.remote.redact`. Characters that
    :func:`shown` escapes are written as JSON ``\\uXXXX`` escapes (a surrogate pair above U+FFFF), and
    ``##[`` as ``#\\u0023[``: any JSON reader gives back the same strings. JSON's own escapes keep line
    ends out of strings, so no line of the document starts with text from outside.

    Args:
        document: dicts, lists, strings, numbers, booleans and None.
        indent: spaces per level, or None for the most compact form.
        default: what stands for a value that JSON cannot write (:func:`json.dumps`'s ``default``).
    """
    import json

    separators = None if indent is not None else (",", ":")
    text = json.dumps(
        _redacted(document), indent=indent, separators=separators, ensure_ascii=False, default=default
    )
    return _JSON_CANDIDATES.sub(_json_escape, text).replace(_LEGACY, _LEGACY_JSON) + "\n"


def write_json(stream: TextIO, document: Any) -> None:
    """Write :func:`json_text` of ``document`` (indented) to ``stream``, the same text, with the one iterator
    in it (a generator where an array goes: a scan's findings, a SARIF run's results) written as that
    array one item at a time: thousands of findings cost the memory of one item's objects and text, not
    the whole document's at once.

    Args:
        stream: the text stream written to.
        document: as :func:`json_text` takes, with at most one iterator in it; without one, the document
            is written whole.

    Raises:
        TypeError: ``document`` holds a second iterator, or another value that JSON cannot write.
    """
    import secrets

    token = f"reflint-items-{secrets.token_hex(16)}"  # stands for the array in the rest of the text
    found: list[Iterator[Any]] = []

    def place(value: object) -> str:
        if isinstance(value, Iterator) and not found:
            found.append(value)
            return token
        raise TypeError(f"{type(value).__name__} is not JSON")

    text = json_text(document, default=place)
    if not found:
        stream.write(text)
        return
    head, tail = text.split(f'"{token}"')
    # The line of the array's key (``  "findings": ``) gives the indentation of its closing bracket; its
    # items are one level (two spaces) deeper, as json.dumps indents a list.
    key_line = head.rsplit("\n", 1)[-1]
    closing = key_line[: len(key_line) - len(key_line.lstrip(" "))]
    items = iter(found[0])
    first = next(items, _NO_ITEM)
    if first is _NO_ITEM:
        stream.write(head + "[]" + tail)  # json.dumps writes an empty list so, whatever the indent
        return
    stream.write(head + "[")
    for count, item in enumerate(itertools.chain([first], items)):
        lines = json_text(item).rstrip("\n").replace("\n", f"\n{closing}  ")
        stream.write(f"{',' if count else ''}\n{closing}  {lines}")
    stream.write(f"\n{closing}]{tail}")


#: What :func:`write_json` gets from an iterator that has no item.
_NO_ITEM = object()


#: Candidates for :func:`_json_escape`: DEL, C1 controls, and every non-ASCII character (checked there).
_JSON_CANDIDATES = re.compile("[^\x00-\x7e]")  # a negated class: a range up to U+10FFFF costs ms to compile


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if not _invisible(char):
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _redacted(value: Any) -> Any:
    from ascend_reflint.remote import redact

    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {_redacted(key): _redacted(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(item) for item in value]
    return value


# -- standard streams and logs ----------------------------------------------------------------------------
def _to_devnull(descriptor: int) -> None:
    """Point ``descriptor`` at ``/dev/null`` (opened for reading and writing).

    Raises:
        OSError: ``/dev/null`` cannot be opened, or ``dup2`` fails.
    """
    null = os.open(os.devnull, os.O_RDWR)
    if null != descriptor:
        os.dup2(null, descriptor)
        os.close(null)


def open_closed_standard_descriptors() -> None:
    """Point each of the descriptors 0, 1 and 2 that is closed (``reflint scan >&-``) at ``/dev/null``.

    Called first thing: a file or pipe that reflint opens later would otherwise get the free number, and a
    git it runs, which inherits it as its standard stream, would write into that file. POSIX allocates the
    lowest free descriptor (open(2)), which is why a closed standard one is taken first.
    """
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            with contextlib.suppress(OSError):
                _to_devnull(descriptor)


@contextlib.contextmanager
def guarded_streams(environ: Mapping[str, str] | None = None) -> Iterator[tuple[Channel, Channel]]:
    """Replace ``sys.stdout`` and ``sys.stderr`` with :class:`Channel` s over them for the duration, so that
    every write (reflint's, argparse's, rich's, a library's) follows the line rules. A stream that Python
    left as None (its descriptor was closed when the process started) is ``/dev/null``.

    Yields:
        ``(stdout, stderr)``, the two channels. Both are closed (held text written) and the original
        streams put back on exit.
    """
    saved = sys.stdout, sys.stderr
    with contextlib.ExitStack() as stack:
        raw_out, raw_err = (
            stream if stream is not None else stack.enter_context(open(os.devnull, "w", encoding="utf-8"))
            for stream in saved
        )
        out, err = Channel(raw_out, environ), Channel(raw_err, environ)
        sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
        try:
            yield out, err
        finally:
            sys.stdout, sys.stderr = saved
            for channel in (out, err):
                with contextlib.suppress(OSError, ValueError):
                    channel.close()


@functools.cache
def _safe_log_formatter() -> type[logging.Formatter]:
    """The formatter class of reflint's log handler, made on first use: ``logging`` is imported by the
    commands that log, not by ``reflint --version``."""
    import logging

    class SafeLogFormatter(logging.Formatter):
        """Formats a log record, its traceback included, with credentials masked and every character that
        :func:`shown` escapes escaped, except the line breaks of a traceback. Used with a handler whose
        stream is a :class:`Channel`, which neutralises workflow commands at line starts."""

        def format(self, record: logging.LogRecord) -> str:
            return "\n".join(shown(line) for line in super().format(record).split("\n"))

    return SafeLogFormatter


_HANDLER_NAME = "reflint-output"


def configure_logging(stream: TextIO, debug: bool, defer: bool = False) -> None:
    """Send every logger's records (reflint's and any library's) to ``stream`` as ``reflint: MESSAGE`` lines
    through a formatter that masks and escapes as :func:`shown` does: WARNING and up, or everything with
    ``debug``. Replaces the handler that an earlier call installed.

    Args:
        stream: where the records go.
        debug: every record, not only WARNING and up.
        defer: install the handler when :func:`ensure_logging` is first called, not now: a command calls it
            before it reads a file or runs another library's code, which is when a record can be made, so
            that a scan that finds nothing to read never imports :mod:`logging` (about 3 ms of start-up).
    """
    global _PENDING_LOGGING
    if defer:
        _PENDING_LOGGING = (stream, debug)
        return
    _PENDING_LOGGING = None
    import logging

    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(handler)
    handler = logging.StreamHandler(stream)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(_safe_log_formatter()("reflint: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if debug else logging.WARNING)


def ensure_logging() -> None:
    """Install the handler that a deferred :func:`configure_logging` left pending, if any."""
    if _PENDING_LOGGING is not None:
        configure_logging(*_PENDING_LOGGING)


#: The arguments of a deferred :func:`configure_logging`, until :func:`ensure_logging` applies them.
_PENDING_LOGGING: tuple[TextIO, bool] | None = None


def log_debug(message: str, *args: object, exc_info: bool = False) -> None:
    """Log ``message % args`` at DEBUG on the ``reflint`` logger (``exc_info``: with the exception being
    handled), without importing :mod:`logging` for a record that nothing would keep.

    Only a program that imported :mod:`logging` can have set a level that keeps a DEBUG record (reflint
    does with ``--debug``, at start-up); until then the root logger has its default level, WARNING, and
    would drop it. So the modules that log only at DEBUG do not import :mod:`logging` (with
    :mod:`traceback`, :mod:`textwrap` and :mod:`string` behind it, some 3 ms of a warm scan)."""
    logging = sys.modules.get("logging")
    if logging is not None:
        logging.getLogger("reflint").debug(message, *args, exc_info=exc_info, stacklevel=2)


def debug_logging() -> bool:
    """True when DEBUG records on the ``reflint`` logger are kept (``--debug``), for a caller whose message
    costs something to make; without importing :mod:`logging` (see :func:`log_debug`)."""
    logging = sys.modules.get("logging")
    return logging is not None and logging.getLogger("reflint").isEnabledFor(logging.DEBUG)


def log_warning(message: str, *args: object) -> None:
    """Log ``message % args`` at WARNING on the ``reflint`` logger, through reflint's handler (installed
    first if :func:`configure_logging` deferred it)."""
    import logging

    ensure_logging()
    logging.getLogger("reflint").warning(message, *args, stacklevel=2)


# -- files ------------------------------------------------------------------------------------------------
class OutputFileError(Exception):
    """A file that reflint refuses or fails to write: ``cannot write PATH: REASON``.

    Attributes:
        path: the file, as given.
        reason: why (``"a directory"``, ``"Permission denied"`` …).
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason


def write_file(path: str, text: str | bytes, inside: str | None = None) -> None:
    """Write ``text`` (UTF-8; bytes as they are, for a fixed recipe) to ``path`` without ever writing
    through a symbolic link (see :func:`replacing`, which raises what this raises).

    Args:
        path: the file to write.
        text: its new content: text (written as UTF-8) or bytes.
        inside: the folder below which no folder of ``path`` may be a link (default: the current
            directory, where a relative path starts); nothing is checked for a path outside it.
    """
    with replacing(path, inside) as handle:
        handle.write(text if isinstance(text, bytes) else text.encode("utf-8"))


@contextlib.contextmanager
def replacing(path: str, inside: str | None = None) -> Iterator[BinaryIO]:
    """A binary file whose content replaces ``path`` when the block ends, and never through a symbolic link;
    written as it comes (a report of thousands of findings is never held whole), and nothing of it is left
    when the block raises.

    The content goes to a new temporary file in the target's folder (``O_EXCL``: never an existing file),
    which is then renamed over the target (:func:`os.replace`, atomic on POSIX and Windows). A symbolic
    link at ``path``, dangling or not, is replaced by the file; whatever it pointed to is untouched. A
    folder on the way that is a symbolic link below ``inside`` (a work tree's: a pull request can commit
    one that points anywhere; a cache's: a restored cache can hold one) is refused; the folders above
    ``inside`` are the user's own. A regular file at ``path`` keeps its permission bits; a new one gets
    those that ``open()`` would give (0666 less the umask).

    Args: as :func:`write_file`'s.

    Raises:
        OutputFileError: ``path`` is a directory or a special file (FIFO, device, socket), a folder on the
            way is a symbolic link, or the folder cannot be written.
    """
    import tempfile

    linked = _linked_folder(path, os.getcwd() if inside is None else inside)
    if linked is not None:
        raise OutputFileError(
            path, f"the folder {linked} is a symbolic link, which reflint does not write through"
        )
    mode = _mode_for(path)
    folder = os.path.dirname(os.path.abspath(path))
    temp: str | None = None
    try:
        descriptor, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
        with os.fdopen(descriptor, "wb") as handle:
            yield handle
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException as error:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if isinstance(error, OSError):
            raise OutputFileError(path, error.strerror or str(error)) from None
        raise


def _linked_folder(path: str, inside: str) -> str | None:
    """The first folder of ``path`` below ``inside`` that is a symbolic link (as ``path`` spells it), or
    None; None too when ``path`` is not below ``inside``."""
    inside = os.path.abspath(inside)
    try:
        relative = os.path.relpath(os.path.dirname(os.path.abspath(path)), inside)
    except ValueError:  # another drive (Windows): not below it
        return None
    if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    folder = inside
    for part in relative.split(os.sep):
        folder = os.path.join(folder, part)
        if os.path.islink(folder):
            return os.path.relpath(folder) if not os.path.isabs(path) else folder
    return None


def _mode_for(path: str) -> int:
    """The permission bits the written file gets; refuses a target that is not a file or a link."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise OutputFileError(path, error.strerror or str(error)) from None
    if status is not None and stat.S_ISREG(status.st_mode):
        return stat.S_IMODE(status.st_mode)
    if status is not None and not stat.S_ISLNK(status.st_mode):
        kind = "a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
        raise OutputFileError(path, kind)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def append_file(path: str, text: str) -> None:
    """Append ``text`` (UTF-8, with the line rules applied) to the regular file at ``path``, for files
    that others own and reflint adds to (the job summary, ``$GITHUB_STEP_SUMMARY``).

    Raises:
        OutputFileError: ``path`` is not a regular file or cannot be written.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        raise OutputFileError(path, error.strerror or str(error)) from None
    with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OutputFileError(path, "not a regular file")
        handle.write(guard_text(text))
