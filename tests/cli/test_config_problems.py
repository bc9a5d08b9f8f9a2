"""Config mistakes that the scan points at rather than passing over: a remote in a list of the config that
no pin scanned fetches (a misspelt ``variant-allowed-drift`` entry relaxes nothing) is a notice at the
entry, with the pinned remote it most likely means, as an unmatched ``per-file-ignores`` glob is; and
RL004's advice names the key that takes the remote for the variants at hand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
MCORE = "https://github.com/NVIDIA/Megatron-LM.git"


@pytest.fixture
def project(remotes: FakeRemotes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    (root / "docker").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "docker" / "Dockerfile.a2").write_text(f"FROM x\nRUN pip install git+{MCORE}@core_v0.12.1\n")
    (root / "docker" / "Dockerfile.a3").write_text(f"FROM x\nRUN pip install git+{MCORE}@core_v0.15.0\n")
    monkeypatch.chdir(root)
    return root


def _drift(here: str, ref: str, there: str, other_ref: str, key: str) -> str:
    return (
        f"docker/Dockerfile.{here}:2:63: RL004 [error] github.com/nvidia/megatron-lm is pinned at "
        f'"{ref}" here but at "{other_ref}" in docker/Dockerfile.{there}, a variant of the same recipe; pin '
        f"the same ref in every variant (or list the remote under {key})"
    )


def _note(there: str, ref: str) -> str:
    return f'docker/Dockerfile.{there}:2:63: note: github.com/nvidia/megatron-lm is pinned at "{ref}" here'


def test_a_remote_no_pin_fetches_is_a_notice_at_its_entry_with_the_one_meant(
    project: Path, scan: Scan
) -> None:
    (project / ".reflint.yaml").write_text(
        "variant-allowed-drift: [github.com/nvidia/megatron]\n"
        "variant-groups:\n"
        "  - name: npu\n"
        "    files: [docker/]\n"
        "    allowed-drift: [github.com/vllm-project/vllm, github.com/nvidia/megatron-lm]\n"
        "tag-pinned-remotes: ['!github.com/vllm-project/vllm']\n"
    )
    code, _, err = scan("--select", "RL004")
    assert (code, err) == (
        0,
        [
            ".reflint.yaml:1:25: notice: variant-allowed-drift[0]: no pin scanned fetches "
            "'github.com/nvidia/megatron' (did you mean 'github.com/nvidia/megatron-lm'?)",
            ".reflint.yaml:5:21: notice: variant-groups[0].allowed-drift[0]: no pin scanned fetches "
            "'github.com/vllm-project/vllm'",
        ],
    )
    # Given files (as pre-commit gives them), the lists are not checked: most remotes are for other files.
    assert scan("--select", "RL004", "docker/Dockerfile.a2")[2] == []


def test_rl004_names_variant_allowed_drift_for_token_variants_and_the_groups_key_for_a_group(
    project: Path, scan: Scan
) -> None:
    assert scan("--select", "RL004") == (
        1,
        [
            _drift("a2", "core_v0.12.1", "a3", "core_v0.15.0", "variant-allowed-drift"),
            _note("a3", "core_v0.15.0"),
            "",
            _drift("a3", "core_v0.15.0", "a2", "core_v0.12.1", "variant-allowed-drift"),
            _note("a2", "core_v0.12.1"),
            "",
            "2 errors, 0 warnings, 0 info in 2 of 2 files (2 pins, 1 remote: 1 checked (0 cached), 0 not "
            "checked; looked up only to tell tags, branches and commit ids apart (RL004, RL005))",
        ],
        [],
    )
    (project / ".reflint.yaml").write_text("variant-groups:\n  - name: npu\n    files: [docker/]\n")
    key = "variant-groups 'npu' allowed-drift (or variant-allowed-drift)"
    assert scan("--select", "RL004")[1][:4] == [
        _drift("a2", "core_v0.12.1", "a3", "core_v0.15.0", key),
        _note("a3", "core_v0.15.0"),
        "",
        _drift("a3", "core_v0.15.0", "a2", "core_v0.12.1", key),
    ]
