"""The tree index's oracle: a scan naming a few files reads only the files of the tree that the cross-file
rules compare them with (:mod:`ascend_reflint.context`), and must report exactly what the same scan
reports when it reads every file (``--no-cache``).

For each ROOT, ``--sets`` random sets of 1 to 5 recipe files (the files ``reflint refs`` lists pins of: a
third from the ``ascend``/``npu`` family, a third from one folder, a third from anywhere), each with a
random rule selection (all rules, the cross-file rules, RL005 alone, all but RL005), are scanned offline
with the tree index written by an earlier scan, then with ``--no-cache``: the JSON reports and the exit
codes must be equal. The index is warmed by a scan of the root's first recipe file, so a set scanned
after files that earlier sets named (and the index never summarised) meets a stale index too.

Run with the Python of the reflint to check, for instance over the real repositories::

    python benchmarks/run_tree_index_oracle.py --sets 10 /work/repos/*

Prints, per root, the sets that agree and how many other files a scan with the index read (the median of
``--debug``'s ``context: N of M other files read``), the median wall time of both scans, then each
disagreement (the arguments and the fields of the JSON report that differ). Exit code 1 on any
disagreement.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

#: The rule selections a set is scanned with (all rules; the cross-file rules; RL005 alone, which looks
#: up only what the drift rules need; everything but RL005).
SELECTIONS: tuple[list[str], ...] = (
    [],
    ["--select", "RL004,RL005,RL006"],
    ["--select", "RL005"],
    ["--ignore", "RL005"],
)
_CONTEXT = re.compile(r"context: (\d+) of (\d+) other files read")


def reflint(args: Sequence[str], cwd: str) -> tuple[int, str, str, float]:
    """``reflint ARGS`` in ``cwd``: exit code, stdout, stderr and wall seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ascend_reflint", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - started


def recipe_files(root: str) -> list[str]:
    """The files of ``root`` that ``reflint refs`` lists pins of, in path order."""
    code, out, err, _ = reflint(["refs", "--format", "json", "."], root)
    if code not in (0, 1) or not out:
        raise SystemExit(f"reflint refs failed in {root}: {err.strip()}")
    return sorted({pin["path"] for pin in json.loads(out)["pins"]})


def random_set(rng: random.Random, files: Sequence[str]) -> list[str]:
    """1 to 5 files: of the ascend/npu family, of one folder, or of anywhere (a third each)."""
    size = rng.randint(1, 5)
    family = [path for path in files if "ascend" in path.lower() or "npu" in path.lower()]
    draw = rng.random()
    if draw < 1 / 3 and family:
        pool = family
    elif draw < 2 / 3:
        folder = os.path.dirname(rng.choice(files))
        pool = [path for path in files if os.path.dirname(path) == folder]
    else:
        pool = list(files)
    return rng.sample(pool, min(size, len(pool)))


def differing(indexed: str, everything: str) -> list[str]:
    """The top-level fields of two JSON reports that differ (the texts themselves when one is no JSON)."""
    try:
        first: dict[str, Any] = json.loads(indexed)
        second: dict[str, Any] = json.loads(everything)
    except ValueError:
        return [f"stdout: {indexed[:300]!r} != {everything[:300]!r}"]
    return [
        f"{key}: {first.get(key)!r} != {second.get(key)!r}"
        for key in first | second
        if first.get(key) != second.get(key)
    ]


def check_root(root: str, sets: int, rng: random.Random, cache: str) -> tuple[int, list[str]]:
    """Scan ``sets`` random sets of ``root`` both ways; the number that agree and the disagreements."""
    files = recipe_files(root)
    if not files:
        return 0, []
    reflint(["scan", "--cache-dir", cache, "--offline", "--quiet", files[0]], root)  # writes the index
    agreed, disagreements = 0, []
    read: list[tuple[int, int]] = []
    walls: tuple[list[float], list[float]] = ([], [])
    for _ in range(sets):
        named = random_set(rng, files)
        args = [
            "scan",
            "--cache-dir",
            cache,
            "--offline",
            "--format",
            "json",
            *rng.choice(SELECTIONS),
            *named,
        ]
        indexed = reflint([*args, "--debug"], root)
        everything = reflint([*args, "--no-cache"], root)
        walls[0].append(indexed[3])
        walls[1].append(everything[3])
        found = _CONTEXT.search(indexed[2])
        if found is not None:
            read.append((int(found.group(1)), int(found.group(2))))
        if (indexed[0], indexed[1]) == (everything[0], everything[1]):
            agreed += 1
            continue
        fields = differing(indexed[1], everything[1])
        codes = f"exit {indexed[0]} != {everything[0]}" if indexed[0] != everything[0] else ""
        disagreements.append(f"{root}: {' '.join(args[5:])}: {codes} {'; '.join(fields)}"[:2000])
    counts = (
        (statistics.median(n for n, _ in read), statistics.median(m for _, m in read)) if read else (0, 0)
    )
    print(
        f"{os.path.basename(root)}: {agreed} of {sets} sets agree; other files read with the index: median "
        f"{counts[0]:g} of {counts[1]:g}; wall: {statistics.median(walls[0]):.2f} s with the index, "
        f"{statistics.median(walls[1]):.2f} s reading every file",
        flush=True,
    )
    return agreed, disagreements


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", help="work trees to scan")
    parser.add_argument("--sets", type=int, default=10, help="random sets per root (default: 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random sets (default: 1)")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    agreed, disagreements = 0, []
    with tempfile.TemporaryDirectory(prefix="reflint-oracle-") as cache:
        for root in options.roots:
            ok, bad = check_root(os.path.abspath(root), options.sets, rng, cache)
            agreed += ok
            disagreements += bad
    print(f"{agreed} of {agreed + len(disagreements)} sets agree")
    for line in disagreements:
        print(line)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
