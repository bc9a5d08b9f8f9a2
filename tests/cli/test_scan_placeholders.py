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


CONTRIBUTING = """\
# Contributing

```bash
git clone git@github.com:[username]/LLaMA-Factory.git
git clone https://github.com/YOUR_USERNAME/vllm-ascend.git
git clone https://github.com/your-username/Megatron-LM
pip install "git+https://github.com/USERNAME/repo.git@v1"
git clone https://github.com/NVIDIA/REPO.git
```
"""
ACCOUNT = (
    "which stands for the reader's own account or repository: no repository is named, so nothing was checked"
)


def test_a_url_naming_the_readers_own_account_is_a_placeholder_never_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Contributing guides' ``[username]``, ``YOUR_USERNAME``, ``your-username``, ``USERNAME`` owners and
    ``REPO`` names: one info each, no RL015, and no lookup needed (one would leave a pin unchecked and
    exit 1 with ``--offline``)."""
    (tmp_path / "CONTRIBUTING.md").write_text(CONTRIBUTING)
    monkeypatch.chdir(tmp_path)
    code = main(["scan", "--offline", "--cache-dir", str(tmp_path / "cache"), "CONTRIBUTING.md"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f'CONTRIBUTING.md:4:11: RL009 [info] URL "git@github.com:[username]/LLaMA-Factory.git" holds the '
        f"placeholder [username], {ACCOUNT}",
        'CONTRIBUTING.md:5:11: RL009 [info] URL "https://github.com/YOUR_USERNAME/vllm-ascend.git" holds '
        f"the placeholder YOUR_USERNAME, {ACCOUNT}",
        f'CONTRIBUTING.md:6:11: RL009 [info] URL "https://github.com/your-username/Megatron-LM" holds the '
        f"placeholder your-username, {ACCOUNT}",
        'CONTRIBUTING.md:7:18: RL009 [info] URL "https://github.com/USERNAME/repo.git" holds the '
        f"placeholder USERNAME, {ACCOUNT}",
        f'CONTRIBUTING.md:8:11: RL009 [info] URL "https://github.com/NVIDIA/REPO.git" holds the placeholder '
        f"REPO, {ACCOUNT}",
        "",
        "0 errors, 0 warnings, 5 info in 1 of 1 file (5 pins, 0 remotes: 0 checked (0 cached), 0 not "
        "checked)",
    ]
