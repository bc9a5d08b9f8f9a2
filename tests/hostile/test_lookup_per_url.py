"""A pin's verdict comes from a lookup of the URL that pin fetches (issue 10, item 4).

The attack: lookups were shared per normalised remote (scheme, user and port dropped) and used the first
pin's URL, so ``git clone git://github.com/NVIDIA/Megatron-LM.git … # reflint: ignore`` in a file that
sorts first turned an RL001 and an RL002 in another file into one RL010 warning, and the scan passed.
"""

from __future__ import annotations

from pathlib import Path

from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes

from .support import json_output, run_reflint, write_tree

HIDER = (
    "RUN git clone --branch core_r0.18.0 git://github.com/NVIDIA/Megatron-LM.git /opt/m  # reflint: ignore\n"
)
VICTIM = (
    "RUN git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git /opt/m\n"
    "RUN git clone --branch core_v0.18.9 https://github.com/NVIDIA/Megatron-LM.git /opt/n\n"
)


def test_a_failing_git_url_in_a_file_that_sorts_first_hides_nothing_elsewhere(
    tmp_path: Path, remotes: FakeRemotes, closed_port: int
) -> None:
    write_tree(
        tmp_path / "project", {"a/Dockerfile": "FROM x\n" + HIDER, "b/Dockerfile": "FROM x\n" + VICTIM}
    )
    # git:// to github.com goes to a closed loopback port: it fails at once, and never leaves the machine.
    env = remotes.env([(f"url.git://127.0.0.1:{closed_port}/.insteadOf", "git://github.com/")])

    completed = run_reflint(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "--ignore", "RL005"],
        tmp_path / "project",
        env,
    )

    document = json_output(completed)
    assert [(f["code"], f["path"], f["line"], f["message"]) for f in document["findings"]] == [
        ("RL002", "b/Dockerfile", 2, MEGATRON_RELEASE_BRANCH),
        (
            "RL001",
            "b/Dockerfile",
            3,
            'ref "core_v0.18.9" is neither a branch nor a tag of github.com/nvidia/megatron-lm, so `git '
            "clone --branch` fails; no ref names that version; the most similar of its 4 branches and 6 tags "
            'are "core_v0.18.2", "core_v0.18.0", "core_r0.18.0"',
        ),
    ]
    # Two lookups, one per URL: the git:// one failed (its RL010 and RL016 are suppressed where it is).
    summary = document["summary"]
    assert (summary["remotes"], summary["lookups"], summary["checked"], summary["unchecked"]) == (2, 2, 1, 1)
    assert (completed.returncode, completed.stderr) == (1, "")


def test_the_ignored_pin_still_gets_its_own_findings(
    tmp_path: Path, remotes: FakeRemotes, closed_port: int
) -> None:
    write_tree(tmp_path / "project", {"a/Dockerfile": "FROM x\n" + HIDER.split("  #")[0] + "\n"})
    env = remotes.env([(f"url.git://127.0.0.1:{closed_port}/.insteadOf", "git://github.com/")])

    completed = run_reflint(
        ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")], tmp_path / "project", env
    )

    found = [(f["code"], f["line"], f["column"]) for f in json_output(completed)["findings"]]
    column = HIDER.index("git://") + 1
    assert found == [("RL010", 2, column), ("RL016", 2, column)]
    # Not one remote could be checked: the scan says so and fails.
    assert (completed.returncode, completed.stderr) == (
        1,
        "reflint: no remote could be checked: 1 pin unchecked\n",
    )
