"""``reflint scan --show-settings``: the settings in effect for a scan of the paths given, as ruff's
``check --show-settings``: the root, the config, the packs merged, the project's own remotes, the rules
that run with their severities, and each list as the packs and the config leave it; nothing is scanned."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]

CONFIG = """\
select: [RL002, unpinned-clone]
ignore: [RL015]
extend-select: [RL004]
severity: {branch-pin: warning}
per-file-ignores:
  "docker/legacy/*": [RL004]
head-tracking-remotes: [github.com/me/tools]
variant-allowed-drift: ["!github.com/nowhere/x"]
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run(
        ["git", "remote", "add", "origin", "git@github.com:me/app.git"], cwd=root, check=True, env=env
    )
    (root / ".reflint.yaml").write_text(
        CONFIG.replace('variant-allowed-drift: ["!github.com/nowhere/x"]\n', "")
    )
    (root / "Dockerfile").write_text("FROM ubuntu:22.04\nRUN git clone https://github.com/o/x.git\n")
    (root / "pack.yaml").write_text("name: mine\nself-head-tracking-remotes: [github.com/me/app]\n")
    monkeypatch.chdir(root)
    return root


def test_show_settings_prints_the_settings_in_effect_and_scans_nothing(project: Path, scan: Scan) -> None:
    code, out, err = scan("--show-settings", "--rule-pack", "pack.yaml", "--exclude", "vendor/", "--no-docs")
    assert (code, err) == (0, [])
    assert out[: out.index("tag-pinned-remotes:")] == [
        f"# project root: {project}",
        "# config file: .reflint.yaml",
        "# rule packs, in the order merged: ascend, .reflint.yaml, mine",
        "# the project's own remotes (origin, package metadata): github.com/me/app",
        "select:",
        "- RL002",
        "- RL004",
        "severity:",
        "  RL002: warning",
        "  RL004: error",
        "per-file-ignores:",
        "  docker/legacy/*:",
        "  - RL004",
        "fixable: null",
        "unfixable: []",
        "exclude:",
        "- vendor/",
        "unsafe-fixes: false",
        "pin-commits: false",
        "verify-commits: true",
        "docs: false",
        "gitlab-host: null",
        "newer-release: patch",
        "drift-same-kind: false",
    ]
    start = out.index("head-tracking-remotes:")
    assert out[start : out.index("private-remotes: []")] == [
        "head-tracking-remotes:",
        "- github.com/me/tools",
        "self-head-tracking-remotes:",
        "- github.com/volcengine/verl",
        "- github.com/me/app",
    ]


def test_show_settings_in_json_holds_the_same_values(project: Path, scan: Scan) -> None:
    code, out, err = scan("--show-settings", "--format", "json", "--select", "RL015")
    assert (code, err) == (0, [])
    document = json.loads("\n".join(out))
    assert (document["root"], document["config"], document["own-remotes"], document["select"]) == (
        str(project),
        ".reflint.yaml",
        ["github.com/me/app"],
        [
            "RL004"
        ],  # --select replaces the config's select; its extend-select adds, its ignore takes RL015 out
    )
    assert (document["head-tracking-remotes"], document["self-head-tracking-remotes"]) == (
        ["github.com/me/tools"],
        ["github.com/volcengine/verl"],
    )


def test_show_settings_reports_a_bad_config_as_a_scan_would(project: Path, scan: Scan) -> None:
    (project / ".reflint.yaml").write_text(CONFIG)
    assert scan("--show-settings") == (
        2,
        [],
        [
            "reflint: error: .reflint.yaml:8:25: variant-allowed-drift[0]: '!github.com/nowhere/x' removes "
            "nothing: no rule pack before it lists 'github.com/nowhere/x'"
        ],
    )
    assert scan("--show-settings", "--format", "sarif")[2] == [
        "reflint: error: --show-settings prints one text or json document (one --format, one --output)"
    ]
