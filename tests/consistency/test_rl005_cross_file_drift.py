"""RL005 cross-file-drift: one remote at different refs in files of one family, across kinds of file."""

from __future__ import annotations

from pathlib import Path

from ascend_reflint.check.policy import DriftFamily
from ascend_reflint.model import Related

from .helpers import default_policy, findings_in, record

DOCKERFILE = "docker/ascend/Dockerfile.ascend_a2"
SCRIPT = "scripts/install_npu.sh"
WORKFLOW = ".github/workflows/npu_unit_tests.yml"
MEGATRON = "github.com/nvidia/megatron-lm"
FAMILY = (
    "the files of drift family 'ascend' should pin one ref (or list the remote under drift-allowed-remotes)"
)
CHECKOUT_ID = "11bd71901bbe5b1630ceea73d27597364c9af683"


def pip(ref: str) -> str:
    return f"pip install git+https://github.com/NVIDIA/Megatron-LM.git@{ref}\n"


def test_a_script_and_a_dockerfile_of_the_ascend_family_that_differ_are_both_reported(tmp_path: Path) -> None:
    files = {
        DOCKERFILE: "FROM ubuntu\nRUN " + pip("core_v0.12.1"),
        SCRIPT: "#!/bin/bash\n" + pip("core_v0.12.0"),
    }
    found = findings_in(tmp_path, files, "RL005")
    assert [record(f) for f in found] == [
        (
            "RL005",
            DOCKERFILE,
            2,
            63,
            75,
            f'{MEGATRON} is pinned at "core_v0.12.1" here but at "core_v0.12.0" in the script {SCRIPT}; '
            f"{FAMILY}",
            (Related(SCRIPT, 2, 59, f'{MEGATRON} is pinned at "core_v0.12.0" here'),),
        ),
        (
            "RL005",
            SCRIPT,
            2,
            59,
            71,
            f'{MEGATRON} is pinned at "core_v0.12.0" here but at "core_v0.12.1" in the Dockerfile '
            f"{DOCKERFILE}; {FAMILY}",
            (Related(DOCKERFILE, 2, 63, f'{MEGATRON} is pinned at "core_v0.12.1" here'),),
        ),
    ]
    assert [f.severity.label for f in found] == ["warning", "warning"]


def test_the_same_ref_everywhere_is_fine(tmp_path: Path) -> None:
    files = {
        DOCKERFILE: "FROM ubuntu\nRUN git clone -b core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git\n",
        SCRIPT: pip("core_v0.12.1"),
        WORKFLOW: "jobs:\n  t:\n    steps:\n      - run: " + pip("core_v0.12.1"),
    }
    assert findings_in(tmp_path, files, "RL005") == []


def test_files_of_one_kind_are_not_compared_unless_asked(tmp_path: Path) -> None:
    files = {
        ".github/workflows/a.yml": "jobs:\n  t:\n    steps:\n      - uses: actions/checkout@v4\n",
        ".github/workflows/b.yml": "jobs:\n  t:\n    steps:\n      - uses: actions/checkout@"
        + CHECKOUT_ID
        + "\n",
    }
    assert findings_in(tmp_path, files, "RL005") == []
    found = findings_in(tmp_path, files, "RL005", policy=default_policy(drift_same_kind=True))
    assert [(f.path, f.ref, f.related[0].path) for f in found] == [
        (".github/workflows/a.yml", "v4", ".github/workflows/b.yml"),
        (".github/workflows/b.yml", CHECKOUT_ID, ".github/workflows/a.yml"),
    ]
    allowed = default_policy(drift_same_kind=True, drift_allowed_remotes=("github.com/actions/checkout",))
    assert findings_in(tmp_path, files, "RL005", policy=allowed) == []


def test_files_in_no_family_are_compared_with_their_folder_only(tmp_path: Path) -> None:
    files = {
        "docker/cu128/Dockerfile": "FROM ubuntu\nRUN " + pip("core_v0.13.0"),
        "docker/cu128/install.sh": pip("core_v0.13.1"),
        "docker/cu126/Dockerfile": "FROM ubuntu\nRUN " + pip("core_v0.12.2"),
        "scripts/install.sh": pip("core_v0.11.0"),
    }
    found = findings_in(tmp_path, files, "RL005")
    assert [(f.path, f.ref, [r.path for r in f.related]) for f in found] == [
        ("docker/cu128/Dockerfile", "core_v0.13.0", ["docker/cu128/install.sh"]),
        ("docker/cu128/install.sh", "core_v0.13.1", ["docker/cu128/Dockerfile"]),
    ]
    assert found[0].message.endswith(
        "the files of folder 'docker/cu128' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )


def test_a_family_of_the_user_joins_folders(tmp_path: Path) -> None:
    files = {
        "docker/cu128/Dockerfile": "FROM ubuntu\nRUN " + pip("core_v0.13.0"),
        "scripts/install.sh": pip("core_v0.11.0"),
    }
    family = DriftFamily(name="gpu", files=("docker/cu128/", "scripts/install.sh"))
    found = findings_in(tmp_path, files, "RL005", policy=default_policy(drift_families=(family,)))
    assert [(f.path, f.related[0].path) for f in found] == [
        ("docker/cu128/Dockerfile", "scripts/install.sh"),
        ("scripts/install.sh", "docker/cu128/Dockerfile"),
    ]
    assert "drift family 'gpu'" in found[0].message


def test_unresolved_and_unpinned_refs_and_variants_are_left_to_other_rules(tmp_path: Path) -> None:
    files = {
        "docker/ascend/Dockerfile.a2": "FROM ubuntu\nARG REF\nRUN "
        + pip("${REF}")
        + "RUN "
        + pip("core_v0.12.1"),
        "docker/ascend/Dockerfile.a3": "FROM ubuntu\nRUN " + pip("core_v0.13.0"),
        "docker/ascend/install.sh": "pip install git+https://github.com/NVIDIA/Megatron-LM.git\n",
    }
    found = findings_in(tmp_path, files, "RL005", policy=default_policy(drift_same_kind=True))
    assert found == []
    assert len(findings_in(tmp_path / "x", {**files, "scripts/npu.sh": pip("v1")}, "RL005")) == 3


def test_a_fetch_of_an_empty_commit_variable_is_not_compared(tmp_path: Path) -> None:
    # vllm-ascend's shape: FETCH_HEAD of a `git fetch URL "$VLLM_COMMIT"` with VLLM_COMMIT="" is unresolved.
    script = (
        "#!/bin/bash\n"
        'VLLM_COMMIT=""\n'
        "git init /w/vllm\n"
        'git -C /w/vllm fetch --depth 1 https://github.com/vllm-project/vllm.git "$VLLM_COMMIT"\n'
        "git -C /w/vllm checkout FETCH_HEAD\n"
    )
    clone = "FROM ubuntu\nRUN git clone --depth 1 -b {} https://github.com/vllm-project/vllm.git /w/vllm\n"
    assert findings_in(tmp_path, {DOCKERFILE: clone.format("v0.27.1"), SCRIPT: script}, "RL005") == []
    tagged = script + "git clone -b v0.27.0 https://github.com/vllm-project/vllm.git /w/other\n"
    found = findings_in(tmp_path / "x", {DOCKERFILE: clone.format("v0.27.1"), SCRIPT: tagged}, "RL005")
    assert [(f.path, f.span.line, f.ref, [r.line for r in f.related]) for f in found] == [
        (DOCKERFILE, 2, "v0.27.1", [6]),
        (SCRIPT, 6, "v0.27.0", [2]),
    ]


def test_the_scanned_file_is_compared_with_the_whole_tree(tmp_path: Path) -> None:
    files = {DOCKERFILE: "FROM ubuntu\nRUN " + pip("core_v0.12.1"), SCRIPT: pip("core_v0.12.0")}
    found = findings_in(tmp_path, files, "RL005", scanned=[SCRIPT])
    assert [(f.path, f.related[0].path) for f in found] == [(SCRIPT, DOCKERFILE)]
