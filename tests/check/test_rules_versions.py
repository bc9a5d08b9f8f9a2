"""RL023 (a version comment that names another commit's tag) and RL024 (a newer release of the pinned
one), over ref lists written out here: each case needs a few tags in a particular shape."""

from __future__ import annotations

import pytest

from ascend_reflint.model import Applicability, Edit, Fix, RemoteRefs, Severity, Span, Via

from .helpers import PATH, REF_SPAN, make_pin, policy, scan

MEGATRON = "github.com/nvidia/megatron-lm"
CHECKOUT = "github.com/actions/checkout"
CHECKOUT_URL = "https://github.com/actions/checkout"


def commit(n: int) -> str:
    return f"{n:040x}"


MEGATRON_REFS = RemoteRefs(
    remote=MEGATRON,
    branches={"main": commit(1), "core_r0.18.0": commit(2), "core_v0.18.9": commit(3)},
    tags={
        "core_v0.18.0": commit(10),
        "core_v0.18.2": commit(12),
        "core_v0.18.3rc1": commit(13),  # a pre-release is never offered
        "v0.18.5": commit(15),  # another naming scheme
        "core_v0.19.0": commit(20),
        "core_v1.0.0": commit(30),
        "core_v0.18.9": commit(39),  # also a branch: not a release to move to
    },
)
ALIASES = RemoteRefs(
    remote=CHECKOUT,
    branches={"main": commit(1)},
    tags={
        "v2.5": commit(50),
        "v2.5.0": commit(50),
        "v2.5.1": commit(51),
        "v5": commit(60),
        "v5.0.0": commit(59),
        "v5.1.0": commit(60),
    },
)


def rl024(ref: str, refs: RemoteRefs, level: str | None = None, **fields: object) -> list[tuple[str, str]]:
    pins = [make_pin(ref, url=f"https://{refs.remote}.git", **fields)]
    settings = policy(newer_release=level) if level else policy()
    return [(f.message, f.suggestion or "") for f in scan(pins, {refs.remote: refs}, settings, "RL024")]


@pytest.mark.parametrize(
    ("level", "newest"),
    [(None, "core_v0.18.2"), ("patch", "core_v0.18.2"), ("minor", "core_v0.19.0"), ("major", "core_v1.0.0")],
)
def test_rl024_offers_the_newest_release_of_the_pinned_line_as_far_as_newer_release_says(
    level: str | None, newest: str
) -> None:
    assert rl024("core_v0.18.0", MEGATRON_REFS, level) == [
        (f'a newer release of "core_v0.18.0" exists on {MEGATRON}: "{newest}"', newest)
    ]


def test_rl024_is_off_when_configured_and_quiet_for_the_newest_a_pre_release_or_a_branch() -> None:
    assert rl024("core_v0.18.0", MEGATRON_REFS, "off") == []
    assert rl024("core_v0.18.2", MEGATRON_REFS) == []  # core_v0.18.3rc1 is a pre-release
    assert rl024("core_v0.18.3rc1", MEGATRON_REFS) == []
    assert rl024("core_r0.18.0", MEGATRON_REFS) == []  # RL002's business
    assert rl024("v0.18.5", MEGATRON_REFS, "major") == []  # alone in its naming scheme


def test_rl024_reports_a_short_alias_only_when_it_lags_behind_the_newest_release_it_stands_for() -> None:
    assert rl024("v2.5", ALIASES) == [
        (
            f'"v2.5" stands for the newest v2.5 release of {CHECKOUT}, "v2.5.1", but points at another '
            f"commit ({commit(50)[:12]}, not {commit(51)[:12]})",
            "v2.5.1",
        )
    ]
    assert rl024("v5", ALIASES) == []  # at v5.1.0, its newest release


def test_rl024_fix_moves_to_the_newer_release_where_the_ref_is_written_and_is_unsafe() -> None:
    (finding,) = scan([make_pin("core_v0.18.0")], {MEGATRON: MEGATRON_REFS}, policy(), "RL024")
    assert (finding.severity, finding.span) == (Severity.INFO, REF_SPAN)
    assert finding.fix == Fix(
        Applicability.UNSAFE,
        'move to "core_v0.18.2"',
        (Edit(PATH, REF_SPAN, "core_v0.18.2", expected="core_v0.18.0"),),
    )


COMMENT_SPAN = Span(3, 70, 3, 76)


def rl023(version: str, pinned: str) -> list[tuple[str, str | None, Fix | None]]:
    pin = make_pin(
        pinned,
        url=CHECKOUT_URL,
        via=Via.ACTION,
        version_comment=version,
        version_comment_span=COMMENT_SPAN,
    )
    return [(f.message, f.suggestion, f.fix) for f in scan([pin], {CHECKOUT: ALIASES}, policy(), "RL023")]


def test_rl023_corrects_a_comment_whose_tag_points_elsewhere_to_the_tag_at_the_pinned_commit() -> None:
    assert rl023("v2.5.0", commit(51)) == [
        (
            f'the comment says the pinned commit {commit(51)[:12]} is "v2.5.0", but that tag points at '
            f'{commit(50)[:12]}; the pinned commit is tag "v2.5.1"',
            "v2.5.1",
            Fix(
                Applicability.SAFE,
                'correct the comment to "v2.5.1"',
                (Edit(PATH, COMMENT_SPAN, "v2.5.1", expected="v2.5.0"),),
            ),
        )
    ]


def test_rl023_names_a_tag_the_remote_lacks_and_has_no_fix_when_no_tag_is_at_the_commit() -> None:
    assert rl023("v9.9.9", commit(77)) == [
        (
            f'the comment says the pinned commit {commit(77)[:12]} is "v9.9.9", which is not a tag of '
            f"{CHECKOUT}; no tag points at the pinned commit: pin the commit of the tag meant, or correct "
            "the comment",
            None,
            None,
        )
    ]


def test_rl023_leaves_a_true_comment_and_a_branch_name_alone() -> None:
    assert rl023("v5", commit(60)) == []
    assert rl023("v5.1.0", commit(60)) == []
    assert rl023("main", commit(77)) == []  # a branch moves: no version to hold the commit to
