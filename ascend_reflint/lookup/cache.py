"""The disk cache of ref lists: one compact JSON file per lookup, written atomically.

Layout: ``<cache dir>/remotes/<sha256 of the cache key>.json`` holding
``{"format": 2, "key": …, "remote": …, "fetched_at": …, "head": …, "branches": {…}, "tags": {…}}``, and
``"default_branch": …`` once the remote's default branch was asked (:mod:`ascend_reflint.lookup.head`). The
cache key (:func:`cache_key`) is the lookup key (the URL as the recipe wrote it, normalised: see
:func:`ascend_reflint.remote.lookup_key`) with any password or token masked, and whether the user's
credentials were allowed for it; so a ``git://`` answer never stands for an ``https://`` pin. Neither the
key nor the content holds a credential.

Several reflint processes may share the directory: an entry is written with
:func:`ascend_reflint.output.write_file` (a temporary file in the same directory moved over the old one
with :func:`os.replace`, atomic on POSIX and Windows), so a reader sees the old entry or the new one, never
half of one. An entry is read as a side file (:mod:`ascend_reflint.sidefile`: a regular file of at most
:data:`~ascend_reflint.sidefile.CACHE_ENTRY_MAX_BYTES`); one that cannot be read or does not hold what it
should (a symbolic link, a FIFO, too large, truncated, garbage, another key, another format) counts
as absent and is replaced by the next successful lookup.

Failed lookups are cached briefly (:class:`FailureCache`), so that a repository that does not exist or a
host that cannot be reached is not asked again on every run (pre-commit runs reflint on every commit):
"no such repository" and "credentials asked for" for :data:`FAILURE_TTL` seconds, "unreachable" and "timed
out" for less; other failures (a cap, the deadline) depend on the run and are not cached. A failure
depends on more than the URL as the recipe wrote it: on the URL that git fetched after the user's
``url.<base>.insteadOf`` rewrites, and on whether the user's credentials went with it. Its entry records
both (the URL redacted), and is used only while they are what the user's git config gives now.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

from ascend_reflint.digest import sha256
from ascend_reflint.model import FailureKind, LookupFailure, RemoteRefs
from ascend_reflint.remote import redact

#: The entry format; an entry of another format is ignored (and rewritten).
FORMAT = 2
#: The folder of the ref lists inside the cache directory.
FOLDER = "remotes"
#: The folder of the failed lookups inside the cache directory.
FAILURES_FOLDER = "lookup-failures"
#: The failures that are cached, and for how many seconds: what a server said about the repository for
#: minutes, a failure to reach it for less (a network comes back sooner than a repository is created).
FAILURE_TTL = {
    FailureKind.NOT_FOUND: 300.0,
    FailureKind.NOT_FOUND_OR_PRIVATE: 300.0,
    FailureKind.AUTH_REQUIRED: 300.0,
    FailureKind.NOT_IN_MIRROR: 300.0,
    FailureKind.NOT_IN_MIRROR_OR_PRIVATE: 300.0,
    FailureKind.UNREACHABLE: 60.0,
    FailureKind.TIMEOUT: 60.0,
}


def default_cache_dir() -> Path:
    """The user cache directory for reflint (``platformdirs.user_cache_dir("reflint")``, for example
    ``~/.cache/reflint`` on Linux, honouring ``XDG_CACHE_HOME``)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("reflint"))


def _entry_path(directory: Path, folder: str, key: str) -> Path:
    """``DIRECTORY/FOLDER/<sha256 of key>.json``: the file of one cache entry (a key holds URLs, which are no
    file names)."""
    digest = sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return directory / folder / f"{digest}.json"


class RefCache:
    """Remote refs stored on disk under ``directory``.

    Args:
        directory: the cache directory (created, mode 0700, on first write).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def entry_path(self, key: str) -> Path:
        """The file that holds the entry of cache key ``key`` (whether it exists or not)."""
        return _entry_path(self.directory, FOLDER, key)

    def load(self, key: str, max_age: float | None, now: float | None = None) -> RemoteRefs | None:
        """The cached refs filed under ``key``, or None when there is no usable entry.

        Args:
            key: the cache key (:func:`cache_key`).
            max_age: seconds an entry stays fresh; None accepts an entry of any age. An entry dated in
                the future (the clock went back) is not fresh.
            now: the current time in seconds since the epoch (default: :func:`time.time`).

        Returns:
            The refs, or None when the entry is absent, unreadable, malformed, of another key or
            format, or older than ``max_age``.
        """
        refs = _refs_from_entry(_read_entry(self.entry_path(key)), key)
        if refs is None or max_age is None:
            return refs
        age = (time.time() if now is None else now) - refs.fetched_at
        return refs if 0 <= age < max_age else None

    def store(self, key: str, refs: RemoteRefs) -> str | None:
        """Write ``refs`` as the entry of cache key ``key``, replacing any old entry atomically.

        Returns:
            None when written; otherwise why not (``"cannot write the ref cache in DIR: REASON"``). Never
            raises for a file-system error: a lookup works without its cache.
        """
        return _write_entry(self.directory, self.entry_path(key), _entry_from_refs(key, refs))


class FailureCache:
    """Failed lookups stored on disk under ``directory`` (see the module docstring).

    Args:
        directory: the cache directory (created, mode 0700, on first write).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def entry_path(self, key: str) -> Path:
        """The file that holds the failure of cache key ``key`` (whether it exists or not)."""
        return _entry_path(self.directory, FAILURES_FOLDER, key)

    def load(self, key: str, max_age: float, now: float | None = None) -> CachedFailure | None:
        """The failure filed under ``key`` while it is fresh: younger than its kind's
        :data:`FAILURE_TTL` and than ``max_age`` seconds; None otherwise, or when the entry is absent or
        unusable."""
        cached = _failure_from_entry(_read_entry(self.entry_path(key)), key)
        if cached is None:
            return None
        age = (time.time() if now is None else now) - cached.failed_at
        return cached if 0 <= age < min(max_age, FAILURE_TTL[cached.failure.kind]) else None

    def store(self, key: str, cached: CachedFailure) -> str | None:
        """Write ``cached`` under ``key`` when its kind is cached at all (:data:`FAILURE_TTL`).

        Returns:
            None when written or not to be cached; otherwise why it could not be written.
        """
        if cached.failure.kind not in FAILURE_TTL:
            return None
        failure = cached.failure
        entry = {
            "format": FORMAT,
            "key": key,
            "remote": failure.remote,
            "kind": failure.kind.value,
            "detail": failure.detail,
            "failed_at": cached.failed_at,
            "fetched": redact(cached.fetched),
            "credentials": cached.credentials,
        }
        return _write_entry(self.directory, self.entry_path(key), entry)


class CachedFailure(NamedTuple):
    """A failed lookup as the failure cache keeps it.

    Attributes:
        failure: the failure.
        failed_at: when it happened, in seconds since the epoch.
        fetched: the URL that git fetched (after the user's ``insteadOf`` rewrites), credentials masked.
        credentials: whether the lookup ran with the user's git config and credentials.
    """

    failure: LookupFailure
    failed_at: float
    fetched: str
    credentials: bool

    def holds_for(self, fetched: str, credentials: bool) -> bool:
        """True when a lookup now would fetch ``fetched`` with the same ``credentials`` choice."""
        return (redact(fetched), credentials) == (self.fetched, self.credentials)


def _read_entry(path: Path) -> object:
    """The JSON of the entry at ``path`` (a side file of bounded size, never a symbolic link), or None when
    it cannot be read or is not JSON."""
    from ascend_reflint.sidefile import CACHE_ENTRY_MAX_BYTES, read_side_file
    from ascend_reflint.textfile import FileReadError

    try:
        return json.loads(read_side_file(path, CACHE_ENTRY_MAX_BYTES, follow_links=False))
    except (FileReadError, ValueError, RecursionError):
        # RecursionError: garbage nested deeper than the JSON decoder's stack ("[[[[…").
        return None


def _write_entry(directory: Path, path: Path, entry: dict[str, Any]) -> str | None:
    """Write ``entry`` at ``path`` atomically; None when written, else why not (``"cannot write the ref
    cache in DIR: REASON"``). Never raises for a file-system error: a lookup works without its cache."""
    from ascend_reflint.output import OutputFileError, json_text, write_file

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_file(str(path), json_text(entry, indent=None), inside=str(directory))
    except OSError as error:
        return f"cannot write the ref cache in {directory}: {error.strerror or error}"
    except OutputFileError as error:
        return f"cannot write the ref cache in {directory}: {error.reason}"
    return None


def cache_key(lookup_key: str, credentials: bool) -> str:
    """The cache key of a lookup: ``lookup_key`` with passwords and tokens masked, then ``credentials``
    or ``anonymous`` (whether the user's credentials were allowed for the URL)."""
    return f"{redact(lookup_key)} {'credentials' if credentials else 'anonymous'}"


def _entry_from_refs(key: str, refs: RemoteRefs) -> dict[str, Any]:
    entry = {
        "format": FORMAT,
        "key": key,
        "remote": refs.remote,
        "fetched_at": refs.fetched_at,
        "head": refs.head,
        "branches": refs.branches,
        "tags": refs.tags,
    }
    if refs.default_branch is not None:
        entry["default_branch"] = refs.default_branch
    return entry


def _refs_from_entry(data: object, key: str) -> RemoteRefs | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    remote, fetched_at, head = data.get("remote"), data.get("fetched_at"), data.get("head")
    branches, tags, default_branch = data.get("branches"), data.get("tags"), data.get("default_branch")
    if (
        isinstance(remote, str)
        and isinstance(fetched_at, (int, float))
        and not isinstance(fetched_at, bool)
        and (head is None or isinstance(head, str))
        and (default_branch is None or isinstance(default_branch, str))
        and _is_name_map(branches)
        and _is_name_map(tags)
    ):
        return RemoteRefs(
            remote=remote,
            branches=branches,
            tags=tags,
            head=head,
            fetched_at=float(fetched_at),
            default_branch=default_branch,
        )
    return None


def _is_name_map(value: object) -> TypeGuard[dict[str, str]]:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _failure_from_entry(data: object, key: str) -> CachedFailure | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    remote, kind, detail, failed_at = (
        data.get("remote"),
        data.get("kind"),
        data.get("detail"),
        data.get("failed_at"),
    )
    fetched, credentials = data.get("fetched"), data.get("credentials")
    kinds = {kind.value: kind for kind in FAILURE_TTL}
    if (
        isinstance(remote, str)
        and isinstance(kind, str)
        and kind in kinds
        and isinstance(detail, str)
        and isinstance(failed_at, (int, float))
        and not isinstance(failed_at, bool)
        and isinstance(fetched, str)
        and isinstance(credentials, bool)
    ):
        failure = LookupFailure(remote=remote, kind=kinds[kind], detail=detail)
        return CachedFailure(failure, float(failed_at), fetched, credentials)
    return None
