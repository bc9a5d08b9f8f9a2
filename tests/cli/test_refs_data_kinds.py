"""``reflint refs`` on a fixture tree of every data kind: the exact JSON a user gets, traps included.

The tree (``data/data-kinds``) becomes a git work tree whose index records a commit for each submodule path
(``.gitmodules``: a branch, a shallow one, a relative URL resolved against ``origin``, ``branch = .``, a
commented-out entry), beside a ``pyproject.toml`` (a requirement string and a commented one, uv sources in
the list form with a marker, with a tag, without a ref, an index source; a Poetry group; a ``git`` key of
another tool), a pre-commit config (a tag, a frozen commit, ``repo: local`` and ``repo: meta``), a
requirements folder whose file names a constraints file in the root (read) and one outside it (not read),
and a conda environment (a quoted requirement, one behind a comment).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hostile.spans import span_violations

from ascend_reflint.cli import main
from ascend_reflint.inventory import build_inventory

DATA = Path(__file__).parent / "data"
GITLINKS = {
    "3rdparty/MindSpeed": "7969e1c6b61c44fdb09d20607561824675bb216f",
    "3rdparty/Megatron-LM": "a845aa7e12b3a117e24c2352b9e3e60bad2e3a17",
    "recipe": "21892b9276936efab5375c3f6b8415e472ef7118",
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "data-kinds"
    shutil.copytree(DATA / "data-kinds", root)
    (tmp_path / "outside-the-root.txt").write_text(
        "git+https://github.com/o/outside.git@v9\n", encoding="utf-8"
    )
    for command in (
        ["init", "-q"],
        ["remote", "add", "origin", "https://github.com/volcengine/verl.git"],
        *(
            ["update-index", "--add", "--cacheinfo", f"160000,{commit},{path}"]
            for path, commit in GITLINKS.items()
        ),
    ):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    monkeypatch.chdir(root)
    return root


def test_refs_json_is_the_exact_inventory(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--format", "json"]) == 0
    expected = json.loads((DATA / "data-kinds-refs.json").read_text(encoding="utf-8"))
    assert json.loads(capsys.readouterr().out) == expected


def test_refs_text_names_each_way_of_pinning(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", ".gitmodules", ".pre-commit-config.yaml"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        ".gitmodules:3:8: gitcode.com/ascend/mindspeed 7969e1c6b61c44fdb09d20607561824675bb216f (submodule)",
        ".gitmodules:7:8: github.com/nvidia/megatron-lm a845aa7e12b3a117e24c2352b9e3e60bad2e3a17 "
        "(submodule, depth 1)",
        ".gitmodules:12:8: github.com/volcengine/verl-recipe "
        "21892b9276936efab5375c3f6b8415e472ef7118 (submodule)",
        ".pre-commit-config.yaml:3:10: github.com/astral-sh/ruff-pre-commit v0.12.2 (pre-commit)",
        ".pre-commit-config.yaml:7:10: github.com/pre-commit/pre-commit-hooks "
        "3e8a8703264a2f4a69428a0aa4dcb512790b2c8c (pre-commit)",
    ]


def test_every_span_is_where_the_value_is_written(tree: Path) -> None:
    inventory = build_inventory(["."])
    assert {source.path: span_violations(source) for source in inventory.files} == {
        source.path: [] for source in inventory.files
    }
