"""JSON string literals decoded with where each character is written (RFC 8259 section 7), for the
readers that map a JSON value back to the file: Dockerfile exec-form arrays and notebook cells."""

from __future__ import annotations

_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def decode_json_string(text: str, opening: int) -> tuple[list[tuple[str, int, bool]], int]:
    """Decode the JSON string whose ``"`` is at ``text[opening]`` (RFC 8259 section 7).

    Returns:
        ``(pieces, closing)``: the decoded text as (text, offset, copied) pieces, a copied piece being the
        raw text at ``offset`` and an escape one character mapped to its backslash; and the offset of the
        closing ``"`` (``len(text)`` when the string is not closed).
    """
    pieces: list[tuple[str, int, bool]] = []
    position = run_start = opening + 1
    while position < len(text) and text[position] != '"':
        if text[position] != "\\":
            position += 1
            continue
        if run_start < position:
            pieces.append((text[run_start:position], run_start, True))
        char, width = _json_escape(text, position)
        pieces.append((char, position, False))
        position += width
        run_start = position
    if run_start < position:
        pieces.append((text[run_start:position], run_start, True))
    return pieces, position


def _json_escape(text: str, position: int) -> tuple[str, int]:
    """The character that the escape at ``text[position]`` stands for, and the escape's width."""
    code = text[position + 1 : position + 2]
    if code != "u":
        return _JSON_ESCAPES.get(code, code), 2
    value = int(text[position + 2 : position + 6], 16)
    if 0xD800 <= value < 0xDC00 and text.startswith("\\u", position + 6):
        low = int(text[position + 8 : position + 12], 16)
        return chr(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)), 12
    return chr(value), 6
