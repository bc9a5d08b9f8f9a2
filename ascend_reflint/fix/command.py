"""What ``reflint scan --fix`` and ``--diff`` do once the scan has run: the rounds of fixes with their
rescans, then the fixed files written, or the diff printed (:mod:`ascend_reflint.cli` parses the options
and sets the exit code)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ascend_reflint.fix.rounds import FixOutcome
    from ascend_reflint.inventory import Inventory
    from ascend_reflint.model import SourceFile
    from ascend_reflint.scan import Answers, ScanOptions, ScanRun

#: Reads the inventory again with the given bytes in place of the files' (path → bytes).
Reread = Callable[[Mapping[str, bytes]], "Inventory"]


def fix_in_rounds(
    inventory: Inventory,
    run: ScanRun,
    options: ScanOptions,
    reread: Reread,
    pin_commits: bool,
    max_bytes: int,
) -> FixOutcome:
    """Apply the fixes in rounds, each followed by a rescan of the edited texts; nothing is written.

    Args:
        inventory: what the scan read (with the files' texts).
        run: the scan.
        options: the scan's options; the rescans reuse the run's answers and show no progress bar.
        reread: reads the inventory again over the edited bytes.
        pin_commits: ``--pin-commits`` (or the config's ``pin-commits``).
        max_bytes: the largest file read, in bytes (``--max-file-size``).

    Returns:
        What the rounds changed (:class:`~ascend_reflint.fix.rounds.FixOutcome`).
    """
    from ascend_reflint.fix.rounds import FixOptions
    from ascend_reflint.fix.rounds import fix_in_rounds as rounds
    from ascend_reflint.scan import run_scan

    def rescan(overlay: Mapping[str, bytes], answers: Answers) -> tuple[list[SourceFile], ScanRun]:
        again = reread(overlay)
        rerun = run_scan(again, options._replace(answers=answers, progress=False))
        rerun.result.unsafe_fixes = run.result.unsafe_fixes
        return again.files, rerun

    fix_options = FixOptions(unsafe=run.result.unsafe_fixes, pin_commits=pin_commits, max_bytes=max_bytes)
    return rounds(inventory.files, run, rescan, fix_options)


def write_fixes(outcome: FixOutcome, first: ScanRun) -> ScanRun:
    """Write the fixed files.

    Args:
        outcome: what the rounds changed.
        first: the scan before any fix (its lookups are the run's: the rescans asked no remote).

    Returns:
        The run that remains, with what was fixed (and each file that could not be written, as an error)
        in its result.
    """
    from ascend_reflint.fix.rounds import write_fixed
    from ascend_reflint.model import FixReport

    run = outcome.run
    failures = write_fixed(outcome)
    written = len(outcome.changed) - len(failures)
    run.result.fixed = (
        FixReport(outcome.fixed, outcome.pinned, written, outcome.rounds) if written else FixReport(0, 0, 0)
    )
    run.result.errors.extend(failures)
    run.result.summary = run.result.summary._replace(
        lookups=first.result.summary.lookups, cached=first.result.summary.cached
    )
    run.side_notices.extend([*outcome.refused, *outcome.unpinned])
    return run


def write_diff(outcome: FixOutcome) -> int:
    """``--diff``: the diff on standard output, a line about it on standard error.

    Returns:
        How many files the diff changes.
    """
    from ascend_reflint.fix.diff import unified_diff
    from ascend_reflint.output import Channel
    from ascend_reflint.report.text import rounds_note, write_file_messages

    diff = unified_diff(outcome.changed)
    if diff:
        stdout = sys.stdout if isinstance(sys.stdout, Channel) else Channel(sys.stdout)
        stdout.write_exact(diff)
    write_file_messages(outcome.run.result.errors, [*outcome.refused, *outcome.unpinned], sys.stderr)
    files = len(outcome.changed)
    left = len(outcome.unpinned)
    unpinned = f"; {left} tag{'s' * (left != 1)} left as {'they are' if left != 1 else 'it is'} (see above)"
    unpinned = unpinned if left else ""
    if files:
        pinned = f" and pin {outcome.pinned} tag{'s' * (outcome.pinned != 1)}" if outcome.pinned else ""
        sys.stderr.write(
            f"reflint: would fix {outcome.fixed} finding{'s' * (outcome.fixed != 1)}{pinned} "
            f"in {files} file{'s' * (files != 1)}{rounds_note(outcome.rounds)}{unpinned}\n"
        )
    else:
        sys.stderr.write(f"reflint: nothing to fix{unpinned}\n")
    return files
