"""RL005 and RL006 on trees with many files and pins give what comparing every pair would give.

Both rules group their work to stay fast on large repositories (RL005 compares buckets of pins with one
ref and kind, not every pin with every other; RL006 matches each Dockerfile with the env pairs once). The
references here are the rules' definitions written as the plain quadratic loops, run on generated trees
that hold every case that matters: families and folders, all four kinds, variants, a file pinning one
remote twice, commit ids one of which abbreviates two others (so "same ref" is not transitive), unresolved
refs, an allowed remote, and paired and unpaired workflows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from ascend_reflint.check.context import ProjectContext
from ascend_reflint.check.engine import rule_info
from ascend_reflint.check.globs import matches
from ascend_reflint.check.pack_schema import EnvPair, VariantGroupSpec
from ascend_reflint.check.policy import Policy
from ascend_reflint.check.refnames import same_ref
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
    """RL005 by its definition: every pin compared with every other pin of its family and remote."""
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
        for pin in pins:
            others = [
                other
                for other in pins
                if other.path != pin.path
                and not context.variants.are_variants(pin.path, other.path)
                and (other.kind is not pin.kind or policy.drift_same_kind)
                and not same_ref(pin.ref, other.ref)
            ]
            if others:
                where = tuple((other.path, other.span.line, other.span.column) for other in others)
                expected.append((pin.path, pin.span.line, pin.span.column, where))
    return sorted(expected)


def project(files: Sequence[SourceFile], policy: Policy, rule: object) -> ProjectContext:
    relpaths = {source.path: source.path for source in files}
    return ProjectContext(files, policy, rule_info(rule), relpaths, find_variants(files, policy, relpaths))  # type: ignore[arg-type]


def as_pairs(found: Sequence[Finding]) -> list[tuple[str, int, int, tuple[tuple[str, int, int], ...]]]:
    return sorted(
        (f.path, f.span.line, f.span.column, tuple((r.path, r.line, r.column) for r in f.related))
        for f in found
    )


def listed(
    expected: Sequence[tuple[str, int, int, tuple[tuple[str, int, int], ...]]],
) -> list[tuple[str, int, int, tuple[tuple[str, int, int], ...]]]:
    """The pairs of ``expected`` as a finding lists them: its first MAX_RELATED other places."""
    return [(*place, where[: rl005_cross_file_drift.MAX_RELATED]) for *place, where in expected]


def counted(found: Sequence[Finding]) -> list[tuple[str, int, int, int]]:
    """Each finding's place and how many other places its message counts ("… (and N more)")."""
    counts = []
    for f in found:
        more = f.message.partition(" more)")[0].rpartition("(and ")[2] if " more)" in f.message else "0"
        counts.append((f.path, f.span.line, f.span.column, int(more) + 1))
    return sorted(counts)


def inventory(root: Path) -> list[SourceFile]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return build_inventory(["."]).files


@pytest.mark.parametrize(
    ("seed", "same_kind", "drifting", "widest"),
    # The trees are the same on every run (seeded): how many pins drift, and the most places one differs
    # from, say that the comparison had work to do.
    [(1, False, 180, 43), (2, False, 183, 53), (1, True, 315, 46), (2, True, 332, 56)],
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
    assert as_pairs(found) == listed(expected)
    assert counted(found) == [(*place, len(where)) for *place, where in expected]
    assert (len(expected), max(len(where) for *_, where in expected)) == (drifting, widest)


def test_rl005_is_the_same_when_every_file_is_one_family(tmp_path: Path) -> None:
    from ascend_reflint.check.pack_schema import DriftFamily

    policy = default_policy(drift_families=(DriftFamily(name="all", files=("*",)),))
    found = findings_in(tmp_path, generated_tree(3), "RL005", policy=policy)
    assert as_pairs(found) == listed(rl005_by_pairs(inventory(tmp_path), policy))
    assert len(found) == 448


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
