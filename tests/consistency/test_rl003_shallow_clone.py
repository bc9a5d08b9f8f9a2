"""RL003 shallow-clone-needs-history: full-history remotes, and checkouts that a shallow clone cannot hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.model import Related, RemoteRefs

from .helpers import findings_in, record

TIP = "0123456789abcdef0123456789abcdef01234567"
OTHER = "89abcdef0123456789abcdef0123456789abcdef"
DEEPEP = "github.com/deepseek-ai/deepep"
DEEPEP_URL = "https://github.com/deepseek-ai/DeepEP.git"
DEEPEP_REFS = RemoteRefs(DEEPEP, branches={"main": TIP, "hybrid-ep": OTHER}, tags={"v1.2.1": OTHER}, head=TIP)
#: The related location of a finding whose fix deletes the shallow option: the option as written.
SHALLOW = "the shallow option, which the fix deletes"


def test_a_shallow_clone_of_a_full_history_remote_is_an_error(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu\n"
        "RUN git clone --depth 1 https://gitcode.com/Ascend/MindSpeed.git && \\\n"
        "    cd MindSpeed && git checkout f2b0977e\n"
    )
    found = findings_in(tmp_path, {"Dockerfile": dockerfile}, "RL003")
    assert [record(f) for f in found] == [
        (
            "RL003",
            "Dockerfile",
            3,
            34,
            42,
            "a shallow clone (`--depth 1`) of gitcode.com/ascend/mindspeed, which the rule pack lists under "
            'full-history-remotes: its commits are checked out by id (here "f2b0977e"), and a shallow clone '
            "holds only the newest ones; drop the shallow option",
            (Related("Dockerfile", 2, 15, SHALLOW),),
        )
    ]


@pytest.mark.parametrize(
    ("clone", "folder", "shallow", "remote", "span"),
    [
        (
            "git clone --depth=1 --branch core_r0.12.1 https://github.com/Ascend/MindSpeed",
            "MindSpeed",
            "`--depth 1`",
            "github.com/ascend/mindspeed",
            (30, 42),  # the ref the clone takes
        ),
        (
            "git clone --shallow-since=2024-01-01 https://GITCODE.com/ascend/mindspeed.git",
            "mindspeed",
            "`--shallow-since`/`--shallow-exclude`",
            "gitcode.com/ascend/mindspeed",
            (38, 78),  # no ref: the URL
        ),
    ],
)
def test_any_shallow_form_and_any_case_of_a_listed_remote_counts(
    tmp_path: Path, clone: str, folder: str, shallow: str, remote: str, span: tuple[int, int]
) -> None:
    script = f"{clone}\ncd {folder} && git describe --tags\n"
    found = findings_in(tmp_path, {"install.sh": script}, "RL003")
    assert [record(f) for f in found] == [
        (
            "RL003",
            "install.sh",
            1,
            *span,
            f"a shallow clone ({shallow}) of {remote}, which the rule pack lists under full-history-remotes: "
            "`git describe` reads its history, and a shallow clone holds only the newest ones; drop the "
            "shallow option",
            (Related("install.sh", 1, 11, SHALLOW), Related("install.sh", 2, 17, "`git describe`")),
        )
    ]


@pytest.mark.parametrize(
    "then",
    [
        "pip install -e MindSpeed",
        "cd MindSpeed && git log -1 --format=%H && git rev-list -n 1 HEAD",
        "cd MindSpeed && git checkout core_r0.12.1",
    ],
)
def test_a_shallow_clone_of_a_listed_remote_that_nothing_reads_further_back_is_fine(
    tmp_path: Path, then: str
) -> None:
    # MindSpeed-LLM's devcontainer: a shallow clone of a release branch, then an editable install.
    dockerfile = (
        "FROM ubuntu\n"
        "ARG MINDSPEED_BRANCH=core_r0.12.1\n"
        "RUN git clone --depth 1 --branch ${MINDSPEED_BRANCH} \\\n"
        "    https://gitcode.com/Ascend/MindSpeed.git && \\\n"
        f"    {then}\n"
    )
    assert findings_in(tmp_path, {"Dockerfile": dockerfile}, "RL003") == []


def test_a_checkout_that_cannot_be_resolved_needs_a_listed_remotes_history(tmp_path: Path) -> None:
    script = (
        'git clone --depth 1 https://gitcode.com/Ascend/MindSpeed.git\ncd MindSpeed\ngit checkout "$COMMIT"\n'
    )
    found = findings_in(tmp_path, {"install.sh": script}, "RL003")
    assert [record(f) for f in found] == [
        (
            "RL003",
            "install.sh",
            3,
            15,
            22,
            "a shallow clone (`--depth 1`) of gitcode.com/ascend/mindspeed, which the rule pack lists under "
            "full-history-remotes: the checkout of `$COMMIT` needs another commit than the one cloned, and a "
            "shallow clone holds only the newest ones; drop the shallow option",
            (Related("install.sh", 1, 11, SHALLOW),),
        )
    ]


def test_a_full_clone_of_a_full_history_remote_is_fine(tmp_path: Path) -> None:
    script = "git clone https://gitcode.com/Ascend/MindSpeed.git\ncd MindSpeed && git checkout f2b0977e\n"
    assert findings_in(tmp_path, {"install.sh": script}, "RL003") == []


def test_a_commit_checked_out_from_a_depth_1_clone_is_an_error(tmp_path: Path) -> None:
    script = (
        "git clone --depth 1 https://github.com/deepseek-ai/DeepEP.git\n"
        "cd DeepEP\n"
        f"git reset --hard {OTHER[:8]}\n"
    )
    found = findings_in(tmp_path, {"install.sh": script}, "RL003")
    assert [record(f) for f in found] == [
        (
            "RL003",
            "install.sh",
            3,
            18,
            26,
            'the checkout of commit "89abcdef" follows a shallow clone (`--depth 1`) of the default branch '
            "of github.com/deepseek-ai/deepep, which holds only the newest commits of the default branch, so "
            "the checkout fails (or breaks once the default branch moves on); drop the shallow option, or "
            "fetch the commit with `git fetch --depth 1 origin <full commit id>` and check out FETCH_HEAD",
            (Related("install.sh", 1, 11, SHALLOW),),
        )
    ]


def test_a_commit_that_is_the_tip_of_the_cloned_branch_is_held(tmp_path: Path) -> None:
    script = f"git clone --depth 1 {DEEPEP_URL}\ncd DeepEP && git checkout {TIP[:8]}\n"
    assert findings_in(tmp_path, {"install.sh": script}, "RL003", {DEEPEP: DEEPEP_REFS}) == []
    # Without the ref list, the commit may be any: reported.
    assert [record(f) for f in findings_in(tmp_path, {"install.sh": script}, "RL003")] == [
        (
            "RL003",
            "install.sh",
            2,
            27,
            35,
            'the checkout of commit "01234567" follows a shallow clone (`--depth 1`) of the default '
            f"branch of {DEEPEP}, which holds only the newest commits of the default branch, so the "
            "checkout fails (or breaks once the default branch moves on); drop the shallow option, or "
            "fetch the commit with `git fetch --depth 1 origin <full commit id>` and check out FETCH_HEAD",
            (Related("install.sh", 1, 11, SHALLOW),),
        )
    ]


def test_fetching_the_commit_then_checking_it_out_works(tmp_path: Path) -> None:
    script = (
        "git clone --depth 1 https://github.com/deepseek-ai/DeepEP.git && cd DeepEP\n"
        f"git fetch --depth 1 origin {OTHER}\n"
        "git checkout FETCH_HEAD\n"
        "cd .. && git clone --depth 1 https://github.com/o/other.git && cd other\n"
        f"git fetch --depth 1 origin {OTHER} && git checkout {OTHER}\n"
    )
    assert findings_in(tmp_path, {"install.sh": script}, "RL003") == []


def test_another_branch_or_tag_than_the_cloned_one_is_an_error(tmp_path: Path) -> None:
    script = f"git clone --depth 1 -b main {DEEPEP_URL}\ncd DeepEP && git checkout v1.2.1\n"
    found = findings_in(tmp_path, {"install.sh": script}, "RL003")
    assert [record(f) for f in found] == [
        (
            "RL003",
            "install.sh",
            2,
            27,
            33,
            'the checkout of "v1.2.1" follows a shallow clone (`--depth 1`) of "main" of '
            "github.com/deepseek-ai/deepep, which holds no other branch, and only the tags at the tip of "
            '"main", so the checkout fails (or breaks once "main" moves on); clone it directly with '
            "`git clone --depth 1 --branch v1.2.1`, or drop the shallow option",
            (Related("install.sh", 1, 11, SHALLOW),),
        )
    ]


def test_a_name_checked_out_from_a_default_branch_clone_needs_the_ref_list(tmp_path: Path) -> None:
    files = {
        "a.sh": f"git clone --depth 1 {DEEPEP_URL} && cd DeepEP && git checkout main\n",
        "b.sh": f"git clone --depth 1 {DEEPEP_URL} && cd DeepEP && git checkout v1.2.1\n",
        "c.sh": f"git clone --depth 1 {DEEPEP_URL} && cd DeepEP && git checkout hybrid-ep\n",
    }
    assert findings_in(tmp_path, files, "RL003") == []  # "main" may be the default branch: not known
    found = findings_in(tmp_path, files, "RL003", {DEEPEP: DEEPEP_REFS})
    assert [record(f) for f in found] == [
        (
            "RL003",
            path,
            1,
            92,
            92 + len(ref),
            f'the checkout of "{ref}" follows a shallow clone (`--depth 1`) of the default branch of '
            f"{DEEPEP}, which holds no other branch, and only the tags at the tip of the default branch, so "
            "the checkout fails (or breaks once the default branch moves on); clone it directly with `git "
            f"clone --depth 1 --branch {ref}`, or drop the shallow option",
            (Related(path, 1, 11, SHALLOW),),
        )
        for path, ref in (("b.sh", "v1.2.1"), ("c.sh", "hybrid-ep"))
    ]


def test_checking_out_the_cloned_ref_or_a_tag_at_its_tip_is_fine(tmp_path: Path) -> None:
    refs = RemoteRefs(DEEPEP, branches={"main": TIP}, tags={"v1.3": TIP}, head=TIP)
    files = {
        "a.sh": "git clone --depth 1 -b v1.3 https://github.com/deepseek-ai/DeepEP.git && cd DeepEP && "
        "git checkout v1.3\n",
        "b.sh": "git clone --depth 1 -b main https://github.com/deepseek-ai/DeepEP.git && cd DeepEP && "
        "git checkout v1.3\n",
    }
    assert findings_in(tmp_path, files, "RL003", {DEEPEP: refs}) == []


def test_an_unshallowed_clone_is_fine(tmp_path: Path) -> None:
    script = (
        "git clone --depth 1 https://github.com/deepseek-ai/DeepEP.git && cd DeepEP\n"
        "git fetch --unshallow\n"
        f"git checkout {OTHER}\n"
    )
    assert findings_in(tmp_path, {"install.sh": script}, "RL003") == []
