"""Builders for the consistency tests: small file trees on disk, scanned through the real pipeline."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from ascend_reflint.check import run_checks
from ascend_reflint.check.engine import pin_lookup_key
from ascend_reflint.check.pack_schema import RulePack
from ascend_reflint.check.policy import Policy
from ascend_reflint.cli import main
from ascend_reflint.config import Config
from ascend_reflint.inventory import build_inventory
from ascend_reflint.model import Finding, LookupResult, Related, Span
from ascend_reflint.scan import build_policy


def write_tree(root: Path, files: Mapping[str, str]) -> None:
    """Write ``files`` (root-relative path → text) under ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def default_policy(**settings: object) -> Policy:
    """The shipped packs, then one pack holding ``settings`` (python names)."""
    policy = build_policy(Config(root="/"))
    return policy.merged_with(RulePack(name="test", **settings)) if settings else policy  # type: ignore[arg-type]


def findings_in(
    root: Path,
    files: Mapping[str, str],
    code: str,
    lookups: Mapping[str, LookupResult] | None = None,
    policy: Policy | None = None,
    scanned: Sequence[str] | None = None,
) -> list[Finding]:
    """Write ``files`` under ``root``, extract them all, and run the rules (no lookups unless given;
    ``lookups`` is keyed by remote and answers for every URL of that remote).

    Args:
        scanned: the paths scanned (default: all); the others are read as context only.

    Returns:
        The findings of rule ``code``; paths are root-relative.
    """
    write_tree(root, files)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        inventory = build_inventory(["."])
    wanted = set(scanned) if scanned is not None else {source.path for source in inventory.files}
    targets = [source for source in inventory.files if source.path in wanted]
    context = [source for source in inventory.files if source.path not in wanted]
    keyed = {
        key: result
        for source in targets
        for pin in source.pins
        if (key := pin_lookup_key(pin)) is not None
        for result in [(lookups or {}).get(pin.remote or "")]
        if result is not None
    }
    found = run_checks(targets, keyed, policy or default_policy(), context, str(root))
    return [finding for finding in found if finding.code == code]


def scan_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    """``reflint scan --format json ARGS`` in the current directory: (exit code, document, stderr)."""
    code = main(["scan", "--format", "json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else {}, captured.err


def record(finding: Finding) -> tuple[str, str, int, int, int, str, tuple[Related, ...]]:
    """The parts of a finding that tests compare: code, path, line, column, end column, message, related."""
    return (
        finding.code,
        finding.path,
        finding.span.line,
        finding.span.column,
        finding.span.end_column,
        finding.message,
        finding.related,
    )


def one_line(line: int, column: int, end_column: int) -> Span:
    """A one-line span."""
    return Span(line, column, line, end_column)
