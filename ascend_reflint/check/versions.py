"""Version numbers inside git ref names, for comparing refs by version rather than by spelling.

Release refs spell one version many ways: Megatron-LM's branch ``core_r0.18.0`` and tag ``core_v0.18.0``,
TransformerEngine's branch ``release_v2.11`` and tag ``v2.11``, vllm-ascend's branch ``releases/v0.13.0``
and tag ``v0.13.0``. Reading each name as *parts* (dotted numbers, each with an optional pre- or
post-release qualifier) plus the letters around them lets the rules say "same version" when the numbers
and qualifiers agree, whatever the letters.

A name is read left to right:

- a *part* is a run of dotted numbers (``0.18.0``) followed by any qualifiers: ``rc3``, ``.rc1``,
  ``-beta.1``, ``.post1``, ``-dev``, ``a2``, ``-alpha``. Qualifier words and their order follow PEP 440
  ("Pre-releases", "Post-releases", "Developmental releases"): ``dev`` < ``a``/``alpha`` < ``b``/``beta``
  < ``rc``/``c``/``pre``/``preview`` < final release < ``post``; a missing qualifier number counts as 0.
  Trailing zeros do not count (PEP 440 "Release segment": ``2.11`` is ``2.11.0``).
- leading zeros count only in a number of more than two digits: ``01`` is 1, as in calendar versions
  (calver.org's zero-padded ``0M``, ``0D``, ``0Y``: ``2026.01.05`` is ``2026.1.5``), while ``00000001``
  is a fixed-width counter (a build number), not the version 1: its width is part of the part
  (:attr:`VersionPart.padding`).
- the *markers* are the letters written right before each part, after the last separator: ``v`` in
  ``v0.18.0`` and in ``core_v0.18.0``, ``r`` in ``core_r0.18.0``, ``t`` in ``t00000001``, none in
  ``1.0`` and in ``release-1.0``. ``v`` ("version": semver.org's FAQ calls a ``v`` prefix the common way
  to mark a version number) and ``r`` ("release") mark the version itself and are interchangeable with
  none; any other marker names another numbering (a build, a CUDA version): see
  :meth:`RefVersion.markers_agree`.
- the *tail* is what follows the last part (``_verl`` in ``core_v0.4.0_verl``): it names a different
  line of work, so it is part of the version's identity. Case and punctuation in it are ignored.
- the *skeleton* is the name with every part replaced by ``#`` (``core_r#``): the letters, compared for
  closeness only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

#: PEP 440 ordering of qualifiers; a final release (no qualifier) ranks between ``rc`` and ``post``.
_PHASE_RANK = {
    "dev": 0,
    "a": 1,
    "alpha": 1,
    "b": 2,
    "beta": 2,
    "c": 3,
    "rc": 3,
    "pre": 3,
    "preview": 3,
    "post": 5,
}
FINAL_RANK = 4

_NUMBERS = re.compile(r"\d+(?:\.\d+)*")
# A qualifier must not run on into a word: "12.1-cudnn" has no qualifier "c".
_QUALIFIER = re.compile(
    r"[._-]?(?P<phase>alpha|beta|preview|pre|rc|post|dev|a|b|c)(?:[._-]?(?P<number>\d+))?(?![A-Za-z])",
    re.IGNORECASE,
)
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
#: The letters right before each ``#`` of a skeleton (after the last separator).
_MARKER = re.compile(r"([a-z]*)#")
#: Markers that mark the version itself: none, ``v`` (version) and ``r`` (release).
_VERSION_MARKERS = frozenset({"", "v", "r"})
#: The widest number whose leading zeros are padding of a version number (``01``: a month).
_PADDED_VERSION_DIGITS = 2

#: A qualifier as ``(rank, number)``; see :data:`FINAL_RANK`.
Qualifier = tuple[tuple[int, int], ...]
FINAL: Qualifier = ((FINAL_RANK, 0),)


@dataclass(frozen=True, slots=True)
class VersionPart:
    """One run of dotted numbers and its qualifiers.

    Attributes:
        numbers: the numbers, trailing zeros removed (``0.18.0`` → ``(0, 18)``; ``0`` stays ``(0,)``).
        qualifier: ``(rank, number)`` per qualifier word, empty for none (``rc3`` → ``((3, 3),)``).
        padding: per number, its width when it is written with leading zeros in more than two digits (a
            counter: ``00000001`` → ``(8,)``), else 0; empty when no number is (see the module docstring).
        written: how many numbers are written, trailing zeros included (``0.11.0`` → 3, ``0.11`` → 2):
            not part of the version (``0.11`` is ``0.11.0``), only of how it is spelt.
    """

    numbers: tuple[int, ...]
    qualifier: Qualifier
    padding: tuple[int, ...] = ()
    written: int = field(default=1, compare=False)

    @property
    def qualifier_key(self) -> Qualifier:
        """The qualifier as a sort key: a final release (none) sorts after ``rc`` and before ``post``."""
        return self.qualifier or FINAL


class RefVersion(NamedTuple):
    """The version a ref name spells (see the module docstring).

    Attributes:
        parts: the parts, left to right (at least one).
        tail: the letters and digits after the last part, lower-cased, punctuation removed.
        skeleton: the name lower-cased with every part replaced by ``#``.
    """

    parts: tuple[VersionPart, ...]
    tail: str
    skeleton: str

    @property
    def numbers(self) -> tuple[tuple[int, ...], ...]:
        """The numbers of every part."""
        return tuple(part.numbers for part in self.parts)

    @property
    def is_release(self) -> bool:
        """True for a final release: no qualifier in any part and no tail."""
        return not self.tail and all(not part.qualifier for part in self.parts)

    def same_version(self, other: RefVersion) -> bool:
        """True when both names spell one version: equal parts (numbers and qualifiers) and tail."""
        return self.parts == other.parts and self.tail == other.tail

    @property
    def components(self) -> tuple[int, ...]:
        """How many numbers each part writes, trailing zeros included (``core_v0.11.0`` → ``(3,)``,
        ``v4`` → ``(1,)``): two spellings of one version that also agree on this are exact analogues."""
        return tuple(part.written for part in self.parts)

    @property
    def markers(self) -> tuple[str, ...]:
        """The letters written right before each part (``core_r0.18.0`` → ``("r",)``; see the module
        docstring)."""
        return tuple(_MARKER.findall(self.skeleton))

    def markers_agree(self, other: RefVersion) -> bool:
        """True when the two names mark their parts alike: the same letters, or letters that each mark the
        version itself (none, ``v``, ``r``): ``1.0`` and ``v1.0`` agree, ``core_r0.18.0`` and
        ``core_v0.18.0`` agree, ``v1`` and ``t00000001`` do not."""
        ours, theirs = self.markers, other.markers
        return len(ours) == len(theirs) and all(
            a == b or (a in _VERSION_MARKERS and b in _VERSION_MARKERS)
            for a, b in zip(ours, theirs, strict=True)
        )

    def same_release(self, other: RefVersion) -> bool:
        """True when only the last part's qualifier may differ (``v0.11.0rc9`` and ``v0.11.0rc3``)."""
        return (
            self.numbers == other.numbers and self.tail == other.tail and self.parts[:-1] == other.parts[:-1]
        )


@lru_cache(maxsize=65536)
def parse_version(name: str) -> RefVersion | None:
    """Read the version that a ref name spells.

    Args:
        name: a branch or tag name (``core_v0.12.0rc2``, ``release_v2.11``, ``2026.01.21``).

    Returns:
        The version, or None when the name holds no digit.
    """
    parts: list[VersionPart] = []
    skeleton: list[str] = []
    position = 0
    tail_start = 0
    while (numbers := _NUMBERS.search(name, position)) is not None:
        skeleton.append(name[position : numbers.start()].lower())
        position = numbers.end()
        qualifier: list[tuple[int, int]] = []
        while (word := _QUALIFIER.match(name, position)) is not None:
            number = word.group("number")
            qualifier.append((_PHASE_RANK[word.group("phase").lower()], int(number) if number else 0))
            position = word.end()
        parts.append(_part(numbers.group(), tuple(qualifier)))
        skeleton.append("#")
        tail_start = position
    if not parts:
        return None
    tail = name[tail_start:]
    skeleton.append(tail.lower())
    return RefVersion(
        parts=tuple(parts),
        tail=_NOT_ALNUM.sub("", tail.lower()),
        skeleton="".join(skeleton),
    )


def _part(dotted: str, qualifier: Qualifier) -> VersionPart:
    """A part from its dotted numbers, trailing zeros removed, counters' widths kept."""
    pieces = dotted.split(".")
    written = len(pieces)
    numbers = [int(piece) for piece in pieces]
    padding = [
        len(piece) if len(piece) > _PADDED_VERSION_DIGITS and piece[0] == "0" else 0 for piece in pieces
    ]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
        padding.pop()
    return VersionPart(tuple(numbers), qualifier, tuple(padding) if any(padding) else (), written)
