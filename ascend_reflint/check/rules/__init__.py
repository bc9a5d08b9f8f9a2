"""The rules, one module each; adding a rule is one module here plus one line in :data:`RULES`.

A rule module defines ``CODE``, ``NAME``, ``SEVERITY``, ``NEEDS_LOOKUP``, a ``check(context)`` generator
of findings (see :class:`ascend_reflint.check.context.RuleModule`), and a module docstring that is the
rule's user documentation, with the sections "What it does", "Why is this bad?", "Example" (a recipe the
rule reports) and "Use instead" (one it does not).
"""

from __future__ import annotations

from ascend_reflint.check.context import RuleModule
from ascend_reflint.check.rules import (
    rl001_ref_not_found,
    rl002_branch_pin,
    rl007_branch_flag_with_commit,
    rl008_unverifiable_commit,
    rl009_unresolved_ref,
    rl010_remote_unreachable,
    rl011_unsafe_url,
    rl012_empty_ref,
    rl013_ambiguous_ref,
    rl014_repo_not_found,
    rl015_unpinned_clone,
)

#: Every rule module, in code order.
RULES: tuple[RuleModule, ...] = (
    rl001_ref_not_found,
    rl002_branch_pin,
    rl007_branch_flag_with_commit,
    rl008_unverifiable_commit,
    rl009_unresolved_ref,
    rl010_remote_unreachable,
    rl011_unsafe_url,
    rl012_empty_ref,
    rl013_ambiguous_ref,
    rl014_repo_not_found,
    rl015_unpinned_clone,
)
