"""``reflint scan``: wire the stages after extraction — lookup, check — into one result.

The CLI stays thin: it parses options, calls :func:`run_scan` and hands the result to a formatter.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ascend_reflint.inventory import Inventory
from ascend_reflint.model import FileMessage, ScanResult, ScanSummary


@dataclass(frozen=True)
class ScanOptions:
    """How to look up remotes and which rules to run (see ``reflint scan --help``).

    Attributes:
        offline: answer from the cache only.
        refresh: ignore cached answers.
        cache_dir: where ref lists are cached (None: the user cache dir).
        cache_ttl: how long a cached answer stays fresh, in seconds.
        timeout: time limit of one remote's lookup, in seconds.
        jobs: remotes looked up at once.
        select: only these rule codes (None: all).
        ignore: skip these rule codes.
        rule_packs: extra rule pack files.
        progress: show a progress bar on stderr.
    """

    offline: bool = False
    refresh: bool = False
    cache_dir: str | None = None
    cache_ttl: float = 3600.0
    timeout: float = 20.0
    jobs: int = 16
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    rule_packs: tuple[str, ...] = ()
    progress: bool = False


def run_scan(inventory: Inventory, options: ScanOptions) -> tuple[ScanResult, dict[str, float]]:
    """Look up the inventory's remotes and run the rules.

    Args:
        inventory: the files read and their pins.
        options: lookup and rule options.

    Returns:
        ``(result, timings)``: the findings, file errors and summary; and seconds per stage (``discover``,
        ``extract``, ``lookup``, ``check``).
    """
    from ascend_reflint.check import load_policy, remotes_to_look_up, run_checks
    from ascend_reflint.lookup import LookupOptions, lookup_remotes

    timings = dict(inventory.timings)
    policy = load_policy([Path(p) for p in options.rule_packs])
    requests = remotes_to_look_up(inventory.files)
    started = time.perf_counter()
    lookup_options = LookupOptions(
        jobs=options.jobs,
        timeout=options.timeout,
        cache_dir=Path(options.cache_dir) if options.cache_dir else None,
        cache_ttl=options.cache_ttl,
        refresh=options.refresh,
        offline=options.offline,
    )
    lookups, stats = _lookup_with_progress(requests, lookup_options, options.progress, lookup_remotes)
    timings["lookup"] = time.perf_counter() - started
    started = time.perf_counter()
    findings = run_checks(inventory.files, lookups, policy)
    if options.select is not None:
        findings = [f for f in findings if f.code in options.select]
    findings = [f for f in findings if f.code not in options.ignore]
    timings["check"] = time.perf_counter() - started
    notices = list(inventory.notices) + [FileMessage("(cache)", n) for n in getattr(stats, "notices", [])]
    summary = ScanSummary(
        files=len(inventory.files),
        pins=len(inventory.pins),
        remotes=len(requests),
        lookups=stats.lookups,
        cached=stats.cached,
    )
    return ScanResult(findings=findings, errors=list(inventory.errors), notices=notices, summary=summary), timings


def _lookup_with_progress(requests, lookup_options, show_progress, lookup_remotes):  # type: ignore[no-untyped-def]
    if not show_progress or not requests:
        return lookup_remotes(requests, lookup_options)
    from rich.console import Console
    from rich.progress import Progress

    # stderr: stdout carries the report, which may be JSON or SARIF piped elsewhere.
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("Looking up remotes", total=len(requests))
        return lookup_remotes(requests, lookup_options, lambda _remote: progress.advance(task))
