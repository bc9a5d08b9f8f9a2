"""Settle the fixes of a scan's findings before they are reported or applied.

A rule builds its fix from one pin (:mod:`ascend_reflint.check.fixes`); only the scan as a whole can say
whether the fix can be applied as it stands:

- the file it edits must be one the scan reports on (pre-commit passes a few files: the others are not
  edited) and was read and parsed whole: a file with an error is never edited;
- each edit's span must hold the text the fix expects (:attr:`~ascend_reflint.model.Edit.expected`); an
  edit that expected nothing (a deletion) is given the text its span holds, so that it applies to that
  text only;
- a definition that feeds several pins is edited only when every pin it feeds needs the same new value:
  each of them has a finding whose fix makes that very edit. Otherwise the finding keeps no fix, and its
  message says why ("An edit goes where the value is written": changing a definition that a pin which is
  fine also uses would break that pin).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence

from ascend_reflint.model import Edit, Finding, Origin, Pin, SourceFile, Span


def settle_fixes(
    findings: Sequence[Finding], files: Sequence[SourceFile], context_files: Sequence[SourceFile] = ()
) -> list[Finding]:
    """``findings`` with each fix that cannot be applied as it stands removed (see the module docstring).

    Args:
        findings: every finding of the scan, before selection and suppression (so that a pin's need for a
            value counts even where its finding is not reported).
        files: the files scanned: the only ones edited.
        context_files: files read only to compare with (their pins count as users of a definition).

    Returns:
        The findings in the same order; those whose fix was dropped for a shared definition say so at the
        end of their message.
    """
    editable = _Texts(files)
    users = _definition_users([*files, *context_files])
    wanted = _edits_per_pin(findings, users)
    settled: list[Finding] = []
    for finding in findings:
        fix = finding.fix
        if fix is None:
            settled.append(finding)
            continue
        if not all(_holds(edit, editable.of(edit.path)) for edit in fix.edits):
            settled.append(dataclasses.replace(finding, fix=None))
            continue
        fix = fix._replace(edits=tuple(_expecting(edit, editable.of(edit.path)) for edit in fix.edits))
        finding = dataclasses.replace(finding, fix=fix)
        reason = next(filter(None, (_shared_reason(edit, users, wanted) for edit in fix.edits)), None)
        if reason is not None:
            settled.append(dataclasses.replace(finding, fix=None, message=f"{finding.message}; {reason}"))
            continue
        settled.append(finding)
    return settled


def _holds(edit: Edit, text: _Text | None) -> bool:
    """True when ``text`` (the file as read) holds ``edit``'s span, and at it the text expected."""
    if text is None:
        return False
    start = text.offset(edit.span.line, edit.span.column)
    end = text.offset(edit.span.end_line, edit.span.end_column)
    if start is None or end is None or end < start:
        return False
    return edit.expected is None or text.text[start:end] == edit.expected


class _Texts:
    """The texts of the files scanned that were read whole, by display path. A scan keeps only the texts its
    checks read (:func:`ascend_reflint.inventory.text_needed`); the others are read again from the file for
    the few that fixes edit."""

    def __init__(self, files: Sequence[SourceFile]) -> None:
        self._files = {source.path: source for source in files if source.error is None}
        self._texts: dict[str, _Text | None] = {}

    def of(self, path: str) -> _Text | None:
        """The text of the scanned file at ``path``, or None when it is not one (or cannot be read now)."""
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: str) -> _Text | None:
        from ascend_reflint.textfile import FileReadError, read_text

        source = self._files.get(path)
        if source is None:
            return None
        if source.text is not None:
            return _Text(source.text)
        try:
            return _Text(read_text(source.abspath)[0])
        except FileReadError:
            return None


def _expecting(edit: Edit, text: _Text | None) -> Edit:
    """``edit`` with the text its span holds now as what it expects there (when it expects nothing yet:
    a deletion), so that it is never applied to a file that has changed since."""
    if edit.expected is not None:
        return edit
    assert text is not None  # the edit holds (_holds)
    start = text.offset(edit.span.line, edit.span.column)
    end = text.offset(edit.span.end_line, edit.span.end_column)
    assert start is not None and end is not None
    return edit._replace(expected=text.text[start:end])


class _Text:
    """A file's text as read (line ends ``\\n``) with its line starts, to find spans in it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    def offset(self, line: int, column: int) -> int | None:
        """The offset of (``line``, ``column``), or None when it is outside the text."""
        if self._starts is None:
            self._starts = [0]
            self._starts.extend(match.end() for match in re.finditer("\n", self.text))
        if not 1 <= line <= len(self._starts) or column < 1:
            return None
        start = self._starts[line - 1]
        stop = self._starts[line] - 1 if line < len(self._starts) else len(self.text)
        return start + column - 1 if start + column - 1 <= stop else None


def _definition_users(files: Iterable[SourceFile]) -> dict[tuple[str, Span], list[Pin]]:
    """(path, span) of each definition → the pins whose ref or URL it is."""
    users: dict[tuple[str, Span], list[Pin]] = {}
    for source in files:
        for pin in source.pins:
            for origin in (pin.ref_origin, pin.url_origin):
                if origin is not None:
                    users.setdefault(_key(origin), []).append(pin)
    return users


def _edits_per_pin(
    findings: Sequence[Finding], users: dict[tuple[str, Span], list[Pin]]
) -> dict[tuple[str, Span], list[tuple[str, Span, str]]]:
    """Definition → the (pin path, pin span, new text) that findings' fixes want there, one per finding
    that is about a pin the definition feeds (a finding is about the pin at its path and span, or whose
    use it names as related)."""
    wanted: dict[tuple[str, Span], list[tuple[str, Span, str]]] = {}
    for finding in findings:
        if finding.fix is None:
            continue
        for edit in finding.fix.edits:
            key = (edit.path, edit.span)
            for pin in users.get(key, ()):
                if _about(finding, pin):
                    wanted.setdefault(key, []).append((pin.path, pin.span, edit.content))
    return wanted


def _about(finding: Finding, pin: Pin) -> bool:
    """True when ``finding`` is about ``pin``: at its span, or with its use as a related place (a finding
    placed where the value is written)."""
    if finding.path == pin.path and finding.span == pin.span:
        return True
    return any(
        related.path == pin.path and (related.line, related.column) == (pin.span.line, pin.span.column)
        for related in finding.related
    )


def _shared_reason(
    edit: Edit,
    users: dict[tuple[str, Span], list[Pin]],
    wanted: dict[tuple[str, Span], list[tuple[str, Span, str]]],
) -> str | None:
    """Why ``edit`` may not be made, when it changes a definition that a pin needing another value uses."""
    key = (edit.path, edit.span)
    fed = users.get(key, [])
    if len(fed) < 2:
        return None
    agreeing = {(path, span) for path, span, content in wanted.get(key, ()) if content == edit.content}
    others = [pin for pin in fed if (pin.path, pin.span) not in agreeing]
    if not others:
        return None
    first = others[0]
    count = f"{len(others)} other pins" if len(others) > 1 else "another pin"
    return (
        f"no automatic fix: the value set at {edit.path}:{edit.span.line} also feeds {count} "
        f"({first.path}:{first.span.line}) that need{'s' * (len(others) == 1)} another value"
    )


def _key(origin: Origin) -> tuple[str, Span]:
    return (origin.path, origin.span)
