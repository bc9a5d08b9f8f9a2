"""RL001 (absent commit), RL025 and RL026: the findings that commit verification's verdicts make, per way of
pinning. The verdicts themselves are tested against real histories in ``tests/cli/test_scan_commits.py``."""

from __future__ import annotations

from ascend_reflint.model import CommitState, CommitVerdict, Via

from .helpers import DEEPEP, make_pin, refs_of, scan

DEEPEP_URL = "https://github.com/deepseek-ai/DeepEP.git"
COMMIT = "3f601f7ac1c062c46502646ff04c535013bfca00"  # verl's DeepEP pin; not a branch or tag tip
LOOKUPS = {DEEPEP: refs_of(DEEPEP)}
NO_REF = "no branch or tag of it contains the commit, and the server does not have it"


def messages(code: str, ref: str, via: Via, verdict: CommitVerdict) -> list[str]:
    found = scan([make_pin(ref, url=DEEPEP_URL, via=via)], LOOKUPS, code=code, commits=[verdict])
    return [finding.message for finding in found]


def test_rl001_an_absent_commit_says_what_fails() -> None:
    verdict = CommitVerdict(DEEPEP, COMMIT, CommitState.ABSENT, detail=NO_REF)
    head = f'commit "{COMMIT}" is not in {DEEPEP}: {NO_REF}, so '
    assert messages("RL001", COMMIT, Via.CHECKOUT, verdict) == [head + "`git checkout` fails"]
    assert messages("RL001", COMMIT, Via.PIP_VCS, verdict) == [head + "pip fails"]
    assert messages("RL001", COMMIT, Via.ACTION, verdict) == [head + "the workflow fails"]


def test_rl001_an_absent_abbreviated_id_keeps_the_case_written() -> None:
    detail = "no commit of its branches and tags starts with it"
    verdict = CommitVerdict(DEEPEP, "3f601f7", CommitState.ABSENT, detail=detail)
    assert messages("RL001", "3F601F7", Via.PIP_VCS, verdict) == [
        f'commit "3F601F7" is not in {DEEPEP}: {detail}, so pip fails'
    ]


def test_rl001_no_finding_for_commits_in_the_history_or_not_verified() -> None:
    for state in (CommitState.IN_HISTORY, CommitState.UNVERIFIED, CommitState.NOT_IN_HISTORY):
        assert messages("RL001", COMMIT, Via.CHECKOUT, CommitVerdict(DEEPEP, COMMIT, state)) == []


def test_rl025_says_what_each_way_of_pinning_does_with_a_commit_outside_the_history() -> None:
    verdict = CommitVerdict(
        DEEPEP, COMMIT, CommitState.NOT_IN_HISTORY, commit=COMMIT, describe="v1.1.0-3-g3f601f7"
    )
    head = (
        f'commit "{COMMIT}" is not in the history of {DEEPEP}: no branch or tag contains it, though the '
        "server hands it out by id (it descends from v1.1.0-3-g3f601f7); "
    )
    tail = "; pin a commit that one of its branches or tags contains"
    assert messages("RL025", COMMIT, Via.CHECKOUT, verdict) == [
        head
        + "a clone does not fetch it, so `git checkout` fails (unless the recipe fetches it by id)"
        + tail
    ]
    assert messages("RL025", COMMIT, Via.PIP_VCS, verdict) == [
        head + "pip fetches it by id, so the build runs code the repository never had" + tail
    ]
    assert messages("RL025", COMMIT, Via.ACTION, verdict) == [
        head + "GitHub runs it anyway: code the repository never had (a fork's commit, served through this "
        "URL, or one a force-push left)" + tail
    ]


def test_rl025_without_a_tag_below_the_commit() -> None:
    verdict = CommitVerdict(DEEPEP, COMMIT, CommitState.NOT_IN_HISTORY, commit=COMMIT)
    assert messages("RL025", COMMIT, Via.PIP_VCS, verdict) == [
        f'commit "{COMMIT}" is not in the history of {DEEPEP}: no branch or tag contains it, though the '
        "server hands it out by id; pip fetches it by id, so the build runs code the repository never had; "
        "pin a commit that one of its branches or tags contains"
    ]


def test_rl026_lists_the_commits_an_abbreviated_id_starts() -> None:
    verdict = CommitVerdict(
        DEEPEP,
        "3f601f7",
        CommitState.AMBIGUOUS,
        candidates=((COMMIT, "v1.1.0-3-g3f601f7a"), ("3f601f7b" + "0" * 32, None)),
    )
    assert messages("RL026", "3f601f7", Via.PIP_VCS, verdict) == [
        f'commit id "3f601f7" is ambiguous in {DEEPEP}: 2 commits of its history start with it '
        "(3f601f7ac1c0 (v1.1.0-3-g3f601f7a), 3f601f7b0000), so pip refuses it; write the full id"
    ]
