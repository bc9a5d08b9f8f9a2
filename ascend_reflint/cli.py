"""The ``reflint`` command line: parse arguments, run the pipeline, format, exit.

Exit codes: see :data:`SCAN_EXIT_CODES` (``reflint scan --help`` prints it, README.md has it). Heavy
modules (rich, tree-sitter, ruamel.yaml) are imported only by the commands that need them, so
that ``reflint --version`` and the pre-commit hook start fast.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

from ascend_reflint import __version__

# `typing` and `argparse` are not imported for `reflint --version`, the floor of every command: mypy reads
# a module-level TYPE_CHECKING as typing's.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any, TextIO

    from ascend_reflint.config import Config
    from ascend_reflint.model import FileMessage, Pin, ScanResult, Severity
    from ascend_reflint.output import Channel
    from ascend_reflint.report.text import TextOptions
    from ascend_reflint.scan import ScanOptions, ScanRun

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
#: What ``reflint scan`` exits with; 0 never stands for "nothing was checked". Also in README.md.
SCAN_EXIT_CODES = """\
exit codes:
  0  no finding at or above --fail-on, every recipe file read and parsed, a lookup answered or none needed
  1  a finding at or above --fail-on
  1  a recipe file could not be read or parsed (binary, too large, malformed YAML, a shell syntax error)
  1  lookups were needed and none answered (network down, every remote unreachable, --offline, no cache)
  1  no recipe file found in the folders scanned: nothing was checked (named files that are not recipes: 0)
  0  with --exit-zero, whatever was found (2 still for usage and internal errors)
  2  usage or internal error
"""
FORMATS = ("text", "json", "github", "sarif")
#: The formats that ``--statistics`` changes (ruff's: the text and json formats).
STATISTICS_FORMATS = ("text", "json")


class UsageError(Exception):
    """A command line or configuration that reflint cannot run with (exit code 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``reflint`` with ``argv`` (default: ``sys.argv[1:]``) and return the exit code.

    Standard output and standard error are :class:`~ascend_reflint.output.Channel` s for the duration: no
    text from a scanned file can write a workflow command to the CI log through them.
    """
    return _command(argv, exiting=False)


def run() -> int:
    """The ``reflint`` program (its console script and ``python -m ascend_reflint``): :func:`main` with the
    process's arguments, in a process that exits when it returns; returns the exit code.

    What is alive when the command ends is frozen (:func:`gc.freeze`, see :func:`_fewer_collections`).
    """
    return _command(None, exiting=True)


def _command(argv: Sequence[str] | None, exiting: bool) -> int:
    """:func:`main`; ``exiting``: for :func:`run`."""
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:
        # The floor of every command, answered before the parser is built (argparse's formatter alone
        # loads textwrap, shutil and locale); the text is reflint's own.
        return _print_version()
    from ascend_reflint.output import guarded_streams, open_closed_standard_descriptors

    open_closed_standard_descriptors()

    with guarded_streams(), _signals_as_interrupts(), _fewer_collections(freeze=exiting):
        return _main(argv)


#: The youngest generation's threshold of the cyclic garbage collector while a command runs: CPython's
#: default, 700, collects every 700 allocations of objects that can hold others (net of those freed).
YOUNG_COLLECTION_THRESHOLD = 100_000


@contextlib.contextmanager
def _fewer_collections(freeze: bool) -> Iterator[None]:
    """Collect cyclic garbage less often while a command runs (:data:`YOUNG_COLLECTION_THRESHOLD`), as mypy
    does; the thresholds before are restored after. With ``freeze`` (the process exits next), every object
    still alive is frozen first (:func:`gc.freeze`).

    A command allocates tens of thousands of objects that live until it ends (the modules' classes and
    functions, the files read and their pins), and each collection at the default threshold walks the ones
    made since the last: 18 collections in a scan of an empty repository, 40 to 50 in a warm scan of verl or
    of five of its files (3 to 8 ms of CPU), 640 in a warm scan of 50 copies of its recipes (330 ms). At
    the new threshold the short scans collect nothing and the long one a few times. Reference counting still
    frees at once whatever is not in a cycle, so the most that waits is the cyclic garbage of that many
    allocations: the peak RSS of the 50x scan, warm or with ``--no-cache``, stayed the same.

    Restoring the threshold with that many objects allocated since the last collection would start one at
    once; and the interpreter's collections at exit walk every object alive (modules, classes, functions):
    some 8 ms of a warm pre-commit-shaped scan of verl. Frozen objects are walked by neither, and the exit
    frees the process's memory anyway; reflint leaves nothing that needs a finalizer (files, folders, locks
    and processes are released by the ``with`` blocks that made them). A caller of :func:`main` in a process
    that goes on is not frozen.
    """
    previous = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *previous[1:])
    try:
        yield
    finally:
        if freeze:
            gc.freeze()  # also empties the youngest generation: restoring the threshold collects nothing
        gc.set_threshold(*previous)


def _print_version() -> int:
    """Write ``reflint VERSION`` to standard output and return the exit code.

    A stream closed from the start (``>&-``: Python makes it None) or a reader that went away (EPIPE) costs
    the output only, as for every command (docs/commands.md): 0, and nothing on standard error. Any other
    write error (``> /dev/full``: ENOSPC) is one line on standard error and exit code 2, as a scan's is. The
    write is flushed here, so that no error is left for Python's flush at exit ("Exception ignored …").
    """
    if sys.stdout is None:
        return EXIT_CLEAN
    try:
        sys.stdout.write(f"reflint {__version__}\n")
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
        return EXIT_CLEAN
    except OSError as exc:
        _stdout_to_devnull()
        if sys.stderr is not None:
            sys.stderr.write(f"reflint: error: cannot write to standard output: {exc.strerror or exc}\n")
        return EXIT_ERROR
    return EXIT_CLEAN


def _stdout_to_devnull() -> None:
    """Point standard output's descriptor at ``/dev/null``, so that Python's flush at exit writes what is
    still buffered there instead of failing again (the Python docs, library/signal.html, "Note on
    SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


#: The commands that install the logging handler when they first read a file (see ``_main``).
_DEFERRED_LOGGING = frozenset({"scan", "refs"})


def _main(argv: Sequence[str] | None) -> int:
    from ascend_reflint.output import configure_logging, shown, shown_lines

    parser = _parser()
    try:
        args, unrecognized = parser.parse_known_args(argv)
        if unrecognized:
            # The command's own usage and a suggestion, not the top-level usage argparse would print.
            command_parser = getattr(args, "command_parser", parser)
            command_parser.error(unrecognized_message(command_parser, unrecognized))
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 for --help
        return int(exc.code or 0)
    # Every logger masks credentials. A scan or refs installs the handler once it has files to read (an
    # empty scan never imports logging); nothing logs before that.
    configure_logging(sys.stderr, args.debug, defer=args.command in _DEFERRED_LOGGING and not args.debug)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        return int(args.handler(args))
    except UsageError as exc:
        sys.stderr.write(f"reflint: error: {shown_lines(str(exc))}\n")
        return EXIT_ERROR
    except (KeyboardInterrupt, Interrupted) as exc:
        number = exc.signum if isinstance(exc, Interrupted) else signal.SIGINT
        sys.stderr.write(f"reflint: interrupted ({signal.Signals(number).name})\n")
        return 128 + number
    except BrokenPipeError:
        # The reader went away (`reflint refs | head`): stop quietly, with stdout on devnull so that exit
        # does not fail again.
        _stdout_to_devnull()
        return EXIT_FINDINGS
    except Exception as exc:
        import logging

        from ascend_reflint.output import ensure_logging

        ensure_logging()
        logging.getLogger("reflint").debug("internal error", exc_info=True)  # through the safe formatter
        detail = shown(f"{type(exc).__name__}: {exc}")
        sys.stderr.write(f"reflint: internal error: {detail} (run with --debug for details)\n")
        return EXIT_ERROR


class Interrupted(BaseException):
    """SIGTERM or SIGHUP arrived: raised in the main thread, it unwinds the scan as KeyboardInterrupt
    does for SIGINT, so that the same cleanup runs (git process groups killed, temporary folders removed).

    Attributes:
        signum: the signal's number; reflint exits with 128 + it, as shells report a signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: Signals handled as SIGINT is: a CI runner cancelling a job sends SIGTERM, a closed terminal SIGHUP.
_INTERRUPTING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _signals_as_interrupts() -> Iterator[None]:
    """While reflint runs, SIGTERM and SIGHUP raise :class:`Interrupted` in the main thread; the first one
    only: later ones are ignored, so that the cleanup it started is not cut short (it is bounded: git is
    killed, not waited for). Outside the main thread (where Python cannot install handlers) nothing
    changes."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, _frame: object) -> None:
        for number in _INTERRUPTING:
            signal.signal(number, signal.SIG_IGN)
        raise Interrupted(signum)

    previous = {number: signal.signal(number, interrupt) for number in _INTERRUPTING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def unrecognized_message(parser: argparse.ArgumentParser, arguments: Sequence[str]) -> str:
    """argparse's "unrecognized arguments" message, with what each unknown option most likely means
    (:func:`_likely_options`); an option of the command that was given before the command is told to go
    after it.

    Args:
        parser: the parser of the command the arguments were given to (``reflint scan``).
        arguments: what it did not recognise, as given.

    Returns:
        ``unrecognized arguments: --formt (did you mean --format?), x``.
    """
    options = sorted(option for option in parser._option_string_actions if option.startswith("--"))
    shown = []
    for argument in arguments:
        name = argument.split("=", 1)[0]
        likely = _likely_options(name, options) if name.startswith("--") else []
        if name in options:  # `reflint --offline scan`: the command's option before the command
            shown.append(f"{argument} (give it after {parser.prog!r})")
        elif likely:
            listed = f"one of {', '.join(likely[:-1])} or {likely[-1]}" if len(likely) > 1 else likely[0]
            shown.append(f"{argument} (did you mean {listed}?)")
        else:
            shown.append(argument)
    return f"unrecognized arguments: {', '.join(shown)}"


def _likely_options(name: str, options: Sequence[str]) -> list[str]:
    """The options that an unknown ``--name`` most likely means: those it begins (``--unsafe`` for
    ``--unsafe-fixes``: reflint takes no abbreviation), else the longest one it begins with (``--fix`` for
    ``--fix-only``), else the closest by :func:`difflib.get_close_matches` if one is close (a ratio of 0.7:
    ``--formt`` gives ``--format``, ``--foo`` nothing)."""
    import difflib

    begun = [option for option in options if option.startswith(name)]
    extended = sorted((option for option in options if name.startswith(option)), key=len)[-1:]
    return begun or extended or difflib.get_close_matches(name, options, n=1, cutoff=0.7)


def _parser() -> argparse.ArgumentParser:
    import argparse

    class Parser(argparse.ArgumentParser):
        """Every parser of reflint, its commands' included: no abbreviated options (``--stat`` is not
        ``--statistics``), so that an option added later never changes what an abbreviation means."""

        def __init__(self, **kwargs: object) -> None:
            super().__init__(allow_abbrev=False, **kwargs)  # type: ignore[arg-type]
            self._checking_argument = False

        def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
            # argparse makes a help formatter for every argument added, only to check its metavar against
            # its nargs; the formatter's default width is the terminal's, which costs an import of shutil
            # (and of bz2, lzma and zlib behind it: 1.7 ms of every start) for text never shown.
            self._checking_argument = True
            try:
                return super().add_argument(*args, **kwargs)
            finally:
                self._checking_argument = False

        def _check_value(self, action: argparse.Action, value: Any) -> None:
            """argparse's check of a choice (a command, a ``--format``), whose error then says what a
            mistyped one most likely means, as an unknown option's does: ``invalid choice: 'scna' (…)
            (did you mean 'scan'?)``."""
            try:
                super()._check_value(action, value)  # type: ignore[misc]
            except argparse.ArgumentError as error:
                choices = [str(choice) for choice in action.choices or ()]
                likely = _likely_options(str(value), choices) if isinstance(value, str) else []
                if not likely:
                    raise
                hint = f" (did you mean {likely[0]!r}?)"
                raise argparse.ArgumentError(action, error.message + hint) from None

        def _get_formatter(self) -> argparse.HelpFormatter:
            if self._checking_argument:  # every HelpFormatter takes a width; typeshed's protocol omits it
                return self.formatter_class(prog=self.prog, width=80)  # type: ignore[call-arg]
            return super()._get_formatter()

    parser = Parser(
        prog="reflint",
        description="Lint the git refs that build recipes pin "
        "(Dockerfiles, scripts, CI files, dependency files and more).",
    )
    parser.add_argument("--version", action="version", version=f"reflint {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    parser.set_defaults(command=None, debug=False)
    # prog given, not left to argparse, which formats a usage line (at the terminal's width) to find it
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", prog="reflint")

    refs = commands.add_parser("refs", help="list every pinned git ref, at its exact position")
    _add_input_options(refs)
    refs.add_argument(
        "--format",
        "--output-format",
        choices=("text", "json"),
        default="text",
        help="output format (default: text)",
    )
    refs.add_argument("--output", "-o", metavar="FILE", help="write the output to FILE instead of stdout")
    _add_colour_option(refs)
    refs.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where scans cached what they verified (default: user cache dir); refs never uses the network",
    )
    refs.set_defaults(handler=_run_refs, command_parser=refs)

    scan = commands.add_parser(
        "scan",
        help="check every pinned ref against its remote and the rules",
        epilog=SCAN_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_input_options(scan)
    scan.add_argument(
        "--format",
        "--output-format",
        action="append",
        choices=FORMATS,
        default=None,
        metavar="FORMAT",
        help="text, json, github (workflow-command annotations) or sarif; default: text (repeatable)",
    )
    scan.add_argument(
        "--output",
        "-o",
        action="append",
        default=[],
        metavar="FILE",
        help="write a format to FILE; outputs pair with the last formats in order, the others go to stdout "
        "(repeatable)",
    )
    scan.add_argument(
        "--sarif-file",
        metavar="FILE",
        help="also write a SARIF report to FILE, apart from --format and --output (what the GitHub Action "
        "uploads: formats given to it cannot take this file)",
    )
    _add_colour_option(scan)
    scan.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print the findings only: no summary line, notices or progress (file errors still go to stderr)",
    )
    scan.add_argument(
        "--statistics",
        action="store_true",
        help="print the number of findings per rule instead of the findings: lines in the text format, an "
        "array in json (as ruff's); not with github or sarif",
    )
    scan.add_argument(
        "--offline", action="store_true", help="answer from the cache only; never use the network"
    )
    scan.add_argument(
        "--refresh", action="store_true", help="ignore cached ref lists and ask every remote again"
    )
    scan.add_argument(
        "--cache-dir", metavar="DIR", help="where ref lists are cached (default: user cache dir)"
    )
    scan.add_argument(
        "--cache-ttl",
        type=_seconds,
        default=3600.0,
        metavar="SECONDS",
        help="how long a cached ref list stays fresh (default: 3600)",
    )
    scan.add_argument(
        "--timeout",
        type=_seconds,
        default=20.0,
        metavar="SECONDS",
        help="time limit of one remote's lookup (default: 20)",
    )
    scan.add_argument(
        "--jobs",
        "-j",
        type=_positive_int,
        default=None,
        metavar="N",
        help="remotes looked up at once (default: every remote at once, up to 64, within --lookup-memory; "
        "lookups wait on the network, not the CPU)",
    )
    scan.add_argument(
        "--lookup-deadline",
        type=_seconds,
        default=120.0,
        metavar="SECONDS",
        help="time limit of all lookups together; what has not answered by then is RL010 (default: 120)",
    )
    scan.add_argument(
        "--max-refs",
        type=_positive_int,
        default=250_000,
        metavar="N",
        help="refs one remote may list; past it the lookup stops: RL010 (default: 250000)",
    )
    scan.add_argument(
        "--max-ref-list-size",
        type=_mebibytes,
        default=32.0,
        metavar="MIB",
        help="the largest one remote's ref list may be; past it the lookup stops: RL010 (default: 32)",
    )
    scan.add_argument(
        "--lookup-memory",
        type=_mebibytes,
        default=512.0,
        metavar="MIB",
        help="memory all lookups running at once may hold (git's processes and the ref lists read); past "
        "it the largest stops: RL010 (default: 512)",
    )
    scan.add_argument(
        "--credentials-for",
        type=_hosts,
        action="extend",
        default=[],
        metavar="HOST",
        help="look up https and ssh URLs of HOST (or HOST:PORT) with your git credentials; other hosts "
        "get none (repeatable or comma-separated; also $REFLINT_CREDENTIALS_FOR)",
    )
    scan.add_argument(
        "--no-verify-commits",
        dest="verify_commits",
        action="store_false",
        help="do not verify pinned commit ids against their remotes' histories (RL008 reports them)",
    )
    scan.add_argument(
        "--max-history-size",
        type=_mebibytes,
        default=256.0,
        metavar="MIB",
        help="the largest a remote's history may be in the cache; larger ones go unverified (default: 256)",
    )
    scan.add_argument(
        "--select",
        type=_selectors,
        action="extend",
        default=None,
        metavar="RULES",
        help="only these rules: codes (RL002), prefixes (RL00) or names (branch-pin), comma-separated; "
        "replaces the config's select (repeatable)",
    )
    scan.add_argument(
        "--extend-select",
        type=_selectors,
        action="extend",
        default=[],
        metavar="RULES",
        help="these rules too, on top of --select or the config's select; comma-separated (repeatable)",
    )
    scan.add_argument(
        "--ignore",
        type=_selectors,
        action="extend",
        default=[],
        metavar="RULES",
        help="skip these rules, on top of the config's ignore; comma-separated (repeatable)",
    )
    scan.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="lowest severity that makes the exit code 1 (default: error)",
    )
    scan.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 whatever was found or could not be read (2 still for usage and internal errors)",
    )
    scan.add_argument(
        "--rule-pack",
        action="append",
        default=[],
        metavar="FILE",
        help="an extra rule pack (YAML), on top of the shipped ones and the config (repeatable)",
    )
    scan.add_argument(
        "--report-unused-ignores",
        action="store_true",
        help="report `# reflint: ignore` comments that suppress nothing (RL099)",
    )
    scan.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes (and the unsafe ones with --unsafe-fixes), then report what remains",
    )
    scan.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="count fixes that change what is built as applicable too (also the config's unsafe-fixes)",
    )
    scan.add_argument(
        "--fixable",
        type=_selectors,
        action="extend",
        default=None,
        metavar="RULES",
        help="only these rules' fixes are offered and applied; replaces the config's fixable (repeatable)",
    )
    scan.add_argument(
        "--unfixable",
        type=_selectors,
        action="extend",
        default=[],
        metavar="RULES",
        help="never fix these rules, on top of the config's unfixable; comma-separated (repeatable)",
    )
    scan.add_argument(
        "--diff",
        action="store_true",
        help="print what --fix would change as a unified diff (git apply takes it) and write nothing; "
        "exit 1 when there is something to fix",
    )
    scan.add_argument(
        "--pin-commits",
        action="store_true",
        help="with --fix or --diff: replace each tag by its commit id, the tag kept in a comment (also the "
        "config's pin-commits)",
    )
    baseline = scan.add_mutually_exclusive_group()
    baseline.add_argument("--baseline", metavar="FILE", help="do not report the findings that FILE records")
    baseline.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="record every finding in FILE (then report none), for --baseline later",
    )
    scan.add_argument("--profile", action="store_true", help="print the time each stage took to stderr")
    scan.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings a scan of PATH would use (rules and severities, the config and rule packs "
        "merged, the remotes each list holds, the project's own remotes) and exit, scanning nothing",
    )
    scan.set_defaults(handler=_run_scan, command_parser=scan)

    cache = commands.add_parser("cache", help="show or empty reflint's caches")
    cache.set_defaults(command_parser=cache)
    cache_commands = cache.add_subparsers(
        dest="cache_command", metavar="ACTION", required=True, prog="reflint cache"
    )
    for name, help_text, handler in (
        ("dir", "print the cache directory", _run_cache_dir),
        ("clean", "remove every cache: extraction entries, ref lists, failed lookups, histories", _run_clean),
    ):
        action = cache_commands.add_parser(name, help=help_text)
        action.add_argument(
            "--cache-dir", metavar="DIR", help="the cache directory (default: user cache dir)"
        )
        action.set_defaults(handler=handler, command_parser=action)

    rules = commands.add_parser(
        "rules", help="list every rule with its code, name, severity and documentation"
    )
    rules.add_argument(
        "rules",
        nargs="*",
        metavar="RULE",
        help="only these rules, as --select takes them: codes (RL002), prefixes (RL00) or names (branch-pin)",
    )
    rules.add_argument(
        "--list",
        action="store_true",
        help="one line per rule (code, name, severity, lookup, fix, what it reports) instead of the docs",
    )
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.set_defaults(handler=_run_rules, command_parser=rules)
    return parser


def _add_input_options(command: argparse.ArgumentParser) -> None:
    import argparse

    command.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to read (default: .)")
    command.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out paths matching GLOB (gitignore syntax, relative to the current directory), on top "
        "of the config's exclude (repeatable)",
    )
    command.add_argument(
        "--config",
        metavar="FILE",
        help="the config file: a .reflint.yaml, or a pyproject.toml with [tool.reflint] (default: "
        "the one at the project root); its globs stay relative to the project root",
    )
    command.add_argument(
        "--build-arg",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        type=_build_arg,
        help="a Dockerfile ARG value, as docker build --build-arg takes it (repeatable)",
    )
    command.add_argument(
        "--no-cache",
        action="store_true",
        help="read and extract every file afresh, without the extraction cache (ref lists: see --refresh)",
    )
    command.add_argument(
        "--max-file-size",
        type=_positive_int,
        default=None,
        metavar="BYTES",
        help="skip files larger than this (default: 10 MiB)",
    )
    command.add_argument(
        "--no-docs",
        action="store_true",
        help="do not read documentation (Markdown, reStructuredText, notebooks): the config's docs = false",
    )
    command.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks and debug logs"
    )


def _add_colour_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--color",
        "--colour",
        dest="colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the output: auto (default) colours a terminal unless NO_COLOR is set, or anything when "
        "FORCE_COLOR is set",
    )


def _positive_number(text: str, unit: str) -> float:
    """A finite number above 0, for every option that takes a fraction (``--timeout``, ``--cache-ttl``,
    ``--max-history-size``): ``nan``, ``inf`` and ``1e309`` (which ``float`` reads as infinity) are usage
    errors, not a crash later or a limit that is silently off."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of {unit}: {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a finite number of {unit} above 0: {text!r}")
    return value


def _hosts(text: str) -> list[str]:
    import argparse

    from ascend_reflint.lookup.credentials import parse_credential_hosts

    try:
        return parse_credential_hosts(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _credential_hosts(option_hosts: Sequence[str]) -> frozenset[str]:
    """The hosts of ``--credentials-for`` and of the environment variable, together."""
    if not option_hosts and not os.environ.get("REFLINT_CREDENTIALS_FOR", "").strip():
        return frozenset()  # the usual case, without loading the lookup stage
    from ascend_reflint.lookup.credentials import CREDENTIALS_ENV, parse_credential_hosts

    try:
        from_env = parse_credential_hosts(os.environ.get(CREDENTIALS_ENV, ""))
    except ValueError as error:
        raise UsageError(f"{CREDENTIALS_ENV}: {error}") from None
    return frozenset((*option_hosts, *from_env))


def _seconds(text: str) -> float:
    return _positive_number(text, "seconds")


def _mebibytes(text: str) -> float:
    """A size in MiB (fractions allowed: ``0.5`` is 512 KiB)."""
    return _positive_number(text, "MiB")


def _bytes(mebibytes: float) -> int:
    """A size of :func:`_mebibytes`, in bytes (at least 1)."""
    return max(1, round(mebibytes * 1024 * 1024))


def _positive_int(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def _build_arg(text: str) -> tuple[str, str | None]:
    """``NAME=VALUE``, or ``NAME`` alone, which takes the value from the environment as docker build does
    (Docker CLI reference, ``docker build --build-arg``); None when that variable is not set either."""
    import argparse

    name, sep, value = text.partition("=")
    if not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE or NAME, got {text!r}")
    return name, value if sep else os.environ.get(name)


def _build_args(pairs: Sequence[tuple[str, str | None]]) -> dict[str, str]:
    return {name: value for name, value in pairs if value is not None}


def _selectors(text: str) -> list[str]:
    import argparse

    selectors = [selector.strip() for selector in text.split(",") if selector.strip()]
    if not selectors:
        raise argparse.ArgumentTypeError("expected rules such as RL001,RL002, RL00 or branch-pin")
    return selectors


def _check_selectors(option: str, selectors: Sequence[str] | None) -> tuple[str, ...] | None:
    """The codes that ``selectors`` choose (None stays None); an unknown code, prefix or name is a usage
    error: a typo in ``--select`` must not silently turn every rule off."""
    if selectors is None:
        return None
    if not selectors:
        return ()
    from ascend_reflint.check.rules import selected_codes

    try:
        return selected_codes(selectors)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


def _check_paths(paths: Sequence[str]) -> None:
    """A path that does not exist is a usage error, as in ruff and hadolint: a typo must not pass CI."""
    missing = [path for path in paths if not os.path.lexists(path)]
    if missing:
        from ascend_reflint.output import shown

        raise UsageError(f"no such file or directory: {shown(', '.join(missing))}")


def _emit(path: str | None, render: Callable[[Channel], None]) -> None:
    """Write one output: to standard output (``path`` None or ``-``), or to the file ``path`` through
    :func:`ascend_reflint.output.replacing`, which never writes through a symbolic link, as it is rendered.

    Raises:
        UsageError: the file is a directory or a special file, or cannot be written.
    """
    from ascend_reflint.output import Channel, OutputFileError, replacing

    if path is None or path == "-":
        render(sys.stdout if isinstance(sys.stdout, Channel) else Channel(sys.stdout))
        return
    try:
        with replacing(path) as handle:
            text = io.TextIOWrapper(handle, encoding="utf-8", newline="\n")
            channel = Channel(text)
            render(channel)
            channel.close()
            text.detach()
    except OutputFileError as exc:
        raise UsageError(str(exc)) from None


def wants_colour(stream: TextIO, choice: str = "auto", environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour ``stream``, from ``--color`` and the environment.

    Args:
        stream: where the output goes.
        choice: ``--color``: ``always`` and ``never`` decide; ``auto`` colours when ``FORCE_COLOR`` is set
            and not empty (https://force-color.org, which wins over ``NO_COLOR`` as in Node.js), else never
            with ``NO_COLOR`` set and not empty (https://no-color.org), else only on a terminal that is not
            ``TERM=dumb``.
        environ: the environment (default: the process's).
    """
    if choice != "auto":
        return choice == "always"
    environ = os.environ if environ is None else environ
    if environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and not environ.get("NO_COLOR") and environ.get("TERM") != "dumb"


def _load_config(args: argparse.Namespace) -> Config:
    from ascend_reflint.config import ConfigError, load_config

    try:
        return load_config(args.paths, args.config)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _inventory(  # type: ignore[no-untyped-def]
    args: argparse.Namespace,
    config: Config,
    overlay: Mapping[str, bytes] | None = None,
    keep_text: bool = False,
):
    from ascend_reflint.inventory import build_inventory
    from ascend_reflint.textfile import DEFAULT_MAX_BYTES

    return build_inventory(
        args.paths,
        excludes=args.exclude,
        build_args=_build_args(args.build_arg),
        max_bytes=args.max_file_size or DEFAULT_MAX_BYTES,
        root=config.root,
        root_excludes=config.exclude,
        overlay=overlay,
        cache=None if args.no_cache else _extraction_cache(args.cache_dir, config),
        docs=config.docs and not args.no_docs,
        # `refs` and `scan` read texts only where the checks need them; fixes edit texts
        keep_text=keep_text,
        gitlab_host=config.gitlab_host,
    )


def _extraction_cache(cache_dir: str | None, config: Config):  # type: ignore[no-untyped-def]
    from ascend_reflint.extraction_cache import for_project

    return for_project(cache_dir, config)


def _run_refs(args: argparse.Namespace) -> int:
    from ascend_reflint.model import FileMessage
    from ascend_reflint.report.text import write_file_messages

    _check_paths(args.paths)
    inventory = _inventory(args, _load_config(args))
    describes = _cached_describes(inventory, args.cache_dir)

    def render(stream: Channel) -> None:
        if args.format == "json":
            from ascend_reflint.report.json_output import write_refs_json

            write_refs_json(inventory, stream, describes)
        else:
            from ascend_reflint.report.text import write_refs

            write_refs(inventory, stream, rich_output=wants_colour(stream, args.colour), describes=describes)
            cache_notices = [FileMessage("", notice) for notice in inventory.cache_notices]
            write_file_messages(inventory.errors, [*inventory.notices, *cache_notices], sys.stderr)

    _emit(args.output, render)
    return EXIT_CLEAN


def _cached_describes(inventory, cache_dir: str | None) -> dict[Pin, str]:  # type: ignore[no-untyped-def]
    """Each commit pin's nearest tag (``git describe --tags``), from what scans verified and cached for the
    URL it fetches; no git, no network. Pins whose commit is not in the cache, or not in its remote's
    history, are left out."""
    from pathlib import Path

    from ascend_reflint.check.refnames import pinned_commit
    from ascend_reflint.lookup.history import cached_verdicts
    from ascend_reflint.model import CommitState
    from ascend_reflint.remote import lookup_key

    commits = {
        pin: (key, commit)
        for pin in inventory.pins
        if pin.remote and (commit := pinned_commit(pin)) and (key := lookup_key(pin.url))
    }
    pinned: dict[str, tuple[str, set[str]]] = {}
    for pin, (key, commit) in commits.items():
        pinned.setdefault(key, (pin.remote, set()))[1].add(commit)
    verdicts = cached_verdicts(Path(cache_dir) if cache_dir else None, pinned) if pinned else {}
    return {
        pin: verdict.describe
        for pin, key in commits.items()
        if (verdict := verdicts.get(key)) is not None
        and verdict.state is CommitState.IN_HISTORY
        and verdict.describe is not None
    }


def _partial(paths: Sequence[str], root: str) -> bool:
    """True when ``paths`` (none: the working directory) are not the project root itself: files, or a
    folder inside it."""
    real_root = os.path.realpath(root)
    return any(os.path.realpath(path) != real_root for path in paths or ["."])


def _run_scan(args: argparse.Namespace) -> int:
    from ascend_reflint.scan import ScanOptions, run_scan

    _check_paths(args.paths)
    if args.offline and args.refresh:
        raise UsageError("--offline and --refresh contradict each other: --refresh asks every remote again")
    if args.pin_commits and not (args.fix or args.diff):
        raise UsageError("--pin-commits needs --fix or --diff")
    if (args.fix or args.diff) and args.write_baseline:
        raise UsageError("--write-baseline records findings; it cannot be given with --fix or --diff")
    select = _check_selectors("--select", args.select)
    extend_select = _check_selectors("--extend-select", args.extend_select) or ()
    ignore = _check_selectors("--ignore", args.ignore) or ()
    fixable = _check_selectors("--fixable", args.fixable)
    unfixable = _check_selectors("--unfixable", args.unfixable) or ()
    config = _load_config(args)
    options = ScanOptions(
        offline=args.offline,
        refresh=args.refresh,
        cache_dir=args.cache_dir,
        cache_ttl=args.cache_ttl,
        timeout=args.timeout,
        jobs=args.jobs,
        deadline=args.lookup_deadline,
        max_refs=args.max_refs,
        max_ref_bytes=_bytes(args.max_ref_list_size),
        lookup_memory=_bytes(args.lookup_memory),
        credentials_for=_credential_hosts(args.credentials_for),
        select=select,
        extend_select=extend_select,
        ignore=ignore,
        fixable=fixable,
        unfixable=unfixable,
        rule_packs=tuple(args.rule_pack),
        progress=not args.quiet and sys.stderr.isatty() and wants_colour(sys.stderr, args.colour),
        config=config,
        report_unused_ignores=args.report_unused_ignores,
        baseline=args.baseline,
        write_baseline=args.write_baseline,
        partial=_partial(args.paths, config.root),
        excludes=tuple(args.exclude),
        build_args=_build_args(args.build_arg),
        max_bytes=args.max_file_size,
        verify_commits=args.verify_commits,
        max_history_bytes=_bytes(args.max_history_size),
        extraction_cache=not args.no_cache,
        docs=config.docs and not args.no_docs,
    )
    if args.show_settings:
        return _show_settings(args, config, options)
    destinations = _destinations(args.format or ["text"], args.output)
    _check_statistics(args.statistics, [output_format for output_format, _ in destinations])
    if args.sarif_file is not None:
        destinations.append(("sarif", args.sarif_file))
    inventory = _inventory(args, config, keep_text=args.fix or args.diff)
    try:
        run = run_scan(inventory, options)
    except Exception as exc:
        if isinstance(exc, _input_errors()):
            raise UsageError(str(exc)) from None
        raise
    run.result.unsafe_fixes = args.unsafe_fixes or config.unsafe_fixes
    if args.fix or args.diff:
        from ascend_reflint.fix.command import fix_in_rounds, write_diff, write_fixes
        from ascend_reflint.textfile import DEFAULT_MAX_BYTES

        outcome = fix_in_rounds(
            inventory,
            run,
            options,
            lambda overlay: _inventory(args, config, overlay, keep_text=True),
            pin_commits=args.pin_commits or config.pin_commits,
            max_bytes=args.max_file_size or DEFAULT_MAX_BYTES,
        )
        if args.diff:
            # Exit 1 when there is something to fix (or a file could not be read, or nothing was checked).
            changed = write_diff(outcome)
            found_nothing = _say_if_no_recipe_found(run.result, args.paths)
            unfinished = outcome.run.result.errors or run.result.summary.nothing_checked or found_nothing
            return EXIT_FINDINGS if changed or unfinished else EXIT_CLEAN
        run = write_fixes(outcome, run)
    result, timings = run.result, run.timings
    started = time.perf_counter()
    from ascend_reflint.report.text import write_file_messages

    write_file_messages(result.errors, [] if args.quiet else _scan_notices(run), sys.stderr)
    if not args.quiet:
        _write_baseline_note(run, args.baseline, args.write_baseline)
    if run.cache_in_tree is not None:
        from ascend_reflint.output import shown

        sys.stderr.write(
            f"reflint: warning: answers came from the cache directory {shown(run.cache_in_tree)}, which is "
            "inside the scanned tree: a cache committed there can vouch for refs that do not exist; keep it "
            "outside (--cache-dir)\n"
        )
    from ascend_reflint.report.text import TextOptions

    text_options = TextOptions(wants_colour(sys.stdout, args.colour), args.quiet, args.statistics)
    # Files first: a reader that closes standard output early (`| head`) must not cost the SARIF file.
    for output_format, path in sorted(destinations, key=lambda destination: destination[1] in (None, "-")):
        colour = text_options.colour and path in (None, "-")
        render = functools.partial(_write_scan, output_format, result, text_options._replace(colour=colour))
        _emit(path, render)
    timings["report"] = time.perf_counter() - started
    if args.profile:
        sys.stderr.write(
            "".join(f"{stage:>10}: {seconds * 1000:8.1f} ms\n" for stage, seconds in timings.items())
        )
    from ascend_reflint.model import Severity

    if result.summary.nothing_checked:
        unchecked = result.summary.unchecked_pins
        sys.stderr.write(
            f"reflint: no remote could be checked: {unchecked} pin{'s' * (unchecked != 1)} unchecked\n"
        )
    found_nothing = _say_if_no_recipe_found(result, args.paths)
    return scan_exit_code(result, Severity.parse(args.fail_on), args.exit_zero, found_nothing)


def _show_settings(args: argparse.Namespace, config: Config, options: ScanOptions) -> int:
    """``--show-settings``: the settings in effect (:mod:`ascend_reflint.report.settings`) in the text
    form, or in JSON with ``--format json``, to standard output or ``--output``."""
    from pathlib import Path

    from ascend_reflint.own_remotes import own_remotes
    from ascend_reflint.report.settings import settings_document, settings_text
    from ascend_reflint.scan import RuleSelection, build_policy

    formats = set(args.format or ["text"])
    if not formats <= {"text", "json"} or len(formats) > 1 or len(args.output) > 1:
        raise UsageError("--show-settings prints one text or json document (one --format, one --output)")
    try:
        policy = build_policy(config, [Path(path) for path in options.rule_packs])
    except _input_errors() as exc:
        raise UsageError(str(exc)) from None
    scan_settings = {
        "exclude": [*config.exclude, *options.excludes],
        "unsafe-fixes": args.unsafe_fixes or config.unsafe_fixes,
        "pin-commits": args.pin_commits or config.pin_commits,
        "verify-commits": options.verify_commits and config.verify_commits,
        "docs": options.docs,
        "gitlab-host": config.gitlab_host,
    }
    document = settings_document(
        config, policy, RuleSelection.of(options, config), scan_settings, own_remotes(config.root)
    )
    if formats == {"json"}:
        from ascend_reflint.output import json_text

        text = json_text(document)
    else:
        text = settings_text(document)

    def render(stream: Channel) -> None:
        stream.write(text)

    _emit(args.output[0] if args.output else None, render)
    return EXIT_CLEAN


def _say_if_no_recipe_found(result: ScanResult, paths: Sequence[str]) -> bool:
    """True when a scan of folders (``paths`` empty, or every one a folder) read no file: nothing was
    checked, and exit code 0 would say that everything was (README's table). Says so on standard error,
    naming the folders, unless files could not be read (those say why).

    Files named on the command line, as pre-commit names a commit's staged files, are another matter: when
    none of them is a recipe (a ``LICENSE`` that the hook's pattern passes for its missing extension) or the
    excludes leave every one out, the commit touched nothing reflint checks, which must not block it; each
    such file is named on standard error (``skipped: …``) all the same."""
    if result.summary.files or not all(os.path.isdir(path) for path in paths or ["."]):
        return False
    if not result.errors:
        named = "."
        if paths:  # shown() loads the masking of URLs, which the empty repository's scan never needs
            from ascend_reflint.output import shown

            named = ", ".join(shown(path) for path in paths)
        sys.stderr.write(f"reflint: no recipe file found in {named}: nothing was checked\n")
    return True


def scan_exit_code(
    result: ScanResult, fail_on: Severity, exit_zero: bool = False, found_nothing: bool = False
) -> int:
    """The exit code of ``reflint scan`` (:data:`SCAN_EXIT_CODES`).

    Args:
        result: the scan's result.
        fail_on: the lowest severity that fails the run.
        exit_zero: ``--exit-zero``: 0 whatever was found.
        found_nothing: the folders scanned held no recipe file (:func:`_say_if_no_recipe_found`).

    Returns:
        :data:`EXIT_FINDINGS` for a finding at or above ``fail_on``, a recipe file that could not be read
        or parsed (as ruff and hadolint do for files they cannot parse: the files were not checked),
        lookups that were needed and of which not one answered (the network is down, every remote is
        unreachable, ``--offline`` with an empty cache: no pin's ref was checked), or no recipe file in the
        folders scanned (as pytest's "no tests ran": a scan of the wrong folder must not pass CI); else
        :data:`EXIT_CLEAN`.
    """
    if exit_zero:
        return EXIT_CLEAN
    if any(finding.severity >= fail_on for finding in result.findings):
        return EXIT_FINDINGS
    if result.errors or result.summary.nothing_checked or found_nothing:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _input_errors() -> tuple[type[Exception], ...]:
    """The errors of files the user named (rule packs, baselines): usage errors, not bugs. Imported once
    something has gone wrong, so that a scan without ``--baseline`` does not load the baseline module."""
    from ascend_reflint.baseline import BaselineError
    from ascend_reflint.check.policy import PolicyError
    from ascend_reflint.config import ConfigError  # a nested repository's config (ascend_reflint.projects)

    return (PolicyError, BaselineError, ConfigError)


def _write_baseline_note(run: ScanRun, baseline: str | None, written: str | None) -> None:
    """One line on stderr about the baseline: how many findings it hid and how many entries are stale."""
    from ascend_reflint.output import shown

    baseline, written = (shown(path) if path is not None else None for path in (baseline, written))
    if written is not None:
        sys.stderr.write(f"reflint: wrote {run.baseline_written} findings to the baseline {written}\n")
    elif baseline is not None:
        stale = run.baseline_stale
        advice = f" (fixed or changed; refresh it with --write-baseline {baseline})" if stale else ""
        sys.stderr.write(
            f"reflint: baseline {baseline}: {run.baseline_matched} findings not reported; {stale} baseline "
            f"entr{'y' if stale == 1 else 'ies'} no longer match{'es' if stale == 1 else ''}{advice}\n"
        )


def _destinations(formats: Sequence[str], outputs: Sequence[str]) -> list[tuple[str, str | None]]:
    """Pair formats with output files: the last ``len(outputs)`` formats go to the files, in order."""
    if len(outputs) > len(formats):
        raise UsageError(f"{len(outputs)} --output files for {len(formats)} --format values")
    on_stdout = len(formats) - len(outputs)
    documents = [f for f in formats[:on_stdout] if f in ("json", "sarif")]
    if len(documents) > 1:
        raise UsageError(
            f"{' and '.join(documents)} cannot share standard output: give each one an --output FILE"
        )
    return [(f, None) for f in formats[:on_stdout]] + list(zip(formats[on_stdout:], outputs, strict=True))


def _check_statistics(statistics: bool, formats: Sequence[str]) -> None:
    """``--statistics`` has a form in the text and json formats only, as in ruff (whose github and sarif
    formats refuse it too): with another format it is a usage error, never ignored. The ``--sarif-file``
    report, which is apart from the formats, is always the whole log."""
    others = sorted({f for f in formats if f not in STATISTICS_FORMATS}, key=formats.index)
    if statistics and others:
        raise UsageError(
            f"--statistics has no {' or '.join(others)} form: it counts findings in the text and json "
            "formats only"
        )


def _scan_notices(run: ScanRun) -> list[FileMessage]:
    """The notices that ``scan`` writes to standard error: paths given on the command line that it skipped,
    the config's (a ``per-file-ignores`` glob that matches nothing) and the cache's. The other notices
    (lenient decoding, a skipped ``shell: pwsh`` step) are in the JSON output."""
    from ascend_reflint.discover import SKIPPED

    skipped = [notice for notice in run.result.notices if notice.message == SKIPPED]
    return [*skipped, *run.side_notices]


def _write_scan(output_format: str, result: ScanResult, text: TextOptions, stream: Channel) -> None:
    if output_format == "json" and text.statistics:
        from ascend_reflint.output import json_text
        from ascend_reflint.report.json_output import statistics_document

        stream.write(json_text(statistics_document(result)))
    elif output_format == "json":
        from ascend_reflint.report.json_output import write_scan_json

        write_scan_json(result, stream)
    elif output_format == "github":
        from ascend_reflint.report.github import write_github

        write_github(result, stream, os.environ)
    elif output_format == "sarif":
        from ascend_reflint.check import all_rules
        from ascend_reflint.report.sarif import write_sarif

        write_sarif(result, all_rules(), _repository_root(), stream)
    else:
        from ascend_reflint.report.text import write_findings

        write_findings(result, stream, colour=text.colour, quiet=text.quiet, statistics=text.statistics)


def _repository_root() -> str:
    """Where SARIF and annotation paths are relative to: GITHUB_WORKSPACE, else the current directory."""
    from ascend_reflint.report.github import repository_root

    return repository_root(os.environ)


def _cache_directory(args: argparse.Namespace) -> str:
    from ascend_reflint.cachedir import default_cache_dir

    return args.cache_dir or str(default_cache_dir())


def _run_cache_dir(args: argparse.Namespace) -> int:
    from ascend_reflint.output import shown

    sys.stdout.write(f"{shown(_cache_directory(args))}\n")
    return EXIT_CLEAN


def _run_clean(args: argparse.Namespace) -> int:
    """``reflint cache clean``: remove the caches and say what went, e.g. "removed 272 extraction entries,
    41 ref lists, 0 failed lookups and 5 commit histories (1.4 MiB on disk) from DIR" (the disk usage, as
    ``du`` counts it: :attr:`ascend_reflint.cachedir.Cleaned.size`); exit 2, naming each, when something
    could not be removed (the rest is removed all the same)."""
    from pathlib import Path

    from ascend_reflint.cachedir import clean
    from ascend_reflint.output import shown

    directory = _cache_directory(args)
    cleaned = clean(Path(directory))
    parts = [entry.label for entry in cleaned]
    size = sum(entry.size for entry in cleaned) / (1024 * 1024)
    listed = f"{', '.join(parts[:-1])} and {parts[-1]}"
    left = [problem for entry in cleaned for problem in entry.left]
    if left:
        sys.stdout.write(
            f"removed what it could of {listed} ({size:.1f} MiB on disk) from {shown(directory)}\n"
        )
        for problem in left:
            sys.stderr.write(f"reflint: error: cannot remove {shown(problem)}\n")
        return EXIT_ERROR
    sys.stdout.write(f"removed {listed} ({size:.1f} MiB on disk) from {shown(directory)}\n")
    return EXIT_CLEAN


def _run_rules(args: argparse.Namespace) -> int:
    from ascend_reflint.check.rules import selected_codes
    from ascend_reflint.report.rules_doc import write_rules

    selectors = [part.strip() for argument in args.rules for part in argument.split(",") if part.strip()]
    try:
        codes = selected_codes(selectors) if selectors else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    write_rules(sys.stdout, codes, args.format, listing=args.list)
    return EXIT_CLEAN
