"""One remote's commit graph in reflint's cache: a bare, treeless partial clone of its branches and tags.

Layout, under the cache directory: ``history/<sha256 of the lookup key>/`` (one per URL that pins fetch,
as :func:`ascend_reflint.remote.lookup_key` normalises it) holding

- ``repo.git``: a bare repository made by ``git init --bare --template=`` (no hooks, no samples) whose
  ``config`` reflint writes whole (:func:`repository_config`). Its refs are the remote's
  ``refs/heads/*`` and ``refs/tags/*`` as last fetched (``--prune`` drops those the remote dropped); its
  objects are commits and tag objects only (``--filter=tree:0``, gitrevisions(7) and
  git-rev-list(1) "--filter"), plus any commit fetched by id.
- ``state.json``: what :class:`GraphState` holds (the digest of the ref list the graph was fetched
  against and when, the verdicts already found, or the cap the history was found to exceed), written
  atomically.
- ``lock``: a :mod:`filelock` lock that one reflint process holds while it fetches or asks the graph.

The remote's URL is never stored: ``git fetch`` gets it as ``-c remote.reflint.url=URL`` (a named remote
is needed because git records partial-clone settings under the remote's name, git-fetch(1) "--filter",
and a URL-named remote would put the URL, credentials and all, into the config).

Git runs in the graph with ``--git-dir`` (no repository discovery) and, for everything but a fetch,
``-c protocol.allow=never``: a partial clone fetches a missing object lazily from its promisor remote
(git's Documentation/technical/partial-clone.txt), and a question about a commit the graph lacks must not
reach any transport. The questions themselves (``rev-parse --disambiguate``, ``rev-list``, ``describe``)
read commits only, which a treeless graph has.

A graph whose files are not as reflint left them (its ``config`` changed, hooks, ``alternates``, a
``commondir``, a symbolic link or a special file anywhere in it) is never run: a cache directory inside a
scanned repository could otherwise carry a config that makes ``git fetch`` run a command, or a link
through which git writes (``FETCH_HEAD``, ``refs/heads``, a loose object's folder) into a file elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ascend_reflint.digest import sha256
from ascend_reflint.model import CommitState, CommitVerdict, RemoteRefs

if TYPE_CHECKING:
    from ascend_reflint.lookup.git import GitRun, GitRunner

#: The entry format of ``state.json``; another format is ignored (and rewritten).
FORMAT = 1
HISTORY = "history"
#: The largest ``state.json`` read, in bytes.
MAX_STATE_BYTES = 4 * 1024 * 1024
#: The name of the remote inside the graph's config.
REMOTE_NAME = "reflint"
#: Refspecs of a history fetch: every branch and tag, forced, so that a force-push or a moved tag is seen.
REFSPECS = ("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
#: What the size watch of a history fetch says when it stops git.
_SIZE_CAP = "size cap"
#: The least memory a fetch may hold, whatever ``--max-history-size`` says, in bytes: git itself holds a
#: few MiB before any object arrives, so a smaller history cap (0.1 MiB) must stop the fetch by its size
#: watch, not by a memory kill that comes first or not depending on the machine's load.
MIN_FETCH_MEMORY = 64 * 1024 * 1024
#: Packs a graph may hold before :meth:`CommitGraph.compact` packs them into one.
MAX_PACKS = 32
#: Run with every git in the graph except a fetch: no transport at all, so no lazy fetch.
NO_TRANSPORT = ("-c", "protocol.allow=never")

_HEX = re.compile(r"[0-9a-f]+")


def repository_config(object_format: str) -> bytes:
    """The whole ``config`` of a graph repository, as reflint writes it.

    ``extensions.partialClone`` and ``remote.reflint.promisor`` make it a partial clone whose missing
    trees and blobs are expected (``git fetch --filter`` refuses to run without them); with them and the
    filter already recorded, ``git fetch`` leaves the file as it is. No automatic gc or maintenance: run
    after a fetch, ``gc --auto`` cost more than the fetch itself on Megatron-LM's history (0.4 s of 0.8 s),
    and could outlive reflint as a daemon; :meth:`CommitGraph.compact` packs the graph when fetches have
    left many packs. No commit-graph file either: writing one for 13,000 commits costs more than the
    queries it would speed up (about 80 ms without it).

    Args:
        object_format: ``"sha1"`` or ``"sha256"`` (gitrepository-layout(5), ``extensions.objectFormat``).
    """
    extensions = "\tpartialClone = reflint\n"
    if object_format != "sha1":
        extensions += f"\tobjectFormat = {object_format}\n"
    return (
        "[core]\n\trepositoryformatversion = 1\n\tbare = true\n\tlogAllRefUpdates = false\n"
        f"[extensions]\n{extensions}"
        f'[remote "{REMOTE_NAME}"]\n\tpromisor = true\n\tpartialCloneFilter = tree:0\n'
        "[fetch]\n\twriteCommitGraph = false\n"
        "[gc]\n\tauto = 0\n"
        "[maintenance]\n\tauto = false\n"
    ).encode("ascii")


def tips_digest(refs: RemoteRefs) -> str:
    """A digest of the remote's branches and tags (names and commit ids): 32 lower-case hex digits.

    The graph is current for a ref list when it was fetched against a list with the same digest.
    """
    lines = sorted(f"refs/heads/{name} {commit}" for name, commit in refs.branches.items())
    lines += sorted(f"refs/tags/{name} {commit}" for name, commit in refs.tags.items())
    return sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()[:32]


class GraphState:
    """What ``state.json`` records about a graph (a plain class: read on every scan with commit pins).

    Attributes:
        remote: the normalised remote.
        tips: :func:`tips_digest` of the ref list the graph was last fetched against ("" before any fetch).
        fetched_at: when, in seconds since the epoch.
        too_large: the size cap, in bytes, that the history was found to exceed (then there is no
            repository), else None.
        verdicts: pinned id → the verdict found against the graph at ``tips`` (never ``UNVERIFIED``).
    """

    def __init__(
        self, remote: str, tips: str = "", fetched_at: float = 0.0, too_large: int | None = None
    ) -> None:
        self.remote = remote
        self.tips = tips
        self.fetched_at = fetched_at
        self.too_large = too_large
        self.verdicts: dict[str, CommitVerdict] = {}


class FetchResult(NamedTuple):
    """How a history fetch went.

    Attributes:
        ok: True when git fetched every branch and tag.
        detail: why not (git's deciding stderr line, the cap, the time limit), else "".
        run: what git did (None when git did not run).
        too_large: True when the size cap stopped it.
    """

    ok: bool
    detail: str = ""
    run: GitRun | None = None
    too_large: bool = False


def fetch_memory(max_bytes: int) -> int:
    """The most memory, in bytes, a fetch may hold under a history cap of ``max_bytes``: the cap, but never
    less than :data:`MIN_FETCH_MEMORY`."""
    return max(max_bytes, MIN_FETCH_MEMORY)


class CommitGraph:
    """The graph of one URL's repository under a cache directory (see the module docstring).

    Args:
        cache_dir: reflint's cache directory.
        key: the lookup key of the URL it is fetched from (:func:`ascend_reflint.remote.lookup_key`): its
            folder is named after the SHA-256 of the key, which may hold credentials and is never stored.
        remote: the normalised remote (``github.com/nvidia/megatron-lm``), recorded in the state.
    """

    def __init__(self, cache_dir: Path, key: str, remote: str) -> None:
        digest = sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        self.remote = remote
        self.cache_dir = cache_dir
        # Absolute: git runs in a directory of its own, where a relative `--cache-dir` names nothing.
        self.folder = cache_dir.absolute() / HISTORY / digest
        self.repo = self.folder / "repo.git"
        self.state_path = self.folder / "state.json"
        self.lock_path = self.folder / "lock"

    # ------------------------------------------------------------------------------------------ files

    def prepare_folder(self) -> str | None:
        """Create the graph's folder (mode 0700) and check that it, and its lock file, are not symbolic links.

        Returns:
            None when the folder can be used, else why not (a sentence).
        """
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            return f"cannot create {self.folder}: {error.strerror or error}"
        for path in (self.folder, self.lock_path):
            with contextlib.suppress(FileNotFoundError):
                mode = os.lstat(path).st_mode
                expected = stat.S_ISDIR if path == self.folder else stat.S_ISREG
                if not expected(mode):
                    return f"{path} is not a {'folder' if path == self.folder else 'file'} reflint made"
        return None

    def load_state(self) -> GraphState | None:
        """The recorded state, or None when there is none or it cannot be read (a regular file of at most
        :data:`MAX_STATE_BYTES`, JSON of this format and remote)."""
        data = _read_regular(self.state_path, MAX_STATE_BYTES)
        if data is None:
            return None
        try:
            entry = json.loads(data)
        except (ValueError, RecursionError):
            return None
        return _state_from_entry(entry, self.remote)

    def save_state(self, state: GraphState) -> str | None:
        """Write ``state`` atomically (a temporary file moved over the old one, never through a link).

        Returns:
            None when written, else why not (a sentence); never raises for a file-system error.
        """
        from ascend_reflint.output import OutputFileError, json_text, write_file

        try:
            write_file(
                str(self.state_path),
                json_text(_entry_from_state(state), indent=None),
                inside=str(self.cache_dir),
            )
        except OutputFileError as error:
            return f"cannot write the history cache in {self.folder}: {error.reason}"
        return None

    def exists(self) -> bool:
        """True when the repository folder is there (whether trusted or not)."""
        return os.path.lexists(self.repo)

    def untrusted_reason(self) -> str | None:
        """Why the repository must not be run (its files are not as reflint left them), or None.

        Checked: the repository, ``objects``, ``objects/pack`` and ``refs`` are folders; nothing in it is a
        symbolic link or a special file (git would write through a link, or wait on a FIFO); ``config``
        byte for byte as :func:`repository_config` writes it; no ``hooks``, ``commondir`` or
        ``objects/info/alternates``.
        """
        for part in ("", "objects", "objects/pack", "refs"):
            path = self.repo / part if part else self.repo
            try:
                if not stat.S_ISDIR(os.lstat(path).st_mode):
                    return f"{path} is not a folder"
            except OSError:
                return f"{path} is missing"
        odd = _not_file_or_folder(self.repo)
        if odd is not None:
            return f"{odd} is not a file or folder that git made"
        for part in ("hooks", "commondir", "objects/info/alternates"):
            if os.path.lexists(self.repo / part):
                return f"{self.repo / part} was not made by reflint"
        config = _read_regular(self.repo / "config", 4096)
        if config not in (repository_config("sha1"), repository_config("sha256")):
            return f"{self.repo / 'config'} is not the one reflint wrote"
        return None

    def remove_repository(self) -> None:
        """Delete the repository (the state file stays); symbolic links inside are removed, not followed."""
        import shutil

        shutil.rmtree(self.repo, ignore_errors=True)

    def disk_size(self) -> int:
        """The repository's size on disk, in bytes (the sum of its regular files' sizes)."""
        return _tree_size(self.repo)

    # ------------------------------------------------------------------------------------------ git

    def create(self, runner: GitRunner, object_format: str) -> str | None:
        """Make an empty repository: ``git init --bare --template=`` in a temporary folder beside it, then
        reflint's config, then a rename into place (so a half-made repository never has the final name).

        Returns:
            None when made, else why not (a sentence).
        """
        import shutil
        import tempfile

        try:
            temp = Path(tempfile.mkdtemp(prefix=".tmp-repo-", dir=self.folder))
        except OSError as error:
            return f"cannot create a repository in {self.folder}: {error.strerror or error}"
        try:
            # --object-format only when needed: git before 2.29 does not know it (its repositories are SHA-1)
            chosen = [f"--object-format={object_format}"] if object_format != "sha1" else []
            init = ["init", "--bare", "--quiet", "--template=", *chosen, str(temp)]
            run = runner.run(init)
            if run.returncode != 0:
                return f"git init failed: {_first_line(run.stderr) or f'status {run.returncode}'}"
            (temp / "config").write_bytes(repository_config(object_format))
            os.replace(temp, self.repo)
        except OSError as error:
            return f"cannot create a repository in {self.folder}: {error.strerror or error}"
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        return None

    def fetch_history(
        self, runner: GitRunner, url: str, timeout: float, max_bytes: int, commits: Sequence[str] = ()
    ) -> FetchResult:
        """Fetch the remote's branches and tags into the repository, without trees and files.

        ``git fetch --filter=tree:0 --no-tags --prune reflint +refs/heads/*:refs/heads/*
        +refs/tags/*:refs/tags/* [ID…]``: new commits and tag objects only (git negotiates away what the
        graph has); refs the remote dropped are dropped. A server that does not allow filters
        (``uploadpack.allowFilter``, git-config(1)) makes git warn and send everything; the size cap
        bounds that too.

        Args:
            runner: runs git.
            url: the URL the pin fetches (already checked safe).
            timeout: seconds before git's process group is killed.
            max_bytes: the largest the repository may grow on disk, and the most memory git may hold (an
                honest treeless fetch holds a few MiB; a server can send an endless ref list, which git
                holds whole; never less than :data:`MIN_FETCH_MEMORY`); past either, git is killed.
            commits: full commit ids to fetch by id in the same round trip (see :meth:`fetch_commits`);
                when the server refuses one, the whole fetch fails and names it.

        Returns:
            How it went. A fetch stopped by the cap or the time limit leaves no temporary pack behind.
        """
        before = self.disk_size()

        def watch() -> str | None:
            size = before + _tree_size(self.repo / "objects" / "pack")
            return _SIZE_CAP if size > max_bytes else None

        args = [*self._fetch_prefix(url), "--prune", REMOTE_NAME, *REFSPECS, *commits]
        run = runner.run(args, timeout=timeout, watch=watch, max_memory=fetch_memory(max_bytes))
        if run.stopped is not None or run.timed_out:
            self._remove_temporary_packs()
            if run.stopped == _SIZE_CAP:
                return FetchResult(False, "", run, too_large=True)
            detail = run.stopped or f"fetching its history took more than {timeout:.3g} s"
            return FetchResult(False, detail, run)
        if run.returncode != 0:
            return FetchResult(False, "", run)
        if self.disk_size() > max_bytes:
            return FetchResult(False, "", run, too_large=True)
        return FetchResult(True, "", run)

    def fetch_commit(
        self, runner: GitRunner, url: str, commit: str, timeout: float, max_memory: int | None = None
    ) -> GitRun:
        """Fetch a commit by full id (``git fetch reflint ID``), which servers that allow it answer for any
        commit they have (protocol v2, or ``uploadpack.allowAnySHA1InWant``; GitHub serves any commit of
        the fork network). Nothing is written to the refs; several may run at once (the graph's config
        writes no commit-graph and runs no gc, which would contend for their locks).

        Args:
            max_memory: the most memory git may hold (see :meth:`fetch_history`; never less than
                :data:`MIN_FETCH_MEMORY`), or None.

        Returns:
            What git did: status 0 when the commit came.
        """
        return runner.run(
            [*self._fetch_prefix(url), REMOTE_NAME, commit],
            timeout=timeout,
            max_memory=None if max_memory is None else fetch_memory(max_memory),
        )

    def find(self, runner: GitRunner, prefixes: Iterable[str]) -> dict[str, list[str]]:
        """The commits of the graph whose id starts with each prefix (a tag object counts for its commit).

        ``git rev-parse --disambiguate=PREFIX`` lists every object whose id starts with PREFIX without
        reading any (so nothing is fetched lazily); ``git cat-file --batch-check`` then peels each to a
        commit (``ID^{commit}``), and drops trees and files (present only when the server ignored the
        filter).

        Args:
            runner: runs git.
            prefixes: lower-case hex ids, 7 to 64 digits.

        Returns:
            prefix → full commit ids (sorted, distinct); a prefix that starts none maps to ``[]``.

        Raises:
            GraphError: git failed.
        """
        prefixes = sorted(set(prefixes))
        listed = self._git(runner, "rev-parse", *(f"--disambiguate={prefix}" for prefix in prefixes))
        objects = sorted({line for line in listed.split() if _HEX.fullmatch(line)})
        peeled: dict[str, str] = {}
        if objects:
            batch = "".join(f"{object_id}^{{commit}}\n" for object_id in objects)
            answer = self._git(runner, "cat-file", "--batch-check=%(objectname) %(objecttype)", stdin=batch)
            for object_id, line in zip(objects, answer.splitlines(), strict=False):
                name, _, kind = line.partition(" ")
                if kind == "commit":
                    peeled[object_id] = name
        return {
            prefix: sorted({commit for object_id, commit in peeled.items() if object_id.startswith(prefix)})
            for prefix in prefixes
        }

    def outside_history(self, runner: GitRunner, commits: Iterable[str]) -> set[str]:
        """Which of ``commits`` (present in the graph) no branch or tag reaches.

        ``git rev-list --stdin --not --branches --tags`` with C… on standard input lists the commits
        reachable from C… and from no ref (git-rev-list(1)); a C that a ref reaches is not among them.
        ``--stdin`` comes before ``--not``, so that the ids read from it count as wanted whatever a git
        version makes of a ``--not`` given before ``--stdin``.

        Raises:
            GraphError: git failed.
        """
        commits = sorted(set(commits))
        if not commits:
            return set()
        stdin = "".join(f"{commit}\n" for commit in commits)
        listed = self._git(runner, "rev-list", "--stdin", "--not", "--branches", "--tags", stdin=stdin)
        return set(listed.split()) & set(commits)

    def describe(self, runner: GitRunner, commits: Iterable[str]) -> dict[str, str | None]:
        """The nearest tag of each commit, as ``git describe --tags`` names it (``v1.2-3-gabc1234``).

        ``--always`` keeps git going past a commit that no tag reaches; its bare abbreviated id is
        returned as None.

        Raises:
            GraphError: git failed.
        """
        commits = sorted(set(commits))
        if not commits:
            return {}
        described = self._git(runner, "describe", "--tags", "--always", *commits).splitlines()
        if len(described) != len(commits):
            raise GraphError(f"git describe gave {len(described)} names for {len(commits)} commits")
        return {
            commit: None if commit.startswith(name) and _HEX.fullmatch(name) else name
            for commit, name in zip(commits, described, strict=True)
        }

    def _git(self, runner: GitRunner, *args: str, stdin: str | None = None) -> str:
        """Run a git command in the graph with no transport allowed; its standard output.

        Raises:
            GraphError: git failed or timed out.
        """
        run = runner.run(
            ["--git-dir", str(self.repo), *NO_TRANSPORT, *args],
            stdin=None if stdin is None else stdin.encode("ascii"),
        )
        if run.timed_out:
            raise GraphError(f"git {args[0]} took too long")
        if run.returncode != 0:
            raise GraphError(f"git {args[0]} failed: {_first_line(run.stderr) or f'status {run.returncode}'}")
        return run.stdout

    def compact(self, runner: GitRunner, timeout: float) -> None:
        """Pack the graph into one pack (``git gc --quiet``) when fetches have left more than
        :data:`MAX_PACKS` packs, each fetch leaving one; a failure is left for the next time."""
        with contextlib.suppress(OSError), os.scandir(self.repo / "objects" / "pack") as entries:
            packs = sum(1 for entry in entries if entry.name.endswith(".pack"))
            if packs > MAX_PACKS:
                runner.run(["--git-dir", str(self.repo), *NO_TRANSPORT, "gc", "--quiet"], timeout=timeout)

    def _fetch_prefix(self, url: str) -> list[str]:
        return [
            "--git-dir",
            str(self.repo),
            "-c",
            f"remote.{REMOTE_NAME}.url={url}",
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-recurse-submodules",
            "--filter=tree:0",
        ]

    def _remove_temporary_packs(self) -> None:
        """Remove what a killed ``git index-pack`` left (``objects/pack/tmp_*``)."""
        with contextlib.suppress(OSError), os.scandir(self.repo / "objects" / "pack") as entries:
            for entry in entries:
                if entry.name.startswith("tmp_") and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)


class GraphError(Exception):
    """A git command on the local graph failed (the message says which, and git's first line)."""


def _first_line(text: str) -> str:
    from ascend_reflint.lookup.classify import clean_detail

    lines = [clean_detail(line) for line in text.splitlines()]
    return next((line for line in lines if line), "")


def _tree_size(path: Path) -> int:
    """The sum of the sizes of the regular files under ``path`` (links are not followed); 0 when absent."""
    total = 0
    stack = [str(path)]
    while stack:
        with contextlib.suppress(OSError), os.scandir(stack.pop()) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        total += entry.stat(follow_symlinks=False).st_size
    return total


def _not_file_or_folder(path: Path) -> str | None:
    """The first entry under ``path`` that is neither a regular file nor a folder (a symbolic link, a FIFO,
    a device, a socket) or that cannot be listed, or None; nothing is followed."""
    stack = [str(path)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    mode = entry.stat(follow_symlinks=False).st_mode
                    if stat.S_ISDIR(mode):
                        stack.append(entry.path)
                    elif not stat.S_ISREG(mode):
                        return entry.path
        except OSError:
            return folder
    return None


def _read_regular(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (not a link) of at most ``max_bytes``, else None."""
    from ascend_reflint.textfile import FileReadError, read_bytes

    try:
        return read_bytes(str(path), max_bytes, follow_links=False)
    except FileReadError:
        return None


def _entry_from_state(state: GraphState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "remote": state.remote,
        "tips": state.tips,
        "fetched_at": state.fetched_at,
        "too_large": state.too_large,
        "verdicts": {pinned: _entry_from_verdict(verdict) for pinned, verdict in state.verdicts.items()},
    }


def _entry_from_verdict(verdict: CommitVerdict) -> dict[str, Any]:
    return {
        "state": verdict.state.value,
        "commit": verdict.commit,
        "describe": verdict.describe,
        "candidates": [list(candidate) for candidate in verdict.candidates],
        "detail": verdict.detail,
    }


def _state_from_entry(data: object, remote: str) -> GraphState | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("remote") != remote:
        return None
    tips, fetched_at = data.get("tips"), data.get("fetched_at")
    too_large, verdicts = data.get("too_large"), data.get("verdicts")
    if not (
        isinstance(tips, str)
        and _is_number(fetched_at)
        and (too_large is None or (isinstance(too_large, int) and not isinstance(too_large, bool)))
        and isinstance(verdicts, dict)
    ):
        return None
    state = GraphState(remote, tips, float(fetched_at), too_large)  # type: ignore[arg-type]
    for pinned, entry in verdicts.items():
        verdict = _verdict_from_entry(remote, pinned, entry)
        if verdict is None:
            return None
        state.verdicts[pinned] = verdict
    return state


def _verdict_from_entry(remote: str, pinned: object, entry: object) -> CommitVerdict | None:
    if not isinstance(pinned, str) or not isinstance(entry, dict):
        return None
    try:
        state = CommitState(entry.get("state"))
    except ValueError:
        return None
    commit, describe, detail = entry.get("commit"), entry.get("describe"), entry.get("detail")
    candidates = entry.get("candidates")
    if (
        state is CommitState.UNVERIFIED
        or not _optional_str(commit)
        or not _optional_str(describe)
        or not isinstance(detail, str)
        or not isinstance(candidates, list)
        or not all(_is_candidate(candidate) for candidate in candidates)
    ):
        return None
    return CommitVerdict(
        remote=remote,
        pinned=pinned,
        state=state,
        commit=commit,  # type: ignore[arg-type]
        describe=describe,  # type: ignore[arg-type]
        candidates=tuple((c[0], c[1]) for c in candidates),
        detail=detail,
    )


def _is_candidate(value: object) -> bool:
    return (
        isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and _optional_str(value[1])
    )


def _optional_str(value: object) -> bool:
    return value is None or isinstance(value, str)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
