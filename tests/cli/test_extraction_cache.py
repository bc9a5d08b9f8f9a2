"""The extraction cache, through the CLI: a warm run gives exactly what a cold one gives and parses nothing;
whatever may change what extraction gives (the file, a build argument, the config, reflint's own code)
makes the file be extracted again; an entry that is corrupt, too large, of another file or a symbolic link
is ignored and replaced; two processes on one cache agree; ``--no-cache`` and ``reflint cache clean``.

Extractions are counted by wrapping :func:`ascend_reflint.extract.extract_file`, which the inventory calls
for every file that it does not answer from the cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import ascend_reflint.extract
import ascend_reflint.extraction_cache
from ascend_reflint.cli import main
from ascend_reflint.model import SourceFile

TREE = {
    "docker/Dockerfile.npu": (
        "FROM ubuntu:22.04\n"
        "ARG MEGATRON_TAG=core_v0.12.1\n"
        "ENV ASCEND_HOME=/usr/local/Ascend\n"
        "RUN git clone --depth 1 --branch ${MEGATRON_TAG} https://github.com/NVIDIA/Megatron-LM.git\n"
    ),
    "scripts/install.sh": (
        "#!/bin/bash\n"
        "TAG=v1.2.0\n"
        "git clone https://github.com/Ascend/MindSpeed.git && cd MindSpeed && git checkout $TAG\n"
        "pip install git+https://github.com/o/templated.git@{version}\n"
    ),
    ".github/workflows/ci.yml": (
        "on: push\n"
        "jobs:\n"
        "  build:\n"
        "    runs-on: ubuntu-latest\n"
        "    env:\n"
        "      TE_TAG: v2.1\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - run: pip install git+https://github.com/NVIDIA/TransformerEngine.git@${TE_TAG}\n"
    ),
    ".github/workflows/broken.yml": (
        "jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n      - run: [\n"
    ),
    "requirements.txt": "-r deps/base.txt\ngit+https://github.com/o/direct.git@v2\n",
    "deps/base.txt": "git+https://github.com/o/named.git@main\n",
    "pyproject.toml": (
        '[project]\nname = "x"\n[tool.uv.sources]\n'
        'lib = { git = "https://github.com/o/uv.git", tag = "v3" }\n'
    ),
    ".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/o/hooks\n    rev: v4.0.0\n",
    "environment.yml": "dependencies:\n  - pip:\n      - git+https://github.com/o/conda.git@v5\n",
}
#: A script in Latin-1: read leniently, with a notice that the cache must keep.
LATIN_1 = (
    "scripts/latin1.sh",
    "#!/bin/sh\n# caf\xe9\ngit clone --branch v6 https://github.com/o/latin.git\n",
)
EVERY_FILE = sorted([*TREE, LATIN_1[0]])


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tree as a git work tree, the working directory."""
    root = tmp_path / "project"
    for name, text in TREE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / LATIN_1[0]).write_bytes(LATIN_1[1].encode("latin-1"))
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def extracted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Extractions by display path, from now on."""
    counts: Counter[str] = Counter()
    extract_file = ascend_reflint.extract.extract_file

    def counting(source: SourceFile, *args: object, **kwargs: object) -> None:
        counts[source.path] += 1
        extract_file(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ascend_reflint.extract, "extract_file", counting)
    return counts


def run(capsys: pytest.CaptureFixture[str], cache: Path, *args: str) -> tuple[int, str, str]:
    """``reflint ARGS --cache-dir CACHE`` in this process: (exit code, stdout, stderr)."""
    code = main([*args, "--cache-dir", str(cache)])
    out, err = capsys.readouterr()
    return code, out, err


REFS = ("refs", "--format", "json")
SCAN = ("scan", "--offline", "--format", "json")


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "extract").rglob("*.json"))


def test_a_warm_run_gives_what_a_cold_run_and_a_run_without_the_cache_give(
    tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    cold = [run(capsys, cache, *REFS), run(capsys, cache, *SCAN)]
    assert extracted == dict.fromkeys(EVERY_FILE, 1)  # the scan read the refs run's entries
    assert len(entries(cache)) == len(EVERY_FILE)
    extracted.clear()
    warm = [run(capsys, cache, *REFS), run(capsys, cache, *SCAN)]
    assert extracted == {}
    fresh = [run(capsys, cache, *REFS, "--no-cache"), run(capsys, cache, *SCAN, "--no-cache")]
    assert extracted == dict.fromkeys(EVERY_FILE, 2)
    assert cold == warm == fresh
    # refs lists the pins (0); the offline scan checked nothing and could not parse broken.yml (1).
    assert [code for code, _, _ in cold] == [0, 1]
    refs, scan = json.loads(warm[0][1]), json.loads(warm[1][1])
    # What the entries had to carry: pins of every kind, env settings, the lenient-decoding notice, the
    # broken workflow's error, the file that requirements.txt names, a template placeholder.
    assert [(pin["path"], pin["ref"]) for pin in refs["pins"]] == [
        (".github/workflows/ci.yml", "v4"),
        (".github/workflows/ci.yml", "v2.1"),
        (".pre-commit-config.yaml", "v4.0.0"),
        ("deps/base.txt", "main"),
        ("docker/Dockerfile.npu", "core_v0.12.1"),
        ("environment.yml", "v5"),
        ("pyproject.toml", "v3"),
        ("requirements.txt", "v2"),
        ("scripts/install.sh", "v1.2.0"),
        ("scripts/install.sh", "{version}"),
        ("scripts/latin1.sh", "v6"),
    ]
    assert [error["path"] for error in scan["errors"]] == [".github/workflows/broken.yml"]
    assert [notice["path"] for notice in refs["notices"]] == [LATIN_1[0]]
    assert [pin["ref"] for pin in refs["pins"] if not pin["resolved"]] == ["{version}"]
    assert [(f["code"], f["path"]) for f in scan["findings"] if f["code"] == "RL009"] == [
        ("RL009", "scripts/install.sh")
    ]


def test_no_cache_neither_reads_nor_writes_it(
    tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *SCAN, "--no-cache")[0] == 1
    assert not (cache / "extract").exists()


def test_a_warm_scan_imports_no_extractor(tree: Path, tmp_path: Path) -> None:
    """The proof that a warm scan parses nothing: neither tree-sitter nor any extractor is imported, nor
    PyYAML (the shipped rule pack is kept read) nor pathspec (its globs are kept compiled)."""
    command = [sys.executable, "-X", "importtime", "-m", "ascend_reflint", *SCAN, "--cache-dir", "../cache"]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    runs = [subprocess.run(command, capture_output=True, text=True, env=env, check=False) for _ in range(2)]
    imported = [
        {
            line.rsplit("|", 1)[1].strip()
            for line in run.stderr.splitlines()
            if line.startswith("import time:")
        }
        for run in runs
    ]
    parsers = [
        sorted(name for name in names if name.split(".")[0] in ("tree_sitter", "ruamel", "yaml", "pathspec"))
        for names in imported
    ]
    extractors = [
        sorted(name for name in names if name.startswith("ascend_reflint.extract.")) for names in imported
    ]
    assert runs[0].stdout == runs[1].stdout
    assert [run.returncode for run in runs] == [1, 1]
    assert (
        "tree_sitter" in parsers[0] and "ascend_reflint.extract.workflow" in extractors[0]
    )  # the test can fail
    assert (parsers[1], extractors[1]) == ([], [])


def test_an_edited_file_alone_is_extracted_again(
    tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *REFS)[0] == 0
    extracted.clear()
    script = tree / "scripts/install.sh"
    script.write_text(
        script.read_text(encoding="utf-8").replace("TAG=v1.2.0", "TAG=v1.3.0"), encoding="utf-8"
    )
    code, out, _ = run(capsys, cache, *REFS)
    assert (code, extracted) == (0, {"scripts/install.sh": 1})
    assert [pin["ref"] for pin in json.loads(out)["pins"] if pin["path"] == "scripts/install.sh"] == [
        "v1.3.0",
        "{version}",
    ]
    assert len(entries(cache)) == len(EVERY_FILE)  # the entry was replaced, not added to


def test_a_changed_build_argument_extracts_again(
    tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *REFS)[0] == 0
    extracted.clear()
    code, out, _ = run(capsys, cache, *REFS, "--build-arg", "MEGATRON_TAG=core_v0.13.0")
    assert (code, extracted) == (0, dict.fromkeys(EVERY_FILE, 1))
    assert [pin["ref"] for pin in json.loads(out)["pins"] if pin["path"] == "docker/Dockerfile.npu"] == [
        "core_v0.13.0"
    ]
    extracted.clear()
    assert run(capsys, cache, *REFS, "--build-arg", "MEGATRON_TAG=core_v0.13.0")[0] == 0
    assert extracted == {}


def test_a_changed_max_file_size_extracts_again(
    tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *REFS)[0] == 0
    extracted.clear()
    assert run(capsys, cache, *REFS, "--max-file-size", "5000")[0] == 0
    assert extracted == dict.fromkeys(EVERY_FILE, 1)


def test_a_changed_config_extracts_again(
    tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *SCAN)[0] == 1
    extracted.clear()
    (tree / ".reflint.yaml").write_text("ignore: [RL015]\n", encoding="utf-8")
    assert run(capsys, cache, *SCAN)[0] == 1
    assert extracted == dict.fromkeys(EVERY_FILE, 1)
    extracted.clear()
    assert run(capsys, cache, *SCAN)[0] == 1
    assert extracted == {}
    (tree / ".reflint.yaml").write_text("ignore: [RL015, RL002]\n", encoding="utf-8")
    assert run(capsys, cache, *SCAN)[0] == 1
    assert extracted == dict.fromkeys(EVERY_FILE, 1)


def test_another_build_of_reflint_extracts_again(
    tree: Path,
    tmp_path: Path,
    extracted: Counter[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *REFS)[0] == 0
    extracted.clear()
    monkeypatch.setattr(ascend_reflint.extraction_cache, "_CODE_DIGEST", "another build of reflint")
    assert run(capsys, cache, *REFS)[0] == 0
    assert extracted == dict.fromkeys(EVERY_FILE, 1)


def test_the_code_digest_covers_every_file_of_the_package(tmp_path: Path) -> None:
    package = tmp_path / "ascend_reflint"
    shutil.copytree(Path(ascend_reflint.extraction_cache.__file__).parent, package)
    digest = ascend_reflint.extraction_cache.package_digest
    first = digest(str(package), "1.0")
    assert digest(str(package), "1.0") == first
    assert digest(str(package), "1.1") != first  # another version
    shell = package / "extract" / "shell" / "walker.py"
    shell.write_text(shell.read_text(encoding="utf-8") + "# an edit\n", encoding="utf-8")
    second = digest(str(package), "1.0")
    assert second != first
    (package / "extract" / "new_kind.py").write_text("", encoding="utf-8")
    third = digest(str(package), "1.0")
    assert third != second
    # Bytecode is not code: importing the package writes it.
    (package / "__pycache__").mkdir(exist_ok=True)
    (package / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert digest(str(package), "1.0") == third


def _corrupt_entries(cache: Path, how: str) -> None:
    """Spoil every entry of the extraction cache in the way ``how`` names."""
    files = entries(cache)
    texts = [path.read_text(encoding="utf-8") for path in files]
    for index, (path, text) in enumerate(zip(files, texts, strict=True)):
        document = json.loads(text)
        if how == "truncated":
            path.write_text(text[: len(text) // 2], encoding="utf-8")
        elif how == "garbage":
            path.write_bytes(b"\xff\xfe not json at all")
        elif how == "deeply nested":
            path.write_text("[" * 200_000, encoding="utf-8")
        elif how == "another format":
            path.write_text(json.dumps({**document, "format": 99}), encoding="utf-8")
        elif how == "another file's entry":
            path.write_text(texts[(index + 1) % len(texts)], encoding="utf-8")
        elif how == "the path of another file":  # the key kept: the file's key holds its own path
            other = json.loads(texts[(index + 1) % len(texts)])["file"]
            document["file"].update(path=other["path"], abspath=other["abspath"], kind=other["kind"])
            path.write_text(json.dumps(document), encoding="utf-8")
        elif how == "a NUL byte for the file's path":
            document["file"]["abspath"] = "\0"
            path.write_text(json.dumps(document), encoding="utf-8")
        elif how == "a field of the wrong type":
            document["file"]["pins"] = "not a list"
            path.write_text(json.dumps(document), encoding="utf-8")
        elif how == "an unknown field":
            document["file"]["planted"] = "value"
            path.write_text(json.dumps(document), encoding="utf-8")
        elif how == "a symbolic link":
            elsewhere = cache.parent / f"planted-{index}.json"
            elsewhere.write_text(text, encoding="utf-8")
            path.unlink()
            path.symlink_to(elsewhere)
        elif how == "a FIFO":
            path.unlink()
            os.mkfifo(path)
        else:
            raise AssertionError(how)


@pytest.mark.parametrize(
    "how",
    [
        "truncated",
        "garbage",
        "deeply nested",
        "another format",
        "another file's entry",
        "the path of another file",
        "a NUL byte for the file's path",
        "a field of the wrong type",
        "an unknown field",
        "a symbolic link",
        "a FIFO",
    ],
)
def test_a_spoilt_entry_is_ignored_and_replaced(
    how: str, tree: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    expected = run(capsys, cache, *SCAN)
    assert expected[0] == 1
    _corrupt_entries(cache, how)
    extracted.clear()
    assert run(capsys, cache, *SCAN) == expected
    assert extracted == dict.fromkeys(EVERY_FILE, 1)
    extracted.clear()
    assert run(capsys, cache, *SCAN) == expected
    assert extracted == {}


def test_an_oversized_entry_is_ignored(
    tree: Path,
    tmp_path: Path,
    extracted: Counter[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = tmp_path / "cache"
    expected = run(capsys, cache, *SCAN)
    assert expected[0] == 1
    sizes = {path.stat().st_size for path in entries(cache)}
    # Entries that read as too large: each is over the limit, which is lowered rather than each made
    # 32 MiB larger.
    monkeypatch.setattr(ascend_reflint.extraction_cache, "ENTRY_MAX_BYTES", min(sizes) - 1)
    extracted.clear()
    assert run(capsys, cache, *SCAN) == expected
    assert extracted == dict.fromkeys(EVERY_FILE, 1)


def test_an_entry_that_cannot_be_written_is_a_notice(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    expected_code, expected_out, _ = run(capsys, cache, *SCAN, "--no-cache")
    cache.mkdir()
    (cache / "extract").write_text("a file where the cache's folder goes", encoding="utf-8")
    code, out, err = run(capsys, cache, *SCAN)
    notice = f"cannot write the extraction cache in {cache}: Not a directory"
    # The same scan, and the notice (about no file) in the JSON too.
    expected = json.loads(expected_out)
    expected["notices"].append({"path": None, "message": notice})
    assert (code, json.loads(out)) == (expected_code, expected)
    assert code == 1
    assert err.splitlines() == [
        ".github/workflows/broken.yml:5:14: error: malformed YAML: '[' is never closed: at line 6, column 1, "
        "did not find expected node content",
        f"reflint: notice: cannot write the extraction cache in {cache}: Not a directory",
        "reflint: no remote could be checked: 10 pins unchecked",
    ]


def test_two_processes_on_one_cache_agree(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    command = [sys.executable, "-X", "importtime", "-m", "ascend_reflint", *SCAN, "--cache-dir", str(cache)]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    running = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120) for process in running]
    third = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    alone = subprocess.run([*command, "--no-cache"], capture_output=True, text=True, env=env, check=False)
    assert outputs[0][0] == outputs[1][0] == third.stdout == alone.stdout
    assert [process.returncode for process in (*running, third, alone)] == [1] * 4
    assert [len(entries(cache)), list(cache.rglob("*.tmp"))] == [len(EVERY_FILE), []]
    # The third run read every file from the entries that the two wrote: it imported no extractor.
    assert "ascend_reflint.extract.dockerfile" in alone.stderr
    assert "ascend_reflint.extract." not in third.stderr


def test_an_extraction_that_holds_a_credential_is_not_written(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    token = "ghp_" + "a1b2c3" * 6
    (tree / "scripts/private.sh").write_text(
        f"#!/bin/sh\ngit clone --branch v1 https://x-access-token:{token}@github.com/o/private.git\n",
        encoding="utf-8",
    )
    assert run(capsys, cache, *REFS)[0] == 0
    assert len(entries(cache)) == len(EVERY_FILE)  # every file but the one with the token
    assert [path for path in entries(cache) if token in path.read_text(encoding="utf-8")] == []


def test_cache_clean_removes_every_cache_and_says_what_went(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *SCAN)[0] == 1
    (cache / "remotes").mkdir()
    (cache / "remotes" / "entry.json").write_text("{}", encoding="utf-8")
    (cache / "mine.txt").write_text("not reflint's", encoding="utf-8")
    # The disk usage, as du counts it: allocated blocks.
    size = sum(path.lstat().st_blocks * 512 for path in cache.rglob("*.json"))
    assert main(["cache", "clean", "--cache-dir", str(cache)]) == 0
    assert capsys.readouterr().out == (
        f"removed {len(EVERY_FILE)} extraction entries, 1 ref list, 0 failed lookups, 0 commit histories "
        f"and 1 read rule pack ({size / 1024 / 1024:.1f} MiB on disk) from {cache}\n"
    )
    assert [path.name for path in cache.iterdir()] == ["mine.txt"]
    assert main(["cache", "dir", "--cache-dir", str(cache)]) == 0
    assert capsys.readouterr().out == f"{cache}\n"


def test_a_warm_pre_commit_run_still_compares_the_whole_tree(
    tmp_path: Path,
    extracted: Counter[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cross-file rules see every file when the files come from the cache: RL004 compares the staged
    variant with the one that pre-commit did not pass."""
    clone = "FROM ubuntu\nRUN git clone --branch {} https://github.com/NVIDIA/Megatron-LM.git\n"
    for name, tag in (("Dockerfile.ascend_a2", "core_v0.12.1"), ("Dockerfile.ascend_a3", "core_v0.12.0")):
        (tmp_path / "project" / "docker").mkdir(parents=True, exist_ok=True)
        (tmp_path / "project" / "docker" / name).write_text(clone.format(tag), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    subprocess.run(["git", "init", "-q"], check=True)
    cache = tmp_path / "cache"
    staged = ("scan", "--offline", "--format", "json", "docker/Dockerfile.ascend_a2")
    cold = run(capsys, cache, *staged)
    extracted.clear()
    warm = run(capsys, cache, *staged)
    assert extracted == {}
    assert warm == cold
    assert warm[0] == 1
    assert [finding["code"] for finding in json.loads(warm[1])["findings"]].count("RL004") == 1


INVOKING = {
    "docker/Dockerfile": (
        "FROM ubuntu:22.04\n"
        "ARG VLLM_TAG=v0.9.0\n"
        "RUN git clone --depth 1 -b ${VLLM_TAG} https://github.com/vllm-project/vllm.git\n"
    ),
    "scripts/build.sh": "#!/bin/bash\ndocker build --build-arg VLLM_TAG=v0.9.1 -f docker/Dockerfile .\n",
    ".github/workflows/ci.yml": (
        "on: push\njobs:\n  call:\n    uses: ./.github/workflows/reusable.yml\n    with:\n      ref: v5\n"
    ),
    ".github/workflows/reusable.yml": (
        "on:\n"
        "  workflow_call:\n"
        "    inputs:\n"
        "      ref:\n"
        "        default: v4\n"
        "jobs:\n"
        "  r:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - run: git clone -b ${{ inputs.ref }} https://github.com/o/reused.git\n"
    ),
}


@pytest.fixture
def invoking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tree whose files give other files values: a script builds the Dockerfile with a build argument,
    a workflow calls a reusable workflow with an input; the working directory."""
    root = tmp_path / "project"
    for name, text in INVOKING.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    monkeypatch.chdir(root)
    return root


def test_what_invocations_give_is_extracted_once_and_then_read_from_the_cache(
    invoking: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    cold = [run(capsys, cache, *REFS), run(capsys, cache, *SCAN)]
    # each file once, and each invoked file once more per invocation, with the values given
    assert extracted == {
        ".github/workflows/ci.yml": 1,
        ".github/workflows/reusable.yml": 2,
        "docker/Dockerfile": 2,
        "scripts/build.sh": 1,
    }
    extracted.clear()
    warm = [run(capsys, cache, *REFS), run(capsys, cache, *SCAN)]
    assert extracted == {}
    fresh = [run(capsys, cache, *REFS, "--no-cache"), run(capsys, cache, *SCAN, "--no-cache")]
    assert cold == warm == fresh
    given = [
        (pin["path"], pin["ref"], [site["path"] for site in pin["call_sites"]])
        for pin in json.loads(warm[0][1])["pins"]
        if pin["call_sites"]
    ]
    assert given == [
        (".github/workflows/reusable.yml", "v5", [".github/workflows/ci.yml"]),
        ("docker/Dockerfile", "v0.9.1", ["scripts/build.sh"]),
    ]


def test_a_changed_value_given_extracts_the_invoked_file_again_and_replaces_its_entry(
    invoking: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    assert run(capsys, cache, *REFS)[0] == 0
    stored = len(entries(cache))
    extracted.clear()
    script = invoking / "scripts/build.sh"
    script.write_text(script.read_text(encoding="utf-8").replace("v0.9.1", "v0.9.2"), encoding="utf-8")
    code, out, _ = run(capsys, cache, *REFS)
    assert code == 0
    assert extracted == {"scripts/build.sh": 1, "docker/Dockerfile": 1}
    assert [pin["ref"] for pin in json.loads(out)["pins"] if pin["path"] == "docker/Dockerfile"] == [
        "v0.9.0",
        "v0.9.2",
    ]
    assert len(entries(cache)) == stored


def test_a_warm_pre_commit_run_reads_what_files_not_given_give_from_the_cache(
    invoking: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The script that builds the staged Dockerfile is read as context; the Dockerfile's extraction with
    the build argument it gives comes from the cache on the second run."""
    cache = tmp_path / "cache"
    staged = ("scan", "--offline", "--format", "json", "--select", "RL005,RL007", "docker/Dockerfile")
    cold = run(capsys, cache, *staged)
    assert extracted["docker/Dockerfile"] == 2
    extracted.clear()
    warm = run(capsys, cache, *staged)
    assert extracted == {}
    assert warm == cold == run(capsys, cache, *staged, "--no-cache")


#: Two submodules, one by a URL relative to the superproject's origin.
GITMODULES = (
    '[submodule "megatron"]\n\tpath = third_party/megatron\n\turl = https://github.com/NVIDIA/Megatron-LM.git\n'
    '[submodule "sibling"]\n\tpath = third_party/sibling\n\turl = ../sibling.git\n'
)
FIRST, SECOND = "1" * 40, "2" * 40


@pytest.fixture
def superproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A work tree whose index records a commit for each submodule, and an origin."""
    root = tmp_path / "project"
    root.mkdir()
    (root / ".gitmodules").write_text(GITMODULES)
    for command in (
        ["init", "-q"],
        ["remote", "add", "origin", "https://github.com/volcengine/verl.git"],
        ["update-index", "--add", "--cacheinfo", f"160000,{FIRST},third_party/megatron"],
        ["update-index", "--add", "--cacheinfo", f"160000,{FIRST},third_party/sibling"],
    ):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    monkeypatch.chdir(root)
    return root


def _submodule_pins(out: str) -> list[tuple[str, str | None]]:
    return [(pin["url"], pin["ref"]) for pin in json.loads(out)["pins"]]


def test_gitmodules_is_cached_while_the_index_and_the_config_stay_the_same(
    superproject: Path, tmp_path: Path, extracted: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    cold = run(capsys, cache, *REFS)
    assert _submodule_pins(cold[1]) == [
        ("https://github.com/NVIDIA/Megatron-LM.git", FIRST),
        ("https://github.com/volcengine/sibling.git", FIRST),
    ]
    assert run(capsys, cache, *REFS) == cold
    assert extracted == {".gitmodules": 1}  # the second run ran no git and parsed nothing
    # A new gitlink rewrites the index: extracted again, with the new commit.
    subprocess.run(
        ["git", "update-index", "--cacheinfo", f"160000,{SECOND},third_party/megatron"], check=True
    )
    assert _submodule_pins(run(capsys, cache, *REFS)[1])[0] == (
        "https://github.com/NVIDIA/Megatron-LM.git",
        SECOND,
    )
    # A new origin rewrites the config: the relative URL follows it.
    subprocess.run(["git", "remote", "set-url", "origin", "https://github.com/other/verl.git"], check=True)
    assert _submodule_pins(run(capsys, cache, *REFS)[1])[1] == ("https://github.com/other/sibling.git", FIRST)
    assert extracted == {".gitmodules": 3}


def test_gitmodules_is_not_cached_when_the_environment_points_git_elsewhere(
    superproject: Path,
    tmp_path: Path,
    extracted: Counter[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIT_INDEX_FILE", str(superproject / ".git" / "index"))
    cache = tmp_path / "cache"
    assert run(capsys, cache, *REFS) == run(capsys, cache, *REFS)
    assert extracted == {".gitmodules": 2}
    assert entries(cache) == []
