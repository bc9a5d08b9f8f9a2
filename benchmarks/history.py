"""What commit verification's history fetches cost on real repositories: cold, warm, and incremental.

Usage::

    python benchmarks/history.py /work/.mirror/NVIDIA+Megatron-LM/repo /work/.mirror/OWNER+NAME/repo
    python benchmarks/history.py --days 7 --runs 3 --latency 0.05 MIRROR ...

Each MIRROR is a full bare repository of a real upstream, in a folder named ``OWNER+NAME`` (or give
``--name OWNER/NAME`` once per mirror, in order). Nothing is changed in it. For each mirror the script

1. builds an *older view* of it: a bare repository borrowing the mirror's objects (``alternates``) whose
   branches stand where they stood ``--days`` days before the newest commit and whose tags are those that
   existed then;
2. serves the views and the mirror itself over smart HTTP (``git http-backend`` on 127.0.0.1, see
   ``httpserver.py``) with ``uploadpack.allowFilter`` and ``uploadpack.allowAnySHA1InWant`` given as
   server-side config, and points ``https://github.com/OWNER/NAME.git`` at it;
3. times, as whole ``reflint scan`` processes of a one-line Dockerfile that checks out an old commit of
   the default branch (so that its history is needed), the median of ``--runs`` runs of:

   - **cold**: an empty cache; the whole treeless history of the mirror's branches and tags is fetched;
   - **warm**: the same cache again; the verdict is cached and no git runs;
   - **incremental**: a cache filled against the older view, then the URL pointed at the mirror and a
     ``--refresh`` scan: one incremental fetch of the commits made in those days;

   and, for comparison, **git alone**: ``git clone --bare --filter=tree:0`` of the mirror (its branches and
   its tags, as reflint fetches them).

For each it prints the wall time, the ``history`` stage of ``--profile``, the peak RSS of the process and
every child it waited for (GNU ``time``'s ``%M``), and the size of the cache's ``history/`` folder. The
server runs on the same machine, so its work (``git pack-objects``) is in the wall time but not in the RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from httpserver import GitHttpServer
from run import Sample, Tools, git_env, run_once

HERE = Path(__file__).resolve().parent
GNU_TIME = "/usr/bin/time"
SERVER_CONFIG = (("uploadpack.allowFilter", "true"), ("uploadpack.allowAnySHA1InWant", "true"))


@dataclass
class Figures:
    """The runs of one scenario on one mirror.

    Attributes:
        samples: the timed runs.
        history_bytes: the size of the cache's ``history/`` folder after the last run, in bytes.
    """

    samples: list[Sample] = field(default_factory=list)
    history_bytes: int = 0

    def median(self) -> float:
        return statistics.median(s.seconds for s in self.samples)

    def stage(self, name: str) -> float:
        return statistics.median(s.stages.get(name, 0.0) for s in self.samples)

    def peak_rss_mib(self) -> float:
        return max(s.maxrss_kib for s in self.samples) / 1024


@dataclass
class MirrorResult:
    """Everything measured on one mirror."""

    name: str
    commits_now: int
    commits_then: int
    figures: dict[str, Figures] = field(default_factory=dict)


def git(*args: str, cwd: Path | None = None, stdin: str | None = None) -> str:
    """Run git with no user or system configuration; its standard output."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=True
    ).stdout


def older_view(mirror: Path, view: Path, days: float) -> tuple[int, str]:
    """Build ``view``, the mirror as it was ``days`` days before its newest commit (see the module
    docstring); returns (its count of commits reachable from branches and tags, the cut-off, unix time)."""
    git("init", "--quiet", "--bare", str(view))
    (view / "objects" / "info" / "alternates").write_text(f"{(mirror / 'objects').resolve()}\n")
    listing = git(
        "--git-dir",
        str(mirror),
        "for-each-ref",
        "--format=%(refname) %(objectname) %(committerdate:unix) %(*committerdate:unix)",
        "refs/heads",
        "refs/tags",
    )
    refs = [line.split(" ") for line in listing.splitlines()]
    newest = max(int(date or peeled or 0) for _, _, date, peeled in refs)
    cutoff = str(int(newest - days * 86400))
    updates = []
    for name, object_id, date, peeled in refs:
        if name.startswith("refs/tags/"):
            if int(peeled or date or 0) <= int(cutoff):
                updates.append(f"create {name} {object_id}\n")
            continue
        then = git("--git-dir", str(mirror), "rev-list", "-1", "--first-parent", f"--before={cutoff}", name)
        if then.strip():
            updates.append(f"create {name} {then.strip()}\n")
    git("--git-dir", str(view), "update-ref", "--stdin", stdin="".join(updates))
    count = git("--git-dir", str(view), "rev-list", "--count", "--branches", "--tags")
    return int(count), cutoff


def pinned_commit(mirror: Path, cutoff: str) -> str:
    """A commit of the default branch 30 days before the cut-off: in the history of every view."""
    head = git("--git-dir", str(mirror), "symbolic-ref", "HEAD").strip()
    before = str(int(cutoff) - 30 * 86400)
    return git(
        "--git-dir", str(mirror), "rev-list", "-1", "--first-parent", f"--before={before}", head
    ).strip()


def measure_mirror(
    tools: Tools, mirror: Path, name: str, days: float, runs: int, latency: float, work: Path
) -> MirrorResult:
    """The three scenarios of the module docstring on one mirror."""
    owner, repo = name.split("/")
    served = work / "served"
    link = served / "github.com" / owner / f"{repo}.git"
    link.parent.mkdir(parents=True, exist_ok=True)
    view = work / "views" / f"{owner}+{repo}-then.git"
    view.parent.mkdir(parents=True, exist_ok=True)
    commits_then, cutoff = older_view(mirror, view, days)
    commits_now = int(git("--git-dir", str(mirror), "rev-list", "--count", "--branches", "--tags"))
    project = work / "project" / f"{owner}+{repo}"
    project.mkdir(parents=True)
    commit = pinned_commit(mirror, cutoff)
    (project / "Dockerfile").write_text(
        f"FROM scratch\nRUN git clone https://github.com/{owner}/{repo}.git /src && cd /src && "
        f"git checkout {commit[:12]}\n"
    )
    result = MirrorResult(name, commits_now, commits_then)
    with GitHttpServer(served, latency=latency, config=SERVER_CONFIG) as server:
        env = git_env(server.base_url, ["github.com"], work / "home")
        scan = [tools.reflint, "scan", "--profile", "--select", "RL001,RL008,RL025,RL026"]

        def timed(cache: Path, *extra: str) -> Sample:
            sample, stderr = _run([*scan, "--cache-dir", str(cache), *extra], project, env)
            if sample.returncode != 0:
                raise SystemExit(f"reflint failed on {name} (exit {sample.returncode}): {stderr[-500:]}")
            return sample

        cold, warm, incremental, alone = Figures(), Figures(), Figures(), Figures()
        for run in range(runs):
            _point(link, mirror)
            alone.samples.append(_git_alone(owner, repo, work / "alone" / str(run), env))
            alone.history_bytes = _size(work / "alone" / str(run))
            cache = work / "caches" / f"{owner}+{repo}-{run}"
            cold.samples.append(timed(cache))
            cold.history_bytes = _size(cache / "history")
            warm.samples.append(timed(cache))
            warm.history_bytes = _size(cache / "history")
            _point(link, view)
            then_cache = work / "caches" / f"{owner}+{repo}-then-{run}"
            timed(then_cache)
            _point(link, mirror)
            incremental.samples.append(timed(then_cache, "--refresh"))
            incremental.history_bytes = _size(then_cache / "history")
            _progress(
                f"  {name} run {run + 1}: cold {cold.samples[-1].seconds:.2f} s, incremental "
                f"{incremental.samples[-1].seconds:.2f} s"
            )
        result.figures = {"git alone": alone, "cold": cold, "warm": warm, "incremental": incremental}
    return result


def _git_alone(owner: str, repo: str, folder: Path, env: dict[str, str]) -> Sample:
    """The same cold treeless fetch by git alone (``git clone --bare --filter=tree:0``: branches and tags)."""
    url = f"https://github.com/{owner}/{repo}.git"
    argv = ["git", "clone", "--quiet", "--bare", "--filter=tree:0", url, str(folder)]
    sample, stderr = _run(argv, folder.parent if folder.parent.exists() else Path.cwd(), env)
    if sample.returncode != 0:
        raise SystemExit(f"git clone failed on {owner}/{repo}: {stderr[-500:]}")
    return sample


def _run(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[Sample, str]:
    """:func:`run.run_once` under GNU ``time`` when it is installed, whose ``%M`` replaces the peak RSS.

    ``wait4`` in this harness counts, for a child, the memory it had when it was forked from the harness
    (a Python process of 40-60 MiB); ``time`` is small, so the figure it gives is the program's own.
    """
    if not Path(GNU_TIME).is_file():
        return run_once(argv, cwd, env)
    sample, stderr = run_once([GNU_TIME, "-f", "reflint-bench-maxrss %M", *argv], cwd, env)
    lines = stderr.splitlines()
    if lines and lines[-1].startswith("reflint-bench-maxrss "):
        sample.maxrss_kib = int(lines[-1].split()[1])
        stderr = "\n".join(lines[:-1])
    return sample, stderr


def _point(link: Path, target: Path) -> None:
    if link.is_symlink():
        link.unlink()
    link.symlink_to(target.resolve(), target_is_directory=True)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def table(results: Sequence[MirrorResult], days: float, runs: int, latency: float) -> str:
    """The printed report: one block per mirror, one row per scenario."""
    lines = [
        f"commit verification: history fetches, median of {runs} runs, {latency * 1000:.0f} ms per HTTP "
        f"request; incremental = the commits of the last {days:g} days",
        "",
        f"{'scenario':<14}{'wall':>9}{'history stage':>15}{'peak RSS':>11}{'cache':>11}",
    ]
    for result in results:
        new = result.commits_now - result.commits_then
        lines += [
            "",
            f"{result.name}: {result.commits_now:,} commits in its branches and tags, {new:,} of them new "
            "in the incremental fetch",
        ]
        for scenario, figures in result.figures.items():
            lines.append(
                f"{scenario:<14}{figures.median():>8.2f}s{figures.stage('history') * 1000:>13.0f}ms"
                f"{figures.peak_rss_mib():>8.1f}MiB{figures.history_bytes / 2**20:>8.1f}MiB"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every mirror given; print the table; write ``out/history-<time>.json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", nargs="+", type=Path, help="full bare repositories of real upstreams")
    parser.add_argument("--name", action="append", default=[], help="OWNER/NAME of each mirror, in order")
    parser.add_argument("--days", type=float, default=7.0, help="age of the older view (default: 7)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per scenario (default: 3)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per HTTP request (default: 0)")
    parser.add_argument("--reflint", help="the reflint program (default: the one beside this Python)")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where to write the JSON")
    args = parser.parse_args(argv)
    names = args.name or [mirror.resolve().parent.name.replace("+", "/", 1) for mirror in args.mirrors]
    if len(names) != len(args.mirrors):
        parser.error("give one --name per mirror, or none")
    tools = Tools.find(args.reflint)
    results = []
    with tempfile.TemporaryDirectory(prefix="reflint-history-") as temp:
        for mirror, name in zip(args.mirrors, names, strict=True):
            _progress(f"{name}: {mirror}")
            work = Path(temp) / name.replace("/", "+")
            results.append(
                measure_mirror(tools, mirror.resolve(), name, args.days, args.runs, args.latency, work)
            )
    print(table(results, args.days, args.runs, args.latency))
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"history-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json"
    path.write_text(json.dumps([asdict(result) for result in results], indent=2) + "\n")
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
