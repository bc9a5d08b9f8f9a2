"""RL001, RL002, RL007, RL008 and RL013: pinned refs against the remote's branches and tags."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace
from pathlib import Path

from ascend_reflint.check import load_policy
from ascend_reflint.model import (
    CommitState,
    CommitVerdict,
    FailureKind,
    Finding,
    LookupFailure,
    RemoteRefs,
    Severity,
    Span,
    Via,
)

from .helpers import (
    CHECKOUT_ACTION,
    CLONE_REF_SPAN,
    DEEPEP,
    MEGATRON,
    MINDSPEED_GITHUB,
    PATH,
    REF_SPAN,
    SGL_KERNEL_NPU,
    TE,
    VERL,
    VLLM_ASCEND,
    make_pin,
    policy,
    refs_of,
    scan,
)

DEEPEP_URL = "https://github.com/deepseek-ai/DeepEP.git"
VLLM_ASCEND_URL = "https://github.com/vllm-project/vllm-ascend.git"
TE_URL = "https://github.com/NVIDIA/TransformerEngine.git"
SGL_URL = "https://github.com/sgl-project/sgl-kernel-npu.git"
ACTION_URL = "https://github.com/actions/checkout"
MINDSPEED = "gitcode.com/ascend/mindspeed"
MINDSPEED_URL = "https://gitcode.com/Ascend/MindSpeed.git"
DEEPEP_COMMIT = "3f601f7ac1c062c46502646ff04c535013bfca00"  # verl's DeepEP pin; not a branch or tag tip


def expected(
    code: str,
    rule: str,
    severity: Severity,
    message: str,
    *,
    remote: str = MEGATRON,
    ref: str | None,
    suggestion: str | None = None,
    span: Span = REF_SPAN,
) -> Finding:
    return Finding(code, rule, severity, PATH, span, message, remote=remote, ref=ref, suggestion=suggestion)


def lookups(*remotes: str) -> dict[str, RemoteRefs]:
    return {remote: refs_of(remote) for remote in remotes}


MINDSPEED_LOOKUP = {MINDSPEED: refs_of(MINDSPEED_GITHUB, as_remote=MINDSPEED)}  # the GitHub mirror stands in


# RL001 ref-not-found


def test_rl001_a_missing_ref_names_the_nearest_refs_and_counts() -> None:
    assert scan([make_pin("core_r0.18.1")], lookups(MEGATRON), code="RL001") == [
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            'ref "core_r0.18.1" is neither a branch nor a tag of github.com/nvidia/megatron-lm, so '
            "`git clone --branch` fails; no ref names that version; the most similar of its 8 branches and "
            '10 tags are "core_v0.18.0", "core_v0.18.2", "core_r0.18.0"',
            ref="core_r0.18.1",
        )
    ]


def test_rl001_suggests_the_release_of_a_missing_release_candidate() -> None:
    pin = make_pin("v0.11.0rc9", url=VLLM_ASCEND_URL)
    assert scan([pin], lookups(VLLM_ASCEND), code="RL001") == [
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            'ref "v0.11.0rc9" is neither a branch nor a tag of github.com/vllm-project/vllm-ascend, so '
            '`git clone --branch` fails; the closest of its 3 branches and 8 tags is tag "v0.11.0"',
            remote=VLLM_ASCEND,
            ref="v0.11.0rc9",
            suggestion="v0.11.0",
        )
    ]


def test_rl001_suggests_a_close_branch_spelling_for_checkout_and_pip() -> None:
    checkout = make_pin("hybrid_ep", url=DEEPEP_URL, via=Via.CHECKOUT)
    pip = replace(checkout, via=Via.PIP_VCS)
    message = (
        'ref "hybrid_ep" is neither a branch nor a tag of github.com/deepseek-ai/deepep, so {} fails; '
        'the closest of its 2 branches and 1 tag is branch "hybrid-ep"'
    )
    assert scan([checkout], lookups(DEEPEP), code="RL001") == [
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            message.format("`git checkout`"),
            remote=DEEPEP,
            ref="hybrid_ep",
            suggestion="hybrid-ep",
        )
    ]
    assert [f.message for f in scan([pip], lookups(DEEPEP), code="RL001")] == [message.format("pip")]


def test_rl001_checks_the_branch_of_a_clone_that_a_checkout_follows() -> None:
    pin = make_pin(
        DEEPEP_COMMIT, url=DEEPEP_URL, via=Via.CHECKOUT, clone_ref="hybrid-epp", clone_ref_span=CLONE_REF_SPAN
    )
    assert scan([pin], lookups(DEEPEP), code="RL001") == [
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            'ref "hybrid-epp" is neither a branch nor a tag of github.com/deepseek-ai/deepep, so '
            '`git clone --branch` fails; the closest of its 2 branches and 1 tag is branch "hybrid-ep"',
            remote=DEEPEP,
            ref="hybrid-epp",
            suggestion="hybrid-ep",
            span=CLONE_REF_SPAN,
        )
    ]


def test_rl001_reads_refs_prefixes_as_git_does() -> None:
    missing_branch = make_pin("origin/core_v0.18.0", via=Via.CHECKOUT)
    assert scan([missing_branch], lookups(MEGATRON), code="RL001") == [
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            'ref "origin/core_v0.18.0" names branch "core_v0.18.0", which github.com/nvidia/megatron-lm does '
            'not have, so `git checkout` fails: "core_v0.18.0" is a tag there',
            ref="origin/core_v0.18.0",
            suggestion="core_v0.18.0",
        )
    ]
    missing_tag = make_pin("refs/tags/core_r0.18.1", via=Via.PIP_VCS)
    assert [(f.message, f.suggestion) for f in scan([missing_tag], lookups(MEGATRON), code="RL001")] == [
        (
            'ref "refs/tags/core_r0.18.1" names tag "core_r0.18.1", which github.com/nvidia/megatron-lm does '
            "not have, so pip fails; no ref names that version; the most similar of its 8 branches and 10 "
            'tags are "core_v0.18.0", "core_v0.18.2", "core_r0.18.0"',
            None,
        )
    ]
    present = [
        make_pin("origin/main", via=Via.CHECKOUT),
        make_pin("tags/core_v0.18.0", via=Via.CHECKOUT),
        make_pin("refs/tags/core_v0.18.0", via=Via.PIP_VCS),
        make_pin("HEAD~1", via=Via.CHECKOUT),
        make_pin("FETCH_HEAD", via=Via.CHECKOUT),
        make_pin("refs/pull/1/head", via=Via.PIP_VCS),
    ]
    assert scan(present, lookups(MEGATRON), code="RL001") == []


def test_rl001_a_short_commit_id_in_uses_is_an_error_with_the_full_id() -> None:
    tip = make_pin("11bd719", url=ACTION_URL, via=Via.ACTION)
    elsewhere = make_pin("abcdef1", url=ACTION_URL, via=Via.ACTION)
    assert scan([tip, elsewhere], lookups(CHECKOUT_ACTION), code="RL001") == [
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            '"11bd719" is not a branch or tag of github.com/actions/checkout, and GitHub Actions takes only '
            "full 40-character commit ids, so the workflow fails: write "
            '"11bd71901bbe5b1630ceea73d27597364c9af683" '
            '(the tip of tag "v4.2.2")',
            remote=CHECKOUT_ACTION,
            ref="11bd719",
            suggestion="11bd71901bbe5b1630ceea73d27597364c9af683",
        ),
        expected(
            "RL001",
            "ref-not-found",
            Severity.ERROR,
            '"abcdef1" is not a branch or tag of github.com/actions/checkout, and GitHub Actions takes only '
            "full 40-character commit ids, so the workflow fails: write the commit's full id",
            remote=CHECKOUT_ACTION,
            ref="abcdef1",
        ),
    ]


def test_rl001_passes_existing_refs_and_commit_ids() -> None:
    pins = [
        make_pin("core_v0.18.0"),
        make_pin("core_r0.18.0", via=Via.CHECKOUT),
        make_pin("d98e8a64", via=Via.CHECKOUT),  # a commit: RL008's business
        make_pin("d98e8a64ddf34856e74b24714e3bedb2f5a39553", via=Via.PIP_VCS),
        make_pin("d98e8a6", via=Via.CLONE_BRANCH),  # RL007's business
        make_pin("20251214", url=SGL_URL),  # all hex digits, yet a real tag
    ]
    assert scan(pins, lookups(MEGATRON, SGL_KERNEL_NPU), code="RL001") == []


def test_rl001_says_nothing_without_a_lookup() -> None:
    assert scan([make_pin("core_r0.18.1")], {}, code="RL001") == []


# RL002 branch-pin


def test_rl002_a_release_branch_with_a_release_tag_is_an_error_that_suggests_the_tag() -> None:
    assert scan([make_pin("core_r0.18.0")], lookups(MEGATRON), policy(), code="RL002") == [
        expected(
            "RL002",
            "branch-pin",
            Severity.ERROR,
            'ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a commit '
            'lands on it: pin its release tag "core_v0.18.0"',
            ref="core_r0.18.0",
            suggestion="core_v0.18.0",
        )
    ]


def test_rl002_transformer_engine_release_branch_gets_its_tag() -> None:
    pin = make_pin("release_v2.11", url=TE_URL, via=Via.PIP_VCS)
    found = scan([pin], lookups(TE), policy(), code="RL002")
    assert [(f.severity, f.suggestion) for f in found] == [(Severity.ERROR, "v2.11")]


def test_rl002_a_branch_of_a_tag_pinned_remote_is_an_error_that_names_the_newest_release() -> None:
    pin = make_pin("hybrid-ep", url=DEEPEP_URL)
    assert scan([pin], lookups(DEEPEP), policy(tag_pinned_remotes=(DEEPEP,)), code="RL002") == [
        expected(
            "RL002",
            "branch-pin",
            Severity.ERROR,
            'ref "hybrid-ep" is a branch of github.com/deepseek-ai/deepep, which moves whenever a commit '
            "lands "
            'on it, and github.com/deepseek-ai/deepep releases by tag: pin a release tag (newest: "v1.2.1") '
            "or a commit id",
            remote=DEEPEP,
            ref="hybrid-ep",
        )
    ]


def test_rl002_any_other_branch_is_a_warning() -> None:
    pin = make_pin("stable", url=TE_URL, via=Via.PIP_VCS)
    assert scan([pin], lookups(TE), policy(), code="RL002") == [
        expected(
            "RL002",
            "branch-pin",
            Severity.WARNING,
            'ref "stable" is a branch of github.com/nvidia/transformerengine, which moves whenever a commit '
            'lands on it: pin a release tag (newest: "v2.18") or a commit id',
            remote=TE,
            ref="stable",
        )
    ]


def test_rl002_a_remote_without_release_tags_is_told_to_pin_a_commit() -> None:
    bare = RemoteRefs("github.com/a/b", branches={"dev": "0" * 40}, tags={"v1.0rc1": "1" * 40})
    pin = make_pin("dev", url="https://github.com/a/b")
    assert [f.message for f in scan([pin], {"github.com/a/b": bare}, code="RL002")] == [
        'ref "dev" is a branch of github.com/a/b, which moves whenever a commit lands on it: pin a commit id'
    ]


def test_rl002_an_action_on_a_branch_is_at_most_a_warning() -> None:
    main = make_pin("main", url=ACTION_URL, via=Via.ACTION)
    release_branch = make_pin("releases/v4", url=ACTION_URL, via=Via.ACTION)
    strict = policy(tag_pinned_remotes=(CHECKOUT_ACTION,))
    found = scan([main, release_branch], lookups(CHECKOUT_ACTION), strict, code="RL002")
    assert [(f.ref, f.severity, f.suggestion) for f in found] == [
        ("main", Severity.WARNING, None),
        ("releases/v4", Severity.WARNING, "v4"),
    ]
    assert found[0].message == (
        'ref "main" is a branch of github.com/actions/checkout, which moves whenever a commit lands on it, '
        "and "
        'github.com/actions/checkout releases by tag: pin a release tag (newest: "v4.3.0") or a commit id'
    )


def test_rl002_not_for_branch_release_or_head_tracking_remotes() -> None:
    default = load_policy()
    mindspeed = make_pin("core_r0.18.0", url=MINDSPEED_URL)
    verl = make_pin("main", url="https://github.com/volcengine/verl.git")
    assert scan([mindspeed], MINDSPEED_LOOKUP, default, code="RL002") == []
    assert scan([verl], lookups(VERL), policy(head_tracking_remotes=(VERL,)), code="RL002") == []
    # Without the pack, the same pins are branch pins.
    assert [f.code for f in scan([mindspeed], MINDSPEED_LOOKUP, policy(), code="RL002")] == ["RL002"]
    assert [f.code for f in scan([verl], lookups(VERL), policy(), code="RL002")] == ["RL002"]


def test_rl002_who_gets_the_branch_when_a_tag_shares_its_name() -> None:
    # core_r0.11.0 is a branch and a tag: clone --branch and pip take the branch, checkout the tag.
    pins = [
        make_pin("core_r0.11.0", via=Via.CLONE_BRANCH),
        make_pin("core_r0.11.0", via=Via.PIP_VCS),
        make_pin("core_r0.11.0", via=Via.CHECKOUT),
        make_pin("origin/core_r0.11.0", via=Via.CHECKOUT),
        make_pin("refs/tags/core_r0.11.0", via=Via.PIP_VCS),
    ]
    found = scan(pins, lookups(MEGATRON), policy(), code="RL002")
    assert [(f.ref, f.severity, f.suggestion) for f in found] == [
        ("core_r0.11.0", Severity.ERROR, "core_v0.11.0"),
        ("core_r0.11.0", Severity.ERROR, "core_v0.11.0"),
        ("origin/core_r0.11.0", Severity.ERROR, "core_v0.11.0"),  # written as a branch: no ambiguity
    ]
    head = (
        'ref "core_r0.11.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a commit '
        "lands on it; "
    )
    assert [f.message for f in found[:2]] == [
        f'{head}`git clone --branch` takes the branch although a tag has the same name: pin "core_v0.11.0", '
        "which names only a tag",
        f'{head}pip takes the branch although a tag has the same name: pin "core_v0.11.0", which names '
        "only a tag",
    ]


def test_rl002_on_a_name_shared_with_a_tag_suggests_the_tag_rl013_suggests_too() -> None:
    # Both rules see the token; `reflint scan` keeps RL002 only (check/overlaps.py, tested through the CLI).
    found = scan([make_pin("core_r0.10.0")], lookups(MEGATRON), policy())
    assert [(f.code, f.severity, f.span, f.suggestion) for f in found] == [
        ("RL002", Severity.ERROR, REF_SPAN, "core_v0.10.0"),
        ("RL013", Severity.WARNING, REF_SPAN, "core_v0.10.0"),
    ]


def test_rl002_passes_tags_and_commits() -> None:
    pins = [make_pin("core_v0.18.0"), make_pin("d98e8a64ddf34856e74b24714e3bedb2f5a39553", via=Via.CHECKOUT)]
    assert scan(pins, lookups(MEGATRON), load_policy(), code="RL002") == []


# RL007 branch-flag-with-commit


def test_rl007_a_full_commit_id_after_branch_fails_without_a_lookup() -> None:
    shallow = make_pin(DEEPEP_COMMIT, url=DEEPEP_URL, shallow=True, depth=1)
    assert scan([shallow], {}, code="RL007") == [
        expected(
            "RL007",
            "branch-flag-with-commit",
            Severity.ERROR,
            f'`git clone --branch` takes a branch or a tag, never a commit id such as "{DEEPEP_COMMIT}", so '
            "the "
            f"clone fails: clone without --branch and --depth, then `git checkout {DEEPEP_COMMIT}`",
            remote=DEEPEP,
            ref=DEEPEP_COMMIT,
        )
    ]
    full_clone = replace(shallow, shallow=False, depth=None)
    assert [f.message for f in scan([full_clone], {}, code="RL007")] == [
        f'`git clone --branch` takes a branch or a tag, never a commit id such as "{DEEPEP_COMMIT}", so the '
        f"clone fails: clone without --branch, then `git checkout {DEEPEP_COMMIT}`"
    ]


def test_rl007_an_abbreviated_id_that_is_a_tag_tip_suggests_the_tag() -> None:
    pin = make_pin("46b73de", url=SGL_URL)  # verl's sgl-kernel-npu pin: the tip of tag 2026.01.21
    assert scan([pin], lookups(SGL_KERNEL_NPU), code="RL007") == [
        expected(
            "RL007",
            "branch-flag-with-commit",
            Severity.ERROR,
            '`git clone --branch` takes a branch or a tag, never a commit id such as "46b73de", so the clone '
            'fails: it is the tip of tag "2026.01.21" of github.com/sgl-project/sgl-kernel-npu; pass that '
            "instead",
            remote=SGL_KERNEL_NPU,
            ref="46b73de",
            suggestion="2026.01.21",
        )
    ]


def test_rl007_checks_the_branch_of_a_clone_that_a_checkout_follows() -> None:
    pin = make_pin(
        "main", url=DEEPEP_URL, via=Via.CHECKOUT, clone_ref=DEEPEP_COMMIT, clone_ref_span=CLONE_REF_SPAN
    )
    found = scan([pin], {}, code="RL007")
    assert [(f.span, f.ref) for f in found] == [(CLONE_REF_SPAN, DEEPEP_COMMIT)]


def test_rl007_passes_hex_named_tags_and_unknown_abbreviations() -> None:
    date_tag = make_pin("20251214", url=SGL_URL)
    assert scan([date_tag], lookups(SGL_KERNEL_NPU), code="RL007") == []
    assert scan([make_pin("3f601f7", url=DEEPEP_URL)], {}, code="RL007") == []  # without a lookup: unknown
    assert scan([make_pin(DEEPEP_COMMIT, url=DEEPEP_URL, via=Via.CHECKOUT)], {}, code="RL007") == []


def test_rl007_an_abbreviation_the_remote_does_not_have_is_a_commit() -> None:
    found = scan([make_pin("3f601f7", url=DEEPEP_URL)], lookups(DEEPEP), code="RL007")
    assert [(f.ref, f.suggestion) for f in found] == [("3f601f7", None)]


# RL008 unverifiable-commit


def test_rl008_a_commit_whose_verification_could_not_run_says_why() -> None:
    pin = make_pin("f2b0977e", url=MINDSPEED_URL, via=Via.CHECKOUT)  # verl's MindSpeed pin
    reason = "offline, and its history is not in the cache"
    verdict = CommitVerdict(MINDSPEED, "f2b0977e", CommitState.UNVERIFIED, detail=reason)
    assert scan([pin], MINDSPEED_LOOKUP, code="RL008", commits=[verdict]) == [
        expected(
            "RL008",
            "unverifiable-commit",
            Severity.INFO,
            'commit "f2b0977e" of gitcode.com/ascend/mindspeed could not be verified against its history: '
            "offline, and its history is not in the cache",
            remote=MINDSPEED,
            ref="f2b0977e",
        )
    ]


def test_rl008_nothing_for_a_verified_commit_or_one_never_verified() -> None:
    pin = make_pin("f2b0977e", url=MINDSPEED_URL, via=Via.CHECKOUT)
    in_history = CommitVerdict(MINDSPEED, "f2b0977e", CommitState.IN_HISTORY, commit="f2b0977e" + "0" * 32)
    assert scan([pin], MINDSPEED_LOOKUP, code="RL008", commits=[in_history]) == []
    assert scan([pin], MINDSPEED_LOOKUP, code="RL008") == []


def test_rl008_a_commit_at_a_branch_or_peeled_tag_tip_is_confirmed() -> None:
    pins = [
        make_pin("d98e8a64ddf34856e74b24714e3bedb2f5a39553", via=Via.CHECKOUT),  # branch main
        make_pin(
            "7c00175e6b24b3cd835d21a9d287c35a07e275b3", via=Via.PIP_VCS
        ),  # annotated tag core_r0.11.0, peeled
        make_pin("D98E8A6", via=Via.CHECKOUT),  # abbreviated, any case
    ]
    assert scan(pins, lookups(MEGATRON), code="RL008") == []


def test_rl008_not_for_refs_clone_branch_or_short_action_ids() -> None:
    pins = [
        make_pin("20251214", url=SGL_URL, via=Via.CHECKOUT),  # a tag, not a commit
        make_pin("3f601f7", url=DEEPEP_URL),  # clone --branch: RL007
        make_pin("3f601f7", url=DEEPEP_URL, via=Via.ACTION),  # uses: RL001
        make_pin("refs/tags/3f601f7", url=DEEPEP_URL, via=Via.PIP_VCS),
    ]
    assert scan(pins, lookups(SGL_KERNEL_NPU, DEEPEP), code="RL008") == []


def test_rl008_not_when_the_lookup_failed() -> None:
    pin = make_pin(DEEPEP_COMMIT, url=DEEPEP_URL, via=Via.CHECKOUT)
    said_by = [
        (FailureKind.NOT_FOUND, "RL014"),
        (FailureKind.NOT_FOUND_OR_PRIVATE, "RL014"),
        (FailureKind.UNREACHABLE, "RL010"),
    ]
    for kind, code in said_by:
        assert [f.code for f in scan([pin], {DEEPEP: LookupFailure(DEEPEP, kind)})] == [code]


# RL013 ambiguous-ref


def test_rl013_a_name_that_is_both_branch_and_tag_suggests_the_unambiguous_tag() -> None:
    assert scan([make_pin("core_r0.10.0")], lookups(MEGATRON), code="RL013") == [
        expected(
            "RL013",
            "ambiguous-ref",
            Severity.WARNING,
            '"core_r0.10.0" is both a branch and a tag of github.com/nvidia/megatron-lm: `git clone '
            "--branch` "
            "takes the branch, while `git checkout` takes the tag (today they point at the same commit); pin "
            '"core_v0.10.0", which names only a tag',
            ref="core_r0.10.0",
            suggestion="core_v0.10.0",
        )
    ]


def test_rl013_says_what_each_way_of_pinning_takes() -> None:
    pins = [make_pin("core_r0.11.0", via=via) for via in (Via.CHECKOUT, Via.PIP_VCS, Via.ACTION)]
    assert [f.message for f in scan(pins, lookups(MEGATRON), code="RL013")] == [
        '"core_r0.11.0" is both a branch and a tag of github.com/nvidia/megatron-lm: after a clone, `git '
        "checkout` and `git reset` take the tag and `git switch` refuses it (a branch is expected, got tag), "
        "while `git clone --branch` and pip take the branch (today they point at different commits); pin "
        '"core_v0.11.0", which names only a tag',
        '"core_r0.11.0" is both a branch and a tag of github.com/nvidia/megatron-lm: pip takes the branch, '
        "while `git checkout` takes the tag (today they point at different commits); pin "
        '"core_v0.11.0", which names only a tag',
        '"core_r0.11.0" is both a branch and a tag of github.com/nvidia/megatron-lm: GitHub Actions takes '
        "the "
        "tag, while `git clone --branch` and pip take the branch (today they point at different commits); "
        "pin "
        '"core_v0.11.0", which names only a tag',
    ]


def test_rl013_without_another_spelling_advises_a_commit() -> None:
    both = RemoteRefs("github.com/a/b", branches={"nightly": "0" * 40}, tags={"nightly": "1" * 40})
    found = scan([make_pin("nightly", url="https://github.com/a/b")], {"github.com/a/b": both}, code="RL013")
    assert [(f.message, f.suggestion) for f in found] == [
        (
            '"nightly" is both a branch and a tag of github.com/a/b: `git clone --branch` takes the branch, '
            "while `git checkout` takes the tag (today they point at different commits); pin a commit id or "
            "a "
            "name that is only a tag",
            None,
        )
    ]


def test_rl013_passes_explicit_forms_and_plain_names() -> None:
    pins = [
        make_pin("tags/core_r0.10.0", via=Via.CHECKOUT),
        make_pin("refs/heads/core_r0.10.0", via=Via.PIP_VCS),
        make_pin("core_r0.18.0"),
        make_pin("core_v0.18.0"),
    ]
    assert scan(pins, lookups(MEGATRON), code="RL013") == []


def test_rl013_checkout_wording_holds_for_checkout_switch_and_reset(tmp_path: Path) -> None:
    """What RL013 says of a checkout pin, tried with git on a remote whose "core_r1" is a branch and a tag."""
    isolation = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    env = {**os.environ, **isolation}
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]

    def git(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        command = ["git", *identity, *args]
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=30)

    upstream = tmp_path / "up"
    upstream.mkdir()
    git("init", "-q", "-b", "main", cwd=upstream)
    git("commit", "-q", "--allow-empty", "-m", "tagged", cwd=upstream)
    git("tag", "core_r1", cwd=upstream)
    git("commit", "-q", "--allow-empty", "-m", "branch tip", cwd=upstream)
    git("branch", "core_r1", cwd=upstream)
    tag = git("rev-parse", "core_r1^{commit}", cwd=upstream).stdout.strip()
    git("clone", "-q", "--", str(upstream), "clone", cwd=tmp_path)
    clone = tmp_path / "clone"

    switch = git("switch", "core_r1", cwd=clone)
    refused = (128, "fatal: a branch is expected, got tag 'core_r1'")
    assert (switch.returncode, switch.stderr.splitlines()[0]) == refused
    assert git("checkout", "-q", "core_r1", cwd=clone).returncode == 0
    assert git("rev-parse", "HEAD", cwd=clone).stdout.strip() == tag
    git("checkout", "-q", "main", cwd=clone)
    assert git("reset", "-q", "--hard", "core_r1", cwd=clone).returncode == 0
    assert git("rev-parse", "HEAD", cwd=clone).stdout.strip() == tag
