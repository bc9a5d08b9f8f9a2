"""Fix in rounds until nothing more applies, as ruff does, then write the files (``--fix``) or not
(``--diff``).

A round applies every fix that overlaps no fix taken before it (:mod:`ascend_reflint.fix.apply`), then
the tree is scanned again with the edited texts in place of the files (nothing is written yet): the
rescan says what is left, and its findings bring the fixes of the next round (a fix that waited for an
overlapping one, or one that the first made possible: RL002 then ``--pin-commits``). Lookups and commit
verdicts of the first scan are reused. After the last round nothing is left to apply, so a second run of
``--fix`` changes nothing.

Writing (:func:`write_fixed`) is atomic per file (:func:`ascend_reflint.output.write_file`: a temporary file
renamed over the target); a file that is a symbolic link is never edited (its target is edited where it
is scanned under its own name), and one that changed on disk since it was read is left alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ascend_reflint.digest import sha256
from ascend_reflint.fix.apply import applicable, apply_round, changed_files
from ascend_reflint.fix.contents import ContentError, FileContent
from ascend_reflint.model import Applicability, FileMessage, Fix, SourceFile
from ascend_reflint.scan import Answers, ScanRun
from ascend_reflint.textfile import FileReadError, read_bytes

#: Rounds before reflint gives up on fixes that keep applying (ruff allows 100; reflint's fixes settle in
#: two or three).
MAX_ROUNDS = 10


@dataclass(frozen=True)
class FixOptions:
    """What to fix.

    Attributes:
        unsafe: apply unsafe fixes too (``--unsafe-fixes``).
        pin_commits: pin tags to their commits (``--pin-commits`` or the config's ``pin-commits``).
        max_bytes: the largest file edited, in bytes (``--max-file-size``).
    """

    unsafe: bool = False
    pin_commits: bool = False
    max_bytes: int = 10 * 1024 * 1024


@dataclass
class FixOutcome:
    """What the rounds did.

    Attributes:
        run: the last scan: the findings that remain.
        contents: display path → the file's content as the fixes left it (changed or not).
        fixed: fixes applied and not undone: no later round took what they changed back to the file's
            text (a later edit that builds on one, such as a release tag pinned to its commit, leaves it
            counted); fixes that made the very same edits count once.
        pinned: tags pinned to their commits (not undone, as ``fixed``).
        refused: files that fixes would have edited but that could not be, with why.
        unpinned: with ``--pin-commits``, the tags left as they are after the last round, with why.
        rounds: how many rounds applied something.
    """

    run: ScanRun
    contents: dict[str, FileContent] = field(default_factory=dict)
    fixed: int = 0
    pinned: int = 0
    refused: list[FileMessage] = field(default_factory=list)
    unpinned: list[FileMessage] = field(default_factory=list)
    rounds: int = 0

    @property
    def changed(self) -> list[FileContent]:
        """The contents whose bytes changed, in path order."""
        return sorted((c for c in self.contents.values() if c.changed), key=lambda content: content.path)

    def unsafe_left(self, unsafe: bool) -> int:
        """Remaining findings that ``--unsafe-fixes`` would fix (0 when it was given)."""
        if unsafe:
            return 0
        return sum(
            1
            for finding in self.run.result.findings
            if finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
        )


#: Scans the tree again with some files' bytes replaced (absolute path → bytes), reusing the answers of the
#: scan before: the files read and the scan.
Rescan = Callable[[Mapping[str, bytes], Answers], tuple[list[SourceFile], ScanRun]]


def fix_in_rounds(files: list[SourceFile], run: ScanRun, rescan: Rescan, options: FixOptions) -> FixOutcome:
    """Apply fixes in rounds (see the module docstring); nothing is written.

    Args:
        files: the files the first scan read.
        run: the first scan.
        rescan: scans again with edited bytes in place of files.
        options: what to fix.

    Returns:
        The :class:`FixOutcome`; its ``run`` is the last rescan (``run`` itself when nothing applied).
    """
    outcome = FixOutcome(run)
    refused: dict[str, str] = {}
    seen: set[str] = set()
    made: list[tuple[bool, list[tuple[str, int]]]] = []  # each fix applied: (a --pin-commits one, its edits)
    for _ in range(MAX_ROUNDS):
        sources = {source.path: source for source in files}
        findings = [finding.fix for finding in outcome.run.result.findings if finding.fix is not None]
        fixes = [fix for fix in findings if applicable(fix, options.unsafe)]
        pins, outcome.unpinned = _pin_commit_fixes(files, outcome.run, options)
        done = apply_round([*fixes, *pins], outcome.contents, _loader(sources, options.max_bytes))
        refused.update(done.refused)
        state = _digest(changed_files(outcome.contents))
        if not done.applied or state in seen:
            break
        seen.add(state)
        outcome.rounds += 1
        for fix, edits in zip(done.applied, done.written, strict=True):
            made.append((any(fix is mine for mine in pins), edits))
        files, outcome.run = rescan(changed_files(outcome.contents), outcome.run.answers)
    standing = {(path, number) for path, content in outcome.contents.items() for number in content.standing()}
    # Fixes that made the very same edits (two findings about one definition) count once: one edit stayed.
    stayed = {frozenset(edits): pinning for pinning, edits in made if edits and standing.issuperset(edits)}
    outcome.pinned = sum(stayed.values())
    outcome.fixed = len(stayed) - outcome.pinned
    outcome.refused = [FileMessage(path, f"not fixed: {why}") for path, why in sorted(refused.items())]
    return outcome


def _pin_commit_fixes(
    files: list[SourceFile], run: ScanRun, options: FixOptions
) -> tuple[list[Fix], list[FileMessage]]:
    """With ``--pin-commits``, the fixes that pin tags to commits and the tags left as they are, with why."""
    if not options.pin_commits:
        return [], []
    from ascend_reflint.fix.pin_commits import pin_commit_fixes

    fixes, unpinned = pin_commit_fixes(files, run.answers.lookups, options.unsafe)
    return fixes, unpinned


def _loader(sources: Mapping[str, SourceFile], max_bytes: int) -> Callable[[str], FileContent]:
    """Loads a file for its first edit: one the scan read whole, not a symbolic link, whose bytes are still
    what the scan read."""

    def load(path: str) -> FileContent:
        source = sources.get(path)
        if source is None or source.error is not None or source.text is None:
            raise ContentError("not read whole by the scan")
        if os.path.islink(source.abspath):
            raise ContentError("a symbolic link: its target is fixed where it is scanned")
        content = FileContent.read(path, source.abspath, max_bytes)
        if content.as_read != source.text:
            raise ContentError("changed since it was read, or not read as it is written")
        return content

    return load


def _digest(changed: Mapping[str, bytes]) -> str:
    digest = sha256()
    for path in sorted(changed):
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0" + changed[path] + b"\0")
    return digest.hexdigest()


def write_fixed(outcome: FixOutcome) -> list[FileMessage]:
    """Write every changed file, each atomically (see the module docstring).

    Returns:
        An error per file that could not be written (it changed on disk meanwhile, or the write failed).
    """
    from ascend_reflint.output import OutputFileError, write_file

    errors = []
    for content in outcome.changed:
        try:
            now = read_bytes(content.abspath, max(len(content.original), 1) * 2)
        except FileReadError as exc:
            errors.append(FileMessage(content.path, f"not fixed: {exc}"))
            continue
        if now != content.original or os.path.islink(content.abspath):
            errors.append(FileMessage(content.path, "not fixed: it changed while reflint ran"))
            continue
        try:
            write_file(content.abspath, content.encoded())
        except OutputFileError as exc:
            errors.append(FileMessage(content.path, f"not fixed: {exc.reason}"))
    return errors
