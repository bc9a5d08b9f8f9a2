"""``reflint scan --format sarif``: the log written to standard output and to a file (``--output``) is one
text, whose results are the findings with their related places; the log is written one result at a time
(``report/sarif.py``'s ``write_sarif``), which must not change a byte of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Scan

#: One remote at three refs in three files of the drift family ``ascend`` (``npu`` in a folder's name).
FILES = {
    "npu/install.sh": "git clone --branch v1.1.0 https://github.com/o/r.git /opt/r\n",
    "npu/requirements.txt": "r @ git+https://github.com/o/r.git@v1.2.0\n",
    "npu/Dockerfile": "FROM ubuntu:22.04\nRUN git clone --branch v1.3.0 https://github.com/o/r.git /opt/r\n",
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.chdir(root)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    return root


def test_the_sarif_log_on_standard_output_and_in_a_file_is_the_same_text(project: Path, scan: Scan) -> None:
    code, out, _ = scan("--offline", "--select", "RL005", "--format", "sarif")
    assert scan("--offline", "--select", "RL005", "--format", "sarif", "-o", "../r.sarif")[:2] == (0, [])

    written = (project.parent / "r.sarif").read_text(encoding="utf-8")
    assert (code, written) == (0, "\n".join(out) + "\n")
    assert sorted(path.name for path in project.parent.iterdir()) == ["cache", "project", "r.sarif"]
    results = json.loads(written)["runs"][0]["results"]
    assert [
        (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
            [place["physicalLocation"]["artifactLocation"]["uri"] for place in result["relatedLocations"]],
        )
        for result in results
    ] == [
        ("npu/Dockerfile", 2, ["npu/install.sh", "npu/requirements.txt"]),
        ("npu/install.sh", 1, ["npu/Dockerfile", "npu/requirements.txt"]),
        ("npu/requirements.txt", 1, ["npu/Dockerfile", "npu/install.sh"]),
    ]
