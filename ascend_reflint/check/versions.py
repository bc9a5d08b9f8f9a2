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
- the *tail* is what follows the last part (``_verl`` in ``core_v0.4.0_verl``): it names a different
  line of work, so it is part of the version's identity. Case and punctuation in it are ignored.
- the *skeleton* is the name with every part replaced by ``#`` (``core_r#``): the letters, compared for
  closeness only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

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

#: A qualifier as ``(rank, number)``; see :data:`FINAL_RANK`.
Qualifier = tuple[tuple[int, int], ...]
FINAL: Qualifier = ((FINAL_RANK, 0),)


@dataclass(frozen=True, slots=True)
class VersionPart:
    """One run of dotted numbers and its qualifiers.

    Attributes:
        numbers: the numbers, trailing zeros removed (``0.18.0`` → ``(0, 18)``; ``0`` stays ``(0,)``).
        qualifier: ``(rank, number)`` per qualifier word, empty for none (``rc3`` → ``((3, 3),)``).
    """

    numbers: tuple[int, ...]
    qualifier: Qualifier

    @property
    def qualifier_key(self) -> Qualifier:
        """The qualifier as a sort key: a final release (none) sorts after ``rc`` and before ``post``."""
        return self.qualifier or FINAL


@dataclass(frozen=True, slots=True)
class RefVersion:
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
        parts.append(VersionPart(_without_trailing_zeros(numbers.group()), tuple(qualifier)))
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


def _without_trailing_zeros(dotted: str) -> tuple[int, ...]:
    numbers = [int(piece) for piece in dotted.split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)
