"""Rule packs: YAML files that tell the rules about remotes and files, and set severities.

A pack (format: ``rules/README.md``) that a user wrote is read with ruamel.yaml's round-trip loader (which
keeps the line of every key, for messages) and checked by a pydantic model that forbids unknown keys
(:mod:`ascend_reflint.check.pack_schema`), so a misspelt key is an error rather than a silent no-op. The
default packs are every ``*.yaml`` shipped in ``rules/``; they are trusted, and read with PyYAML's libyaml
loader and the plain checks of this module, without pydantic, which a scan would otherwise spend more time
importing than checking a small repository (a test validates them with the full model, so a bad edit
still fails CI; a shipped pack that the plain reader does not take is validated here too, for the message).
The user's config (:mod:`ascend_reflint.config`) and ``--rule-pack`` files come after the default packs.
Packs merge in order: lists concatenate (first occurrence kept), and a later pack's severity for a code
replaces an earlier one's.

Where the default packs live: an installed wheel holds them as ``ascend_reflint/rules`` (hatch's
``force-include``), found with :mod:`importlib.resources`; an editable install or a source checkout has
them in the repository's top-level ``rules/`` folder, next to the package.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascend_reflint.check.globs import check_glob
from ascend_reflint.check.rules import RULES
from ascend_reflint.model import Severity
from ascend_reflint.output import shown
from ascend_reflint.remote import normalise_remote

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from ascend_reflint.check.pack_schema import PackSettings, RulePack

_RULE_CODE = re.compile(r"RL\d{3}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME_PART = re.compile(r"[A-Za-z0-9]+")
PACK_SUFFIX = ".yaml"
#: The pydantic models, imported from :mod:`ascend_reflint.check.pack_schema` on first use.
_SCHEMA_NAMES = frozenset({"DriftFamily", "EnvPair", "PackSettings", "RulePack", "VariantGroupSpec"})


class PolicyError(Exception):
    """A rule pack cannot be read or is not valid; the message names the file, the line and the key."""


def __getattr__(name: str) -> Any:
    """The pydantic models (``RulePack``, ``PackSettings``, …), imported when first asked for (PEP 562)."""
    if name in _SCHEMA_NAMES:
        from ascend_reflint.check import pack_schema

        return getattr(pack_schema, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def normalise_entry(entry: str) -> str:
    """``github.com/NVIDIA/Megatron-LM``, or any URL of it, → ``github.com/nvidia/megatron-lm``.

    Raises:
        ValueError: for text that is not a remote (``host/owner/name``).
    """
    remote = normalise_remote(entry) or normalise_remote(f"https://{entry}")
    if remote is None or remote.count("/") < 2:
        raise ValueError(
            f"{entry!r} is not a remote (expected host/owner/name, e.g. github.com/nvidia/megatron-lm)"
        )
    return remote


def unique(entries: tuple[str, ...]) -> tuple[str, ...]:
    """``entries`` with each one once, first occurrence kept."""
    return tuple(dict.fromkeys(entries))


def parse_severity(value: object) -> Severity:
    """A :class:`Severity`, or its name.

    Raises:
        ValueError: for anything else, or an unknown name.
    """
    if isinstance(value, Severity):
        return value
    if not isinstance(value, str):
        raise ValueError("expected error, warning or info")
    return Severity.parse(value)


def check_code(code: str) -> str:
    """Return ``code`` in upper case when it is a known rule code in any case (``rl002`` → ``RL002``), as
    ``--select`` and ``# reflint: ignore[...]`` read codes.

    Raises:
        ValueError: for text that is not ``RL`` and three digits, or a code no rule has.
    """
    known = {rule.CODE for rule in RULES}
    upper = code.upper()
    if not _RULE_CODE.fullmatch(upper):
        raise ValueError(f"{code!r} is not a rule code (expected RL followed by three digits)")
    if upper not in known:
        raise ValueError(f"unknown rule code {upper} (known: {', '.join(sorted(known))})")
    return upper


def check_env_name(name: str) -> str:
    """Return ``name`` when it is an environment variable name.

    Raises:
        ValueError: otherwise.
    """
    if not _ENV_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not an environment variable name")
    return name


def check_token(token: str) -> str:
    """A variant token in lower case.

    Raises:
        ValueError: for text that is not letters and digits.
    """
    if not _NAME_PART.fullmatch(token):
        raise ValueError(f"{token!r} is not a name part (letters and digits, without '.', '_' or '-')")
    return token.lower()


@dataclass(frozen=True, slots=True)
class VariantGroupSetting:
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


@dataclass(frozen=True, slots=True)
class DriftFamilySetting:
    """Files whose pins of one remote are compared, as a policy holds them (``drift-families``, RL005).

    Attributes:
        name: a name for messages.
        files: globs of the family's files.
    """

    name: str
    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EnvPairSetting:
    """Dockerfiles and the workflows that run their images, as a policy holds them (``env-pairs``, RL006).

    Attributes:
        dockerfiles: globs of the Dockerfiles.
        workflows: globs of the workflows.
    """

    dockerfiles: tuple[str, ...]
    workflows: tuple[str, ...]


@dataclass(frozen=True)
class ShippedPack:
    """A default rule pack, read without pydantic (see the module docstring): the values a valid
    :class:`~ascend_reflint.check.pack_schema.RulePack` would hold, the same field for field."""

    name: str
    description: str = ""
    tag_pinned_remotes: tuple[str, ...] = ()
    branch_release_remotes: tuple[str, ...] = ()
    head_tracking_remotes: tuple[str, ...] = ()
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
    severity: Mapping[str, Severity] = field(default_factory=dict)


#: The fields that hold lists; they merge by concatenation, first occurrence kept.
LIST_FIELDS = (
    "tag_pinned_remotes",
    "branch_release_remotes",
    "head_tracking_remotes",
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

    When a remote is in more than one list, the more lenient statement wins for RL002: head-tracking and
    branch-release both beat tag-pinned, so that a user's pack can relax a default one.
    """

    packs: tuple[str, ...]
    tag_pinned_remotes: tuple[str, ...]
    branch_release_remotes: tuple[str, ...]
    head_tracking_remotes: tuple[str, ...]
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

    def __init__(
        self,
        *,
        packs: Iterable[str] = (),
        tag_pinned_remotes: Iterable[str] = (),
        branch_release_remotes: Iterable[str] = (),
        head_tracking_remotes: Iterable[str] = (),
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
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise ValueError(f"Policy is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise ValueError(f"Policy is frozen: cannot delete {name}")

    @classmethod
    def from_packs(cls, packs: Iterable[ShippedPack | PackSettings]) -> Policy:
        """Merge ``packs`` in order into a new policy (an empty policy for no packs)."""
        policy = cls()
        for pack in packs:
            policy = policy.merged_with(pack)
        return policy

    def merged_with(self, pack: ShippedPack | PackSettings, name: str | None = None) -> Policy:
        """A new policy: this one with ``pack`` applied after it (lists concatenate, severities replace).

        Args:
            pack: a rule pack (shipped or validated), or the settings of a user's config.
            name: the name to record in ``packs`` (default: the pack's own ``name``).
        """
        lists: dict[str, Any] = {
            field_name: tuple(dict.fromkeys((*getattr(self, field_name), *_settings(pack, field_name))))
            for field_name in LIST_FIELDS
        }
        same_kind = self.drift_same_kind if pack.drift_same_kind is None else pack.drift_same_kind
        label = name if name is not None else str(getattr(pack, "name", "config"))
        return Policy(
            packs=(*self.packs, label),
            severity={**self.severity, **pack.severity},
            drift_same_kind=same_kind,
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


def _settings(pack: ShippedPack | PackSettings, name: str) -> tuple[Any, ...]:
    """The list ``name`` of ``pack``, with validated group, family and pair entries made plain."""
    entries = tuple(getattr(pack, name))
    if name == "variant_groups":
        return tuple(VariantGroupSetting(tuple(e.files), e.name, tuple(e.allowed_drift)) for e in entries)
    if name == "drift_families":
        return tuple(DriftFamilySetting(e.name, tuple(e.files)) for e in entries)
    if name == "env_pairs":
        return tuple(EnvPairSetting(tuple(e.dockerfiles), tuple(e.workflows)) for e in entries)
    return entries


def parse_pack(text: str, source: str) -> RulePack:
    """Read one rule pack and validate it.

    Args:
        text: the YAML text.
        source: where it came from, for messages (a path).

    Returns:
        The pack.

    Raises:
        PolicyError: when the text is not YAML, not a mapping, or not a valid pack; each line of the
            message starts with ``source:line:column:`` and names the key at fault.
    """
    from pydantic import ValidationError

    from ascend_reflint.check.located import InvalidFileError, load_yaml, validation_messages, yaml_locator
    from ascend_reflint.check.pack_schema import RulePack

    try:
        data = load_yaml(text, source)
    except InvalidFileError as error:
        raise PolicyError(str(error)) from None
    if not isinstance(data, dict):
        raise PolicyError(f"{source}: a rule pack must be a mapping with at least a 'name' key")
    try:
        return RulePack.model_validate(data)
    except ValidationError as error:
        raise PolicyError(validation_messages(error, source, yaml_locator(data), RulePack)) from None


def load_pack_file(path: Path) -> RulePack:
    """Read the rule pack at ``path`` (a side file: regular, at most
    :data:`~ascend_reflint.sidefile.CONFIG_MAX_BYTES`) and validate it.

    Raises:
        PolicyError: when the file cannot be read or is not a valid pack.
    """
    from ascend_reflint.sidefile import CONFIG_MAX_BYTES, read_side_file
    from ascend_reflint.textfile import FileReadError

    try:
        text = read_side_file(path, CONFIG_MAX_BYTES)
    except FileReadError as error:
        raise PolicyError(shown(f"{path}: cannot read the rule pack: {error}")) from None
    return parse_pack(text, str(path))


def bundled_rules_dir() -> Traversable:
    """The folder of the default rule packs: the installed ``ascend_reflint/rules``, else the repository's
    ``rules/`` next to the package (editable install, source checkout).

    Raises:
        PolicyError: when neither exists.
    """
    # For a package of plain files, importlib.resources gives this very path; it costs more to import.
    installed: Traversable = Path(__file__).parent.parent / "rules"
    if not Path(__file__).is_file():  # in a zip, say: ask importlib.resources where the package's data is
        import importlib.resources

        installed = importlib.resources.files("ascend_reflint") / "rules"
    return find_rules_dir(installed, Path(__file__).resolve().parents[2] / "rules")


def find_rules_dir(installed: Traversable, checkout: Path) -> Traversable:
    """The first of ``installed`` and ``checkout`` that is a folder.

    Raises:
        PolicyError: when neither is.
    """
    for candidate in (installed, checkout):
        if candidate.is_dir():
            return candidate
    raise PolicyError(f"the default rule packs are missing: neither {installed} nor {checkout} is a folder")


def bundled_packs(rules_dir: Traversable | None = None) -> list[ShippedPack | RulePack]:
    """The default rule packs: every ``*.yaml`` in ``rules_dir`` (default :func:`bundled_rules_dir`), in
    name order, read by :func:`read_shipped_pack`.

    Raises:
        PolicyError: when the folder is missing or a pack is not valid.
    """
    folder = rules_dir if rules_dir is not None else bundled_rules_dir()
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(PACK_SUFFIX)), key=lambda e: e.name
    )
    return [read_shipped_pack(entry.read_text(encoding="utf-8"), str(entry)) for entry in files]


def read_shipped_pack(text: str, source: str) -> ShippedPack | RulePack:
    """Read a pack shipped with reflint: with PyYAML and the plain checks when the pack is the usual
    shape (kebab-case keys, lists of strings, …), else with :func:`parse_pack`, which validates it fully.

    Both give the same values for a valid pack (a test compares them on every shipped pack).

    Raises:
        PolicyError: when the pack is not valid (from :func:`parse_pack`, naming the line and the key).
    """
    pack = _plain_pack(text)
    return pack if pack is not None else parse_pack(text, source)


def _plain_pack(text: str) -> ShippedPack | None:
    """The pack in ``text`` when every key and value is of a shape the plain reader knows and passes the
    same checks as the pydantic model, else None (let the model say what is wrong)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(text, Loader=loader)
        return _shipped_pack(data) if isinstance(data, dict) else None
    except (yaml.YAMLError, ValueError, TypeError, KeyError):
        return None


_REMOTE_LISTS = frozenset(name for name in LIST_FIELDS if name.endswith(("_remotes", "_drift")))


def _shipped_pack(data: dict[Any, Any]) -> ShippedPack:
    """Raises ValueError, TypeError or KeyError for anything the model would not take as it is."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = _field_name(key)
        if name in _REMOTE_LISTS:
            values[name] = unique(tuple(normalise_entry(entry) for entry in _strings(value)))
        elif name == "variant_tokens":
            values[name] = tuple(check_token(token) for token in _strings(value))
        elif name == "shared_env":
            values[name] = tuple(check_env_name(entry) for entry in _strings(value))
        elif name == "variant_groups":
            values[name] = tuple(_variant_group(entry) for entry in _list(value))
        elif name == "drift_families":
            values[name] = tuple(_drift_family(entry) for entry in _list(value))
        elif name == "env_pairs":
            values[name] = tuple(_env_pair(entry) for entry in _list(value))
        elif name == "drift_same_kind":
            values[name] = value if value is None or isinstance(value, bool) else _refuse(value)
        elif name == "severity":
            values[name] = {
                check_code(_string(code)): parse_severity(level) for code, level in _dict(value).items()
            }
        else:  # name, description
            values[name] = _string(value)
    if not values.get("name"):
        raise ValueError("a pack needs a name")
    return ShippedPack(**values)


_PACK_FIELDS = frozenset({"name", "description", *LIST_FIELDS, "drift_same_kind", "severity"})


def _field_name(key: object, known: frozenset[str] = _PACK_FIELDS) -> str:
    """The field a kebab-case key names (snake_case keys, which the model also takes, are left to it)."""
    name = _string(key).replace("-", "_")
    if "_" in _string(key) or name not in known:
        raise KeyError(key)
    return name


def _variant_group(entry: object) -> VariantGroupSetting:
    values = {
        _field_name(key, frozenset({"name", "files", "allowed_drift"})): value
        for key, value in _dict(entry).items()
    }
    return VariantGroupSetting(
        files=_globs(values["files"]),
        name=_string(values.get("name", "")),
        allowed_drift=unique(
            tuple(normalise_entry(remote) for remote in _strings(values.get("allowed_drift", [])))
        ),
    )


def _drift_family(entry: object) -> DriftFamilySetting:
    values = {_field_name(key, frozenset({"name", "files"})): value for key, value in _dict(entry).items()}
    name = _string(values["name"])
    return DriftFamilySetting(name=name if name else _refuse(name), files=_globs(values["files"]))


def _env_pair(entry: object) -> EnvPairSetting:
    values = {
        _field_name(key, frozenset({"dockerfiles", "workflows"})): value
        for key, value in _dict(entry).items()
    }
    return EnvPairSetting(dockerfiles=_globs(values["dockerfiles"]), workflows=_globs(values["workflows"]))


def _globs(value: object) -> tuple[str, ...]:
    globs = tuple(check_glob(glob) for glob in _strings(value))
    return globs if globs else _refuse(value)


def _strings(value: object) -> tuple[str, ...]:
    return tuple(_string(entry) for entry in _list(value))


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else _refuse(value)


def _dict(value: object) -> dict[Any, Any]:
    return value if isinstance(value, dict) else _refuse(value)


def _string(value: object) -> str:
    return value if isinstance(value, str) else _refuse(value)


def _refuse(value: object) -> Any:
    raise TypeError(f"not of the shape a shipped pack has: {value!r}")


def load_policy(extra_packs: Sequence[Path] = ()) -> Policy:
    """The default packs, then ``extra_packs`` in order, merged into one policy.

    Args:
        extra_packs: rule pack files given by the user (``--rule-pack``).

    Returns:
        The merged policy.

    Raises:
        PolicyError: when a pack cannot be read or is not valid.
    """
    packs: list[ShippedPack | RulePack] = bundled_packs()
    packs.extend(load_pack_file(path) for path in extra_packs)
    return Policy.from_packs(packs)
