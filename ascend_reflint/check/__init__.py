"""The check stage: rules over pins and looked-up ref lists, tuned by rule packs.

Public API (what the scan wires together)::

    policy = load_policy(extra_packs)               # default packs + the user's, merged
    lookups = lookup_remotes(remotes_to_look_up(files), ...)
    commits = verify_commits(... pinned_commits(files, lookups) ...)  # ascend_reflint.lookup.history
    findings = run_checks(files, lookups, policy, context_files, root, commits)  # by Finding.sort_key()
    all_rules()                                      # RuleInfo per rule, for docs and SARIF

One rule per module in :mod:`ascend_reflint.check.rules`: pin rules see one pin at a time
(:class:`PinContext`), project rules (RL004-RL006) every file read (:class:`ProjectContext`), context-only
files included. Rule packs are described in ``rules/README.md``.
"""

from __future__ import annotations

from typing import Any

from ascend_reflint.check.context import PinContext, ProjectContext, RuleInfo, TreeView
from ascend_reflint.check.engine import (
    all_rules,
    default_branch_lookups,
    drift_lookups,
    files_compared_with,
    needs_lookup,
    pinned_commits,
    remotes_to_look_up,
    run_checks,
)
from ascend_reflint.check.packs import load_policy
from ascend_reflint.check.policy import Policy, PolicyError

__all__ = [
    "PinContext",
    "Policy",
    "PolicyError",
    "ProjectContext",
    "RuleInfo",
    "RulePack",
    "TreeView",
    "all_rules",
    "default_branch_lookups",
    "drift_lookups",
    "files_compared_with",
    "load_policy",
    "needs_lookup",
    "pinned_commits",
    "remotes_to_look_up",
    "run_checks",
]


def __getattr__(name: str) -> Any:
    """``RulePack``, a pydantic model, imported when first asked for (PEP 562): a scan with the shipped packs
    alone does not need pydantic."""
    if name == "RulePack":
        from ascend_reflint.check.pack_schema import RulePack

        return RulePack
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
