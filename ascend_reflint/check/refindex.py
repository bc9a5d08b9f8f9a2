"""One index per ref list, built once, so that what the rules ask of a remote costs O(log refs) per pin.

A remote may list hundreds of thousands of refs (``--max-refs``); the rules ask about each pin: is this
name a ref (a dict), which tags spell this version, which refs are of this release, which names are
spelt close to this one, which branch or tag tip is this commit. Scanning every ref for each of those made
the check stage take 47 s on a list of 5,000,000 refs. The index groups the refs by what the questions
compare, in one pass:

- by version (parts and tail), by release (the version without the last qualifier), by numbers: a
  question about a versioned name reads its own group only;
- versioned names sorted by their numbers, per count of parts, and names without digits sorted by
  length: "nearest" questions read at most :data:`WINDOW` names either side of where the name would sort
  (every name they could pick when a remote has fewer than that many of that shape, which real remotes
  have; a hostile list gets answers from that window);
- the distinct tip commits sorted, each with its first tag and first branch by name: a commit id or
  prefix is found by bisection.

An index is kept per ref list by identity, with the answers already given (:func:`index_of`): a lookup's
:class:`~ascend_reflint.model.RemoteRefs` is never changed after it is made.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypeVar

from ascend_reflint.check.versions import RefVersion, parse_version
from ascend_reflint.model import RemoteRefs

#: How many names on either side of a name's place a "nearest" question reads at most.
WINDOW = 1000
#: The largest ref list (branches and tags) whose names :meth:`RefIndex.same_version` scans rather than
#: index, and how many times it does for one list before it builds the index.
_SCANNED_NAMES = 5000
_SCANS = 16
#: How many ref lists keep their index (a scan looks up a few dozen remotes; more just start afresh).
_INDEXED_LISTS = 256
#: Branches that hold a proposed change, made by a tool, not a release however they are numbered: GitHub's
#: web editor's ``USER-patch-N``, Dependabot's ``dependabot/…`` and Renovate's ``renovate/…`` (which carry
#: the version they bump to: ``dependabot/transformerengine-release_v2.14``), pull request refs
#: ``pull/N/head``, and the merge queue's ``gh-readonly-queue/BRANCH/pr-N-COMMIT``.
PROPOSAL_REF = re.compile(r"(?:^|-)patch-\d+$|^(?:dependabot|renovate|pull|gh-readonly-queue)/")

_T = TypeVar("_T")
_DIGIT = re.compile(r"\d")


class Candidate(NamedTuple):
    """A branch or tag name, with the version it spells (None when it holds no digit, or when the question
    is about spelling only)."""

    name: str
    is_tag: bool
    version: RefVersion | None


class RefIndex:
    """The index of one ref list (see the module docstring). Each part is built the first time a question
    needs it: a remote whose pins are all fine is never indexed past the names.

    Args:
        refs: the remote's branches and tags.

    Attributes:
        refs: the ref list.
        answers: questions already answered, for :meth:`remembered`.
    """

    def __init__(self, refs: RemoteRefs) -> None:
        self.refs = refs
        self.answers: dict[tuple[Any, ...], Any] = {}
        self._versions: _Versions | None = None
        self._spellings: _Spellings | None = None
        self._tips: dict[str, tuple[str | None, str | None]] | None = None
        self._tip_ids: list[str] = []
        self._scans = 0

    def remembered(self, key: tuple[Any, ...], compute: Callable[[], _T]) -> _T:
        """``compute()``, remembered with this index under ``key``."""
        if key not in self.answers:
            self.answers[key] = compute()
        answer: _T = self.answers[key]
        return answer

    def versioned(self) -> list[Candidate]:
        """Every name that spells a version (a name that is a branch and a tag counts once, as a tag)."""
        return self._version_index().candidates

    def same_version(self, version: RefVersion) -> list[Candidate]:
        """Names that spell ``version`` (equal parts and tail).

        The first few questions about a small ref list scan its names instead of building the version
        index: only the names holding every number of ``version`` written out are parsed (a name that
        spells it holds them all), which costs far less than parsing every name when, as in most scans,
        these are the only questions about versions. A large list, or many questions, build the index."""
        names = len(self.refs.branches) + len(self.refs.tags)
        if self._versions is None and names <= _SCANNED_NAMES and self._scans < _SCANS:
            self._scans += 1
            return self._same_version_scanned(version)
        return self._version_index().by_version.get(_version_key(version), [])

    def _same_version_scanned(self, version: RefVersion) -> list[Candidate]:
        key, digits = _version_key(version), {str(number) for part in version.numbers for number in part}
        found = []
        for name in set(self.refs.branches) | set(self.refs.tags):
            if all(written in name for written in digits) and not is_proposal(name):
                spelt = parse_version(name)
                if spelt is not None and _version_key(spelt) == key:
                    found.append(Candidate(name, name in self.refs.tags, spelt))
        return sorted(found, key=lambda candidate: candidate.name)

    def same_release(self, version: RefVersion) -> list[Candidate]:
        """Names of ``version``'s release: only the last part's qualifier may differ."""
        return self._version_index().by_release.get(_release_key(version, version.numbers), [])

    def same_numbers(self, version: RefVersion) -> list[Candidate]:
        """Names whose version has ``version``'s numbers."""
        return self._version_index().by_numbers.get(version.numbers, [])

    def near_in_numbers(self, version: RefVersion) -> list[Candidate]:
        """Names with as many version parts as ``version``, at most :data:`WINDOW` either side of where it
        sorts by numbers."""
        index = self._version_index()
        count = len(version.parts)
        keys, candidates = index.shape_keys.get(count, []), index.shapes.get(count, [])
        place = bisect.bisect_left(keys, version.numbers)
        return candidates[max(0, place - WINDOW) : place + WINDOW]

    def plain_near_in_length(self, name: str) -> list[Candidate]:
        """Names without digits, at most :data:`WINDOW` either side of ``name``'s length."""
        spellings = self._spelling_index()
        place = bisect.bisect_left(spellings.plain_lengths, len(name))
        return spellings.plain[max(0, place - WINDOW) : place + WINDOW]

    def near_in_length(self, name: str) -> list[Candidate]:
        """Any names, at most :data:`WINDOW` either side of ``name``'s length."""
        spellings = self._spelling_index()
        place = bisect.bisect_left(spellings.lengths, len(name))
        return spellings.by_length[max(0, place - WINDOW) : place + WINDOW]

    def first_tip(self, commit_id: str) -> tuple[str, str] | None:
        """The tag, else the branch, first by name among those whose tip commit starts with ``commit_id``
        (any case); None when no tip does. Reads at most :data:`WINDOW` distinct commits with that
        prefix."""
        if self._tips is None:
            self._tips = _first_names_per_commit(self.refs)
            self._tip_ids = sorted(self._tips)
        prefix = commit_id.lower()
        place = bisect.bisect_left(self._tip_ids, prefix)
        matching = []
        for commit in self._tip_ids[place : place + WINDOW]:
            if not commit.startswith(prefix):
                break
            matching.append(self._tips[commit])
        tags = [tag for tag, _ in matching if tag is not None]
        if tags:
            return "tag", min(tags)
        branches = [branch for _, branch in matching if branch is not None]
        return ("branch", min(branches)) if branches else None

    def _version_index(self) -> _Versions:
        if self._versions is None:
            with _collector_paused():
                self._versions = _Versions(self.refs)
        return self._versions

    def _spelling_index(self) -> _Spellings:
        if self._spellings is None:
            with _collector_paused():
                self._spellings = _Spellings(self.refs)
        return self._spellings


def is_proposal(name: str) -> bool:
    """True when ``name`` is a branch of a proposed change (:data:`PROPOSAL_REF`): the index leaves it out,
    so that no question about versions or spellings ever answers with it."""
    return PROPOSAL_REF.search(name) is not None


class _Versions:
    """The names that spell a version (but :func:`is_proposal` names), grouped by version, release and
    numbers, and sorted by numbers per count of parts. Built in one pass: one
    :func:`~ascend_reflint.check.versions.parse_version` per name."""

    def __init__(self, refs: RemoteRefs) -> None:
        parse = parse_version.__wrapped__  # a bulk pass would only churn the shared cache
        self.candidates: list[Candidate] = []
        self.by_version: dict[tuple[Any, ...], list[Candidate]] = {}
        self.by_release: dict[tuple[Any, ...], list[Candidate]] = {}
        self.by_numbers: dict[tuple[tuple[int, ...], ...], list[Candidate]] = {}
        shapes: dict[int, list[tuple[tuple[tuple[int, ...], ...], Candidate]]] = {}
        for name in sorted(set(refs.branches) | set(refs.tags)):
            version = parse(name) if _DIGIT.search(name) and not is_proposal(name) else None
            if version is None:
                continue
            candidate = Candidate(name, name in refs.tags, version)
            numbers = version.numbers
            self.candidates.append(candidate)
            self.by_version.setdefault(_version_key(version), []).append(candidate)
            self.by_release.setdefault(_release_key(version, numbers), []).append(candidate)
            self.by_numbers.setdefault(numbers, []).append(candidate)
            shapes.setdefault(len(numbers), []).append((numbers, candidate))
        self.shapes: dict[int, list[Candidate]] = {}
        self.shape_keys: dict[int, list[tuple[tuple[int, ...], ...]]] = {}
        for count, group in shapes.items():
            group.sort(key=lambda entry: entry[0])
            self.shape_keys[count] = [entry[0] for entry in group]
            self.shapes[count] = [entry[1] for entry in group]


class _Spellings:
    """Every name (but :func:`is_proposal` names), and the names without digits, sorted by length (then
    name)."""

    def __init__(self, refs: RemoteRefs) -> None:
        names = set(refs.branches) | set(refs.tags)
        named = sorted((len(name), name) for name in names if not is_proposal(name))
        self.lengths = [length for length, _ in named]
        self.by_length = [Candidate(name, name in refs.tags, None) for _, name in named]
        self.plain = [candidate for candidate in self.by_length if not _DIGIT.search(candidate.name)]
        self.plain_lengths = [len(candidate.name) for candidate in self.plain]


def index_of(refs: RemoteRefs) -> RefIndex:
    """The index of ``refs``, built on first use and kept with it (by identity)."""
    entry = _INDEXES.get(id(refs))
    if entry is None or entry.refs is not refs:
        if len(_INDEXES) >= _INDEXED_LISTS:
            _INDEXES.clear()
        entry = _INDEXES[id(refs)] = RefIndex(refs)
    return entry


#: ``id(refs)`` → its index, which holds the list itself, so that the id cannot be reused while kept.
_INDEXES: dict[int, RefIndex] = {}


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while an index is built: each collection walks every object
    made so far, so a pass that makes millions of small tuples would cost time growing with their square.
    Nothing built here forms a cycle."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _version_key(version: RefVersion) -> tuple[Any, ...]:
    return (version.parts, version.tail)


def _release_key(version: RefVersion, numbers: tuple[tuple[int, ...], ...]) -> tuple[Any, ...]:
    return (numbers, version.tail, version.parts[:-1], version.parts[-1].padding)


def _first_names_per_commit(refs: RemoteRefs) -> dict[str, tuple[str | None, str | None]]:
    """Tip commit → (its first tag by name, its first branch by name)."""
    tips: dict[str, tuple[str | None, str | None]] = {}
    for name, commit in refs.tags.items():
        tag, branch = tips.get(commit, (None, None))
        tips[commit] = (name if tag is None or name < tag else tag, branch)
    for name, commit in refs.branches.items():
        tag, branch = tips.get(commit, (None, None))
        tips[commit] = (tag, name if branch is None or name < branch else branch)
    return tips
