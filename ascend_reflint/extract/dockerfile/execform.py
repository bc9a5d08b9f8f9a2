"""Exec form: an instruction's JSON array of strings (``RUN ["bash", "-c", "…"]``), read as BuildKit's
``parseMaybeJSON`` reads it, with where each string literal is and how its escapes decode (RFC 8259
section 7), so that every character maps back to the file.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.jsontext import decode_json_string


class JsonString(NamedTuple):
    """A JSON string literal of an exec-form array: its value, its quotes' offsets, and how it decodes.

    ``pieces`` are (decoded text, offset in the instruction, copied): a copied piece is the raw text itself;
    an escape sequence decodes to one character that maps to its backslash.
    """

    value: str
    open_offset: int
    close_offset: int
    pieces: list[tuple[str, int, bool]]


def json_array(args: str) -> list[str] | None:
    """The strings of an exec-form argument list, or None for shell form (BuildKit's ``parseMaybeJSON``).

    Raises:
        ExtractError: for a JSON array that holds something other than strings (Docker refuses it), or one
            nested too deeply for Python's JSON reader (whatever it holds, it is not an array of strings).
    """
    if not args.startswith("["):
        return None
    try:
        value = json.loads(args)
    except ValueError:
        return None
    except RecursionError:
        raise ExtractError(
            "exec-form arguments must be a JSON array of strings, not arrays nested thousands deep"
        ) from None
    if not isinstance(value, list):
        return None
    if not all(isinstance(item, str) for item in value):
        raise ExtractError("exec-form arguments must be a JSON array of strings")
    return value


def json_strings(text: str, start: int, values: list[str]) -> list[JsonString]:
    """Locate the string literals of a validated JSON array of strings that starts at ``text[start]``."""
    strings: list[JsonString] = []
    position = start
    for value in values:
        opening = text.index('"', position)
        pieces, closing = decode_json_string(text, opening)
        if "".join(piece for piece, _offset, _copied in pieces) != value:
            pieces = [(value, opening, False)]  # an escape this decoder does not know: map to the quote
        strings.append(JsonString(value, opening, closing, pieces))
        position = closing + 1
    return strings
