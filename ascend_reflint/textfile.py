"""Read a recipe's bytes into text, leniently but never blindly.

Text that is not UTF-8 is still a recipe: a byte-order mark selects UTF-8/16/32 (Unicode Standard, 23.8
"Specials: BOM"); other bytes that are not UTF-8 are replaced, one character each, so that positions keep
counting characters. A file with NUL bytes and no BOM is binary and is not read.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from typing import BinaryIO

#: Default cap on a file's size, in bytes (``--max-file-size`` raises it).
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
#: The most lines of a recipe read (:func:`check_lines`; documentation, whose extraction reads only the
#: blocks that can pin, is not held to it). Extraction holds some hundreds of bytes per line (a Makefile
#: recipe line, a YAML list item, a requirement), so that 10 MiB of short lines took 0.5 to 2 GB and
#: minutes; the longest file that discovery finds in the 13 real repositories in benchmarks/ has 9,955
#: lines.
MAX_LINES = 100_000

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


class FileReadError(Exception):
    """A file that cannot be read as text; the message names the cause (not the path)."""


def read_text(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str | None]:
    """Read ``path`` as text.

    Args:
        path: filesystem path.
        max_bytes: the largest size read, in bytes.

    Returns:
        ``(text, notice)``: the text with ``\\r\\n`` and lone ``\\r`` turned into ``\\n``, and a notice when
        it was decoded leniently (a BOM other than UTF-8's, bytes that are not UTF-8), else None.

    Raises:
        FileReadError: the file is missing, unreadable, a directory, a symlink loop, not a regular file
            (a FIFO, a device, a socket), over ``max_bytes`` or binary.
    """
    return text_of(read_recipe_bytes(path, max_bytes))


def text_of(data: bytes) -> tuple[str, str | None]:
    """A file's bytes as :func:`read_text` gives its text: decoded (:func:`decode`), line ends made ``\\n``.

    Raises:
        FileReadError: the bytes hold NUL and no BOM (a binary file).
    """
    text, notice = decode(data)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, notice


def check_lines(text: str) -> None:
    """Raise :class:`FileReadError` when ``text`` (line ends made ``\\n``) has more than :data:`MAX_LINES`
    lines."""
    if text.count("\n", 0, len(text) - 1) >= MAX_LINES:  # a last line end starts no line
        raise FileReadError(f"more than {MAX_LINES:,} lines, more than any recipe holds")


def decode(data: bytes) -> tuple[str, str | None]:
    """Decode a file's bytes; see :func:`read_text` for the rules.

    Raises:
        FileReadError: the bytes hold NUL and no BOM (a binary file).
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            text = body.decode(encoding, errors="replace")
            notice = None if encoding == "utf-8" else f"decoded as {encoding.upper()} (byte-order mark)"
            return text, notice
    if b"\0" in data:
        raise FileReadError("binary file (holds NUL bytes)")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        text = data.decode("utf-8", errors=_ONE_PER_BYTE)
        return text, f"not valid UTF-8 (first at line {line}); undecodable bytes read as U+FFFD"


def _one_replacement_per_byte(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: one U+FFFD for each byte that does not decode.

    Python's ``replace`` gives one U+FFFD for a whole ill-formed sequence (``b"\\xe2\\x82"`` is one
    character); a file in a single-byte encoding such as Latin-1 has one character per byte, which is
    what an editor shows and what columns must count.
    """
    assert isinstance(error, UnicodeDecodeError)
    return "\ufffd" * (error.end - error.start), error.end


_ONE_PER_BYTE = "reflint-one-replacement-per-byte"
codecs.register_error(_ONE_PER_BYTE, _one_replacement_per_byte)


def read_head(path: str, size: int) -> bytes:
    """The first ``size`` bytes of the regular file at ``path`` (fewer when the file is shorter).

    Discovery sniffs scripts without an extension with it; like :func:`read_text`, it never blocks on a
    FIFO and never reads a device.

    Raises:
        FileReadError: as :func:`read_text` does for a file that cannot be opened or is not regular.
    """
    with _open_regular(path) as handle:
        try:
            return handle.read(size)
        except OSError as exc:
            raise FileReadError(_describe_os_error(exc)) from None


def read_recipe_bytes(path: str, max_bytes: int) -> bytes:
    """The bytes of the recipe at ``path``, read as :func:`read_text` reads them (its text is
    :func:`text_of` them).

    Raises:
        FileReadError: as :func:`read_text`, the binary case aside.
    """
    return read_bytes(path, max_bytes, " (raise it with --max-file-size)")


def read_bytes(path: str, max_bytes: int, advice: str = "", follow_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, read as recipes are: never a FIFO, device or directory,
    never more than ``max_bytes`` (a file that grows while it is read is cut off there and refused).

    Args:
        path: filesystem path.
        max_bytes: the largest size read, in bytes.
        advice: added to the message about a file over the limit (how to raise it).
        follow_links: False to refuse a symbolic link at ``path`` itself (``O_NOFOLLOW``), for files that
            only reflint writes (its cache), where a link was put by someone else.

    Raises:
        FileReadError: as :func:`read_text`, the binary case aside; ``"a symbolic link"`` when
            ``follow_links`` is False.
    """
    descriptor, size = _open_regular_descriptor(path, follow_links)
    try:
        if size > max_bytes:
            raise FileReadError(f"file is {size:,} bytes, over the limit of {max_bytes:,}{advice}")
        data = _read_to_end(descriptor, size, max_bytes + 1)
    except OSError as exc:
        raise FileReadError(_describe_os_error(exc)) from None
    finally:
        os.close(descriptor)
    if len(data) > max_bytes:
        raise FileReadError(f"file is over the limit of {max_bytes:,} bytes{advice}")
    return data


def _read_to_end(descriptor: int, size: int, limit: int) -> bytes:
    """The bytes of the open file ``descriptor`` up to its end or ``limit`` bytes, whichever comes first;
    ``size`` (its size when opened) sizes the first read, so that a file read whole costs one read and the
    one that sees its end (a read as large as ``limit`` would allocate that much for a file of any size)."""
    chunks: list[bytes] = []
    total = 0
    want = size + 1  # one more byte than the file had: a file that grew while it was read is noticed
    while total < limit:
        chunk = os.read(descriptor, min(want, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        want = 64 * 1024
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _open_regular(path: str, follow_links: bool = True) -> BinaryIO:
    """Open ``path`` for reading, refusing anything but a regular file before a byte is read (see
    :func:`_open_regular_descriptor`).

    Raises:
        FileReadError: the file cannot be opened, or is a directory, FIFO, device or socket.
    """
    return os.fdopen(_open_regular_descriptor(path, follow_links)[0], "rb")


def _open_regular_descriptor(path: str, follow_links: bool = True) -> tuple[int, int]:
    """Open ``path`` for reading, refusing anything but a regular file before a byte is read; the file
    descriptor and the file's size.

    ``O_NONBLOCK``: opening a FIFO that has no writer would otherwise wait forever (open(2)); the flag
    changes nothing for a regular file. ``O_NOFOLLOW`` when ``follow_links`` is False: open(2) fails with
    ELOOP on a symbolic link.

    Raises:
        FileReadError: the file cannot be opened, or is a directory, FIFO, device or socket.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        if not follow_links and exc.errno == errno.ELOOP:
            raise FileReadError("a symbolic link") from None
        raise FileReadError(_describe_os_error(exc)) from None
    try:
        status = os.fstat(descriptor)
    except OSError as exc:
        os.close(descriptor)
        raise FileReadError(_describe_os_error(exc)) from None
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise FileReadError("is a directory")
        raise FileReadError(f"not a regular file ({_file_type(status.st_mode)})")
    return descriptor, status.st_size


def _describe_os_error(exc: OSError) -> str:
    """A short cause for an error of ``open``/``read``, without the path (the caller names the file)."""
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, FileNotFoundError):
        return "file not found (deleted or a broken symlink)"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    return exc.strerror or type(exc).__name__


def _file_type(mode: int) -> str:
    """What a file that is not regular is, for messages: ``"a FIFO"``, ``"a character device"`` …"""
    kinds = (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a file")
