"""RL004 variant-drift and the variant groups it compares (ascend_reflint.check.variants)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_reflint.check.pack_schema import VariantGroupSpec
from ascend_reflint.check.variants import find_variants, variant_key
from ascend_reflint.model import FileKind, Related, SourceFile

from .helpers import default_policy, findings_in, record

TOKENS = ("a2", "a3", "a5", "310p", "openeuler")
A2 = "docker/Dockerfile.ascend_9.1.0_a2"
A3 = "docker/Dockerfile.ascend_9.1.0_a3"
SAME_REF = (
    "a variant of the same recipe; pin the same ref in every variant (or list the remote under "
    "variant-allowed-drift)"
)
#: What a finding in the explicit group "images" advises: that group's allowed-drift names the remote too.
IMAGES_SAME_REF = (
    "a variant of the same recipe; pin the same ref in every variant (or list the remote under "
    "variant-groups 'images' allowed-drift (or variant-allowed-drift))"
)


def dockerfile(megatron: str, depth: str = "--depth 1 ", extra: str = "") -> str:
    return (
        "FROM ubuntu\n"
        f"RUN git clone {depth}--branch {megatron} https://github.com/NVIDIA/Megatron-LM.git\n"
        f"{extra}"
    )


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("docker/Dockerfile.ascend_9.1.0_a2", "docker/Dockerfile.ascend_9.1.0"),
        ("Dockerfile.a3.openEuler", "Dockerfile"),
        ("Dockerfile.OPENEULER", "Dockerfile"),
        (".github/workflows/docker-build-ascend-a3.yml", ".github/workflows/docker-build-ascend.yml"),
        ("a2-build.sh", "build.sh"),
        ("docker/ascend-310P/Dockerfile", "docker/ascend/Dockerfile"),
        ("Dockerfile.ascend_8.2.rc1_a2", "Dockerfile.ascend_8.2.rc1"),
        ("Dockerfile.a22", "Dockerfile.a22"),
        ("Dockerfile.xa2", "Dockerfile.xa2"),
    ],
)
def test_variant_key_drops_whole_token_parts(path: str, key: str) -> None:
    assert variant_key(path, TOKENS) == key


def source(path: str, kind: FileKind = FileKind.DOCKERFILE, error: str | None = None) -> SourceFile:
    return SourceFile(path=path, abspath=f"/r/{path}", kind=kind, text=None if error else "", error=error)


def test_groups_by_tokens_by_kind_and_by_explicit_globs() -> None:
    files = [
        source("Dockerfile"),
        source("Dockerfile.a3"),
        source("Dockerfile.openEuler"),
        source("Dockerfile.a3.openEuler"),
        source("Dockerfile.ascend_8.2.rc1_a2"),
        source("Dockerfile.ascend_8.3.rc1_a2"),
        source("build_a2.sh", FileKind.SHELL),
        source("build_a3.sh", FileKind.SHELL),
        source("build_a5.sh", FileKind.SHELL, error="permission denied"),  # could not be read: in no group
        source("x/Dockerfile.cuda"),
        source("x/Dockerfile.npu"),
    ]
    policy = default_policy(
        variant_groups=(VariantGroupSpec(name="x-images", files=("x/*",), allowed_drift=("github.com/a/b",)),)
    )
    index = find_variants(files, policy, {f.path: f.path for f in files})
    assert [(g.label, [f.path for f in g.files], g.allowed_drift) for g in index.groups] == [
        ("x-images", ["x/Dockerfile.cuda", "x/Dockerfile.npu"], ("github.com/a/b",)),
        (
            "Dockerfile",
            ["Dockerfile", "Dockerfile.a3", "Dockerfile.openEuler", "Dockerfile.a3.openEuler"],
            (),
        ),
        ("build.sh", ["build_a2.sh", "build_a3.sh"], ()),
    ]
    assert index.are_variants("Dockerfile", "Dockerfile.a3.openEuler")
    assert not index.are_variants("Dockerfile", "build_a2.sh")
    assert not index.are_variants("Dockerfile.ascend_8.2.rc1_a2", "Dockerfile.ascend_8.3.rc1_a2")


def test_a_ref_changed_on_one_side_is_reported_on_both_sides(tmp_path: Path) -> None:
    files = {A2: dockerfile("core_v0.12.1"), A3: dockerfile("core_v0.13.0")}
    found = findings_in(tmp_path, files, "RL004")
    assert [record(f) for f in found] == [
        (
            "RL004",
            A2,
            2,
            34,
            46,
            'github.com/nvidia/megatron-lm is pinned at "core_v0.12.1" here but at "core_v0.13.0" in '
            f"{A3}, {SAME_REF}",
            (Related(A3, 2, 34, 'github.com/nvidia/megatron-lm is pinned at "core_v0.13.0" here'),),
        ),
        (
            "RL004",
            A3,
            2,
            34,
            46,
            'github.com/nvidia/megatron-lm is pinned at "core_v0.13.0" here but at "core_v0.12.1" in '
            f"{A2}, {SAME_REF}",
            (Related(A2, 2, 34, 'github.com/nvidia/megatron-lm is pinned at "core_v0.12.1" here'),),
        ),
    ]
    assert [(f.remote, f.ref) for f in found] == [
        ("github.com/nvidia/megatron-lm", "core_v0.12.1"),
        ("github.com/nvidia/megatron-lm", "core_v0.13.0"),
    ]


def test_identical_variants_are_fine(tmp_path: Path) -> None:
    files = {A2: dockerfile("core_v0.12.1"), A3: "# the A3 image\n" + dockerfile("core_v0.12.1")}
    assert findings_in(tmp_path, files, "RL004") == []


def test_a_shallow_clone_on_one_side_only_is_reported(tmp_path: Path) -> None:
    files = {A2: dockerfile("core_v0.12.1"), A3: dockerfile("core_v0.12.1", depth="")}
    found = findings_in(tmp_path, files, "RL004")
    assert [record(f) for f in found] == [
        (
            "RL004",
            A2,
            2,
            34,
            46,
            "github.com/nvidia/megatron-lm is cloned shallow (`--depth 1`) here but with full history in "
            f"{A3}, a variant of the same recipe; clone it the same way in every variant",
            (Related(A3, 2, 24, "github.com/nvidia/megatron-lm is cloned with full history here"),),
        ),
        (
            "RL004",
            A3,
            2,
            24,
            36,
            "github.com/nvidia/megatron-lm is cloned with full history here but shallow (`--depth 1`) in "
            f"{A2}, a variant of the same recipe; clone it the same way in every variant",
            (Related(A2, 2, 34, "github.com/nvidia/megatron-lm is cloned shallow (`--depth 1`) here"),),
        ),
    ]


def test_a_remote_missing_in_one_variant_is_reported_on_both_sides(tmp_path: Path) -> None:
    deepep = "RUN pip install git+https://github.com/deepseek-ai/DeepEP.git@v1.2.1\n"
    files = {A2: dockerfile("core_v0.12.1", extra=deepep), A3: dockerfile("core_v0.12.1")}
    found = findings_in(tmp_path, files, "RL004")
    assert [record(f) for f in found] == [
        (
            "RL004",
            A2,
            3,
            63,
            69,
            f"github.com/deepseek-ai/deepep is pinned here but not in {A3}, a variant of the same recipe; "
            "pin it in every variant or in none",
            (Related(A3, 1, 1, f"{A3} does not pin github.com/deepseek-ai/deepep"),),
        ),
        (
            "RL004",
            A3,
            1,
            1,
            12,
            f'github.com/deepseek-ai/deepep is not pinned in this file but in {A2} at "v1.2.1", a variant of '
            "the same recipe; pin it in every variant or in none",
            (Related(A2, 3, 63, 'github.com/deepseek-ai/deepep is pinned at "v1.2.1" here'),),
        ),
    ]
    assert (found[1].remote, found[1].ref) == ("github.com/deepseek-ai/deepep", None)


def test_an_abbreviated_commit_id_matches_the_full_one(tmp_path: Path) -> None:
    full = "3f601f7ac1c062c46502646ff04c535013bfca00"
    pip = "FROM ubuntu\nRUN pip install git+https://github.com/deepseek-ai/DeepEP.git@{}\n"
    files = {"Dockerfile.a2": pip.format(full), "Dockerfile.a3": pip.format(full[:7].upper())}
    assert findings_in(tmp_path, files, "RL004") == []
    # The control: an abbreviation of another commit is drift.
    files["Dockerfile.a3"] = pip.format("3f601f8")
    assert [(f.path, f.ref) for f in findings_in(tmp_path / "x", files, "RL004")] == [
        ("Dockerfile.a2", full),
        ("Dockerfile.a3", "3f601f8"),
    ]


def test_allowed_drift_and_explicit_groups(tmp_path: Path) -> None:
    files = {A2: dockerfile("core_v0.12.1"), A3: dockerfile("core_v0.13.0")}
    relaxed = default_policy(variant_allowed_drift=("https://github.com/NVIDIA/Megatron-LM.git",))
    assert findings_in(tmp_path, files, "RL004", policy=relaxed) == []
    group = VariantGroupSpec(files=("docker/*",), allowed_drift=("github.com/nvidia/megatron-lm",))
    assert findings_in(tmp_path, files, "RL004", policy=default_policy(variant_groups=(group,))) == []
    other = {
        "images/cuda.Dockerfile": dockerfile("core_v0.12.1"),
        "images/npu.Dockerfile": dockerfile("core_v0.13.0"),
    }
    grouped = default_policy(variant_groups=(VariantGroupSpec(name="images", files=("images/",)),))
    cuda, npu = "images/cuda.Dockerfile", "images/npu.Dockerfile"
    assert [record(f) for f in findings_in(tmp_path / "x", other, "RL004", policy=grouped)] == [
        _drift((cuda, "core_v0.12.1"), (npu, "core_v0.13.0"), IMAGES_SAME_REF),
        _drift((npu, "core_v0.13.0"), (cuda, "core_v0.12.1"), IMAGES_SAME_REF),
    ]
    assert findings_in(tmp_path / "y", other, "RL004") == []


def test_only_the_scanned_variant_is_reported_and_its_sibling_is_read_as_context(tmp_path: Path) -> None:
    files = {A2: dockerfile("core_v0.12.1"), A3: dockerfile("core_v0.13.0")}
    found = findings_in(tmp_path, files, "RL004", scanned=[A3])
    assert [record(f) for f in found] == [_drift((A3, "core_v0.13.0"), (A2, "core_v0.12.1"))]


def _drift(here: tuple[str, str], there: tuple[str, str], same: str = SAME_REF) -> tuple[object, ...]:
    """The RL004 record of Megatron-LM's clone (line 2, column 34) at ``here`` (path, ref) that differs from
    the one at ``there``, ending with ``same``."""
    (path, ref), (other_path, other_ref) = here, there
    return (
        "RL004",
        path,
        2,
        34,
        34 + len(ref),
        f'github.com/nvidia/megatron-lm is pinned at "{ref}" here but at "{other_ref}" in {other_path}, '
        f"{same}",
        (Related(other_path, 2, 34, f'github.com/nvidia/megatron-lm is pinned at "{other_ref}" here'),),
    )


def vllm_dockerfile(tag: str, *, commit_branch: bool) -> str:
    """vllm-ascend's Dockerfile shape: a clone at ``VLLM_TAG``, and, in the variants that have it, a fetch
    of ``VLLM_COMMIT`` (empty by default, so that pin is unresolved) taken only when it is set."""
    fetch = (
        'RUN if [ -n "$VLLM_COMMIT" ]; then \\\n'
        "      git init /w/vllm && \\\n"
        '      git -C /w/vllm fetch --depth 1 $VLLM_REPO "$VLLM_COMMIT" && \\\n'
        "      git -C /w/vllm checkout FETCH_HEAD; \\\n"
        "    else \\\n"
        "      git clone --depth 1 -b $VLLM_TAG $VLLM_REPO /w/vllm; \\\n"
        "    fi\n"
    )
    clone = "RUN git clone --depth 1 -b $VLLM_TAG $VLLM_REPO /w/vllm\n"
    recipe = 'ARG VLLM_COMMIT=""\n' + fetch if commit_branch else clone
    return (
        f"FROM ubuntu\nARG VLLM_REPO=https://github.com/vllm-project/vllm.git\nARG VLLM_TAG={tag}\n{recipe}"
    )


def test_an_unresolved_pin_takes_no_part_in_the_comparison(tmp_path: Path) -> None:
    files = {
        "Dockerfile": vllm_dockerfile("v0.27.1", commit_branch=True),
        "Dockerfile.a5": vllm_dockerfile("v0.27.1", commit_branch=False),
    }
    assert findings_in(tmp_path, files, "RL004") == []


def test_a_remote_that_only_an_unresolved_pin_names_is_not_missing_anywhere(tmp_path: Path) -> None:
    deepep = "RUN pip install git+https://github.com/deepseek-ai/DeepEP.git@{}\n"
    files = {
        "Dockerfile.a2": dockerfile("core_v0.12.1", extra="ARG DEEPEP_REF\n" + deepep.format("$DEEPEP_REF")),
        "Dockerfile.a3": dockerfile("core_v0.12.1", extra=deepep.format("v1.2.1")),
        "Dockerfile.a5": dockerfile("core_v0.12.1"),
    }
    found = findings_in(tmp_path, files, "RL004")
    # a5 lacks DeepEP next to a3's resolved pin; a2 names it (unresolved): neither lacking nor compared.
    assert [record(f) for f in found] == [
        (
            "RL004",
            "Dockerfile.a3",
            3,
            63,
            69,
            "github.com/deepseek-ai/deepep is pinned here but not in Dockerfile.a5, a variant of the same "
            "recipe; pin it in every variant or in none",
            (Related("Dockerfile.a5", 1, 1, "Dockerfile.a5 does not pin github.com/deepseek-ai/deepep"),),
        ),
        (
            "RL004",
            "Dockerfile.a5",
            1,
            1,
            12,
            'github.com/deepseek-ai/deepep is not pinned in this file but in Dockerfile.a3 at "v1.2.1", a '
            "variant of the same recipe; pin it in every variant or in none",
            (Related("Dockerfile.a3", 3, 63, 'github.com/deepseek-ai/deepep is pinned at "v1.2.1" here'),),
        ),
    ]
    without_a3 = {path: text for path, text in files.items() if path != "Dockerfile.a3"}
    assert findings_in(tmp_path / "x", without_a3, "RL004") == []


def test_resolved_drift_beside_an_unresolved_pin_is_still_reported(tmp_path: Path) -> None:
    files = {
        "Dockerfile": vllm_dockerfile("v0.27.1", commit_branch=True),
        "Dockerfile.a5": vllm_dockerfile("v0.27.0", commit_branch=False),
    }
    found = findings_in(tmp_path, files, "RL004")
    # Each side once (one variant against one), where the tag is written: ARG VLLM_TAG=… on line 3.
    assert [record(f) for f in found] == [
        (
            "RL004",
            "Dockerfile",
            3,
            14,
            21,
            'github.com/vllm-project/vllm is pinned at "v0.27.1" here but at "v0.27.0" in Dockerfile.a5, '
            f"{SAME_REF}",
            (
                Related("Dockerfile", 10, 30, "the value is used here", same_value=True),
                Related("Dockerfile.a5", 3, 14, 'github.com/vllm-project/vllm is pinned at "v0.27.0" here'),
            ),
        ),
        (
            "RL004",
            "Dockerfile.a5",
            3,
            14,
            21,
            'github.com/vllm-project/vllm is pinned at "v0.27.0" here but at "v0.27.1" in Dockerfile, '
            f"{SAME_REF}",
            (
                Related("Dockerfile.a5", 4, 28, "the value is used here", same_value=True),
                Related("Dockerfile", 3, 14, 'github.com/vllm-project/vllm is pinned at "v0.27.1" here'),
            ),
        ),
    ]


VARIANTS = ["a2", "a3", "a5", "310p", "openEuler", "a2.openEuler", "a3.openEuler", "a5.openEuler"]


def vllm_tag(tag: str) -> str:
    clone = "RUN git clone --depth 1 --branch ${VLLM_TAG} https://github.com/vllm-project/vllm.git\n"
    return f"FROM ubuntu\nARG VLLM_TAG={tag}\n{clone}"


def test_the_odd_variant_out_is_reported_once_where_its_ref_is_set(tmp_path: Path) -> None:
    files = {f"docker/Dockerfile.{v}": vllm_tag("v0.26.0") for v in VARIANTS}
    files["docker/Dockerfile.a5"] = vllm_tag("v0.27.0")
    others = [f"docker/Dockerfile.{v}" for v in sorted(VARIANTS) if v != "a5"]
    found = findings_in(tmp_path, files, "RL004")
    assert [record(f) for f in found] == [
        (
            "RL004",
            "docker/Dockerfile.a5",
            2,
            14,
            21,
            'github.com/vllm-project/vllm is pinned at "v0.27.0" here but at "v0.26.0" in 7 of its variants '
            f'({", ".join(others[:3])} and 4 more); pin "v0.26.0" as they do (or list the remote under '
            "variant-allowed-drift)",
            (
                Related("docker/Dockerfile.a5", 3, 34, "the value is used here", same_value=True),
                *(
                    Related(path, 2, 14, 'github.com/vllm-project/vllm is pinned at "v0.26.0" here')
                    for path in others
                ),
            ),
        )
    ]


def test_a_tie_reports_each_side_once(tmp_path: Path) -> None:
    files = {
        "Dockerfile.a2": vllm_tag("v0.26.0"),
        "Dockerfile.a3": vllm_tag("v0.26.0"),
        "Dockerfile.a5": vllm_tag("v0.27.0"),
        "Dockerfile.310p": vllm_tag("v0.27.0"),
    }
    found = findings_in(tmp_path, files, "RL004")
    assert [(f.path, f.span.line, f.ref, [(r.path, r.message) for r in f.related]) for f in found] == [
        (
            "Dockerfile.310p",
            2,
            "v0.27.0",
            [
                ("Dockerfile.310p", "the value is used here"),
                ("Dockerfile.a2", 'github.com/vllm-project/vllm is pinned at "v0.26.0" here'),
                ("Dockerfile.a3", 'github.com/vllm-project/vllm is pinned at "v0.26.0" here'),
                ("Dockerfile.a5", 'github.com/vllm-project/vllm is pinned at "v0.27.0" here too'),
            ],
        ),
        (
            "Dockerfile.a2",
            2,
            "v0.26.0",
            [
                ("Dockerfile.a2", "the value is used here"),
                ("Dockerfile.310p", 'github.com/vllm-project/vllm is pinned at "v0.27.0" here'),
                ("Dockerfile.a5", 'github.com/vllm-project/vllm is pinned at "v0.27.0" here'),
                ("Dockerfile.a3", 'github.com/vllm-project/vllm is pinned at "v0.26.0" here too'),
            ],
        ),
    ]
    # Under pre-commit, a side is reported at its variant that was given.
    found = findings_in(tmp_path / "x", files, "RL004", scanned=["Dockerfile.a3"])
    assert [(f.path, f.ref) for f in found] == [("Dockerfile.a3", "v0.26.0")]


def test_only_the_variant_that_lacks_a_remote_the_others_pin_is_reported(tmp_path: Path) -> None:
    deepep = "RUN pip install git+https://github.com/deepseek-ai/DeepEP.git@v1.2.1\n"
    files = {
        "Dockerfile.a2": dockerfile("core_v0.12.1", extra=deepep),
        "Dockerfile.a3": dockerfile("core_v0.12.1", extra=deepep),
        "Dockerfile.a5": dockerfile("core_v0.12.1"),
    }
    found = findings_in(tmp_path, files, "RL004")
    assert [record(f) for f in found] == [
        (
            "RL004",
            "Dockerfile.a5",
            1,
            1,
            12,
            "github.com/deepseek-ai/deepep is not pinned in this file but in 2 of its variants "
            "(Dockerfile.a2 at "
            '"v1.2.1", Dockerfile.a3 at "v1.2.1"); pin it in every variant or in none',
            (
                Related("Dockerfile.a2", 3, 63, 'github.com/deepseek-ai/deepep is pinned at "v1.2.1" here'),
                Related("Dockerfile.a3", 3, 63, 'github.com/deepseek-ai/deepep is pinned at "v1.2.1" here'),
            ),
        )
    ]
