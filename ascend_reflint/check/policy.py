"""What the rules know about remotes and files: the merged values of rule packs, plain and frozen.

A :class:`Policy` is built from packs in order (:meth:`Policy.from_packs`, :meth:`Policy.merged_with`):
lists concatenate (first occurrence kept), and a later pack's severity for a code replaces an earlier one's.
Reading packs (YAML files, validated) is :mod:`ascend_reflint.check.packs`'s job.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ascend_reflint.check.fields import REMOVAL, normalise_entry
from ascend_reflint.model import Severity

if TYPE_CHECKING:
    from ascend_reflint.check.located import Locator


class PolicyError(Exception):
    """A rule pack cannot be read or is not valid; the message names the file, the line and the key."""


class VariantGroupSetting(NamedTuple):
    """An explicit group of variants as a policy holds it (``variant-groups`` entry, RL004).

    Attributes:
        files: globs of the files that are variants of one recipe.
        name: a name for messages (default: the first glob).
        allowed_drift: normalised remotes that may differ between these files.
    """

    files: tuple[str, ...]
    name: str = ""
    allowed_drift: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The name, else the first glob."""
        return self.name or self.files[0]


class DriftFamilySetting(NamedTuple):
    """Files whose pins of one remote are compared, as a policy holds them (``drift-families``, RL005).

    Attributes:
        name: a name for messages.
        files: globs of the family's files.
    """

    name: str
    files: tuple[str, ...]


class EnvPairSetting(NamedTuple):
    """Dockerfiles and the workflows that run their images, as a policy holds them (``env-pairs``, RL006).

    Attributes:
        dockerfiles: globs of the Dockerfiles.
        workflows: globs of the workflows.
    """

    dockerfiles: tuple[str, ...]
    workflows: tuple[str, ...]


#: The severities of a pack that sets none (read-only: every such pack shares it).
_NO_SEVERITIES: Mapping[str, Severity] = MappingProxyType({})


class ShippedPack(NamedTuple):
    """A default rule pack, read without pydantic (see the module docstring): the values a valid
    :class:`~ascend_reflint.check.pack_schema.RulePack` would hold, the same field for field."""

    name: str
    description: str = ""
    tag_pinned_remotes: tuple[str, ...] = ()
    branch_release_remotes: tuple[str, ...] = ()
    head_tracking_remotes: tuple[str, ...] = ()
    self_head_tracking_remotes: tuple[str, ...] = ()
    private_remotes: tuple[str, ...] = ()
    full_history_remotes: tuple[str, ...] = ()
    variant_tokens: tuple[str, ...] = ()
    variant_groups: tuple[VariantGroupSetting, ...] = ()
    variant_allowed_drift: tuple[str, ...] = ()
    drift_families: tuple[DriftFamilySetting, ...] = ()
    drift_same_kind: bool | None = None
    drift_allowed_remotes: tuple[str, ...] = ()
    shared_env: tuple[str, ...] = ()
    env_pairs: tuple[EnvPairSetting, ...] = ()
    severity: Mapping[str, Severity] = _NO_SEVERITIES
    newer_release: str | None = None


#: The fields that hold lists; they merge by concatenation, first occurrence kept.
LIST_FIELDS = (
    "tag_pinned_remotes",
    "branch_release_remotes",
    "head_tracking_remotes",
    "self_head_tracking_remotes",
    "private_remotes",
    "full_history_remotes",
    "variant_tokens",
    "variant_groups",
    "variant_allowed_drift",
    "drift_families",
    "drift_allowed_remotes",
    "shared_env",
    "env_pairs",
)


class PackValues(Protocol):
    """What :meth:`Policy.merged_with` reads of a pack: a :class:`ShippedPack`, a validated
    :class:`~ascend_reflint.check.pack_schema.RulePack`, or a config file's settings. Besides these, the
    fields named in :data:`LIST_FIELDS` are read by name, and ``name`` when there is one."""

    @property
    def drift_same_kind(self) -> bool | None: ...

    @property
    def severity(self) -> Mapping[str, Severity]: ...

    @property
    def newer_release(self) -> str | None: ...


@dataclass(init=False)
class Policy:
    """What the rules know about remotes and files, merged from rule packs in order.

    Immutable: assigning an attribute raises ``ValueError``, and so does an unknown keyword.

    Attributes:
        packs: the names of the packs merged, in order.
        tag_pinned_remotes … env_pairs: as in :class:`~ascend_reflint.check.pack_schema.PackSettings`,
            concatenated, first occurrence kept.
        drift_same_kind: the last pack's choice that set one (default False).
        severity: rule code → severity; a later pack's entry replaces an earlier one's.
        newer_release: how far RL024 looks for a newer release (``patch``, ``minor``, ``major`` or
            ``off``): the last pack's choice that set one (default ``patch``).

    When a remote is in more than one list, the more lenient statement wins for RL002: head-tracking and
    branch-release both beat tag-pinned, so that a user's pack can relax a default one.
    """

    packs: tuple[str, ...]
    tag_pinned_remotes: tuple[str, ...]
    branch_release_remotes: tuple[str, ...]
    head_tracking_remotes: tuple[str, ...]
    self_head_tracking_remotes: tuple[str, ...]
    private_remotes: tuple[str, ...]
    full_history_remotes: tuple[str, ...]
    variant_tokens: tuple[str, ...]
    variant_groups: tuple[VariantGroupSetting, ...]
    variant_allowed_drift: tuple[str, ...]
    drift_families: tuple[DriftFamilySetting, ...]
    drift_same_kind: bool
    drift_allowed_remotes: tuple[str, ...]
    shared_env: tuple[str, ...]
    env_pairs: tuple[EnvPairSetting, ...]
    severity: Mapping[str, Severity]
    newer_release: str

    def __init__(
        self,
        *,
        packs: Iterable[str] = (),
        tag_pinned_remotes: Iterable[str] = (),
        branch_release_remotes: Iterable[str] = (),
        head_tracking_remotes: Iterable[str] = (),
        self_head_tracking_remotes: Iterable[str] = (),
        private_remotes: Iterable[str] = (),
        full_history_remotes: Iterable[str] = (),
        variant_tokens: Iterable[str] = (),
        variant_groups: Iterable[VariantGroupSetting] = (),
        variant_allowed_drift: Iterable[str] = (),
        drift_families: Iterable[DriftFamilySetting] = (),
        drift_same_kind: bool = False,
        drift_allowed_remotes: Iterable[str] = (),
        shared_env: Iterable[str] = (),
        env_pairs: Iterable[EnvPairSetting] = (),
        severity: Mapping[str, Severity] | None = None,
        newer_release: str = "patch",
        **extra: object,
    ) -> None:
        """Raises ``ValueError`` for a keyword that is not a field (extra fields are not permitted)."""
        if extra:
            raise ValueError(
                f"Policy has no field {', '.join(sorted(extra))}: extra fields are not permitted"
            )
        values: dict[str, Any] = {
            "packs": tuple(packs),
            "tag_pinned_remotes": tuple(tag_pinned_remotes),
            "branch_release_remotes": tuple(branch_release_remotes),
            "head_tracking_remotes": tuple(head_tracking_remotes),
            "self_head_tracking_remotes": tuple(self_head_tracking_remotes),
            "private_remotes": tuple(private_remotes),
            "full_history_remotes": tuple(full_history_remotes),
            "variant_tokens": tuple(variant_tokens),
            "variant_groups": tuple(variant_groups),
            "variant_allowed_drift": tuple(variant_allowed_drift),
            "drift_families": tuple(drift_families),
            "drift_same_kind": drift_same_kind,
            "drift_allowed_remotes": tuple(drift_allowed_remotes),
            "shared_env": tuple(shared_env),
            "env_pairs": tuple(env_pairs),
            "severity": dict(severity or {}),
            "newer_release": newer_release,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise ValueError(f"Policy is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise ValueError(f"Policy is frozen: cannot delete {name}")

    @classmethod
    def from_packs(cls, packs: Iterable[PackValues]) -> Policy:
        """Merge ``packs`` in order into a new policy (an empty policy for no packs)."""
        policy = cls()
        for pack in packs:
            policy = policy.merged_with(pack)
        return policy

    def merged_with(
        self,
        pack: PackValues,
        name: str | None = None,
        source: str | None = None,
        locate: Locator | None = None,
        key_prefix: str = "",
    ) -> Policy:
        """A new policy: this one with ``pack`` applied after it (lists concatenate, severities replace).

        Args:
            pack: a rule pack (shipped or validated), or the settings of a user's config.
            name: the name to record in ``packs`` (default: the pack's own ``name``).
            source: the file ``pack`` was read from, for errors (default: the name).
            locate: where a key or list entry of that file is (``("full-history-remotes", 1)`` → line and
                column), for errors.
            key_prefix: put before a key in errors (``tool.reflint.`` for a ``pyproject.toml`` table).

        Raises:
            PolicyError: a removal (``!ENTRY``) that removes nothing, at ``source:line:column:`` when
                ``locate`` finds it.
        """
        label = name if name is not None else str(getattr(pack, "name", "config"))
        place = _Place(source or label, locate, key_prefix)
        lists: dict[str, Any] = {
            field_name: _merged(getattr(self, field_name), _settings(pack, field_name), place, field_name)
            for field_name in LIST_FIELDS
        }
        same_kind = self.drift_same_kind if pack.drift_same_kind is None else pack.drift_same_kind
        return Policy(
            packs=(*self.packs, label),
            severity={**self.severity, **pack.severity},
            drift_same_kind=same_kind,
            newer_release=pack.newer_release or self.newer_release,
            **lists,
        )

    @functools.cached_property
    def _listed(self) -> dict[str, frozenset[str]]:
        """Each remote list as a set, for the membership tests that run once per pin."""
        return {name: frozenset(getattr(self, name)) for name in LIST_FIELDS if name.endswith("_remotes")}

    def _lists(self, name: str, remote: str | None) -> bool:
        normalised = _normalised_remote(remote)
        return normalised is not None and normalised in self._listed[name]

    def is_tag_pinned(self, remote: str | None) -> bool:
        """True when ``remote`` releases by tag and no list relaxes that."""
        return (
            self._lists("tag_pinned_remotes", remote)
            and not self.is_branch_release(remote)
            and not self.is_head_tracking(remote)
        )

    def is_branch_release(self, remote: str | None) -> bool:
        """True when ``remote``'s release line is branches."""
        return self._lists("branch_release_remotes", remote)

    def is_head_tracking(self, remote: str | None) -> bool:
        """True when ``remote`` is meant to be built at its default branch's head."""
        return self._lists("head_tracking_remotes", remote)

    def is_self_head_tracking(self, remote: str | None) -> bool:
        """True when ``remote``'s own recipes build it at its default branch's head: head-tracking in a scan
        of that repository only (:attr:`~ascend_reflint.check.context.PinContext.tracks_head`)."""
        return self._lists("self_head_tracking_remotes", remote)

    def is_private(self, remote: str | None) -> bool:
        """True when ``remote`` needs credentials."""
        return self._lists("private_remotes", remote)

    def needs_full_history(self, remote: str | None) -> bool:
        """True when ``remote``'s commits are checked out by id and so need a full clone."""
        return self._lists("full_history_remotes", remote)

    def may_drift_across_files(self, remote: str | None) -> bool:
        """True when ``remote`` may be pinned at different refs in different files (RL005)."""
        return self._lists("drift_allowed_remotes", remote)

    def severity_for(self, code: str, severity: Severity) -> Severity:
        """The severity a finding of ``code`` gets: the packs' setting, else the rule's ``severity``."""
        return self.severity.get(code, severity)


@functools.lru_cache(maxsize=1024)
def _normalised_remote(remote: str | None) -> str | None:
    """``remote`` as the lists hold it, or None (a scan asks about the same few remotes once per pin)."""
    if remote is None:
        return None
    try:
        return normalise_entry(remote)
    except ValueError:
        return None


class _Place(NamedTuple):
    """The file a pack was read from, where its keys and entries are in it (None: not known), and what
    goes before a key in messages."""

    source: str
    locate: Locator | None
    key_prefix: str = ""

    def of(self, key: str, index: int) -> str:
        """``source:line:column: key[index]``, or ``source: key[index]`` when the place is not known."""
        position = self.locate((key, index)) if self.locate is not None else None
        where = self.source if position is None else f"{self.source}:{position[0]}:{position[1]}"
        return f"{where}: {self.key_prefix}{key}[{index}]"


def _merged(earlier: tuple[Any, ...], entries: tuple[Any, ...], place: _Place, name: str) -> tuple[Any, ...]:
    """The list ``name`` after a pack gives ``entries``: each entry added, first occurrence kept, and each
    ``!ENTRY`` removing ENTRY from what is listed before it.

    Raises:
        PolicyError: for a removal of an entry that nothing before it lists, or that an earlier removal of
            the same list removed already (a misspelt remote would otherwise remove nothing, silently).
    """
    merged = dict.fromkeys(earlier)
    removed_at: dict[str, int] = {}
    key = name.replace("_", "-")
    for index, entry in enumerate(entries):
        if isinstance(entry, str) and entry.startswith(REMOVAL):
            removed = entry[len(REMOVAL) :]
            if removed in removed_at:
                raise PolicyError(
                    f"{place.of(key, index)}: {entry!r} removes nothing: "
                    f"{place.key_prefix}{key}[{removed_at[removed]}] removes it already"
                )
            if removed not in merged:
                raise PolicyError(
                    f"{place.of(key, index)}: {entry!r} removes nothing: no rule pack before it lists "
                    f"{removed!r}"
                )
            del merged[removed]
            removed_at[removed] = index
        else:
            merged.setdefault(entry)
    return tuple(merged)


def _settings(pack: PackValues, name: str) -> tuple[Any, ...]:
    """The list ``name`` of ``pack``, with validated group, family and pair entries made plain."""
    entries = tuple(getattr(pack, name))
    if name == "variant_groups":
        return tuple(VariantGroupSetting(tuple(e.files), e.name, tuple(e.allowed_drift)) for e in entries)
    if name == "drift_families":
        return tuple(DriftFamilySetting(e.name, tuple(e.files)) for e in entries)
    if name == "env_pairs":
        return tuple(EnvPairSetting(tuple(e.dockerfiles), tuple(e.workflows)) for e in entries)
    return entries
