"""``reflint scan FILE...`` (the pre-commit hook): the rest of the work tree is read for the cross-file
rules, and each file, named or not, is read and extracted once."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import ascend_reflint.extract
from ascend_reflint.cli import main
from ascend_reflint.model import SourceFile

CLONE = "FROM ubuntu\nRUN git clone --branch {} https://github.com/NVIDIA/Megatron-LM.git\n"
TREE = {
    "docker/Dockerfile.ascend_a2": CLONE.format("core_v0.12.1"),
    "docker/Dockerfile.ascend_a3": CLONE.format("core_v0.12.0"),
    "scripts/install.sh": "#!/bin/bash\npip install git+https://github.com/a/b.git@v1\n",
}


@pytest.fixture
def extracted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The tree written under ``tmp_path`` (the working directory), and a count of extractions by path."""
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    counts: Counter[str] = Counter()
    extract_file = ascend_reflint.extract.extract_file

    def counting(source: SourceFile, *args: object, **kwargs: object) -> None:
        counts[source.path] += 1
        extract_file(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ascend_reflint.extract, "extract_file", counting)
    return counts


def test_a_named_file_is_extracted_once_and_compared_with_its_variant(
    tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "scan",
            "--offline",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--format",
            "json",
            "docker/Dockerfile.ascend_a2",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [(f["code"], f["path"]) for f in document["findings"] if f["code"] == "RL004"] == [
        ("RL004", "docker/Dockerfile.ascend_a2")
    ]
    assert document["summary"]["files"] == 1
    assert extracted == {
        "docker/Dockerfile.ascend_a2": 1,
        "docker/Dockerfile.ascend_a3": 1,
        "scripts/install.sh": 1,
    }


def test_without_a_cross_file_rule_the_rest_of_the_tree_is_not_read(
    tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    main(
        [
            "scan",
            "--offline",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--select",
            "RL001,RL002",
            "docker/Dockerfile.ascend_a2",
        ]
    )
    capsys.readouterr()
    assert extracted == {"docker/Dockerfile.ascend_a2": 1}
