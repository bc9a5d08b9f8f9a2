"""The tree index under edits: a small project of Ascend images, scripts, a workflow, requirements and
documentation is changed at random between scans, and a scan naming a few of its files with the tree index
(:mod:`ascend_reflint.tree_index`) must report exactly what the same scan reports with ``--no-cache``.

Where ``run_tree_index_oracle.py`` scans real work trees that do not change, this changes the tree the way
people and tools do between two pre-commit runs, 1 to 3 changes per round: an edit (dated an hour back,
with the modification time kept, now, or an hour ahead), an edit of the same size with the modification
time put back, a rename over another file, two files swapped, a deletion, a file replaced by a symbolic
link to another, by a folder or by a FIFO. Files that run others with values (``docker build
--build-arg``, a workflow's ``build-args``) and requirements that name each other (``-r``) are among them.
With ``--git`` the project is a git work tree (discovery lists its files with git).

Run with the Python of the reflint to check::

    python benchmarks/run_tree_index_mutations.py --rounds 60 --seed 1 [--git]

Prints each disagreement (the changes of its last rounds, the files named and the differing fields of the
JSON reports) and a count; exit code 1 on any disagreement. Offline: no remote is asked.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

REFS = ("v0.9.1", "v0.11.0", "v0.10.0", "main", "a" * 40)
REMOTES = (
    "https://github.com/vllm-project/vllm.git",
    "https://github.com/NVIDIA/apex.git",
    "https://github.com/vllm-project/vllm",
)
PATHS = (
    "docker/ascend/Dockerfile.ascend_a2",
    "docker/ascend/Dockerfile.ascend_a3",
    "docker/ascend/Dockerfile.npu",
    "docker/gpu/Dockerfile",
    "docker/ascend/install.sh",
    "scripts/install_npu.sh",
    "scripts/build_npu.sh",
    "tools/setup.sh",
    ".github/workflows/build.yml",
    "requirements.txt",
    "requirements-npu.txt",
    "README.md",
    "docs/npu.md",
)
DOCKERFILES = tuple(path for path in PATHS if "Dockerfile" in path)
#: The rule selections a scan is run with (as run_tree_index_oracle.py's).
SELECTIONS: tuple[list[str], ...] = ([], ["--select", "RL004,RL005,RL006"], ["--select", "RL005"])


class Project:
    """The project under ``root`` and the random source of its contents and changes."""

    def __init__(self, root: str, rng: random.Random) -> None:
        self.root, self.rng = root, rng

    def content(self, path: str) -> str:
        """A random text for the file at ``path`` (of the kind its name gives)."""
        rng, name = self.rng, os.path.basename(path)
        clone = f"git clone --depth 1 --branch {rng.choice(REFS)} {rng.choice(REMOTES)}"
        if name.startswith("Dockerfile"):
            return rng.choice(
                [
                    f"FROM ubuntu:22.04\nARG REF={rng.choice(REFS)}\n"
                    f"RUN git clone --depth 1 --branch ${{REF}} {rng.choice(REMOTES)}\n",
                    f"FROM ubuntu:22.04\nARG REPO={rng.choice(REMOTES)}\n"
                    f"RUN git clone --depth 1 --branch {rng.choice(REFS)} ${{REPO}}\n",
                    f"FROM ubuntu:22.04\nRUN {clone}\n",
                ]
            )
        if name.endswith(".sh"):
            value = rng.choice([f"REF={rng.choice(REFS)}", f"REPO={rng.choice(REMOTES)}"])
            build = f"docker build --build-arg {value} -f {rng.choice(DOCKERFILES)} .\n"
            return "#!/bin/bash\n" + (build if rng.random() < 0.5 else "") + clone + "\n"
        if name.endswith(".yml"):
            return (
                "on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: docker/build-push-action@v6\n        with:\n"
                f"          file: {rng.choice(DOCKERFILES)}\n          build-args: REF={rng.choice(REFS)}\n"
            )
        if name.endswith(".txt"):
            named = rng.choice(["-r requirements-npu.txt\n", "-r requirements.txt\n", ""])
            return f"{named}vllm @ git+{rng.choice(REMOTES)}@{rng.choice(REFS)}\n"
        return f"# Install\n\n```bash\n{clone}\n```\n"

    def write(self, path: str, when: str = "old") -> None:
        """Write a new text at ``path``, dated ``when``: ``old`` (an hour back), ``keep`` (the modification
        time the file had), ``now`` or ``future`` (an hour ahead)."""
        full = self._clear(path, keep_file=True)
        kept = os.stat(full).st_mtime_ns if os.path.isfile(full) else None
        with open(full, "w", encoding="utf-8") as file:
            file.write(self.content(path))
        if when == "keep" and kept is not None:
            os.utime(full, ns=(kept, kept))
        elif when != "now":
            moment = time.time() + (3600 if when == "future" else -3600 - self.rng.randint(0, 100))
            os.utime(full, (moment, moment))

    def change(self) -> str:
        """Make one random change; returns what it was."""
        rng = self.rng
        path, other = rng.sample(PATHS, 2)
        full, other_full = os.path.join(self.root, path), os.path.join(self.root, other)
        how = rng.choice(["edit", "edit", "same size", "rename", "swap", "delete", "link", "folder", "fifo"])
        if how == "edit":
            when = rng.choice(["old", "old", "keep", "now", "future"])
            self.write(path, when)
            return f"edit {path} ({when})"
        if how == "same size" and os.path.isfile(full) and not os.path.islink(full):
            status = os.stat(full)
            with open(full, encoding="utf-8") as file:
                text = file.read()
            for old, new in (("v0.9.1", "v0.8.1"), ("v0.11.0", "v0.12.0"), ("apex", "apey")):
                text = text.replace(old, new, 1) if old in text else text
            with open(full, "w", encoding="utf-8") as file:
                file.write(text)
            os.utime(full, ns=(status.st_atime_ns, status.st_mtime_ns))
        elif how == "rename" and os.path.lexists(full) and not os.path.isdir(other_full):
            os.makedirs(os.path.dirname(other_full), exist_ok=True)
            os.replace(full, other_full)
        elif how == "swap" and all(os.path.isfile(p) and not os.path.islink(p) for p in (full, other_full)):
            os.replace(full, full + ".swap")
            os.replace(other_full, full)
            os.replace(full + ".swap", other_full)
        elif how == "delete":
            self._clear(path, keep_file=False)
        elif how == "link":
            self._clear(path, keep_file=False)
            os.symlink(os.path.relpath(other_full, os.path.dirname(full)), full)
        elif how == "folder":
            self._clear(path, keep_file=False)
            os.makedirs(full)
            with open(os.path.join(full, "install.sh"), "w", encoding="utf-8") as file:
                file.write(self.content("install.sh"))
        elif how == "fifo":
            self._clear(path, keep_file=False)
            os.mkfifo(full)
        return f"{how} {path} {other}"

    def present(self) -> list[str]:
        return [path for path in PATHS if os.path.lexists(os.path.join(self.root, path))]

    def _clear(self, path: str, keep_file: bool) -> str:
        """Remove what is at ``path`` (a regular file stays when ``keep_file``); returns the full path."""
        full = os.path.join(self.root, path)
        if os.path.isdir(full) and not os.path.islink(full):
            shutil.rmtree(full)
        elif os.path.lexists(full) and not (keep_file and os.path.isfile(full) and not os.path.islink(full)):
            os.unlink(full)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        return full


def reflint(args: Sequence[str], cwd: str) -> tuple[int, str]:
    """``reflint ARGS`` in ``cwd``: exit code and stdout."""
    done = subprocess.run(
        [sys.executable, "-m", "ascend_reflint", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout


def differing(indexed: str, everything: str) -> list[str]:
    """The top-level fields of two JSON reports that differ (the texts themselves when one is no JSON)."""
    try:
        first, second = json.loads(indexed), json.loads(everything)
    except ValueError:
        return [f"stdout: {indexed[:300]!r} != {everything[:300]!r}"]
    return [
        f"{key}: {first.get(key)!r} != {second.get(key)!r}"[:600]
        for key in first
        if first[key] != second.get(key)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="rounds of changes and scans (default: 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the changes (default: 1)")
    parser.add_argument("--git", action="store_true", help="make the project a git work tree")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    disagreements = 0
    with tempfile.TemporaryDirectory(prefix="reflint-mutations-") as scratch:
        root, cache = os.path.join(scratch, "project"), os.path.join(scratch, "cache")
        os.makedirs(root)
        project = Project(root, rng)
        if options.git:
            subprocess.run(["git", "init", "-q", root], check=True)
        for path in PATHS:
            project.write(path)
        changes: list[str] = []
        for _ in range(options.rounds):
            for _ in range(rng.randint(1, 3)):
                try:
                    changes.append(project.change())
                except OSError as error:  # a rename of a folder onto a file, and the like
                    changes.append(f"refused: {error.strerror}")
            named = rng.sample(project.present(), min(len(project.present()), rng.randint(1, 3)))
            args = ["scan", "--cache-dir", cache, "--offline", "--format", "json", *rng.choice(SELECTIONS)]
            indexed = reflint([*args, *named], root)
            everything = reflint([*args, "--no-cache", *named], root)
            if indexed != everything:
                disagreements += 1
                codes = f"exit {indexed[0]} != {everything[0]}; " if indexed[0] != everything[0] else ""
                fields = "; ".join(differing(indexed[1], everything[1]))
                print(f"after {changes[-6:]}: {' '.join(named)}: {codes}{fields}")
    print(f"{options.rounds - disagreements} of {options.rounds} rounds agree")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
