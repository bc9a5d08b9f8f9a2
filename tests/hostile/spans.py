"""The span invariant: the file's text at a pin's reported span is the ref as written (``ref_text``), or the
URL where the pin has no ref."""

from __future__ import annotations

import json
import re

from ascend_reflint.model import FileKind, Pin, SourceFile, Via

from .support import text_at

#: What stands for an empty ref (``git+URL@``, ``--branch ""``): a span cannot be empty and still be shown.
_EMPTY_REF_TEXT = re.compile(r"@|''|\"\"")
_QUOTES = re.compile(r"['\"]")


def readings(written: str) -> set[str]:
    """The ways a file format can read the characters ``written`` that a span covers.

    - as they stand;
    - as the inside of a JSON string (a Dockerfile exec-form ``RUN ["…"]``) or a YAML double-quoted scalar,
      whose escapes (``\\"``, ``\\u00e9``) the format decodes before the shell sees the text;
    - either of those without their quotes, as a shell reads a word such as ``c"ore_v0.18.0`` before it
      passes it on to a nested ``sh -c`` script; a span starts or ends on a quote only where the word is
      quoted in part (``"h"ttps://…``, ``"$A""$A"``), never on the quotes around a word (``"v1"``).
    """
    found = {written}
    try:
        decoded = json.loads(f'"{written}"')
    except ValueError:
        pass
    else:
        found.add(decoded)
    for text in list(found):
        if len(text) > 1 and not _quoted_whole(text):
            found.add(_QUOTES.sub("", text))
    return found


def _quoted_whole(text: str) -> bool:
    """True when ``text`` is one quoted string, the quotes around it included."""
    return text[0] in "'\"" and text[-1] == text[0] and text[0] not in text[1:-1]


def span_violations(source: SourceFile) -> list[str]:
    """Each pin of ``source`` whose span does not cover what it names, described; empty when all do.

    - A pin with a ref: the text at the span, read as the format reads it (see :func:`readings`), is
      ``ref_text``. An empty ref (``ref_text == ""``) is shown on what stands for it: the ``@`` of
      ``git+URL@``, or the quotes of ``--branch ""``.
    - A pin without a ref as written (a submodule's commit is in the index, not in ``.gitmodules``): the text
      at the span is the URL, read likewise (a requirements file's quotes are part of the URL for pip),
      unless it holds an expansion (``$V``, ``${{ }}``, a command substitution), whose value ``pin.url`` is,
      or is a submodule's relative URL, which ``pin.url`` holds resolved.
    """
    assert source.text is not None
    return [problem for pin in source.pins if (problem := _violation(source.text, pin)) is not None]


def _violation(text: str, pin: Pin) -> str | None:
    written = text_at(text, pin.span)
    if pin.ref_text == "":
        if _EMPTY_REF_TEXT.fullmatch(written):
            return None
        expected = "'@' or a pair of quotes"
    elif pin.ref_text is not None:
        if pin.ref_text in readings(written):
            return None
        expected = repr(pin.ref_text)
    elif "$" in written or "`" in written:
        return None
    else:
        if pin.url == written or (pin.kind is not FileKind.REQUIREMENTS and pin.url in readings(written)):
            return None
        if pin.via is Via.SUBMODULE and written.startswith(("./", "../")):
            return None  # a relative URL, which pin.url holds resolved against the superproject's origin
        expected = repr(pin.url)
    return f"{pin.via.value} pin at {pin.span}: the text there is {written!r}, not {expected}"
