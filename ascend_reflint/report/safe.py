"""Print text that came from scanned files as data, never as terminal control or markup."""

from __future__ import annotations

import unicodedata


def safe_text(text: str) -> str:
    """Escape the characters of ``text`` that a terminal would act on.

    Control characters (Unicode category Cc: ESC, CR, BEL …) and format characters (Cf: bidirectional
    overrides such as U+202E, which can reorder what a reviewer sees) become ``\\xNN``/``\\uNNNN``. Rich
    markup needs no escaping here because formatters never let rich parse markup in data.

    Args:
        text: a ref, URL, path or message from a scanned file.

    Returns:
        The text with those characters escaped; other characters unchanged.
    """
    if text.isprintable():
        return text
    out: list[str] = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf") and char != "\t":
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)
