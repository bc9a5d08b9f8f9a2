"""The shell extractor: every pin it finds, with its exact values and positions, and what it must not find.

Columns in the expected values are counted by hand from the fixtures (1-based, end exclusive).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascend_reflint.extract import ExtractError
from ascend_reflint.extract.shell import ShellSession, extract_shell_file
from ascend_reflint.model import Fetch, FileKind, Origin, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.resolve import Binding, Scope
from ascend_reflint.sourcemap import SourceMap

PATH = "build.sh"
URL = "https://github.com/o/r.git"  # 26 characters
REMOTE = "github.com/o/r"


def extract(text: str, scope: Scope | None = None, cwd: str = "") -> list[Pin]:
    session = ShellSession(PATH, FileKind.SHELL, scope if scope is not None else Scope())
    session.cwd = cwd
    session.run(text, SourceMap.identity(text))
    return session.finish()


def span(line: int, column: int, end_column: int, end_line: int | None = None) -> Span:
    return Span(line, column, end_line if end_line is not None else line, end_column)


def origin(line: int, column: int, end_column: int) -> Origin:
    """Where a value is written in the script (see Pin.ref_origin)."""
    return Origin(PATH, Span(line, column, line, end_column))


def pin(
    via: Via,
    at: Span,
    url: str = URL,
    remote: str | None = REMOTE,
    ref: str | None = None,
    ref_text: str | None = None,
    **fields: Any,
) -> Pin:
    return Pin(
        path=PATH,
        kind=FileKind.SHELL,
        via=via,
        span=at,
        url=url,
        remote=remote,
        ref=ref,
        ref_text=ref_text,
        **fields,
    )


# --- git clone ------------------------------------------------------------------------------------------


def test_clone_without_ref_is_via_clone_and_spans_the_url() -> None:
    assert extract(f"git clone {URL}\n") == [
        pin(Via.CLONE, span(1, 11, 37), url_span=span(1, 11, 37), clone_span=span(1, 1, 10)),
    ]


@pytest.mark.parametrize(
    ("text", "ref_span", "url_span"),
    [
        (f"git clone --branch v1 {URL}", span(1, 20, 22), span(1, 23, 49)),
        (f"git clone -b v1 {URL}", span(1, 14, 16), span(1, 17, 43)),
        (f"git clone --branch=v1 {URL}", span(1, 20, 22), span(1, 23, 49)),
        (f"git clone -bv1 {URL}", span(1, 13, 15), span(1, 16, 42)),
        (f"git clone -qb v1 {URL}", span(1, 15, 17), span(1, 18, 44)),
        (f"git clone --bran v1 {URL}", span(1, 18, 20), span(1, 21, 47)),  # git accepts unique prefixes
        (f"git clone {URL} -b v1", span(1, 41, 43), span(1, 11, 37)),
        (f"git clone {URL} dir --branch v1", span(1, 51, 53), span(1, 11, 37)),
        (f'git clone --branch "v1" {URL}', span(1, 21, 23), span(1, 25, 51)),
        (f"git clone --branch='v1' {URL}", span(1, 21, 23), span(1, 25, 51)),
        (f"git clone -b v0 -b v1 {URL}", span(1, 20, 22), span(1, 23, 49)),  # the last one counts
    ],
)
def test_clone_branch_in_any_form_is_via_clone_branch_and_spans_the_ref(
    text: str, ref_span: Span, url_span: Span
) -> None:
    assert extract(text + "\n") == [
        pin(
            Via.CLONE_BRANCH, ref_span, ref="v1", ref_text="v1", url_span=url_span, clone_span=span(1, 1, 10)
        ),
    ]


@pytest.mark.parametrize(
    ("options", "depth", "shallow", "single_branch", "recurse_submodules"),
    [
        ("--depth 1", 1, True, False, False),
        ("--depth=20", 20, True, False, False),
        ("--depth $DEPTH", None, True, False, False),
        ("--shallow-since=2024-01-01", None, True, False, False),
        ("--shallow-exclude=v0.1", None, True, False, False),
        ("--single-branch", None, False, True, False),
        ("--single-branch --no-single-branch", None, False, False, False),
        ("--recursive", None, False, False, True),
        ("--recurse-submodules", None, False, False, True),
        ("--recurse-submodules=third_party", None, False, False, True),
        ("--shallow-submodules", None, False, False, False),
        ("--depth 1 --single-branch --recursive", 1, True, True, True),
    ],
)
def test_clone_options_that_matter_are_recorded(
    options: str, depth: int | None, shallow: bool, single_branch: bool, recurse_submodules: bool
) -> None:
    url_column = len("git clone ") + len(options) + 2
    url_span = span(1, url_column, url_column + 26)
    assert extract(f"git clone {options} {URL}\n") == [
        pin(
            Via.CLONE,
            url_span,
            url_span=url_span,
            clone_span=span(1, 1, 10),
            depth=depth,
            shallow=shallow,
            single_branch=single_branch,
            recurse_submodules=recurse_submodules,
        ),
    ]


def test_clone_options_with_values_are_not_taken_for_the_url_or_directory() -> None:
    text = (
        "git clone -o up --filter=blob:none -j 4 --reference /ref --template=/t -c core.x=y "
        f"--separate-git-dir /g --jobs=2 {URL} src && cd src && git checkout up/dev\n"
    )
    # columns: "-o" 11, URL 113-139, "src" 140, "up/dev" 167-173
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 172, 178),
            ref="dev",
            ref_text="up/dev",
            url_span=span(1, 115, 141),
            clone_span=span(1, 1, 10),
        ),
    ]


def test_git_global_options_come_before_the_subcommand() -> None:
    text = f"git -c http.sslVerify=false -C /src clone {URL} && cd /src/r && git checkout v2\n"
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 99, 101),
            ref="v2",
            ref_text="v2",
            url_span=span(1, 43, 69),
            clone_span=span(1, 1, 42),
        ),
    ]


@pytest.mark.parametrize(
    "prefix",
    [
        "sudo ",
        "sudo -u root -E ",
        "sudo DEBIAN_FRONTEND=x ",
        "env X=1 ",
        "env -i PATH=/bin ",
        "time ",
        "time -p ",
        "exec ",
        "nice -n 5 ",
        "nohup ",
        "timeout 60 ",
        "timeout -s KILL 5m ",
        "command ",
        "builtin ",
        "X=1 ",
        "! ",
        "stdbuf -oL ",
    ],
)
def test_clone_behind_a_wrapper_is_found(prefix: str) -> None:
    offset = len(prefix)
    assert extract(f"{prefix}git clone -b v1 {URL}\n") == [
        pin(
            Via.CLONE_BRANCH,
            span(1, offset + 14, offset + 16),
            ref="v1",
            ref_text="v1",
            url_span=span(1, offset + 17, offset + 43),
            clone_span=span(1, offset + 1, offset + 10),
        ),
    ]


def test_command_v_only_looks_git_up() -> None:
    assert extract(f"command -v git clone {URL}\n") == []


def test_clones_in_lists_pipelines_subshells_and_compound_commands_are_found() -> None:
    text = (
        "set -e\n"
        "true && git clone https://h.example/o/a.git || echo failed; git clone https://h.example/o/b.git\n"
        "git clone https://h.example/o/c.git 2>&1 | tee clone.log\n"
        "(cd /tmp && git clone https://h.example/o/d.git)\n"
        "if [ ! -d e ]; then git clone https://h.example/o/e.git; elif true; then :; "
        "else git clone https://h.example/o/f.git; fi\n"
        "for i in 1; do git clone https://h.example/o/g.git; done\n"
        "while false; do git clone https://h.example/o/h.git; done\n"
        "case $X in a) git clone https://h.example/o/i.git ;; esac\n"
        "{ git clone https://h.example/o/j.git; }\n"
        "echo $(git clone https://h.example/o/k.git)\n"
        "git clone https://h.example/o/l.git &\n"
    )
    found = [(pin.url, pin.span) for pin in extract(text)]
    assert found == [
        ("https://h.example/o/a.git", span(2, 19, 44)),
        ("https://h.example/o/b.git", span(2, 71, 96)),
        ("https://h.example/o/c.git", span(3, 11, 36)),
        ("https://h.example/o/d.git", span(4, 23, 48)),
        ("https://h.example/o/e.git", span(5, 31, 56)),
        ("https://h.example/o/f.git", span(5, 92, 117)),
        ("https://h.example/o/g.git", span(6, 26, 51)),
        ("https://h.example/o/h.git", span(7, 27, 52)),
        ("https://h.example/o/i.git", span(8, 25, 50)),
        ("https://h.example/o/j.git", span(9, 13, 38)),
        ("https://h.example/o/k.git", span(10, 18, 43)),
        ("https://h.example/o/l.git", span(11, 11, 36)),
    ]


def test_functions_are_read_where_they_are_called() -> None:
    text = (
        "install() {\n"
        '  git clone -b "$REF" https://h.example/o/a.git\n'
        "}\n"
        "REF=v1\n"
        "install\n"
        "unused() { git clone https://h.example/o/b.git; }\n"
    )
    assert [(pin.url, pin.ref, pin.span) for pin in extract(text)] == [
        ("https://h.example/o/a.git", "v1", span(2, 17, 21)),
        ("https://h.example/o/b.git", None, span(6, 22, 47)),
    ]


# --- nested scripts ----------------------------------------------------------------------------------


def test_bash_c_string_is_read_with_positions_mapped_into_it() -> None:
    text = (
        f"bash -c 'git clone -b v1 {URL}'\n"
        f'sh -c "cd /x && git clone --branch \\"v2\\" {URL}"\n'
        f"sudo bash -ec 'git clone -b v3 {URL}'\n"
        "REF=v4\n"
        f'bash -lc "git clone -b $REF {URL}"\n'
        f"eval 'git clone -b v5 {URL}'\n"
    )
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(1, 23, 25),
            ref="v1",
            ref_text="v1",
            url_span=span(1, 26, 52),
            clone_span=span(1, 10, 19),
        ),
        pin(
            Via.CLONE_BRANCH,
            span(2, 38, 40),
            ref="v2",
            ref_text="v2",
            url_span=span(2, 43, 69),
            clone_span=span(2, 17, 26),
        ),
        pin(
            Via.CLONE_BRANCH,
            span(3, 29, 31),
            ref="v3",
            ref_text="v3",
            url_span=span(3, 32, 58),
            clone_span=span(3, 16, 25),
        ),
        pin(
            Via.CLONE_BRANCH,
            span(5, 24, 28),
            ref="v4",
            ref_text="$REF",
            url_span=span(5, 29, 55),
            ref_origin=origin(4, 5, 7),
            clone_span=span(5, 11, 20),
        ),
        pin(
            Via.CLONE_BRANCH,
            span(6, 20, 22),
            ref="v5",
            ref_text="v5",
            url_span=span(6, 23, 49),
            clone_span=span(6, 7, 16),
        ),
    ]


def test_heredocs_and_here_strings_fed_to_a_shell_are_read_and_others_are_not() -> None:
    text = (
        "cat <<EOF > install.sh\n"
        "git clone https://h.example/o/written.git\n"
        "EOF\n"
        "bash -ex <<'EOF'\n"
        "git clone -b v1 https://h.example/o/a.git\n"
        "EOF\n"
        "sudo sh -s <<EOF | tee log\n"
        "  git clone -b v2 https://h.example/o/b.git\n"
        "EOF\n"
        'bash <<< "git clone -b v3 https://h.example/o/c.git"\n'
        'cat <<< "git clone https://h.example/o/shown.git"\n'
        "bash script.sh <<EOF\n"
        "git clone https://h.example/o/input.git\n"
        "EOF\n"
    )
    assert [(pin.url, pin.ref, pin.span) for pin in extract(text)] == [
        ("https://h.example/o/a.git", "v1", span(5, 14, 16)),
        ("https://h.example/o/b.git", "v2", span(8, 16, 18)),
        ("https://h.example/o/c.git", "v3", span(10, 24, 26)),
    ]


def test_unquoted_heredoc_fed_to_a_shell_sees_the_variables() -> None:
    text = f"REF=v1\nbash <<EOF\ngit clone -b $REF {URL}\nEOF\n"
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(3, 14, 18),
            ref="v1",
            ref_text="$REF",
            ref_origin=origin(1, 5, 7),
            url_span=span(3, 19, 45),
            clone_span=span(3, 1, 10),
        ),
    ]


def test_what_is_not_executed_is_not_extracted() -> None:
    text = (
        "#!/bin/bash\n"
        f"# git clone -b v1 {URL}\n"
        f"  # pip install git+{URL}@v1\n"
        f'echo "pip install git+{URL}@v1"\n'
        f"printf '%s\\n' 'git clone {URL}'\n"
        f": 'git clone {URL}'\n"
        f"echo git clone {URL}\n"
        f"cat <<'EOF' >> notes.txt\ngit clone {URL}\nEOF\n"
    )
    assert extract(text) == []


# --- clone, then checkout ------------------------------------------------------------------------------


def test_clone_then_cd_then_checkout_is_one_checkout_pin_keeping_the_clone_branch() -> None:
    text = (
        "git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git\n"
        "cd Megatron-LM\n"
        "git checkout core_v0.18.0\n"
    )
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(3, 14, 26),
            url="https://github.com/NVIDIA/Megatron-LM.git",
            remote="github.com/nvidia/megatron-lm",
            ref="core_v0.18.0",
            ref_text="core_v0.18.0",
            clone_ref="core_r0.18.0",
            clone_ref_span=span(1, 20, 32),
            url_span=span(1, 33, 74),
            clone_span=span(1, 1, 10),
        ),
    ]


@pytest.mark.parametrize(
    ("command", "ref", "ref_span"),
    [
        ("git -C r checkout v1", "v1", span(2, 19, 21)),
        ("cd r && git checkout v1", "v1", span(2, 22, 24)),
        ("cd r && git switch v1", "v1", span(2, 20, 22)),
        ("cd r && git switch --detach v1", "v1", span(2, 29, 31)),
        ("cd r && git switch -c local v1", "v1", span(2, 29, 31)),
        ("cd r && git checkout -b local v1", "v1", span(2, 31, 33)),
        ("cd r && git checkout -q -f v1", "v1", span(2, 28, 30)),
        ("cd r && git reset --hard v1", "v1", span(2, 26, 28)),
        ("cd r && git checkout tags/v1", "v1", span(2, 22, 29)),
        ("cd r && git checkout refs/tags/v1", "v1", span(2, 22, 34)),
        ("cd r && git checkout origin/dev", "dev", span(2, 22, 32)),
        ("cd r && git checkout --track origin/dev", "dev", span(2, 30, 40)),
        ("cd r/src && git checkout v1", "v1", span(2, 26, 28)),
        ("pushd r && git checkout v1 && popd", "v1", span(2, 25, 27)),
        ("cd r; cd ..; cd ./r/../r; git checkout v1", "v1", span(2, 40, 42)),
        ("cd r && cd /tmp && cd - && git checkout v1", "v1", span(2, 41, 43)),
        ("env -C r git checkout v1", "v1", span(2, 23, 25)),
        ('D=r; cd "$D" && git checkout v1', "v1", span(2, 30, 32)),
    ],
)
def test_checkout_forms_move_the_clone_to_their_ref(command: str, ref: str, ref_span: Span) -> None:
    text_ref = command[ref_span.column - 1 : ref_span.end_column - 1]
    assert extract(f"git clone {URL}\n{command}\n") == [
        pin(
            Via.CHECKOUT,
            ref_span,
            ref=ref,
            ref_text=text_ref,
            url_span=span(1, 11, 37),
            clone_span=span(1, 1, 10),
        ),
    ]


@pytest.mark.parametrize(
    "command",
    [
        "cd r && git checkout -- setup.py",
        "cd r && git checkout .",
        "cd r && git checkout -b local",
        "cd r && git switch -c local",
        "cd r && git checkout v1 -- setup.py",
        "cd r && git checkout v1 setup.py",
        "cd r && git reset v1",
        "cd r && git reset --soft v1",
        "cd r && git reset --hard",
        "cd r && git checkout -",
        "cd r && git checkout HEAD~1",
        "cd r && cd .. && git checkout v1",
        "cd elsewhere && git checkout v1",
        "git checkout v1",
        "(cd r) && git checkout v1",
        "cd r | cat; git checkout v1",
    ],
)
def test_commands_that_check_out_no_ref_in_the_clone_leave_it_alone(command: str) -> None:
    assert extract(f"git clone {URL}\n{command}\n") == [
        pin(Via.CLONE, span(1, 11, 37), url_span=span(1, 11, 37), clone_span=span(1, 1, 10)),
    ]


def test_checkout_in_a_repository_the_script_did_not_clone_is_not_a_pin() -> None:
    assert extract("cd /src/verl && git checkout v0.6.0\ngit -C /x switch main\n") == []


def test_unquoted_expansion_holding_options_is_split_into_words() -> None:
    text = f'ARGS="--depth 1 --branch v1"\ngit clone $ARGS {URL}\ngit clone $UNKNOWN_ARGS {URL}\n'
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(2, 11, 16),
            ref="v1",
            ref_text="$ARGS",
            ref_origin=origin(1, 26, 28),  # the v1 inside ARGS's value
            url_span=span(2, 17, 43),
            clone_span=span(2, 1, 10),
            depth=1,
            shallow=True,
        ),
        pin(Via.CLONE, span(3, 25, 51), url_span=span(3, 25, 51), clone_span=span(3, 1, 10)),
    ]


def test_directories_computed_at_run_time_match_nothing_else() -> None:
    text = f'cd "$(mktemp -d)" && git clone {URL} && cd "$(mktemp -d)" && cd r && git checkout v1\n'
    assert extract(text) == [
        pin(Via.CLONE, span(1, 32, 58), url_span=span(1, 32, 58), clone_span=span(1, 22, 31)),
    ]


def test_clone_directory_is_followed_when_given() -> None:
    text = (
        f"git clone {URL} /opt/mr && cd /opt/mr && git checkout v1\n"
        f"cd /build && git clone {URL} . && git reset --hard v2\n"
    )
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 76, 78),
            ref="v1",
            ref_text="v1",
            url_span=span(1, 11, 37),
            clone_span=span(1, 1, 10),
        ),
        pin(
            Via.CHECKOUT,
            span(2, 73, 75),
            ref="v2",
            ref_text="v2",
            url_span=span(2, 24, 50),
            clone_span=span(2, 14, 23),
        ),
    ]


def test_clone_with_an_unknown_directory_is_matched_by_a_checkout_just_below() -> None:
    text = 'git clone "$REPO_URL" && cd sglang && git checkout v0.4.6\n'
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 52, 58),
            url="$REPO_URL",
            remote=None,
            ref="v0.4.6",
            ref_text="v0.4.6",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$REPO_URL is not set in this file",
            url_span=span(1, 12, 21),
            clone_span=span(1, 1, 10),
        ),
    ]


def test_fetch_of_a_ref_is_recorded_and_fetch_head_checks_it_out() -> None:
    text = f"git clone --depth 1 {URL}\ncd r\ngit fetch --depth 1 origin 0123abcd\ngit checkout FETCH_HEAD\n"
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(3, 28, 36),  # FETCH_HEAD pins the fetched ref where the fetch writes it
            ref="0123abcd",
            ref_text="0123abcd",
            url_span=span(1, 21, 47),
            clone_span=span(1, 1, 10),
            depth=1,
            shallow=True,
            fetched_ref="0123abcd",
        ),
    ]


def test_fetch_forms() -> None:
    text = (
        f"git clone --depth 1 {URL} a && git -C a fetch origin tag v2 && git -C a checkout v2\n"
        f"git clone --depth 1 {URL} b && cd b && git fetch --unshallow && git checkout v3 && cd ..\n"
        f"git clone {URL} c && cd c && git checkout FETCH_HEAD\n"
    )
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 103, 105),
            ref="v2",
            ref_text="v2",
            url_span=span(1, 21, 47),
            clone_span=span(1, 1, 10),
            depth=1,
            shallow=True,
            fetched_ref="v2",
            # `tag v2` stores the tag, so the checkout finds it in a shallow clone
            fetch=Fetch(span(1, 79, 81), by_url=False, tag=True, tracked_branch="HEAD", has_tags=False),
        ),
        pin(
            Via.CHECKOUT,
            span(2, 99, 101),
            ref="v3",
            ref_text="v3",
            url_span=span(2, 21, 47),
            clone_span=span(2, 1, 10),
        ),
        pin(
            Via.CHECKOUT,
            span(3, 64, 74),
            ref=None,
            ref_text="FETCH_HEAD",
            resolution=Resolution.UNRESOLVED,
            resolution_note="FETCH_HEAD names no ref that this script fetched",
            url_span=span(3, 11, 37),
            clone_span=span(3, 1, 10),
        ),
    ]


def test_runs_of_one_session_share_clones_but_not_cd_or_variables() -> None:
    session = ShellSession("Dockerfile", FileKind.DOCKERFILE, Scope(), stage="build")
    session.cwd = "/workspace"
    first = "git clone https://github.com/ROCm/TransformerEngine.git && cd /elsewhere && export REF=x\n"
    session.run(first, SourceMap.identity(first, first_line=3, first_column=5))
    session.cwd = "/workspace/TransformerEngine"
    second = 'git checkout "${REF:-236178e5}"\n'
    session.run(second, SourceMap.identity(second, first_line=5, first_column=5))
    assert session.finish() == [
        Pin(
            path="Dockerfile",
            kind=FileKind.DOCKERFILE,
            via=Via.CHECKOUT,
            span=span(5, 19, 35),
            url="https://github.com/ROCm/TransformerEngine.git",
            remote="github.com/rocm/transformerengine",
            ref="236178e5",
            ref_text="${REF:-236178e5}",
            url_span=span(3, 15, 60),
            clone_span=span(3, 5, 14),
            stage="build",
            ref_origin=Origin("Dockerfile", span(5, 26, 34)),  # the default, inside the word
        ),
    ]


# --- pip ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix",
    [
        "pip install ",
        "pip3 install ",
        "pip3.11 install --no-cache-dir ",
        "python -m pip install ",
        "python3 -m pip install ",
        "python3.10 -u -m pip install ",
        "uv pip install ",
        "pip install -U ",
        "pip install --no-deps --no-build-isolation ",
        "pip --proxy http://proxy:3128 install ",
        "sudo -H pip install ",
        "MAX_JOBS=4 pip install ",
        "pip install -e ",
        "pip download ",
    ],
)
def test_pip_vcs_url_is_found_in_every_pip_form(prefix: str) -> None:
    offset = len(prefix)
    assert extract(f"{prefix}git+{URL}@v1\n") == [
        pin(
            Via.PIP_VCS,
            span(1, offset + 32, offset + 34),
            ref="v1",
            ref_text="v1",
            url_span=span(1, offset + 5, offset + 31),
        ),
    ]


@pytest.mark.parametrize(
    ("requirement", "ref_span", "url_span"),
    [
        (f"git+{URL}@v1#egg=r&subdirectory=python", span(1, 44, 46), span(1, 17, 43)),
        (f'"git+{URL}@v1"', span(1, 45, 47), span(1, 18, 44)),
        (f"'git+{URL}@v1'", span(1, 45, 47), span(1, 18, 44)),
        (f'"r @ git+{URL}@v1"', span(1, 49, 51), span(1, 22, 48)),
        (f"r @ git+{URL}@v1", span(1, 48, 50), span(1, 21, 47)),
        (f"r@git+{URL}@v1", span(1, 46, 48), span(1, 19, 45)),
        (f"\"r[extra] @ git+{URL}@v1 ; python_version>='3.8'\"", span(1, 56, 58), span(1, 29, 55)),
        (f"--editable=git+{URL}@v1#egg=r", span(1, 55, 57), span(1, 28, 54)),
    ],
)
def test_pip_requirement_forms_keep_only_the_repository_url(
    requirement: str, ref_span: Span, url_span: Span
) -> None:
    assert extract(f"pip install {requirement} --no-deps\n") == [
        pin(Via.PIP_VCS, ref_span, ref="v1", ref_text="v1", url_span=url_span),
    ]


def test_pip_ssh_urls_and_refs_with_slashes() -> None:
    text = (
        "pip install git+ssh://git@github.com/o/r.git@v1 git+git@github.com:o/s.git@v2 "
        "git+https://github.com/o/t@feature/x-y\n"
    )
    assert extract(text) == [
        pin(
            Via.PIP_VCS,
            span(1, 46, 48),
            url="ssh://git@github.com/o/r.git",
            ref="v1",
            ref_text="v1",
            url_span=span(1, 17, 45),
        ),
        pin(
            Via.PIP_VCS,
            span(1, 76, 78),
            url="git@github.com:o/s.git",
            remote="github.com/o/s",
            ref="v2",
            ref_text="v2",
            url_span=span(1, 53, 75),
        ),
        pin(
            Via.PIP_VCS,
            span(1, 106, 117),
            url="https://github.com/o/t",
            remote="github.com/o/t",
            ref="feature/x-y",
            ref_text="feature/x-y",
            url_span=span(1, 83, 105),
        ),
    ]


def test_pip_url_without_ref_spans_the_url() -> None:
    assert extract("pip install -U git+https://github.com/ISEEKYAN/mbridge.git\n") == [
        pin(
            Via.PIP_VCS,
            span(1, 20, 59),
            url="https://github.com/ISEEKYAN/mbridge.git",
            remote="github.com/iseekyan/mbridge",
            url_span=span(1, 20, 59),
        ),
    ]


def test_pip_ref_inside_a_quoted_word_with_an_expansion_spans_the_expansion() -> None:
    text = f'pip install "git+{URL}@${{REF}}"\nREF=v1\npip install "git+{URL}@${{REF}}"\n'
    assert extract(text) == [
        pin(
            Via.PIP_VCS,
            span(1, 45, 51),
            ref=None,
            ref_text="${REF}",
            resolution=Resolution.EMPTY,
            resolution_note="$REF is used before it is assigned on line 2",
            url_span=span(1, 18, 44),
        ),
        pin(
            Via.PIP_VCS,
            span(3, 45, 51),
            ref="v1",
            ref_text="${REF}",
            ref_origin=origin(2, 5, 7),
            url_span=span(3, 18, 44),
        ),
    ]


def test_pip_requirement_held_whole_by_a_variable_spans_the_variable() -> None:
    text = f"PKG=git+{URL}@v1\npip install $PKG\nBASE=git+{URL}\npip install $BASE@v2\n"
    assert extract(text) == [
        pin(
            Via.PIP_VCS,
            span(2, 13, 17),
            ref="v1",
            ref_text="$PKG",
            url_span=span(2, 13, 17),
            ref_origin=origin(1, 36, 38),  # the parts of PKG's value
            url_origin=origin(1, 9, 35),
        ),
        pin(
            Via.PIP_VCS,
            span(4, 19, 21),
            ref="v2",
            ref_text="v2",
            url_span=span(4, 13, 18),
            url_origin=origin(3, 10, 36),
        ),
    ]


def test_requirement_held_by_a_variable_of_the_caller_is_read_even_without_git_in_the_text() -> None:
    scope = Scope()
    scope.set("MCORE", Binding(f"git+{URL}@core_v0.13.1"))
    assert extract("pip install --no-deps $MCORE\n", scope) == [
        pin(Via.PIP_VCS, span(1, 23, 29), ref="core_v0.13.1", ref_text="$MCORE", url_span=span(1, 23, 29)),
    ]


def test_pip_without_vcs_urls_gives_nothing() -> None:
    text = "pip install -r requirements.txt\npip install .\npip install -c git+c.txt torch\npip show git\n"
    assert extract(text) == []


# --- variables ------------------------------------------------------------------------------------------


def test_default_expansion_of_a_variable_resolves_the_ref() -> None:
    text = (
        "MCORE_REF=${MCORE_REF:-core_r0.18.0}\n"
        "git clone --depth 1 --branch $MCORE_REF https://github.com/NVIDIA/Megatron-LM.git\n"
    )
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(2, 30, 40),
            url="https://github.com/NVIDIA/Megatron-LM.git",
            remote="github.com/nvidia/megatron-lm",
            ref="core_r0.18.0",
            ref_text="$MCORE_REF",
            url_span=span(2, 41, 82),
            clone_span=span(2, 1, 10),
            depth=1,
            shallow=True,
            ref_origin=origin(1, 24, 36),  # the default: where a fix edits it
        ),
    ]


@pytest.mark.parametrize(
    ("setup", "word", "ref"),
    [
        ("export A=v1", "$A", "v1"),
        ("declare -x A=v1", "${A}", "v1"),
        ("f() { A=v1; }; f", "$A", "v1"),  # global: a function's assignment without local
        ("f() { local B=v0; A=v1; }; f", "$A", "v1"),
        ("readonly A=v1", "$A", "v1"),
        ("typeset A=v1", "$A", "v1"),
        ("A=v; A+=1", "$A", "v1"),
        ("A=1; B=2; C=3", "v$A.$B.$C", "v1.2.3"),  # tree-sitter-bash splits this word; it is one
        ("A=1; B=2; V=$A-$B-rc", "$V", "1-2-rc"),
        ("", "${A-v1}", "v1"),
        ("A=", "${A:-v1}", "v1"),
        ("A=", "v1${A-x}", "v1"),
        ("A=v1 B=v2", "$A", "v1"),
        ("A=v1 B=v2\n", "$A", "v1"),  # tree-sitter-bash joins this line to the next one
        ("for A in v1; do :; done", "$A", "v1"),
    ],
)
def test_assignments_in_order_give_variables_their_values(setup: str, word: str, ref: str) -> None:
    text = f"{setup}\ngit clone -b {word} {URL}\n"
    line = text.count("\n")
    assert [(pin.ref, pin.ref_text, pin.resolution) for pin in extract(text)] == [
        (ref, word, Resolution.RESOLVED),
    ]
    assert extract(text)[0].span == span(line, 14, 14 + len(word))


def test_prefix_assignment_applies_to_its_command_only() -> None:
    text = (
        f'REF=v1 git clone -b "$REF" {URL}\n'  # bash expands $REF before the assignment takes effect
        f"REF=v2 bash -c 'git clone -b \"$REF\" {URL}'\n"
        f'git clone -b "$REF" {URL}\n'
    )
    assert [(pin.ref, pin.resolution, pin.resolution_note) for pin in extract(text)] == [
        (None, Resolution.UNRESOLVED, "$REF is not set in this file"),
        ("v2", Resolution.RESOLVED, None),
        (None, Resolution.UNRESOLVED, "$REF is not set in this file"),
    ]


@pytest.mark.parametrize(
    ("setup", "note"),
    [
        ("REF=$(cat VERSION)", "$REF (line 1): command substitution"),
        ("REF=`cat VERSION`", "$REF (line 1): command substitution"),
        ("REF=$1", "$REF (line 1): $1 is set at run time"),
        ("read -r REF < VERSION", "$REF is read at run time (line 1)"),
        ("for REF in v1 v2; do :; done", "$REF takes each value of the loop on line 1"),
        ("declare -A REF=([a]=v1)", "$REF is an associative array (line 1)"),
        ("f() { local REF=v1; }; f", "$REF is not set in this file"),  # local to f
        (":", "$REF is not set in this file"),
    ],
)
def test_refs_that_cannot_be_known_statically_stay_unresolved_as_written(setup: str, note: str) -> None:
    assert extract(f"{setup}\ngit clone -b $REF {URL}\n") == [
        pin(
            Via.CLONE_BRANCH,
            span(2, 14, 18),
            ref=None,
            ref_text="$REF",
            resolution=Resolution.UNRESOLVED,
            resolution_note=note,
            url_span=span(2, 19, 45),
            clone_span=span(2, 1, 10),
        ),
    ]


@pytest.mark.parametrize(
    ("text", "note"),
    [
        (f"git clone -b $REF {URL}\nREF=v1\n", "$REF is used before it is assigned on line 2"),
        (f"# REF=v1\ngit clone -b $REF {URL}\n", "$REF is only assigned on a commented-out line (line 1)"),
        (
            f"#export REF=v1\ngit clone -b $REF {URL}\n",
            "$REF is only assigned on a commented-out line (line 1)",
        ),
        (f"REF=v1; unset REF\ngit clone -b $REF {URL}\n", "$REF is unset on line 1"),
    ],
)
def test_refs_the_file_shows_empty_are_empty(text: str, note: str) -> None:
    pins = extract(text)
    assert [(pin.ref, pin.ref_text, pin.resolution, pin.resolution_note) for pin in pins] == [
        (None, "$REF", Resolution.EMPTY, note),
    ]


def test_empty_hint_of_the_caller_is_used_and_an_assignment_in_the_script_wins() -> None:
    scope = Scope()
    scope.hint_empty("REF", "$REF is only set in stage 'base' (line 3)")
    scope.set("URL", Binding(URL))
    pins = extract("git clone -b $REF $URL\nREF=v1\ngit clone -b $REF $URL\n", scope)
    assert [(pin.url, pin.ref, pin.resolution, pin.resolution_note) for pin in pins] == [
        (URL, None, Resolution.EMPTY, "$REF is used before it is assigned on line 2"),
        (URL, "v1", Resolution.RESOLVED, None),
    ]
    pins = extract(f"git clone -b $REF {URL}\n", scope)
    assert [(pin.ref, pin.resolution, pin.resolution_note) for pin in pins] == [
        (None, Resolution.EMPTY, "$REF is only set in stage 'base' (line 3)"),
    ]


def test_unresolved_url_is_kept_as_written_without_a_remote() -> None:
    text = 'git clone -b v1 "https://${GIT_HOST}/o/r.git"\n'
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(1, 14, 16),
            url="https://${GIT_HOST}/o/r.git",
            remote=None,
            ref="v1",
            ref_text="v1",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$GIT_HOST is not set in this file",
            url_span=span(1, 18, 45),
            clone_span=span(1, 1, 10),
        ),
    ]


def test_github_expressions_are_one_unresolved_word() -> None:
    text = "git clone --branch ${{ matrix.ref }} https://github.com/${{ github.repository }}.git\n"
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(1, 20, 37),
            url="https://github.com/${{ github.repository }}.git",
            remote=None,
            ref=None,
            ref_text="${{ matrix.ref }}",
            resolution=Resolution.UNRESOLVED,
            resolution_note="GitHub expression ${{ matrix.ref }}",
            url_span=span(1, 38, 85),
            clone_span=span(1, 1, 10),
        ),
    ]


def test_quotes_are_not_part_of_the_span_or_ref_text() -> None:
    assert extract(f'TAG=v1\ngit clone --branch "$TAG" "{URL}"\n') == [
        pin(
            Via.CLONE_BRANCH,
            span(2, 21, 25),
            ref="v1",
            ref_text="$TAG",
            ref_origin=origin(1, 5, 7),
            url_span=span(2, 28, 54),
            clone_span=span(2, 1, 10),
        ),
    ]


def test_columns_count_characters_not_bytes() -> None:
    text = f"# 安装 Megatron\necho 'é中' && git clone -b v1 {URL}\n"
    assert extract(text) == [
        pin(
            Via.CLONE_BRANCH,
            span(2, 27, 29),
            ref="v1",
            ref_text="v1",
            url_span=span(2, 30, 56),
            clone_span=span(2, 14, 23),
        ),
    ]


def test_characters_that_crash_tree_sitter_bash_are_never_parsed() -> None:
    # tree-sitter-bash 0.25 reads out of bounds on `{` followed by some characters past U+FFFF (a crash
    # that shows once in a few hundred parses).
    text = "".join(f"echo {{{chr(code)}}}\n" for code in (0x60000, 0x7FFFF, 0xDFFFF, 0x100000, 0x10FFFF))
    for _ in range(500):
        assert extract(text + f"git clone {URL}\n") == [
            pin(Via.CLONE, span(6, 11, 37), url_span=span(6, 11, 37), clone_span=span(6, 1, 10)),
        ]


def test_positions_go_through_the_source_map() -> None:
    # A Dockerfile `RUN git clone \` continued on the next line, indented by four: the RUN body starts at
    # line 10, column 5.
    text = f"git clone \\\n    -b v1 {URL}"
    source_map = SourceMap()
    source_map.add(0, 10, 5)
    source_map.add(12, 11, 1)
    session = ShellSession(PATH, FileKind.SHELL, Scope())
    session.run(text, source_map)
    assert session.finish() == [
        pin(
            Via.CLONE_BRANCH,
            span(11, 8, 10),
            ref="v1",
            ref_text="v1",
            url_span=span(11, 11, 37),
            clone_span=span(10, 5, 14),
        ),
    ]


# --- bad input ------------------------------------------------------------------------------------------


def test_syntax_error_raises_with_its_line_after_extracting_the_rest() -> None:
    source = SourceFile(
        path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text=f"git clone -b v1 {URL}\nif then fi )\n"
    )
    with pytest.raises(ExtractError, match=r"^line 2: shell syntax error"):
        extract_shell_file(source)
    assert source.pins == [
        pin(
            Via.CLONE_BRANCH,
            span(1, 14, 16),
            ref="v1",
            ref_text="v1",
            url_span=span(1, 17, 43),
            clone_span=span(1, 1, 10),
        ),
    ]


def test_valid_scripts_do_not_raise() -> None:
    text = (
        "#!/usr/bin/env bash\n"
        "set -euo pipefail\n"
        'cd "$(dirname "$0")"\n'
        'arr=(a b); echo "${arr[@]}" ${#arr[@]} ${X#pre} ${X%%suf} $((1 + 2))\n'
        "[[ $X =~ ^v[0-9]+ ]] && echo ok\n"
        'python3 -m verl.trainer.main_ppo \\\n    data.x=1 \\\n    trainer.y="${Y}" \\\n'  # ends with `\`
    )
    source = SourceFile(path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text=text)
    extract_shell_file(source)
    assert (source.pins, source.notices) == ([], [])


def test_nested_script_that_does_not_parse_is_a_notice() -> None:
    source = SourceFile(
        path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text=f"bash -c 'git clone {URL}; if'\n"
    )
    extract_shell_file(source)
    assert [pin.url for pin in source.pins] == [URL]
    assert source.notices == [
        "line 1: the script given to bash -c does not parse; reflint read what it could"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "echo " + "$(" * 1000 + f"git clone {URL}" + ")" * 1000 + "\n",
        "if true; then " * 1000 + f"git clone {URL}" + "; fi" * 1000 + "\n",
        "( " * 1000 + f"git clone {URL}" + " )" * 1000 + "\n",
        "f() { g; }\n" * 1000 + f"g() {{ git clone {URL}; }}\nf\n",
        f"git clone -b {'${A:-' * 1000}v1{'}' * 1000} {URL}\n",
    ],
)
def test_deeply_nested_input_does_not_exhaust_the_stack(text: str) -> None:
    assert [pin.url for pin in extract(text)] == [URL]


@given(
    st.text(
        alphabet=st.sampled_from(list("git clone checkout pip+@:/$ {}()'\"`\\\n#;&|<>=-.abcé中\r"))
        | st.characters(),
        max_size=80,
    )
)
def test_arbitrary_text_raises_nothing_but_extract_error(text: str) -> None:
    session = ShellSession(PATH, FileKind.SHELL, Scope())
    script = "git " + text
    try:
        session.run(script, SourceMap.identity(script))
    except ExtractError as error:
        # A syntax error, said where it is: a line of the script.
        number = re.match(r"line (\d+): ", str(error))
        assert number is not None, str(error)
        assert 1 <= int(number[1]) <= len(re.split(r"\r\n|\r|\n", script)), str(error)
    assert [pin.path for pin in session.finish()] == [PATH] * len(session.finish())


@given(
    st.lists(
        st.tuples(
            st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._/", min_size=1, max_size=12),
            st.sampled_from(("", "'", '"')),
            st.sampled_from(("\n", "; ", " && ", " || true\n", " \\\n  && ")),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_each_clone_of_a_well_formed_script_is_a_pin_at_its_ref(clones: list[tuple[str, str, str]]) -> None:
    """The control for the property above: a parser that always failed would pass it, not this one."""
    text, expected = "", []
    for ref, quote, separator in clones:
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + len("git clone --branch ") + len(quote) + 1
        expected.append((URL, ref, span(line, column, column + len(ref))))
        text += f"git clone --branch {quote}{ref}{quote} {URL}{separator}"
    text = text.rstrip("&|; \\\n") + "\n"  # no operator without a command after it

    assert [(found.url, found.ref, found.span) for found in extract(text)] == expected


def test_text_without_git_is_not_parsed_even_when_invalid() -> None:
    source = SourceFile(path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text="if then (((\n")
    extract_shell_file(source)
    assert (source.pins, source.notices) == ([], [])


def test_git_only_in_comments_reads_no_code_but_syntax_errors_still_raise() -> None:
    """Comments never count: the script reads as if they were blank (here, no notice for the heredoc
    that bash could not parse), while the same script with git in its code is read."""
    body = "bash <<EOF\nif then\nEOF\n"
    commented = SourceFile(
        path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text=f"# pip install git+{URL}\n{body}"
    )
    extract_shell_file(commented)
    assert (commented.pins, commented.notices) == ([], [])
    in_code = SourceFile(path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text=f"echo git\n{body}")
    extract_shell_file(in_code)
    assert in_code.notices == ["line 3: the script given to bash does not parse; reflint read what it could"]
    broken = SourceFile(
        path=PATH, abspath="/x/build.sh", kind=FileKind.SHELL, text=f"# git clone {URL}\nif then fi )\n"
    )
    with pytest.raises(ExtractError, match=r"^line 2: shell syntax error"):
        extract_shell_file(broken)


def test_git_only_in_comments_is_read_when_a_variable_of_the_caller_mentions_git() -> None:
    scope = Scope()
    scope.set("GIT", Binding("git"))
    url = "https://example.com/o/r"
    assert [(pin.via, pin.url) for pin in extract(f"$GIT clone {url}  # git\n", scope)] == [(Via.CLONE, url)]


def test_may_pin_needs_git_in_the_text_or_in_a_variable_it_uses() -> None:
    scope = Scope()
    scope.set("REQ", Binding(f"git+{URL}@v1"))
    session = ShellSession(PATH, FileKind.SHELL, scope)
    assert session.may_pin("git clone x")
    assert session.may_pin("pip install $REQ")
    assert not session.may_pin("pip install $OTHER")
    assert not session.may_pin("echo hi")


@pytest.mark.parametrize(
    ("text", "note"),
    [
        (
            f"git clone -b $i {URL}\nfor ((i = 0; i < 3; i++)); do :; done\n",
            "$i is used before it is assigned on line 2",
        ),
        (f"git clone -b $V {URL}\nfor V in a; do :; done\n", "$V is used before it is assigned on line 2"),
        (f"git clone -b $V {URL}\nselect V in a; do :; done\n", "$V is used before it is assigned on line 2"),
        (f"git clone -b $R {URL}\nR+=v1\n", "$R is used before it is assigned on line 2"),
        (
            f'git clone -b $R {URL}\necho "# R=v0"\n# R=v1\n# R=v2\n',
            "$R is only assigned on a commented-out line (line 3)",
        ),
        (
            f"git clone -b $R {URL}\n$(true # R=v1\n)\n",
            "$R is only assigned on a commented-out line (line 2)",
        ),
    ],
)
def test_where_a_variable_is_assigned_later_or_only_in_comments(text: str, note: str) -> None:
    pins = extract(text)
    assert [(pin.ref, pin.resolution, pin.resolution_note) for pin in pins] == [
        (None, Resolution.EMPTY, note)
    ]
