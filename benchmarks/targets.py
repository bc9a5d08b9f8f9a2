"""The speed targets of a real checkout (verl): start-up, warm scans against hadolint and zizmor, a
pre-commit-shaped run, the cost of a cold scan's one wave of lookups, growth from 1x to 50x copies of its
recipe files, and a scan after one edit. Run by ``run.py --verl PATH``; see README.md beside this file.

Every remote the checkout pins is stood up locally first (:func:`stand_ins`): a bare repository holding the
refs that ``--recorded-refs`` lists for it (``HOST/OWNER/NAME.refs``, ``git ls-remote`` lines, as
``/work/shared/remotes`` holds for verl's upstreams), else the refs its pins name; served through
:class:`httpserver.GitHttpServer` with ``--latency`` per request, so that "warm" means that every
remote answered and was cached, and "cold" pays real round trips. The server replays each distinct
request's first answer (``replay``; ``run.py --no-replay`` turns it off): a distant host's CPU is not on
this machine, and 90 http-backend processes per cold scan would compete with the client measured.

Each comparison runs its commands alternately (A, B, A, B …: a change in the machine's load falls on
both), ``--warmups`` discarded rounds then ``--runs`` kept; each figure is the median, in CPU time (user +
system of the process and the children it waited for: the target) and wall time (beside it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import synth
from httpserver import LS_REMOTE, GitHttpServer

#: Scales of the growth target: copies of the checkout's recipe files.
GROWTH_SCALES = (1, 50)
#: The scale whose warm tree gets one file edited before each run.
EDIT_SCALE = 10
#: The recipe files named by the pre-commit-shaped run.
PRE_COMMIT_FILES = 5


@dataclass
class Runs:
    """The kept runs of one command: wall and CPU seconds, peak RSS (KiB), ls-remote calls."""

    label: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    error: str | None = None

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall) if self.wall else float("nan")

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu) if self.cpu else float("nan")

    @property
    def rss_mib(self) -> float:
        return max(self.rss) / 1024 if self.rss else float("nan")

    def summary(self) -> dict[str, object]:
        return {
            "label": self.label,
            "error": self.error,
            "wall_median_s": self.wall_median,
            "cpu_median_s": self.cpu_median,
            "peak_rss_mib": self.rss_mib,
            "wall_s": self.wall,
            "cpu_s": self.cpu,
            "ls_remote_calls": self.calls,
        }


@dataclass(frozen=True)
class Command:
    """One command of a comparison: its argv (``before`` may give a new one per run), where it runs, and
    the exit codes that count as success."""

    label: str
    argv: Sequence[str]
    cwd: Path
    ok: Callable[[int], bool] = lambda code: code in (0, 1)
    before: Callable[[], Sequence[str] | None] | None = None


def nothing_checked(code: int) -> bool:
    """The exit code of a scan that found no recipe file: 1, "nothing was checked" (README's table)."""
    return code == 1


def alternate(
    commands: Sequence[Command],
    env: dict[str, str],
    runs: int,
    warmups: int,
    server: GitHttpServer | None = None,
) -> list[Runs]:
    """Run ``commands`` in turn, ``warmups + runs`` rounds, keeping the last ``runs``."""
    results = [Runs(command.label) for command in commands]
    for round_index in range(warmups + runs):
        for command, result in zip(commands, results, strict=True):
            if result.error is not None:
                continue
            argv = list((command.before() if command.before else None) or command.argv)
            if server is not None:
                server.reset_counts()
            started = time.perf_counter()
            with open(os.devnull, "wb") as null:
                process = subprocess.Popen(
                    argv, cwd=command.cwd, env=env, stdout=null, stderr=subprocess.PIPE
                )
                _, status, usage = os.wait4(process.pid, 0)
                stderr = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
                if process.stderr:
                    process.stderr.close()
            wall = time.perf_counter() - started
            code = os.waitstatus_to_exitcode(status)
            process.returncode = code
            if not command.ok(code):
                result.error = f"exit {code}: {' | '.join(stderr.strip().splitlines()[-3:])[:300]}"
                continue
            if round_index >= warmups:
                result.wall.append(wall)
                result.cpu.append(usage.ru_utime + usage.ru_stime)
                result.rss.append(usage.ru_maxrss)
                if server is not None:
                    result.calls.append(server.counts().get(LS_REMOTE, 0))
    for result in results:
        _progress(
            f"  {result.label:<58} CPU {_ms(result.cpu_median):>10}  wall {_ms(result.wall_median):>10}"
            + (f"  FAILED {result.error}" if result.error else "")
        )
    return results


@dataclass
class TargetResult:
    """One target: what it asks, the figures, and whether it is met (on CPU time)."""

    goal: str
    figures: str
    met: bool | None


@dataclass
class Report:
    """Everything :func:`bench_targets` measured."""

    checkout: str
    remotes: int
    recorded: int
    files: int
    runs: dict[str, Runs] = field(default_factory=dict)
    targets: list[TargetResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------ remotes


def stand_ins(pins: Sequence[dict[str, object]], recorded: Path | None) -> tuple[list[synth.Remote], int]:
    """A stand-in for every https remote the pins name: the recorded refs when ``recorded`` has them, else
    the refs the pins name (as tags) with ``main`` and ``master``. Returns the remotes and how many of them
    hold recorded refs."""
    named: dict[tuple[str, str], set[str]] = {}
    for pin in pins:
        url, ref = pin.get("url"), pin.get("ref")
        if not isinstance(url, str) or not pin.get("remote"):
            continue
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            continue
        path = parts.path.strip("/")
        path = path[: -len(".git")] if path.endswith(".git") else path
        names = named.setdefault((parts.hostname, path), set())
        if isinstance(ref, str) and ref and not re.fullmatch(r"[0-9a-fA-F]{7,40}", ref):
            names.add(ref)
    remotes, from_records = [], 0
    for (host, path), names in sorted(named.items()):
        owner, _, name = path.rpartition("/")
        refs = _recorded_refs(recorded, host, owner, name)
        if refs is not None:
            from_records += 1
            branches, tags, annotated = refs
            default = "main" if "main" in branches else (branches[0] if branches else "main")
            branches = branches or ("main",)
            remotes.append(synth.Remote(host, owner, name, default, branches, tags, annotated, tags, (), ""))
            continue
        tags = tuple(sorted(n for n in names if n not in ("main", "master") and _valid_ref_name(n)))
        remotes.append(
            synth.Remote(host, owner, name, "main", ("main", "master"), tags, frozenset(), tags, (), "")
        )
    return remotes, from_records


def _recorded_refs(
    recorded: Path | None, host: str, owner: str, name: str
) -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]] | None:
    """(branches, tags, annotated tags) of ``recorded/HOST/OWNER/NAME.refs`` (any case), or None."""
    if recorded is None:
        return None
    folder = recorded / host
    if not folder.is_dir():
        return None
    wanted = f"{owner}/{name}.refs".lower()
    for path in folder.glob("*/*.refs"):
        if f"{path.parent.name}/{path.name}".lower() == wanted:
            break
    else:
        return None
    branches, tags, peeled = [], [], set()
    for line in path.read_text(encoding="utf-8").splitlines():
        _, _, ref = line.partition("\t")
        if ref.endswith("^{}"):
            peeled.add(ref[len("refs/tags/") : -3])
        elif ref.startswith("refs/heads/") and _valid_ref_name(ref[len("refs/heads/") :]):
            branches.append(ref[len("refs/heads/") :])
        elif ref.startswith("refs/tags/") and _valid_ref_name(ref[len("refs/tags/") :]):
            tags.append(ref[len("refs/tags/") :])
    return tuple(branches), tuple(tags), frozenset(peeled & set(tags))


def _valid_ref_name(name: str) -> bool:
    return (
        bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/+-]*", name))
        and ".." not in name
        and not name.endswith((".", "/", ".lock"))
        and "//" not in name
    )


# ------------------------------------------------------------------------------------------ trees


def recipe_files(checkout: Path) -> list[str]:
    """The files reflint reads in ``checkout`` (its own discovery), relative, ``/``-separated."""
    from ascend_reflint.discover import discover

    found = discover(["."], cwd=str(checkout))
    return sorted(source.path for source in found.files)


def copies_tree(checkout: Path, files: Sequence[str], copies: int, root: Path) -> Path:
    """A git work tree holding ``copies`` copies of ``files`` (``copy-N/PATH``); ``.gitmodules`` is left out
    (its pins come from the checkout's index)."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "--quiet", str(root)], check=True)
    for index in range(copies):
        for name in files:
            if os.path.basename(name) == ".gitmodules":
                continue
            target = root / f"copy-{index}" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(checkout / name, target)
    return root


# ------------------------------------------------------------------------------------------ the run


def bench_targets(
    reflint: str,
    hadolint: str | None,
    zizmor: str | None,
    checkout: Path,
    workdir: Path,
    runs: int,
    warmups: int,
    latency: float,
    recorded: Path | None,
    git_env: Callable[[str, Sequence[str], Path], dict[str, str]],
    replay: bool = True,
) -> Report:
    """Measure every target on ``checkout`` (see the module docstring); ``replay`` is the server's."""
    python = (
        str(Path(reflint).with_name("python"))
        if Path(reflint).with_name("python").exists()
        else sys.executable
    )
    listing = subprocess.run(
        [reflint, "refs", "--format", "json", "--no-cache"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    pins = json.loads(listing.stdout)["pins"]
    remotes, from_records = stand_ins(pins, recorded)
    files = recipe_files(checkout)
    report = Report(str(checkout), len(remotes), from_records, len(files))
    root = workdir / "targets-remotes"
    root.mkdir(parents=True, exist_ok=True)
    _progress(f"targets: {len(remotes)} stand-in remotes ({from_records} from recorded ref lists)")
    synth.build_remotes(root, remotes)
    caches = workdir / "targets-caches"
    report.notes.append(
        "stand-in server: "
        + ("replays each distinct request's first answer" if replay else "git http-backend for every request")
    )
    with GitHttpServer(root, latency, replay=replay) as server:
        env = git_env(server.base_url, sorted({r.host for r in remotes}), workdir / "targets-home")
        warm = caches / "warm"
        scan = [reflint, "scan", "--cache-dir", str(warm)]
        subprocess.run([*scan, "--format", "json"], cwd=checkout, env=env, capture_output=True, check=False)
        _start_up(report, python, reflint, workdir, env, runs, warmups)
        _peers(report, reflint, hadolint, zizmor, checkout, scan, env, runs, warmups)
        _pre_commit(report, checkout, files, scan, workdir, env, runs, warmups)
        _cold(report, reflint, checkout, warm, caches, env, runs, warmups, server, remotes)
        _growth(report, reflint, checkout, files, workdir, caches, env, runs, warmups)
    report.targets = _verdicts(report)
    return report


def _start_up(
    report: Report, python: str, reflint: str, workdir: Path, env: dict[str, str], runs: int, warmups: int
) -> None:
    empty = workdir / "targets-empty"
    empty.mkdir(exist_ok=True)
    subprocess.run(["git", "init", "--quiet", str(empty)], check=True)
    cache = workdir / "targets-caches" / "empty"
    commands = [
        Command("python -c pass (the venv's)", [python, "-c", "pass"], empty, lambda code: code == 0),
        Command("reflint --version", [reflint, "--version"], empty, lambda code: code == 0),
        Command(
            "reflint scan of an empty repository",
            [reflint, "scan", "--cache-dir", str(cache)],
            empty,
            nothing_checked,
        ),
    ]
    for key, result in zip(
        ("pass", "version", "empty"), alternate(commands, env, runs, warmups), strict=True
    ):
        report.runs[key] = result


def _peers(
    report: Report,
    reflint: str,
    hadolint: str | None,
    zizmor: str | None,
    checkout: Path,
    scan: list[str],
    env: dict[str, str],
    runs: int,
    warmups: int,
) -> None:
    dockerfiles = subprocess.run(
        ["git", "ls-files", "docker/**/Dockerfile*"], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout.split()
    commands = [Command("reflint scan . (warm)", scan, checkout)]
    if hadolint is not None:
        commands.append(
            Command(f"hadolint ({len(dockerfiles)} Dockerfiles)", [hadolint, *dockerfiles], checkout)
        )
    for key, result in zip(("warm", "hadolint"), alternate(commands, env, runs, warmups), strict=False):
        report.runs[key] = result
    if zizmor is None:
        report.notes.append("zizmor is not installed: its targets are not measured")
        return
    commands = [
        Command("reflint scan .github/workflows (warm)", [*scan, ".github/workflows"], checkout),
        Command(
            "zizmor --offline .github/workflows",
            [zizmor, "--offline", ".github/workflows"],
            checkout,
            lambda code: code == 0 or code >= 10,
        ),
        Command("reflint scan . (warm), beside zizmor", scan, checkout),
    ]
    for key, result in zip(
        ("workflows", "zizmor", "warm-zizmor"), alternate(commands, env, runs, warmups), strict=True
    ):
        report.runs[key] = result


def _pre_commit(
    report: Report,
    checkout: Path,
    files: Sequence[str],
    scan: list[str],
    workdir: Path,
    env: dict[str, str],
    runs: int,
    warmups: int,
) -> None:
    """``reflint scan`` naming five recipe files (a commit's worth), warm, beside an empty repository's."""
    chosen = [name for name in files if "Dockerfile" in name or name.endswith((".sh", ".yml", ".yaml"))]
    step = max(1, len(chosen) // PRE_COMMIT_FILES)
    named = chosen[::step][:PRE_COMMIT_FILES]
    empty = workdir / "targets-empty"
    commands = [
        Command(f"reflint scan naming {len(named)} files (warm)", [*scan, *named], checkout),
        Command(
            "reflint scan of an empty repository",
            [scan[0], "scan", "--cache-dir", str(workdir / "targets-caches" / "empty")],
            empty,
            nothing_checked,
        ),
    ]
    for key, result in zip(("pre-commit", "empty-2"), alternate(commands, env, runs, warmups), strict=True):
        report.runs[key] = result
    report.notes.append(f"pre-commit-shaped run names: {' '.join(named)}")


def _cold(
    report: Report,
    reflint: str,
    checkout: Path,
    warm: Path,
    caches: Path,
    env: dict[str, str],
    runs: int,
    warmups: int,
    server: GitHttpServer,
    remotes: Sequence[synth.Remote],
) -> None:
    """Cold (no ref list cached; the files' extractions and the read packs are, as after a first scan) and
    warm scans without commit verification, alternately, beside one ``git ls-remote``; then a first scan
    (nothing cached) for reference."""
    counter = iter(range(1_000_000))

    def cold_cache() -> list[str]:
        folder = caches / f"cold-{next(counter)}"
        folder.mkdir(parents=True)
        for name in ("extract", "packs"):
            if (warm / name).is_dir():
                shutil.copytree(warm / name, folder / name)
        return [reflint, "scan", "--no-verify-commits", "--cache-dir", str(folder)]

    def first_cache() -> list[str]:
        folder = caches / f"first-{next(counter)}"
        return [reflint, "scan", "--no-verify-commits", "--cache-dir", str(folder)]

    one = remotes[0]
    commands = [
        Command("reflint scan --no-verify-commits, ref lists cold", [], checkout, before=cold_cache),
        Command(
            "reflint scan --no-verify-commits (warm)",
            [reflint, "scan", "--no-verify-commits", "--cache-dir", str(warm)],
            checkout,
        ),
        Command(
            "git ls-remote (one remote)",
            ["git", "ls-remote", "--heads", "--tags", "--", one.url],
            checkout,
            lambda code: code == 0,
        ),
    ]
    for key, result in zip(
        ("cold", "warm-no-verify", "ls-remote"), alternate(commands, env, runs, warmups, server), strict=True
    ):
        report.runs[key] = result
    first = alternate(
        [Command("reflint scan --no-verify-commits, nothing cached", [], checkout, before=first_cache)],
        env,
        runs,
        warmups,
        server,
    )
    report.runs["first"] = first[0]


def _growth(
    report: Report,
    reflint: str,
    checkout: Path,
    files: Sequence[str],
    workdir: Path,
    caches: Path,
    env: dict[str, str],
    runs: int,
    warmups: int,
) -> None:
    """Warm scans of 1x and 50x copies of the recipe files; a warm 10x tree with one file edited before each
    run, beside the same tree unchanged."""
    trees = {}
    for scale in sorted({*GROWTH_SCALES, EDIT_SCALE}):
        tree = copies_tree(checkout, files, scale, workdir / f"targets-{scale}x")
        cache = caches / f"growth-{scale}x"
        _progress(f"  filling the cache of {scale}x ({scale * len(files)} files)")
        subprocess.run(
            [reflint, "scan", "--cache-dir", str(cache)], cwd=tree, env=env, capture_output=True, check=False
        )
        trees[scale] = (tree, cache)
    for scale in GROWTH_SCALES:
        tree, cache = trees[scale]
        command = Command(
            f"reflint scan of {scale}x (warm)", [reflint, "scan", "--cache-dir", str(cache)], tree
        )
        report.runs[f"growth-{scale}"] = alternate([command], env, runs, warmups)[0]
    tree, cache = trees[EDIT_SCALE]
    edited = tree / "copy-0" / next(name for name in files if name.endswith(".sh"))
    original = edited.read_text(encoding="utf-8")
    edits = iter(range(1_000_000))

    def edit() -> None:
        edited.write_text(f"{original}# edit {next(edits)}\n", encoding="utf-8")

    scan = [reflint, "scan", "--cache-dir", str(cache)]
    commands = [
        Command(
            f"reflint scan of {EDIT_SCALE}x after editing one file",
            scan,
            tree,
            before=lambda: (edit(), scan)[1],
        ),
        Command(f"reflint scan of {EDIT_SCALE}x (warm)", scan, tree),
    ]
    for key, result in zip(("edited", "edit-warm"), alternate(commands, env, runs, warmups), strict=True):
        report.runs[key] = result
    report.notes.append(f"edited before each run: {edited.relative_to(tree)} (a comment line appended)")


# ------------------------------------------------------------------------------------------ verdicts


def _verdicts(report: Report) -> list[TargetResult]:
    r = report.runs
    targets: list[TargetResult] = []

    def ratio(key: str, other: str, limit: float, goal: str) -> None:
        if key not in r or other not in r or r[key].error or r[other].error:
            targets.append(TargetResult(goal, "not measured", None))
            return
        cpu = r[key].cpu_median / r[other].cpu_median
        wall = r[key].wall_median / r[other].wall_median
        targets.append(
            TargetResult(
                goal,
                f"CPU {cpu:.3f}x ({_ms(r[key].cpu_median)} vs {_ms(r[other].cpu_median)}), wall {wall:.3f}x "
                f"({_ms(r[key].wall_median)} vs {_ms(r[other].wall_median)})",
                cpu <= limit,
            )
        )

    ratio("warm", "hadolint", 0.06, "warm `reflint scan .` <= 0.06x hadolint on the Dockerfiles")
    ratio("workflows", "zizmor", 1.5, "warm `reflint scan .github/workflows` <= 1.5x zizmor --offline")
    ratio("warm-zizmor", "zizmor", 1.0, "stretch: warm `reflint scan .` <= 1.0x zizmor on the workflows")
    ratio("pre-commit", "empty-2", 2.0, "warm scan naming 5 files <= 2x the empty-repository scan")
    if {"empty", "pass", "version"} <= r.keys():
        for key, limit, goal in (
            ("empty", 0.045, "empty-repository scan <= python -c pass + 45 ms"),
            ("version", 0.015, "reflint --version <= python -c pass + 15 ms"),
        ):
            extra_cpu = r[key].cpu_median - r["pass"].cpu_median
            extra_wall = r[key].wall_median - r["pass"].wall_median
            targets.append(
                TargetResult(
                    goal,
                    f"CPU +{_ms(extra_cpu)} ({_ms(r[key].cpu_median)} vs {_ms(r['pass'].cpu_median)}), wall "
                    f"+{_ms(extra_wall)}",
                    extra_cpu <= limit,
                )
            )
    if {"cold", "warm-no-verify", "ls-remote"} <= r.keys():
        gap_wall = r["cold"].wall_median - r["warm-no-verify"].wall_median
        one = r["ls-remote"].wall_median
        calls = sorted(set(r["cold"].calls))
        targets.append(
            TargetResult(
                f"cold - warm <= 1.5x one git ls-remote ({report.remotes} remotes, one wave)",
                f"wall {gap_wall:.3f} s = {gap_wall / one:.2f}x one ls-remote ({one:.3f} s); ls-remote calls "
                f"per cold scan {calls}, per warm scan {sorted(set(r['warm-no-verify'].calls))}",
                gap_wall <= 1.5 * one,
            )
        )
    low, high = f"growth-{GROWTH_SCALES[0]}", f"growth-{GROWTH_SCALES[-1]}"
    if {low, high, "empty"} <= r.keys():
        per = {
            key: (r[key].cpu_median - r["empty"].cpu_median) / (scale * report.files)
            for key, scale in ((low, GROWTH_SCALES[0]), (high, GROWTH_SCALES[-1]))
        }
        growth = per[high] / per[low]
        targets.append(
            TargetResult(
                f"{GROWTH_SCALES[0]}x -> {GROWTH_SCALES[-1]}x: CPU per file does not grow (<= 1.1x)",
                f"{per[low] * 1000:.3f} -> {per[high] * 1000:.3f} ms per file ({growth:.2f}x)",
                growth <= 1.1,
            )
        )
        targets.append(
            TargetResult(
                f"peak RSS at {GROWTH_SCALES[-1]}x <= 100 MiB",
                f"{r[high].rss_mib:.0f} MiB ({GROWTH_SCALES[-1] * report.files} files)",
                r[high].rss_mib <= 100,
            )
        )
    ratio(
        "edited", "edit-warm", 1.2, f"scan after editing one file of a warm {EDIT_SCALE}x tree <= 1.2x warm"
    )
    return targets


def report_lines(report: Report) -> list[str]:
    """The section of the table: every command's medians, then the targets."""
    lines = [
        "",
        f"targets on {report.checkout}: {report.files} recipe files, {report.remotes} remotes stood up "
        f"({report.recorded} with recorded ref lists, the others with the refs its pins name)",
        f"  {'command':<62}{'CPU':>12}{'wall':>12}{'peak RSS':>10}",
    ]
    for result in report.runs.values():
        state = f"  FAILED: {result.error}" if result.error else ""
        lines.append(
            f"  {result.label:<62}{_ms(result.cpu_median):>12}{_ms(result.wall_median):>12}"
            f"{result.rss_mib:>7.0f} MiB{state}"
        )
    lines += [f"  note: {note}" for note in report.notes]
    lines.append("  targets (the verdict is on CPU time):")
    for target in report.targets:
        verdict = {True: "met", False: "NOT MET", None: "not measured"}[target.met]
        lines.append(f"  [{verdict:^12}] {target.goal}: {target.figures}")
    return lines


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
