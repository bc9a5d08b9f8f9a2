"""Rule packs: YAML files that tell the rules about remotes, and set severities.

A pack (format: ``rules/README.md``) is read with ruamel.yaml's safe loader and checked by a pydantic model
that forbids unknown keys, so a misspelt key is an error rather than a silent no-op. The default packs
are every ``*.yaml`` shipped in ``rules/``; ``--rule-pack`` files come after them. Packs merge in order:
remote lists concatenate (first occurrence kept), and a later pack's severity for a code replaces an
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

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ascend_reflint.check.rules import RULES
from ascend_reflint.model import Severity
from ascend_reflint.remote import normalise_remote

_RULE_CODE = re.compile(r"RL\d{3}")
PACK_SUFFIX = ".yaml"


class PolicyError(Exception):
    """A rule pack cannot be read or is not valid; the message names the file and the problem."""


def _normalise_entry(entry: str) -> str:
    """``github.com/NVIDIA/Megatron-LM``, or any URL of it, → ``github.com/nvidia/megatron-lm``."""
    remote = normalise_remote(entry) or normalise_remote(f"https://{entry}")
    if remote is None or remote.count("/") < 2:
        raise ValueError(
            f"{entry!r} is not a remote (expected host/owner/name, e.g. github.com/nvidia/megatron-lm)"
        )
    return remote


def _normalise_remotes(entries: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_normalise_entry(entry) for entry in entries))


def _parse_severity(value: object) -> Severity:
    if isinstance(value, Severity):
        return value
    if not isinstance(value, str):
        raise ValueError("expected error, warning or info")
    return Severity.parse(value)


def _check_codes(severities: dict[str, Severity]) -> dict[str, Severity]:
    known = {rule.CODE for rule in RULES}
    for code in severities:
        if not _RULE_CODE.fullmatch(code):
            raise ValueError(f"{code!r} is not a rule code (expected RL followed by three digits)")
        if code not in known:
            raise ValueError(f"unknown rule code {code} (known: {', '.join(sorted(known))})")
    return severities


RemoteList = Annotated[tuple[str, ...], AfterValidator(_normalise_remotes)]
SeverityValue = Annotated[Severity, BeforeValidator(_parse_severity)]
SeverityMap = Annotated[dict[str, SeverityValue], AfterValidator(_check_codes)]


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class RulePack(BaseModel):
    """One rule pack file (see ``rules/README.md``).

    Attributes:
        name: a short name for the pack, shown by ``reflint rules`` and in errors.
        description: what the pack is for.
        tag_pinned_remotes: remotes that release by tag; a branch pin of one is an error (RL002).
        branch_release_remotes: remotes whose release line is branches; no RL002 for them.
        head_tracking_remotes: remotes that are meant to be built at their default branch's head; no
            RL002 and no RL015.
        private_remotes: remotes that need credentials; no RL014, and no RL010 for "credentials required".
        full_history_remotes: remotes whose commits are checked out by id and so need a full clone.
        severity: rule code → severity, replacing the rule's own for every finding.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, alias_generator=_kebab, populate_by_name=True)

    name: str = Field(min_length=1)
    description: str = ""
    tag_pinned_remotes: RemoteList = ()
    branch_release_remotes: RemoteList = ()
    head_tracking_remotes: RemoteList = ()
    private_remotes: RemoteList = ()
    full_history_remotes: RemoteList = ()
    severity: SeverityMap = Field(default_factory=dict)


#: The fields that hold remote lists; they merge by concatenation.
REMOTE_LISTS = (
    "tag_pinned_remotes",
    "branch_release_remotes",
    "head_tracking_remotes",
    "private_remotes",
    "full_history_remotes",
)


class Policy(BaseModel):
    """What the rules know about remotes, merged from rule packs in order.

    Attributes:
        packs: the names of the packs merged, in order.
        tag_pinned_remotes, branch_release_remotes, head_tracking_remotes, private_remotes,
        full_history_remotes: as in :class:`RulePack`, normalised, concatenated, first occurrence kept.
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
    severity: Mapping[str, Severity] = Field(default_factory=dict)

    @classmethod
    def from_packs(cls, packs: Iterable[RulePack]) -> Policy:
        """Merge ``packs`` in order into a new policy (an empty policy for no packs)."""
        policy = cls()
        for pack in packs:
            policy = policy.merged_with(pack)
        return policy

    def merged_with(self, pack: RulePack) -> Policy:
        """A new policy: this one with ``pack`` applied after it (lists concatenate, severities replace)."""
        lists: dict[str, Any] = {
            name: tuple(dict.fromkeys((*getattr(self, name), *getattr(pack, name)))) for name in REMOTE_LISTS
        }
        return Policy(
            packs=(*self.packs, pack.name),
            severity={**self.severity, **pack.severity},
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
        PolicyError: when the text is not YAML, not a mapping, or not a valid pack; the message starts with
            ``source`` and names the key at fault.
    """
    try:
        data = YAML(typ="safe", pure=True).load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark is not None else source
        raise PolicyError(f"{where}: not valid YAML: {error.problem}") from None
    except YAMLError as error:
        raise PolicyError(f"{source}: not valid YAML: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise PolicyError(f"{source}: a rule pack must be a mapping with at least a 'name' key")
    try:
        return RulePack.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(_describe(problem) for problem in error.errors())
        raise PolicyError(f"{source}: {problems}") from None


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


def _describe(problem: Mapping[str, Any]) -> str:
    location = ".".join(str(part) for part in problem["loc"])
    message = str(problem["msg"]).removeprefix("Value error, ")
    if problem["type"] == "extra_forbidden":
        message = "unknown key"
    elif problem["type"] in ("tuple_type", "dict_type"):
        message = "expected a list" if problem["type"] == "tuple_type" else "expected a mapping"
    return f"{location}: {message}" if location else message
