"""Variants: files that build one recipe for different targets (RL004 compares them; RL005 leaves them to it).

Two ways make a group:

- **Tokens** (``variant-tokens`` in the rule packs; the default pack lists ``a2``, ``a3``, ``a5``, ``310p``
  and ``openEuler``): files of one kind whose root-relative paths differ only by such tokens, each a whole
  ``.``-, ``_``- or ``-``-separated part of a name (any case), are variants.
  ``Dockerfile.ascend_9.1.0_a2`` and ``Dockerfile.ascend_9.1.0_a3`` are; so are ``Dockerfile``,
  ``Dockerfile.a3``, ``Dockerfile.openEuler`` and ``Dockerfile.a3.openEuler``; so are
  ``docker-build-ascend-a2.yml`` and ``docker-build-ascend-a3.yml``. ``Dockerfile.ascend_8.2.rc1_a2`` and
  ``Dockerfile.ascend_8.3.rc1_a2`` are not: ``8.2`` is not a token.
- **Explicit groups** (``variant-groups``): the files that one entry's globs match. A file that an explicit
  group takes is in no token group.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.check.globs import matches
from ascend_reflint.model import FileKind, Pin, SourceFile

if TYPE_CHECKING:
    from ascend_reflint.check.policy import Policy

_SEPARATED = re.compile(r"([._-])")


class VariantGroup(NamedTuple):
    """Files that are variants of one recipe.

    Attributes:
        label: the explicit group's name, or the common path with the tokens taken out.
        files: the group's files, in path order (two or more).
        allowed_drift: normalised remotes that may differ between them.
        explicit: True for a group of ``variant-groups`` (which has an ``allowed-drift`` of its own), False
            for one that ``variant-tokens`` make.
    """

    label: str
    files: tuple[SourceFile, ...]
    allowed_drift: tuple[str, ...]
    explicit: bool = False

    @property
    def allowing_key(self) -> str:
        """Where a remote is listed for these variants to pin it differently, for messages:
        ``variant-allowed-drift``, or also the explicit group's ``allowed-drift``."""
        if self.explicit:
            return f"variant-groups '{self.label}' allowed-drift (or variant-allowed-drift)"
        return "variant-allowed-drift"


class VariantIndex(NamedTuple):
    """Every variant group of a scan, and which group each file is in.

    Attributes:
        groups: the groups, in the order found.
        group_by_path: display path → the group of the file (a file in no group is absent).
    """

    groups: tuple[VariantGroup, ...] = ()
    group_by_path: Mapping[str, VariantGroup] = MappingProxyType({})

    def group_of(self, path: str) -> VariantGroup | None:
        """The group of the file with display path ``path``, or None."""
        return self.group_by_path.get(path)

    def are_variants(self, first: str, second: str) -> bool:
        """True when the files with display paths ``first`` and ``second`` are in one group."""
        group = self.group_by_path.get(first)
        return group is not None and group is self.group_by_path.get(second)


def variant_key(path: str, tokens: Iterable[str]) -> str:
    """``path`` with every token part taken out, with the separator before it (after it, for a name's
    first part): ``docker/Dockerfile.ascend_9.1.0_a2`` → ``docker/Dockerfile.ascend_9.1.0``.

    Args:
        path: a ``/``-separated path.
        tokens: lower-case tokens.
    """
    wanted = frozenset(tokens)
    return "/".join(_without_tokens(name, wanted) for name in path.split("/"))


def _without_tokens(name: str, tokens: frozenset[str]) -> str:
    parts = _SEPARATED.split(name)  # name parts at even indexes, the separator before each at odd ones
    kept: list[str] = []
    for index in range(0, len(parts), 2):
        if parts[index].lower() in tokens:
            continue  # the separator before a token goes with it: separators are kept with the part after
        if kept:
            kept.append(parts[index - 1])
        kept.append(parts[index])
    return "".join(kept)


def find_variants(files: Sequence[SourceFile], policy: Policy, relpaths: Mapping[str, str]) -> VariantIndex:
    """Group ``files`` into variants.

    Args:
        files: the files read (those that could not be read are left out of every group).
        policy: the merged rule packs (``variant-tokens``, ``variant-groups``, ``variant-allowed-drift``).
        relpaths: display path → root-relative path, for globs and tokens.

    Returns:
        The groups, explicit ones first (in pack order), then token groups by path.
    """
    readable = [source for source in files if source.error is None]  # read and extracted
    explicit: dict[int, list[SourceFile]] = {}
    by_key: dict[tuple[FileKind, str], list[SourceFile]] = {}
    for source in readable:
        relpath = relpaths[source.path]
        spec = next(
            (index for index, group in enumerate(policy.variant_groups) if matches(group.files, relpath)),
            None,
        )
        if spec is not None:
            explicit.setdefault(spec, []).append(source)
        else:
            by_key.setdefault((source.kind, variant_key(relpath, policy.variant_tokens)), []).append(source)
    groups = [
        VariantGroup(
            policy.variant_groups[index].label,
            tuple(members),
            (*policy.variant_groups[index].allowed_drift, *policy.variant_allowed_drift),
            explicit=True,
        )
        for index, members in sorted(explicit.items())
        if len(members) > 1
    ]
    groups.extend(
        VariantGroup(key, tuple(members), policy.variant_allowed_drift)
        for (_, key), members in sorted(by_key.items(), key=lambda item: item[0][1])
        if len(members) > 1
    )
    return VariantIndex(tuple(groups), {source.path: group for group in groups for source in group.files})


def shown_ref(pin: Pin) -> str:
    """The ref for messages: ``"v1"`` quoted, or ``no ref`` (the default branch).

    RL004 compares resolved pins only, so ``pin.ref`` is the ref the build uses."""
    return f'"{pin.ref}"' if pin.ref is not None else "no ref"
