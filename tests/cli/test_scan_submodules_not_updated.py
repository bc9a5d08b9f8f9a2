"""RL027: a checkout in a ``--recursive`` clone that no ``git submodule update`` follows (verl's ROCm image:
``git clone --recursive`` of TransformerEngine, then ``git checkout 236178e5`` in another RUN); not when
the submodules are updated after the checkout, the checkout recurses (also by ``-c
submodule.recurse=true``, or ``submodule.recurse`` set in the clone's configuration first), the clone was
not recursive, or the checkout runs in a folder below the clone's top, where it may be a submodule's own
(Megatron-LM's GitLab publish job: ``cd documentation/megatron-lm && git checkout $PUBLISH_COMMIT``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
DOCKERFILE = """\
FROM ubuntu:22.04
WORKDIR /workspace
RUN git clone --recursive https://github.com/ROCm/TransformerEngine.git
WORKDIR /workspace/TransformerEngine
RUN git checkout 236178e5
RUN git clone --recurse-submodules --branch v2.4 https://github.com/NVIDIA/cutlass.git /c && \\
    cd /c && git checkout 3f084f7f
RUN git clone --recursive https://github.com/vllm-project/vllm.git /v && \\
    cd /v && git checkout v0.9.1 && git submodule update --init --recursive
RUN git clone --recursive https://github.com/NVIDIA/apex.git /a && \\
    git -C /a checkout --recurse-submodules 25.09
RUN git clone https://github.com/deepseek-ai/DeepEP.git /d && git -C /d checkout v1.2.1
RUN git clone --recursive https://github.com/sgl-project/sglang.git /s && \\
    cd /s && git submodule update --init && git checkout v0.5.0
RUN git clone --recursive https://github.com/o/documentation.git /doc && \\
    cd /doc/megatron-lm && git checkout 0123abcd
RUN git clone --recursive https://github.com/o/b.git /b && git -C /b -c submodule.recurse=true checkout v1
"""
ADVICE = (
    "records: `git checkout` does not move them; run `git submodule update --init --recursive` after it (or "
    "check out with --recurse-submodules)"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "Dockerfile").write_text(DOCKERFILE)
    monkeypatch.chdir(root)
    return root


def _stale(at: str, ref: str, remote: str, cloned: str) -> str:
    return (
        f'Dockerfile:{at}: RL027 [warning] the checkout of "{ref}" in a clone of {remote} made with '
        f"--recursive leaves its submodules, if it has any, at the commits that {cloned} {ADVICE}"
    )


def test_a_checkout_that_leaves_the_submodules_behind_is_reported(project: Path, scan: Scan) -> None:
    assert scan("--offline", "--select", "RL027") == (
        0,
        [
            _stale("5:18", "236178e5", "github.com/rocm/transformerengine", "its default branch"),
            "Dockerfile:3:5: note: the clone with --recursive",
            _stale("7:27", "3f084f7f", "github.com/nvidia/cutlass", '"v2.4"'),
            "Dockerfile:6:5: note: the clone with --recursive",
            _stale("14:58", "v0.5.0", "github.com/sgl-project/sglang", "its default branch"),
            "Dockerfile:13:5: note: the clone with --recursive",
            "",
            "0 errors, 3 warnings, 0 info in 1 of 1 file (8 pins, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )


#: ``submodule.recurse`` set in the clone's configuration before the checkout makes it recurse
#: (git-config(1)): by ``git clone -c`` (git-clone(1): written to the new repository's configuration) or
#: ``git config``; not when set after the checkout, given to the clone's own run (``git -c … clone``), set
#: false again, or overridden by the checkout's ``--no-recurse-submodules``.
CONFIGURED = """\
FROM ubuntu:22.04
RUN git clone --recursive -c submodule.recurse=true https://github.com/o/a.git /a && git -C /a checkout v1
RUN git clone --recursive https://github.com/o/b.git /b && cd /b && git config submodule.recurse true && \\
    git checkout v1
RUN git clone --recursive https://github.com/o/c.git /c && cd /c && git checkout v1 && \\
    git config set submodule.recurse true
RUN git -c submodule.recurse=true clone --recursive https://github.com/o/d.git /d && git -C /d checkout v1
RUN git clone --recursive --config=Submodule.Recurse=yes https://github.com/o/e.git /e && \\
    git -C /e checkout --no-recurse-submodules v1
RUN git clone --recursive -c submodule.recurse=1 https://github.com/o/f.git /f && cd /f && \\
    git config --bool submodule.recurse off && git checkout v1
RUN git clone --recursive -c submodule.recurse https://github.com/o/g.git /g && cd /g && \\
    git config --unset submodule.recurse && git checkout v1
RUN git config --global submodule.recurse true && \\
    git clone --recursive https://github.com/o/h.git /h && git -C /h checkout v1
"""


def test_submodule_recurse_set_in_the_clones_configuration_before_the_checkout_makes_it_recurse(
    project: Path, scan: Scan
) -> None:
    (project / "Dockerfile").write_text(CONFIGURED)

    assert scan("--offline", "--select", "RL027") == (
        0,
        [
            _stale("5:82", "v1", "github.com/o/c", "its default branch"),
            "Dockerfile:5:5: note: the clone with --recursive",
            _stale("7:105", "v1", "github.com/o/d", "its default branch"),
            "Dockerfile:7:5: note: the clone with --recursive",
            _stale("9:48", "v1", "github.com/o/e", "its default branch"),
            "Dockerfile:8:5: note: the clone with --recursive",
            _stale("11:61", "v1", "github.com/o/f", "its default branch"),
            "Dockerfile:10:5: note: the clone with --recursive",
            _stale("13:58", "v1", "github.com/o/g", "its default branch"),
            "Dockerfile:12:5: note: the clone with --recursive",
            "",
            "0 errors, 5 warnings, 0 info in 1 of 1 file (8 pins, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )
