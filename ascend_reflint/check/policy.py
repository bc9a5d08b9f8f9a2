"""Rule packs: YAML files that tell the rules about remotes and files, and set severities.

A pack (format: ``rules/README.md``) is read with ruamel.yaml's round-trip loader (which keeps the line of
every key, for messages) and checked by a pydantic model that forbids unknown keys, so a misspelt key is
an error rather than a silent no-op. The default packs are every ``*.yaml`` shipped in ``rules/``; the
user's config (:mod:`ascend_reflint.config`) and ``--rule-pack`` files come after them. Packs merge in
order: lists concatenate (first occurrence kept), and a later pack's severity for a code replaces an
earlier one's.

Where the default packs live: an installed wheel holds them as ``ascend_reflint/rules`` (hatch's
``force-include``), found with :mod:`importlib.resources`; an editable install or a source checkout has
them in the repository's top-level ``rules/`` folder, next to the package.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
)

from ascend_reflint.check.globs import check_glob
from ascend_reflint.check.located import InvalidFileError, load_yaml, validation_messages, yaml_locator
from ascend_reflint.check.rules import RULES
from ascend_reflint.model import Severity
from ascend_reflint.remote import normalise_remote

_RULE_CODE = re.compile(r"RL\d{3}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME_PART = re.compile(r"[A-Za-z0-9]+")
PACK_SUFFIX = ".yaml"


class PolicyError(Exception):
    """A rule pack cannot be read or is not valid; the message names the file, the line and the key."""


def _normalise_entry(entry: str) -> str:
    """``github.com/NVIDIA/Megatron-LM``, or any URL of it, → ``github.com/nvidia/megatron-lm``."""
    remote = normalise_remote(entry) or normalise_remote(f"https://{entry}")
    if remote is None or remote.count("/") < 2:
        raise ValueError(
            f"{entry!r} is not a remote (expected host/owner/name, e.g. github.com/nvidia/megatron-lm)"
        )
    return remote


def _unique(entries: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(entries))


def _parse_severity(value: object) -> Severity:
    if isinstance(value, Severity):
        return value
    if not isinstance(value, str):
        raise ValueError("expected error, warning or info")
    return Severity.parse(value)


def check_code(code: str) -> str:
    """Return ``code`` when it is a known rule code.

    Raises:
        ValueError: for text that is not ``RL`` and three digits, or a code no rule has.
    """
    known = {rule.CODE for rule in RULES}
    if not _RULE_CODE.fullmatch(code):
        raise ValueError(f"{code!r} is not a rule code (expected RL followed by three digits)")
    if code not in known:
        raise ValueError(f"unknown rule code {code} (known: {', '.join(sorted(known))})")
    return code


def _check_env_name(name: str) -> str:
    if not _ENV_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not an environment variable name")
    return name


def _check_token(token: str) -> str:
    if not _NAME_PART.fullmatch(token):
        raise ValueError(f"{token!r} is not a name part (letters and digits, without '.', '_' or '-')")
    return token.lower()


def _kebab(name: str) -> str:
    return name.replace("_", "-")


RemoteEntry = Annotated[str, AfterValidator(_normalise_entry)]
RemoteList = Annotated[tuple[RemoteEntry, ...], AfterValidator(_unique)]
RuleCode = Annotated[str, AfterValidator(check_code)]
SeverityValue = Annotated[Severity, BeforeValidator(_parse_severity)]
Glob = Annotated[str, AfterValidator(check_glob)]
Globs = Annotated[tuple[Glob, ...], Field(min_length=1)]
EnvName = Annotated[str, AfterValidator(_check_env_name)]
VariantToken = Annotated[str, AfterValidator(_check_token)]


class _Strict(BaseModel):
    """Unknown keys are errors; keys are kebab-case in files, snake_case in Python."""

    model_config = ConfigDict(extra="forbid", frozen=True, alias_generator=_kebab, populate_by_name=True)


class VariantGroupSpec(_Strict):
    """An explicit group of variants (``variant-groups`` entry, RL004).

    Attributes:
        name: a name for messages (default: the first glob).
        files: globs of the files that are variants of one recipe.
        allowed_drift: remotes that may differ between these files.
    """

    name: str = ""
    files: Globs
    allowed_drift: RemoteList = ()

    @property
    def label(self) -> str:
        """The name, else the first glob."""
        return self.name or self.files[0]


class DriftFamily(_Strict):
    """Files that build one stack, whose pins of one remote are compared (``drift-families`` entry, RL005).

    Attributes:
        name: a name for messages.
        files: globs of the family's files.
    """

    name: str = Field(min_length=1)
    files: Globs


class EnvPair(_Strict):
    """Dockerfiles and the workflows that run their images or tests (``env-pairs`` entry, RL006).

    Attributes:
        dockerfiles: globs of the Dockerfiles.
        workflows: globs of the workflows.
    """

    dockerfiles: Globs
    workflows: Globs


class PackSettings(_Strict):
    """What a rule pack, and the user's config, may set (see ``rules/README.md``).

    Attributes:
        tag_pinned_remotes: remotes that release by tag; a branch pin of one is an error (RL002).
        branch_release_remotes: remotes whose release line is branches; no RL002 for them.
        head_tracking_remotes: remotes that are meant to be built at their default branch's head; no
            RL002 and no RL015.
        private_remotes: remotes that need credentials; no RL014, and no RL010 for "credentials required".
        full_history_remotes: remotes whose commits are checked out by id and so need a full clone (RL003).
        variant_tokens: name parts that mark a variant of a recipe (``a2``, ``openEuler``; RL004), lower case.
        variant_groups: explicit groups of variants (RL004).
        variant_allowed_drift: remotes that may differ between the variants of any group (RL004).
        drift_families: files compared with each other by RL005 (a file in none is compared with the files
            of its folder).
        drift_same_kind: RL005 compares files of the same kind too (two Dockerfiles), not only a Dockerfile
            with a script or a workflow; None leaves an earlier pack's choice (default: False).
        drift_allowed_remotes: remotes that may be pinned at different refs in different files (RL005).
        shared_env: environment variables that an image and its CI must set alike (RL006).
        env_pairs: which Dockerfiles pair with which workflows (RL006).
        severity: rule code → severity, replacing the rule's own for every finding.
    """

    tag_pinned_remotes: RemoteList = ()
    branch_release_remotes: RemoteList = ()
    head_tracking_remotes: RemoteList = ()
    private_remotes: RemoteList = ()
    full_history_remotes: RemoteList = ()
    variant_tokens: tuple[VariantToken, ...] = ()
    variant_groups: tuple[VariantGroupSpec, ...] = ()
    variant_allowed_drift: RemoteList = ()
    drift_families: tuple[DriftFamily, ...] = ()
    drift_same_kind: StrictBool | None = None
    drift_allowed_remotes: RemoteList = ()
    shared_env: tuple[EnvName, ...] = ()
    env_pairs: tuple[EnvPair, ...] = ()
    severity: dict[RuleCode, SeverityValue] = Field(default_factory=dict)


class RulePack(PackSettings):
    """One rule pack file (see ``rules/README.md``): :class:`PackSettings` with a name.

    Attributes:
        name: a short name for the pack, shown by ``reflint rules`` and in errors.
        description: what the pack is for.
    """

    name: str = Field(min_length=1)
    description: str = ""


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


class Policy(BaseModel):
    """What the rules know about remotes and files, merged from rule packs in order.

    Attributes:
        packs: the names of the packs merged, in order.
        tag_pinned_remotes … env_pairs: as in :class:`PackSettings`, concatenated, first occurrence kept.
        drift_same_kind: the last pack's choice that set one (default False).
        severity: rule code → severity; a later pack's entry replaces an earlier one's.

    When a remote is in more than one list, the more lenient statement wins for RL002: head-tracking and
    branch-release both beat tag-pinned, so that a user's pack can relax a default one.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    packs: tuple[str, ...] = ()
    tag_pinned_remotes: tuple[str, ...] = ()
    branch_release_remotes: tuple[str, ...] = ()
    head_tracking_remotes: tuple[str, ...] = ()
    private_remotes: tuple[str, ...] = ()
    full_history_remotes: tuple[str, ...] = ()
    variant_tokens: tuple[str, ...] = ()
    variant_groups: tuple[VariantGroupSpec, ...] = ()
    variant_allowed_drift: tuple[str, ...] = ()
    drift_families: tuple[DriftFamily, ...] = ()
    drift_same_kind: bool = False
    drift_allowed_remotes: tuple[str, ...] = ()
    shared_env: tuple[str, ...] = ()
    env_pairs: tuple[EnvPair, ...] = ()
    severity: Mapping[str, Severity] = Field(default_factory=dict)

    @classmethod
    def from_packs(cls, packs: Iterable[PackSettings]) -> Policy:
        """Merge ``packs`` in order into a new policy (an empty policy for no packs)."""
        policy = cls()
        for pack in packs:
            policy = policy.merged_with(pack)
        return policy

    def merged_with(self, pack: PackSettings, name: str | None = None) -> Policy:
        """A new policy: this one with ``pack`` applied after it (lists concatenate, severities replace).

        Args:
            pack: a rule pack, or the settings of a user's config.
            name: the name to record in ``packs`` (default: the pack's own ``name``).
        """
        lists: dict[str, Any] = {
            field: tuple(dict.fromkeys((*getattr(self, field), *getattr(pack, field))))
            for field in LIST_FIELDS
        }
        same_kind = self.drift_same_kind if pack.drift_same_kind is None else pack.drift_same_kind
        label = name if name is not None else str(getattr(pack, "name", "config"))
        return Policy(
            packs=(*self.packs, label),
            severity={**self.severity, **pack.severity},
            drift_same_kind=same_kind,
            **lists,
        )

    def is_tag_pinned(self, remote: str | None) -> bool:
        """True when ``remote`` releases by tag and no list relaxes that."""
        return (
            _listed(remote, self.tag_pinned_remotes)
            and not self.is_branch_release(remote)
            and not self.is_head_tracking(remote)
        )

    def is_branch_release(self, remote: str | None) -> bool:
        """True when ``remote``'s release line is branches."""
        return _listed(remote, self.branch_release_remotes)

    def is_head_tracking(self, remote: str | None) -> bool:
        """True when ``remote`` is meant to be built at its default branch's head."""
        return _listed(remote, self.head_tracking_remotes)

    def is_private(self, remote: str | None) -> bool:
        """True when ``remote`` needs credentials."""
        return _listed(remote, self.private_remotes)

    def needs_full_history(self, remote: str | None) -> bool:
        """True when ``remote``'s commits are checked out by id and so need a full clone."""
        return _listed(remote, self.full_history_remotes)

    def may_drift_across_files(self, remote: str | None) -> bool:
        """True when ``remote`` may be pinned at different refs in different files (RL005)."""
        return _listed(remote, self.drift_allowed_remotes)

    def severity_for(self, code: str, severity: Severity) -> Severity:
        """The severity a finding of ``code`` gets: the packs' setting, else the rule's ``severity``."""
        return self.severity.get(code, severity)


def _listed(remote: str | None, entries: tuple[str, ...]) -> bool:
    if remote is None:
        return False
    try:
        return _normalise_entry(remote) in entries
    except ValueError:
        return False


def parse_pack(text: str, source: str) -> RulePack:
    """Read one rule pack.

    Args:
        text: the YAML text.
        source: where it came from, for messages (a path).

    Returns:
        The pack.

    Raises:
        PolicyError: when the text is not YAML, not a mapping, or not a valid pack; each line of the
            message starts with ``source:line:column:`` and names the key at fault.
    """
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
    """Read the rule pack at ``path``.

    Raises:
        PolicyError: when the file cannot be read or is not a valid pack.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PolicyError(f"{path}: cannot read the rule pack: {error}") from None
    return parse_pack(text, str(path))


def bundled_rules_dir() -> Traversable:
    """The folder of the default rule packs: the installed ``ascend_reflint/rules``, else the repository's
    ``rules/`` next to the package (editable install, source checkout).

    Raises:
        PolicyError: when neither exists.
    """
    return find_rules_dir(
        importlib.resources.files("ascend_reflint") / "rules",
        Path(__file__).resolve().parents[2] / "rules",
    )


def find_rules_dir(installed: Traversable, checkout: Path) -> Traversable:
    """The first of ``installed`` and ``checkout`` that is a folder.

    Raises:
        PolicyError: when neither is.
    """
    for candidate in (installed, checkout):
        if candidate.is_dir():
            return candidate
    raise PolicyError(f"the default rule packs are missing: neither {installed} nor {checkout} is a folder")


def bundled_packs(rules_dir: Traversable | None = None) -> list[RulePack]:
    """The default rule packs: every ``*.yaml`` in ``rules_dir`` (default :func:`bundled_rules_dir`), in
    name order.

    Raises:
        PolicyError: when the folder is missing or a pack is not valid.
    """
    folder = rules_dir if rules_dir is not None else bundled_rules_dir()
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(PACK_SUFFIX)), key=lambda e: e.name
    )
    return [parse_pack(entry.read_text(encoding="utf-8"), str(entry)) for entry in files]


def load_policy(extra_packs: Sequence[Path] = ()) -> Policy:
    """The default packs, then ``extra_packs`` in order, merged into one policy.

    Args:
        extra_packs: rule pack files given by the user (``--rule-pack``).

    Returns:
        The merged policy.

    Raises:
        PolicyError: when a pack cannot be read or is not valid.
    """
    packs = bundled_packs()
    packs.extend(load_pack_file(path) for path in extra_packs)
    return Policy.from_packs(packs)
