"""Local bare git repositories that answer ``git ls-remote`` like real upstreams, for tests.

Tests never reach the internet. They build small bare repositories from ``ls-remote``-format ref lists
(``tests/data/remotes/HOST/OWNER/NAME.refs``, see the README there) and point the real URLs at them with
git's ``url.<base>.insteadOf``, set through ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``
(git-config(1), "ENVIRONMENT"). Any code that runs git (reflint's lookup, a test's own ``git``) then reads
the local copy when asked for ``https://github.com/NVIDIA/Megatron-LM.git``.

Typical use with pytest::

    from gitfixtures import build_remotes, set_env

    @pytest.fixture(scope="session")
    def remotes(tmp_path_factory):
        return build_remotes(tmp_path_factory.mktemp("remotes"))

    def test_something(remotes, monkeypatch):
        set_env(monkeypatch, remotes.env())
        megatron = remotes["github.com/NVIDIA/Megatron-LM"]
        megatron.branches["core_r0.18.0"]  # the local commit id that ls-remote will show for that branch

What a built repository holds:

- one empty root commit per distinct upstream *commit* id (message ``upstream <id>``, fixed author, date
  and committer), so refs that share a commit upstream share one here; the ids differ from upstream's
  (:attr:`FakeRemote.commit_of` maps them) but are the same on every run and machine;
- ``refs/heads/*`` and ``refs/tags/*`` as listed; a tag followed by a ``^{}`` line becomes an annotated tag
  object (so ``ls-remote`` prints the ``^{}`` line too), any other tag is lightweight;
- ``HEAD`` pointing at the branch whose id is the listed ``HEAD`` id (``main`` or ``master`` first);
- an alias with the owner and name lower-cased (a symlink), because GitHub ignores case there and the
  file system does not;
- ``uploadpack.allowFilter``, as on GitHub, so that reflint's treeless history fetches are served.

The environment from :func:`insteadof_env` also sets ``GIT_CONFIG_GLOBAL`` to the null device and
``GIT_CONFIG_NOSYSTEM=1``, so the developer's own git configuration cannot change what tests see.

Importing: this module lives in ``tests/``; test packages import it as ``gitfixtures`` (``tests/`` is on
``sys.path`` when the test folder has an ``__init__.py`` or pytest's ``pythonpath`` names ``tests``).
It must not read anything outside ``tests/`` at run time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

#: The ref lists shipped with the tests: ``DATA_REMOTES/HOST/OWNER/NAME.refs``.
DATA_REMOTES = Path(__file__).resolve().parent / "data" / "remotes"

_PEELED = "^{}"
_IDENTITY = "Fake Upstream <fake@example.invalid> 1700000000 +0000"
_ISOLATION = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


class _MonkeyPatch(Protocol):
    def setenv(self, name: str, value: str, prepend: str | None = None) -> None: ...


@dataclass(frozen=True)
class FakeRemote:
    """One built repository and what ``git ls-remote --heads --tags`` will say about it.

    Attributes:
        name: ``HOST/OWNER/NAME`` as in the data folder (``"github.com/NVIDIA/Megatron-LM"``).
        path: the bare repository (``ROOT/HOST/OWNER/NAME.git``).
        upstream: the ``(object id, refname)`` lines of the ``.refs`` list, in file order.
        commit_of: upstream commit id → the local commit id that stands for it.
    """

    name: str
    path: Path
    upstream: tuple[tuple[str, str], ...]
    commit_of: Mapping[str, str]

    @property
    def branches(self) -> dict[str, str]:
        """Branch name (no ``refs/heads/``) → local commit id."""
        return {
            ref[len("refs/heads/") :]: self.commit_of[upstream_id]
            for ref, upstream_id in _commit_per_ref(self.upstream).items()
            if ref.startswith("refs/heads/")
        }

    @property
    def tags(self) -> dict[str, str]:
        """Tag name (no ``refs/tags/``) → local commit id (for an annotated tag, the commit it points to)."""
        return {
            ref[len("refs/tags/") :]: self.commit_of[upstream_id]
            for ref, upstream_id in _commit_per_ref(self.upstream).items()
            if ref.startswith("refs/tags/")
        }


@dataclass(frozen=True)
class FakeRemotes:
    """Every repository built under one root.

    Attributes:
        root: the folder holding ``HOST/OWNER/NAME.git``.
        remotes: ``HOST/OWNER/NAME`` → the repository.
    """

    root: Path
    remotes: Mapping[str, FakeRemote]

    def __getitem__(self, name: str) -> FakeRemote:
        return self.remotes[name]

    def env(self, extra: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
        """:func:`insteadof_env` for this root; ``extra`` config pairs are added after the rewrites."""
        return insteadof_env(self.root, extra)


def read_refs(path: Path) -> tuple[tuple[str, str], ...]:
    """Read an ``ls-remote``-format file: ``(object id, refname)`` per ``<id><TAB><refname>`` line.

    Raises:
        ValueError: a line that is not ``<id><TAB><refname>``.
    """
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        object_id, tab, refname = line.partition("\t")
        if not tab or not object_id or not refname:
            raise ValueError(f"{path}:{number}: expected '<id><TAB><refname>', got {line!r}")
        lines.append((object_id, refname))
    return tuple(lines)


def build_repo(repo: Path, upstream: Sequence[tuple[str, str]], name: str = "") -> FakeRemote:
    """Build the bare repository ``repo`` from ``upstream`` (``(id, refname)`` lines as ``ls-remote`` prints).

    Args:
        repo: where to create it; must not exist.
        upstream: ``HEAD``, ``refs/heads/*``, ``refs/tags/*`` and ``refs/tags/*^{}`` lines; others are
            ignored.
        name: the name to record in the result.

    Returns:
        The repository, with the local id of each upstream commit.

    Raises:
        subprocess.CalledProcessError: a git command failed.
        AssertionError: the built refs differ from the ones asked for (a bug in this module).
    """
    upstream = tuple(upstream)
    commit_per_ref = _commit_per_ref(upstream)
    annotated = {ref for _, ref in upstream if ref.endswith(_PEELED)}
    tag_object_of = {ref: object_id for object_id, ref in upstream if f"{ref}{_PEELED}" in annotated}
    commits = sorted(set(commit_per_ref.values()))
    marks = {commit: number for number, commit in enumerate(commits, start=1)}

    repo.parent.mkdir(parents=True, exist_ok=True)
    _git("init", "--quiet", "--bare", "--object-format=sha1", str(repo))
    _git("-C", str(repo), "config", "uploadpack.allowFilter", "true")  # as GitHub: treeless fetches work
    stream: list[str] = []
    for commit in commits:
        message = f"upstream {commit}\n"
        stream.append(
            f"reset refs/gitfixtures/build\ncommit refs/gitfixtures/build\nmark :{marks[commit]}\n"
            f"committer {_IDENTITY}\ndata {len(message)}\n{message}\n"
        )
    for ref, commit in sorted(commit_per_ref.items()):
        if ref in tag_object_of:
            message = f"upstream tag {tag_object_of[ref]}\n"
            stream.append(
                f"tag {ref[len('refs/tags/') :]}\nfrom :{marks[commit]}\ntagger {_IDENTITY}\n"
                f"data {len(message)}\n{message}\n"
            )
        elif ref.startswith(("refs/heads/", "refs/tags/")):
            stream.append(f"reset {ref}\nfrom :{marks[commit]}\n\n")
    marks_file = repo / "gitfixtures-marks"
    _git("-C", str(repo), "fast-import", "--quiet", f"--export-marks={marks_file}", stdin="".join(stream))
    _git("-C", str(repo), "update-ref", "-d", "refs/gitfixtures/build")
    local_of_mark = dict(line.split(" ") for line in marks_file.read_text().splitlines())
    marks_file.unlink()
    commit_of = {commit: local_of_mark[f":{number}"] for commit, number in marks.items()}
    _point_head(repo, upstream)
    remote = FakeRemote(name=name, path=repo, upstream=upstream, commit_of=commit_of)
    _check_refs(remote)
    return remote


def build_remotes(out: Path, refs_root: Path = DATA_REMOTES) -> FakeRemotes:
    """Build ``out/HOST/OWNER/NAME.git`` and its lower-case alias for each ``refs_root/HOST/OWNER/NAME.refs``.

    Args:
        out: an empty or missing folder.
        refs_root: where the ``.refs`` lists are (default: the ones shipped in ``tests/data/remotes``).

    Returns:
        The built repositories.
    """
    remotes = {}
    for refs_file in sorted(refs_root.rglob("*.refs")):
        name = refs_file.relative_to(refs_root).with_suffix("").as_posix()
        repo = out / f"{name}.git"
        remotes[name] = build_repo(repo, read_refs(refs_file), name=name)
        _link_lower_case(out, name, repo)
    return FakeRemotes(root=out, remotes=remotes)


def git_config_env(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` variables for config ``pairs``.

    Args:
        pairs: ``(key, value)`` such as ``("url./srv/github.com/.insteadOf", "https://github.com/")``.

    Returns:
        Variable name → value.
    """
    env: dict[str, str] = {}
    count = 0
    for count, (key, value) in enumerate(pairs, start=1):
        env[f"GIT_CONFIG_KEY_{count - 1}"] = key
        env[f"GIT_CONFIG_VALUE_{count - 1}"] = value
    env["GIT_CONFIG_COUNT"] = str(count)
    return env


def insteadof_env(root: Path, extra: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """Environment variables that send ``https://HOST/``, ``http://HOST/``, ``git@HOST:`` and
    ``ssh://git@HOST/`` to ``root/HOST/`` for every ``HOST`` folder under ``root``, and that hide the
    developer's global and system git configuration.

    Args:
        root: a folder of ``HOST/OWNER/NAME.git`` repositories (see :func:`build_remotes`).
        extra: more git config ``(key, value)`` pairs (another ``insteadOf``, ``core.sshCommand`` …).

    Returns:
        Variable name → value; apply with :func:`set_env` or pass to ``subprocess`` as ``env``.
    """
    pairs = []
    for host in sorted(path.name for path in root.iterdir() if path.is_dir()):
        base = f"{(root / host).resolve()}/"
        for prefix in (f"https://{host}/", f"http://{host}/", f"git@{host}:", f"ssh://git@{host}/"):
            pairs.append((f"url.{base}.insteadOf", prefix))
    pairs.extend(extra)
    return {**git_config_env(pairs), **_ISOLATION}


def set_env(monkeypatch: _MonkeyPatch, env: Mapping[str, str]) -> None:
    """Set every variable of ``env`` through pytest's ``monkeypatch`` (undone when the test ends)."""
    for key, value in env.items():
        monkeypatch.setenv(key, value)


def _commit_per_ref(upstream: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Refname → the upstream commit id it names (the ``^{}`` id for annotated tags); ``HEAD`` excluded."""
    refs: dict[str, str] = {}
    for object_id, ref in upstream:
        if ref.endswith(_PEELED):
            refs[ref[: -len(_PEELED)]] = object_id
        elif ref.startswith(("refs/heads/", "refs/tags/")):
            refs.setdefault(ref, object_id)
    return refs


def _point_head(repo: Path, upstream: Sequence[tuple[str, str]]) -> None:
    head = next((object_id for object_id, ref in upstream if ref == "HEAD"), None)
    candidates = [ref for object_id, ref in upstream if ref.startswith("refs/heads/") and object_id == head]
    preferred = [ref for ref in ("refs/heads/main", "refs/heads/master") if ref in candidates]
    if preferred or candidates:
        _git("-C", str(repo), "symbolic-ref", "HEAD", (preferred or candidates)[0])


def _check_refs(remote: FakeRemote) -> None:
    listed = _git(
        "-C", str(remote.path), "for-each-ref", "--format=%(refname) %(*objectname) %(objectname)"
    ).splitlines()
    built = {}
    for line in listed:
        ref, peeled, object_id = line.split(" ")
        built[ref] = peeled or object_id
    expected = {f"refs/heads/{name}": commit for name, commit in remote.branches.items()}
    expected.update({f"refs/tags/{name}": commit for name, commit in remote.tags.items()})
    assert built == expected, f"{remote.path}: built {built}, expected {expected}"


def _link_lower_case(out: Path, name: str, repo: Path) -> None:
    alias = out / f"{name.lower()}.git"
    if alias == repo or alias.exists():
        return
    alias.parent.mkdir(parents=True, exist_ok=True)
    alias.symlink_to(repo.resolve(), target_is_directory=True)


def _git(*args: str, stdin: str | None = None) -> str:
    git = shutil.which("git")
    assert git is not None, "git is needed to build test repositories"
    completed = subprocess.run(
        [git, *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **_ISOLATION, "LC_ALL": "C"},
    )
    return completed.stdout
