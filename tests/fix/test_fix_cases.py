"""``reflint scan --fix`` on each case of ``data/cases``: the files after the fix, byte for byte; a rescan
that reports neither the fixed findings nor anything new; a second ``--fix`` that changes nothing; and
``--diff``, whose output ``git apply`` takes to the same files."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes, set_env
from support import CASES as CASES_DIR
from support import copy_case, files_of, found, scan, scan_json

from ascend_reflint.cli import main


@dataclass(frozen=True)
class Case:
    """A case: the options of the fixing run (besides ``--fix``), and the findings (code, path, line)
    before and after it."""

    args: tuple[str, ...]
    before: tuple[tuple[str, str, int], ...]
    after: tuple[tuple[str, str, int], ...]

    @property
    def scan_args(self) -> tuple[str, ...]:
        """The options of a plain scan (``--pin-commits`` goes with ``--fix`` or ``--diff`` only)."""
        return tuple(arg for arg in self.args if arg != "--pin-commits")


CASES = {
    "rl003-shallow": Case(
        (),
        before=(
            ("RL003", "Dockerfile", 3),
            ("RL003", "build.sh", 6),
        ),
        after=(),
    ),
    "encodings": Case(
        (),
        before=(
            ("RL003", "Dockerfile.bom", 5),
            ("RL003", "Dockerfile.crlf", 5),
            ("RL003", "Dockerfile.latin1", 5),
        ),
        after=(),
    ),
    "rl007-commit-branch": Case(
        ("--unsafe-fixes",),
        before=(("RL007", "Dockerfile", 2), ("RL007", "install_te.sh", 2)),
        after=(),
    ),
    "rl023-lying-comment": Case(
        (),
        before=(("RL023", ".github/workflows/ci.yml", 7), ("RL023", ".pre-commit-config.yaml", 3)),
        after=(),
    ),
    "rl024-newer-release": Case(
        ("--unsafe-fixes",),
        before=(("RL024", "Dockerfile", 2), ("RL024", "Dockerfile", 4)),
        after=(),
    ),
    "rl001-suggestion": Case(
        ("--unsafe-fixes",),
        before=(("RL001", "install.sh", 2), ("RL001", "install.sh", 3), ("RL001", "install.sh", 4)),
        # Nothing is close enough to core_v0.16.0 to be the one answer.
        after=(("RL001", "install.sh", 4),),
    ),
    "rl002-safe": Case(
        (),
        before=(("RL002", "Dockerfile", 2), ("RL002", "build.sh", 3)),
        # core_r0.13.0 has moved on since core_v0.13.0: an unsafe fix, not applied without --unsafe-fixes.
        after=(("RL002", "build.sh", 3),),
    ),
    "rl002-default": Case(
        (),
        # ${TE_REF:-v}, ${TE_REF-v}, ${TE_DEFAULT:=v} (assigned by `:`), and ENV's ${TE_REF:-v}: each default.
        before=(
            ("RL002", "Dockerfile", 3),
            ("RL002", "b.sh", 4),
            ("RL002", "b.sh", 6),
            ("RL002", "install.sh", 5),
            ("RL002", "install.sh", 6),
        ),
        after=(),
    ),
    "rl002-unsafe": Case(
        ("--unsafe-fixes",), before=(("RL002", "Dockerfile", 2), ("RL002", "build.sh", 3)), after=()
    ),
    "rl004-majority": Case(
        ("--unsafe-fixes",),
        before=(
            ("RL004", "docker/Dockerfile.310p", 2),
            ("RL004", "tie/Dockerfile.a2", 2),
            ("RL004", "tie/Dockerfile.a3", 2),
        ),
        # A tie has no majority to follow.
        after=(("RL004", "tie/Dockerfile.a2", 2), ("RL004", "tie/Dockerfile.a3", 2)),
    ),
    "quoted-in-part": Case(
        ("--unsafe-fixes",),
        before=(
            ("RL002", "docker/Dockerfile", 2),
            ("RL001", "docker/Dockerfile", 4),
            ("RL001", "install.sh", 2),
            ("RL001", "install.sh", 3),
            ("RL001", "install.sh", 4),
            ("RL001", "install.sh", 5),
            ("RL001", "install.sh", 6),
            ("RL001", "install.sh", 6),
            ("RL002", "install.sh", 9),
            ("RL002", "install.sh", 10),
        ),
        # A ref quoted in part (ma"ser", "--branch=ma"ser, "release_"v2.10) is reported, its span holding
        # both quotes of each pair, but not rewritten: only a ref written as it is, or quoted whole, is.
        after=(
            ("RL002", "docker/Dockerfile", 2),
            ("RL001", "install.sh", 4),
            ("RL001", "install.sh", 5),
            ("RL001", "install.sh", 6),
            ("RL002", "install.sh", 10),
        ),
    ),
    "pin-commits": Case(("--pin-commits",), before=(), after=()),
    "pin-commits-unsafe": Case(("--unsafe-fixes", "--pin-commits"), before=(), after=()),
}


@pytest.fixture
def project(remotes: FakeRemotes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    set_env(monkeypatch, remotes.env())
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("name", sorted(CASES))
def test_fix_leaves_the_files_byte_for_byte_as_after_and_a_rescan_finds_nothing_new(
    name: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    copy_case(name, "before", project)
    assert found(scan_json(capsys, *case.scan_args)) == list(case.before)

    code, _, err = scan(capsys, "--fix", *case.args)

    expected = files_of(copy_case(name, "after", project.parent / "expected"))
    assert files_of(project) == expected, err
    assert found(scan_json(capsys, *case.scan_args)) == list(case.after)
    assert code == (1 if case.after else 0)
    # A second --fix changes nothing.
    scan(capsys, "--fix", *case.args)
    assert files_of(project) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixed_scripts_are_valid_shell(name: str) -> None:
    """bash is the oracle: every script a fix leaves (``after/*.sh``) parses (``bash -n``)."""
    bash = shutil.which("bash")
    assert bash is not None
    for script in sorted((CASES_DIR / name / "after").rglob("*.sh")):
        checked = subprocess.run([bash, "-n", str(script)], capture_output=True, text=True)
        assert (checked.returncode, checked.stderr) == (0, ""), script


@pytest.mark.parametrize("name", sorted(CASES))
def test_diff_writes_nothing_and_git_apply_takes_it_to_the_fixed_files(
    name: str, project: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    case = CASES[name]
    copy_case(name, "before", project)
    before = files_of(project)

    code = main(["scan", "--cache-dir", "../cache", "--diff", *case.args])
    diff = capsysbinary.readouterr().out

    assert code == 1
    assert files_of(project) == before
    subprocess.run(["git", "init", "--quiet"], cwd=project, check=True)
    applied = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", "-"], cwd=project, input=diff, capture_output=True
    )
    assert (applied.returncode, applied.stderr) == (0, b"")
    fixed = {path: data for path, data in files_of(project).items() if not path.startswith(".git/")}
    assert fixed == files_of(copy_case(name, "after", project.parent / "expected"))
