"""Template placeholders in refs and URLs: an info "placeholder, not a ref" (RL009), never RL001/RL014, and
nothing looked up; what is no placeholder (a shell variable, a GitHub expression, a comment) is not one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_reflint.cli import main

SCRIPT = """\
#!/bin/bash
git clone -b {{ version }} https://github.com/o/jinja.git
git clone -b <branch> https://github.com/o/angle.git
git clone https://github.com/<org>/<repo>.git
pip install "git+https://github.com/o/fmt.git@{ref}"
git clone -b @VERSION@ https://github.com/o/cmake.git
git clone -b %(ref)s https://github.com/o/percent.git
git clone -b $VERSION$ https://github.com/o/dollars.git
# git clone -b {{ commented }} https://github.com/o/comment.git
git clone -b ${name} https://github.com/o/shellvar.git
"""
PLACEHOLDER = "a placeholder, not a ref, so nothing was checked; reflint checks the file the template renders"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "build.sh").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_each_placeholder_is_an_info_and_nothing_is_looked_up(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "--format", "json", "--offline", "--cache-dir", str(project / "cache"), "."])
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    found = [(f["code"], f["line"], f["column"], f["end_column"], f["message"]) for f in document["findings"]]
    assert found == [
        (
            "RL009",
            2,
            14,
            27,
            f'ref "{{{{ version }}}}" holds the template placeholder {{{{ version }}}}: {PLACEHOLDER}',
        ),
        ("RL009", 3, 14, 22, f'ref "<branch>" holds the template placeholder <branch>: {PLACEHOLDER}'),
        (
            "RL009",
            4,
            11,
            46,
            f'URL "https://github.com/<org>/<repo>.git" holds the template placeholder <org>: {PLACEHOLDER}',
        ),
        ("RL009", 5, 47, 52, f'ref "{{ref}}" holds the template placeholder {{ref}}: {PLACEHOLDER}'),
        ("RL009", 6, 14, 23, f'ref "@VERSION@" holds the template placeholder @VERSION@: {PLACEHOLDER}'),
        ("RL009", 7, 14, 21, f'ref "%(ref)s" holds the template placeholder %(ref)s: {PLACEHOLDER}'),
        ("RL009", 8, 14, 23, f'ref "$VERSION$" holds the template placeholder $VERSION$: {PLACEHOLDER}'),
        (
            "RL009",
            10,
            14,
            21,
            'ref "${name}" of github.com/o/shellvar cannot be resolved statically ($name is not set in this '
            "file), so it was not checked; a default value in the file lets reflint check it",
        ),
    ]
    assert document["summary"]["remotes"] == 0
