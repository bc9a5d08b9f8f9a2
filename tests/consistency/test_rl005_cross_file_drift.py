"""RL005 cross-file-drift: one remote at different refs in files of one family, across kinds of file."""

from __future__ import annotations

from pathlib import Path

from ascend_reflint.check.pack_schema import DriftFamily
from ascend_reflint.model import Related

from .helpers import default_policy, findings_in, record

DOCKERFILE = "docker/ascend/Dockerfile.ascend_a2"
SCRIPT = "scripts/install_npu.sh"
WORKFLOW = ".github/workflows/npu_unit_tests.yml"
MEGATRON = "github.com/nvidia/megatron-lm"
CHECKOUT = "github.com/actions/checkout"
VLLM = "github.com/vllm-project/vllm"
ASCEND = "drift family 'ascend'"
FAMILY = (
    "the files of drift family 'ascend' should pin one ref (or list the remote under drift-allowed-remotes)"
)
CHECKOUT_ID = "11bd71901bbe5b1630ceea73d27597364c9af683"


def pip(ref: str) -> str:
    return f"pip install git+https://github.com/NVIDIA/Megatron-LM.git@{ref}\n"


def drift(
    here: tuple[str, int, int, str],
    there: list[tuple[str, str, int, int, str]],
    scope: str,
    remote: str = MEGATRON,
    *,
    mates: tuple[tuple[str, int, int], ...] = (),
    majority: bool = False,
) -> tuple[str, str, int, int, int, str, tuple[Related, ...]]:
    """The RL005 record (see ``helpers.record``) of the pin ``here`` (path, line, column, ref), whose side
    also holds the pins ``mates`` (path, line, column), and that differs from the pins ``there`` (kind of
    file, path, line, column, ref): the ``majority`` side, or every other side; in a family or folder
    ``scope``."""
    path, line, column, ref = here
    mate_files = list(dict.fromkeys(mate[0] for mate in mates if mate[0] != path))
    at = f"here and in {', '.join(mate_files)}" if mate_files else "here"
    if majority:
        first = there[0][4]
        files = ", ".join(dict.fromkeys(p for _, p, _, _, _ in there))
        count = f"{len(there)} other pins of {scope} are" if len(there) > 1 else f"1 other pin of {scope} is"
        where = f'{count} at "{first}": {files}; pin "{first}" as they do'
    else:
        by_ref: dict[str, list[str]] = {}
        for _, other_path, _, _, other_ref in there:
            by_ref.setdefault(other_ref, []).append(other_path)
        sides = " and ".join(f'at "{r}" in {", ".join(dict.fromkeys(ps))}' for r, ps in by_ref.items())
        where = f"{sides}; the files of {scope} should pin one ref"
    related = tuple(Related(p, n, c, f'{remote} is pinned at "{ref}" here too') for p, n, c in mates)
    related += tuple(Related(p, n, c, f'{remote} is pinned at "{r}" here') for _, p, n, c, r in there)
    message = (
        f'{remote} is pinned at "{ref}" {at}, but {where} (or list the remote under drift-allowed-remotes)'
    )
    return ("RL005", path, line, column, column + len(ref), message, related)


def test_a_script_and_a_dockerfile_of_the_ascend_family_that_differ_are_both_reported(tmp_path: Path) -> None:
    files = {
        DOCKERFILE: "FROM ubuntu\nRUN " + pip("core_v0.12.1"),
        SCRIPT: "#!/bin/bash\n" + pip("core_v0.12.0"),
    }
    found = findings_in(tmp_path, files, "RL005")
    # one pin against one: no side is the majority, so each is reported
    assert [record(f) for f in found] == [
        drift((DOCKERFILE, 2, 63, "core_v0.12.1"), [("script", SCRIPT, 2, 59, "core_v0.12.0")], ASCEND),
        drift((SCRIPT, 2, 59, "core_v0.12.0"), [("Dockerfile", DOCKERFILE, 2, 63, "core_v0.12.1")], ASCEND),
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
    a, b = ".github/workflows/a.yml", ".github/workflows/b.yml"
    folder = "folder '.github/workflows'"
    assert [record(f) for f in found] == [
        drift((a, 4, 32, "v4"), [("workflow", b, 4, 32, CHECKOUT_ID)], folder, CHECKOUT),
        drift((b, 4, 32, CHECKOUT_ID), [("workflow", a, 4, 32, "v4")], folder, CHECKOUT),
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
    dockerfile, script, folder = "docker/cu128/Dockerfile", "docker/cu128/install.sh", "folder 'docker/cu128'"
    assert [record(f) for f in found] == [
        drift((dockerfile, 2, 63, "core_v0.13.0"), [("script", script, 1, 59, "core_v0.13.1")], folder),
        drift((script, 1, 59, "core_v0.13.1"), [("Dockerfile", dockerfile, 2, 63, "core_v0.13.0")], folder),
    ]


def test_a_family_of_the_user_joins_folders(tmp_path: Path) -> None:
    files = {
        "docker/cu128/Dockerfile": "FROM ubuntu\nRUN " + pip("core_v0.13.0"),
        "scripts/install.sh": pip("core_v0.11.0"),
    }
    family = DriftFamily(name="gpu", files=("docker/cu128/", "scripts/install.sh"))
    found = findings_in(tmp_path, files, "RL005", policy=default_policy(drift_families=(family,)))
    dockerfile, script, gpu = "docker/cu128/Dockerfile", "scripts/install.sh", "drift family 'gpu'"
    assert [record(f) for f in found] == [
        drift((dockerfile, 2, 63, "core_v0.13.0"), [("script", script, 1, 59, "core_v0.11.0")], gpu),
        drift((script, 1, 59, "core_v0.11.0"), [("Dockerfile", dockerfile, 2, 63, "core_v0.13.0")], gpu),
    ]


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
    # A script of the family elsewhere is compared with each pinned variant, and they with it.
    found = findings_in(tmp_path / "x", {**files, "scripts/npu.sh": pip("v1")}, "RL005")
    a2, a3, script, ascend = (
        "docker/ascend/Dockerfile.a2",
        "docker/ascend/Dockerfile.a3",
        "scripts/npu.sh",
        "drift family 'ascend'",
    )
    # three refs, one pin each: no majority, each side once, naming the sides it is compared with
    pin_a2, pin_a3, pin_script = (
        ("Dockerfile", a2, 4, 63, "core_v0.12.1"),
        ("Dockerfile", a3, 2, 63, "core_v0.13.0"),
        ("script", script, 1, 59, "v1"),
    )
    assert [record(f) for f in found] == [
        drift((a2, 4, 63, "core_v0.12.1"), [pin_script], ascend),
        drift((a3, 2, 63, "core_v0.13.0"), [pin_script], ascend),
        drift((script, 1, 59, "v1"), [pin_a2, pin_a3], ascend),
    ]


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
    assert [record(f) for f in found] == [
        drift((DOCKERFILE, 2, 28, "v0.27.1"), [("script", SCRIPT, 6, 14, "v0.27.0")], ASCEND, VLLM),
        drift((SCRIPT, 6, 14, "v0.27.0"), [("Dockerfile", DOCKERFILE, 2, 28, "v0.27.1")], ASCEND, VLLM),
    ]


def test_the_scanned_file_is_compared_with_the_whole_tree(tmp_path: Path) -> None:
    files = {DOCKERFILE: "FROM ubuntu\nRUN " + pip("core_v0.12.1"), SCRIPT: pip("core_v0.12.0")}
    found = findings_in(tmp_path, files, "RL005", scanned=[SCRIPT])
    assert [record(f) for f in found] == [
        drift((SCRIPT, 1, 59, "core_v0.12.0"), [("Dockerfile", DOCKERFILE, 2, 63, "core_v0.12.1")], ASCEND)
    ]
