"""Which existing ref a pin most likely meant."""

from __future__ import annotations

import pytest

from ascend_reflint.check.suggest import (
    nearest_names,
    newest_release_tag,
    same_version_tags,
    suggest_ref,
    wants_default_branch,
    within_edits,
)
from ascend_reflint.model import RemoteRefs

from .helpers import (
    CHECKOUT_ACTION,
    DEEPEP,
    MEGATRON,
    MINDSPEED_GITHUB,
    SGL_KERNEL_NPU,
    TE,
    VLLM_ASCEND,
    refs_of,
)

ID = "0" * 40


def test_same_version_tag_of_a_release_branch_is_its_release_tag() -> None:
    megatron = refs_of(MEGATRON)
    assert same_version_tags("core_r0.18.0", megatron) == ["core_v0.18.0"]
    assert same_version_tags("release_v2.11", refs_of(TE)) == ["v2.11"]
    assert same_version_tags("releases/v0.13.0", refs_of(VLLM_ASCEND)) == ["v0.13.0"]
    assert same_version_tags("releases/v4", refs_of(CHECKOUT_ACTION)) == ["v4"]
    assert same_version_tags("2.3.0_core_r0.12.1", refs_of(MINDSPEED_GITHUB)) == ["v2.3.0_core_r0.12.1"]


def test_same_version_tags_leave_out_the_name_itself() -> None:
    # core_r0.10.0 is a branch and a tag; the other spelling is the answer.
    assert same_version_tags("core_r0.10.0", refs_of(MEGATRON)) == ["core_v0.10.0"]


def test_a_branch_with_no_release_of_its_version_has_no_same_version_tag() -> None:
    assert same_version_tags("v0.11.0-dev", refs_of(VLLM_ASCEND)) == []
    assert same_version_tags("hybrid-ep", refs_of(DEEPEP)) == []


def test_closest_letters_win_among_same_version_tags() -> None:
    refs = RemoteRefs("r", branches={"core_r0.11.0": ID}, tags={"v0.11.0": ID, "core_v0.11.0": ID})
    assert same_version_tags("core_r0.11.0", refs) == ["core_v0.11.0", "v0.11.0"]


def test_version_numbers_matter_more_than_letters() -> None:
    # The remote as RL001 sees it for "core_r0.18.0" when that branch is missing: the answer is the tag of
    # the same version, not branch core_r0.12.0 (one digit away) nor tag core_v0.18.2 (a later version).
    megatron = refs_of(MEGATRON)
    remote = megatron._replace(branches={"core_r0.12.0": megatron.branches["core_r0.12.0"]})
    assert suggest_ref("core_r0.18.0", remote) == "core_v0.18.0"
    without_release_tag = remote._replace(tags={k: v for k, v in remote.tags.items() if k != "core_v0.18.0"})
    assert suggest_ref("core_r0.18.0", without_release_tag) is None


def test_a_missing_prefix_is_found_by_version() -> None:
    assert suggest_ref("v0.18.0", refs_of(MEGATRON)) == "core_v0.18.0"


def test_a_missing_release_candidate_gets_the_release_when_it_exists() -> None:
    assert suggest_ref("v0.11.0rc9", refs_of(VLLM_ASCEND)) == "v0.11.0"


def test_a_missing_release_candidate_gets_the_newest_candidate_before_it_when_no_release() -> None:
    vllm_ascend = refs_of(VLLM_ASCEND)
    unreleased = vllm_ascend._replace(tags={k: v for k, v in vllm_ascend.tags.items() if k != "v0.11.0"})
    assert suggest_ref("v0.11.0rc9", unreleased) == "v0.11.0rc3"


def test_a_missing_release_gets_its_newest_release_candidate() -> None:
    assert suggest_ref("v0.12.0", refs_of(VLLM_ASCEND)) == "v0.12.0rc1"


def test_a_missing_candidate_between_two_gets_the_next_one() -> None:
    refs = RemoteRefs("r", branches={}, tags={"v1.0rc0": ID, "v1.0rc2": ID})
    assert suggest_ref("v1.0rc1", refs) == "v1.0rc2"


def test_another_version_is_never_suggested() -> None:
    megatron = refs_of(MEGATRON)
    assert suggest_ref("core_v0.18.1", megatron) is None
    assert suggest_ref("v0.14.0", refs_of(VLLM_ASCEND)) is None


def test_tags_come_before_branches_of_the_same_release() -> None:
    refs = RemoteRefs("r", branches={"releases/v0.13.0": ID}, tags={"v0.13.0": ID})
    assert suggest_ref("v0.13.0rc9", refs) == "v0.13.0"


def test_a_branch_of_the_same_release_counts_when_its_letters_are_close() -> None:
    refs = RemoteRefs("r", branches={"releases/v0.13.0": ID, "ci/bump-0.13.0": ID}, tags={})
    assert suggest_ref("v0.13.0", refs) == "releases/v0.13.0"


def test_a_bot_branch_that_shares_the_numbers_is_not_a_suggestion() -> None:
    assert suggest_ref("core_r0.20.0", refs_of(MEGATRON)) is None


def test_same_numbers_with_a_close_spelling_are_suggested() -> None:
    refs = RemoteRefs("r", branches={"fp8-upcast-PV": ID, "v0.8.5": ID}, tags={})
    assert suggest_ref("fp8-upcst-PV", refs) == "fp8-upcast-PV"
    assert suggest_ref("v0.8.5-sleep-numa", refs) is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("hybrid_ep", "hybrid-ep"),
        ("Hybrid-EP", "hybrid-ep"),
        ("mian", "main"),
        ("hybrid", "hybrid-ep"),
        ("nccl", None),
    ],
)
def test_a_name_without_digits_gets_the_closest_spelling(name: str, expected: str | None) -> None:
    assert suggest_ref(name, refs_of(DEEPEP)) == expected


def test_a_name_without_digits_is_not_matched_to_a_versioned_name() -> None:
    refs = RemoteRefs("r", branches={"main2": ID}, tags={})
    assert suggest_ref("main", refs) is None


def test_nearest_names_of_a_version_are_the_nearest_numbers() -> None:
    assert nearest_names("core_r0.18.1", refs_of(MEGATRON)) == [
        "core_v0.18.0",
        "core_v0.18.2",
        "core_r0.18.0",
    ]
    # Bot branch ci/bump-0.20.0 has the numbers but not the letters.
    assert nearest_names("core_r0.20.0", refs_of(MEGATRON)) == [
        "core_v0.19.0",
        "core_r0.19.0",
        "core_v0.18.0",
    ]


def test_nearest_names_of_a_word_are_close_spellings() -> None:
    assert nearest_names("hybridep", refs_of(DEEPEP)) == ["hybrid-ep"]
    assert nearest_names("zzz", refs_of(DEEPEP)) == []


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        (MEGATRON, "core_v0.19.0"),  # the core_v line, not the stray v2.6
        (TE, "v2.18"),
        (VLLM_ASCEND, "v0.13.0"),
        (DEEPEP, "v1.2.1"),
        (SGL_KERNEL_NPU, "20251214"),  # one skeleton "#": numbers decide
        (CHECKOUT_ACTION, "v4.3.0"),
    ],
)
def test_newest_release_tag_is_the_newest_of_the_main_release_line(remote: str, expected: str) -> None:
    assert newest_release_tag(refs_of(remote)) == expected


def test_no_release_tag_when_every_tag_is_a_pre_release() -> None:
    assert newest_release_tag(RemoteRefs("r", branches={}, tags={"v1.0rc1": ID})) is None


@pytest.mark.parametrize(
    ("ours", "theirs", "close"),
    [
        ("maser", "master", True),  # one letter dropped
        ("relaese", "release", True),  # two neighbours swapped
        ("maintenance", "maintainance", True),  # two edits, a long name
        ("dev", "deb", False),  # too short: one edit makes another word
        ("main", "master", False),
    ],
)
def test_names_a_letter_or_two_away_are_close(ours: str, theirs: str, close: bool) -> None:
    assert within_edits(ours, theirs) is close


def test_a_default_branch_name_gets_the_remotes_default_branch_once_it_is_known() -> None:
    refs = RemoteRefs("r", branches={"master": ID, "develop": ID}, tags={"v1.0": ID})
    assert (wants_default_branch("main", refs), suggest_ref("main", refs)) == (True, None)
    known = refs._replace(default_branch="master")
    assert suggest_ref("main", known) == "master"
    assert suggest_ref("trunk", known) == "master"
    # Not for a name that is no default branch's, nor when HEAD names no branch, nor for a close spelling.
    assert (wants_default_branch("feature-x", refs), suggest_ref("feature-x", known)) == (False, None)
    assert suggest_ref("main", refs._replace(default_branch="")) is None
    assert (wants_default_branch("devel", refs), suggest_ref("devel", known)) == (False, "develop")


def test_a_counter_of_another_numbering_is_not_the_version() -> None:
    refs = RemoteRefs("r", branches={}, tags={"t00000001": ID, "1.0": ID, "core_v1.0": ID, "cuda12.1": ID})
    suggested = [suggest_ref(name, refs) for name in ("v1", "t1", "v12.1")]
    assert suggested == ["1.0", None, None]
    assert same_version_tags("r1.0", refs) == ["1.0", "core_v1.0"]
