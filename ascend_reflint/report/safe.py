"""Print text that came from scanned files as data: never as terminal control or markup, never with the
credentials a URL in it may hold."""

from __future__ import annotations

import unicodedata

from ascend_reflint.remote import redact


def safe_text(text: str) -> str:
    """Mask credentials in ``text`` and escape the characters that a terminal would act on.

    Credentials: every ``scheme://user:secret@`` and ``scheme://token@`` is masked with
    :func:`ascend_reflint.remote.redact` (pins keep the real URL, which the lookup needs; output never
    shows it).

    Control characters (Unicode category Cc: ESC, CR, BEL …), format characters (Cf: bidirectional
    overrides such as U+202E, which can reorder what a reviewer sees) and lone surrogates (Cs: no
    encoding can write them) become ``\\xNN``/``\\uNNNN``. Rich markup needs no escaping here because
    formatters never let rich parse markup in data.

    Args:
        text: a ref, URL, path or message from a scanned file.

    Returns:
        The text with credentials masked and those characters escaped; other characters unchanged.
    """
    text = redact(text)
    if text.isprintable():
        return text
    out: list[str] = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs") and char != "\t":
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)
