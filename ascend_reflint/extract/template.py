"""Templates of recipes (``Dockerfile.j2``, ``.gitlab-ci.yml.jinja``, ``Makefile.tmpl``): read as the kind
their name has without the template's suffix, with every template expression masked.

The syntax masked is Jinja's (Jinja's "Template Designer Documentation": ``{{ expression }}``,
``{% statement %}``, ``{# comment #}``, each with optional ``-``/``+`` whitespace control), which Go's
``text/template`` shares for ``{{ … }}`` (its comments are ``{{/* … */}}``, inside the same delimiters).
A template's text is only known once it is rendered, so:

- an expression becomes a variable reference of the same length, ``${_T0_}``, that every recipe kind
  expands (shell, Dockerfile ``ARG``/``ENV``, CMake, make, GitLab CI) and that no file sets: a ref or URL
  that holds one is unresolved, never looked up, and its note names the expression;
- a statement or a comment becomes blanks (its line breaks kept), so that ``{% if cuda %}`` on a line of
  its own is a blank line to the recipe's reader.

Masking keeps every character where it is (line breaks included), so positions in the masked text are
positions in the file. :func:`unmask_pin` then puts the written expressions back into what a pin shows and
marks it unresolved.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from ascend_reflint.model import Pin, Resolution

#: The start of an expression, a statement or a comment, and the delimiter that ends each.
_OPENINGS = re.compile(r"\{[{%#]")
_CLOSINGS = {"{": "}}", "%": "%}", "#": "#}"}
#: A masked expression in a pin's text: ``${_T12_}`` (or ``$_T12_`` in a note), or, for a short expression,
#: ``${_}``…``${___}``.
_MASK = re.compile(r"\$\{(_T\d+_*|_+)\}|\$(_T\d+_*)")


@dataclass(frozen=True, slots=True)
class MaskedTemplate:
    """A template's text with its template syntax masked (see the module docstring).

    Attributes:
        text: the masked text: as long as the template's, with its line breaks in the same places.
        expressions: mask (``${_T0_}``) → the expression it stands for, as written (its first line).
        unterminated: the 1-based line of a ``{{``, ``{%`` or ``{#`` that nothing closes (masked to the
            end of the text), or None.
    """

    text: str
    expressions: dict[str, str]
    unterminated: int | None = None


def mask_template(text: str, expressions_only: bool = False) -> MaskedTemplate:
    """Mask the expressions, statements and comments of a template (see the module docstring).

    Args:
        text: the template's text.
        expressions_only: mask only ``{{ … }}`` closed on the line it opens on (documentation, whose
            MyST substitutions and MkDocs macros are expressions, and whose ``{#`` is shell's ``${#x}``).

    Returns:
        The :class:`MaskedTemplate`; a template without template syntax comes back unchanged.
    """
    if "{" not in text:
        return MaskedTemplate(text, {})
    pieces: list[str] = []
    expressions: dict[str, str] = {}
    unterminated: int | None = None
    position = 0
    for opening in _OPENINGS.finditer(text):
        start = opening.start()
        if start < position:
            continue  # inside the construct masked last
        closing = _CLOSINGS[text[start + 1]]
        end = text.find(closing, start + 2)
        if expressions_only and (closing != "}}" or end == -1 or "\n" in text[start:end]):
            continue
        if end == -1:
            unterminated = text.count("\n", 0, start) + 1
            end = len(text)
        else:
            end += len(closing)
        written = text[start:end]
        pieces.append(text[position:start])
        if text[start + 1] == "{":
            mask = _mask_name(len(expressions), written)
            expressions.setdefault(mask, written.split("\n", 1)[0].strip())
            pieces.append(mask + _blanks(written[len(mask) :]))
        else:
            pieces.append(_blanks(written))
        position = end
    pieces.append(text[position:])
    return MaskedTemplate("".join(pieces), expressions, unterminated)


def _mask_name(index: int, written: str) -> str:
    """The mask of the ``index``-th expression: ``${_T<index>_…}`` as long as the expression's first line,
    or ``${_…}`` when that is too short for the index (``{{x}}``), or blanks for a line shorter than 4."""
    width = len(written.split("\n", 1)[0])
    name = f"_T{index}"
    if width - 3 >= len(name):
        return "${" + name + "_" * (width - 3 - len(name)) + "}"
    if width >= 4:
        return "${" + "_" * (width - 3) + "}"
    return " " * width


def _blanks(written: str) -> str:
    """``written`` with every character but a line break turned into a space."""
    return "".join(char if char in "\r\n" else " " for char in written)


def unmask_text(text: str, expressions: dict[str, str]) -> str:
    """``text`` with each mask of :attr:`MaskedTemplate.expressions` replaced by the expression it stands
    for."""
    return _MASK.sub(lambda match: _expression(match, expressions) or match.group(), text)


def _expression(match: re.Match[str], expressions: dict[str, str]) -> str | None:
    """The expression that a mask found in a text stands for (``${_T0_}``, or ``$_T0_`` in a note)."""
    return expressions.get("${" + (match.group(1) or match.group(2)) + "}")


def unmask_pin(pin: Pin, expressions: dict[str, str], renderer: str | None = None) -> Pin:
    """A pin of a masked text as the file shows it: each mask in its ``ref_text``, ``url`` and note
    replaced by the expression written there, and unresolved (ref or remote None) when its ref or URL
    holds an expression.

    Args:
        pin: a pin extracted from :attr:`MaskedTemplate.text`.
        expressions: :attr:`MaskedTemplate.expressions`.
        renderer: what fills the expressions in, for the note (``"the documentation build"``); None for a
            template, whose pin is also marked :attr:`~ascend_reflint.model.Pin.template`.
    """
    changes: dict[str, Any] = {"template": True} if renderer is None else {}
    for name in ("ref_text", "url", "resolution_note"):
        value = getattr(pin, name)
        if value is not None and "${_" in value:
            changes[name] = unmask_text(value, expressions)
    masked = next(
        (match for text in (pin.ref, pin.url, pin.resolution_note) if text for match in _MASK.finditer(text)),
        None,
    )
    expression = _expression(masked, expressions) if masked is not None else None
    if expression is not None:
        filler = renderer or "the template"
        changes["resolution_note"] = f"{filler} fills in {expression} when it is rendered"
        changes["resolution"] = Resolution.UNRESOLVED
        if pin.ref is not None and _MASK.search(pin.ref):
            changes["ref"] = None
        if _MASK.search(pin.url):
            changes["remote"] = None
    return dataclasses.replace(pin, **changes) if changes else pin
