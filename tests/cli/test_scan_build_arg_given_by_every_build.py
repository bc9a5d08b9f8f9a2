"""RL009 and the builds that give a Dockerfile's ARG its value: when every build of the project gives it
(``docker build --build-arg TE=release_v2.10`` in a script), the pin is checked through the build (RL002 at
the build) and RL009's "has no default and no --build-arg" is not reported; when some build gives none,
that build fetches with no value, and RL009 stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

from ascend_reflint.cli import main

TE_REFS = [
    ("6631348cfe94aade38939d091f4b27c091826646", "refs/heads/release_v2.10"),
    ("aa6207e2da6bca789375f591c9124aa408d2509a", "refs/tags/v2.10"),
]
DOCKERFILE = (
    "FROM ubuntu:22.04\nARG TE\nRUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@${TE}\n"
)
BUILD = "#!/bin/bash\ndocker build --build-arg TE=release_v2.10 -f Dockerfile .\n"
RL002 = [
    'build.sh:2:29: RL002 [error] ref "release_v2.10" is a branch of github.com/nvidia/transformerengine,'
    ' which moves whenever a commit lands on it: pin its release tag "v2.10"',
    "Dockerfile:3:69: note: the value is used here",
    "build.sh:2:1: note: built by `docker build --build-arg TE=release_v2.10 -f Dockerfile .`",
    "",
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    remotes = tmp_path / "remotes"
    build_repo(remotes / "github.com" / "NVIDIA" / "TransformerEngine.git", TE_REFS)
    set_env(monkeypatch, insteadof_env(remotes))
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    (tmp_path / "project" / "build.sh").write_text(BUILD, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path / "project"


def test_a_value_that_every_build_gives_is_checked_there_and_not_reported_unresolved(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "--cache-dir", "../cache"])
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            *RL002,
            "1 error, 0 warnings, 0 info in 1 of 2 files"
            " (1 pin, 1 remote: 1 checked (0 cached), 0 not checked)",
            "1 fixable with --fix --unsafe-fixes",
        ],
    )


def test_a_build_that_gives_no_value_keeps_rl009_at_the_use(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "ci.sh").write_text("#!/bin/bash\ndocker build -f Dockerfile .\n", encoding="utf-8")
    code = main(["scan", "--cache-dir", "../cache"])
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            'Dockerfile:3:69: RL009 [info] ref "${TE}" of github.com/nvidia/transformerengine cannot be'
            " resolved statically (ARG TE has no default and no --build-arg), so it was not checked; a"
            " default on the ARG, or --build-arg on reflint's command line, lets reflint check it",
            "",
            *RL002,
            "1 error, 0 warnings, 1 info in 2 of 3 files"
            " (2 pins, 1 remote: 1 checked (0 cached), 0 not checked)",
            "1 fixable with --fix --unsafe-fixes",
        ],
    )
