"""``reflint refs`` on a fixture tree with every kind of file: the exact JSON a user gets, traps included.

The tree (``data/inventory``) holds a multi-stage-style Dockerfile (global and stage ARG, ENV, a continued RUN
with a comment line, a clone-then-checkout, a quoted pip URL with a default, an ``echo`` trap, an executed
BuildKit heredoc and a heredoc written to a file), a shell script with a UTF-8 comment before the refs, a
workflow with ``uses:``, a ``run:`` block and a matrix ref, and a requirements file with a commented-out pin.
"""

import json
import shutil
from pathlib import Path

import pytest

from ascend_reflint.cli import main

DATA = Path(__file__).parent / "data"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "inventory"
    shutil.copytree(DATA / "inventory", root)
    monkeypatch.chdir(root)
    return root


def test_refs_json_is_the_exact_inventory(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--format", "json"]) == 0
    expected = json.loads((DATA / "inventory-refs.json").read_text())
    assert json.loads(capsys.readouterr().out) == expected


def test_refs_text_is_one_plain_line_per_pin(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "scripts", "requirements-npu.txt"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "requirements-npu.txt:3:48: github.com/iseekyan/mbridge v0.15.1 (pip-vcs)",
        "scripts/install.sh:4:44: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)",
        "scripts/install.sh:5:68: github.com/iseekyan/mbridge v0.15.1 (pip-vcs)",
        "scripts/install.sh:6:42: github.com/o/r $(git describe) (clone-branch)",
    ]


def test_build_arg_overrides_the_stage_arg(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["refs", "docker", "--build-arg", "MCORE_REF=core_v0.13.0", "--build-arg", "TE_REF=v2.10"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "docker/Dockerfile.npu:8:34: github.com/nvidia/megatron-lm core_v0.13.0 (clone-branch, depth 1)"
    )
    assert lines[2] == "docker/Dockerfile.npu:12:70: github.com/nvidia/transformerengine v2.10 (pip-vcs)"


def test_every_span_cuts_the_ref_text_out_of_the_file(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refs", "--format", "json"]) == 0
    for pin in json.loads(capsys.readouterr().out)["pins"]:
        line = (tree / pin["path"]).read_text(encoding="utf-8").split("\n")[pin["line"] - 1]
        assert line[pin["column"] - 1 : pin["end_column"] - 1] == pin["ref_text"], pin


def test_a_ref_that_a_variable_holds_points_at_its_definition(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refs", "--format", "json", "docker"]) == 0
    origins = {
        (pin["line"], pin["ref_text"]): (pin["ref_origin"], pin["url_origin"])
        for pin in json.loads(capsys.readouterr().out)["pins"]
    }
    where = {"path": "docker/Dockerfile.npu"}
    assert origins == {
        # the global ARG's value, which the stage's value-less ARG takes
        (8, "${MCORE_REF}"): ({**where, "line": 2, "column": 15, "end_line": 2, "end_column": 27}, None),
        (11, "f2b0977e"): (None, None),  # written at the use
        # the default, inside the use: where a fix edits it
        (12, "${TE_REF:-release_v2.10}"): (
            {**where, "line": 12, "column": 80, "end_line": 12, "end_column": 93},
            None,
        ),
        (15, "$VLLM_TAG"): ({**where, "line": 6, "column": 14, "end_line": 6, "end_column": 21}, None),
    }
    dockerfile = (tree / "docker" / "Dockerfile.npu").read_text(encoding="utf-8").split("\n")
    assert (dockerfile[1][14:26], dockerfile[5][13:20], dockerfile[11][79:92]) == (
        "core_v0.12.1",
        "v0.11.0",
        "release_v2.10",
    )
