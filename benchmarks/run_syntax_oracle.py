"""RL021's oracle: reflint's verdict on every Dockerfile ``RUN`` against ``bash -n`` and ``dash -n``.

For every Dockerfile that git tracks in each ROOT (the kinds reflint gives the name, templates left out),
each shell text of each ``RUN`` as reflint reads it (continuation lines joined, a heredoc's body, the script
of an exec-form ``["bash", "-c", …]``) is compared with what the shells say of it:

- **verdicts**: reflint's :func:`~ascend_reflint.extract.shell.syntax_problem` (what RL021 reports) against
  ``bash -n``. A text that bash accepts and reflint refuses is a false positive; one that bash refuses and
  reflint accepts, a miss. Where the RUN runs in ``/bin/sh``, ``dash -n`` is asked too: a text that dash
  refuses and bash accepts holds bash-only syntax (RL022's, never RL021's).
- **mutants**: each text that bash accepts is broken five ways (its last ``fi`` dropped, a ``"`` opened
  before its last command's first word, a ``)`` added after its first command, ``;;`` for the separator
  after it, ``then`` before the last command) and each mutant that bash refuses must be refused by reflint
  at the place of the break (the ``if`` left open, the quote, the ``)``, ``;;``, ``then``) or at the token
  that bash names; a mutant that bash accepts must be accepted.

Run with the Python of the reflint to check, for instance over the real repositories::

    python benchmarks/run_syntax_oracle.py /work/repos/*

Prints the counts, then each disagreement (file, line, what each side says). Exit code 1 when reflint
refuses a text that bash accepts, or misplaces a mutant.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from ascend_reflint import discover
from ascend_reflint.extract import shell
from ascend_reflint.extract.dockerfile import runs, stages
from ascend_reflint.extract.dockerfile.lines import Instruction
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.shell import SyntaxProblem
from ascend_reflint.model import FileKind, SourceFile

#: A ``fi`` that closes an ``if`` (a command's first word) and the first command's end.
_CLOSING_FI = re.compile(r"(?<=[;\n&])([ \t]*)fi\b")
_FIRST_COMMAND_END = re.compile(r"&&|;|\n")


@dataclass
class RunText:
    """One shell text of a RUN: where it is, whether ``/bin/sh`` runs it, and reflint's verdict."""

    path: str
    line: int
    text: str
    system_shell: bool
    problem: SyntaxProblem | None


@dataclass
class Tally:
    """The counts that the oracle prints."""

    texts: int = 0
    agree: int = 0
    false_positives: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    dash_only_refusals: list[str] = field(default_factory=list)
    dash_checked: int = 0
    mutants: Counter[str] = field(default_factory=Counter)
    mutants_valid: int = 0
    mutants_found: Counter[str] = field(default_factory=Counter)
    mutants_misplaced: list[str] = field(default_factory=list)


def run_texts(root: Path) -> Iterator[RunText]:
    """Every RUN shell text of the Dockerfiles that git tracks under ``root``, as reflint reads them.

    The extractor runs as in a scan; :func:`~ascend_reflint.extract.shell.syntax_problem`, the check that
    calls it and ``RunTexts.runs_in_system_shell`` are wrapped to record each text with its RUN's line, its
    shell and the verdict.
    """
    found: list[RunText] = []
    system_shell: dict[int, bool] = {}  # RUN line → whether /bin/sh runs it
    line = [0]
    current: list[SourceFile] = []
    real_problem = shell.syntax_problem
    real_system_shell = runs.RunTexts.runs_in_system_shell
    real_check = stages._Extractor._check_syntax

    def recording_problem(text: str) -> SyntaxProblem | None:
        problem = real_problem(text)
        found.append(RunText(current[0].path, line[0], text, system_shell.get(line[0], False), problem))
        return problem

    def recording_check(extractor: stages._Extractor, instruction: Instruction, *args: Any) -> None:
        line[0] = instruction.line
        real_check(extractor, instruction, *args)

    def recording_system_shell(
        instruction: Instruction, stage_shell: tuple[str, int] | None, start: int
    ) -> bool:
        answer = system_shell[instruction.line] = real_system_shell(instruction, stage_shell, start)
        return answer

    with (
        mock.patch.object(shell, "syntax_problem", recording_problem),
        mock.patch.object(stages._Extractor, "_check_syntax", recording_check),
        mock.patch.object(runs.RunTexts, "runs_in_system_shell", staticmethod(recording_system_shell)),
    ):
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True)
        for name in sorted(listed.stdout.decode().split("\0")):
            if not name or discover.classify(name) is not FileKind.DOCKERFILE or discover.is_template(name):
                continue
            path = root / name
            if not path.is_file():
                continue
            source = SourceFile(f"{root.name}/{name}", str(path), FileKind.DOCKERFILE)
            source.text = path.read_text(encoding="utf-8", errors="replace")
            current[:] = [source]
            with contextlib.suppress(ExtractError):
                stages.extract_dockerfile(source, {})
    yield from found


def shell_accepts(program: str, text: str, folder: str) -> tuple[bool, str]:
    """Whether ``program -n`` parses ``text`` (read from a file, as a script), and what it says."""
    script = os.path.join(folder, "run.sh")
    with open(script, "w", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(text)
    done = subprocess.run([program, "-n", script], capture_output=True, text=True, errors="replace")
    return done.returncode == 0, done.stderr.replace(script, "RUN").strip().split("\n")[0]


def mutants(text: str, folder: str) -> Iterator[tuple[str, str, Callable[[SyntaxProblem, str], bool]]]:
    """``(how, mutant, placed)``: ``text`` broken in one way, and the test that a problem is at the break."""
    fis = list(_CLOSING_FI.finditer(text))
    if fis:
        last = fis[-1]
        mutant = text[: last.start()] + last.group(1) + "  " + text[last.end() :]

        def at_open_if(problem: SyntaxProblem, mutant: str) -> bool:
            return mutant[problem.start : problem.end] == "if" and "'fi' is missing" in problem.what

        yield "fi dropped", mutant, at_open_if
    commands = [match.end() for match in _FIRST_COMMAND_END.finditer(text)]
    last_start = commands[-1] if commands else 0
    while last_start < len(text) and text[last_start] in " \t\\\n":
        last_start += 1
    if last_start < len(text):
        mutant = text[:last_start] + '"' + text[last_start:]

        def at_quote(problem: SyntaxProblem, mutant: str, where: int = last_start) -> bool:
            if problem.start == where:
                return True
            # The added quote closes a later one, and the last quote is the one left open: bash accepts the
            # mutant without the quote reported.
            if mutant[problem.start : problem.end] != '"':
                return False
            return shell_accepts("bash", mutant[: problem.start] + mutant[problem.end :], folder)[0]

        yield "quote opened", mutant, at_quote
    first_end = commands[0] - 2 if commands and text[commands[0] - 2 : commands[0]] == "&&" else None
    if first_end is None and commands:
        first_end = commands[0] - 1
    if first_end is not None:
        mutant = text[:first_end] + " )" + text[first_end:]

        def at_paren(problem: SyntaxProblem, mutant: str, where: int = first_end + 1) -> bool:
            return problem.start == where and problem.what == "syntax error near ')'"

        yield "stray )", mutant, at_paren
    if commands:
        separator = commands[0] - 2 if text[commands[0] - 2 : commands[0]] == "&&" else commands[0] - 1
        mutant = text[:separator] + ";;" + text[commands[0] :]

        def at_case_end(problem: SyntaxProblem, mutant: str, where: int = separator) -> bool:
            return problem.start == where and problem.what == "syntax error near ';;'"

        yield "';;' for a separator", mutant, at_case_end
    if last_start < len(text):
        mutant = text[:last_start] + "then " + text[last_start:]

        def at_then(problem: SyntaxProblem, mutant: str, where: int = last_start) -> bool:
            return problem.start == where and problem.what == "syntax error near 'then'"

        yield "stray then", mutant, at_then


def check(roots: list[Path], verbose: bool) -> Tally:
    """Run the oracle over ``roots``; returns the counts and the disagreements."""
    tally = Tally()
    with tempfile.TemporaryDirectory() as folder:
        for root in roots:
            for item in run_texts(root):
                _check_text(item, tally, folder, verbose)
    return tally


def _check_text(item: RunText, tally: Tally, folder: str, verbose: bool) -> None:
    tally.texts += 1
    where = f"{item.path}:{item.line}"
    bash_ok, bash_says = shell_accepts("bash", item.text, folder)
    if item.system_shell:
        tally.dash_checked += 1
        dash_ok, dash_says = shell_accepts("dash", item.text, folder)
        if bash_ok and not dash_ok:
            tally.dash_only_refusals.append(f"{where}: dash: {dash_says}")
    reflint_ok = item.problem is None
    if bash_ok == reflint_ok:
        tally.agree += 1
    elif bash_ok:
        tally.false_positives.append(f"{where}: reflint: {item.problem}")
    else:
        tally.misses.append(f"{where}: bash: {bash_says}")
    if not bash_ok:
        return
    for how, mutant, placed in mutants(item.text, folder):
        tally.mutants[how] += 1
        mutant_ok, bash_says = shell_accepts("bash", mutant, folder)
        problem = shell.syntax_problem(mutant)
        if mutant_ok:
            tally.mutants_valid += 1
            if problem is not None:
                tally.false_positives.append(f"{where}: {how} (bash accepts it): reflint: {problem}")
            continue
        if problem is not None and (placed(problem, mutant) or _as_bash_says(problem, mutant, bash_says)):
            tally.mutants_found[how] += 1
        else:
            tally.mutants_misplaced.append(f"{where}: {how}: reflint {problem}; bash: {bash_says}")
            if verbose:
                print(f"--- {where} {how}\n{mutant}\n", file=sys.stderr)


def _as_bash_says(problem: SyntaxProblem, mutant: str, bash_says: str) -> bool:
    """Whether ``problem`` names the token and line that bash names ("line 3: syntax error near unexpected
    token `&&'"): the break may make an earlier token the one the shell stops at."""
    said = re.search(r"line (\d+): syntax error near unexpected token `(.*)'", bash_says)
    if said is None:
        return False
    line = mutant.count("\n", 0, problem.start) + 1
    return mutant[problem.start : problem.end] == said.group(2) and line == int(said.group(1))


def main() -> int:
    """Print the counts and the disagreements; 1 when reflint refuses what bash accepts or misplaces."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("roots", nargs="+", type=Path, help="git work trees to read")
    parser.add_argument("--verbose", action="store_true", help="print each misplaced mutant")
    arguments = parser.parse_args()
    tally = check(arguments.roots, arguments.verbose)
    print(f"RUN texts checked: {tally.texts}")
    print(f"  reflint agrees with bash -n: {tally.agree}")
    print(f"  refused by reflint, accepted by bash (false positives): {len(tally.false_positives)}")
    print(f"  refused by bash, accepted by reflint (misses): {len(tally.misses)}")
    dash_only = len(tally.dash_only_refusals)
    print(f"  run by /bin/sh: {tally.dash_checked}; dash -n refuses, bash accepts (RL022's): {dash_only}")
    print(f"mutants: {sum(tally.mutants.values())}; still valid shell: {tally.mutants_valid}")
    for how, count in sorted(tally.mutants.items()):
        print(f"  {how}: {count}, refused at the break: {tally.mutants_found[how]}")
    print(f"  missed or misplaced: {len(tally.mutants_misplaced)}")
    for line in [*tally.false_positives, *tally.misses, *tally.mutants_misplaced, *tally.dash_only_refusals]:
        print(line)
    return 1 if tally.false_positives or tally.mutants_misplaced else 0


if __name__ == "__main__":
    sys.exit(main())
