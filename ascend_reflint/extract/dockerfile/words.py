"""Docker's word processing for ``ARG``/``ENV``/``WORKDIR``/``FROM`` values, as BuildKit's ``shell/lex.go``
does it: words with quotes kept (``parseWords``), and values unquoted and expanded (``ProcessWord``).

Docker's quoting is not the shell's: there is no command substitution, and the escape token (a backslash
or a backtick, ``# escape=``) escapes only ``"``, ``$`` and itself inside double quotes.
"""

from __future__ import annotations

import re

from ascend_reflint.model import Origin, Resolution, Span
from ascend_reflint.resolve import Binding, Locate, Provenance, Scope, closing_bracket, expand

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def docker_words(text: str, start: int, escape: str) -> list[tuple[str, int, int]]:
    """BuildKit's ``parseWords``: words with quotes and escapes kept, as (raw word, start, end) offsets."""
    words: list[tuple[str, int, int]] = []
    position, length = start, len(text)
    while position < length:
        if text[position].isspace():
            position += 1
            continue
        word_start, quote = position, ""
        while position < length:
            char = text[position]
            if quote:
                if char == quote:
                    quote = ""
                elif char == escape and quote != "'":
                    position += 1
            elif char in "'\"":
                quote = char
            elif char == escape:
                position += 1
            elif char.isspace():
                break
            position += 1
        position = min(position, length)
        words.append((text[word_start:position], word_start, position))
    return words


def docker_value(raw: str, scope: Scope, escape: str, at: Origin | None = None) -> Binding:
    """Unquote and expand a Docker ARG/ENV/WORKDIR value as BuildKit's ``ProcessWord`` does.

    Quotes are removed (``'…'`` literal, ``"…"`` expanding, the escape token escaping the next character);
    the variables are expanded with :func:`ascend_reflint.resolve.expand` (``shell_quotes=False``). A ``$``
    or backtick that the quoting made literal is kept literal (Docker has no command substitution).

    Args:
        raw: the value as written.
        scope: the variables visible there.
        escape: the escape token.
        at: where the value is written (quotes around it excluded); the binding's provenance when the
            value holds no expansion. A value that is one expansion (``${BASE_TAG}``) takes that variable's
            provenance and ``empty_because``, or its default's place when the default gives the value
            (``${TE_REF:-v2.10}``: where a fix edits); any other has none.
    """
    parts: list[str] = []
    resolution, note = Resolution.RESOLVED, None
    segments = _docker_segments(raw, escape)
    provenance: Provenance | None = None
    empty_because: str | None = None
    for text, expandable in segments:
        if not expandable:
            parts.append(text)
            continue
        locate = _locator(at, raw, text) if len(segments) == 1 else None
        expansion = expand(text, scope, shell_quotes=False, locate=locate)
        if expansion.resolution is Resolution.RESOLVED:
            parts.append(expansion.value or "")
            provenance = expansion.provenance if len(segments) == 1 else None
            empty_because = expansion.empty_because if len(segments) == 1 else None
        elif resolution is Resolution.RESOLVED or expansion.resolution is Resolution.UNRESOLVED:
            resolution, note = expansion.resolution, expansion.note
    if resolution is not Resolution.RESOLVED:
        return Binding(None, resolution, note)
    value = "".join(parts)
    if at is not None and not any(expandable and "$" in text for text, expandable in segments):
        provenance = Provenance.written(at.path, at.span, value)
    return Binding(value, provenance=provenance, empty_because=empty_because)


def _locator(at: Origin | None, raw: str, text: str) -> Locate | None:
    """Where the characters of ``text``, all of the value ``raw`` written at ``at``, are: ``at`` narrowed,
    when ``raw`` is ``text`` itself (or it in double quotes) on one line; else None."""
    if at is None or raw not in (text, f'"{text}"'):
        return None
    span = at.span
    if span.line != span.end_line or span.end_column - span.column != len(text):
        return None

    def locate(start: int, end: int) -> Provenance | None:
        narrow = Span(span.line, span.column + start, span.line, span.column + end)
        return Provenance.written(at.path, narrow, text[start:end])

    return locate


def _docker_segments(raw: str, escape: str) -> list[tuple[str, bool]]:
    """Split an unquoted value into (text, expandable) segments; literal ``$`` and backticks stand alone."""
    segments: list[tuple[str, bool]] = []
    buffer: list[str] = []

    def literal(text: str) -> None:
        if buffer:
            segments.append(("".join(buffer), True))
            buffer.clear()
        segments.append((text, False))

    def plain(char: str) -> None:
        if char in "$`":
            literal(char)
            return
        if buffer and _NAME.fullmatch(buffer[-1][1:]) and _NAME.fullmatch("_" + char):
            # A quote ended the ``$NAME`` before it (``"$A"B``): braced, ``$AB`` cannot name another variable.
            buffer[-1] = "${" + buffer[-1][1:] + "}"
        buffer.append(char)

    position, length, quote = 0, len(raw), ""
    while position < length:
        char = raw[position]
        if quote == "'":
            if char == "'":
                quote = ""
            else:
                plain(char)
            position += 1
        elif char == "$":
            end = _dollar_end(raw, position)
            if end == position + 1:
                literal("$")
            else:
                buffer.append(raw[position:end])
            position = end
        elif char == escape and position + 1 < length:
            following = raw[position + 1]
            if quote and following not in ('"', "$", escape):
                plain(char)
                position += 1
            else:
                plain(following)
                position += 2
        elif char == escape:
            position += 1  # an escape token at the end of the word is dropped
        elif char == '"' or (char == "'" and not quote):
            quote = "" if quote else char
            position += 1
        else:
            plain(char)
            position += 1
    if buffer:
        segments.append(("".join(buffer), True))
    return segments


def _dollar_end(raw: str, position: int) -> int:
    """The offset after the ``$NAME``/``${…}`` at ``raw[position]`` (``position + 1`` for a lone ``$``)."""
    following = raw[position + 1 : position + 2]
    if following == "{":
        return closing_bracket(raw, position + 1)
    match = _NAME.match(raw, position + 1)
    if match is not None:
        return match.end()
    if following and (following.isdigit() or following in "@*#?$!-"):
        return position + 2
    return position + 1
