"""Files that reflint writes (``--output``, ``--write-baseline``) never follow a symbolic link (issue 10,
item 2).

The attack: a pull request commits ``reflint.sarif -> ~/victim`` (the Action's default report name), or a
dangling link to where a file should not appear; reflint's report would be written through it. reflint
writes a temporary file in the target's folder and renames it over the link: the link is replaced, what it
pointed to is untouched. A folder or a special file at the target is refused (exit 2), without waiting on
a FIFO.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .support import run_reflint, write_tree

DOCKERFILE = "FROM x\nRUN git clone --branch v1 https://github.com/o/r.git /opt/r\n"
VICTIM = "precious: not reflint's to write\n"


def test_reports_and_baselines_replace_committed_links_and_leave_their_targets_alone(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_tree(project, {"Dockerfile": DOCKERFILE})
    victim = tmp_path / "victim"
    victim.write_text(VICTIM)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("reflint.sarif", "refs.txt", "baseline.json"):
        os.symlink(victim, project / name)
    os.symlink(elsewhere / "created.json", project / "dangling.json")
    scan = ["scan", "--offline", "--cache-dir", str(tmp_path / "cache")]

    reports = run_reflint(
        [
            *scan,
            "--format",
            "sarif",
            "--format",
            "json",
            "--output",
            "reflint.sarif",
            "--output",
            "dangling.json",
        ],
        project,
    )
    refs = run_reflint(["refs", "--output", "refs.txt"], project)
    baseline = run_reflint([*scan, "--write-baseline", "baseline.json"], project)

    # Scans exit 1: --offline with an empty cache checked no remote (their outputs are written all the same).
    assert (reports.returncode, refs.returncode, baseline.returncode) == (1, 0, 1)
    assert victim.read_text() == VICTIM
    assert list(elsewhere.iterdir()) == []
    written = ["reflint.sarif", "dangling.json", "refs.txt", "baseline.json"]
    assert [(project / name).is_symlink() for name in written] == [False] * 4
    assert json.loads((project / "reflint.sarif").read_text())["version"] == "2.1.0"
    assert json.loads((project / "dangling.json").read_text())["summary"]["pins"] == 1
    assert (project / "refs.txt").read_text() == "Dockerfile:2:24: github.com/o/r v1 (clone-branch)\n"
    assert json.loads((project / "baseline.json").read_text())["findings"][0]["code"] == "RL010"


def test_a_folder_or_a_fifo_as_the_output_is_a_usage_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"Dockerfile": DOCKERFILE, "reports/keep": "kept\n"})
    os.mkfifo(tmp_path / "fifo")
    scan = ["scan", "--offline", "--cache-dir", str(tmp_path / "cache")]

    runs = [
        run_reflint([*scan, "--format", "sarif", "--output", "reports"], tmp_path),
        run_reflint([*scan, "--format", "json", "--output", "fifo"], tmp_path),
        run_reflint(["refs", "--output", "fifo"], tmp_path),
        run_reflint([*scan, "--write-baseline", "fifo"], tmp_path),
    ]

    assert [(run.returncode, run.stderr) for run in runs] == [
        (2, "reflint: error: cannot write reports: a directory\n"),
        (2, "reflint: error: cannot write fifo: not a regular file\n"),
        (2, "reflint: error: cannot write fifo: not a regular file\n"),
        (2, "reflint: error: cannot write baseline fifo: not a regular file\n"),
    ]
    assert (tmp_path / "reports" / "keep").read_text() == "kept\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "Dockerfile",
        "cache",  # files were read and extracted before the output failed
        "fifo",
        "reports",
    ]  # no temporary file left


def test_a_committed_folder_link_on_the_way_to_a_report_or_a_cache_entry_is_not_written_through(
    tmp_path: Path,
) -> None:
    # A pull request commits reports -> ~/anywhere, and the workflow writes --output reports/reflint.json;
    # a restored cache holds extract/<project> -> ~/anywhere: each file was written into the link's target.
    project = tmp_path / "project"
    write_tree(project, {"Dockerfile": DOCKERFILE, ".git/HEAD": ""})
    elsewhere = {name: tmp_path / name for name in ("reports-target", "extract-target", "packs-target")}
    for folder in elsewhere.values():
        folder.mkdir()
    os.symlink(elsewhere["reports-target"], project / "reports")
    cache = tmp_path / "cache"
    scan = ["scan", "--offline", "--format", "json", "--cache-dir", str(cache)]
    run_reflint(scan, project)  # makes the cache's folders, which are then replaced by links
    (project_folder,) = (cache / "extract").iterdir()
    for name, folder in (("extract", project_folder), ("packs", cache / "packs")):
        for entry in folder.iterdir():
            entry.unlink()
        folder.rmdir()
        os.symlink(elsewhere[f"{name}-target"], folder)

    report = run_reflint([*scan, "--output", "reports/reflint.json"], project)
    cached = run_reflint(scan, project)

    refused = "is a symbolic link, which reflint does not write through"
    assert (report.returncode, report.stdout, report.stderr) == (
        2,
        "",
        f"reflint: notice: cannot write the extraction cache in {cache}: the folder {project_folder} "
        f"{refused}\nreflint: error: cannot write reports/reflint.json: the folder reports {refused}\n",
    )
    assert (cached.returncode, json.loads(cached.stdout)["summary"]["pins"]) == (1, 1)
    assert {name: list(folder.iterdir()) for name, folder in elsewhere.items()} == {
        "reports-target": [],
        "extract-target": [],
        "packs-target": [],
    }
