"""The rules, one module each; adding a rule is one module here plus one line in :data:`RULES`.

A rule module defines ``CODE``, ``NAME``, ``SEVERITY``, ``NEEDS_LOOKUP``, a module docstring that is the
rule's user documentation, with the sections "What it does", "Why is this bad?", "Example" (a recipe the
rule reports) and "Use instead" (one it does not), and either a ``check(context)`` generator of findings
about one pin, a ``check_issue(context)`` generator of findings about one command that fails (with the
``KIND`` of issue it reads), or a ``check_project(context)`` generator of findings that compare files
(see :mod:`ascend_reflint.check.context`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import cast

from ascend_reflint.check.context import IssueRule, PinRule, ProjectRule, RuleModule
from ascend_reflint.check.rules import (
    rl001_ref_not_found,
    rl002_branch_pin,
    rl003_shallow_clone_needs_history,
    rl004_variant_drift,
    rl005_cross_file_drift,
    rl006_env_drift,
    rl007_branch_flag_with_commit,
    rl008_unverifiable_commit,
    rl009_unresolved_ref,
    rl010_remote_unreachable,
    rl011_unsafe_url,
    rl012_empty_ref,
    rl013_ambiguous_ref,
    rl014_repo_not_found,
    rl015_unpinned_clone,
    rl016_insecure_transport,
    rl017_local_repository,
    rl018_option_without_value,
    rl019_checkout_outside_clone,
    rl020_checkout_of_fetch_head_only,
    rl021_run_syntax_error,
    rl022_bash_under_sh,
    rl023_version_comment_mismatch,
    rl024_newer_release,
    rl025_commit_not_in_history,
    rl026_ambiguous_commit_id,
    rl027_submodules_not_updated,
    rl099_unused_ignore,
)

#: Every rule module, in code order.
RULES: tuple[RuleModule, ...] = (
    rl001_ref_not_found,
    rl002_branch_pin,
    rl003_shallow_clone_needs_history,
    rl004_variant_drift,
    rl005_cross_file_drift,
    rl006_env_drift,
    rl007_branch_flag_with_commit,
    rl008_unverifiable_commit,
    rl009_unresolved_ref,
    rl010_remote_unreachable,
    rl011_unsafe_url,
    rl012_empty_ref,
    rl013_ambiguous_ref,
    rl014_repo_not_found,
    rl015_unpinned_clone,
    rl016_insecure_transport,
    rl017_local_repository,
    rl018_option_without_value,
    rl019_checkout_outside_clone,
    rl020_checkout_of_fetch_head_only,
    rl021_run_syntax_error,
    rl022_bash_under_sh,
    rl023_version_comment_mismatch,
    rl024_newer_release,
    rl025_commit_not_in_history,
    rl026_ambiguous_commit_id,
    rl027_submodules_not_updated,
    rl099_unused_ignore,
)

#: The rules that look at one pin at a time.
PIN_RULES: tuple[PinRule, ...] = tuple(cast(PinRule, rule) for rule in RULES if hasattr(rule, "check"))
#: The rules that read what extraction recorded about commands that fail.
ISSUE_RULES: tuple[IssueRule, ...] = tuple(
    cast(IssueRule, rule) for rule in RULES if hasattr(rule, "check_issue")
)
#: The rules that compare files with each other.
PROJECT_RULES: tuple[ProjectRule, ...] = tuple(
    cast(ProjectRule, rule) for rule in RULES if hasattr(rule, "check_project")
)

_RULE_CODE = re.compile(r"RL\d{3}")
_CODE_PREFIX = re.compile(r"RL\d{0,3}")


def check_code(code: str) -> str:
    """The code of the one rule that ``code`` names: a code in any case (``rl002`` → ``RL002``), as
    ``--select`` and ``# reflint: ignore[...]`` read codes, or a rule's name (``branch-pin`` → ``RL002``),
    as ``select`` reads names (a ``severity`` key names one rule, so a prefix does not do).

    Raises:
        ValueError: for text that is neither ``RL`` and three digits nor a rule's name, or a code no rule
            has.
    """
    known = {rule.CODE for rule in RULES}
    names = _names()
    if code.strip().lower() in names:
        return names[code.strip().lower()]
    upper = code.upper()
    if not _RULE_CODE.fullmatch(upper):
        import difflib  # not at the top: only a key that names no rule needs it

        close = difflib.get_close_matches(code.lower(), names, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(f"{code!r} is not a rule code (RL002) or a rule name (branch-pin){hint}")
    if upper not in known:
        raise ValueError(f"unknown rule code {upper} (known: {', '.join(sorted(known))})")
    return upper


def check_selector(selector: str) -> str:
    """Return ``selector`` in its canonical form when it selects some rule, as ruff's ``--select`` reads
    its selectors: a code (``RL002``, any case), a rule name (``branch-pin``), or a code prefix (``RL0``,
    ``RL00``; ``RL`` is every rule). Codes and prefixes are upper-cased, names lower-cased.

    Raises:
        ValueError: for text that is none of these, or a prefix no rule's code starts with.
    """
    text = selector.strip()
    names = _names()
    if text.lower() in names:
        return text.lower()
    upper = text.upper()
    if _CODE_PREFIX.fullmatch(upper):
        if not any(rule.CODE.startswith(upper) for rule in RULES):
            if _RULE_CODE.fullmatch(upper):
                raise ValueError(f"unknown rule code {upper} (`reflint rules` lists the rules)")
            raise ValueError(f"no rule code starts with {upper} (`reflint rules` lists the rules)")
        return upper
    import difflib  # not at the top: only a selector that is no rule's needs it

    close = difflib.get_close_matches(text.lower(), names, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise ValueError(
        f"{text!r} is not a rule code (RL002), a code prefix (RL00) or a rule name (branch-pin){hint}; "
        "`reflint rules` lists the rules"
    )


def selected_codes(selectors: Iterable[str]) -> tuple[str, ...]:
    """The codes that ``selectors`` (see :func:`check_selector`) select, in code order, each once.

    Raises:
        ValueError: a selector selects no rule.
    """
    chosen: set[str] = set()
    for selector in selectors:
        canonical = check_selector(selector)
        names = _names()
        if canonical in names:
            chosen.add(names[canonical])
        else:
            chosen.update(rule.CODE for rule in RULES if rule.CODE.startswith(canonical))
    return tuple(sorted(chosen))


def _names() -> dict[str, str]:
    """Rule name → code."""
    return {rule.NAME: rule.CODE for rule in RULES}
