"""The engine: which remotes to look up, running the rules, severities, the rule registry and docs."""

from __future__ import annotations

import pkgutil
import re
from dataclasses import replace

import pytest

import ascend_reflint.check.rules as rules_package
from ascend_reflint.check import all_rules, load_policy, needs_lookup, remotes_to_look_up, run_checks
from ascend_reflint.check.context import PinContext
from ascend_reflint.check.engine import rule_info
from ascend_reflint.check.rules import RULES, rl001_ref_not_found
from ascend_reflint.model import FileKind, Finding, Resolution, Severity, SourceFile, Via

from .helpers import (
    CLONE_REF_SPAN,
    MEGATRON,
    PATH,
    by_lookup_key,
    make_pin,
    policy,
    refs_of,
    scan,
    span,
    unresolved,
)

FULL_ID = "3f601f7ac1c062c46502646ff04c535013bfca00"


def source(path: str, *pins: object) -> SourceFile:
    return SourceFile(path=path, abspath=f"/repo/{path}", kind=FileKind.DOCKERFILE, pins=list(pins))  # type: ignore[arg-type]


def test_remotes_to_look_up_maps_each_url_as_fetched_to_the_first_pin_s_url() -> None:
    files = [
        source(
            "a/Dockerfile",
            make_pin("core_v0.18.0", url="https://github.com/NVIDIA/Megatron-LM.git"),
            make_pin("main", url="git@github.com:nvidia/megatron-lm.git"),
            make_pin(None, url="https://github.com/deepseek-ai/DeepEP.git", via=Via.CLONE),
            make_pin("v1", url="git://github.com/NVIDIA/Megatron-LM.git"),
            make_pin("v2", url="https://TOKEN@github.com/NVIDIA/Megatron-LM.git"),
            make_pin("v3", url="https://GitHub.com:443/nvidia/megatron-lm/"),
        ),
        source("b/Dockerfile", make_pin("v1.2.1", url="https://github.com/deepseek-ai/DeepEP")),
    ]
    # One lookup per scheme, user part, host, port and path; ".git", a trailing slash and the case of a
    # case-insensitive host's path are normalised away.
    assert remotes_to_look_up(files) == {
        "https://github.com/nvidia/megatron-lm": "https://github.com/NVIDIA/Megatron-LM.git",
        "git@github.com:nvidia/megatron-lm": "git@github.com:nvidia/megatron-lm.git",
        "https://github.com/deepseek-ai/deepep": "https://github.com/deepseek-ai/DeepEP.git",
        "git://github.com/nvidia/megatron-lm": "git://github.com/NVIDIA/Megatron-LM.git",
        "https://TOKEN@github.com/nvidia/megatron-lm": "https://TOKEN@github.com/NVIDIA/Megatron-LM.git",
        "https://github.com:443/nvidia/megatron-lm": "https://GitHub.com:443/nvidia/megatron-lm/",
    }


def test_pins_that_need_no_lookup_are_left_out() -> None:
    pins = [
        make_pin(FULL_ID),  # clone --branch <id>: RL007 without a lookup
        unresolved(make_pin("$REF"), "REF is not assigned in this file"),
        unresolved(make_pin("$REF"), "REF is assigned only later", Resolution.EMPTY),
        make_pin("v1", url="ext::sh -c id"),
        make_pin("v1", url="--upload-pack=touch"),
    ]
    assert [needs_lookup(pin) for pin in pins] == [False] * len(pins)
    assert remotes_to_look_up([source(PATH, *pins)]) == {}


def test_a_commit_checked_out_from_a_named_clone_needs_the_clone_s_branch_looked_up() -> None:
    pin = make_pin(FULL_ID, via=Via.CHECKOUT, clone_ref="hybrid-ep", clone_ref_span=CLONE_REF_SPAN)
    assert needs_lookup(pin)
    assert not needs_lookup(replace(pin, via=Via.CLONE_BRANCH, clone_ref=None))
    assert needs_lookup(replace(pin, clone_ref=FULL_ID))  # the checked-out id may be a tip: RL008


@pytest.mark.parametrize("via", [Via.CHECKOUT, Via.PIP_VCS, Via.ACTION])
def test_a_full_commit_id_is_looked_up_where_a_tip_can_confirm_it(via: Via) -> None:
    assert needs_lookup(make_pin(FULL_ID, via=via))
    assert needs_lookup(make_pin("3f601f7", via=via))


def test_run_checks_sorts_findings_by_path_line_column_code() -> None:
    megatron = {MEGATRON: refs_of(MEGATRON)}
    late = make_pin("core_r0.10.0", path="a/Dockerfile", span=span(9, 5, 17))
    early = make_pin("core_r0.18.1", path="a/Dockerfile", span=span(2, 5, 17))
    files = [
        source("z/Dockerfile", make_pin("core_r0.18.0", path="z/Dockerfile")),
        source("a/Dockerfile", late, early),
    ]
    found = run_checks(files, by_lookup_key([late, early, files[0].pins[0]], megatron), policy())
    assert [(f.path, f.span.line, f.code) for f in found] == [
        ("a/Dockerfile", 2, "RL001"),
        ("a/Dockerfile", 9, "RL002"),
        ("a/Dockerfile", 9, "RL013"),
        ("z/Dockerfile", 3, "RL002"),
    ]
    assert found == sorted(found, key=Finding.sort_key)


def test_a_pack_severity_replaces_the_rule_s_own() -> None:
    relaxed = policy(severity={"RL002": "info"})
    found = scan([make_pin("core_r0.18.0")], {MEGATRON: refs_of(MEGATRON)}, relaxed, code="RL002")
    assert [f.severity for f in found] == [Severity.INFO]
    lowered_by_context = scan(
        [make_pin("stable")], {MEGATRON: refs_of(MEGATRON)._replace(branches={"stable": "0" * 40})}
    )
    assert [f.severity for f in lowered_by_context] == [Severity.WARNING]
    raised = policy(severity={"RL002": "error"})
    found = scan(
        [make_pin("stable")], {MEGATRON: refs_of(MEGATRON)._replace(branches={"stable": "0" * 40})}, raised
    )
    assert [f.severity for f in found] == [Severity.ERROR]


def test_a_rule_may_not_raise_its_own_severity() -> None:
    context = PinContext(
        pin=make_pin("v1"),
        lookup=None,
        policy=load_policy(),
        remote_pins=(),
        rule=rule_info(rl001_ref_not_found),
    )
    info = context._replace(rule=context.rule._replace(severity=Severity.INFO))
    with pytest.raises(ValueError, match="RL001 may lower its severity, not raise it to warning"):
        info.finding("x", severity=Severity.WARNING)


def test_every_rule_module_is_registered_once() -> None:
    modules = {name for _, name, _ in pkgutil.iter_modules(rules_package.__path__)}
    assert {rule.__name__.rsplit(".", 1)[1] for rule in RULES} == modules
    assert len(RULES) == len(modules)


def test_all_rules_lists_code_name_severity_lookup_and_summary() -> None:
    assert [
        (r.code, r.name, r.severity.label, r.needs_lookup, r.doc.split("\n\n", 1)[0]) for r in all_rules()
    ] == [
        (
            "RL001",
            "ref-not-found",
            "error",
            True,
            "A pinned ref is neither a branch nor a tag of its remote, nor a commit id the pin may name.",
        ),
        (
            "RL002",
            "branch-pin",
            "error",
            True,
            "A pin names a branch, which moves, where a tag would hold still.",
        ),
        (
            "RL003",
            "shallow-clone-needs-history",
            "error",
            False,
            "A shallow clone that the recipe then needs history from.",
        ),
        ("RL004", "variant-drift", "error", False, "Variants of one recipe that pin a remote differently."),
        (
            "RL005",
            "cross-file-drift",
            "warning",
            False,
            "One remote pinned at different refs by files of one stack that are not variants of each other.",
        ),
        (
            "RL006",
            "env-drift",
            "warning",
            False,
            "A workflow that runs an image, or its tests, without the environment the image sets.",
        ),
        ("RL007", "branch-flag-with-commit", "error", False, "`git clone --branch` is given a commit id."),
        (
            "RL008",
            "unverifiable-commit",
            "info",
            True,
            "A pinned commit id that could not be verified against the remote's history.",
        ),
        (
            "RL009",
            "unresolved-ref",
            "info",
            False,
            "A pinned ref or URL that cannot be known without running the build.",
        ),
        (
            "RL010",
            "remote-unreachable",
            "warning",
            True,
            "A remote could not be looked up, so its pins went unchecked.",
        ),
        ("RL011", "unsafe-url", "error", False, "A repository URL that reflint refuses to give to git."),
        (
            "RL012",
            "empty-ref",
            "error",
            False,
            "A pinned ref or URL that expands to nothing where it is used.",
        ),
        (
            "RL013",
            "ambiguous-ref",
            "warning",
            True,
            "A pinned name is both a branch and a tag of the remote.",
        ),
        ("RL014", "repo-not-found", "error", True, "The remote repository does not exist, or is private."),
        (
            "RL015",
            "unpinned-clone",
            "warning",
            False,
            "A clone or pip install of a repository with no ref at all.",
        ),
        (
            "RL016",
            "insecure-transport",
            "warning",
            False,
            "A pin that fetches over plain `http://` or `git://`.",
        ),
        (
            "RL017",
            "local-repository",
            "info",
            False,
            "A pin that fetches a repository from a path on the building machine.",
        ),
        (
            "RL018",
            "option-without-value",
            "error",
            False,
            "An option that takes a value is left without one.",
        ),
        (
            "RL019",
            "checkout-outside-clone",
            "error",
            False,
            "A checkout runs outside the clone it is meant for.",
        ),
        (
            "RL020",
            "checkout-of-fetch-head-only",
            "error",
            False,
            "A checkout names a ref that only FETCH_HEAD holds.",
        ),
        ("RL021", "run-syntax-error", "error", False, "A Dockerfile `RUN` that is not valid shell."),
        (
            "RL022",
            "bash-under-sh",
            "warning",
            False,
            "Bash syntax in a Dockerfile `RUN` that `/bin/sh` runs.",
        ),
        (
            "RL023",
            "version-comment-mismatch",
            "warning",
            True,
            "A commit pin whose version comment names a tag that points elsewhere.",
        ),
        (
            "RL024",
            "newer-release",
            "info",
            True,
            "A pinned release tag has a newer release of the same line on the remote.",
        ),
        (
            "RL025",
            "commit-not-in-history",
            "error",
            True,
            "A pinned commit that no branch or tag of its repository contains: it is not in the history.",
        ),
        (
            "RL026",
            "ambiguous-commit-id",
            "error",
            True,
            "An abbreviated commit id that several commits of the repository's history start with.",
        ),
        (
            "RL027",
            "submodules-not-updated",
            "warning",
            False,
            "A checkout in a `--recursive` clone that no `git submodule update` follows.",
        ),
        ("RL099", "unused-ignore", "info", False, "A `# reflint: ignore` comment that suppresses nothing."),
    ]


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_every_rule_doc_has_the_four_sections_in_order(rule: object) -> None:
    doc: str = rule.doc  # type: ignore[attr-defined]
    headings = re.findall(r"^## (.+)$", doc, flags=re.MULTILINE)
    # A rule with a fix says what it does and whether it is safe, as ruff's "Fix safety" does.
    fix = ["Fix"] if rule.fixes else []  # type: ignore[attr-defined]
    assert headings == ["What it does", "Why is this bad?", "Example", "Use instead", *fix]
    # One line of summary (listed above), a blank line, then the sections.
    summary, _, rest = doc.partition("\n\n")
    assert ("\n" in summary, rest.startswith("## What it does\n")) == (False, True)
    sections = re.split(r"^## .+$", rest, flags=re.MULTILINE)[1:]
    assert [bool(section.strip()) for section in sections] == [True] * len(headings)
    # The example and what to use instead each show a fenced block of code, and differ.
    fenced = re.compile(r"^```\w+\n.+?\n```$", re.MULTILINE | re.DOTALL)
    example, use_instead = sections[2], sections[3]
    assert (bool(fenced.search(example)), bool(fenced.search(use_instead))) == (True, True)
    assert example.strip() != use_instead.strip()
