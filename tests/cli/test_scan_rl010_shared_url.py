"""RL010 for a remote whose pins share one URL token (a Makefile's ``git clone`` and the ``git checkout``s
in its clone, as in text-generation-inference's ``backends/gaudi/server/Makefile-vllm``): the finding is at
the URL, and its notes are at each pin's own ref, never at the finding's own place. Its message names the
pin's own URL, so a scan of the whole tree (where another file's spelling of the URL is looked up first)
and a scan of the one file say the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

from ascend_reflint.cli import main

COMMIT = "d243e9dc7e2c9c2e36a4150ec8e64809cb55c01b"
FILES = {
    "Dockerfile": f"FROM x\nRUN git clone https://github.com/narsil/vllm /v && git -C /v checkout {COMMIT}\n",
    "Makefile-vllm": (
        f"commit := {COMMIT}\n"
        "build:\n"
        "\tgit clone https://github.com/Narsil/vllm.git vllm\n"
        "\tcd vllm && git checkout $(commit) && python setup.py build\n"
        "install: build\n"
        "\tcd vllm && git checkout $(commit) && pip install -e .\n"
    ),
}
#: What the user sees about the Makefile, in either scan.
MAKEFILE_FINDING = [
    "Makefile-vllm:3:12: RL010 [warning] the mirror that your git config sends"
    " https://github.com/Narsil/vllm.git to (url.<base>.insteadOf) has no copy of github.com/narsil/vllm,"
    " so 2 pins of it in this file went unchecked; add it to the mirror to have it checked",
    "Makefile-vllm:4:26: note: a pin of github.com/narsil/vllm",
    "Makefile-vllm:6:26: note: another pin of github.com/narsil/vllm",
    "",
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """FILES, with github.com sent to a mirror that has no copy of narsil/vllm."""
    remotes = tmp_path / "remotes"
    build_repo(remotes / "github.com" / "other" / "repo.git", [(COMMIT, "refs/heads/main")])
    set_env(monkeypatch, insteadof_env(remotes))
    for name, text in FILES.items():
        (tmp_path / "project" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "project" / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path


def test_whole_tree_scan_notes_each_pin_of_the_shared_url_and_names_the_files_own_url(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "--cache-dir", str(project / "cache")])
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            "Dockerfile:2:15: RL010 [warning] the mirror that your git config sends"
            " https://github.com/narsil/vllm to (url.<base>.insteadOf) has no copy of github.com/narsil/vllm,"
            " so this pin went unchecked; add it to the mirror to have it checked",
            "",
            *MAKEFILE_FINDING,
            "0 errors, 2 warnings, 0 info in 2 of 2 files"
            " (3 pins, 1 remote: 0 checked (0 cached), 1 not checked)",
        ],
    )


def test_one_file_scan_says_the_same_of_the_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scan", "--cache-dir", str(project / "cache"), "Makefile-vllm"])
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            *MAKEFILE_FINDING,
            "0 errors, 1 warning, 0 info in 1 of 1 file"
            " (2 pins, 1 remote: 0 checked (0 cached), 1 not checked)",
        ],
    )
