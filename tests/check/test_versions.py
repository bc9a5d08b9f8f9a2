"""Reading version numbers out of ref names."""

from __future__ import annotations

import pytest

from ascend_reflint.check.versions import RefVersion, VersionPart, parse_version


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("core_r0.18.0", RefVersion((VersionPart((0, 18), ()),), "", "core_r#")),
        ("v0.11.0rc3", RefVersion((VersionPart((0, 11), ((3, 3),)),), "", "v#")),
        ("release_v2.16.post", RefVersion((VersionPart((2, 16), ((5, 0),)),), "", "release_v#")),
        ("25.04-alpha.rc1", RefVersion((VersionPart((25, 4), ((1, 0), (3, 1))),), "", "#")),
        ("v2.0-beta.1", RefVersion((VersionPart((2,), ((2, 1),)),), "", "v#")),
        ("v1.0.RC2", RefVersion((VersionPart((1,), ((3, 2),)),), "", "v#")),
        ("v0.11.0-dev", RefVersion((VersionPart((0, 11), ((0, 0),)),), "", "v#")),
        (
            "v2.3.0_core_r0.12.1",
            RefVersion((VersionPart((2, 3), ()), VersionPart((0, 12, 1), ())), "", "v#_core_r#"),
        ),
        ("v0.8.5-sleep-numa", RefVersion((VersionPart((0, 8, 5), ()),), "sleepnuma", "v#-sleep-numa")),
        ("12.1-cudnn", RefVersion((VersionPart((12, 1), ()),), "cudnn", "#-cudnn")),
        ("2026.01.21", RefVersion((VersionPart((2026, 1, 21), ()),), "", "#")),
        ("20251214", RefVersion((VersionPart((20251214,), ()),), "", "#")),
        ("v4", RefVersion((VersionPart((4,), ()),), "", "v#")),
        ("0.0", RefVersion((VersionPart((0,), ()),), "", "#")),
    ],
)
def test_parse_version_reads_parts_tail_and_skeleton(name: str, expected: RefVersion) -> None:
    assert parse_version(name) == expected


@pytest.mark.parametrize("name", ["main", "hybrid-ep", "stable", ""])
def test_a_name_without_digits_has_no_version(name: str) -> None:
    assert parse_version(name) is None


def test_branch_and_tag_of_one_release_spell_the_same_version() -> None:
    branch, tag = parse_version("core_r0.18.0"), parse_version("core_v0.18.0")
    assert branch is not None and tag is not None
    assert branch.same_version(tag)
    assert not branch.same_version(parse_version("core_v0.18.2"))  # type: ignore[arg-type]


def test_trailing_zeros_do_not_count() -> None:
    assert parse_version("release_v2.11").same_version(parse_version("v2.11.0"))  # type: ignore[union-attr,arg-type]


def test_a_tail_is_part_of_the_version() -> None:
    assert not parse_version("v0.8.5-sleep-numa").same_version(parse_version("v0.8.5"))  # type: ignore[union-attr,arg-type]


def test_release_candidates_of_one_version_are_the_same_release_not_the_same_version() -> None:
    rc9, rc3 = parse_version("v0.11.0rc9"), parse_version("v0.11.0rc3")
    assert rc9 is not None and rc3 is not None
    assert rc9.same_release(rc3)
    assert not rc9.same_version(rc3)
    assert not rc9.same_release(parse_version("v0.12.0rc3"))  # type: ignore[arg-type]


def test_qualifiers_sort_as_pep_440_says() -> None:
    names = ["v1.0.post1", "v1.0", "v1.0rc2", "v1.0rc10", "v1.0b1", "v1.0a1", "v1.0.dev0"]
    keys = {name: parse_version(name).parts[-1].qualifier_key for name in names}  # type: ignore[union-attr]
    assert sorted(names, key=keys.__getitem__) == [
        "v1.0.dev0",
        "v1.0a1",
        "v1.0b1",
        "v1.0rc2",
        "v1.0rc10",
        "v1.0",
        "v1.0.post1",
    ]


def test_release_means_no_qualifier_and_no_tail() -> None:
    assert parse_version("core_v0.18.0").is_release  # type: ignore[union-attr]
    assert not parse_version("core_v0.12.0rc2").is_release  # type: ignore[union-attr]
    assert not parse_version("core_v0.4.0_verl").is_release  # type: ignore[union-attr]
