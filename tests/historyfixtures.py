"""A stand-in repository with real history, for the commit verification tests.

:func:`build_history` makes ``ROOT/github.com/acme/engine.git``, a bare repository whose commits are
written object by object (``git hash-object -w``) with a fixed identity and date, so that every id is the
same on every run and machine:

- ``initial`` (lightweight tag ``v0.9``) ← ``release`` (annotated tag ``v1.0``) ← ``work`` ← ``main_tip``
  (branch ``main``);
- ``twin_a`` and ``twin_b``, two children of ``main_tip`` (branches ``twin-a`` and ``twin-b``) whose ids
  share their first 7 hex digits: messages are tried, hashed in Python, until two ids collide there
  (about 20,000 tries, a few tens of milliseconds), so ``twin_prefix`` is an ambiguous abbreviated id;
- ``orphan``, a child of ``release`` that only the branch ``topic`` held, and ``topic`` deleted: its
  objects are kept, so the server hands it out by id but no branch or tag contains it;
- ``missing``, a full id that no object has.

The repository allows what GitHub allows: filters (``uploadpack.allowFilter``) and any commit by id
(``uploadpack.allowAnySHA1InWant``; protocol v2 allows it anyway). ``allow_filter=False`` builds one that
refuses filters, as some self-hosted servers do. Point the real URL at it with
``gitfixtures.insteadof_env(ROOT)``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

URL = "https://github.com/acme/engine.git"
REMOTE = "github.com/acme/engine"
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_IDENTITY = "Acme Engineer <engineer@acme.invalid> 1735689600 +0000"
_ISOLATION = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}


@dataclass(frozen=True)
class History:
    """The built repository and its commit ids (40 hex digits each).

    Attributes:
        path: the bare repository.
        initial, release, work, main_tip: the main line, oldest first.
        release_tag: the annotated tag object of ``v1.0`` (not a commit).
        twin_a, twin_b: the two children of ``main_tip`` that share ``twin_prefix``.
        twin_prefix: their common first 7 hex digits.
        orphan: the commit of the deleted branch ``topic``.
        missing: an id no object has.
    """

    path: Path
    initial: str
    release: str
    release_tag: str
    work: str
    main_tip: str
    twin_a: str
    twin_b: str
    twin_prefix: str
    orphan: str
    missing: str = "0badc0de" * 5


def build_history(root: Path, name: str = "engine", allow_filter: bool = True) -> History:
    """Build ``root/github.com/acme/NAME.git`` (see the module docstring) and return its ids."""
    repo = root / "github.com" / "acme" / f"{name}.git"
    repo.parent.mkdir(parents=True, exist_ok=True)
    git("init", "--quiet", "--bare", "--object-format=sha1", str(repo))
    git("-C", str(repo), "config", "uploadpack.allowAnySHA1InWant", "true")
    if allow_filter:
        git("-C", str(repo), "config", "uploadpack.allowFilter", "true")
    assert git("-C", str(repo), "hash-object", "-t", "tree", "-w", "--stdin", stdin="") == EMPTY_TREE
    initial = write_commit(repo, None, "initial")
    release = write_commit(repo, initial, "release 1.0")
    work = write_commit(repo, release, "work after 1.0")
    main_tip = write_commit(repo, work, "main tip")
    (twin_a_message, twin_b_message), prefix = twin_messages(main_tip)
    twin_a = write_commit(repo, main_tip, twin_a_message)
    twin_b = write_commit(repo, main_tip, twin_b_message)
    orphan = write_commit(repo, release, "on a branch that was deleted")
    tag_body = f"object {release}\ntype commit\ntag v1.0\ntagger {_IDENTITY}\n\nrelease 1.0\n"
    release_tag = git("-C", str(repo), "hash-object", "-t", "tag", "-w", "--stdin", stdin=tag_body)
    refs = {
        "refs/heads/main": main_tip,
        "refs/heads/twin-a": twin_a,
        "refs/heads/twin-b": twin_b,
        "refs/heads/topic": orphan,
        "refs/tags/v0.9": initial,
        "refs/tags/v1.0": release_tag,
    }
    git("-C", str(repo), "update-ref", "--stdin", stdin="".join(f"update {r} {i}\n" for r, i in refs.items()))
    git("-C", str(repo), "update-ref", "-d", "refs/heads/topic")
    git("-C", str(repo), "symbolic-ref", "HEAD", "refs/heads/main")
    return History(repo, initial, release, release_tag, work, main_tip, twin_a, twin_b, prefix, orphan)


def commit_body(parent: str | None, message: str, tree: str = EMPTY_TREE) -> str:
    """The text of a commit object with ``tree`` (default: the empty tree), the fixed identity and
    ``message``."""
    parents = f"parent {parent}\n" if parent else ""
    return f"tree {tree}\n{parents}author {_IDENTITY}\ncommitter {_IDENTITY}\n\n{message}\n"


def write_commit(repo: Path, parent: str | None, message: str, tree: str = EMPTY_TREE) -> str:
    """Write a commit object into ``repo`` and return its id."""
    body = commit_body(parent, message, tree)
    return git("-C", str(repo), "hash-object", "-t", "commit", "-w", "--stdin", stdin=body)


def add_large_file(history: History, size: int) -> str:
    """Commit a file of ``size`` bytes that do not compress (a SHA-256 stream) on top of ``main``; the new
    main tip's id. A full (unfiltered) fetch of the repository is then larger than ``size``."""
    data = b"".join(hashlib.sha256(str(n).encode()).digest() for n in range(size // 32 + 1))[:size]
    blob_path = history.path.parent / f"{history.path.name}.large"
    blob_path.write_bytes(data)
    repo = str(history.path)
    blob = git("-C", repo, "hash-object", "-w", str(blob_path))
    blob_path.unlink()
    tree = git("-C", repo, "mktree", stdin=f"100644 blob {blob}\tlarge.bin\n")
    tip = write_commit(history.path, history.main_tip, "a large file", tree)
    git("-C", repo, "update-ref", "refs/heads/main", tip)
    return tip


def twin_messages(parent: str, digits: int = 7) -> tuple[tuple[str, str], str]:
    """Two messages whose commits (children of ``parent``) share their first ``digits`` hex digits, and
    that prefix; found by hashing candidate commit objects as git does (``commit <size>\\0<body>``)."""
    seen: dict[str, str] = {}
    for number in range(2_000_000):
        message = f"twin {number}"
        body = commit_body(parent, message).encode()
        prefix = hashlib.sha1(b"commit %d\0" % len(body) + body).hexdigest()[:digits]
        if prefix in seen:
            return (seen[prefix], message), prefix
        seen[prefix] = message
    raise AssertionError("no two commits share a prefix")  # pragma: no cover - 16**7 ≪ 2,000,000**2


def git(*args: str, stdin: str | None = None) -> str:
    """Run git without the developer's configuration; its standard output, stripped."""
    completed = subprocess.run(
        ["git", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **_ISOLATION},
        timeout=60,
    )
    return completed.stdout.strip()
