"""Text output: plain lines for pipes and editors, a rich table or coloured lines on a terminal."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, TextIO

from ascend_reflint.inventory import Inventory
from ascend_reflint.model import FileMessage, Finding, Pin, ScanResult, Severity
from ascend_reflint.output import shown
from ascend_reflint.report import did_you_mean, fix_counts, fixable, rule_counts

if TYPE_CHECKING:
    from rich.console import Console

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


class TextOptions(NamedTuple):
    """How the text format writes a scan: ``--color``, ``--quiet`` and ``--statistics``."""

    colour: bool
    quiet: bool
    statistics: bool


def write_refs(
    inventory: Inventory, stream: TextIO, rich_output: bool, describes: Mapping[Pin, str] | None = None
) -> None:
    """Write the pin inventory: a rich table, or one line per pin,
    ``path:line:column: remote ref (via, depth N)``; both say the same.

    Args:
        inventory: what ``refs`` found.
        stream: where to write.
        rich_output: True when colour is on (a terminal, see ``--color``): draw a table, unless the
            terminal is too narrow for it (:func:`_refs_table`), else coloured lines; False: plain lines.
        describes: pin → the nearest tag of the commit it checks out; such a ref is shown as
            ``c0ffee1 (v0.8.4-12-gc0ffee1)``.
    """
    describes = describes or {}
    rows = [_refs_row(pin, describes) for pin in inventory.pins]
    if rich_output and _refs_table(inventory, rows, stream):
        return
    console = _console(stream, soft_wrap=True) if rich_output else None
    for pin, (location, target, ref, via, clone) in zip(inventory.pins, rows, strict=True):
        how = f"{via}, {clone}" if clone else via
        if console is None:
            stream.write(f"{location}: {target} {ref} ({how})\n")
            continue
        from rich.text import Text

        line = Text(f"{location}: {target} ")
        line.append(ref, style=_ref_style(pin))
        line.append(f" ({how})")
        console.print(line)


#: Columns that a table of five columns spends on borders (six) and cell padding (two per column).
_TABLE_FRAME = 6 + 5 * 2
_TABLE_COLUMNS = ("location", "remote", "ref", "via", "clone")


def _refs_table(inventory: Inventory, rows: Sequence[tuple[str, ...]], stream: TextIO) -> bool:
    """Draw the pins as a rich table whose every cell is on one line: a remote or a 40-character commit
    folded mid-token cannot be copied or searched for, and terminals make the location clickable.

    Returns:
        False, having written nothing, when the terminal is too narrow for the widest cell of each column
        side by side: one line per pin then serves better.
    """
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    console = _console(stream, soft_wrap=False)
    widths = [max(cell_len(cell) for cell in column) for column in zip(_TABLE_COLUMNS, *rows, strict=True)]
    if sum(widths) + _TABLE_FRAME > console.width:
        return False
    pins, files = len(inventory.pins), len(inventory.files)
    title = f"{pins} pin{'s' * (pins != 1)} in {files} file{'s' * (files != 1)}"
    table = Table(title=title, title_justify="left")
    for column in _TABLE_COLUMNS:
        table.add_column(column, no_wrap=True)
    for pin, (location, remote, ref, via, clone) in zip(inventory.pins, rows, strict=True):
        table.add_row(Text(location), Text(remote), Text(ref, style=_ref_style(pin)), Text(via), Text(clone))
    console.print(table)
    return True


def _ref_style(pin: Pin) -> str:
    """Resolved refs green, the others (shown as written) yellow."""
    return "green" if pin.resolved else "yellow"


def _console(stream: TextIO, soft_wrap: bool) -> Console:
    """A rich console that colours ``stream``: the caller decided (``--color``, ``FORCE_COLOR``,
    ``NO_COLOR``), so rich must not decide again from the environment or from whether the stream is a
    terminal. Its width is the terminal's (``COLUMNS`` when set, else 80 off a terminal); a ``COLUMNS`` of 0
    or less counts as unset, as for :func:`shutil.get_terminal_size` (rich took 0 as a width of nothing and
    printed nothing at all)."""
    import shutil

    from rich.console import Console

    width = None
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.lstrip("-").isdigit() and int(columns) < 1:
        width = shutil.get_terminal_size().columns
    return Console(
        file=stream,
        width=width,
        soft_wrap=soft_wrap,
        highlight=False,
        force_terminal=True,
        no_color=False,
        color_system="standard",
    )


def _refs_row(pin: Pin, describes: Mapping[Pin, str]) -> tuple[str, str, str, str, str]:
    """What the table and the lines show of ``pin``, made safe to print: location, remote (the URL when it
    has none), ref (:func:`_shown_ref`), via, clone (``depth N``, or ``shallow`` for a clone made shallow
    otherwise)."""
    clone = f"depth {pin.depth}" if pin.depth else "shallow" if pin.shallow else ""
    location = f"{pin.path}:{pin.span.line}:{pin.span.column}"
    return (
        shown(location),
        shown(pin.remote or pin.url),
        shown(_shown_ref(pin, describes)),
        pin.via.value,
        clone,
    )


def _shown_ref(pin: Pin, describes: Mapping[Pin, str]) -> str:
    """The pin's ref as resolved (as written when unresolved, ``-`` when none), with its nearest tag."""
    ref = pin.ref if pin.ref is not None else (pin.ref_text or "-")
    describe = describes.get(pin)
    return f"{ref} ({describe})" if describe is not None else ref


def write_findings(
    result: ScanResult, stream: TextIO, colour: bool, *, quiet: bool = False, statistics: bool = False
) -> None:
    """Write the findings of one file after another, a blank line between files, then a summary line.

    Every line starts with ``path:line:column:``, as compilers write them, so that editors and terminals
    can jump to it (Vim's and Emacs's default error formats, VS Code's problem matchers):

    - ``path:line:column: CODE [severity] message`` for a finding, ``CODE [*] [severity] message`` for one
      that ``--fix`` fixes (with the options given), as ruff marks them;
    - ``path:line:column: help: did you mean 'REF'?`` at the finding, when it has a suggestion that the
      message does not name already;
    - ``path:line:column: note: message`` for each related place.

    Findings are sorted by path, line, column and code.

    Args:
        result: the scan's result.
        stream: where to write.
        colour: style the code and severity (and dim the extra lines) for a terminal.
        quiet: write the findings only, no summary line.
        statistics: write the count of findings per rule instead of the findings, as ruff's
            ``--statistics`` does (see :func:`statistics_lines`).
    """
    console = None
    if colour:
        console = _console(stream, soft_wrap=True)
    if statistics:
        for line in statistics_lines(result):
            stream.write(line + "\n")
    else:
        previous: str | None = None
        for finding in sorted(result.findings, key=Finding.sort_key):
            if previous is not None and finding.path != previous:
                stream.write("\n")
            previous = finding.path
            _write_finding(finding, stream, console, fixable(finding, result.unsafe_fixes))
    if quiet:
        return
    summary = summary_line(result)
    if result.findings and not statistics:
        stream.write("\n")
    if console is not None:
        console.print(summary, markup=False, style="bold")
    else:
        stream.write(summary + "\n")
    fixes = fix_line(result)
    if fixes is not None:
        stream.write(fixes + "\n")


def fix_line(result: ScanResult) -> str | None:
    """What ``--fix`` did or would do, as ruff says it, or None when there is nothing to say:

    - after ``--fix``: ``N fixed, M remaining`` (and ``K tags pinned to commits``), then ``(K more fixable
      with --unsafe-fixes)`` when that is so, and ``, in R rounds: …`` when fixes ran in more than one
      (:func:`rounds_note`);
    - else: ``[*] N fixable with --fix`` and ``(K more with --unsafe-fixes)``, or ``K fixable with
      --fix --unsafe-fixes`` when only unsafe fixes are there.
    """
    now, more = fix_counts(result)
    hidden = f"{more} more fixable with --unsafe-fixes" if more else ""
    report = result.fixed
    if report is not None:
        pinned = (
            f", {report.pinned} tag{'s' * (report.pinned != 1)} pinned to commits" if report.pinned else ""
        )
        line = f"{report.fixed} fixed{pinned}, {len(result.findings)} remaining"
        return (f"{line} ({hidden})" if hidden else line) + rounds_note(report.rounds)
    if now:
        return f"[*] {now} fixable with --fix" + (f" ({more} more with --unsafe-fixes)" if more else "")
    return f"{more} fixable with --fix --unsafe-fixes" if more else None


def rounds_note(rounds: int) -> str:
    """What a fix summary (``--fix``'s line, ``--diff``'s) says of ``rounds`` rounds: nothing for one; for
    more, that the fixes of a round made findings that the next round fixed, which no message of the first
    scan named (RL002 pins the release tag ``core_v0.18.0``, then RL024 finds ``core_v0.18.2`` newer)."""
    if rounds < 2:
        return ""
    return (
        f", in {rounds} rounds: rescanning after the first fixes found more to fix (keep a rule's fixes out "
        "with --unfixable CODE)"
    )


def statistics_lines(result: ScanResult) -> list[str]:
    """``COUNT<TAB>CODE<TAB>[severity] rule-name`` per rule and severity with findings, in the order of
    :func:`ascend_reflint.report.rule_counts` (most findings first), as ruff's ``--statistics`` prints. A
    rule whose findings have several severities (an error capped to a warning in documentation, a severity
    lowered by context) has a line per severity, so that the counts of each severity add up to the
    summary's totals."""
    counts = rule_counts(result)
    width = len(str(max((entry.total for entry in counts), default=0)))
    return [f"{e.total:>{width}}\t{e.code}\t[{e.severity.label}] {e.rule}" for e in counts]


def _write_finding(finding: Finding, stream: TextIO, console: object, marked: bool) -> None:
    # Made safe before its length is taken: an escaped path is longer than the file name it shows.
    location = shown(f"{finding.path}:{finding.span.line}:{finding.span.column}:")
    severity = finding.severity.label
    marker = " [*]" if marked else ""
    lines = [f"{location} {shown(f'{finding.code}{marker} [{severity}] {finding.message}')}"]
    hint = did_you_mean(finding)
    if hint is not None:
        lines.append(f"{location} {shown(f'help: {hint}')}")
    lines.extend(shown(f"{r.path}:{r.line}:{r.column}: note: {r.message}") for r in finding.related)
    if console is None:
        stream.write("\n".join(lines) + "\n")
        return
    from rich.text import Text

    head = Text(lines[0])
    start = len(location) + 1
    head.stylize(_STYLE[finding.severity], start, start + len(finding.code) + len(marker) + len(severity) + 3)
    console.print(head)  # type: ignore[attr-defined]
    for line in lines[1:]:
        console.print(Text(line, style="dim"))  # type: ignore[attr-defined]


def summary_line(result: ScanResult) -> str:
    """``N errors, N warnings, N info in F of T files (P pins, R remotes: K checked (C cached), U not
    checked)``: F files have findings, of T read; ``; N cached failures, --refresh asks again`` before the
    closing parenthesis when answers were failures kept in the cache, and ``; looked up only to tell tags,
    branches and commit ids apart (RL004, RL005)`` when no rule that needs ref lists runs and remotes
    were still looked up (:func:`ascend_reflint.check.drift_lookups`)."""
    counts = {severity: 0 for severity in Severity}
    for finding in result.findings:
        counts[finding.severity] += 1
    s = result.summary
    with_findings = len({finding.path for finding in result.findings})
    text = (
        f"{counts[Severity.ERROR]} error{'s' * (counts[Severity.ERROR] != 1)}, "
        f"{counts[Severity.WARNING]} warning{'s' * (counts[Severity.WARNING] != 1)}, "
        f"{counts[Severity.INFO]} info in {with_findings} of {s.files} file{'s' * (s.files != 1)} "
        f"({s.pins} pin{'s' * (s.pins != 1)}, {s.remotes} remote{'s' * (s.remotes != 1)}: "
        f"{s.checked} checked ({s.cached} cached), {s.unchecked} not checked"
    )
    if s.cached_failures:
        text += f"; {s.cached_failures} cached failure{'s' * (s.cached_failures != 1)}, --refresh asks again"
    if s.remotes and not s.lookup_rules:
        # Only the drift rules ran: they ask a remote only when it is pinned both by commit id and by name, or
        # when they found its pins at refs that disagree.
        text += "; looked up only to tell tags, branches and commit ids apart (RL004, RL005)"
    text += ")"
    if result.errors:
        text += f"; {len(result.errors)} file{'s' * (len(result.errors) != 1)} could not be read"
    return text


def write_file_messages(errors: list[FileMessage], notices: list[FileMessage], stream: TextIO) -> None:
    """Write ``path:line:column: error: message`` and ``path: notice: message`` lines (to stderr, usually),
    with as much of the location as is known, as findings give it (editors jump to it); a message about no
    file (the caches') as ``reflint: notice: message``."""
    for message in errors:
        stream.write(shown(f"{message.location or 'reflint'}: error: {message.message}") + "\n")
    for message in notices:
        stream.write(shown(f"{message.location or 'reflint'}: notice: {message.message}") + "\n")
