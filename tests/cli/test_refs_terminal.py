"""``reflint refs`` as a table when colour is on, folded to the terminal's width, and one line per pin when
the terminal is too narrow for columns (at 80 columns the remote and ref columns had no width at all)."""

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


def test_a_narrow_terminal_gets_one_line_per_pin(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert refs(capsys, monkeypatch, 80) == [
        "docker/Dockerfile.310p:4:34: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)",
        "docker/Dockerfile.310p:5:34: github.com/vllm-project/vllm-ascend v0.11.0rc3 (clone-branch)",
        "docker/Dockerfile.a2:4:34: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)",
        "docker/Dockerfile.a2:5:34: github.com/vllm-project/vllm-ascend v0.9.1 (clone-branch)",
        "docker/Dockerfile.a3:4:34: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)",
        "docker/Dockerfile.a3:5:34: github.com/vllm-project/vllm-ascend v0.9.1 (clone-branch)",
        "scripts/install.sh:5:31: github.com/ascend/mindspeed v2.3.0_core_r0.12.1 (checkout)",
        "scripts/install.sh:6:11: github.com/sgl-project/sgl-kernel-npu - (clone)",
    ]


def test_a_wider_terminal_gets_the_table_folded_to_its_width(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = refs(capsys, monkeypatch, 100)
    assert {len(line) for line in lines} == {100}
    assert lines[:6] == [
        "8 pins in 4 files".ljust(100),
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━┓",
        "┃ location                    ┃ remote              ┃ ref                 ┃ via          ┃ clone   ┃",  # noqa: E501
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━┩",
        "│ docker/Dockerfile.310p:4:34 │ github.com/nvidia/m │ core_r0.18.0        │ clone-branch │ depth 1 │",  # noqa: E501
        "│                             │ egatron-lm          │                     │              │         │",  # noqa: E501
    ]
