"""A scan naming a few files (pre-commit) reads, of the rest of the work tree, only the files that the
cross-file rules compare them with, found through the tree index; it reports what a scan reading every
file reports, whatever was edited, added or removed since the index was written.

The files are dated a minute back (os.utime): the index never trusts a file modified less than two seconds
before it was stat'ed ("racy" files, as git's index), so files written by the test a moment ago would be
read every time and the index would never be used.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

#: The ``scan`` fixture of ``conftest.py``: ``scan(*args)`` → (exit code, stdout lines, stderr lines).
Scan = Callable[..., tuple[int, list[str], list[str]]]
CLONE = "RUN git clone --depth 1 --branch {} https://github.com/vllm-project/vllm.git\n"
OLD_A2, OLD_A3 = "docker/ascend/Dockerfile.ascend_8.2_a2", "docker/ascend/Dockerfile.ascend_8.2_a3"
NEW_A2, NEW_A3 = "docker/ascend/Dockerfile.ascend_8.3_a2", "docker/ascend/Dockerfile.ascend_8.3_a3"
INSTALL = "scripts/install_npu.sh"
TOOLS = "tools/setup.sh"
VLLM = "github.com/vllm-project/vllm"
#: Offline, the rules that compare files (the others would report every pin as not looked up).
CROSS = ("--offline", "--select", "RL004,RL005,RL006")
#: A minute back: older than the index's two seconds of doubt.
AGED = time.time() - 60


def _write(root: Path, path: str, text: str, when: float = AGED) -> None:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    os.utime(target, (when, when))


def _install(ref: str) -> str:
    return f"#!/bin/bash\ngit clone --depth 1 --branch {ref} https://github.com/vllm-project/vllm.git\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """verl's shape: two older Ascend images at vllm v0.9.1, two newer ones and the NPU install script at
    v0.11.0 (one drift family, 'ascend'), and a script of another folder at yet another ref."""
    root = tmp_path / "project"
    for path, ref in ((OLD_A2, "v0.9.1"), (OLD_A3, "v0.9.1"), (NEW_A2, "v0.11.0"), (NEW_A3, "v0.11.0")):
        _write(root, path, "FROM ubuntu:22.04\n" + CLONE.format(ref))
    _write(root, INSTALL, _install("v0.11.0"))
    _write(root, TOOLS, _install("v0.8.5"))
    _write(
        root,
        "tools/Dockerfile",
        "FROM ubuntu:22.04\nRUN pip install git+https://github.com/NVIDIA/apex.git@24.04.01\n",
    )
    monkeypatch.chdir(root)
    return root


def _context_line(stderr: list[str]) -> str:
    return next(line for line in stderr if "context:" in line)


def _findings(scan: Scan, *args: str) -> tuple[int, list[str]]:
    """Exit code and stdout of a scan, and check that it equals the scan that reads every file."""
    code, out, _ = scan(*CROSS, *args)
    assert scan(*CROSS, "--no-cache", *args)[:2] == (code, out)
    return code, out


MINORITY = [
    f'{OLD_A3}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and in {OLD_A2}, but 3 other pins '
    f'of drift family \'ascend\' are at "v0.11.0": {NEW_A2}, {NEW_A3}, {INSTALL}; pin "v0.11.0" as they do '
    "(or list the remote under drift-allowed-remotes)",
    f'{OLD_A2}:2:34: note: {VLLM} is pinned at "v0.9.1" here too',
    f'{NEW_A2}:2:34: note: {VLLM} is pinned at "v0.11.0" here',
    f'{NEW_A3}:2:34: note: {VLLM} is pinned at "v0.11.0" here',
    f'{INSTALL}:2:30: note: {VLLM} is pinned at "v0.11.0" here',
    "",
    "0 errors, 1 warning, 0 info in 1 of 1 file (1 pin, 1 remote: 0 checked (0 cached), 1 not checked; "
    "looked up only to tell tags, branches and commit ids apart (RL004, RL005))",
]
NOTHING = (
    "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 0 remotes: 0 checked (0 cached), 0 not checked)"
)


def test_the_index_reads_only_the_files_compared_and_reports_the_same(project: Path, scan: Scan) -> None:
    # The first scan has no index: it reads the 6 other files and writes one.
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 6 of 6 other files read (the tree index summarised 0)"
    # The next reads its variant and the family's files that pin vllm: not tools/, not the apex image.
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 4 of 6 other files read (the tree index summarised 6)"


def test_an_edit_to_a_file_not_named_is_seen(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    # The install script moves to the older ref, which is now the majority (3 against 2): it is read again
    # because its stat changed.
    _write(project, INSTALL, _install("v0.9.1"), AGED + 1)
    assert _findings(scan, OLD_A3) == (0, [NOTHING])


def test_an_edit_that_keeps_the_size_and_the_modification_time_is_seen(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    _write(project, INSTALL, _install("v0.10.0"))  # the size of v0.11.0's, the same (aged) modification time
    assert (project / INSTALL).stat().st_size == len(_install("v0.11.0"))
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    # Only its change time (which os.utime sets to now) tells: it is read again (the 4 and itself), and so
    # is the apex image: a file edited may build it with other values, and (the drift rules running alone)
    # it may pin vllm by commit id, which would have vllm looked up.
    assert _context_line(err) == "reflint: context: 5 of 6 other files read (the tree index summarised 5)"
    # 3 refs, 2 pins each at most: no majority, and the install script is named for the ref it now has.
    assert out[0] == (
        f'{OLD_A3}:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and in {OLD_A2}, but at "v0.10.0" '
        f"in {INSTALL}; the files of drift family 'ascend' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )
    assert (code, out) == _findings(scan, OLD_A3)


def test_a_file_that_starts_pinning_the_remote_is_read(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    _write(project, "docker/ascend/build_npu.sh", _install("v0.11.0"))
    _write(project, INSTALL, "#!/bin/bash\necho nothing pinned here any more\n", AGED + 2)
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert _context_line(err) == "reflint: context: 6 of 7 other files read (the tree index summarised 5)"
    assert "docker/ascend/build_npu.sh" in out[0]
    assert INSTALL not in out[0]
    assert (code, out) == _findings(scan, OLD_A3)


def test_a_file_modified_just_now_is_read_every_time(project: Path, scan: Scan) -> None:
    (project / "tools/Dockerfile").write_text("FROM ubuntu:22.04\n")  # now: racy
    scan(*CROSS, OLD_A3)
    _, _, err = scan(*CROSS, "--debug", OLD_A3)
    assert _context_line(err) == "reflint: context: 5 of 6 other files read (the tree index summarised 5)"


def test_a_dangling_link_does_not_keep_the_dockerfiles_from_the_index(project: Path, scan: Scan) -> None:
    # It is read every time (it has no stat to summarise), but it cannot run an image with other values:
    # the apex image, which pins no vllm, is not read.
    (project / "scripts" / "gone.sh").symlink_to("nowhere.sh")
    scan(*CROSS, OLD_A3)
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 5 of 7 other files read (the tree index summarised 6)"


def test_a_deleted_file_leaves_the_index(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    (project / NEW_A3).unlink()
    _, _, err = scan(*CROSS, "--debug", OLD_A3)
    # The apex image too: the file gone may have been built in its place.
    assert _context_line(err) == "reflint: context: 4 of 5 other files read (the tree index summarised 5)"
    # The files read for context; the named file never was.
    assert list(_index(project)["files"]) == [OLD_A2, NEW_A2, INSTALL, "tools/Dockerfile", TOOLS]


def _index(project: Path) -> dict[str, object]:
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    document = json.loads(path.read_text())
    assert isinstance(document, dict)
    return document


@pytest.mark.parametrize(
    "damage",
    [
        b"{not json",
        b'{"format": 1, "settings": "x", "files": {}}',
        b"[" * 100_000,
        b" " * (32 * 1024 * 1024 + 1),
    ],
    ids=["not JSON", "other settings", "nested too deep", "over 32 MiB"],
)
def test_a_damaged_index_counts_as_empty(project: Path, scan: Scan, damage: bytes) -> None:
    scan(*CROSS, OLD_A3)
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    path.write_bytes(damage)
    code, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert (code, out) == (0, MINORITY)
    assert _context_line(err) == "reflint: context: 6 of 6 other files read (the tree index summarised 0)"


def test_a_fifo_in_place_of_the_index_is_replaced(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    path.unlink()
    os.mkfifo(path)
    _, out, err = scan(*CROSS, "--debug", OLD_A3)  # read as empty (never opened), then replaced
    assert out == MINORITY
    assert _context_line(err) == "reflint: context: 6 of 6 other files read (the tree index summarised 0)"
    _, _, err = scan(*CROSS, "--debug", OLD_A3)
    assert _context_line(err) == "reflint: context: 4 of 6 other files read (the tree index summarised 6)"


def test_a_forged_summary_entry_is_ignored(project: Path, scan: Scan) -> None:
    scan(*CROSS, OLD_A3)
    (path,) = (project.parent / "cache" / "extract").glob("*/tree-index.json")
    document = json.loads(path.read_text())
    document["files"][INSTALL] = ["size", 0, 0, 0, None, False]
    path.write_text(json.dumps(document))
    _, out, err = scan(*CROSS, "--debug", OLD_A3)
    assert out == MINORITY
    assert _context_line(err) == "reflint: context: 5 of 6 other files read (the tree index summarised 5)"


def test_a_workflow_that_builds_a_named_dockerfile_is_read_for_its_values(project: Path, scan: Scan) -> None:
    _write(
        project,
        "docker/ascend/Dockerfile.ascend_9_a2",
        "FROM ubuntu:22.04\nARG VLLM_REF\n" + CLONE.format("${VLLM_REF}"),
    )
    _write(
        project,
        ".github/workflows/build.yml",
        "on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: docker/build-push-action@v6\n        with:\n"
        "          file: docker/ascend/Dockerfile.ascend_9_a2\n          build-args: VLLM_REF=v0.9.1\n",
    )
    scan(*CROSS, "docker/ascend/Dockerfile.ascend_9_a2")
    code, out, err = scan(*CROSS, "--debug", "docker/ascend/Dockerfile.ascend_9_a2")
    assert _context_line(err) == "reflint: context: 6 of 8 other files read (the tree index summarised 8)"
    # The workflow gives the ref: without it the pin would be unresolved, and compared with nothing.
    assert out[0] == (
        f'docker/ascend/Dockerfile.ascend_9_a2:3:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here and '
        f'in {OLD_A2}, {OLD_A3}, but at "v0.11.0" in {NEW_A2}, {NEW_A3}, {INSTALL}; the files of drift '
        "family 'ascend' should pin one ref (or list the remote under drift-allowed-remotes)"
    )
    assert (code, out) == _findings(scan, "docker/ascend/Dockerfile.ascend_9_a2")


def test_a_submodule_whose_origin_moves_onto_a_named_files_remote_is_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scan: Scan
) -> None:
    root = tmp_path / "project"
    _write(root, ".gitmodules", '[submodule "vllm"]\n\tpath = third_party/vllm\n\turl = ../vllm.git\n')
    _write(root, "Dockerfile", "FROM ubuntu:22.04\n" + CLONE.format("v0.9.1"))
    for command in (
        ["init", "-q"],
        ["remote", "add", "origin", "https://github.com/someone-else/verl.git"],
        ["update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},third_party/vllm"],
    ):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    monkeypatch.chdir(root)
    # The submodule is github.com/someone-else/vllm: nothing to compare the Dockerfile's pin with.
    assert _findings(scan, "Dockerfile") == (0, [NOTHING])
    # The origin moves: the same .gitmodules (same stat) now pins the Dockerfile's remote, at a commit.
    subprocess.run(
        ["git", "remote", "set-url", "origin", "https://github.com/vllm-project/verl.git"], check=True
    )
    code, out = _findings(scan, "Dockerfile")
    assert code == 0
    assert out[0] == (
        f'Dockerfile:2:34: RL005 [warning] {VLLM} is pinned at "v0.9.1" here, but at "{"1" * 40}" in '
        ".gitmodules; the files of folder '.' should pin one ref (or list the remote under "
        "drift-allowed-remotes)"
    )


def test_a_requirements_file_that_another_names_is_read_through_it_every_time(
    project: Path, scan: Scan
) -> None:
    # deps.in is no name that discovery takes: only the -r of requirements-npu.txt reads it. Its pin makes
    # the family's refs a tie (3 against 3), so the install script is out of step too.
    _write(project, "docker/ascend/requirements-npu.txt", "-r deps.in\n")
    _write(project, "docker/ascend/deps.in", "vllm @ git+https://github.com/vllm-project/vllm.git@v0.9.1\n")
    scan(*CROSS, INSTALL)
    code, out = _findings(scan, INSTALL)
    assert (code, out[0]) == (
        0,
        f'{INSTALL}:2:30: RL005 [warning] {VLLM} is pinned at "v0.11.0" here and in {NEW_A2}, {NEW_A3}, but '
        f"at \"v0.9.1\" in {OLD_A2}, {OLD_A3}, docker/ascend/deps.in; the files of drift family 'ascend' "
        "should pin one ref (or list the remote under drift-allowed-remotes)",
    )


GITLAB_CI = "include:\n  - project: group/templates\n    ref: v1.0\n    file: /ci.yml\n"
TEMPLATES = "gitlab.example.com/group/templates"


def test_a_gitlab_include_placed_on_the_origin_s_instance_is_seen(project: Path, scan: Scan) -> None:
    # The include names no host: its project is on the instance of the repository's origin, which the
    # file's stat does not show.
    _write(project, ".gitlab-ci.yml", GITLAB_CI)
    _write(project, "ci.sh", f"#!/bin/bash\ngit clone --branch v2.0 https://{TEMPLATES}.git\n")
    scan(*CROSS, "ci.sh")
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://gitlab.example.com/group/app.git\n'
    )
    code, out = _findings(scan, "ci.sh")
    assert (code, out[0]) == (
        0,
        f'ci.sh:2:20: RL005 [warning] {TEMPLATES} is pinned at "v2.0" here, but at "v1.0" in .gitlab-ci.yml; '
        "the files of folder '.' should pin one ref (or list the remote under drift-allowed-remotes)",
    )


IMAGE = "docker/app/Dockerfile"
#: An image whose remote comes from a build argument.
REPO_IMAGE = (
    "FROM ubuntu:22.04\nARG REPO=https://github.com/NVIDIA/apex.git\nRUN git clone --branch 24.04 ${REPO}\n"
)


def _builds(build_args: str) -> str:
    return (
        "on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: docker/build-push-action@v6\n        with:\n"
        f"          file: {IMAGE}\n          build-args: {build_args}\n"
    )


IMAGE_DRIFT = (
    f'docker/app/install.sh:2:30: RL005 [warning] {VLLM} is pinned at "v0.11.0" here, but at "24.04" in '
    f"{IMAGE}; the files of folder 'docker/app' should pin one ref (or list the remote under "
    "drift-allowed-remotes)"
)


def test_an_image_that_a_workflow_named_before_gives_a_remote_is_read(project: Path, scan: Scan) -> None:
    _write(project, IMAGE, REPO_IMAGE)
    _write(project, "docker/app/install.sh", _install("v0.11.0"))
    _write(project, ".github/workflows/image.yml", _builds(f"REPO=https://{VLLM}.git"))
    # A scan naming the workflow reads the image without the workflow's values (a file named gives none
    # to the files read for context).
    scan(*CROSS, ".github/workflows/image.yml")
    code, out = _findings(scan, "docker/app/install.sh")
    assert (code, out[0]) == (0, IMAGE_DRIFT)


def test_an_edit_to_the_values_a_workflow_gives_an_image_is_seen(project: Path, scan: Scan) -> None:
    _write(project, IMAGE, REPO_IMAGE)
    _write(project, "docker/app/install.sh", _install("v0.11.0"))
    _write(project, ".github/workflows/image.yml", _builds("OTHER=1"))
    scan(*CROSS, "docker/app/install.sh")
    _write(project, ".github/workflows/image.yml", _builds(f"REPO=https://{VLLM}.git"), AGED + 1)
    code, out = _findings(scan, "docker/app/install.sh")
    assert (code, out[0]) == (0, IMAGE_DRIFT)


APEX_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _apex(ref: str) -> str:
    return f"#!/bin/bash\ngit clone https://github.com/NVIDIA/apex.git && cd apex && git checkout {ref}\n"


def test_drift_rules_alone_look_up_only_remotes_of_the_files_named(project: Path, scan: Scan) -> None:
    # apex is pinned by commit and by tag in tools/ only: no finding on the file named can need its tags.
    _write(project, "tools/apex.sh", _apex(APEX_COMMIT))
    scan(*CROSS, OLD_A3)
    assert _findings(scan, OLD_A3) == (0, MINORITY)


def test_drift_rules_alone_look_up_a_remote_named_by_tag_that_a_file_not_read_pins_by_commit(
    project: Path, scan: Scan
) -> None:
    # Named: apex by tag. tools/apex.sh (another folder, not compared) pins it by commit: whether a tag is
    # that commit takes its ref list, which a scan reading every file asks for.
    _write(project, "tools/apex.sh", _apex(APEX_COMMIT))
    _write(project, "other/apex.sh", _apex("24.04.01"))
    scan(*CROSS, "other/apex.sh")
    summary = (
        "0 errors, 0 warnings, 0 info in 0 of 1 file (1 pin, 1 remote: 0 checked (0 cached), 1 not checked; "
        "looked up only to tell tags, branches and commit ids apart (RL004, RL005))"
    )
    assert _findings(scan, "other/apex.sh") == (0, [summary])


def test_a_build_is_given_to_the_dockerfile_it_names_first_even_when_that_one_is_not_read(
    project: Path, scan: Scan
) -> None:
    # `docker build -f docker/Dockerfile` in scripts/build.sh builds docker/Dockerfile from the project
    # root, or scripts/docker/Dockerfile from the script's folder: the first that exists. The first is not
    # compared with the script named, so it is not read; its build arguments still are not the second's.
    image = "FROM ubuntu:22.04\nARG REF=v0.11.0\n" + CLONE.format("${REF}")
    _write(project, "docker/Dockerfile", image)
    _write(project, "scripts/docker/Dockerfile", image)
    _write(project, "scripts/docker/install.sh", _install("v0.9.1"))
    build = "docker build -f docker/Dockerfile --build-arg REF=v0.9.1 .\n"
    _write(project, "scripts/build.sh", "#!/bin/bash\n" + build)
    scan(*CROSS, "scripts/docker/install.sh")
    code, out = _findings(scan, "scripts/docker/install.sh")
    assert (code, out[0]) == (
        0,
        f'scripts/docker/install.sh:2:30: RL005 [warning] {VLLM} is pinned at "v0.9.1" here, but at '
        "\"v0.11.0\" in scripts/docker/Dockerfile; the files of folder 'scripts/docker' should pin one ref "
        "(or list the remote under drift-allowed-remotes)",
    )


def test_a_named_image_that_a_workflow_gives_another_remote_is_compared_with_the_files_pinning_it(
    project: Path, scan: Scan
) -> None:
    # The image pins apex by its own default; the workflow that builds it gives vllm's URL, which the
    # install script pins: the index says the script pins no apex, but it must be read.
    _write(project, IMAGE, REPO_IMAGE)
    _write(project, "docker/app/install.sh", _install("v0.11.0"))
    _write(project, ".github/workflows/image.yml", _builds(f"REPO=https://{VLLM}.git"))
    scan(*CROSS, IMAGE)
    scan(*CROSS, IMAGE)  # the index summarises every other file now
    code, out = _findings(scan, IMAGE)
    assert (code, out[0]) == (
        0,
        f'{IMAGE}:3:24: RL005 [warning] {VLLM} is pinned at "24.04" here, but at "v0.11.0" in '
        "docker/app/install.sh; the files of folder 'docker/app' should pin one ref (or list the remote "
        "under drift-allowed-remotes)",
    )


def test_a_submodule_that_git_starts_to_track_is_seen(project: Path, scan: Scan) -> None:
    # .gitmodules pins a submodule at the commit that git's index records for its path: a gitlink added
    # later (`git submodule add`, a checkout) leaves the file's stat as it was.
    gitmodules = f'[submodule "vllm"]\n\tpath = third_party/vllm\n\turl = https://{VLLM}.git\n'
    _write(project, ".gitmodules", gitmodules)
    _write(project, "build.sh", _install("v0.11.0"))
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, env=env)
    scan(*CROSS, "build.sh")
    info = f"160000,{APEX_COMMIT},third_party/vllm"
    subprocess.run(["git", "update-index", "--add", "--cacheinfo", info], cwd=project, check=True, env=env)
    code, out = _findings(scan, "build.sh")
    assert (code, out[0]) == (
        0,
        f'build.sh:2:30: RL005 [warning] {VLLM} is pinned at "v0.11.0" here, but at "{APEX_COMMIT}" in '
        ".gitmodules; the files of folder '.' should pin one ref (or list the remote under "
        "drift-allowed-remotes)",
    )


def test_an_image_that_a_reusable_workflow_builds_with_its_caller_s_values_is_read_with_them(
    project: Path, scan: Scan
) -> None:
    # The reusable workflow builds the file its caller names: on its own, it builds nothing.
    _write(project, IMAGE, "FROM ubuntu:22.04\nARG REF=v0.11.0\n" + CLONE.format("${REF}"))
    _write(project, "docker/app/install.sh", _install("v0.9.1"))
    _write(
        project,
        ".github/workflows/reusable.yml",
        "on:\n  workflow_call:\n    inputs:\n      dockerfile:\n        type: string\njobs:\n  b:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n"
        "          file: ${{ inputs.dockerfile }}\n          build-args: REF=v0.9.1\n",
    )
    _write(
        project,
        ".github/workflows/caller.yml",
        "on: push\njobs:\n  call:\n    uses: ./.github/workflows/reusable.yml\n    with:\n"
        f"      dockerfile: {IMAGE}\n",
    )
    scan(*CROSS, "docker/app/install.sh")
    # The image pins vllm at v0.11.0 and, built by the caller, at v0.9.1 too: a tie no longer.
    assert _findings(scan, "docker/app/install.sh") == (0, [NOTHING])
