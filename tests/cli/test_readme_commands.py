"""The README's first commands do what it says, from any folder, and its sample output is what the scan
prints; the hook and Action examples pin a commit that exists and holds what they use.

The scan runs as a user would run it from the folder that holds the checkout (``reflint`` here), against the
ref lists of ``tests/data/remotes`` (through ``url.<base>.insteadOf``).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixtures import FakeRemotes
from ruamel.yaml import YAML

PROJECT = Path(__file__).resolve().parents[2]
README = (PROJECT / "README.md").read_text(encoding="utf-8")


def first_console_block() -> tuple[list[str], list[str]]:
    """The commands (without ``$ `` and comments) and the output lines of the README's first console block."""
    block = re.search(r"^```console\n(.*?)^```", README, re.MULTILINE | re.DOTALL)
    assert block, "README.md has no console block"
    commands = [line[2:] for line in block.group(1).splitlines() if line.startswith("$ ")]
    output = [line for line in block.group(1).splitlines() if not line.startswith("$ ")]
    return [shlex.split(command, comments=True) for command in commands], output


def test_the_first_commands_install_the_checkout_and_scan_another_folder() -> None:
    (install, scan), _ = first_console_block()
    assert install == ["pip", "install", "./reflint"]
    assert scan == ["reflint", "scan", "reflint/examples/ascend-images"]


def test_the_sample_output_is_what_the_scan_prints(tmp_path: Path, remotes: FakeRemotes) -> None:
    (_, scan), output = first_console_block()
    shutil.copytree(PROJECT / "examples", tmp_path / "reflint" / "examples")
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        **remotes.env(),
    }
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_reflint", *scan[1:]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (completed.returncode, completed.stderr) == (1, "")
    assert completed.stdout.splitlines() == output


def _pinned_commits() -> dict[str, str]:
    """What the README's examples pin: ``hook`` (the pre-commit ``rev:``) and ``action`` (``uses: …@``)."""
    hook = re.search(r"repo: https://github\.com/ascend-reflint/reflint\n\s+rev: (\S+)", README)
    action = re.search(r"uses: ascend-reflint/reflint@(\S+)", README)
    assert hook and action
    return {"hook": hook.group(1), "action": action.group(1)}


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(PROJECT), *args], capture_output=True, text=True, timeout=60)


def test_the_hook_and_action_examples_pin_a_commit_of_main_that_holds_what_they_use() -> None:
    if _git("cat-file", "-e", f"{_pinned_commits()['hook']}^{{commit}}").returncode != 0:
        # A copy without the project's history (an sdist, a shallow clone) cannot show the commit at all.
        shallow = _git("rev-parse", "--is-shallow-repository").stdout.strip()
        assert shallow in ("true", ""), "the pinned commit is not in this clone's history"
        pytest.skip(f"no history to hold the pinned commit (shallow: {shallow or 'not a git work tree'})")
    yaml = YAML(typ="safe")
    for example, commit in _pinned_commits().items():
        assert re.fullmatch(r"[0-9a-f]{40}", commit), f"{example}: {commit} is not a full commit id"
        assert _git("merge-base", "--is-ancestor", commit, "HEAD").returncode == 0, f"{example}: {commit}"
    hooks = yaml.load(_git("show", f"{_pinned_commits()['hook']}:.pre-commit-hooks.yaml").stdout)
    # Every hook the README's example names, also the one commented out, is there at the pinned commit.
    named = re.findall(r"#?\s*- id: (\S+)", README.split("## pre-commit", 1)[1].split("\n## ", 1)[0])
    assert (named, [hook["id"] for hook in hooks]) == (["reflint", "reflint-fix"], ["reflint", "reflint-fix"])
    action = yaml.load(_git("show", f"{_pinned_commits()['action']}:action.yml").stdout)
    assert {"fail-on", "cache", "cache-ttl", "sarif-file"} <= set(action["inputs"])
    assert action["inputs"]["sarif-file"]["default"] == ""  # the report goes to $RUNNER_TEMP
    assert {"sarif-file"} <= set(action["outputs"])


def _sample_scan(tmp_path: Path, remotes: FakeRemotes, *options: str) -> subprocess.CompletedProcess[str]:
    """The README's scan of a copy of ``examples/`` with ``options`` added."""
    (_, scan), _ = first_console_block()
    shutil.copytree(PROJECT / "examples", tmp_path / "reflint" / "examples")
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        **remotes.env(),
    }
    return subprocess.run(
        [sys.executable, "-m", "ascend_reflint", *scan[1:], *options],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_unsafe_fixes_of_the_sample_say_that_a_second_round_fixed_more(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    # The sample says "2 fixable with --fix --unsafe-fixes"; the diff fixes 3: RL002 pins core_v0.18.0, whose
    # rescan finds core_v0.18.2 newer (RL024), which the second round takes (building on RL002's edit, which
    # still counts). The summary says that a second round ran.
    completed = _sample_scan(tmp_path, remotes, "--diff", "--unsafe-fixes")
    assert (completed.returncode, completed.stderr) == (
        1,
        "reflint: would fix 3 findings in 2 files, in 2 rounds: rescanning after the first fixes found more "
        "to fix (keep a rule's fixes out with --unfixable CODE)\n",
    )
    assert [line for line in completed.stdout.splitlines() if line.startswith(("-", "+"))][-2:] == [
        "-MEGATRON_REF=core_r0.18.0",
        "+MEGATRON_REF=core_v0.18.2",
    ]


def test_fix_says_as_diff_does_that_a_second_round_fixed_more(tmp_path: Path, remotes: FakeRemotes) -> None:
    completed = _sample_scan(tmp_path, remotes, "--fix", "--unsafe-fixes")
    assert (completed.returncode, completed.stdout.splitlines()[-1:]) == (
        0,
        [
            "3 fixed, 0 remaining, in 2 rounds: rescanning after the first fixes found more to fix (keep a "
            "rule's fixes out with --unfixable CODE)"
        ],
    )
    script = tmp_path / "reflint/examples/ascend-images/scripts/install_megatron.sh"
    assert "MEGATRON_REF=core_v0.18.2\n" in script.read_text(encoding="utf-8")
