"""URLs that are local paths are never looked up (item 9), a URL with a space is refused (item 10), plain
transports are reported (RL016), a cache inside the scanned tree is warned about (item 10), and the summary
counts honestly what was checked (issue 10, "Exit codes that do not lie").

The attacks: ``../x/.git``, ``/etc``, ``file://`` and ``//host/share`` were given to ``git ls-remote``
(relative ones resolved against reflint's temporary folder), and the answer told whoever wrote the recipe
whether those paths exist on the machine running reflint, and a local repository's refs; a URL with a space
got no finding at all.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from expected import MEGATRON_RELEASE_BRANCH
from gitfixtures import FakeRemotes

from .support import git_recorder, json_output, run_reflint, write_tree

LOCAL = ["../x/.git", "/etc", "file:///etc/ssh", "//host/share/r", "./x", "~/src/r"]


def test_local_paths_are_reported_once_and_never_looked_up(tmp_path: Path, remotes: FakeRemotes) -> None:
    project = tmp_path / "work" / "project"
    lines = [f"RUN git clone --branch v1 {path} /opt/r{n}\n" for n, path in enumerate(LOCAL)]
    lines.append("RUN git clone --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git /opt/m\n")
    write_tree(project, {"Dockerfile": "FROM x\n" + "".join(lines)})
    recorder_env, calls = git_recorder(tmp_path)
    env = {**remotes.env(), **recorder_env}
    scan = ["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "--refresh"]

    without = run_reflint(scan, project, env)
    # Now ../x/.git is a real repository: what reflint says must not change.
    subprocess.run(["git", "init", "--quiet", str(tmp_path / "work" / "x")], check=True, timeout=60)
    with_repository = run_reflint(scan, project, env)

    assert without.stdout == with_repository.stdout
    assert [(run.returncode, run.stderr) for run in (without, with_repository)] == [(1, "")] * 2
    local = [(f["code"], f["line"], f["column"], f["message"]) for f in json_output(without)["findings"]]
    assert local == [
        *(
            (
                "RL017",
                line,
                lines[line - 2].index(path) + 1,
                f'"{path}" is a local path, a repository on the machine that builds: reflint does not look '
                'local paths up, so its ref "v1" was not checked',
            )
            for line, path in enumerate(LOCAL, start=2)
        ),
        ("RL002", 8, lines[6].index("core_r") + 1, MEGATRON_RELEASE_BRANCH),
    ]
    # Only the real URL reached git (rewritten to a local mirror by the user's insteadOf, as before).
    looked_up = [call["argv"][-1] for call in calls() if call["argv"][:1] == ["ls-remote"]]
    assert looked_up == ["https://github.com/NVIDIA/Megatron-LM.git"] * 2


def test_a_url_with_white_space_is_refused_with_the_reason(tmp_path: Path) -> None:
    write_tree(tmp_path, {"Dockerfile": 'FROM x\nRUN git clone "https://github.com/o/r .git"\n'})

    completed = run_reflint(["scan", "--format", "json", "--cache-dir", str(tmp_path / "cache")], tmp_path)

    assert [
        (f["code"], f["line"], f["column"], f["message"]) for f in json_output(completed)["findings"]
    ] == [
        (
            "RL011",
            2,
            16,
            'URL "https://github.com/o/r .git" was refused and never given to git: it holds white space, '
            "which no git URL does (a stray space or a line break inside quotes?); use an https://, ssh:// "
            "or git@host:owner/name URL",
        )
    ]
    assert completed.returncode == 1


def test_plain_transports_are_warned_about_except_on_loopback(tmp_path: Path, closed_port: int) -> None:
    urls = [
        "http://mirror.example.com/o/r.git",
        "git://github.com/o/r.git",
        "GIT://example.org/o/r",
        f"http://127.0.0.1:{closed_port}/o/r.git",
        "http://localhost/o/r.git",
        "https://mirror.example.com/o/r.git",
    ]
    lines = [f"RUN pip install git+{url}@v1\n" for url in urls]
    write_tree(tmp_path, {"Dockerfile": "FROM x\n" + "".join(lines)})
    # Every host goes to a closed loopback port: nothing leaves the machine.
    closed = f"http://127.0.0.1:{closed_port}/"
    env = {
        "GIT_CONFIG_COUNT": "4",
        **{f"GIT_CONFIG_KEY_{n}": f"url.{closed}.insteadOf" for n in range(4)},
        "GIT_CONFIG_VALUE_0": "http://",
        "GIT_CONFIG_VALUE_1": "https://",
        "GIT_CONFIG_VALUE_2": "git://",
        "GIT_CONFIG_VALUE_3": "GIT://",
    }

    completed = run_reflint(
        ["scan", "--format", "json", "--select", "RL016", "--cache-dir", str(tmp_path / "c")], tmp_path, env
    )

    why = {
        "http": "plain HTTP, which anyone on the network path can read and answer in the server's place",
        "git": "git's own protocol, which has no encryption and no authentication of the server",
    }
    expected = [
        (2, urls[0], why["http"], ""),
        (3, urls[1], why["git"], "; github.com stopped serving git:// in 2022"),
        (4, urls[2], why["git"], ""),
    ]
    assert [
        (f["code"], f["line"], f["column"], f["message"]) for f in json_output(completed)["findings"]
    ] == [
        (
            "RL016",
            line,
            lines[line - 2].index(url) + 1,
            f'URL "{url}" fetches over {reason}, so the build may get other code than the pin names{gone}; '
            "use https://",
        )
        for line, url, reason, gone in expected
    ]


def test_a_cache_inside_the_scanned_tree_is_warned_about(tmp_path: Path, remotes: FakeRemotes) -> None:
    project = tmp_path / "project"
    pin = "RUN git clone --branch core_v0.18.0 https://github.com/NVIDIA/Megatron-LM.git\n"
    write_tree(project, {"Dockerfile": "FROM x\n" + pin})

    # The first scan writes the cache; the second answers from it (as from a committed one).
    first = run_reflint(["scan", "--cache-dir", "ci/.reflint-cache"], project, remotes.env())
    inside = run_reflint(["scan", "--cache-dir", "ci/.reflint-cache"], project, remotes.env())
    run_reflint(["scan", "--cache-dir", str(tmp_path / "cache")], project, remotes.env())
    outside = run_reflint(["scan", "--cache-dir", str(tmp_path / "cache")], project, remotes.env())

    cache = project.resolve() / "ci" / ".reflint-cache"
    assert inside.stderr == (
        f"reflint: warning: answers came from the cache directory {cache}, which is inside the scanned "
        "tree: a cache committed there can vouch for refs that do not exist; keep it outside (--cache-dir)\n"
    )
    finding = (
        'Dockerfile:2:24: RL024 [info] a newer release of "core_v0.18.0" exists on '
        'github.com/nvidia/megatron-lm: "core_v0.18.2"'
    )
    summary = (
        "0 errors, 0 warnings, 1 info in 1 of 1 file (1 pin, 1 remote: 1 checked ({} cached), 0 not checked)"
    )
    assert [run.stdout.splitlines() for run in (first, inside, outside)] == [
        [finding, "", summary.format(cached), "1 fixable with --fix --unsafe-fixes"] for cached in (0, 1, 1)
    ]
    assert [(run.returncode, run.stderr) for run in (first, outside)] == [(0, "")] * 2
    assert inside.returncode == 0


def test_the_summary_counts_remotes_checked_cached_and_not_checked(
    tmp_path: Path, remotes: FakeRemotes, closed_port: int
) -> None:
    lines = [
        "RUN git clone --branch core_v0.18.0 https://github.com/NVIDIA/Megatron-LM.git /a\n",
        "RUN git clone --branch v4 https://github.com/actions/checkout /b\n",
        f"RUN git clone --branch v1 https://127.0.0.1:{closed_port}/o/r.git /c\n",
    ]
    write_tree(tmp_path / "project", {"Dockerfile": "FROM x\n" + "".join(lines)})
    scan = ["scan", "--cache-dir", str(tmp_path / "cache"), "--select", "RL001"]

    cold = run_reflint(scan, tmp_path / "project", remotes.env())
    warm = run_reflint(scan, tmp_path / "project", remotes.env())

    assert cold.stdout.splitlines()[-1] == (
        "0 errors, 0 warnings, 0 info in 0 of 1 file (3 pins, 3 remotes: 2 checked (0 cached), 1 not checked)"
    )
    # The closed port's failure is kept a minute: the warm scan says that it answered from it.
    assert warm.stdout.splitlines()[-1] == (
        "0 errors, 0 warnings, 0 info in 0 of 1 file (3 pins, 3 remotes: 2 checked (2 cached), 1 not "
        "checked; 1 cached failure, --refresh asks again)"
    )
    # Some remotes answered: the one that did not is a warning (RL010, not selected here), and exit 0.
    assert [(run.returncode, run.stderr) for run in (cold, warm)] == [(0, "")] * 2
