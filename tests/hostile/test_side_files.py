"""Side files are read with bounds, and a scanned repository names files only inside its root (issue 10,
item 3).

The attacks: a config whose ``rule-packs`` names a file outside the repository (``../``, an absolute path,
a committed symbolic link) so that the config error quotes its lines; a committed ``.reflint.yaml`` that
links outside; ``/dev/zero`` as a rule pack, a baseline or a cache entry (gigabytes read); a FIFO as the
config or a cache entry (reflint waited forever). Each is now a clear error or, for the cache, a missing
entry, in bounded memory (``support.bounded``) and without waiting.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ascend_reflint.lookup.cache import cache_key
from ascend_reflint.remote import lookup_key

from .support import bounded, json_output, run_reflint, write_tree

#: A file outside the repository, shaped so that reading it as a pack would quote its lines.
SECRET = "name: secret\nTOP-SECRET-LINE: hunter2\n"
DOCKERFILE = "FROM x\nRUN git clone --branch v1 https://github.com/o/r.git /opt/r\n"


def _outside_project(tmp_path: Path) -> Path:
    (tmp_path / "secret.yaml").write_text(SECRET)
    project = tmp_path / "project"
    write_tree(project, {"Dockerfile": DOCKERFILE, "packs/team.yaml": "name: team\n", ".git/HEAD": ""})
    os.symlink("../../secret.yaml", project / "packs" / "linked.yaml")
    return project


def test_rule_packs_outside_the_root_are_refused_by_key_without_reading_them(tmp_path: Path) -> None:
    project = _outside_project(tmp_path)
    (project / ".reflint.yaml").write_text(
        f"rule-packs:\n  - packs/team.yaml\n  - ../secret.yaml\n  - {tmp_path / 'secret.yaml'}\n"
        "  - packs/linked.yaml\n"
    )

    refused = run_reflint(["scan", "--offline", "--cache-dir", str(tmp_path / "c")], project)
    (project / ".reflint.yaml").write_text("rule-packs: [packs/team.yaml]\n")
    inside = run_reflint(
        ["scan", "--offline", "--format", "json", "--cache-dir", str(tmp_path / "c")], project
    )

    advice = (
        f" is outside the project root {project} (symbolic links followed); a repository's config may "
        "name only packs inside it (give others with --rule-pack FILE)"
    )
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"reflint: error: .reflint.yaml:3:5: rule-packs[1]: '../secret.yaml'{advice}\n"
        f".reflint.yaml:4:5: rule-packs[2]: '{tmp_path / 'secret.yaml'}'{advice}\n"
        f".reflint.yaml:5:5: rule-packs[3]: 'packs/linked.yaml'{advice}\n"
    )
    # Exit 1: --offline with an empty cache checked no remote (the pack itself was read).
    assert (inside.returncode, json_output(inside)["summary"]["pins"]) == (1, 1)


def test_a_committed_config_that_links_outside_the_root_is_not_read(tmp_path: Path) -> None:
    project = _outside_project(tmp_path)
    os.symlink("../secret.yaml", project / ".reflint.yaml")

    completed = run_reflint(["scan", "--offline"], project)

    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == (
        "reflint: error: .reflint.yaml: the config file links to a file outside the project root; reflint "
        "does not read it (give a config outside the repository with --config FILE)\n"
    )


def test_devices_fifos_and_huge_files_as_side_files_are_errors_in_bounded_memory(tmp_path: Path) -> None:
    write_tree(tmp_path, {"Dockerfile": DOCKERFILE})
    os.mkfifo(tmp_path / "fifo")
    with open(tmp_path / "huge.yaml", "wb") as huge:
        huge.truncate(2 * 1024 * 1024)
    scan = ["scan", "--offline", "--cache-dir", str(tmp_path / "cache")]

    runs = [
        run_reflint([*scan, "--rule-pack", "/dev/zero"], tmp_path, preexec_fn=bounded),
        run_reflint([*scan, "--rule-pack", "huge.yaml"], tmp_path, preexec_fn=bounded),
        run_reflint([*scan, "--baseline", "/dev/zero"], tmp_path, preexec_fn=bounded),
        run_reflint([*scan, "--config", "fifo"], tmp_path, preexec_fn=bounded),
        run_reflint([*scan, "--config", "/dev/zero"], tmp_path, preexec_fn=bounded),
    ]

    assert [(run.returncode, run.stderr) for run in runs] == [
        (
            2,
            "reflint: error: /dev/zero: cannot read the rule pack: not a regular file (a character device)\n",
        ),
        (
            2,
            "reflint: error: huge.yaml: cannot read the rule pack: file is 2,097,152 bytes, over the limit "
            "of 1,048,576\n",
        ),
        (2, "reflint: error: cannot read baseline /dev/zero: not a regular file (a character device)\n"),
        (2, "reflint: error: fifo: cannot read the config file: not a regular file (a FIFO)\n"),
        (
            2,
            "reflint: error: /dev/zero: cannot read the config file: not a regular file "
            "(a character device)\n",
        ),
    ]


def test_a_cache_entry_that_is_a_device_or_a_fifo_counts_as_absent(tmp_path: Path) -> None:
    write_tree(tmp_path / "project", {"Dockerfile": DOCKERFILE})
    entries = tmp_path / "cache" / "remotes"
    entries.mkdir(parents=True)
    key = cache_key(lookup_key("https://github.com/o/r.git") or "", credentials=False)
    entry = entries / f"{hashlib.sha256(key.encode()).hexdigest()}.json"
    scan = ["scan", "--offline", "--format", "json", "--cache-dir", str(tmp_path / "cache")]

    os.symlink("/dev/zero", entry)
    device = run_reflint(scan, tmp_path / "project", preexec_fn=bounded)
    entry.unlink()
    os.mkfifo(entry)
    fifo = run_reflint(scan, tmp_path / "project", preexec_fn=bounded)

    for completed in (device, fifo):
        document = json_output(completed)
        assert [(f["code"], f["message"]) for f in document["findings"]] == [
            (
                "RL010",
                "github.com/o/r could not be looked up: unknown (offline): not in the cache, so this pin "
                "went unchecked",
            )
        ]
        # Exit 1: with the entry ignored, no remote could be checked.
        assert (document["summary"]["cached"], completed.returncode) == (0, 1)


def test_a_config_or_rule_pack_nested_thousands_deep_is_a_clear_error(tmp_path: Path) -> None:
    # The YAML loader recurses: 2,000 "[" made "internal error: RecursionError".
    deep = "[" * 2000
    write_tree(tmp_path / "config", {"Dockerfile": DOCKERFILE, ".reflint.yaml": deep, ".git/HEAD": ""})
    write_tree(
        tmp_path / "pack",
        {
            "Dockerfile": DOCKERFILE,
            ".reflint.yaml": "rule-packs: [deep.yaml]\n",
            "deep.yaml": deep,
            ".git/HEAD": "",
        },
    )
    scan = ["scan", "--offline", "--cache-dir", str(tmp_path / "cache")]

    runs = [run_reflint(scan, tmp_path / folder, preexec_fn=bounded) for folder in ("config", "pack")]

    assert [(run.returncode, run.stdout, run.stderr) for run in runs] == [
        (
            2,
            "",
            "reflint: error: .reflint.yaml: nested too deeply to read (a config or rule pack never is)\n",
        ),
        (
            2,
            "",
            f"reflint: error: {tmp_path / 'pack' / 'deep.yaml'}: nested too deeply to read (a config or rule "
            "pack never is)\n",
        ),
    ]


def test_a_pyproject_that_cannot_be_a_config_is_a_recipe_not_a_usage_error(tmp_path: Path) -> None:
    # pyproject.toml is read as the config when it has [tool.reflint]; one over the config's 1 MiB cap or
    # not UTF-8 stopped the scan (exit 2, nothing checked), whatever it held.
    big = "[project]\nname = 'x'\n# " + "a" * (1024 * 1024) + "\n"
    latin1 = "[project]\nname = 'caf\xe9'\n".encode("latin-1")
    for folder, pyproject in (("big", big), ("latin1", latin1)):
        write_tree(
            tmp_path / folder, {"Dockerfile": DOCKERFILE, "pyproject.toml": pyproject, ".git/HEAD": ""}
        )

    runs = [
        run_reflint(["refs", "--format", "json"], tmp_path / folder, preexec_fn=bounded)
        for folder in ("big", "latin1")
    ]

    assert [(run.returncode, run.stderr) for run in runs] == [(0, ""), (0, "")]
    documents = [json_output(run) for run in runs]
    assert [[(pin["path"], pin["ref"]) for pin in document["pins"]] for document in documents] == [
        [("Dockerfile", "v1")],
        [("Dockerfile", "v1")],
    ]
    assert [(document["errors"], document["notices"]) for document in documents] == [
        ([], []),
        (
            [],
            [
                {
                    "path": "pyproject.toml",
                    "message": "not valid UTF-8 (first at line 2); undecodable bytes read as U+FFFD",
                }
            ],
        ),
    ]


def test_a_pyproject_that_the_toml_reader_cannot_take_is_a_recipe_not_a_crash(tmp_path: Path) -> None:
    # A pyproject.toml that names reflint (here in a comment) is parsed for [tool.reflint]: nested 100,000
    # deep it stopped the scan with "internal error: RecursionError" (exit 2); a dotted key of 30,000 parts
    # took tomllib 8 s (quadratic: a 10 MB file, days), as a config and again as a recipe.
    pyprojects = {
        "deep": "# reflint\na = " + "[" * 100_000 + "]" * 100_000 + "\n",
        "dotted": "# reflint\n" + "x." * 30_000 + "a = 1\n",
    }
    for folder, pyproject in pyprojects.items():
        write_tree(
            tmp_path / folder, {"Dockerfile": DOCKERFILE, "pyproject.toml": pyproject, ".git/HEAD": ""}
        )

    runs = [
        run_reflint(["refs", "--format", "json", "--no-cache"], tmp_path / folder, preexec_fn=bounded)
        for folder in pyprojects
    ]

    assert [(run.returncode, run.stderr) for run in runs] == [(0, ""), (0, "")]
    documents = [json_output(run) for run in runs]
    assert [[(pin["path"], pin["ref"]) for pin in document["pins"]] for document in documents] == [
        [("Dockerfile", "v1")],
        [("Dockerfile", "v1")],
    ]
    assert [document["errors"] for document in documents] == [
        [{"path": "pyproject.toml", "message": "too deeply nested or too large to extract (RecursionError)"}],
        [
            {
                "path": "pyproject.toml",
                "line": 2,
                "message": "a dotted key of more than 101 parts, which reflint's TOML reader takes "
                "quadratic time over; not read",
            }
        ],
    ]
