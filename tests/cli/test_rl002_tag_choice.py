"""Which tag RL002 suggests when several tags spell the branch's version, through the command line.

The order (``same_version_tags`` in ascend_reflint/check/suggest.py): the tag whose letters are closest to
the branch's, then the shorter name, then byte order. The remotes are real ``git ls-remote`` lines:

- NVIDIA/Megatron-LM: branch ``core_r0.11.0`` and tags ``core_v0.11.0`` (annotated) and ``v0.11.0`` on one
  commit. The letters decide: ``core_v0.11.0``, although ``v0.11.0`` is shorter. (Upstream also has a tag
  ``core_r0.11.0``, which makes the pin RL013's ambiguity; it is left out here.)
- actions/checkout: branch ``releases/v1`` and tags ``1.0.0``, ``v1`` (annotated) and ``v1.0.0``. ``v1`` and
  ``v1.0.0`` have the same letters, so the shorter wins: ``v1``, although ``1.0.0`` comes first in the
  list git prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

from ascend_reflint.cli import main

MEGATRON_REFS = [
    ("6631348cfe94aade38939d091f4b27c091826646", "refs/heads/core_r0.11.0"),
    ("a272a9ab7c79e1cd5dee8f1b836fea2fa7385413", "refs/tags/core_v0.11.0"),
    ("aa6207e2da6bca789375f591c9124aa408d2509a", "refs/tags/core_v0.11.0^{}"),
    ("aa6207e2da6bca789375f591c9124aa408d2509a", "refs/tags/v0.11.0"),
]
CHECKOUT_REFS = [
    ("0b496e91ec7ae4428c3ed2eeb4c3a40df431f2cc", "refs/heads/releases/v1"),
    ("af513c7a016048ae468971c52ed77d9562c7c819", "refs/tags/1.0.0"),
    ("544eadc6bf3d226fd7a7a9f0dc5b5bf7ca0675b9", "refs/tags/v1"),
    ("50fbc622fc4ef5163becd7fab6573eac35f8462e", "refs/tags/v1^{}"),
    ("af513c7a016048ae468971c52ed77d9562c7c819", "refs/tags/v1.0.0"),
]
DOCKERFILE = """\
FROM ubuntu:22.04
RUN git clone --depth 1 --branch core_r0.11.0 https://github.com/NVIDIA/Megatron-LM.git /opt/megatron
RUN git clone --depth 1 --branch releases/v1 https://github.com/actions/checkout.git /opt/checkout
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with DOCKERFILE, its two remotes served from local repositories."""
    remotes = tmp_path / "remotes"
    build_repo(remotes / "github.com" / "NVIDIA" / "Megatron-LM.git", MEGATRON_REFS)
    build_repo(remotes / "github.com" / "actions" / "checkout.git", CHECKOUT_REFS)
    set_env(monkeypatch, insteadof_env(remotes))
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_rl002_suggests_the_tag_closest_in_letters_then_the_shortest(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "--cache-dir", str(tmp_path / "cache")])

    assert code == 1
    assert capsys.readouterr().out.splitlines() == [
        'Dockerfile:2:34: RL002 [error] ref "core_r0.11.0" is a branch of github.com/nvidia/megatron-lm, '
        'which moves whenever a commit lands on it: pin its release tag "core_v0.11.0"',
        'Dockerfile:3:34: RL002 [error] ref "releases/v1" is a branch of github.com/actions/checkout, which '
        'moves whenever a commit lands on it: pin its release tag "v1"',
        "",
        "2 errors, 0 warnings, 0 info in 1 of 1 file (2 pins, 2 remotes: 2 checked (0 cached), 0 not "
        "checked)",
        "2 fixable with --fix --unsafe-fixes",
    ]
    assert main(["scan", "--cache-dir", str(tmp_path / "cache"), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [(f["code"], f["ref"], f["suggestion"]) for f in document["findings"]] == [
        ("RL002", "core_r0.11.0", "core_v0.11.0"),
        ("RL002", "releases/v1", "v1"),
    ]
