"""Requirements files named with a prefix (``dev-requirements.txt``, ``freesound_requirements.txt``, as in
NVIDIA/NeMo's ``scripts/freesound_download_resample``) are read as requirements; ``requirements.md`` stays
documentation."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

from ascend_reflint.cli import main

MEGATRON_REFS = [
    ("6631348cfe94aade38939d091f4b27c091826646", "refs/heads/core_r0.11.0"),
    ("aa6207e2da6bca789375f591c9124aa408d2509a", "refs/tags/core_v0.11.0"),
]
FREESOUND_REFS = [("0b496e91ec7ae4428c3ed2eeb4c3a40df431f2cc", "refs/heads/master")]
FILES = {
    "dev-requirements.txt": "pytest\nmegatron-core @ git+https://github.com/NVIDIA/Megatron-LM.git@core_r0.11.0\n",
    "scripts/freesound_download_resample/freesound_requirements.txt": (
        "git+https://github.com/MTG/freesound-python.git\n"
    ),
    "requirements.md": "# Requirements\n\ngit+https://github.com/NVIDIA/Megatron-LM.git@core_r0.11.0\n",
}


def test_prefixed_requirements_files_are_read_and_a_requirements_document_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    remotes = tmp_path / "remotes"
    build_repo(remotes / "github.com" / "NVIDIA" / "Megatron-LM.git", MEGATRON_REFS)
    build_repo(remotes / "github.com" / "MTG" / "freesound-python.git", FREESOUND_REFS)
    set_env(monkeypatch, insteadof_env(remotes))
    for name, text in FILES.items():
        (tmp_path / "project" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "project" / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    code = main(["scan", "--cache-dir", str(tmp_path / "cache")])
    assert (code, capsys.readouterr().out.splitlines()) == (
        1,
        [
            'dev-requirements.txt:2:63: RL002 [error] ref "core_r0.11.0" is a branch of'
            " github.com/nvidia/megatron-lm, which moves whenever a commit lands on it: pin its release tag"
            ' "core_v0.11.0"',
            "",
            "scripts/freesound_download_resample/freesound_requirements.txt:1:5: RL015 [warning] pip's git+"
            " URL of github.com/mtg/freesound-python pins no ref, so the build takes whatever the default"
            ' branch holds that day; end the URL with "@<tag>" or "@<commit id>"',
            "",
            "1 error, 1 warning, 0 info in 2 of 3 files"
            " (2 pins, 2 remotes: 2 checked (0 cached), 0 not checked)",
            "1 fixable with --fix --unsafe-fixes",
        ],
    )
