"""prek's ``prek.toml`` (the pre-commit configuration model in TOML): ``reflint refs`` lists each remote hook
repository at its ``rev`` (``[[repos]]`` tables and a ``repos`` array of inline tables), leaves out
``local``, ``meta`` and ``builtin``, keeps a ``# frozen:`` comment, and reports invalid TOML as the file's
error; ``reflint scan`` checks the revs as it checks a ``.pre-commit-config.yaml``'s."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env
from hostile.spans import span_violations

from ascend_reflint.cli import main
from ascend_reflint.inventory import build_inventory

FROZEN = "3d44372123ca5e8617fdb65d9f11facd159b9e95"
PREK_TOML = f"""\
# hooks
[[repos]]
repo = "https://github.com/pre-commit/pre-commit-hooks"
rev = "v6.0.0"
hooks = [{{ id = "trailing-whitespace" }}]

[[repos]]
repo = "local"
hooks = [{{ id = "x", name = "x", entry = "true", language = "system" }}]

[[repos]]
repo = 'https://github.com/astral-sh/ruff-pre-commit'
rev = "{FROZEN}"  # frozen: v0.14.13
hooks = [{{ id = "ruff" }}]

[[repos]]
repo = "builtin"
hooks = [{{ id = "check-yaml" }}]
"""
INLINE_TOML = """\
repos = [
  { repo = "https://github.com/NVIDIA/Megatron-LM.git", rev = "core_r0.18.0", hooks = [] },
  { repo = "meta", hooks = [{ id = "check-hooks-apply" }] },
]
"""


@pytest.fixture
def project(tmp_path: Path, remotes: FakeRemotes, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    (root / "tools").mkdir(parents=True)
    (root / "prek.toml").write_text(PREK_TOML, encoding="utf-8")
    (root / "tools" / "prek.toml").write_text(INLINE_TOML, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_refs_lists_each_remote_repository_at_its_rev(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refs"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "prek.toml:4:8: github.com/pre-commit/pre-commit-hooks v6.0.0 (pre-commit)",
        f"prek.toml:13:8: github.com/astral-sh/ruff-pre-commit {FROZEN} (pre-commit)",
        "tools/prek.toml:2:64: github.com/nvidia/megatron-lm core_r0.18.0 (pre-commit)",
    ]


def test_the_frozen_comment_is_kept_and_every_span_is_the_rev(project: Path) -> None:
    inventory = build_inventory(["."])
    assert [(pin.kind.value, pin.version_comment, pin.url_span.line) for pin in inventory.pins] == [
        ("pre-commit", None, 3),
        ("pre-commit", "v0.14.13", 12),
        ("pre-commit", None, 2),
    ]
    assert [span_violations(source) for source in inventory.files] == [[], []]


def test_an_empty_rev_names_no_ref(project: Path) -> None:
    (project / "prek.toml").write_text(
        '[[repos]]\nrepo = "https://github.com/o/r"\nrev = ""\n', encoding="utf-8"
    )
    pins = build_inventory(["prek.toml"]).pins
    assert [(pin.ref, pin.resolved, pin.resolution_note, pin.span.column) for pin in pins] == [
        ("", False, 'rev = "" names no ref', 7)
    ]


def test_invalid_toml_is_the_files_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "prek.toml").write_text(
        '[[repos]]\nrepo = "https://github.com/o/r"\nrev = \n', encoding="utf-8"
    )
    assert main(["refs", "prek.toml"]) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err.splitlines()) == (
        "",
        ["prek.toml:3:7: error: invalid TOML: Invalid value"],
    )


def test_scan_checks_a_rev_as_in_a_pre_commit_config(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", "tools/prek.toml", "--format", "json", "--cache-dir", str(tmp_path / "cache")])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert code == 0
    assert [
        (f["path"], f["line"], f["column"], f["code"], f["severity"], f["message"]) for f in findings
    ] == [
        (
            "tools/prek.toml",
            2,
            64,
            "RL002",
            "warning",
            'ref "core_r0.18.0" is a branch of github.com/nvidia/megatron-lm, which moves whenever a commit '
            'lands on it: pin its release tag "core_v0.18.0"',
        )
    ]
