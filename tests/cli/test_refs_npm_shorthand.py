"""npm, yarn and pnpm take a git dependency by a shorthand that never says git (``npm install
owner/repo#v1.2.3``, npm-package-arg's hosted shorthand for GitHub): a text that names one of them is read
whatever kind of file holds it, as a text that says git is, and its comments still are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.cli import main

FILES = {
    "scripts/setup.sh": "#!/bin/bash\n# npm install o/commented#v0\nnpm install --global o/tool#v1.2.3\n",
    "docker/Dockerfile": "FROM node:20\nRUN yarn global add o/cli#v2.0.0 && pnpm add o/lib#main\n",
    ".github/workflows/ci.yml": (
        "on: push\njobs:\n  ui:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm i o/ui#v3.1\n"
    ),
    "Makefile": "ui:\n\tnpm install o/make#v4\n",
    ".gitlab-ci.yml": "ui:\n  script:\n    - pnpm install o/gitlab#v5\n",
    "README.md": "Install:\n\n```bash\nnpm install o/docs#v6\n```\n",
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_text_that_names_npm_yarn_or_pnpm_is_read_for_git_dependencies(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refs"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        ".github/workflows/ci.yml:6:25: github.com/o/ui v3.1 (npm)",
        ".gitlab-ci.yml:3:29: github.com/o/gitlab v5 (npm)",
        "Makefile:2:21: github.com/o/make v4 (npm)",
        "README.md:4:20: github.com/o/docs v6 (npm)",
        "docker/Dockerfile:2:27: github.com/o/cli v2.0.0 (npm)",
        "docker/Dockerfile:2:52: github.com/o/lib main (npm)",
        "scripts/setup.sh:3:29: github.com/o/tool v1.2.3 (npm)",
    ]
