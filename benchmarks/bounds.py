"""What a hostile remote can cost a scan: peak memory and wall time of ``reflint scan`` against remotes that
advertise refs without end, or millions of them (``refserver.py``).

Two cases, each one run of the whole command line, with its output going to a file as in CI:

- **endless**: 32 pins of 32 remotes whose ref advertisement never ends, ``--jobs 32``;
- **5,000,000 refs**: one pin of a remote that advertises 5,000,000 tags and then ends.

The pins' ``https://hostile.example/…`` URLs reach the local server through ``url.<base>.insteadOf`` in
``GIT_CONFIG_*`` variables; system and global git config are ignored; nothing leaves the machine. Peak
memory is the largest sum of the proportional set sizes (``Pss`` in ``/proc/PID/smaps_rollup``, proc(5): each
process's resident memory with the pages it shares, such as the libraries every git maps, divided among
the processes that share them) of reflint and every process it started (git, git-remote-http), sampled
every 20 ms. A guard kills the whole process tree when
that sum passes ``--guard-mib`` (default 12 GiB) or the run passes ``--guard-seconds`` (default 600), and
the row says so: that is how the unbounded behaviour is measured without taking the machine down.

And what a repository can cost the report: **sarif-drift** and **json-drift**, 4,000 small files of one
drift family (``npu/``), each pinning one remote at a ref of its own, give 4,000 RL005 findings of 20
related places each, written as SARIF (JSON) to a file (``--offline``: no remote is asked).

Run: ``python benchmarks/bounds.py [--reflint PROGRAM] [--case endless|millions|sarif-drift|json-drift]
[-- EXTRA SCAN ARGS]``. Linux only (reads ``/proc``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
_HOST = "hostile.example"
_SAMPLE_SECONDS = 0.02


@dataclass(frozen=True)
class Case:
    """One measured situation: how many remotes, how many refs each advertises (None: no end)."""

    name: str
    remotes: int
    refs: int | None
    jobs: int


CASES = {
    "endless": Case("endless advertisement, 32 remotes, --jobs 32", 32, None, 32),
    "millions": Case("5,000,000 refs, 1 remote", 1, 5_000_000, 32),
}


@dataclass(frozen=True)
class Outcome:
    """What one run cost and said."""

    seconds: float
    peak_mib: float
    exit_code: int | None
    stopped_by_guard: str | None
    findings: dict[str, int]
    stderr_tail: str


def tree_pss_kib(root: int) -> int:
    """The summed ``Pss`` of ``root`` and all its descendants (git runs in sessions of its own, so the
    tree is followed by parent ids, not by session)."""
    children: dict[int, list[int]] = {}
    for pid in _pids():
        parent = _stat_field(pid, 1)  # the parent id (proc(5): field 4)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, ()))
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii", errors="replace") as handle:
                total += next((int(line.split()[1]) for line in handle if line.startswith("Pss:")), 0)
        except (OSError, ValueError):
            continue
    return total


def _pids() -> list[int]:
    return [int(entry.name) for entry in os.scandir("/proc") if entry.name.isdigit()]


def _stat_field(pid: int, index: int) -> int | None:
    """Field ``index`` after the command name in ``/proc/PID/stat`` (0: state, 1: parent, 2: group)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[index])
    except (OSError, IndexError, ValueError):
        return None


def write_project(folder: Path, remotes: int) -> None:
    """A Dockerfile with one ``git clone --branch v1`` of each hostile remote."""
    lines = ["FROM ubuntu:22.04\n"]
    lines += [
        f"RUN git clone --branch v1 https://{_HOST}/org/repo{n}.git /opt/r{n}\n" for n in range(remotes)
    ]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Dockerfile").write_text("".join(lines), encoding="utf-8")


#: The files of the drift cases.
_DRIFT_FILES = 4_000


def write_drift_project(folder: Path, files: int = _DRIFT_FILES) -> None:
    """``files`` files in ``npu/`` (drift family ``ascend``), shell scripts and requirements files in turn,
    each pinning ``https://github.com/o/r.git`` at a ref of its own, in a git work tree."""
    family = folder / "npu"
    family.mkdir(parents=True, exist_ok=True)
    for n in range(files):
        if n % 2:
            text = f"#!/bin/sh\ngit clone --branch v1.{n}.0 https://github.com/o/r.git /opt/r\n"
            (family / f"install_{n}.sh").write_text(text, encoding="utf-8")
        else:
            text = f"r @ git+https://github.com/o/r.git@v1.{n}.0\n"
            (family / f"requirements_{n}.txt").write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)


#: The report formats of the drift cases: case → (format, the findings of its report).
DRIFT_CASES: dict[str, tuple[str, Callable[[Any], list[Any]]]] = {
    "sarif-drift": ("sarif", lambda report: report["runs"][0]["results"]),
    "json-drift": ("json", lambda report: report["findings"]),
}


def measure_drift_report(
    case: str, reflint: str, guard_kib: int, guard_seconds: float, extra: list[str]
) -> None:
    """Run a drift case (:data:`DRIFT_CASES`) and print its block: time, peak memory, findings, the report's
    size."""
    output_format, findings = DRIFT_CASES[case]
    with tempfile.TemporaryDirectory(prefix="reflint-bounds-") as work:
        folder = Path(work)
        write_drift_project(folder / "project")
        report = folder / f"report.{output_format}"
        argv = [
            reflint,
            "scan",
            "--offline",
            "--select",
            "RL005",
            "--format",
            output_format,
            "-o",
            str(report),
        ]
        argv += ["--cache-dir", str(folder / "cache"), *extra]
        outcome = run(
            argv, folder / "project", environment("http://127.0.0.1:9/", folder), guard_kib, guard_seconds
        )
        size = report.stat().st_size if report.exists() else 0
        results = len(findings(json.loads(report.read_text(encoding="utf-8")))) if size else 0
    print(f"## {_DRIFT_FILES:,} files of one drift family, {output_format.upper()} report")
    print(f"command: reflint {' '.join(argv[1:-2])} …")
    print(f"wall time: {outcome.seconds:.1f} s; peak memory (PSS): {outcome.peak_mib:.0f} MiB")
    print(
        f"exit code: {outcome.exit_code}"
        + (f" ({outcome.stopped_by_guard})" if outcome.stopped_by_guard else "")
    )
    print(f"report: {size / 1e6:.1f} MB, {results:,} findings")
    print(flush=True)


def environment(base_url: str, home: Path) -> dict[str, str]:
    """The caller's environment with git's config replaced by one rewrite to the server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_CONFIG")}
    env.update(
        {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": f"url.{base_url}.insteadOf",
            "GIT_CONFIG_VALUE_0": f"https://{_HOST}/",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "XDG_CACHE_HOME": str(home / "xdg-cache"),
            "NO_PROXY": "127.0.0.1",
            "no_proxy": "127.0.0.1",
            "NO_COLOR": "1",
        }
    )
    return env


def run(argv: list[str], cwd: Path, env: dict[str, str], guard_kib: int, guard_seconds: float) -> Outcome:
    """Run ``argv``, sampling the memory of its process tree until it ends or a guard trips."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        peak, stopped = 0, None
        while process.poll() is None:
            peak = max(peak, tree_pss_kib(process.pid))
            elapsed = time.monotonic() - started
            if peak > guard_kib or elapsed > guard_seconds:
                stopped = f"guard: {peak / 1024:.0f} MiB after {elapsed:.1f} s"
                _kill_tree(process.pid)
                process.wait()
                break
            time.sleep(_SAMPLE_SECONDS)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        document = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    findings: dict[str, int] = {}
    try:
        for finding in json.loads(document)["findings"]:
            key = f"{finding['code']}: {finding['message'].split(': ', 1)[-1][:60]}"
            findings[key] = findings.get(key, 0) + 1
    except (ValueError, KeyError):
        pass
    tail = "\n".join(stderr.strip().splitlines()[-3:])
    return Outcome(seconds, peak / 1024, None if stopped else process.returncode, stopped, findings, tail)


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid in _pids():
        parent = _stat_field(pid, 1)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    found, stack = [], list(children.get(root, ()))
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, ()))
    return found


def _kill_tree(root: int) -> None:
    """SIGKILL ``root`` and its descendants."""
    for pid in [root, *_descendants(root)]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def main() -> int:
    """Measure the chosen cases and print one block per case."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reflint", default=str(Path(sys.executable).parent / "reflint"))
    parser.add_argument("--case", choices=[*sorted(CASES), *DRIFT_CASES], action="append")
    parser.add_argument("--guard-mib", type=int, default=12 * 1024)
    parser.add_argument("--guard-seconds", type=float, default=600.0)
    parser.add_argument("extra", nargs="*", help="more `reflint scan` arguments (after --)")
    args = parser.parse_args()
    for name in args.case or [*sorted(CASES), *DRIFT_CASES]:
        if name in DRIFT_CASES:
            measure_drift_report(name, args.reflint, args.guard_mib * 1024, args.guard_seconds, args.extra)
            continue
        case = CASES[name]
        server = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "refserver.py"),
                *([] if case.refs is None else ["--refs", str(case.refs)]),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            base_url = server.stdout.readline().strip()
            with tempfile.TemporaryDirectory(prefix="reflint-bounds-") as work:
                folder = Path(work)
                write_project(folder / "project", case.remotes)
                argv = [args.reflint, "scan", "--format", "json", "--jobs", str(case.jobs), "--refresh"]
                argv += ["--cache-dir", str(folder / "cache"), *args.extra]
                outcome = run(
                    argv,
                    folder / "project",
                    environment(base_url, folder),
                    args.guard_mib * 1024,
                    args.guard_seconds,
                )
        finally:
            server.kill()
            server.wait()
        print(f"## {case.name}")
        print(f"command: reflint {' '.join(argv[1:-2])} …")
        peak = f"{outcome.peak_mib:.0f} MiB"
        print(
            f"wall time: {outcome.seconds:.1f} s; peak memory (PSS of reflint and its git processes): {peak}"
        )
        print(
            f"exit code: {outcome.exit_code}"
            + (f" ({outcome.stopped_by_guard})" if outcome.stopped_by_guard else "")
        )
        for finding, count in sorted(outcome.findings.items()):
            print(f"  {count} x {finding}")
        if outcome.stderr_tail:
            print("stderr (last lines):\n  " + outcome.stderr_tail.replace("\n", "\n  "))
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
