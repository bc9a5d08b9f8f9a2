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
as absent and is replaced by the next successful lookup. Failed lookups are not cached.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, TypeGuard

from ascend_reflint.model import RemoteRefs
from ascend_reflint.remote import redact

#: The entry format; an entry of another format is ignored (and rewritten).
FORMAT = 2
_ENTRIES = "remotes"


def default_cache_dir() -> Path:
    """The user cache directory for reflint (``platformdirs.user_cache_dir("reflint")``, for example
    ``~/.cache/reflint`` on Linux, honouring ``XDG_CACHE_HOME``)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("reflint"))


class RefCache:
    """Remote refs stored on disk under ``directory``.

    Args:
        directory: the cache directory (created, mode 0700, on first write).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def entry_path(self, key: str) -> Path:
        """The file that holds the entry of cache key ``key`` (whether it exists or not)."""
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        return self.directory / _ENTRIES / f"{digest}.json"

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
        from ascend_reflint.sidefile import CACHE_ENTRY_MAX_BYTES
        from ascend_reflint.textfile import FileReadError, read_bytes

        try:
            data = json.loads(
                read_bytes(str(self.entry_path(key)), CACHE_ENTRY_MAX_BYTES, follow_links=False)
            )
        except (FileReadError, ValueError, RecursionError):
            # RecursionError: garbage nested deeper than the JSON decoder's stack ("[[[[…").
            return None
        refs = _refs_from_entry(data, key)
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
        from ascend_reflint.output import OutputFileError, json_text, write_file

        path = self.entry_path(key)
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_file(str(path), json_text(_entry_from_refs(key, refs), indent=None))
        except OSError as error:
            return f"cannot write the ref cache in {self.directory}: {error.strerror or error}"
        except OutputFileError as error:
            return f"cannot write the ref cache in {self.directory}: {error.reason}"
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
