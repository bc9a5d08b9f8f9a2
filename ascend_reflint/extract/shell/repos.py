"""Repositories: the clones a session has seen, what later commands did in them, and the pins they make.

A clone (``git clone URL``, or a repository that ``git fetch URL REF`` filled) is kept with its options
and, once checked out, every checkout in its work tree. Clones outlive the run that made them (they are on
the file system), so that ``RUN git clone URL`` / ``WORKDIR /x/NAME`` / ``RUN git checkout REF`` is one pin.
``fetched`` is the one name for what FETCH_HEAD names: the ref that the last ``git fetch … REF`` brought in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ascend_reflint.extract.shell.dirs import Dir, contains, parent
from ascend_reflint.extract.shell.state import Sink
from ascend_reflint.extract.shell.values import Value, combined
from ascend_reflint.model import CloneLayout, Pin, Span, Via
from ascend_reflint.remote import normalise_remote


class Checkout(NamedTuple):
    """A checkout in a clone, with the clone's state at that point (later fetches do not change it)."""

    ref: Value
    fetched: Value | None
    shallow: bool
    depth: int | None


@dataclass(slots=True)
class Clone:
    """A ``git clone`` (or a ``git fetch URL REF``) seen so far, with what later commands did in its
    directory.

    ``fetched`` is what FETCH_HEAD names (the ref the last ``git fetch … REF`` in it brought in);
    ``fetch_only`` marks a repository that ``git fetch URL REF`` filled (``clone_span`` is then the ``git
    fetch`` words, and ``fetched`` its ref); ``path`` is None while the clone's directory is not known
    statically; ``layout`` says where the command's parts are written (None for a fetch).
    """

    url: Value
    clone_span: Span
    branch: Value | None
    depth: int | None
    shallow: bool
    single_branch: bool
    recurse_submodules: bool
    origin: str
    parent: Dir
    path: Dir | None
    checkouts: list[Checkout] = field(default_factory=list)
    fetched: Value | None = None
    fetch_only: bool = False
    layout: CloneLayout | None = None


def parse_depth(value: str | None) -> int | None:
    """The number that ``--depth`` was given, or None when it is not a plain number."""
    return int(value) if value is not None and value.isascii() and value.isdigit() else None


def fetched_ref(fetched: Value | None) -> str | None:
    """What :attr:`Pin.fetched_ref` says: the fetched ref's value, or as written when unresolved."""
    if fetched is None:
        return None
    return fetched.value if fetched.value is not None else fetched.written


class Repositories:
    """The clones of one session, in the order made."""

    __slots__ = ("_clones",)

    def __init__(self) -> None:
        self._clones: list[Clone] = []

    def add(self, clone: Clone) -> None:
        """Record a clone (or a repository that ``git fetch URL REF`` filled)."""
        self._clones.append(clone)

    def find(self, directory: Dir, fetch_head: bool = False) -> Clone | None:
        """The clone whose work tree holds ``directory`` (the deepest, then the latest).

        A repository that ``git fetch URL REF`` filled holds no ref but FETCH_HEAD (a fetch from a URL
        updates no branch or tag, git-fetch(1)), so it is taken only when ``fetch_head`` is True.

        A clone whose directory is not known statically (``git clone $URL``) is taken when nothing else
        matches and ``directory`` is a direct child of where it was cloned (``git clone $URL && cd NAME``);
        the clone then takes ``directory`` as its own, so that later commands there find it and no other
        clone's commands do.
        """
        best: Clone | None = None
        best_depth = -1
        for clone in reversed(self._clones):
            if clone.fetch_only and not fetch_head:
                continue
            depth = None if clone.path is None else contains(clone.path, directory)
            if depth is not None and depth > best_depth:
                best, best_depth = clone, depth
        if best is not None:
            return best
        holder = parent(directory)
        for clone in reversed(self._clones):
            if clone.path is None and clone.parent == holder:
                clone.path = directory
                return clone
        return None

    def pins(self, sink: Sink) -> list[Pin]:
        """The pins of every clone, in the order the clones were made (path, kind and stage from ``sink``)."""
        return [pin for clone in self._clones for pin in _clone_pins(clone, sink)]


def _clone_pins(clone: Clone, sink: Sink) -> list[Pin]:
    """The pins of one clone: one per checkout in it, else the clone's own (or the fetch's) pin."""
    url = clone.url
    common: dict[str, Any] = {
        "path": sink.path,
        "kind": sink.kind,
        "url": url.value if url.value is not None else url.written,
        "remote": normalise_remote(url.value) if url.value is not None else None,
        "url_span": url.span,
        "url_origin": url.origin,
        "clone_span": clone.clone_span,
        "clone_layout": clone.layout,
        "single_branch": clone.single_branch,
        "recurse_submodules": clone.recurse_submodules,
        "stage": sink.stage,
    }
    checkouts = clone.checkouts
    if not checkouts and clone.fetch_only and clone.fetched is not None:
        checkouts = [Checkout(clone.fetched, clone.fetched, clone.shallow, clone.depth)]
    if checkouts:
        return [_checkout_pin(clone, checkout, common) for checkout in checkouts]
    branch = clone.branch
    resolution, note = combined(branch, url)
    state: dict[str, Any] = {
        "resolution": resolution,
        "resolution_note": note,
        "depth": clone.depth,
        "shallow": clone.shallow,
        "fetched_ref": fetched_ref(clone.fetched),
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


def _checkout_pin(clone: Clone, checkout: Checkout, common: dict[str, Any]) -> Pin:
    branch = clone.branch
    resolution, note = combined(checkout.ref, clone.url)
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
        fetched_ref=fetched_ref(checkout.fetched),
        **common,
    )
