"""Build a synthetic repository shaped like an ML infrastructure repo, and bare git remotes for its URLs.

Everything is generated from a fixed seed, so two runs measure the same files. Nothing is read from
outside this file: the ref names below imitate the shapes real upstreams use (Megatron-LM's
``core_rX.Y.Z`` branches beside ``core_vX.Y.Z`` tags, TransformerEngine's ``release_vX.Y`` branches,
date-named tags, thousands of bot branches, ``actions/*`` major tags), but every name is made up here.

At scale 1x the repository has about 40 Dockerfiles (multi-line ``RUN``, ``ARG``, Ascend ``_a2``/``_a3``
variant pairs), 200 shell scripts (most of them training launchers without a pin), 30 workflows,
10 requirements files and 620 other files (Python, Markdown, YAML configs), with about 330 pins over
the 25 remotes of :data:`REMOTES`. Scale N has N times as many files of each kind, over the same 25
remotes. About one pin in ten is wrong in a way reflint reports (a release branch pinned where the tag
was meant, a ref that does not exist, variants that drift apart), so the report is not empty.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Files of each kind at scale 1x.
BASE_COUNTS = {
    "dockerfile": 40,
    "shell": 200,
    "workflow": 30,
    "requirements": 10,
    "python": 500,
    "markdown": 60,
    "yaml": 60,
}

#: Share of shell scripts that install something from git (the rest are training launchers).
INSTALL_SCRIPT_SHARE = 0.12

_SEED = 20260101
_EPOCH = 1_700_000_000  # commit and tag dates of the bare remotes, seconds since 1970
_GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": f"{_EPOCH} +0000",
    "GIT_COMMITTER_DATE": f"{_EPOCH} +0000",
}


@dataclass(frozen=True)
class Remote:
    """One upstream repository that the synthetic files pin.

    Attributes:
        host, owner, name: where it lives (``github.com``, ``NVIDIA``, ``Megatron-LM``).
        default_branch: the branch HEAD names.
        branches: every branch name, the default one included.
        tags: every tag name.
        annotated: the tags that are annotated (the rest are lightweight).
        releases: tags a correct pin uses (a subset of ``tags``).
        wrong_refs: refs a mistaken pin uses: branches that look like releases, or names that do not exist.
        var: the variable name recipes keep its version in (``MEGATRON_VERSION``).
    """

    host: str
    owner: str
    name: str
    default_branch: str
    branches: tuple[str, ...]
    tags: tuple[str, ...]
    annotated: frozenset[str]
    releases: tuple[str, ...]
    wrong_refs: tuple[str, ...]
    var: str

    @property
    def url(self) -> str:
        """The https URL recipes clone from, ``https://github.com/NVIDIA/Megatron-LM.git``."""
        return f"https://{self.host}/{self.owner}/{self.name}.git"

    @property
    def bare_path(self) -> str:
        """Where its bare repository sits under the remotes root, ``github.com/NVIDIA/Megatron-LM.git``."""
        return f"{self.host}/{self.owner}/{self.name}.git"

    @property
    def is_action(self) -> bool:
        """True for a GitHub Action (pinned with ``uses: owner/name@ref``)."""
        return self.owner in ("actions", "docker")


def _semver(majors: Sequence[int], minors: int, patches: int, prefix: str = "v") -> list[str]:
    return [f"{prefix}{a}.{b}.{c}" for a in majors for b in range(minors) for c in range(patches)]


def _people_branches(rng: random.Random, count: int) -> list[str]:
    people = ["alice", "bob", "chen", "dmitri", "eva", "farid", "gao", "hana", "ivan", "jun", "ko3n1g", "li"]
    topics = ["fix", "feat", "perf", "ci", "docs", "refactor", "debug", "exp"]
    words = ["moe", "fp8", "cp", "tp", "pp", "ckpt", "loader", "router", "rope", "kv", "npu", "ep", "dist"]
    names: set[str] = set()
    while len(names) < count:
        names.add(
            f"{rng.choice(people)}/{rng.choice(topics)}-{rng.choice(words)}-{rng.choice(words)}-{len(names)}"
        )
    return sorted(names)


def _bot_branches(rng: random.Random, count: int, release_branches: Sequence[str]) -> list[str]:
    names = {f"pull-request/{4000 + i}" for i in range(count // 2)}
    while len(names) < count:
        number = rng.randrange(1000, 9000)
        if rng.random() < 0.5:
            names.add(f"gh-readonly-queue/main/pr-{number}-{rng.getrandbits(160):040x}")
        else:
            names.add(f"cherry-pick-{number}-{rng.choice(release_branches)}")
    return sorted(names)


def _remote(
    host: str,
    owner: str,
    name: str,
    var: str,
    *,
    default: str = "main",
    branches: Sequence[str] = (),
    tags: Sequence[str],
    releases: Sequence[str] | None = None,
    wrong: Sequence[str] = (),
    annotated_every: int = 0,
) -> Remote:
    all_branches = sorted({default, *branches})
    annotated = frozenset(tags[::annotated_every]) if annotated_every else frozenset()
    chosen = tuple(releases) if releases is not None else tuple(tags[-8:])
    missing = set(chosen) - set(tags) - set(all_branches)
    if missing:
        raise ValueError(f"{owner}/{name}: releases that are neither tags nor branches: {sorted(missing)}")
    return Remote(
        host, owner, name, default, tuple(all_branches), tuple(tags), annotated, chosen, tuple(wrong), var
    )


def _catalogue() -> tuple[Remote, ...]:
    """The 25 remotes, each with refs in the shape its real counterpart uses."""
    rng = random.Random(_SEED)
    core_versions = [f"0.{minor}.{patch}" for minor in range(4, 19) for patch in range(3)]
    core_branches = [f"core_r{v}" for v in core_versions]
    te_minors = [f"{major}.{minor}" for major in (1, 2) for minor in range(13)]
    vllm_tags = _semver([0], 13, 3) + [f"v0.{b}.0rc{r}" for b in range(6, 13) for r in (1, 2)]
    remotes = [
        _remote(
            "github.com",
            "NVIDIA",
            "Megatron-LM",
            "MEGATRON_VERSION",
            branches=[*core_branches, *_bot_branches(rng, 300, core_branches), *_people_branches(rng, 60)],
            tags=[f"core_v{v}" for v in core_versions] + ["v2.5", "v3.0"],
            releases=[f"core_v0.{m}.{p}" for m in (12, 13, 15, 17) for p in (0, 1)],
            wrong=["core_r0.18.0", "core_r0.12.1", "core_v0.99.0"],
            annotated_every=3,
        ),
        _remote(
            "github.com",
            "NVIDIA",
            "TransformerEngine",
            "TE_VERSION",
            branches=["stable", *(f"release_v{m}" for m in te_minors)],
            tags=[f"v{m}" for m in te_minors] + [f"v{m}.1" for m in te_minors[::3]],
            releases=["v2.2", "v2.4", "v2.8", "v2.10"],
            wrong=["release_v2.10", "v2.99"],
            annotated_every=20,
        ),
        _remote(
            "github.com",
            "NVIDIA",
            "apex",
            "APEX_REF",
            default="master",
            branches=[*_people_branches(rng, 30)],
            tags=["22.03", "22.04-dev", "23.05", "24.04.01", "25.09"],
            releases=["24.04.01", "25.09"],
            wrong=["25.10"],
        ),
        _remote(
            "github.com",
            "NVIDIA",
            "gdrcopy",
            "GDRCOPY_VERSION",
            default="master",
            branches=["dev-issue-240", "fix_39", "gpuattrs"],
            tags=[f"v{a}.{b}" for a in (1, 2) for b in range(7)],
            releases=["v2.4", "v2.5"],
            wrong=["v2.9"],
        ),
        _remote(
            "github.com",
            "NVIDIA-NeMo",
            "Megatron-Bridge",
            "MBRIDGE_NEMO_REF",
            branches=[*_people_branches(rng, 1100), *(f"r0.{m}.0" for m in range(6))],
            tags=_semver([0], 6, 3),
            releases=["v0.3.0", "v0.4.1", "v0.5.2"],
            wrong=["r0.4.0"],
        ),
        _remote(
            "github.com",
            "vllm-project",
            "vllm",
            "VLLM_VERSION",
            branches=[f"releases/v0.{m}.0" for m in range(13)] + _people_branches(rng, 120),
            tags=vllm_tags,
            releases=["v0.10.2", "v0.11.0", "v0.12.0"],
            wrong=["releases/v0.11.0", "v0.11.5"],
        ),
        _remote(
            "github.com",
            "vllm-project",
            "vllm-ascend",
            "VLLM_ASCEND_VERSION",
            branches=[f"v0.{m}.0-dev" for m in range(7, 13)],
            tags=vllm_tags[-30:],
            releases=["v0.10.0rc1", "v0.11.0rc1", "v0.12.0rc1"],
            wrong=["v0.11.0-dev", "v0.11.0rc9"],
        ),
        _remote(
            "github.com",
            "sgl-project",
            "sglang",
            "SGLANG_VERSION",
            branches=_people_branches(rng, 200),
            tags=[
                f"v0.{m}.{p}{post}" for m in (4, 5) for p in range(11) for post in ("", ".post1", ".post2")
            ],
            releases=["v0.4.9.post2", "v0.4.10.post2", "v0.5.6"],
            wrong=["v0.5.11"],
        ),
        _remote(
            "github.com",
            "sgl-project",
            "sgl-kernel-npu",
            "SGL_KERNEL_NPU_TAG",
            branches=["dev", "release"],
            tags=[f"2025{m:02}{d:02}" for m in range(9, 13) for d in (1, 14, 28)]
            + [f"2026.{m:02}.{d:02}{post}" for m in range(1, 6) for d in (9, 21) for post in ("", ".post1")],
            releases=["20251214", "2026.01.21", "2026.02.09.post1"],
            wrong=["2026.01.22"],
        ),
        _remote(
            "github.com",
            "deepseek-ai",
            "DeepEP",
            "DEEPEP_REF",
            branches=["hybrid-ep", "mori-ep", "fix-OOB", "nccl-version-compat"],
            tags=["v1.2.1"],
            releases=["v1.2.1"],
            wrong=["v1.3.0"],
        ),
        _remote(
            "github.com",
            "Dao-AILab",
            "flash-attention",
            "FA_VERSION",
            branches=_people_branches(rng, 60),
            tags=_semver([1, 2], 9, 5),
            releases=["v2.7.4", "v2.8.0", "v2.8.3"],
            wrong=["v2.9.9"],
            annotated_every=40,
        ),
        _remote(
            "github.com",
            "Dao-AILab",
            "causal-conv1d",
            "CAUSAL_CONV1D_VERSION",
            tags=_semver([1], 6, 3),
            releases=["v1.4.0", "v1.5.2"],
            wrong=["v1.6.0"],
        ),
        _remote(
            "github.com",
            "ByteDance-Seed",
            "VeOmni",
            "VEOMNI_REF",
            branches=["v0.1.x", *_people_branches(rng, 110)],
            tags=[f"v0.1.{p}" for p in range(10)],
            releases=["v0.1.4", "v0.1.9"],
            wrong=["v0.2.0"],
        ),
        _remote(
            "github.com",
            "ISEEKYAN",
            "mbridge",
            "MBRIDGE_VERSION",
            branches=["qwen3vl_cp", "value_model"],
            tags=[f"v0.{m}.0" for m in range(1, 16)],
            releases=["v0.13.0", "v0.15.0"],
            wrong=["v0.16.0"],
        ),
        _remote(
            "github.com",
            "volcengine",
            "verl",
            "VERL_VERSION",
            branches=[f"v0.{m}.x" for m in range(2, 8)],
            tags=_semver([0], 8, 2),
            releases=["v0.5.0", "v0.6.0", "v0.6.1"],
            wrong=["v0.6.x", "v0.9.0"],
        ),
        _remote(
            "github.com",
            "huggingface",
            "transformers",
            "TRANSFORMERS_REF",
            branches=[f"v4.{m}-release" for m in range(40, 58)] + _people_branches(rng, 200),
            tags=_semver([4], 58, 4),
            releases=["v4.51.3", "v4.57.1"],
            wrong=["v4.57-release"],
        ),
        _remote(
            "github.com",
            "microsoft",
            "DeepSpeed",
            "DEEPSPEED_REF",
            default="master",
            branches=_people_branches(rng, 80),
            tags=_semver([0], 18, 9),
            releases=["v0.16.4", "v0.17.1"],
            wrong=["v0.18.0"],
        ),
        _remote(
            "github.com",
            "pytorch",
            "vision",
            "TORCHVISION_REF",
            branches=[f"release/0.{m}" for m in range(15, 24)],
            tags=_semver([0], 24, 3),
            releases=["v0.22.1", "v0.23.0"],
            wrong=["release/0.22"],
        ),
        _remote(
            "gitcode.com",
            "Ascend",
            "MindSpeed",
            "MINDSPEED_REF",
            default="master",
            branches=[
                *(
                    f"{rel}_core_r0.{m}.{p}"
                    for rel in ("2.1.0", "2.2.0", "2.3.0")
                    for m in (8, 12)
                    for p in (0, 1)
                ),
                *(f"core_r0.{m}.0" for m in range(7, 17)),
                "experimental",
            ],
            tags=[f"v{major}.0.0_core_r0.12.1" for major in (24, 25, 26)],
            releases=["2.1.0_core_r0.12.1", "2.3.0_core_r0.12.1", "v26.0.0_core_r0.12.1"],
            wrong=["core_r0.12.1", "2.4.0_core_r0.12.1"],
            annotated_every=2,
        ),
        _remote(
            "gitcode.com",
            "Ascend",
            "MindSpeed-LLM",
            "MINDSPEED_LLM_REF",
            default="master",
            branches=[f"2.{m}.0" for m in range(4)],
            tags=[f"v2.{m}.0" for m in range(4)],
            releases=["v2.1.0", "v2.2.0"],
            wrong=["v2.4.0"],
        ),
        _remote(
            "gitee.com",
            "ascend",
            "pytorch",
            "TORCH_NPU_REF",
            default="master",
            branches=[f"v2.{m}.1" for m in range(1, 9)],
            tags=[f"v2.{m}.1-7.{r}.0" for m in range(1, 9) for r in range(3)],
            releases=["v2.7.1-7.1.0", "v2.8.1-7.2.0"],
            wrong=["v2.7.1-7.9.0"],
        ),
        _remote(
            "github.com",
            "actions",
            "checkout",
            "",
            branches=[f"releases/v{m}" for m in range(1, 6)] + _people_branches(rng, 50),
            tags=[f"v{m}" for m in range(1, 6)] + _semver([1, 2, 3, 4, 5], 3, 4),
            releases=["v4", "v5", "v4.2.2"],
            wrong=["v6"],
            annotated_every=10,
        ),
        _remote(
            "github.com",
            "actions",
            "setup-python",
            "",
            tags=[f"v{m}" for m in range(1, 7)] + _semver([4, 5, 6], 4, 3),
            releases=["v5", "v6"],
            wrong=["v7"],
        ),
        _remote(
            "github.com",
            "actions",
            "cache",
            "",
            tags=[f"v{m}" for m in range(1, 5)] + _semver([3, 4], 3, 3),
            releases=["v4"],
            wrong=["v5"],
        ),
        _remote(
            "github.com",
            "docker",
            "build-push-action",
            "",
            tags=[f"v{m}" for m in range(1, 7)] + _semver([5, 6], 5, 2),
            releases=["v6"],
            wrong=["v8"],
        ),
    ]
    return tuple(remotes)


#: The 25 remotes every synthetic repository pins, at every scale.
REMOTES: tuple[Remote, ...] = _catalogue()


def _git(args: Sequence[str], cwd: Path | None = None, stdin: bytes | None = None) -> None:
    env = {**os.environ, **_GIT_IDENTITY, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", *args], cwd=cwd, input=stdin, env=env, check=True, capture_output=True)


def build_remotes(
    root: Path, remotes: Sequence[Remote] = REMOTES, history: Mapping[str, int] | None = None
) -> None:
    """Create one bare repository per remote under ``root`` (``root/HOST/OWNER/NAME.git``).

    Each gets a chain of small commits (40, or what ``history`` says); its branches and tags point at them
    round-robin, so that refs have distinct object ids, and annotated tags get tag objects, as
    ``git ls-remote`` shows them (``^{}``). Like GitHub, each allows filtered (treeless) fetches.

    Args:
        root: an existing folder; repositories already there are replaced.
        remotes: which to build.
        history: ``Remote.bare_path`` → how many commits its default branch gets, for remotes whose
            history size matters (commit verification fetches it).

    Raises:
        subprocess.CalledProcessError: git failed.
    """
    for remote in remotes:
        path = root / remote.bare_path
        if path.exists():
            subprocess.run(["rm", "-rf", "--", str(path)], check=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        _git(["init", "--quiet", "--bare", f"--initial-branch={remote.default_branch}", str(path)])
        _git(["config", "uploadpack.allowFilter", "true"], cwd=path)
        commits = (history or {}).get(remote.bare_path, 40)
        _git(["fast-import", "--quiet"], cwd=path, stdin=_fast_import_stream(remote, commits).encode())


def _fast_import_stream(remote: Remote, commits: int = 40) -> str:
    """A git-fast-import(1) stream: ``commits`` commits on the default branch, then every ref."""
    lines = []
    identity = f"Bench <bench@example.invalid> {_EPOCH} +0000"
    for mark in range(1, commits + 1):
        message = f"commit {mark} of {remote.name}\n"
        content = f"{remote.name} {mark}\n"
        lines += [
            f"commit refs/heads/{remote.default_branch}",
            f"mark :{mark}",
            f"committer {identity}",
            f"data {len(message.encode())}",
            message.rstrip("\n"),
            "M 644 inline VERSION",
            f"data {len(content.encode())}",
            content.rstrip("\n"),
            "",
        ]
    for index, branch in enumerate(remote.branches):
        if branch != remote.default_branch:
            lines += [f"reset refs/heads/{branch}", f"from :{index % commits + 1}", ""]
    for index, tag in enumerate(remote.tags):
        mark = index % commits + 1
        if tag in remote.annotated:
            message = f"release {tag}\n"
            lines += [
                f"tag {tag}",
                f"from :{mark}",
                f"tagger {identity}",
                f"data {len(message)}",
                message.rstrip("\n"),
                "",
            ]
        else:
            lines += [f"reset refs/tags/{tag}", f"from :{mark}", ""]
    return "\n".join(lines) + "\n"


class _Picker:
    """Chooses, from a seeded generator, which remote and ref each pin names; about 1 in 10 is wrong.

    Remotes are dealt round-robin from a shuffled pool, so that every remote is pinned at every scale.
    """

    def __init__(self, rng: random.Random, wrong_share: float = 0.1) -> None:
        self.rng = rng
        self.wrong_share = wrong_share
        self._deck: list[Remote] = []

    def remote(self) -> Remote:
        """The next library remote (not an action)."""
        if not self._deck:
            self._deck = list(_LIBRARIES)
            self.rng.shuffle(self._deck)
        return self._deck.pop()

    def ref(self, remote: Remote) -> str:
        if remote.wrong_refs and self.rng.random() < self.wrong_share:
            return self.rng.choice(remote.wrong_refs)
        return self.rng.choice(remote.releases)

    def sha(self) -> str:
        return f"{self.rng.getrandbits(160):040x}"


_LIBRARIES = tuple(r for r in REMOTES if not r.is_action)
_ACTIONS = {r.name: r for r in REMOTES if r.is_action}
_ASCEND = tuple(
    r for r in _LIBRARIES if r.host != "github.com" or r.name in ("vllm-ascend", "sgl-kernel-npu")
)
_BASE_IMAGES = (
    "nvcr.io/nvidia/pytorch:25.02-py3",
    "nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04",
    "swr.cn-south-1.myhuaweicloud.com/ascendhub/cann:8.3.rc1-a3-ubuntu22.04-py3.11",
    "rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0",
)


def _dockerfile(pick: _Picker, base: str) -> str:
    """A Dockerfile: an ARG-held version; multi-line RUNs with clone --branch, clone-then-checkout, pip."""
    first, second, third, fourth = (pick.remote() for _ in range(4))
    lines = [
        "# syntax=docker/dockerfile:1",
        f"FROM {base} AS base",
        f"ARG {first.var}={pick.ref(first)}",
        "ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1 MAX_JOBS=32",
        "",
        "# System packages",
        "RUN apt-get update -y && \\",
        "    apt-get install -y --no-install-recommends gcc g++ cmake libnuma-dev wget git curl jq && \\",
        "    apt-get clean && \\",
        "    rm -rf /var/lib/apt/lists/* /tmp/* /var/tmp/*",
        "",
        "# Libraries with a low update frequency",
        "RUN ARCH=$(uname -m) && \\",
        '    echo "[LOG INFO] architecture: $ARCH" && \\',
        f"    git clone --depth 1 --branch ${{{first.var}}} {first.url} /opt/{first.name} && \\",
        f"    git clone --depth 1 -b {pick.ref(second)} {second.url} && \\",
        f"    git clone {third.url} && \\",
        f"    cd {third.name} && git checkout {pick.ref(third)} && cd .. && \\",
        f"    pip install -v -e /opt/{first.name}",
        "",
        "RUN pip install --no-deps --no-build-isolation \\",
        f"    git+{fourth.url}@{pick.ref(fourth)}",
        "",
        "FROM base AS final",
        "WORKDIR /workspace",
        'CMD ["/bin/bash"]',
    ]
    return "\n".join(lines) + "\n"


def _variant_pair(pick: _Picker, drift: bool) -> tuple[str, str]:
    """Dockerfile.ascend_*_a2 and _a3: the same recipe on two bases; with ``drift`` the _a3 pins differ."""
    mindspeed = next(r for r in _ASCEND if r.name == "MindSpeed")
    vllm_ascend = next(r for r in _ASCEND if r.name == "vllm-ascend")
    megatron = next(r for r in _LIBRARIES if r.name == "Megatron-LM")
    refs = [pick.ref(vllm_ascend), mindspeed.releases[0], pick.ref(megatron)]

    def render(chip: str, pins: Sequence[str]) -> str:
        return (
            "\n".join(
                [
                    f"FROM swr.cn-south-1.myhuaweicloud.com/ascendhub/cann:8.3.rc1-{chip}-ubuntu22.04-py3.11",
                    "",
                    "RUN apt-get update -y && apt-get install -y --no-install-recommends git curl && \\",
                    "    rm -rf /var/lib/apt/lists/*",
                    "",
                    "# Clone libs",
                    f"RUN git clone --depth 1 --branch {pins[0]} {vllm_ascend.url} && \\",
                    f"    git clone {mindspeed.url} && \\",
                    f"    cd MindSpeed && git checkout {pins[1]} && cd .. && \\",
                    f"    git clone --depth 1 --branch {pins[2]} {megatron.url}",
                    "",
                    'ENV PYTHONPATH="/Megatron-LM${PYTHONPATH:+:${PYTHONPATH}}"',
                    'CMD ["/bin/bash"]',
                ]
            )
            + "\n"
        )

    a3 = list(refs)
    if drift:
        a3[1] = mindspeed.releases[1]
    return render("a2", refs), render("a3", a3)


def _launcher_script(rng: random.Random, index: int) -> str:
    """A training launcher: environment, then one long continued python command. No pins."""
    model = rng.choice(["Qwen2.5-7B", "Qwen3-8B", "DeepSeek-V3", "Llama-3.1-8B", "gemma-2-9b"])
    args = [
        f"    actor_rollout_ref.model.path={model} \\",
        f"    data.train_batch_size={rng.choice([256, 512, 1024])} \\",
        f"    trainer.n_gpus_per_node={rng.choice([8, 16])} \\",
        f"    trainer.experiment_name=exp_{index} \\",
    ]
    args += [
        f"    actor_rollout_ref.actor.option_{k}={rng.randrange(100)} \\"
        for k in range(rng.randrange(10, 40))
    ]
    return (
        "\n".join(
            [
                "#!/usr/bin/env bash",
                "set -xeuo pipefail",
                "",
                "export VLLM_USE_V1=1",
                "export HYDRA_FULL_ERROR=1",
                "NNODES=${NNODES:-1}",
                'project_name="verl_example"',
                "",
                "python3 -m verl.trainer.main_ppo \\",
                "    algorithm.adv_estimator=grpo \\",
                *args,
                '    trainer.project_name="${project_name}" \\',
                '    trainer.nnodes="${NNODES}" "$@"',
            ]
        )
        + "\n"
    )


def _install_script(pick: _Picker) -> str:
    """An install script: a defaulted version variable, a clone with it, and a pip VCS install."""
    first, second = pick.remote(), pick.remote()
    return (
        "\n".join(
            [
                "#!/usr/bin/env bash",
                "set -euo pipefail",
                "",
                f'{first.var}="${{{first.var}:-{pick.ref(first)}}}"',
                'WORKDIR="${WORKDIR:-/tmp/build}"',
                'mkdir -p "${WORKDIR}" && cd "${WORKDIR}"',
                "",
                f'git clone --depth 1 --branch "${{{first.var}}}" {first.url}',
                f'pip install --no-deps "git+{second.url}@{pick.ref(second)}"',
                'echo "installed into ${WORKDIR}"',
            ]
        )
        + "\n"
    )


def _workflow(pick: _Picker, index: int) -> str:
    """A CI workflow: actions pinned by tag (or SHA), an env-held version used by a run: block."""
    library = pick.remote()
    checkout_ref = pick.ref(_ACTIONS["checkout"]) if pick.rng.random() < 0.8 else f"{pick.sha()} # v4.2.2"
    steps = [
        f"      - uses: actions/checkout@{checkout_ref}",
        "        with:",
        "          persist-credentials: false",
        f"      - uses: actions/setup-python@{pick.ref(_ACTIONS['setup-python'])}",
        "        with:",
        '          python-version: "3.11"',
    ]
    if index % 2 == 0:
        steps += [
            f"      - uses: actions/cache@{pick.ref(_ACTIONS['cache'])}",
            "        with:",
            "          path: ~/.cache/pip",
            "          key: pip-${{ hashFiles('requirements*.txt') }}",
        ]
    steps += [
        "      - name: Install",
        "        run: |",
        "          pip install -e .[test]",
        f'          pip install --no-deps "git+{library.url}@${library.var}"',
        "      - name: Test",
        "        run: |",
        f"          pytest -x tests/e2e_{index}",
    ]
    if index % 6 == 0:
        steps += [
            f"      - uses: docker/build-push-action@{pick.ref(_ACTIONS['build-push-action'])}",
            "        with:",
            "          push: false",
            f"          file: docker/Dockerfile.{index}",
        ]
    header = [
        f"name: e2e_{index}",
        "on:",
        "  push:",
        "    branches: [main, v0.*]",
        "  pull_request:",
        f'    paths: ["**/*.py", ".github/workflows/e2e_{index}.yml"]',
        "permissions:",
        "  contents: read",
        "env:",
        f"  {library.var}: {pick.ref(library)}",
        "jobs:",
        "  test:",
        "    runs-on: ubuntu-latest",
        "    timeout-minutes: 40",
        "    steps:",
    ]
    return "\n".join(header + steps) + "\n"


def _requirements(pick: _Picker) -> str:
    first, second = pick.remote(), pick.remote()
    return (
        "\n".join(
            [
                "# Core dependencies",
                "torch==2.7.1",
                "transformers>=4.51.0",
                "accelerate",
                "datasets",
                "ray[default]>=2.41.0",
                f"{first.name.lower()} @ git+{first.url}@{pick.ref(first)}",
                f"git+{second.url}@{pick.ref(second)}#egg={second.name.lower()}",
                "hydra-core",
            ]
        )
        + "\n"
    )


def _python_module(rng: random.Random, index: int) -> str:
    body = [
        f"def step_{k}(batch):\n    return [x * {k} for x in batch]\n" for k in range(rng.randrange(5, 25))
    ]
    return f'"""Module {index}."""\n\nimport os\n\n' + "\n\n".join(body)


def _files(scale: int) -> Iterator[tuple[str, str]]:
    """(relative path, text) of every file at ``scale``, in a fixed order."""
    rng = random.Random(_SEED + scale)
    pick = _Picker(rng)
    counts = {kind: count * scale for kind, count in BASE_COUNTS.items()}
    pairs = max(1, counts["dockerfile"] // 10)
    for index in range(pairs):
        a2, a3 = _variant_pair(pick, drift=index % 4 == 3)
        yield f"docker/ascend{index // 4}/Dockerfile.ascend_8.{index % 4}.rc1_a2", a2
        yield f"docker/ascend{index // 4}/Dockerfile.ascend_8.{index % 4}.rc1_a3", a3
    for index in range(counts["dockerfile"] - 2 * pairs):
        base = _BASE_IMAGES[index % len(_BASE_IMAGES)]
        yield f"docker/verl{index // 8}-cu12{index % 9}/Dockerfile.app{index % 8}", _dockerfile(pick, base)
    for index in range(counts["shell"]):
        folder = f"examples/trainer_{index // 20}"
        if rng.random() < INSTALL_SCRIPT_SHARE:
            yield f"scripts/install_{index}.sh", _install_script(pick)
        else:
            yield f"{folder}/run_{index}.sh", _launcher_script(rng, index)
    for index in range(counts["workflow"]):
        yield f".github/workflows/e2e_{index}.yml", _workflow(pick, index)
    for index in range(counts["requirements"]):
        name = "requirements.txt" if index == 0 else f"requirements-{index}.txt"
        yield (name if index < 10 else f"recipes/r{index // 10}/{name}"), _requirements(pick)
    for index in range(counts["python"]):
        yield f"verl/pkg{index // 25}/mod_{index}.py", _python_module(rng, index)
    for index in range(counts["markdown"]):
        yield f"docs/page_{index}.md", f"# Page {index}\n\nRun `bash examples/run_{index}.sh`.\n"
    for index in range(counts["yaml"]):
        yield f"examples/config/cfg_{index}.yaml", f"trainer:\n  epochs: {index}\n  nnodes: 1\n"


@dataclass(frozen=True)
class SynthRepo:
    """A generated repository.

    Attributes:
        root: its folder (a git work tree with one commit).
        scale: the multiple of the 1x counts it was built with.
        files: every file written, by kind (``dockerfile``, ``shell``, ``workflow``, ``requirements``,
            ``other``), as paths relative to ``root``.
    """

    root: Path
    scale: int
    files: dict[str, list[str]]

    @property
    def file_count(self) -> int:
        """All files written, recipe or not."""
        return sum(len(paths) for paths in self.files.values())


def _kind(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if name.startswith("Dockerfile"):
        return "dockerfile"
    if name.endswith(".sh"):
        return "shell"
    if path.startswith(".github/workflows/"):
        return "workflow"
    if name.startswith("requirements"):
        return "requirements"
    return "other"


def build_repo(root: Path, scale: int) -> SynthRepo:
    """Write the repository for ``scale`` into ``root`` and commit it (so reflint reads it as a work tree).

    Args:
        root: a folder that does not exist yet or is empty.
        scale: 1, 10, 100, …: the multiple of :data:`BASE_COUNTS`.

    Returns:
        What was written.

    Raises:
        subprocess.CalledProcessError: git failed.
    """
    files: dict[str, list[str]] = {
        "dockerfile": [],
        "shell": [],
        "workflow": [],
        "requirements": [],
        "other": [],
    }
    made: set[Path] = set()
    for relative, text in _files(scale):
        path = root / relative
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        path.write_text(text, encoding="utf-8")
        if relative.endswith(".sh"):
            path.chmod(0o755)
        files[_kind(relative)].append(relative)
    _git(["init", "--quiet", "--initial-branch=main", str(root)])
    _git(["add", "--all"], cwd=root)
    _git(["commit", "--quiet", "--no-verify", "-m", f"synthetic repository, scale {scale}"], cwd=root)
    return SynthRepo(root, scale, files)
