"""CPU time of ``reflint scan`` from two source trees on one repository, runs interleaved.

Usage::

    git -C /work/main archive BASE ascend_reflint rules | tar -x -C /tmp/base
    git -C /work/main archive NEW ascend_reflint rules | tar -x -C /tmp/new
    python benchmarks/interleaved.py --repo /work/repos/verl --base /tmp/base --new /tmp/new --runs 31

Each run is a whole process (``python -m ascend_reflint scan --offline --format json``, its own warm
``--cache-dir`` per tree, filled by one scan first), and what is timed is its user + system CPU time
(``getrusage(RUSAGE_CHILDREN)``): on a shared machine the CPU time moves far less than the wall time.
Runs alternate between the trees, so that a change of load hits both alike. ``--args ARGS`` gives every
series more arguments (``--args=--no-cache``: each run extracts every file, to time extraction itself);
``--also ARGS`` adds a third series (the new tree with more arguments, e.g. ``--also=--no-docs``). Prints
the medians and the ratio.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def _cpu_of(tree: str, repo: str, cache: str, extra: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [
        sys.executable,
        "-m",
        "ascend_reflint",
        "scan",
        "--offline",
        "--format",
        "json",
        "--cache-dir",
        cache,
    ]
    subprocess.run(
        [*command, *extra], cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", required=True)
    parser.add_argument("--base", required=True, help="a source tree holding ascend_reflint/ and rules/")
    parser.add_argument("--new", required=True, help="a source tree holding ascend_reflint/ and rules/")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--also", default="", help="more arguments for a third series of the new tree")
    parser.add_argument("--args", default="", help="more arguments for every series")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as caches:
        common = args.args.split()
        series = {"base": (args.base, common), "new": (args.new, common)}
        if args.also:
            series[f"new {args.also}"] = (args.new, [*common, *args.also.split()])
        for tree, _extra in series.values():  # fill each tree's cache online once
            cache = os.path.join(caches, os.path.basename(tree.rstrip("/")))
            env = dict(os.environ, PYTHONPATH=tree)
            subprocess.run(
                [sys.executable, "-m", "ascend_reflint", "scan", "--format", "json", "--cache-dir", cache],
                cwd=args.repo,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        samples: dict[str, list[float]] = {name: [] for name in series}
        for _ in range(args.runs):
            for name, (tree, extra) in series.items():
                cache = os.path.join(caches, os.path.basename(tree.rstrip("/")))
                samples[name].append(_cpu_of(tree, args.repo, cache, extra))
    for name, values in samples.items():
        print(
            f"{name:24} CPU median {statistics.median(values) * 1000:7.1f} ms  "
            f"(min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f}, n={len(values)})"
        )
    ratio = statistics.median(samples["new"]) / statistics.median(samples["base"])
    print(f"new / base: {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
