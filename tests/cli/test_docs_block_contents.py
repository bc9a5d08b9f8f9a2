"""What a documentation block holds, over what its label says: ``reflint refs`` and ``reflint scan`` of a
Markdown fence without a language (read when its first line is a command, a ``$`` prompt or a Dockerfile
instruction; text, logs, curl's progress table and code are not) and of a Dockerfile under a ``bash``
label, in Markdown and reStructuredText."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env
from hostile.spans import span_violations

from ascend_reflint.cli import main
from ascend_reflint.inventory import build_inventory

README = """\
# Install

```
# from source
git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git
```

```
(venv) $ pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.18.0
Successfully installed megatron-core
```

```
FROM ubuntu:22.04
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.0
```

```
Cloning into 'log'... git clone --branch v0 https://github.com/o/log.git
```

```
  % Total    % Received  git clone --branch v0 https://github.com/o/progress.git
```

```
import os; os.system("git clone --branch v0 https://github.com/o/python.git")
```

```bash
ARG BASE=ubuntu:22.04
FROM ${BASE}
ARG MCORE=core_v0.13.0
RUN git clone --branch ${MCORE} https://github.com/NVIDIA/Megatron-LM.git
```

```
git clone --branch v1 https://github.com/o/broken.git && (
```
"""
BUILD_RST = """\
Build
=====

.. code-block:: bash

    FROM ubuntu:22.04
    RUN git clone -b core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git
"""


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text(README, encoding="utf-8")
    (root / "docs" / "build.rst").write_text(BUILD_RST, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_refs_reads_commands_sessions_and_dockerfiles_by_what_they_hold(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refs"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "README.md:5:20: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)",
        "README.md:9:68: github.com/nvidia/megatron-lm core_v0.18.0 (pip-vcs)",
        "README.md:15:63: github.com/nvidia/megatron-lm core_v0.12.0 (pip-vcs)",
        "README.md:34:24: github.com/nvidia/megatron-lm core_v0.13.0 (clone-branch)",
        "README.md:38:20: github.com/o/broken v1 (clone-branch)",
        "docs/build.rst:7:22: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)",
    ]
    assert err.splitlines() == [
        "README.md: notice: line 38: the unlabelled block is not valid shell (line 38: shell syntax error: "
        "'(' is never closed (')' is missing)); read as far as it goes"
    ]


def test_a_dockerfile_under_a_bash_label_resolves_its_arg(project: Path) -> None:
    pins = [pin for pin in build_inventory(["."]).pins if pin.span.line == 34]
    assert [(pin.ref, pin.resolved, pin.kind.value) for pin in pins] == [("core_v0.13.0", True, "docs")]


def test_every_span_is_where_the_ref_is_written(project: Path) -> None:
    inventory = build_inventory(["."])
    assert {source.path: span_violations(source) for source in inventory.files} == {
        "README.md": [],
        "docs/build.rst": [],
    }


def test_scan_findings_in_such_blocks_are_at_most_warnings(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "--select", "RL001,RL002"]
    )
    findings = json.loads(capsys.readouterr().out)["findings"]
    branch = (
        'ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a commit '
        'lands on it: pin its release tag "core_v0.18.0"'
    )
    assert code == 0
    assert [
        (f["path"], f["line"], f["column"], f["code"], f["severity"], f["message"]) for f in findings
    ] == [
        ("README.md", 5, 20, "RL002", "warning", branch),
        (
            "README.md",
            15,
            63,
            "RL001",
            "warning",
            'ref "core_v0.12.0" is neither a branch nor a tag of github.com/nvidia/megatron-lm, so pip '
            'fails; the closest of its 4 branches and 6 tags is branch "core_r0.12.0"',
        ),
        (  # on the ARG that sets the ref
            "README.md",
            33,
            11,
            "RL001",
            "warning",
            'ref "core_v0.13.0" is neither a branch nor a tag of github.com/nvidia/megatron-lm, so `git '
            "clone --branch` fails; no ref names that version; the most similar of its 4 branches and 6 "
            'tags are "core_v0.12.1", "core_r0.12.0", "core_v0.11.0"',
        ),
        ("docs/build.rst", 7, 22, "RL002", "warning", branch),
    ]
