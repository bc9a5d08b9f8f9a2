"""``reflint refs`` as a table when colour is on, every cell on one line (a remote or a commit folded
mid-token cannot be copied or searched for), and one line per pin, saying the same, when the terminal is
too narrow for the table."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ascend_reflint.cli import main

DATA = Path(__file__).resolve().parent / "data" / "placement"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    monkeypatch.chdir(root)
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return root


def refs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["refs", "--color", "always"]) == 0
    return [_ANSI.sub("", line) for line in capsys.readouterr().out.splitlines()]


LINES = [
    "docker/Dockerfile.310p:4:34: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch, depth 1)",
    "docker/Dockerfile.310p:5:34: github.com/vllm-project/vllm-ascend v0.11.0rc3 (clone-branch, depth 1)",
    "docker/Dockerfile.a2:4:34: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch, depth 1)",
    "docker/Dockerfile.a2:5:34: github.com/vllm-project/vllm-ascend v0.9.1 (clone-branch, depth 1)",
    "docker/Dockerfile.a3:4:34: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch, depth 1)",
    "docker/Dockerfile.a3:5:34: github.com/vllm-project/vllm-ascend v0.9.1 (clone-branch, depth 1)",
    "scripts/install.sh:5:31: github.com/ascend/mindspeed v2.3.0_core_r0.12.1 (checkout)",
    "scripts/install.sh:6:11: github.com/sgl-project/sgl-kernel-npu - (clone)",
]
#: The table's width: the widest cell of each column (27 + 37 + 19 + 12 + 7) and the frame (16).
TABLE_WIDTH = 118


@pytest.mark.parametrize("columns", [40, 80, TABLE_WIDTH - 1])
def test_a_terminal_narrower_than_the_table_gets_one_unfolded_line_per_pin(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    assert refs(capsys, monkeypatch, columns) == LINES


def test_the_lines_colour_the_ref_as_the_table_does(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["refs", "--color", "always", "scripts"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "scripts/install.sh:5:31: github.com/ascend/mindspeed \x1b[32mv2.3.0_core_r0.12.1\x1b[0m (checkout)",
        "scripts/install.sh:6:11: github.com/sgl-project/sgl-kernel-npu \x1b[32m-\x1b[0m (clone)",
    ]


def test_without_colour_the_lines_are_plain_whatever_the_width(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["refs", "--color", "never"]) == 0
    assert capsys.readouterr().out.splitlines() == LINES


@pytest.mark.parametrize("columns", [TABLE_WIDTH, 200])
def test_a_terminal_wide_enough_gets_the_table_as_wide_as_its_cells(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    assert [line.rstrip() for line in refs(capsys, monkeypatch, columns)] == [
        "8 pins in 4 files",
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━┓",
        "┃ location                    ┃ remote                                ┃ ref                 ┃ via          ┃ clone   ┃",  # noqa: E501
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━┩",
        "│ docker/Dockerfile.310p:4:34 │ github.com/nvidia/megatron-lm         │ core_r0.18.0        │ clone-branch │ depth 1 │",  # noqa: E501
        "│ docker/Dockerfile.310p:5:34 │ github.com/vllm-project/vllm-ascend   │ v0.11.0rc3          │ clone-branch │ depth 1 │",  # noqa: E501
        "│ docker/Dockerfile.a2:4:34   │ github.com/nvidia/megatron-lm         │ core_r0.18.0        │ clone-branch │ depth 1 │",  # noqa: E501
        "│ docker/Dockerfile.a2:5:34   │ github.com/vllm-project/vllm-ascend   │ v0.9.1              │ clone-branch │ depth 1 │",  # noqa: E501
        "│ docker/Dockerfile.a3:4:34   │ github.com/nvidia/megatron-lm         │ core_r0.18.0        │ clone-branch │ depth 1 │",  # noqa: E501
        "│ docker/Dockerfile.a3:5:34   │ github.com/vllm-project/vllm-ascend   │ v0.9.1              │ clone-branch │ depth 1 │",  # noqa: E501
        "│ scripts/install.sh:5:31     │ github.com/ascend/mindspeed           │ v2.3.0_core_r0.12.1 │ checkout     │         │",  # noqa: E501
        "│ scripts/install.sh:6:11     │ github.com/sgl-project/sgl-kernel-npu │ -                   │ clone        │         │",  # noqa: E501
        "└─────────────────────────────┴───────────────────────────────────────┴─────────────────────┴──────────────┴─────────┘",
    ]


@pytest.mark.parametrize("columns", [0, -5])
def test_a_width_of_nothing_is_the_terminal_s_not_an_empty_output(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    # COLUMNS=0 made rich draw everything in no width at all: `refs` printed nothing and exited 0, and
    # `scan` printed one empty line. Such a COLUMNS counts as unset, as for shutil.get_terminal_size.
    import os

    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((80, 24)))
    assert refs(capsys, monkeypatch, columns) == LINES


@pytest.mark.parametrize(
    ("paths", "title"),
    [
        (["docker/Dockerfile.a2"], "2 pins in 1 file"),
        (["scripts/install.sh", "docker/Dockerfile.a2"], "4 pins in 2 files"),
    ],
)
def test_the_table_title_counts_in_the_singular_and_the_plural(
    tree: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    paths: list[str],
    title: str,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["refs", "--color", "always", *paths]) == 0
    assert _ANSI.sub("", capsys.readouterr().out.splitlines()[0]).rstrip() == title


def test_one_pin_in_one_file_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Dockerfile").write_text(
        "FROM x\nRUN git clone --branch v1 https://github.com/o/r.git\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["refs", "--color", "always"]) == 0
    assert _ANSI.sub("", capsys.readouterr().out.splitlines()[0]).rstrip() == "1 pin in 1 file"
