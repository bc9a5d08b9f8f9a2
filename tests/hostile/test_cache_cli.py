"""The ref cache under hostile conditions, through the command line: damaged entries, a cache folder that
cannot be written, and eight reflint processes sharing one cache folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from gitfixtures import FakeRemotes

from ascend_reflint.lookup.cache import RefCache, cache_key
from ascend_reflint.remote import lookup_key

from .support import HANG_GUARD_SECONDS, clean_env, json_output, record, run_reflint, write_tree

REMOTES = {
    "github.com/nvidia/megatron-lm": "NVIDIA/Megatron-LM",
    "github.com/ascend/mindspeed": "Ascend/MindSpeed",
    "github.com/vllm-project/vllm-ascend": "vllm-project/vllm-ascend",
    "github.com/sgl-project/sgl-kernel-npu": "sgl-project/sgl-kernel-npu",
    "github.com/actions/checkout": "actions/checkout",
}
#: The cache key of each remote's URL as the Dockerfile writes it (looked up without credentials).
KEYS = {
    remote: cache_key(lookup_key(f"https://github.com/{name}.git") or "", credentials=False)
    for remote, name in REMOTES.items()
}
DOCKERFILE = "FROM ubuntu:22.04\n" + "".join(
    f"RUN git clone --branch no-such-ref https://github.com/{name}.git /opt/{n}\n"
    for n, name in enumerate(REMOTES.values())
)


#: The finding on each clone of DOCKERFILE: (code, line, column, message).
FINDINGS = [
    (
        "RL001",
        line,
        24,
        f'ref "no-such-ref" is neither a branch nor a tag of {remote}, so `git clone --branch` fails; it has '
        f"{counts}",
    )
    for line, remote, counts in (
        (2, "github.com/nvidia/megatron-lm", "4 branches and 6 tags"),
        (3, "github.com/ascend/mindspeed", "6 branches and 2 tags"),
        (4, "github.com/vllm-project/vllm-ascend", "1 branch and 5 tags"),
        (5, "github.com/sgl-project/sgl-kernel-npu", "1 branch and 5 tags"),
        (6, "github.com/actions/checkout", "1 branch and 3 tags"),
    )
]


def _brief(document: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    return [(f["code"], f["line"], f["column"], f["message"]) for f in document["findings"]]


def _scan(project: Path, cache: Path, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    return run_reflint(["scan", "--format", "json", "--cache-dir", str(cache), *extra], project, env)


def _assert_every_entry_valid(cache: Path, remotes: FakeRemotes) -> None:
    for remote, name in REMOTES.items():
        refs = RefCache(cache).load(KEYS[remote], max_age=None)
        assert refs is not None, remote
        assert (refs.branches, refs.tags) == (
            remotes[f"github.com/{name}"].branches,
            remotes[f"github.com/{name}"].tags,
        )
    assert sorted(path.name for path in (cache / "remotes").iterdir()) == sorted(
        RefCache(cache).entry_path(key).name for key in KEYS.values()
    )


def test_damaged_entries_are_ignored_and_rewritten(tmp_path: Path, remotes: FakeRemotes) -> None:
    write_tree(tmp_path / "project", {"Dockerfile": DOCKERFILE})
    cache = tmp_path / "cache"
    env = remotes.env()
    first = json_output(_scan(tmp_path / "project", cache, env))
    entries = [RefCache(cache).entry_path(key) for key in KEYS.values()]
    damage = [
        entries[0].read_bytes()[: len(entries[0].read_bytes()) // 2],  # truncated
        b"\x00\xff garbage \x1b[31m",  # not JSON at all
        b"[" * 100_000,  # nested past the JSON decoder's stack
        b'{"format": 1, "remote": "github.com/someone/else", "fetched_at": 0, "branches": {}, "tags": {}}',
    ]
    for entry, content in zip(entries, damage, strict=False):
        entry.write_bytes(content)

    second = _scan(tmp_path / "project", cache, env)

    document = json_output(second)
    assert _brief(first) == _brief(document) == FINDINGS
    assert (document["summary"]["lookups"], document["summary"]["cached"]) == (4, 1)
    assert (second.returncode, second.stderr) == (1, "")
    _assert_every_entry_valid(cache, remotes)


def test_an_unwritable_cache_folder_is_a_notice_and_the_scan_goes_on(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    write_tree(tmp_path / "project", {"Dockerfile": DOCKERFILE})
    (tmp_path / "a-file").write_text("")
    cache = tmp_path / "a-file" / "cache"
    reference = json_output(_scan(tmp_path / "project", tmp_path / "cache", remotes.env()))

    completed = _scan(tmp_path / "project", cache, remotes.env())

    assert completed.returncode == 1  # the findings, not a failure
    assert json_output(completed)["findings"] == reference["findings"]
    assert completed.stderr == (
        f"reflint: notice: cannot write the extraction cache in {cache}: Not a directory\n"
        f"reflint: notice: cannot write the ref cache in {cache}: Not a directory\n"
    )


def test_eight_processes_sharing_one_cache_leave_every_entry_valid(
    tmp_path: Path, remotes: FakeRemotes
) -> None:
    write_tree(tmp_path / "project", {"Dockerfile": DOCKERFILE})
    cache = tmp_path / "cache"
    command = [sys.executable, "-m", "ascend_reflint", "scan", "--format", "json", "--cache-dir", str(cache)]
    env = clean_env(remotes.env())

    # --refresh: every process looks every remote up and writes every entry, all at about the same time.
    processes = [
        subprocess.Popen(
            [*command, "--refresh"],
            cwd=tmp_path / "project",
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    outputs = [process.communicate(timeout=HANG_GUARD_SECONDS) for process in processes]
    for process, (out, error) in zip(processes, outputs, strict=True):
        record(subprocess.CompletedProcess(process.args, process.returncode, out, error))

    statuses = [(process.returncode, error) for process, (_, error) in zip(processes, outputs, strict=True)]
    assert statuses == [(1, "")] * 8
    documents = [json.loads(out) for out, _ in outputs]
    assert [document["findings"] for document in documents[1:]] == [documents[0]["findings"]] * 7
    assert _brief(documents[0]) == FINDINGS
    _assert_every_entry_valid(cache, remotes)
    again = json_output(_scan(tmp_path / "project", cache, remotes.env()))
    assert (again["summary"]["lookups"], again["summary"]["cached"]) == (0, 5)
