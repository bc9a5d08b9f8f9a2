"""Where a finding about a value goes (ascend_reflint.check.placement): where the value is set when that file
is reported on, else at the use with the definition related; either end's ignore comment suppresses it, and
its fingerprint stays the use's."""

from __future__ import annotations

import dataclasses

from ascend_reflint.check.placement import placed
from ascend_reflint.model import Finding, Origin, Related, Severity, Span
from ascend_reflint.suppress import Suppression, apply_suppressions

USE = Span(12, 30, 12, 37)
#: A build argument that a workflow gives the Dockerfile (``--build-arg VLLM_TAG=v0.27.0``).
ORIGIN = Origin(".github/workflows/image.yml", Span(20, 40, 20, 47))
AT_USE = Finding(
    code="RL001",
    rule="ref-not-found",
    severity=Severity.ERROR,
    path="docker/Dockerfile",
    span=USE,
    message='ref "v0.27.0" is neither a branch nor a tag of github.com/vllm-project/vllm',
    remote="github.com/vllm-project/vllm",
    ref="v0.27.0",
)


def test_a_finding_moves_to_the_definition_when_its_file_is_reported_on() -> None:
    moved = placed(AT_USE, ORIGIN, {"docker/Dockerfile", ORIGIN.path})
    assert (moved.path, moved.span, moved.related, moved.use_path) == (
        ORIGIN.path,
        ORIGIN.span,
        (Related("docker/Dockerfile", 12, 30, "the value is used here", same_value=True),),
        "docker/Dockerfile",
    )
    assert moved.fingerprint() == AT_USE.fingerprint()


def test_under_pre_commit_a_finding_stays_at_the_given_files_use_with_the_definition_related() -> None:
    kept = placed(AT_USE, ORIGIN, {"docker/Dockerfile"})
    assert (kept.path, kept.span, kept.related, kept.use_path) == (
        "docker/Dockerfile",
        USE,
        (Related(ORIGIN.path, 20, 40, "the value is set here", same_value=True),),
        None,
    )


def test_no_origin_or_the_use_itself_leaves_the_finding_alone() -> None:
    assert placed(AT_USE, None, {"docker/Dockerfile"}) is AT_USE
    assert placed(AT_USE, Origin("docker/Dockerfile", USE), {"docker/Dockerfile"}) is AT_USE


def test_an_ignore_comment_at_either_end_suppresses_across_files() -> None:
    moved = placed(AT_USE, ORIGIN, {"docker/Dockerfile", ORIGIN.path})
    kept = placed(AT_USE, ORIGIN, {"docker/Dockerfile"})
    at_use = Suppression("docker/Dockerfile", Span(11, 1, 11, 25), frozenset({"RL001"}))
    at_definition = Suppression(ORIGIN.path, Span(20, 60, 20, 84), None)
    elsewhere = Suppression(ORIGIN.path, Span(5, 1, 5, 25), None)
    for finding in (moved, kept):
        assert apply_suppressions([finding], [at_use]) == []
        assert apply_suppressions([finding], [at_definition]) == []
        assert apply_suppressions([finding], [elsewhere]) == [finding]
    # Other related places in other files (the other variant) never suppress.
    other = Related(ORIGIN.path, 20, 40, "pinned at v0.26.0 here")
    unrelated = dataclasses.replace(AT_USE, related=(other,))
    assert apply_suppressions([unrelated], [at_definition]) == [unrelated]
