"""``reflint scan`` of the data kinds against real ``git ls-remote`` of local bare repositories: each existing
rule says what submodules, uv, Poetry, pre-commit and conda do with the refs they pin.

A submodule's recorded commit is verified in its remote's history: the Megatron-LM one (a tag's commit) gives
nothing, the MindSpeed one (a commit the remote never had) RL001. What the exact list shows by leaving out:
no RL008 for a recorded commit that verification confirmed; no RL001 for Poetry's
``branch = "v0.11.0rc3"``, a tag, which Poetry takes when no branch has the name; no finding for a pre-commit
``rev`` written as a refspec whose source exists (``refs/tags/v4:refs/tags/v4``). RL005 compares a
submodule's commit with a tag elsewhere as text: without the commit behind the tag it cannot tell them equal.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

from ascend_reflint.cli import main

FILES = {
    ".gitmodules": """\
[submodule "Megatron-LM"]
\tpath = third_party/Megatron-LM
\turl = https://github.com/NVIDIA/Megatron-LM.git
\tbranch = core_r0.18.1
[submodule "MindSpeed"]
\tpath = third_party/MindSpeed
\turl = https://gitcode.com/Ascend/MindSpeed.git
\tshallow = true
""",
    "pyproject.toml": """\
[tool.uv.sources]
megatron-core = { git = "https://github.com/NVIDIA/Megatron-LM.git", tag = "core_r0.18.0" }
vllm-ascend = { git = "https://github.com/vllm-project/vllm-ascend.git", rev = "main" }
mindspeed = { git = "https://gitcode.com/Ascend/MindSpeed.git" }

[tool.poetry.group.npu.dependencies]
vllm-ascend = { git = "https://github.com/vllm-project/vllm-ascend.git", branch = "v0.11.0rc3" }
""",
    ".pre-commit-config.yaml": """\
repos:
  - repo: https://github.com/actions/checkout
    rev: main
  - repo: https://github.com/actions/checkout
    rev: refs/tags/v9:refs/tags/v9
  - repo: https://github.com/actions/checkout
    rev: refs/tags/v4:refs/tags/v4
""",
    "environment.yml": """\
dependencies:
  - pip:
    - vllm-ascend @ git+https://github.com/vllm-project/vllm-ascend.git@v0.11.0rc9
""",
}
#: A commit that neither the remote's history nor its server has (RL001 says `git submodule update` fails).
ABSENT_COMMIT = "89abcdef0123456789abcdef0123456789abcdef"


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    mirror = (remotes.root / "github.com" / "Ascend").resolve()
    set_env(monkeypatch, remotes.env(extra=[(f"url.{mirror}/.insteadOf", "https://gitcode.com/Ascend/")]))
    root = tmp_path / "project"
    root.mkdir()
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    megatron_tag = remotes["github.com/NVIDIA/Megatron-LM"].tags["core_v0.12.1"]  # verified: no finding
    for path, commit in (("third_party/Megatron-LM", megatron_tag), ("third_party/MindSpeed", ABSENT_COMMIT)):
        info = f"160000,{commit},{path}"
        subprocess.run(["git", "update-index", "--add", "--cacheinfo", info], cwd=root, check=True, env=env)
    monkeypatch.chdir(root)
    return root


def test_each_rule_names_what_the_tool_does(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "--fail-on", "info"])
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    found = [
        (f["code"], f["severity"], f["path"], f["line"], f["column"], f["end_column"], f["message"])
        for f in document["findings"]
    ]
    assert found == EXPECTED


FOLDER = "the files of folder '.' should pin one ref (or list the remote under drift-allowed-remotes)"
EXPECTED = [
    (
        "RL005",
        "warning",
        ".gitmodules",
        3,
        8,
        49,
        'github.com/nvidia/megatron-lm is pinned at "bb4b093c07d6e30246cc5618b01df07586e661eb" here, '
        'but at "core_r0.18.0" in pyproject.toml; ' + FOLDER,
    ),
    (
        "RL001",
        "error",
        ".gitmodules",
        4,
        11,
        23,
        'ref "core_r0.18.1" names branch "core_r0.18.1", which github.com/nvidia/megatron-lm does '
        "not have, so `git submodule update --remote` fails; no ref names that version; the most "
        'similar of its 4 branches and 6 tags are "core_v0.18.0", "core_v0.18.2", "core_r0.18.0"',
    ),
    (
        "RL001",
        "error",
        ".gitmodules",
        7,
        8,
        48,
        'commit "89abcdef0123456789abcdef0123456789abcdef" is not in gitcode.com/ascend/mindspeed: '
        "no branch or tag of it contains the commit, and the server does not have it, so `git "
        "submodule update` fails",
    ),
    (
        "RL003",
        "error",
        ".gitmodules",
        7,
        8,
        48,
        "a shallow submodule (`shallow = true`) of gitcode.com/ascend/mindspeed, which the rule "
        "pack lists under full-history-remotes: its commits are checked out by id, and a shallow "
        "clone holds only the newest ones; drop the shallow option",
    ),
    (
        "RL002",
        "warning",
        ".pre-commit-config.yaml",
        3,
        10,
        14,
        'ref "main" is a branch of github.com/actions/checkout, which moves whenever a commit lands '
        'on it: pin a release tag (newest: "v4.4.0") or a commit id',
    ),
    (
        "RL001",
        "error",
        ".pre-commit-config.yaml",
        5,
        10,
        35,
        'ref "refs/tags/v9:refs/tags/v9" names tag "v9", which github.com/actions/checkout does not '
        "have, so pre-commit cannot install the hooks; no ref names that version; the most similar "
        'of its 1 branch and 3 tags are "v4", "v4.3.0", "v4.4.0"',
    ),
    (
        "RL001",
        "error",
        "environment.yml",
        3,
        73,
        83,
        'ref "v0.11.0rc9" is neither a branch nor a tag of github.com/vllm-project/vllm-ascend, so '
        'pip fails; the closest of its 1 branch and 5 tags is tag "v0.11.0rc3"',
    ),
    (
        "RL005",
        "warning",
        "environment.yml",
        3,
        73,
        83,
        'github.com/vllm-project/vllm-ascend is pinned at "v0.11.0rc9" here, but at "main" in '
        'pyproject.toml and at "v0.11.0rc3" in pyproject.toml; ' + FOLDER,
    ),
    (
        "RL001",
        "error",
        "pyproject.toml",
        2,
        77,
        89,
        'ref "core_r0.18.0" names tag "core_r0.18.0", which github.com/nvidia/megatron-lm does not '
        'have, so uv fails: "core_r0.18.0" is a branch there',
    ),
    (
        "RL005",
        "warning",
        "pyproject.toml",
        2,
        77,
        89,
        'github.com/nvidia/megatron-lm is pinned at "core_r0.18.0" here, but at '
        '"bb4b093c07d6e30246cc5618b01df07586e661eb" in .gitmodules; ' + FOLDER,
    ),
    (
        "RL002",
        "error",
        "pyproject.toml",
        3,
        81,
        85,
        'ref "main" is a branch of github.com/vllm-project/vllm-ascend, which moves whenever a '
        "commit lands on it, and github.com/vllm-project/vllm-ascend releases by tag: pin a release "
        'tag (newest: "v0.9.1") or a commit id',
    ),
    (
        "RL005",
        "warning",
        "pyproject.toml",
        3,
        81,
        85,
        'github.com/vllm-project/vllm-ascend is pinned at "main" here, but at "v0.11.0rc9" in '
        "environment.yml; " + FOLDER,
    ),
    (
        "RL015",
        "warning",
        "pyproject.toml",
        4,
        22,
        62,
        "the uv git source of gitcode.com/ascend/mindspeed pins no ref, so the lock file takes "
        'whatever the default branch holds on the day it is made or updated; add `tag = "<tag>"` '
        '(newest release: "v2.2.0_core_r0.12.1") or `rev = "<commit id>"`',
    ),
    (
        "RL005",
        "warning",
        "pyproject.toml",
        7,
        84,
        94,
        'github.com/vllm-project/vllm-ascend is pinned at "v0.11.0rc3" here, but at "v0.11.0rc9" in '
        "environment.yml; " + FOLDER,
    ),
]
