"""Inline suppression: ``# reflint: ignore[RL001,RL002] optional reason`` on a pin's line or the line above.

A bare ``# reflint: ignore`` suppresses every rule there. A finding that stands for several places of
its own file (RL010 and RL014 report all pins of one remote in a file once, listing the others as
``related``) is suppressed by a comment at any of those places; ``related`` entries in other files (RL004,
RL005, RL006 point at the other variant, file or image) never suppress it: a comment belongs to its file.
The one exception is the other end of the finding's value (:attr:`Related.same_value
<ascend_reflint.model.Related.same_value>`): a finding placed where a variable is set is suppressed by a
comment at the variable's use too, and the other way round, in whatever file each is.

The comment works in every kind of file that reflint reads (Dockerfiles, also inside a continued RUN;
shell; YAML), since all of them use ``#`` comments.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ascend_reflint.model import Finding, SourceFile, Span

#: Compiled on first use (re keeps it): only a file with a ``reflint:`` comment needs it.
_PRAGMA = r"#\s*reflint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?(?=\s|$)"


@dataclass
class Suppression:
    """One ``# reflint: ignore`` comment.

    Attributes:
        path: display path of the file.
        span: the comment's span (from ``#`` to the end of the pragma).
        codes: the codes it names, or None for all.
        used: codes (or ``"*"``) it suppressed at least once.
    """

    path: str
    span: Span
    codes: frozenset[str] | None
    used: set[str] = field(default_factory=set)

    def covers(self, finding: Finding) -> bool:
        """True when this comment names the finding's code (or none) and sits on, or on the line above, one
        of the finding's places (:func:`places`)."""
        if self.codes is not None and finding.code not in self.codes:
            return False
        lines = (self.span.line, self.span.line + 1)
        return any(path == self.path and line in lines for path, line in places(finding))


def places(finding: Finding) -> list[tuple[str, int]]:
    """``(path, line)`` of each place where a comment suppresses ``finding``: its own line, the lines of its
    related entries in its own file, and the other end of its value (``same_value``) in any file."""
    others = [
        (related.path, related.line)
        for related in finding.related
        if related.path == finding.path or related.same_value
    ]
    return [(finding.path, finding.span.line), *others]


def find_suppressions(source: SourceFile) -> list[Suppression]:
    """Every ``# reflint: ignore`` comment in ``source.text`` (none when the text was not read).

    Codes are upper-cased; an empty list (``ignore[]``) suppresses nothing and is reported as unused.
    """
    text = source.text
    if not text or "reflint:" not in text:
        return []
    found: list[Suppression] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "reflint:" not in line:
            continue
        match = re.search(_PRAGMA, line)
        if match is None:
            continue
        codes_text = match.group("codes")
        codes = None
        if codes_text is not None:
            codes = frozenset(code.strip().upper() for code in codes_text.split(",") if code.strip())
        span = Span(number, match.start() + 1, number, match.end() + 1)
        found.append(Suppression(source.path, span, codes))
    return found


def apply_suppressions(findings: Iterable[Finding], suppressions: Sequence[Suppression]) -> list[Finding]:
    """The findings that no suppression covers; marks each suppression's ``used`` codes.

    Args:
        findings: findings of any files.
        suppressions: the comments of those files (and of the files their ``same_value`` places are in).
    """
    by_path: dict[str, list[Suppression]] = {}
    for suppression in suppressions:
        by_path.setdefault(suppression.path, []).append(suppression)
    kept: list[Finding] = []
    for finding in findings:
        paths = dict.fromkeys(path for path, _ in places(finding))
        covering = [s for path in paths for s in by_path.get(path, ()) if s.covers(finding)]
        for suppression in covering:
            suppression.used.add(finding.code if suppression.codes is not None else "*")
        if not covering:
            kept.append(finding)
    return kept


def unused(suppressions: Sequence[Suppression]) -> list[tuple[Suppression, str]]:
    """``(suppression, what)`` for each comment, or each code in it, that suppressed nothing.

    ``what`` is ``"*"`` for a bare comment, else the unused code.
    """
    result: list[tuple[Suppression, str]] = []
    for suppression in suppressions:
        if suppression.codes is None:
            if not suppression.used:
                result.append((suppression, "*"))
        else:
            result.extend((suppression, code) for code in sorted(suppression.codes - suppression.used))
            if not suppression.codes:
                result.append((suppression, "*"))
    return result
