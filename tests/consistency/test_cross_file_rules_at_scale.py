"""RL005 and RL006 on trees with many files and pins give what comparing every pair would give.

Both rules group their work to stay fast on large repositories (RL005 asks once per file whether another
side's pins of other kinds are compared with it, not every pin with every other; RL006 matches each
Dockerfile with the env pairs once). The
references here are the rules' definitions written as the plain quadratic loops, run on generated trees
that hold every case that matters: families and folders, all four kinds, variants, a file pinning one
remote twice, commit ids one of which abbreviates two others (so "same ref" is not transitive), unresolved
refs, an allowed remote, and paired and unpaired workflows.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from ascend_reflint.check.context import ProjectContext
from ascend_reflint.check.engine import rule_info
from ascend_reflint.check.globs import matches
from ascend_reflint.check.pack_schema import EnvPair, VariantGroupSpec
from ascend_reflint.check.policy import Policy
from ascend_reflint.check.rules import rl005_cross_file_drift, rl006_env_drift
from ascend_reflint.check.variants import find_variants
from ascend_reflint.inventory import build_inventory
from ascend_reflint.model import FileKind, Finding, SourceFile

from .helpers import default_policy, findings_in

SHORT_ID = "abc1234"
REFS = ("v1.0", "v1.1", "main", SHORT_ID, SHORT_ID + "0" * 33, SHORT_ID + "f" * 33, "$UNSET")
REMOTES = ("o/r0", "o/r1", "o/r2", "o/allowed")
ALLOWED = "github.com/o/allowed"
VARIABLES = ("VAR_A", "VAR_B")


def generated_tree(seed: int) -> dict[str, str]:
    """About 200 recipe files with 1-3 pins each, drawn from a fixed seed."""
    rng = random.Random(seed)

    def pins(line: str) -> str:
        chosen = [rng.choice(REMOTES) for _ in range(rng.randint(1, 3))]
        return "".join(line.format(remote=remote, ref=rng.choice(REFS)) for remote in chosen)

    def env(prefix: str, form: str) -> str:
        return "".join(
            form.format(prefix, name, rng.choice("12")) for name in VARIABLES if rng.random() < 0.5
        )

    files: dict[str, str] = {}
    for folder in ("docker/ascend", "docker/cuda", "docker/npu_x", "docker/rocm"):
        for index in range(12):
            name = f"{folder}/Dockerfile.v{index // 3}{('', '_a2', '_a3')[index % 3]}"
            files[name] = (
                "FROM ubuntu\n"
                + env("ENV", "{} {}={}\n")
                + pins("RUN pip install git+https://github.com/{remote}.git@{ref}\n")
            )
    for folder in ("scripts", "scripts/npu", "tools"):
        for index in range(20):
            files[f"{folder}/install_{index}.sh"] = "#!/bin/bash\n" + pins(
                "pip install git+https://github.com/{remote}.git@{ref}\n"
            )
    for index in range(10):
        files[f"requirements-npu-{index}.txt"] = pins("git+https://github.com/{remote}.git@{ref}\n")
        files[f"docker/cuda/requirements-{index}.txt"] = pins("git+https://github.com/{remote}.git@{ref}\n")
    for prefix in ("npu_", "ascend_", "gpu_", "docs_"):
        for index in range(8):
            steps = pins("      - uses: {remote}@{ref}\n") + pins(
                "      - run: pip install git+https://github.com/{remote}.git@{ref}\n"
            )
            workflow_env = "env:\n" + env("", "  {}{}: '{}'\n") if rng.random() < 0.3 else ""
            jobs = "".join(
                f"  job{job}:\n    runs-on: x\n"
                + ("    env:\n" + env("", "      {}{}: '{}'\n") if rng.random() < 0.6 else "")
                + "    steps:\n"
                + steps
                for job in range(rng.randint(1, 3))
            )
            files[f".github/workflows/{prefix}{index}.yml"] = f"on: push\n{workflow_env}jobs:\n{jobs}"
    return files


def rl005_by_pairs(
    files: Sequence[SourceFile], policy: Policy
) -> list[tuple[str, int, int, tuple[tuple[str, int, int], ...]]]:
    """RL005 by its definition: the pins of a family and remote in sides by what they build (a commit id
    as the longest, then first, id of the group that it abbreviates); each side but the largest (each side
    when no side is largest), when one of its pins is compared with a pin of another side (every pair
    looked at), reported once at the first such pin, with its other pins and those of the largest side (of
    every other side that the first such pin is compared with, the first 20 of those) as related places, the
    first 20 of them."""
    context = project(files, policy, rl005_cross_file_drift)
    groups: dict[tuple[str, str], list] = {}
    for source in context.files:
        family = rl005_cross_file_drift.family_of(context, source)
        for pin in source.pins:
            if (
                pin.remote is None
                or pin.ref is None
                or not pin.resolved
                or policy.may_drift_across_files(pin.remote)
            ):
                continue
            groups.setdefault((family, pin.remote), []).append(pin)
    expected = []
    for pins in groups.values():
        sides: dict[str, list] = {}
        for pin in pins:
            sides.setdefault(built(pin.ref, [other.ref for other in pins]), []).append(pin)
        listed = list(sides.values())
        sizes = [len(side) for side in listed]
        majority = listed[sizes.index(max(sizes))] if sizes.count(max(sizes)) == 1 else None
        for side in listed:
            others = [other for other in listed if other is not side]
            host = next(
                (pin for pin in side if any(compared(context, pin, o) for x in others for o in x)), None
            )
            if side is majority or len(listed) < 2 or host is None:
                continue
            differing = [other for other in others if any(compared(context, host, pin) for pin in other)]
            related = [pin for pin in side if pin is not host]
            related += [pin for other in ([majority] if majority else differing[:20]) for pin in other]
            related = related[:20]
            where = tuple((pin.path, pin.span.line, pin.span.column) for pin in related)
            expected.append((host.path, host.span.line, host.span.column, where))
    return sorted(expected)


def built(ref: str, refs: list[str]) -> str:
    """What a pin of ``ref`` builds, among pins of ``refs``: a commit id stands for the longest, then first,
    commit id of ``refs`` that it abbreviates (or is)."""
    if not re.fullmatch(r"[0-9a-f]{7,40}", ref):
        return ref
    return min(
        (r for r in refs if re.fullmatch(r"[0-9a-f]{7,40}", r) and r.startswith(ref)),
        key=lambda r: (-len(r), r),
    )


def compared(context: ProjectContext, pin, other) -> bool:  # type: ignore[no-untyped-def]
    return (
        other.path != pin.path
        and not context.variants.are_variants(pin.path, other.path)
        and (other.kind is not pin.kind or context.policy.drift_same_kind)
    )


def project(files: Sequence[SourceFile], policy: Policy, rule: object) -> ProjectContext:
    relpaths = {source.path: source.path for source in files}
    return ProjectContext(files, policy, rule_info(rule), relpaths, find_variants(files, policy, relpaths))  # type: ignore[arg-type]


def as_pairs(found: Sequence[Finding]) -> list[tuple[str, int, int, tuple[tuple[str, int, int], ...]]]:
    return sorted(
        (f.path, f.span.line, f.span.column, tuple((r.path, r.line, r.column) for r in f.related))
        for f in found
    )


def inventory(root: Path) -> list[SourceFile]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return build_inventory(["."]).files


@pytest.mark.parametrize(
    ("seed", "same_kind", "drifting", "widest"),
    # The trees are the same on every run (seeded): how many sides drift, and the most places one names,
    # say that the comparison had work to do.
    [(1, False, 25, 20), (2, False, 26, 20), (1, True, 55, 20), (2, True, 56, 20)],
)
def test_rl005_reports_what_comparing_every_pair_of_pins_reports(
    tmp_path: Path, seed: int, same_kind: bool, drifting: int, widest: int
) -> None:
    policy = default_policy(
        drift_same_kind=same_kind,
        drift_allowed_remotes=(ALLOWED,),
        variant_groups=(VariantGroupSpec(files=("docker/rocm/*",)),),
    )
    found = findings_in(tmp_path, generated_tree(seed), "RL005", policy=policy)
    expected = rl005_by_pairs(inventory(tmp_path), policy)
    assert as_pairs(found) == expected
    assert (len(expected), max(len(where) for *_, where in expected)) == (drifting, widest)


def test_rl005_is_the_same_when_every_file_is_one_family(tmp_path: Path) -> None:
    from ascend_reflint.check.pack_schema import DriftFamily

    policy = default_policy(drift_families=(DriftFamily(name="all", files=("*",)),))
    found = findings_in(tmp_path, generated_tree(3), "RL005", policy=policy)
    assert as_pairs(found) == rl005_by_pairs(inventory(tmp_path), policy)
    assert len(found) == 40


def images_by_pairs(
    files: Sequence[SourceFile], policy: Policy, workflow: str, name: str
) -> tuple[tuple[str, int, int], ...]:
    """The Dockerfile ``ENV`` lines that RL006 compares a workflow with, by its definition: each Dockerfile
    that the globs of an env pair matching the workflow match, its last image-level ``ENV`` of ``name``."""
    pairs = [pair for pair in policy.env_pairs if matches(pair.workflows, workflow)]
    found: list[tuple[str, int, int]] = []
    for source in files:
        if source.kind is FileKind.DOCKERFILE and any(
            matches(pair.dockerfiles, source.path) for pair in pairs
        ):
            settings = [s for s in source.env if s.name == name and s.scope == "image"][-1:]
            found.extend((source.path, s.span.line, s.span.column) for s in settings)
    return tuple(found)


@pytest.mark.parametrize(("seed", "count", "reported_workflows"), [(1, 53, 19), (2, 63, 22)])
def test_rl006_compares_each_workflow_with_the_dockerfiles_its_pairs_take(
    tmp_path: Path, seed: int, count: int, reported_workflows: int
) -> None:
    policy = default_policy(
        shared_env=VARIABLES,
        env_pairs=(
            EnvPair(dockerfiles=("docker/cuda/", "docker/rocm/"), workflows=(".github/workflows/gpu_*",)),
        ),
    )
    found = findings_in(tmp_path, generated_tree(seed), "RL006", policy=policy)
    files = inventory(tmp_path)
    for finding in found:
        name = finding.related[0].message.split(" sets ", 1)[1].split("=", 1)[0]
        assert tuple((r.path, r.line, r.column) for r in finding.related) == images_by_pairs(
            files, policy, finding.path, name
        )
    workflows = [source for source in files if source.kind is FileKind.WORKFLOW]
    one_at_a_time = [
        finding
        for workflow in workflows
        for finding in rl006_env_drift.check_project(
            project(
                [workflow, *(s for s in files if s.kind is not FileKind.WORKFLOW)], policy, rl006_env_drift
            )
        )
    ]
    assert sorted(found, key=Finding.sort_key) == sorted(one_at_a_time, key=Finding.sort_key)
    # The seeded tree's findings: how many, and in how many workflows.
    assert (len(found), len({finding.path for finding in found})) == (count, reported_workflows)
