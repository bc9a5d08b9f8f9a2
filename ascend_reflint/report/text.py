"""Text output: plain lines for pipes and editors, a rich table or coloured lines on a terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from ascend_reflint.inventory import Inventory
from ascend_reflint.model import FileMessage, Finding, Pin, ScanResult, Severity
from ascend_reflint.output import shown

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def write_refs(
    inventory: Inventory, stream: TextIO, rich_output: bool, describes: Mapping[Pin, str] | None = None
) -> None:
    """Write the pin inventory: ``path:line:column: remote ref (via)`` per pin, or a rich table.

    Args:
        inventory: what ``refs`` found.
        stream: where to write.
        rich_output: True on a colour terminal (not NO_COLOR): draw a table; else one plain line per pin.
        describes: pin → the nearest tag of the commit it checks out; such a ref is shown as
            ``c0ffee1 (v0.8.4-12-gc0ffee1)``.
    """
    describes = describes or {}
    if rich_output:
        _refs_table(inventory, stream, describes)
        return
    for pin in inventory.pins:
        target = pin.remote or pin.url
        ref = _shown_ref(pin, describes)
        stream.write(
            shown(f"{pin.path}:{pin.span.line}:{pin.span.column}: {target} {ref} ({pin.via.value})") + "\n"
        )


def _shown_ref(pin: Pin, describes: Mapping[Pin, str]) -> str:
    """The pin's ref as resolved (as written when unresolved, ``-`` when none), with its nearest tag."""
    ref = pin.ref if pin.ref is not None else (pin.ref_text or "-")
    describe = describes.get(pin)
    return f"{ref} ({describe})" if describe is not None else ref


def _refs_table(inventory: Inventory, stream: TextIO, describes: Mapping[Pin, str]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{len(inventory.pins)} pins in {len(inventory.files)} files", title_justify="left")
    for column in ("location", "remote", "ref", "via", "clone"):
        # The location stays on one line so that terminals keep it clickable (path:line:column).
        table.add_column(column, no_wrap=column == "location", overflow="fold")
    for pin in inventory.pins:
        ref = (
            Text(shown(_shown_ref(pin, describes)), style="green")
            if pin.resolved
            else Text(shown(pin.ref_text or "-"), style="yellow")
        )
        clone = " ".join(
            part
            for part in (
                f"depth {pin.depth}" if pin.depth else "",
                "shallow" if pin.shallow and not pin.depth else "",
            )
            if part
        )
        table.add_row(
            Text(shown(f"{pin.path}:{pin.span.line}:{pin.span.column}")),
            Text(shown(pin.remote or pin.url)),
            ref,
            Text(pin.via.value),
            Text(clone),
        )
    Console(file=stream, soft_wrap=False, highlight=False).print(table)


def write_findings(result: ScanResult, stream: TextIO, colour: bool) -> None:
    """Write one line per finding, ``path:line:column: CODE [severity] message``, then a summary line.

    A finding with a suggestion is followed by ``  did you mean 'REF'?``.
    """
    console = None
    if colour:
        from rich.console import Console

        console = Console(file=stream, soft_wrap=True, highlight=False)
    for finding in result.findings:
        _write_finding(finding, stream, console)
    summary = summary_line(result)
    if console is not None:
        console.print(summary, markup=False, style="bold")
    else:
        stream.write(summary + "\n")


def _write_finding(finding: Finding, stream: TextIO, console: object) -> None:
    # Made safe before its length is taken: an escaped path is longer than the file name it shows.
    location = shown(f"{finding.path}:{finding.span.line}:{finding.span.column}:")
    severity = finding.severity.label
    lines = [f"{location} {shown(f'{finding.code} [{severity}] {finding.message}')}"]
    if finding.suggestion is not None:
        lines.append(shown(f"  did you mean '{finding.suggestion}'?"))
    lines.extend(shown(f"  {r.path}:{r.line}:{r.column}: {r.message}") for r in finding.related)
    if console is None:
        stream.write("\n".join(lines) + "\n")
        return
    from rich.text import Text

    head = Text(lines[0])
    head.stylize(
        _STYLE[finding.severity], len(location) + 1, len(location) + 1 + len(finding.code) + len(severity) + 3
    )
    console.print(head)  # type: ignore[attr-defined]
    for line in lines[1:]:
        console.print(Text(line, style="dim"))  # type: ignore[attr-defined]


def summary_line(result: ScanResult) -> str:
    """``N errors, N warnings, N info in F files (P pins, R remotes: K checked (C cached), U not
    checked)``."""
    counts = {severity: 0 for severity in Severity}
    for finding in result.findings:
        counts[finding.severity] += 1
    s = result.summary
    text = (
        f"{counts[Severity.ERROR]} error{'s' * (counts[Severity.ERROR] != 1)}, "
        f"{counts[Severity.WARNING]} warning{'s' * (counts[Severity.WARNING] != 1)}, "
        f"{counts[Severity.INFO]} info in {s.files} file{'s' * (s.files != 1)} "
        f"({s.pins} pin{'s' * (s.pins != 1)}, {s.remotes} remote{'s' * (s.remotes != 1)}: "
        f"{s.checked} checked ({s.cached} cached), {s.unchecked} not checked)"
    )
    if result.errors:
        text += f"; {len(result.errors)} file{'s' * (len(result.errors) != 1)} could not be read"
    return text


def write_file_messages(errors: list[FileMessage], notices: list[FileMessage], stream: TextIO) -> None:
    """Write ``path: error: message`` and ``path: notice: message`` lines (to stderr, usually)."""
    for message in errors:
        stream.write(shown(f"{message.path}: error: {message.message}") + "\n")
    for message in notices:
        stream.write(shown(f"{message.path}: notice: {message.message}") + "\n")
