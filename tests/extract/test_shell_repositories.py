"""The shell extractor on what a user trial found: which word of ``git clone`` is the repository, one pin
per checkout, refs written empty, and ``git fetch URL REF`` into a fresh repository.

Columns in the expected values are counted by hand from the fixtures (1-based, end exclusive).
"""

from __future__ import annotations

from typing import Any

import pytest

from ascend_reflint.extract.shell import ShellSession
from ascend_reflint.model import FileKind, Origin, Pin, Resolution, Span, Via
from ascend_reflint.resolve import Binding, Scope
from ascend_reflint.sourcemap import SourceMap

PATH = "build.sh"
URL = "https://github.com/o/r.git"  # 26 characters
REMOTE = "github.com/o/r"
DEEPEP = "https://github.com/deepseek-ai/DeepEP.git"  # 41 characters
VLLM = "https://github.com/vllm-project/vllm.git"  # 40 characters
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def extract(text: str, scope: Scope | None = None) -> list[Pin]:
    session = ShellSession(PATH, FileKind.SHELL, scope if scope is not None else Scope())
    session.run(text, SourceMap.identity(text))
    return session.finish()


def span(line: int, column: int, end_column: int) -> Span:
    return Span(line, column, line, end_column)


def pin(via: Via, at: Span, **fields: Any) -> Pin:
    values: dict[str, Any] = {"url": URL, "remote": REMOTE, "ref": None, "ref_text": None}
    values.update(fields)
    return Pin(path=PATH, kind=FileKind.SHELL, via=via, span=at, **values)


# --- the repository is the first positional of git clone -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'git clone --branch v1.2.1 "ext::sh -c touch% /tmp/pwned" /opt/DeepEP\n',
            pin(
                Via.CLONE_BRANCH,
                span(1, 20, 26),
                url="ext::sh -c touch% /tmp/pwned",  # kept, so that RL011 refuses it
                remote=None,
                ref="v1.2.1",
                ref_text="v1.2.1",
                url_span=span(1, 28, 56),
                clone_span=span(1, 1, 10),
            ),
        ),
        (
            'git clone "$UNSET_URL" /opt/a\n',
            pin(
                Via.CLONE,
                span(1, 12, 22),
                url="$UNSET_URL",
                remote=None,
                resolution=Resolution.UNRESOLVED,
                resolution_note="$UNSET_URL is not set in this file",
                url_span=span(1, 12, 22),
                clone_span=span(1, 1, 10),
            ),
        ),
        (
            "git clone $(cat url.txt) /opt/b\n",
            pin(
                Via.CLONE,
                span(1, 11, 25),
                url="$(cat url.txt)",
                remote=None,
                resolution=Resolution.UNRESOLVED,
                resolution_note="command substitution",
                url_span=span(1, 11, 25),
                clone_span=span(1, 1, 10),
            ),
        ),
        (
            'REPO=$(jq -r .url meta.json); git clone "$REPO" /opt/d\n',
            pin(
                Via.CLONE,
                span(1, 42, 47),
                url="$REPO",
                remote=None,
                resolution=Resolution.UNRESOLVED,
                resolution_note="$REPO (line 1): command substitution",
                url_span=span(1, 42, 47),
                clone_span=span(1, 31, 40),
            ),
        ),
        (
            'git clone -- "--upload-pack=touch /tmp/x" /opt/y\n',
            pin(
                Via.CLONE,
                span(1, 15, 41),
                url="--upload-pack=touch /tmp/x",  # kept, so that RL011 refuses it
                remote=None,
                url_span=span(1, 15, 41),
                clone_span=span(1, 1, 10),
            ),
        ),
        (
            # vllm-ascend's .github/workflows/dockerfiles/Dockerfile.nightly.a3
            'git clone -b ${AIS_BENCH_TAG} --depth 1 "${CLONE_URL}" /vllm-workspace/vllm-ascend/benchmark\n',
            pin(
                Via.CLONE_BRANCH,
                span(1, 14, 30),
                url="${CLONE_URL}",
                remote=None,
                ref=None,
                ref_text="${AIS_BENCH_TAG}",
                resolution=Resolution.UNRESOLVED,
                resolution_note="$AIS_BENCH_TAG is not set in this file",
                url_span=span(1, 42, 54),
                clone_span=span(1, 1, 10),
                depth=1,
                shallow=True,
            ),
        ),
    ],
)
def test_the_repository_is_the_first_positional_and_the_directory_is_never_the_url(
    text: str, expected: Pin
) -> None:
    assert extract(text) == [expected]


def test_a_split_word_before_a_url_is_taken_for_options() -> None:
    text = f"git clone $OPTS {URL} /opt/r\ngit clone $OPTS {URL}\n"
    assert extract(text) == [
        pin(Via.CLONE, span(1, 17, 43), url_span=span(1, 17, 43), clone_span=span(1, 1, 10)),
        pin(Via.CLONE, span(2, 17, 43), url_span=span(2, 17, 43), clone_span=span(2, 1, 10)),
    ]


def test_checkout_in_the_directory_of_a_clone_of_an_unresolved_url_is_its_pin() -> None:
    text = 'git clone "$UNSET_URL" /opt/a && cd /opt/a && git checkout v1\n'
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 60, 62),
            url="$UNSET_URL",
            remote=None,
            ref="v1",
            ref_text="v1",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$UNSET_URL is not set in this file",
            url_span=span(1, 12, 22),
            clone_span=span(1, 1, 10),
        )
    ]


# --- every checkout is a pin ----------------------------------------------------------------------------


def test_each_checkout_of_a_clone_is_a_pin_with_the_fetched_ref_known_at_that_point() -> None:
    text = (
        "cd /w\n"
        f"git clone --depth=1 {DEEPEP} && cd DeepEP && git checkout a84a248\n"
        "cd /w/DeepEP && git fetch origin v1.2.1 && git checkout FETCH_HEAD\n"
    )
    clone = {
        "url": DEEPEP,
        "remote": "github.com/deepseek-ai/deepep",
        "url_span": span(2, 21, 62),
        "clone_span": span(2, 1, 10),
        "depth": 1,
        "shallow": True,
    }
    assert extract(text) == [
        pin(Via.CHECKOUT, span(2, 92, 99), ref="a84a248", ref_text="a84a248", **clone),
        # FETCH_HEAD pins the fetched ref where the fetch writes it
        pin(Via.CHECKOUT, span(3, 34, 40), ref="v1.2.1", ref_text="v1.2.1", fetched_ref="v1.2.1", **clone),
    ]


def test_each_checkout_keeps_the_shallowness_of_its_time_and_the_clone_branch() -> None:
    text = (
        f"git clone --depth 1 -b v1 {URL} r\ncd r\ngit checkout v2\ngit fetch --unshallow\ngit checkout v3\n"
    )
    clone = {
        "clone_ref": "v1",
        "clone_ref_span": span(1, 24, 26),
        "url_span": span(1, 27, 53),
        "clone_span": span(1, 1, 10),
    }
    assert extract(text) == [
        pin(Via.CHECKOUT, span(3, 14, 16), ref="v2", ref_text="v2", depth=1, shallow=True, **clone),
        pin(Via.CHECKOUT, span(5, 14, 16), ref="v3", ref_text="v3", **clone),
    ]


def test_every_checkout_in_a_clone_of_an_unknown_directory_is_found() -> None:
    text = 'git clone "$REPO_URL" && cd sglang && git checkout v1 && git checkout v2\n'
    unresolved = {
        "url": "$REPO_URL",
        "remote": None,
        "resolution": Resolution.UNRESOLVED,
        "resolution_note": "$REPO_URL is not set in this file",
        "url_span": span(1, 12, 21),
        "clone_span": span(1, 1, 10),
    }
    assert extract(text) == [
        pin(Via.CHECKOUT, span(1, 52, 54), ref="v1", ref_text="v1", **unresolved),
        pin(Via.CHECKOUT, span(1, 71, 73), ref="v2", ref_text="v2", **unresolved),
    ]


def test_a_second_clone_of_an_unknown_directory_is_not_taken_by_the_first_ones_checkouts() -> None:
    text = 'git clone "$A" && cd a && git checkout v1\ncd .. && git clone "$B" && cd b && git checkout v2\n'
    pins = extract(text)
    assert [(pin.url, pin.ref, pin.span) for pin in pins] == [
        ("$A", "v1", span(1, 40, 42)),
        ("$B", "v2", span(2, 49, 51)),
    ]


# --- refs written empty ---------------------------------------------------------------------------------


EMPTY = {"ref": "", "ref_text": "", "resolution": Resolution.EMPTY, "resolution_note": "the ref is empty"}


@pytest.mark.parametrize(
    ("text", "ref_span", "url_span"),
    [
        (f'git clone --branch "" {URL}\n', span(1, 20, 22), span(1, 23, 49)),  # the quotes
        (f"git clone -b '' {URL}\n", span(1, 14, 16), span(1, 17, 43)),
        (f'git clone --branch="" {URL}\n', span(1, 20, 22), span(1, 23, 49)),
        (f"git clone --branch= {URL}\n", span(1, 11, 20), span(1, 21, 47)),  # nothing written: the option
    ],
)
def test_a_clone_branch_written_empty_is_an_empty_ref(text: str, ref_span: Span, url_span: Span) -> None:
    assert extract(text) == [
        pin(Via.CLONE_BRANCH, ref_span, url_span=url_span, clone_span=span(1, 1, 10), **EMPTY),
    ]


def test_a_checkout_written_empty_is_an_empty_ref() -> None:
    assert extract(f'git clone {URL} r && git -C r checkout ""\n') == [
        pin(Via.CHECKOUT, span(1, 61, 63), url_span=span(1, 11, 37), clone_span=span(1, 1, 10), **EMPTY),
    ]


@pytest.mark.parametrize(
    ("text", "at", "url_span", "url_origin"),
    [
        (f"pip install git+{URL}@\n", span(1, 43, 44), span(1, 17, 43), None),  # the @
        (f'pip install "git+{URL}@#egg=r"\n', span(1, 44, 45), span(1, 18, 44), None),
        # in the value of PKG, whose URL is written in its definition
        (f'PKG="git+{URL}@"; pip install "$PKG"\n', span(1, 53, 57), span(1, 53, 57), span(1, 10, 36)),
    ],
)
def test_a_pip_revision_written_empty_is_an_empty_ref(
    text: str, at: Span, url_span: Span, url_origin: Span | None
) -> None:
    origin = Origin(PATH, url_origin) if url_origin is not None else None
    assert extract(text) == [pin(Via.PIP_VCS, at, url_span=url_span, url_origin=origin, **EMPTY)]


def test_a_variable_whose_value_is_empty_is_unresolved_not_an_empty_ref() -> None:
    # An optional build argument: `ARG VLLM_COMMIT=""` … `if [ -n "$VLLM_COMMIT" ]; then …` (vllm-ascend).
    scope = Scope()
    scope.set("REF", Binding(""))
    text = f'git clone -b "$REF" {URL}\npip install git+{URL}@$REF\n'
    assert extract(text, scope) == [
        pin(
            Via.CLONE_BRANCH,
            span(1, 15, 19),
            ref_text="$REF",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$REF is empty here, so it must come from outside the file",
            url_span=span(1, 21, 47),
            clone_span=span(1, 1, 10),
        ),
        pin(
            Via.PIP_VCS,
            span(2, 44, 48),
            ref_text="$REF",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$REF is empty here, so it must come from outside the file",
            url_span=span(2, 17, 43),
        ),
    ]


# --- git fetch URL REF ----------------------------------------------------------------------------------


def vllm_scope() -> Scope:
    scope = Scope()
    scope.set("VLLM_REPO", Binding(VLLM))
    scope.set("VLLM_COMMIT", Binding(COMMIT))
    return scope


def test_fetch_of_a_url_and_ref_into_a_fresh_repository_then_fetch_head_is_one_checkout_pin() -> None:
    # vllm-ascend's Dockerfile
    text = (
        "git init /vllm-workspace/vllm && \\\n"
        '  git -C /vllm-workspace/vllm fetch --depth 1 $VLLM_REPO "$VLLM_COMMIT" && \\\n'
        "  git -C /vllm-workspace/vllm checkout FETCH_HEAD\n"
    )
    assert extract(text, vllm_scope()) == [
        pin(
            Via.CHECKOUT,
            span(2, 59, 71),  # the ref as the fetch writes it, never FETCH_HEAD
            url=VLLM,
            remote="github.com/vllm-project/vllm",
            ref=COMMIT,
            ref_text="$VLLM_COMMIT",
            url_span=span(2, 47, 57),
            clone_span=span(2, 3, 36),
            depth=1,
            shallow=True,
            fetched_ref=COMMIT,
        ),
    ]


def test_fetch_of_a_url_and_ref_alone_is_a_pin_at_the_ref() -> None:
    text = 'git -C /w fetch --depth 1 $VLLM_REPO "$VLLM_COMMIT"\ngit -C /w checkout main\n'
    assert extract(text, vllm_scope()) == [
        pin(
            Via.CHECKOUT,
            span(1, 39, 51),
            url=VLLM,
            remote="github.com/vllm-project/vllm",
            ref=COMMIT,
            ref_text="$VLLM_COMMIT",
            url_span=span(1, 27, 37),
            clone_span=span(1, 1, 16),
            depth=1,
            shallow=True,
            fetched_ref=COMMIT,
        ),
    ]


def test_fetch_of_a_remote_name_or_without_a_ref_is_no_pin_of_its_own() -> None:
    text = f"git -C /w fetch origin v1\ngit -C /w fetch {URL}\ngit -C /w fetch $UNSET_REMOTE v1\n"
    assert extract(text) == []


def test_fetch_head_after_a_fetch_of_another_url_in_a_clone_is_that_urls_ref() -> None:
    fork = "https://github.com/f/r.git"
    text = (
        f"git clone {URL} r && cd r && git fetch {fork} feat && git checkout FETCH_HEAD && git checkout v1\n"
    )
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 88, 92),
            url=fork,
            remote="github.com/f/r",
            ref="feat",
            ref_text="feat",
            url_span=span(1, 61, 87),
            clone_span=span(1, 51, 60),
            fetched_ref="feat",
        ),
        # A fetch from a URL makes no tag or branch: v1 is the clone's (FETCH_HEAD still names feat).
        pin(
            Via.CHECKOUT,
            span(1, 136, 138),
            ref="v1",
            ref_text="v1",
            url_span=span(1, 11, 37),
            clone_span=span(1, 1, 10),
            fetched_ref="feat",
        ),
    ]


def test_fetch_head_after_a_fetch_of_an_unresolved_ref_is_unresolved_not_the_written_text() -> None:
    # vllm-ascend's tests/e2e/nightly/multi_node/scripts/run.sh; before, the ref was "$PR_REF", resolved.
    text = (
        f"git clone --depth 1 {URL} r && cd r && "
        'git fetch --depth 1 origin "$PR_REF" && git checkout FETCH_HEAD\n'
    )
    assert extract(text) == [
        pin(
            Via.CHECKOUT,
            span(1, 89, 96),
            ref_text="$PR_REF",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$PR_REF is not set in this file",
            url_span=span(1, 21, 47),
            clone_span=span(1, 1, 10),
            depth=1,
            shallow=True,
            fetched_ref="$PR_REF",
        ),
    ]


def test_fetch_head_after_a_fetch_of_an_empty_build_argument_is_unresolved() -> None:
    # vllm-ascend's Dockerfile: `ARG VLLM_COMMIT=""`, used only under `if [ -n "$VLLM_COMMIT" ]`.
    scope = vllm_scope()
    scope.set("VLLM_COMMIT", Binding(""))
    text = 'git -C /w fetch --depth 1 $VLLM_REPO "$VLLM_COMMIT" && git -C /w checkout FETCH_HEAD\n'
    assert extract(text, scope) == [
        pin(
            Via.CHECKOUT,
            span(1, 39, 51),
            url=VLLM,
            remote="github.com/vllm-project/vllm",
            ref_text="$VLLM_COMMIT",
            resolution=Resolution.UNRESOLVED,
            resolution_note="$VLLM_COMMIT is empty here, so it must come from outside the file",
            url_span=span(1, 27, 37),
            clone_span=span(1, 1, 16),
            depth=1,
            shallow=True,
            fetched_ref="$VLLM_COMMIT",
        ),
    ]
