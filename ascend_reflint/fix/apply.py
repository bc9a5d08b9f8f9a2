"""One round of fixing: which fixes go together, and their edits applied to the files' contents.

As in ruff, a fix is applied whole or not at all, fixes are taken in the order of their findings (path,
line, column, code), and a fix that overlaps one already taken waits for the next round (the rescan after
this round says whether it is still needed). Two fixes that make the very same edit (one definition that
feeds two pins with the same finding) go together: the edit is made once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ascend_reflint.fix.contents import ContentError, FileContent
from ascend_reflint.model import Applicability, Edit, Fix

#: ``(line, column)``: a position in a file.
_Position = tuple[int, int]


def applicable(fix: Fix | None, unsafe: bool) -> bool:
    """True when ``fix`` is applied with the options given: a safe fix always, an unsafe one with
    ``--unsafe-fixes`` (``unsafe``)."""
    return fix is not None and (unsafe or fix.applicability is Applicability.SAFE)


@dataclass
class Round:
    """What one round applied.

    Attributes:
        applied: the fixes applied, in the order given.
        written: for each fix applied (by position in ``applied``), ``(display path, number)`` of each of
            its edits, as :meth:`FileContent.apply <ascend_reflint.fix.contents.FileContent.apply>`
            numbers them (two fixes that make the very same edit share its number).
        waiting: the fixes that overlapped one applied, for the next round.
        refused: ``(display path, why)`` for each file that could not be edited; its fixes are dropped.
    """

    applied: list[Fix] = field(default_factory=list)
    written: list[list[tuple[str, int]]] = field(default_factory=list)
    waiting: list[Fix] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)


def apply_round(
    fixes: Iterable[Fix],
    contents: dict[str, FileContent],
    load: Callable[[str], FileContent],
) -> Round:
    """Apply every fix of ``fixes`` that overlaps no fix taken before it.

    Args:
        fixes: the fixes to apply, best first (in finding order).
        contents: display path → the file's content, for the files edited so far; files loaded for this
            round are added.
        load: loads the content of a display path for its first edit.

    Returns:
        The :class:`Round`. A file that cannot be loaded, or whose text does not hold what an edit expects,
        is left as it was and named in ``refused``.
    """
    outcome = Round()
    taken: dict[str, list[Edit]] = {}
    refused: dict[str, str] = {}
    for fix in fixes:
        paths = {edit.path for edit in fix.edits}
        if paths & refused.keys():
            continue
        problems = (_loaded(path, contents, load) for path in sorted(paths))
        problem = next((problem for problem in problems if problem is not None), None)
        if problem is not None:
            refused[problem[0]] = problem[1]
            continue
        if not all(contents[edit.path].holds(edit) for edit in fix.edits):
            continue  # the text changed under this fix in an earlier round: the rescan decides
        if any(_conflicts(edit, taken.get(edit.path, ())) for edit in fix.edits):
            outcome.waiting.append(fix)
            continue
        for edit in fix.edits:
            if edit not in taken.get(edit.path, ()):
                taken.setdefault(edit.path, []).append(edit)
        outcome.applied.append(fix)
    numbers: dict[tuple[str, Edit], int] = {}
    for path, edits in taken.items():
        try:
            numbers.update(zip(((path, edit) for edit in edits), contents[path].apply(edits), strict=True))
        except ContentError as exc:  # pragma: no cover - every edit was checked with holds()
            refused[path] = str(exc)
    outcome.written = [
        [(edit.path, numbers[edit.path, edit]) for edit in fix.edits if (edit.path, edit) in numbers]
        for fix in outcome.applied
    ]
    outcome.refused = sorted(refused.items())
    return outcome


def _loaded(
    path: str, contents: dict[str, FileContent], load: Callable[[str], FileContent]
) -> tuple[str, str] | None:
    """Load ``path`` into ``contents`` when it is not there; ``(path, why)`` when it cannot be."""
    if path in contents:
        return None
    try:
        contents[path] = load(path)
    except ContentError as exc:
        return path, str(exc)
    return None


def _conflicts(edit: Edit, taken: Sequence[Edit]) -> bool:
    """True when ``edit`` overlaps one of ``taken`` (the same edit twice does not)."""
    return any(edit != other and _overlap(edit, other) for other in taken)


def _overlap(first: Edit, second: Edit) -> bool:
    """True when two edits of one file touch the same characters, or insert at one point, or one inserts
    inside or at the edge of what the other replaces (the order of the two would then matter)."""
    a = (_start(first), _end(first))
    b = (_start(second), _end(second))
    if a[0] == a[1] or b[0] == b[1]:
        return a[0] <= b[1] and b[0] <= a[1]
    return a[0] < b[1] and b[0] < a[1]


def _start(edit: Edit) -> _Position:
    return (edit.span.line, edit.span.column)


def _end(edit: Edit) -> _Position:
    return (edit.span.end_line, edit.span.end_column)


def changed_files(contents: Mapping[str, FileContent]) -> dict[str, bytes]:
    """Absolute path → the new bytes, for each file whose bytes changed."""
    return {content.abspath: content.encoded() for content in contents.values() if content.changed}
