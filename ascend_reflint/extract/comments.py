"""Version comments: the tag that a comment beside a commit pin says the commit stands for.

Tools that pin commits keep the tag in a comment on the same line, after the value:

- ``pre-commit autoupdate --freeze``: ``rev: <commit>  # frozen: v1.2.3``;
- pinact, Renovate (``pinDigests``), frizbee and hand edits: ``uses: owner/repo@<commit> # v4.2.2``;
- Renovate's older form ``# tag=v1.2.3``; ratchet's ``# ratchet:owner/repo@v4``.

A bare comment counts only when it is one word with a digit in it (``# v4.2.2``, not ``# main`` or a
sentence): a version, not a remark.

Where the syntax has no trailing comments (a Dockerfile, whose comments are whole lines, or a line of a
shell command that goes on), ``reflint scan --fix --pin-commits`` writes the tag on a comment line of its
own above the instruction, naming the repository: ``# Megatron-LM core_v0.18.0``. Such a line counts too.
:func:`mark_version_comments` finds both for every commit pin of a file that its extractor has not given
one.
"""

from __future__ import annotations

import dataclasses
import re

from ascend_reflint.model import FileKind, Pin, SourceFile, Span
from ascend_reflint.remote import repo_dir_name
from ascend_reflint.sourcemap import LineIndex

_COMMENT = re.compile(
    r"[\"']?[ \t]+#[ \t]*(?:(?P<marker>frozen:[ \t]*|tag=|ratchet:[^@\s]*@))?(?P<version>[^\s#]+)[ \t]*"
    r"(?=\n|\Z)"
)
_COMMIT_ID = re.compile(r"[0-9a-fA-F]{7,40}|[0-9a-fA-F]{64}")
_NAMED_LINE = re.compile(r"[ \t]*#[ \t]*(?P<name>\S+)[ \t]+(?P<version>[^\s#]+)[ \t]*")


def version_comment(text: str, after: int, lines: LineIndex) -> tuple[str, Span] | None:
    """The version that a comment right after a value names, on the value's line.

    Args:
        text: the file's text.
        after: the index just after the value as written (after a closing quote).
        lines: the :class:`~ascend_reflint.sourcemap.LineIndex` of ``text``.

    Returns:
        ``(version, its span)``, or None when nothing but blanks, or another comment, follows the value.
    """
    match = _COMMENT.match(text, after)
    if match is None:
        return None
    version = match.group("version")
    if match.group("marker") is None and not any(char.isdigit() for char in version):
        return None
    return version, lines.span(match.start("version"), match.end("version"))


def mark_version_comments(source: SourceFile) -> None:
    """Give each commit pin of ``source`` without a version comment the one written beside it: after the
    commit id on its line, or on the comment line above the Dockerfile instruction that holds it (see
    the module docstring). The commit id is looked for where it is written in this file: the pin's token,
    or the definition (``ARG MCORE_REF=<commit>``) it comes through."""
    if source.text is None or not any(_needs_comment(pin) for pin in source.pins):
        return
    lines = LineIndex(source.text)
    starts = _line_starts(source.text)
    for index, pin in enumerate(source.pins):
        span = _written_at(pin, source.path) if _needs_comment(pin) else None
        if span is None:
            continue
        end = starts[span.end_line - 1] + span.end_column - 1
        found = version_comment(source.text, end, lines)
        if found is None and source.kind in (FileKind.PYPROJECT, FileKind.REQUIREMENTS, FileKind.CMAKE):
            found = _at_line_end(source.text, end, lines, source.kind)
        if found is None and source.kind in (FileKind.DOCKERFILE, FileKind.SHELL):
            first = (
                _instruction_line(source.text, span.line) if source.kind is FileKind.DOCKERFILE else span.line
            )
            found = _line_above(source.text, first, repo_dir_name(pin.url), starts)
        if found is not None:
            source.pins[index] = dataclasses.replace(
                pin, version_comment=found[0], version_comment_span=found[1]
            )


def _needs_comment(pin: Pin) -> bool:
    return pin.version_comment is None and pin.ref is not None and _COMMIT_ID.fullmatch(pin.ref) is not None


def _written_at(pin: Pin, path: str) -> Span | None:
    """Where ``pin``'s commit id is written in the file ``path``, or None."""
    if pin.ref_origin is not None:
        return pin.ref_origin.span if pin.ref_origin.path == path else None
    return pin.span if pin.ref_text == pin.ref and pin.path == path else None


def _at_line_end(text: str, after: int, lines: LineIndex, kind: FileKind) -> tuple[str, Span] | None:
    """A version comment at the end of the line, after the rest of a TOML table or requirement
    (``rev = "<commit>" }  # v2.10``, ``git+URL@<commit>#egg=te  # v2.10``); the rest holds no other
    comment: no other ``#`` in TOML and CMake, no ``#`` after a blank in a requirements file (pip's
    ``COMMENT_RE``: ``#egg=`` is part of the URL)."""
    line_end = text.find("\n", after)
    rest_end = len(text) if line_end == -1 else line_end
    if kind is FileKind.REQUIREMENTS:
        from ascend_reflint.extract.requirements import PIP_COMMENT

        comment = PIP_COMMENT.search(text, after, rest_end)
        if comment is None:
            return None
        return version_comment(text, after + len(text[after : comment.start()].rstrip(" \t")), lines)
    hash_at = text.rfind(" #", after, rest_end)
    if hash_at == -1 or "#" in text[after:hash_at]:
        return None
    return version_comment(text, hash_at, lines)


def _instruction_line(text: str, line: int) -> int | None:
    """The first line of the Dockerfile instruction that holds ``line``."""
    from ascend_reflint.extract.dockerfile.lines import parse

    return max((i.line for i in parse(text).instructions if i.line <= line), default=None)


def _line_above(text: str, first: int | None, name: str, starts: list[int]) -> tuple[str, Span] | None:
    """``# NAME VERSION`` on the line above line ``first``, NAME being the repository's name."""
    if first is None or first < 2 or not name:
        return None
    above = text[starts[first - 2] : starts[first - 1]].rstrip("\n")
    match = _NAMED_LINE.fullmatch(above)
    if match is None or match.group("name").lower() != name.lower():
        return None
    return match.group("version"), Span(
        first - 1, match.start("version") + 1, first - 1, match.end("version") + 1
    )


def _line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in re.finditer("\n", text))]
