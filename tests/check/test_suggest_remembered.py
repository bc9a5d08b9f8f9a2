"""Suggestions are remembered per ref list: the same answers, and never another list's."""

from __future__ import annotations

from ascend_reflint.check.suggest import nearest_names, newest_release_tag, same_version_tags, suggest_ref
from ascend_reflint.model import RemoteRefs

ID = "0" * 40


def refs(*tags: str) -> RemoteRefs:
    return RemoteRefs(remote="github.com/a/b", branches={"main": ID}, tags=dict.fromkeys(tags, ID))


def test_asking_again_gives_the_same_answers() -> None:
    remote = refs("v1.0.0", "v1.1.0", "v1.2.0rc1", "v2.0.0")
    first = (suggest_ref("v1.2.0rc9", remote), nearest_names("v1.3.0", remote), newest_release_tag(remote))
    second = (suggest_ref("v1.2.0rc9", remote), nearest_names("v1.3.0", remote), newest_release_tag(remote))
    assert first == second == ("v1.2.0rc1", ["v1.2.0rc1", "v1.1.0", "v1.0.0"], "v2.0.0")
    assert nearest_names("v1.3.0", remote, limit=1) == ["v1.2.0rc1"]


def test_a_returned_list_changed_by_the_caller_does_not_change_the_next_answer() -> None:
    remote = refs("v1.0.0", "core_v1.0.0")
    same_version_tags("core_r1.0.0", remote).append("junk")
    nearest_names("v1.0.1", remote).clear()
    assert same_version_tags("core_r1.0.0", remote) == ["core_v1.0.0", "v1.0.0"]
    assert nearest_names("v1.0.1", remote) == ["v1.0.0", "core_v1.0.0"]


def test_two_ref_lists_of_one_remote_are_not_mixed_up() -> None:
    """A lookup makes a new RemoteRefs each scan; equal names must not share answers across lists."""
    for tags in [("v1.0.0",), ("v1.0.1",), ("v1.0.0", "v1.0.2")] * 3:
        remote = refs(*tags)
        assert newest_release_tag(remote) == max(tags)
        assert suggest_ref("v1.0.0rc1", remote) == ("v1.0.0" if "v1.0.0" in tags else None)
