"""Exit codes that do not lie (issue 10): a recipe file that could hold pins but cannot be read or parsed
fails ``scan`` (exit 1) in every format, as ruff and hadolint fail on files they cannot parse; ``refs``
still exits 0; ``--exit-zero`` exits 0; ``scan --help`` and the README give the same table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ascend_reflint.cli import SCAN_EXIT_CODES, main
from ascend_reflint.lookup.cache import RefCache, cache_key
from ascend_reflint.model import RemoteRefs

README = Path(__file__).resolve().parents[2] / "README.md"
CLEAN = "FROM x\nRUN git clone https://github.com/o/r.git /opt/r  # reflint: ignore[RL010,RL015]\n"
BROKEN = {
    ".github/workflows/bad.yml": "jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n"
    "      - run: [\n",
    "bad.sh": "#!/bin/sh\nif then fi ((\ngit clone --branch v1 https://github.com/o/r.git\n",
    "Dockerfile.bin": b"FROM x\nRUN \0 git clone --branch v1 https://github.com/o/r.git\n",
    # No pin-like text: may be skipped unparsed, and is.
    ".github/workflows/nopin.yml": "on: [\n",
    # Read, with a warning (no ref).
    "Dockerfile.main": "FROM x\nRUN git clone https://github.com/o/r.git /opt/r  # reflint: ignore[RL010]\n",
}
#: (path, line, column, message): where each file stops parsing, as much as is known (the unclosed '[',
#: not the end of the file where the parser gave up; a shell error's line).
ERRORS = [
    (
        ".github/workflows/bad.yml",
        5,
        14,
        "malformed YAML: '[' is never closed: at line 6, column 1, did not find expected node content",
    ),
    ("Dockerfile.bin", None, None, "binary file (holds NUL bytes)"),
    ("bad.sh", 2, None, "shell syntax error near 'then'"),
]
RL015 = (
    "`git clone` of github.com/o/r pins no ref, so the build takes whatever the default branch holds that "
    "day; add `--branch <tag>`, or check out a commit id after the clone"
)
LOCATIONS = [".github/workflows/bad.yml:5:14", "Dockerfile.bin", "bad.sh:2"]


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "Dockerfile").write_text(CLEAN)
    for name, content in BROKEN.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            (tmp_path / name).write_bytes(content)
        else:
            (tmp_path / name).write_text(content)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", "--offline", "--cache-dir", "cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_recipe_that_cannot_be_read_or_parsed_fails_the_scan_in_every_format(
    broken: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_WORKSPACE", str(broken))
    text = _scan(capsys, "--format", "text")
    as_json = _scan(capsys, "--format", "json")
    github = _scan(capsys, "--format", "github")
    sarif = _scan(capsys, "--format", "sarif")

    assert [run[0] for run in (text, as_json, github, sarif)] == [1, 1, 1, 1]
    # bad.sh's pin before its syntax error is not counted, nor checked: the file could not be read.
    assert text[1].splitlines() == [
        f"Dockerfile.main:2:15: RL015 [warning] {RL015}",
        "",
        "0 errors, 1 warning, 0 info in 1 of 3 files (2 pins, 1 remote: 0 checked (0 cached), 1 not "
        "checked); 3 files could not be read",
    ]
    # --offline with an empty cache: the one remote was not checked either, and the scan says so.
    assert text[2] == "".join(
        f"{location}: error: {message}\n" for location, (*_, message) in zip(LOCATIONS, ERRORS, strict=True)
    ) + ("reflint: no remote could be checked: 2 pins unchecked\n")
    assert json.loads(as_json[1])["errors"] == [
        {"path": ".github/workflows/bad.yml", "line": 5, "column": 14, "message": ERRORS[0][3]},
        {"path": "Dockerfile.bin", "message": ERRORS[1][3]},
        {"path": "bad.sh", "line": 2, "message": ERRORS[2][3]},
    ]
    assert json.loads(as_json[1])["summary"]["files"] == 3
    # Errors before warnings: the files that could not be read come before the RL015 warning.
    assert github[1].splitlines()[:4] == [
        "::error file=.github/workflows/bad.yml,line=5,col=14,title=reflint could not read this file::"
        + ERRORS[0][3],
        "::error file=Dockerfile.bin,title=reflint could not read this file::" + ERRORS[1][3],
        "::error file=bad.sh,line=2,title=reflint could not read this file::" + ERRORS[2][3],
        "::warning file=Dockerfile.main,line=2,col=15,endLine=2,endColumn=41,title=RL015 unpinned-clone::"
        + RL015,
    ]
    assert github[1].splitlines()[4:] == [text[1].splitlines()[-1]]
    notifications = json.loads(sarif[1])["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [
        (n["level"], n["message"]["text"], n["locations"][0]["physicalLocation"].get("region"))
        for n in notifications
    ] == [
        ("error", ERRORS[0][3], {"startLine": 5, "startColumn": 14}),
        ("error", ERRORS[1][3], None),
        ("error", ERRORS[2][3], {"startLine": 2}),
    ]


def test_refs_and_exit_zero_still_exit_0_and_a_clean_tree_exits_0(
    broken: Path, capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    refs = main(["refs"])
    capsys.readouterr()
    exit_zero = _scan(capsys, "--exit-zero", "--fail-on", "info")
    for name in BROKEN:
        (broken / name).unlink()
    # The remote's ref list in the cache: the offline scan checks the pin, so clean means checked and clean.
    # (Outside the scanned tree: answers from a cache inside it are warned about.)
    answer = RemoteRefs("github.com/o/r", {"main": "1" * 40}, {}, fetched_at=0.0)
    cache = tmp_path_factory.mktemp("cache")
    RefCache(cache).store(cache_key("https://github.com/o/r", credentials=False), answer)
    clean = _scan(capsys, "--cache-dir", str(cache))

    assert (refs, exit_zero[0], clean[0]) == (0, 0, 0)
    assert clean[2] == ""


NOTHING_READ = (
    "0 errors, 0 warnings, 0 info in 0 of 0 files (0 pins, 0 remotes: 0 checked (0 cached), 0 not checked)\n"
)


def test_a_scan_of_folders_without_a_recipe_fails_and_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("git clone --branch v1 https://github.com/o/r.git\n")
    (tmp_path / "LICENSE").write_text("MIT\n")
    monkeypatch.chdir(tmp_path)

    assert _scan(capsys) == (1, NOTHING_READ, "reflint: no recipe file found in .: nothing was checked\n")
    assert _scan(capsys, "docs", "./") == (
        1,
        NOTHING_READ,
        "reflint: no recipe file found in docs, ./: nothing was checked\n",
    )
    # Everything excluded: nothing was checked either; --quiet keeps the reason.
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "Dockerfile").write_text(CLEAN)
    assert _scan(capsys, "-q", "--exclude", "vendor", ".") == (
        1,
        "",
        "reflint: no recipe file found in .: nothing was checked\n",
    )
    assert _scan(capsys, "--format", "json", "--exit-zero", "docs")[::2] == (
        0,
        "reflint: no recipe file found in docs: nothing was checked\n",
    )
    assert _scan(capsys, "--diff", "docs") == (
        1,
        "",
        "reflint: nothing to fix\nreflint: no recipe file found in docs: nothing was checked\n",
    )


def test_named_files_that_are_not_recipes_are_nothing_to_check_as_pre_commit_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A commit that touches LICENSE (no extension: the hook's pattern passes it) and an excluded Dockerfile.
    (tmp_path / "LICENSE").write_text("MIT\n")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "Dockerfile").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)

    assert _scan(capsys, "--exclude", "vendor", "LICENSE", "vendor/Dockerfile") == (
        0,
        NOTHING_READ,
        "LICENSE: notice: skipped: not a kind of file reflint reads\n",
    )
    # A named file beside a folder without recipes: the folder's emptiness is not the commit's.
    assert _scan(capsys, "LICENSE", "vendor", "--exclude", "vendor/Dockerfile")[0] == 0


def test_scan_help_and_the_readme_give_the_same_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--help"]) == 0
    assert SCAN_EXIT_CODES in capsys.readouterr().out
    rows = re.findall(r"^  (\d)  (.+)$", SCAN_EXIT_CODES, re.MULTILINE)
    readme = README.read_text(encoding="utf-8")
    table = readme[readme.index("| situation | exit |") :].split("\n\n", 1)[0].replace("`", "")
    assert [
        (code, situation) for situation, code in re.findall(r"^\| (.+?) \| (\d)", table, re.MULTILINE)
    ] == rows
