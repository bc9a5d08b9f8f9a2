"""``include: project:`` and ``$CI_SERVER_FQDN`` components of GitLab CI name projects of the GitLab instance
that runs the pipeline, which the file does not name: reflint takes the config's ``gitlab-host``, else the
host of the repository's ``origin`` when it is a GitLab instance, else leaves the URL unresolved (RL009,
naming the config key), and never looks the project up at a guessed host (gitlab.com). gitlab.com is
pointed at an empty local folder here, so that a lookup there would answer "no copy", never reach the
internet."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import build_repo, insteadof_env, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]

CI = """\
include:
  - project: dl/jet/gitlab-templates
    ref: mian
    file: downstreams.yml
  - component: $CI_SERVER_FQDN/components/secret-detection/secret-detection@1.1.2
"""
ID = "1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c"
SELECT = ("--select", "RL001,RL009,RL010,RL014")
#: What a scan says when the instance is gitlab.example.com: the missing branch, there, and nothing of the
#: component, whose tag exists there.
ON_THE_INSTANCE = [
    '.gitlab-ci.yml:3:10: RL001 [error] ref "mian" is neither a branch nor a tag of '
    "gitlab.example.com/dl/jet/gitlab-templates, so GitLab refuses the pipeline; the closest of its 1 branch "
    'and 0 tags is branch "main"',
    "",
    "1 error, 0 warnings, 0 info in 1 of 1 file (2 pins, 2 remotes: 2 checked (0 cached), 0 not checked)",
    "1 fixable with --fix --unsafe-fixes",  # "main", the one name that close to "mian"
]
UNKNOWN_INSTANCE = (
    "the project is on the GitLab instance that runs the pipeline, which the file does not name; "
    "`gitlab-host: HOST` in reflint's config names it"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    remotes = tmp_path / "remotes"
    build_repo(
        remotes / "gitlab.example.com/dl/jet/gitlab-templates.git", [(ID, "HEAD"), (ID, "refs/heads/main")]
    )
    build_repo(remotes / "gitlab.example.com/components/secret-detection.git", [(ID, "refs/tags/1.1.2")])
    (remotes / "ci.example.com").symlink_to(remotes / "gitlab.example.com")
    (remotes / "gitlab.com").mkdir()
    set_env(monkeypatch, insteadof_env(remotes))
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "--quiet", str(root)], check=True)
    (root / ".gitlab-ci.yml").write_text(CI, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _origin(root: Path, url: str) -> None:
    subprocess.run(["git", "-C", str(root), "remote", "add", "origin", url], check=True)


def test_the_instance_is_the_host_of_a_gitlab_origin(project: Path, scan: Scan) -> None:
    _origin(project, "git@gitlab.example.com:adlr/megatron-lm.git")
    assert scan(*SELECT) == (1, ON_THE_INSTANCE, [])


def test_without_a_gitlab_origin_the_project_is_unresolved(project: Path, scan: Scan) -> None:
    _origin(project, "https://github.com/NVIDIA/Megatron-LM.git")
    assert scan(*SELECT) == (
        0,
        [
            '.gitlab-ci.yml:2:14: RL009 [info] URL "https://$CI_SERVER_FQDN/dl/jet/gitlab-templates.git" '
            f"cannot be resolved statically ({UNKNOWN_INSTANCE}), so this pin was not checked",
            '.gitlab-ci.yml:5:16: RL009 [info] URL "https://$CI_SERVER_FQDN/components/secret-detection.git" '
            f"cannot be resolved statically ({UNKNOWN_INSTANCE}), so this pin was not checked",
            "",
            "0 errors, 0 warnings, 2 info in 1 of 1 file (2 pins, 0 remotes: 0 checked (0 cached), 0 not "
            "checked)",
        ],
        [],
    )


def test_the_config_names_the_instance(project: Path, scan: Scan) -> None:
    _origin(project, "https://github.com/NVIDIA/Megatron-LM.git")
    (project / ".reflint.yaml").write_text("gitlab-host: gitlab.example.com\n", encoding="utf-8")
    assert scan(*SELECT) == (1, ON_THE_INSTANCE, [])


def test_a_gitlab_ci_clone_names_the_instance_by_its_token_user(project: Path, scan: Scan) -> None:
    """GitLab CI's own checkout has the origin ``https://gitlab-ci-token:…@HOST/…``, whatever HOST's name."""
    _origin(project, "https://gitlab-ci-token:glcbt-secret@ci.example.com/adlr/megatron-lm.git")
    code, out, _ = scan(*SELECT)
    assert (code, out[0]) == (1, ON_THE_INSTANCE[0].replace("gitlab.example.com", "ci.example.com"))
