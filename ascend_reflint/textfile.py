"""Read a recipe's bytes into text, leniently but never blindly.

Text that is not UTF-8 is still a recipe: a byte-order mark selects UTF-8/16/32 (Unicode Standard, 23.8
"Specials: BOM"); other bytes that are not UTF-8 are replaced, one character each, so that positions keep
counting characters. A file with NUL bytes and no BOM is binary and is not read.
"""

from __future__ import annotations

import codecs
import errno
import os

#: Default cap on a file's size, in bytes (``--max-file-size`` raises it).
DEFAULT_MAX_BYTES = 10 * 1024 * 1024

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
        FileReadError: the file is missing, unreadable, a directory, a symlink loop, over ``max_bytes``
            or binary.
    """
    data = _read_bytes(path, max_bytes)
    text, notice = decode(data)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, notice


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
        text = data.decode("utf-8", errors="replace")
        return text, f"not valid UTF-8 (first at line {line}); undecodable bytes read as U+FFFD"


def _read_bytes(path: str, max_bytes: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:
                raise FileReadError(
                    f"file is {size:,} bytes, over the limit of {max_bytes:,} (raise it with --max-file-size)"
                )
            data = handle.read(max_bytes + 1)
    except FileReadError:
        raise
    except IsADirectoryError:
        raise FileReadError("is a directory") from None
    except FileNotFoundError:
        raise FileReadError("file not found (deleted or a broken symlink)") from None
    except PermissionError:
        raise FileReadError("permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileReadError("symlink loop") from None
        raise FileReadError(exc.strerror or str(exc)) from None
    if len(data) > max_bytes:
        raise FileReadError(f"file is over the limit of {max_bytes:,} bytes (raise it with --max-file-size)")
    return data
