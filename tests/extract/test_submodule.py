"""Submodule pins (ascend_reflint.extract.submodule): ``.gitmodules`` read with the commit that a real git
index records for each path, relative URLs resolved against ``origin``, and what happens without an index."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ascend_reflint.extract import ExtractError
from ascend_reflint.extract.submodule import extract_submodules, resolve_relative_url
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.worktree import origin_url

MINDSPEED = "7969e1c6b61c44fdb09d20607561824675bb216f"
MEGATRON = "a845aa7e12b3a117e24c2352b9e3e60bad2e3a17"
CUTLASS = "57e3cfb47a2d9e0d46eb6335c3dc411498efa198"

GITMODULES = """\
[submodule "3rdparty/MindSpeed"]
\tpath = 3rdparty/MindSpeed
\turl = https://gitcode.com/ascend/MindSpeed.git
\tbranch = master
\tshallow = true
[submodule "3rdparty/Megatron-LM"]
\tpath = 3rdparty/Megatron-LM
\turl = "https://github.com/NVIDIA/Megatron-LM.git"  # quoted, with a comment
\tbranch = .
[submodule "cutlass"]
\tpath = 3rdparty/cutlass/
\turl = ../cutlass.git
"""


@pytest.fixture(autouse=True)
def isolated_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git in these tests reads no configuration of the machine's."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("HOME", str(tmp_path))


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def superproject(
    folder: Path, gitmodules: str, gitlinks: dict[str, str], origin: str | None = None
) -> SourceFile:
    """A git work tree holding ``.gitmodules`` and the given gitlinks in its index."""
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "-q")
    if origin is not None:
        git(folder, "remote", "add", "origin", origin)
    for path, commit in gitlinks.items():
        git(folder, "update-index", "--add", "--cacheinfo", f"160000,{commit},{path}")
    return gitmodules_file(folder, gitmodules)


def gitmodules_file(folder: Path, text: str) -> SourceFile:
    (folder / ".gitmodules").write_text(text, encoding="utf-8")
    return SourceFile(
        path=".gitmodules", abspath=str(folder / ".gitmodules"), kind=FileKind.SUBMODULE, text=text
    )


def test_one_pin_per_submodule_at_the_recorded_commit(tmp_path: Path) -> None:
    source = superproject(
        tmp_path / "repo",
        GITMODULES,
        {"3rdparty/MindSpeed": MINDSPEED, "3rdparty/Megatron-LM": MEGATRON, "3rdparty/cutlass": CUTLASS},
        origin="https://github.com/NVIDIA/TransformerEngine.git",
    )
    extract_submodules(source)
    assert source.pins == [
        Pin(
            path=".gitmodules",
            kind=FileKind.SUBMODULE,
            via=Via.SUBMODULE,
            span=Span(3, 8, 3, 48),
            url="https://gitcode.com/ascend/MindSpeed.git",
            remote="gitcode.com/ascend/mindspeed",
            ref=MINDSPEED,
            ref_text=None,
            clone_ref="master",
            depth=1,
            shallow=True,
            url_span=Span(3, 8, 3, 48),
            clone_ref_span=Span(4, 11, 4, 17),
        ),
        Pin(
            path=".gitmodules",
            kind=FileKind.SUBMODULE,
            via=Via.SUBMODULE,
            span=Span(8, 9, 8, 50),
            url="https://github.com/NVIDIA/Megatron-LM.git",
            remote="github.com/nvidia/megatron-lm",
            ref=MEGATRON,
            ref_text=None,
            url_span=Span(8, 9, 8, 50),
        ),
        Pin(
            path=".gitmodules",
            kind=FileKind.SUBMODULE,
            via=Via.SUBMODULE,
            span=Span(12, 8, 12, 22),
            url="https://github.com/NVIDIA/cutlass.git",
            remote="github.com/nvidia/cutlass",
            ref=CUTLASS,
            ref_text=None,
            url_span=Span(12, 8, 12, 22),
        ),
    ]
    assert source.notices == []


def test_a_relative_url_without_origin_stays_unresolved(tmp_path: Path) -> None:
    source = superproject(
        tmp_path / "repo", GITMODULES, {"3rdparty/cutlass": CUTLASS, "3rdparty/MindSpeed": MINDSPEED}
    )
    extract_submodules(source)
    cutlass = source.pins[-1]
    assert (cutlass.url, cutlass.remote, cutlass.ref, cutlass.resolution, cutlass.resolution_note) == (
        "../cutlass.git",
        None,
        CUTLASS,
        Resolution.UNRESOLVED,
        "a relative URL is relative to the superproject's remote origin, and no origin URL is known here",
    )


def test_entries_and_gitlinks_that_do_not_match_are_notices(tmp_path: Path) -> None:
    source = superproject(
        tmp_path / "repo", GITMODULES, {"3rdparty/MindSpeed": MINDSPEED, "vendor/orphan": MEGATRON}
    )
    extract_submodules(source)
    assert [pin.ref for pin in source.pins] == [MINDSPEED]
    assert source.notices == [
        "submodule '3rdparty/Megatron-LM': the index records no commit at '3rdparty/Megatron-LM', so "
        "`git submodule update` skips it",
        "submodule 'cutlass': the index records no commit at '3rdparty/cutlass', so `git submodule update` "
        "skips it",
        "the index records a submodule commit at 'vendor/orphan', which .gitmodules does not name, so "
        "`git submodule update` fails there",
    ]


def test_outside_a_work_tree_the_pins_have_no_commit(tmp_path: Path) -> None:
    folder = tmp_path / "unpacked"
    folder.mkdir()
    source = gitmodules_file(folder, GITMODULES)
    extract_submodules(source)
    assert [(pin.url, pin.ref, pin.clone_ref, pin.resolution) for pin in source.pins] == [
        ("https://gitcode.com/ascend/MindSpeed.git", None, "master", Resolution.RESOLVED),
        ("https://github.com/NVIDIA/Megatron-LM.git", None, None, Resolution.RESOLVED),
        ("../cutlass.git", None, None, Resolution.UNRESOLVED),
    ]
    assert source.notices == [
        "no git index could be read here (not a git work tree, or git refused it), so the commits that the "
        "submodules are pinned at are unknown; their URLs and branches were checked"
    ]


def test_a_gitmodules_below_the_work_tree_root_is_not_read_by_git(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    superproject(repo, GITMODULES, {"3rdparty/MindSpeed": MINDSPEED})
    (repo / "vendor" / "copy").mkdir(parents=True)
    source = gitmodules_file(repo / "vendor" / "copy", GITMODULES)
    extract_submodules(source)
    assert (source.pins, source.notices) == (
        [],
        [
            "not at the root of a git work tree (a copy inside another repository?), so git does not read "
            "it: no submodule pins"
        ],
    )


def test_the_last_value_counts_and_entries_without_url_or_path_are_skipped(tmp_path: Path) -> None:
    text = (
        '[submodule "a"]\n\tpath = a\n\turl = https://github.com/o/old\n'
        '[submodule "b"]\n\tpath = b\n'
        '[submodule "a"]\n\turl = https://github.com/o/new\n\tshallow = no\n'
    )
    source = superproject(tmp_path / "repo", text, {"a": MEGATRON, "b": MINDSPEED})
    extract_submodules(source)
    assert [(pin.url, pin.span, pin.shallow) for pin in source.pins] == [
        ("https://github.com/o/new", Span(7, 8, 7, 32), False)
    ]


def test_git_config_it_cannot_read_is_an_extract_error(tmp_path: Path) -> None:
    source = superproject(tmp_path / "repo", '[submodule "a"]\n\turl = "open\n', {})
    with pytest.raises(ExtractError, match="line 2: unclosed quote in a value"):
        extract_submodules(source)


def test_the_repository_config_never_runs_a_program(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = superproject(tmp_path / "repo", GITMODULES, {"3rdparty/MindSpeed": MINDSPEED})
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    hook.chmod(0o755)
    git(tmp_path / "repo", "config", "core.fsmonitor", str(hook))
    extract_submodules(source)
    assert [pin.ref for pin in source.pins] == [MINDSPEED]
    assert not marker.exists()


@pytest.mark.parametrize(
    ("remote", "url", "resolved"),
    [
        ("https://github.com/o/r.git", "../x.git", "https://github.com/o/x.git"),
        ("https://github.com/o/r.git", "../../x", "https://github.com/x"),
        ("https://github.com/o/r/", "./x", "https://github.com/o/r/x"),
        ("git@host:o/r", "../x", "git@host:o/x"),
        ("git@host:o/r", "../../x", "git@host:x"),
        ("/srv/git/r.git", "../x.git", "/srv/git/x.git"),
        ("ssh://git@h:22/o/r.git", "../x.git", "ssh://git@h:22/o/x.git"),
    ],
)
def test_relative_urls_resolve_as_git_resolves_them(
    tmp_path: Path, remote: str, url: str, resolved: str
) -> None:
    assert resolve_relative_url(remote, url) == resolved
    repo = tmp_path / "repo"
    superproject(repo, f'[submodule "s"]\n\tpath = s\n\turl = {url}\n', {"s": MEGATRON}, origin=remote)
    git(repo, "submodule", "init")
    assert (
        subprocess.run(
            ["git", "config", "submodule.s.url"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        == resolved
    )


@pytest.mark.parametrize(
    ("remote", "url"),
    [
        ("https://github.com/o/r.git", "../../../x"),
        ("git@host:o/r", "../../../x"),
        ("../r", "../x"),
        ("r", "../x"),
    ],
)
def test_relative_urls_that_climb_too_far_or_start_from_a_relative_path_stay_unresolved(
    remote: str, url: str
) -> None:
    assert resolve_relative_url(remote, url) is None


def test_origin_of_a_linked_work_tree_is_read_from_the_common_config(tmp_path: Path) -> None:
    main = tmp_path / "main"
    main.mkdir()
    git(main, "init", "-q")
    git(main, "remote", "add", "origin", "https://github.com/o/super.git")
    linked = tmp_path / "linked"
    admin = main / ".git" / "worktrees" / "linked"
    admin.mkdir(parents=True)
    (admin / "commondir").write_text("../..\n", encoding="utf-8")
    linked.mkdir()
    (linked / ".git").write_text(f"gitdir: {admin}\n", encoding="utf-8")
    assert origin_url(str(linked)) == "https://github.com/o/super.git"
    assert origin_url(str(tmp_path)) is None
