"""Repositories: the clones and ``git init`` repositories a session has seen, what later commands did in
them (remotes added, fetches, checkouts), and the pins they make.

A repository is kept with its remotes (``git clone`` names one, ``origin`` or ``-o NAME``; ``git remote
add`` more), its clone options, the last fetch (what FETCH_HEAD names) and every checkout in its work tree.
Repositories outlive the run that made them (they are on the file system), so that ``RUN git clone URL`` /
``WORKDIR /x/NAME`` / ``RUN git checkout REF`` is one pin.

What a checkout pins (gitrevisions(7), git-checkout(1), git-fetch(1)):

- ``FETCH_HEAD``: the ref the last fetch named, of the URL it fetched from; the pin is at the ref as written
  on the fetch's line.
- ``NAME/REF`` (also ``remotes/NAME/REF``) for a remote NAME of the repository: REF of NAME's URL.
- any other name: of the remote the fetch that named it used, else of the clone's remote. In a repository
  that no clone made (``git init``, ``git fetch URL REF`` into a directory), a name that no fetch named is no
  pin: the repository holds nothing else.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ascend_reflint.extract.shell.dirs import Dir, parent
from ascend_reflint.extract.shell.state import Sink
from ascend_reflint.extract.shell.values import Value, combined
from ascend_reflint.model import CallSite, CloneLayout, Fetch, HistoryRead, Pin, Span, Via
from ascend_reflint.remote import normalise_remote


class Made(enum.Enum):
    """What made a repository."""

    CLONE = "clone"
    INIT = "init"  # git init, then remotes and fetches
    FETCH = "fetch"  # git fetch URL REF in a directory that no clone or init made


class Fetched(NamedTuple):
    """A ``git fetch [REMOTE|URL] REF`` (or ``git pull``) in a repository: what FETCH_HEAD then names.

    Attributes:
        url: the URL fetched from.
        ref: the ref as the fetch names it (its span is on the fetch's line).
        command_span: the ``git fetch`` words.
        remote: the remote's name, or None when the fetch named a URL.
        tag: the ref was given as ``tag NAME`` (which stores the tag).
    """

    url: Value
    ref: Value
    command_span: Span
    remote: str | None
    tag: bool


class Checkout(NamedTuple):
    """A checkout in a repository, with the repository's state at that point (later fetches do not change
    it).

    Attributes:
        ref: the ref checked out (for FETCH_HEAD, the fetched ref, where the fetch writes it).
        url: the URL of the remote the ref is of.
        source_span: the command that brought the ref: the clone (or init), or the fetch.
        fetched: the last fetch before it, or None.
        fetch: how the ref came in when the checkout names what the last fetch fetched, for RL020.
        shallow: the repository is shallow at this point.
        depth: its ``--depth``.
        call_sites: the call of the function the checkout ran in.
        submodules_updated: the submodules were brought to this checkout's commits: by ``git submodule
            update`` after it, or ``--recurse-submodules`` on it (a plain checkout leaves them alone).
    """

    ref: Value
    url: Value
    source_span: Span
    fetched: Fetched | None
    fetch: Fetch | None
    shallow: bool
    depth: int | None
    call_sites: tuple[CallSite, ...]
    submodules_updated: bool = False


@dataclass(slots=True)
class Repository:
    """A repository seen so far: what made it, its remotes and clone options, and what later commands did in
    its directory.

    ``path`` is None while the directory of a clone is not known statically; ``remotes`` maps each remote's
    name to its URL, ``origin`` is the clone's remote (None when no clone made the repository); ``layout``
    says where the clone command's parts are written (for fixes); ``submodule_recurse`` is the
    ``submodule.recurse`` of its configuration (``git clone -c``, ``git config``), None when not set.
    """

    made: Made
    command_span: Span
    parent: Dir
    path: Dir | None
    remotes: dict[str, Value] = field(default_factory=dict)
    origin: str | None = None
    branch: Value | None = None
    revision: Value | None = None
    depth: int | None = None
    shallow: bool = False
    single_branch: bool = False
    one_branch: bool = False
    no_tags: bool = False
    recurse_submodules: bool = False
    submodule_recurse: bool | None = None
    checkouts: list[Checkout] = field(default_factory=list)
    history_read: HistoryRead | None = None
    fetched: Fetched | None = None
    call_sites: tuple[CallSite, ...] = ()
    layout: CloneLayout | None = None

    @property
    def url(self) -> Value | None:
        """The clone's remote's URL, or None."""
        return self.remotes.get(self.origin) if self.origin is not None else None

    def tracked_branch(self) -> str | None:
        """The one branch whose remote-tracking branch the clone's remote stores (a single-branch clone:
        ``--single-branch``, or ``--depth`` without ``--no-single-branch``), else None (every branch)."""
        if not self.one_branch:
            return None
        branch = self.branch
        return "HEAD" if branch is None else (branch.value or branch.written)


def parse_depth(value: str | None) -> int | None:
    """The number that ``--depth`` was given, or None when it is not a plain number."""
    return int(value) if value is not None and value.isascii() and value.isdigit() else None


def fetched_ref(fetched: Value | None) -> str | None:
    """What :attr:`Pin.fetched_ref` says: the fetched ref's value, or as written when unresolved."""
    if fetched is None:
        return None
    return fetched.value if fetched.value is not None else fetched.written


class Repositories:
    """The repositories of one session, in the order made, indexed by directory: finding the one a command
    runs in looks up the directory and each folder above it, whatever the number of repositories."""

    __slots__ = ("_by_path", "_clones_by_parent", "_repositories", "_unplaced_by_parent", "submodule_recurse")

    def __init__(self) -> None:
        #: The user's or the machine's ``submodule.recurse`` (``git config --global``), None when not set.
        self.submodule_recurse: bool | None = None
        self._repositories: list[Repository] = []
        self._by_path: dict[Dir, list[Repository]] = {}
        self._unplaced_by_parent: dict[Dir, list[Repository]] = {}
        self._clones_by_parent: dict[Dir, list[Repository]] = {}

    def add(self, repository: Repository) -> None:
        """Record a repository."""
        self._repositories.append(repository)
        if repository.path is None:
            self._unplaced_by_parent.setdefault(repository.parent, []).append(repository)
        else:
            self._by_path.setdefault(repository.path, []).append(repository)
        if repository.made is Made.CLONE:
            self._clones_by_parent.setdefault(repository.parent, []).append(repository)

    def at(self, directory: Dir) -> Repository | None:
        """The repository whose directory is exactly ``directory`` (``git init`` again there, or a fetch
        into it), or None."""
        found = self._by_path.get(directory)
        return found[-1] if found else None

    def find(self, directory: Dir) -> Repository | None:
        """The repository whose work tree holds ``directory`` (the deepest, then the latest).

        A clone whose directory is not known statically (``git clone $URL``) is taken when nothing else
        matches and ``directory`` is a direct child of where it was cloned (``git clone $URL && cd NAME``);
        the clone then takes ``directory`` as its own, so that later commands there find it and no other
        clone's commands do.
        """
        for holder in _holders(directory):
            found = self._by_path.get(holder)
            if found:
                return found[-1]
        unplaced = self._unplaced_by_parent.get(parent(directory))
        if not unplaced:
            return None
        repository = unplaced.pop()
        repository.path = directory
        self._by_path.setdefault(directory, []).append(repository)
        return repository

    def cloned_into(self, directory: Dir) -> Repository | None:
        """The latest clone made from ``directory`` into a folder below it (for a checkout that runs in
        ``directory`` and so outside the clone: RL019), or None."""
        for repository in reversed(self._clones_by_parent.get(directory, ())):
            if repository.path != directory:
                return repository
        return None

    def pins(self, sink: Sink) -> list[Pin]:
        """The pins of every repository, in the order made (path, kind and stage from ``sink``)."""
        return [pin for repository in self._repositories for pin in _pins(repository, sink)]


def _holders(directory: Dir) -> list[Dir]:
    """The directories that hold ``directory`` (it included), the deepest first: those that
    :func:`~.dirs.contains` finds it in."""
    anchor, path = directory
    holders = [directory]
    cut = path.rfind("/")
    while cut > 0:
        path = path[:cut]
        holders.append((anchor, path))
        cut = path.rfind("/")
    if not directory[1].startswith(".."):
        holders.extend(((anchor, "."), (anchor, "/")))
    return holders


def _pins(repository: Repository, sink: Sink) -> list[Pin]:
    """The pins of one repository: one per checkout in it, else the clone's own (or the last fetch's)."""
    if repository.checkouts:
        return [_checkout_pin(repository, checkout, sink) for checkout in repository.checkouts]
    if repository.made is not Made.CLONE:
        fetched = repository.fetched
        if fetched is None:
            return []
        checkout = Checkout(
            fetched.ref,
            fetched.url,
            fetched.command_span,
            fetched,
            None,
            repository.shallow,
            repository.depth,
            repository.call_sites,
        )
        return [_checkout_pin(repository, checkout, sink)]
    url = repository.url
    assert url is not None, "a clone has its remote"
    revision = repository.revision
    if revision is not None:  # git clone --revision REF: REF is checked out, and fetched by the clone
        checkout = Checkout(  # the clone checks the revision out itself, submodules included
            revision, url, repository.command_span, None, None, repository.shallow, repository.depth, (), True
        )
        pin = _checkout_pin(repository, checkout, sink)
        return [_with(pin, fetched_ref=fetched_ref(revision), call_sites=repository.call_sites)]
    branch = repository.branch
    resolution, note = combined(branch, url)
    common = _common(repository, url, repository.command_span, sink)
    state: dict[str, Any] = {
        "resolution": resolution,
        "resolution_note": note,
        "depth": repository.depth,
        "shallow": repository.shallow,
        "fetched_ref": fetched_ref(repository.fetched.ref if repository.fetched is not None else None),
        "call_sites": repository.call_sites,
    }
    if branch is not None:
        return [
            Pin(
                via=Via.CLONE_BRANCH,
                span=branch.span,
                ref=branch.value,
                ref_text=branch.written,
                ref_origin=branch.origin,
                **state,
                **common,
            )
        ]
    return [Pin(via=Via.CLONE, span=url.span, ref=None, ref_text=None, **state, **common)]


def _common(repository: Repository, url: Value, source_span: Span, sink: Sink) -> dict[str, Any]:
    """The fields of every pin of ``repository`` whose URL is ``url``, brought by the command at
    ``source_span``."""
    return {
        "path": sink.path,
        "kind": sink.kind,
        "url": url.value if url.value is not None else url.written,
        "remote": normalise_remote(url.value) if url.value is not None else None,
        "url_span": url.span,
        "url_origin": url.origin,
        "clone_span": source_span,
        "clone_layout": repository.layout if url is repository.url else None,
        "single_branch": repository.single_branch,
        "recurse_submodules": repository.recurse_submodules,
        "stage": sink.stage,
        "history_read": repository.history_read,
    }


def _checkout_pin(repository: Repository, checkout: Checkout, sink: Sink) -> Pin:
    branch = repository.branch if checkout.url is repository.url else None
    resolution, note = combined(checkout.ref, checkout.url)
    fetched = checkout.fetched
    return Pin(
        via=Via.CHECKOUT,
        span=checkout.ref.span,
        ref=checkout.ref.value,
        ref_text=checkout.ref.written,
        ref_origin=checkout.ref.origin,
        resolution=resolution,
        resolution_note=note,
        clone_ref=None if branch is None else branch.value or branch.written,
        clone_ref_span=None if branch is None else branch.span,
        depth=checkout.depth,
        shallow=checkout.shallow,
        fetched_ref=fetched_ref(fetched.ref if fetched is not None else None),
        fetch=checkout.fetch,
        call_sites=checkout.call_sites,
        submodules_stale=repository.recurse_submodules and not checkout.submodules_updated,
        **_common(repository, checkout.url, checkout.source_span, sink),
    )


def _with(pin: Pin, **changes: Any) -> Pin:
    return dataclasses.replace(pin, **changes)
