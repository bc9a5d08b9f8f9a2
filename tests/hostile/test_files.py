"""Files that misbehave: each gives one clear entry in ``errors`` naming it, in bounded time and memory,
and every other file is still read and checked. No traceback reaches the user; ``--debug`` shows it.

The runs are bounded by resource limits (address space and CPU time, see :func:`support.bounded`), not by
timing assertions: a run that needed more would be killed and fail the test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes

from ascend_reflint.inventory import build_inventory

from .support import (
    bounded,
    clean_env,
    drop_file_permission_override,
    json_output,
    record,
    run_reflint,
    write_tree,
)

URL = "https://github.com/NVIDIA/Megatron-LM.git"
CLONE = f"git clone --branch core_r0.18.0 {URL}"
#: A file's bytes on disk may hold this much for the limit test: far over the 10 MiB default.
HUGE = 50 * 1024 * 1024
MARKER_NAME = "python-tag-ran"


def _alias_bomb() -> str:
    """2,000 jobs that each alias 2,000 steps: four million steps if walked naively."""
    steps = ", ".join(["*s"] * 2000)
    jobs = "".join(f"  j{n}: *j\n" for n in range(1, 2000))
    return (
        "s: &s {uses: NVIDIA/Megatron-LM@core_r0.18.0, env: {A: b}}\n"
        f"t: &t [{steps}]\njobs:\n  j0: &j {{steps: *t}}\n{jobs}"
    )


def _ref_position(text: str) -> tuple[int, int]:
    """The 1-based line and column of the one ``core_r0.18.0`` in ``text``."""
    before = text[: text.index("core_r0.18.0")]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def _hostile_tree(root: Path) -> None:
    marker = root / MARKER_NAME
    write_tree(
        root,
        {
            "Dockerfile": f"FROM ubuntu:22.04\nRUN {CLONE}\n",
            "Dockerfile.binary": b"FROM ubuntu:22.04\nRUN \0\0\0 " + CLONE.encode() + b"\n",
            "longline.sh": "echo " + "a" * (1024 * 1024) + f" && {CLONE}\n",
            "nested_subst.sh": "x=$(" + "echo $(" * 999 + CLONE + ")" * 1000 + "\n",
            "nested_if.sh": "if true; then\n" * 1000 + CLONE + "\n" + "fi\n" * 1000,
            ".github/workflows/bomb.yml": _alias_bomb(),
            ".github/workflows/tags.yml": (
                f'env:\n  X: !!python/object/apply:os.system ["touch {marker}"]\n'
                "jobs:\n  a:\n    steps:\n"
                f"      - uses: !!python/object/apply:os.system ['touch {marker}']\n"
                "      - uses: !!python/name:os.system NVIDIA/Megatron-LM@core_r0.18.0\n"
            ),
        },
    )
    with open(root / "Dockerfile.huge", "wb") as huge:
        huge.truncate(HUGE)  # sparse: costs no disk
    os.symlink("loop-b.sh", root / "loop-a.sh")
    os.symlink("loop-a.sh", root / "loop-b.sh")
    os.symlink("no-such-file", root / "Dockerfile.gone")
    os.symlink("/dev/zero", root / "Dockerfile.device")
    os.mkfifo(root / "Dockerfile.fifo")
    os.mkfifo(root / "build")  # no extension: discovery would read its first line to sniff a shebang
    (root / os.fsdecode(b"Dockerfile.\xff")).write_text(f"FROM x\nRUN {CLONE}\n")


def test_hostile_files_each_give_one_error_and_the_rest_is_checked(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    _hostile_tree(tmp_path)
    scan = ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")]

    completed = run_reflint(scan, tmp_path, remotes.env(), preexec_fn=bounded)
    document = json_output(completed)

    limit = f"file is {HUGE:,} bytes, over the limit of 10,485,760 (raise it with --max-file-size)"
    assert document["errors"] == [
        {
            "path": ".github/workflows/bomb.yml",
            "line": 1,
            "message": "stopped reading: YAML aliases repeat more content than the file holds "
            "(an alias bomb?); the file is not checked",
        },
        {"path": "Dockerfile.binary", "message": "binary file (holds NUL bytes)"},
        {"path": "Dockerfile.device", "message": "not a regular file (a character device)"},
        {"path": "Dockerfile.fifo", "message": "not a regular file (a FIFO)"},
        {"path": "Dockerfile.gone", "message": "file not found (deleted or a broken symlink)"},
        {"path": "Dockerfile.huge", "message": limit},
        {"path": "loop-a.sh", "message": "symlink loop"},
        {"path": "loop-b.sh", "message": "symlink loop"},
    ]
    # Exit 1 (findings, and files that could not be read); each error on stderr too, for the CI log.
    assert (completed.returncode, completed.stderr) == (
        1,
        "".join(
            ":".join([error["path"], *(str(error[key]) for key in ("line", "column") if key in error)])
            + f": error: {error['message']}\n"
            for error in document["errors"]
        ),
    )
    # Not the alias bomb: a file that could not be read whole is not checked (its error says so).
    checked = [".github/workflows/tags.yml", "Dockerfile", "Dockerfile.\\xff"]
    checked += ["longline.sh", "nested_if.sh", "nested_subst.sh"]
    on_disk = {name: name.replace("\\xff", "\udcff") for name in checked}
    assert [(f["path"], f["line"], f["column"]) for f in document["findings"] if f["code"] == "RL002"] == [
        (name, *_ref_position((tmp_path / on_disk[name]).read_text(errors="surrogateescape")))
        for name in checked
    ]
    assert not (tmp_path / MARKER_NAME).exists()
    # 14 files listed (the extension-less FIFO is no script), of which the 8 above could not be read.
    assert document["summary"]["files"] == 6


def test_a_file_size_limit_bounds_what_is_read_and_the_flag_raises_it(tmp_path: Path) -> None:
    _hostile_tree(tmp_path)

    runs = [
        run_reflint(
            ["refs", "--format", "json", "--max-file-size", str(HUGE + 1), "Dockerfile.huge", "Dockerfile"],
            tmp_path,
            preexec_fn=bounded,
        ),
        run_reflint(["refs", "--format", "json", "--max-file-size", "10", "Dockerfile"], tmp_path),
    ]

    assert [(run.returncode, run.stderr) for run in runs] == [(0, ""), (0, "")]
    raised, lowered = (json_output(run) for run in runs)

    # Read this time (50 MiB of zeros: a binary file), within the same memory bound.
    assert raised["errors"] == [{"path": "Dockerfile.huge", "message": "binary file (holds NUL bytes)"}]
    assert [pin["path"] for pin in raised["pins"]] == ["Dockerfile"]
    size = (tmp_path / "Dockerfile").stat().st_size
    assert lowered["errors"] == [
        {
            "path": "Dockerfile",
            "message": f"file is {size} bytes, over the limit of 10 (raise it with --max-file-size)",
        }
    ]


def test_fifos_given_by_name_are_refused_without_waiting(tmp_path: Path) -> None:
    _hostile_tree(tmp_path)

    completed = run_reflint(["refs", "--format", "json", "build", "Dockerfile.fifo"], tmp_path)

    assert (completed.returncode, completed.stderr) == (0, "")
    document = json_output(completed)

    assert document["errors"] == [
        {"path": "Dockerfile.fifo", "message": "not a regular file (a FIFO)"},
        {"path": "build", "message": "not a regular file (a FIFO)"},
    ]


@pytest.mark.skipif(os.geteuid() != 0, reason="drops root's file-permission override")
def test_unreadable_file_and_folder_are_errors_even_for_root(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "Dockerfile": f"FROM x\nRUN {CLONE}\n",
            "Dockerfile.secret": "FROM x\n",
            "locked/Dockerfile": "FROM x\n",
        },
    )
    (tmp_path / "Dockerfile.secret").chmod(0)
    (tmp_path / "locked").chmod(0)
    try:
        # As root, open() ignores the mode; without CAP_DAC_OVERRIDE/READ_SEARCH it is refused as for anyone.
        completed = run_reflint(
            ["refs", "--format", "json"], tmp_path, preexec_fn=drop_file_permission_override
        )
        document = json_output(completed)
    finally:
        (tmp_path / "locked").chmod(0o755)

    assert (completed.returncode, completed.stderr) == (0, "")
    assert document["errors"] == [
        {"path": "locked", "message": "cannot list this folder: permission denied"},
        {"path": "Dockerfile.secret", "message": "permission denied"},
    ]
    assert [pin["path"] for pin in document["pins"]] == ["Dockerfile"]


def test_a_file_deleted_after_discovery_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(
        tmp_path, {"Dockerfile": f"FROM x\nRUN {CLONE}\n", "Dockerfile.gone": f"FROM x\nRUN {CLONE}\n"}
    )
    from ascend_reflint import inventory

    real_discover = inventory.discover

    def discover_then_delete(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = real_discover(*args, **kwargs)
        (tmp_path / "Dockerfile.gone").unlink()
        return found

    monkeypatch.setattr(inventory, "discover", discover_then_delete)
    monkeypatch.chdir(tmp_path)

    result = build_inventory(["."])

    assert [(e.path, e.message) for e in result.errors] == [
        ("Dockerfile.gone", "file not found (deleted or a broken symlink)")
    ]
    assert [pin.path for pin in result.pins] == ["Dockerfile"]


_BROKEN_EXTRACTOR = """
import sys
import ascend_reflint.extract.shell as shell

def broken(source):
    raise ZeroDivisionError("a bug in an extractor")

shell.extract_shell_file = broken
from ascend_reflint.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_an_internal_error_is_one_error_entry_and_debug_shows_the_traceback(tmp_path: Path) -> None:
    write_tree(tmp_path, {"Dockerfile": f"FROM x\nRUN {CLONE}\n", "build.sh": f"{CLONE}\n"})
    command = [sys.executable, "-c", _BROKEN_EXTRACTOR]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return record(
            subprocess.run(
                [*command, *args], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=120
            )
        )

    quiet = run("refs")
    debug = run("--debug", "refs")

    assert quiet.returncode == 0 and debug.returncode == 0
    message = "internal error while extracting (ZeroDivisionError: a bug in an extractor); run with --debug"
    assert quiet.stderr == f"build.sh: error: {message}\n"
    assert quiet.stdout == "Dockerfile:2:24: github.com/nvidia/megatron-lm core_r0.18.0 (clone-branch)\n"
    assert debug.stdout == quiet.stdout
    # The log line, the traceback (its frames are the code's, whatever their lines), the same error entry.
    # Then the extract stage's line: the Dockerfile comes from the extraction cache, build.sh is not kept.
    lines = debug.stderr.splitlines()
    assert lines[:2] + lines[-3:-2] + lines[-1:] == [
        "reflint: extracting build.sh failed",
        "Traceback (most recent call last):",
        "ZeroDivisionError: a bug in an extractor",
        f"build.sh: error: {message}",
    ]
    assert re.fullmatch(
        r"reflint: extract: 2 files read: 1 from the extraction cache \(.+\), 1 extracted", lines[-2]
    )
    frames = lines[2:-3]
    shape = ["file" if re.fullmatch(r'  File "[^"]+", line \d+, in \w+', line) else line for line in frames]
    shape = ["code" if re.fullmatch(r"    \S.*", line) else line for line in shape]
    # Each frame of reflint's code with its line of source, then the broken extractor's (no source).
    assert shape == ["file", "code"] * (len(frames) // 2) + ["file"]
    assert frames[-1] == '  File "<string>", line 6, in broken'


def test_json_nested_thousands_deep_costs_a_notice_and_the_rest_of_the_file_is_read(tmp_path: Path) -> None:
    # Python's JSON reader gives up (RecursionError) on arrays nested thousands deep: an exec-form RUN
    # of them lost the whole Dockerfile, and made a README's Dockerfile block, a Dockerfile template and
    # a notebook each a file error (exit 1), where documentation and templates give notices only.
    deep = "[" * 5000 + '"git"' + "]" * 5000
    dockerfile = f"RUN {deep}\nRUN git clone -b v1 https://github.com/o/r\n"
    write_tree(
        tmp_path,
        {
            "Dockerfile": "FROM x\n" + dockerfile,
            "Dockerfile.j2": "FROM {{ base }}\n" + dockerfile,
            "README.md": f"```dockerfile\nFROM x\n{dockerfile}```\n",
            "nb.ipynb": '{"cells": [' + deep + "]}",
        },
    )

    completed = run_reflint(["refs", "--format", "json"], tmp_path, preexec_fn=bounded)

    assert (completed.returncode, completed.stderr) == (0, "")
    document = json_output(completed)
    assert document["errors"] == []
    assert [(pin["path"], pin["line"], pin["column"], pin["ref"]) for pin in document["pins"]] == [
        ("Dockerfile", 3, 18, "v1"),
        ("Dockerfile.j2", 3, 18, "v1"),
        ("README.md", 4, 18, "v1"),
    ]
    nested = "RUN exec-form arguments must be a JSON array of strings, not arrays nested thousands deep"
    assert document["notices"] == [
        {"path": "Dockerfile", "message": f"line 2: {nested}; not scanned for pins"},
        {"path": "Dockerfile.j2", "message": f"line 2: {nested}; not scanned for pins"},
        {"path": "README.md", "message": f"line 2: line 3: {nested}; not scanned for pins"},
        {"path": "nb.ipynb", "message": "not a Jupyter notebook (no JSON with cells): not read"},
    ]


def test_a_name_written_as_another_files_undecodable_byte_hides_neither(tmp_path: Path) -> None:
    # Both were shown as x\xff.sh, and discovery keeps each display path once: the file named with the four
    # characters \xff hid the pins of the file named with the byte 0xff.
    write_tree(tmp_path, {"x\\xff.sh": "git clone --branch v2 https://github.com/o/r.git\n"})
    (tmp_path / os.fsdecode(b"x\xff.sh")).write_text("git clone --branch v1 https://github.com/o/r.git\n")

    completed = run_reflint(["refs", "--format", "json", "--no-cache"], tmp_path)

    assert (completed.returncode, completed.stderr) == (0, "")
    assert [(pin["path"], pin["ref"]) for pin in json_output(completed)["pins"]] == [
        ("x\\x5cxff.sh", "v2"),
        ("x\\xff.sh", "v1"),
    ]
