"""The pydantic models that validate rule packs and config files, so that a misspelt key or a value of the
wrong type is an error naming the file, the line and the key rather than a silent no-op.

Imported only to read a file a user wrote (a ``--rule-pack``, a pack named under ``rule-packs``, a
``.reflint.yaml`` or ``[tool.reflint]``): importing pydantic and building these models' schemas costs more
than the rest of a scan of a small repository. The packs shipped in ``rules/`` are read without them (see
:func:`ascend_reflint.check.packs.bundled_packs`); a test validates those with :class:`RulePack` too.

Keys are kebab-case in files, snake_case in Python (both are accepted). The checks of single values
(remotes, rule codes, tokens, variable names, severities, globs) are the plain functions of
:mod:`ascend_reflint.check.fields`, :func:`ascend_reflint.check.rules.check_code` and
:mod:`ascend_reflint.check.globs`, shared with the shipped packs' reader.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from ascend_reflint.check.fields import (
    check_env_name,
    check_host,
    check_token,
    normalise_entry,
    parse_severity,
    removable,
    unique,
)
from ascend_reflint.check.globs import check_glob
from ascend_reflint.check.rules import check_code, check_selector
from ascend_reflint.model import Severity

RemoteEntry = Annotated[str, AfterValidator(normalise_entry)]
RemoteList = Annotated[tuple[RemoteEntry, ...], AfterValidator(unique)]
RuleCode = Annotated[str, AfterValidator(check_code)]
RuleSelector = Annotated[str, AfterValidator(check_selector)]
SeverityValue = Annotated[Severity, BeforeValidator(parse_severity)]
Glob = Annotated[str, AfterValidator(check_glob)]
Globs = Annotated[tuple[Glob, ...], Field(min_length=1)]
EnvName = Annotated[str, AfterValidator(check_env_name)]
VariantToken = Annotated[str, AfterValidator(check_token)]
#: Entries of a top-level list, where ``!ENTRY`` removes what an earlier pack lists. Not made unique here:
#: the merge keeps an entry's first occurrence, and refuses a removal given twice at its index.
RemovableRemotes = tuple[Annotated[str, AfterValidator(removable(normalise_entry))], ...]
RemovableTokens = tuple[Annotated[str, AfterValidator(removable(check_token))], ...]
RemovableEnvNames = tuple[Annotated[str, AfterValidator(removable(check_env_name))], ...]
Host = Annotated[str, AfterValidator(check_host)]


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class _Strict(BaseModel):
    """Unknown keys are errors; keys are kebab-case in files, snake_case in Python."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=_kebab, populate_by_name=True, defer_build=True
    )


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

    In the lists of remotes, of variant tokens and of environment variables, an entry ``!ENTRY`` removes
    ENTRY from what the packs merged before list (:meth:`ascend_reflint.check.policy.Policy.merged_with`).

    Attributes:
        tag_pinned_remotes: remotes that release by tag; a branch pin of one is an error (RL002).
        branch_release_remotes: remotes whose release line is branches; no RL002 for them.
        head_tracking_remotes: remotes that are meant to be built at their default branch's head; no
            RL002 and no RL015.
        self_head_tracking_remotes: remotes whose own recipes build them at their head (a project's
            Dockerfile that clones the project): head-tracking in a scan of that repository only (its
            ``origin``, or the repository its ``pyproject.toml`` or ``setup.py`` names), checked as any
            other remote in every other project's recipes.
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
        newer_release: how far RL024 looks for a newer release of a pinned tag: ``patch`` (same major and
            minor version), ``minor`` (same major), ``major`` (any), or ``off``; None leaves an earlier
            pack's choice (default: ``patch``).
    """

    tag_pinned_remotes: RemovableRemotes = ()
    branch_release_remotes: RemovableRemotes = ()
    head_tracking_remotes: RemovableRemotes = ()
    self_head_tracking_remotes: RemovableRemotes = ()
    private_remotes: RemovableRemotes = ()
    full_history_remotes: RemovableRemotes = ()
    variant_tokens: RemovableTokens = ()
    variant_groups: tuple[VariantGroupSpec, ...] = ()
    variant_allowed_drift: RemovableRemotes = ()
    drift_families: tuple[DriftFamily, ...] = ()
    drift_same_kind: StrictBool | None = None
    drift_allowed_remotes: RemovableRemotes = ()
    shared_env: RemovableEnvNames = ()
    env_pairs: tuple[EnvPair, ...] = ()
    severity: dict[RuleCode, SeverityValue] = Field(default_factory=dict)
    newer_release: Literal["patch", "minor", "major", "off"] | None = None


class RulePack(PackSettings):
    """One rule pack file (see ``rules/README.md``): :class:`PackSettings` with a name.

    Attributes:
        name: a short name for the pack, shown by ``reflint rules`` and in errors.
        description: what the pack is for.
    """

    name: str = Field(min_length=1)
    description: str = ""


class UserConfig(PackSettings):
    """The settings of a config file (kebab-case keys in the file; see :mod:`ascend_reflint.config`).

    Attributes:
        select: only these rules (None: every rule); ``--select`` replaces it. Each entry is a code, a
            code prefix or a rule name (:func:`~ascend_reflint.check.rules.check_selector`), as everywhere
            rules are selected.
        extend_select: more rules, added to ``select``; ``--extend-select`` adds to it.
        ignore: never these rules; ``--ignore`` adds to it.
        per_file_ignores: glob (relative to the project root) → the rules that are not reported on the
            files the glob matches.
        exclude: globs (relative to the project root, gitignore syntax) of paths that are not read, added
            to ``--exclude``; they leave out paths given on the command line too (as pre-commit passes them),
            so that the CLI, the hook and the Action skip the same files.
        extend_exclude: more such globs, added to ``exclude`` (ruff's name for it; reflint has no default
            ``exclude`` list for it to extend, so the two add up alike).
        rule_packs: rule pack files to merge after the default ones and before this config's own settings,
            relative to the config file's folder.
        docs: read the install steps of documentation (False: as ``--no-docs``).
        verify_commits: verify pinned commit ids against their remotes' histories (False: as
            ``--no-verify-commits``).
        unsafe_fixes: apply unsafe fixes too, as ``--unsafe-fixes`` (default: False).
        fixable: only these rules' fixes are offered and applied (None: every rule's); ``--fixable``
            replaces it (ruff's key).
        unfixable: these rules' findings are reported without their fix, whatever ``fixable`` says
            (``--unfixable`` adds to it; ruff's key).
        pin_commits: ``--fix`` and ``--diff`` pin tags to their commits, as ``--pin-commits`` (default:
            False).
        gitlab_host: the host (and port) of the GitLab instance that runs the project's pipelines, where
            ``include: project:`` and ``$CI_SERVER_FQDN`` components are (default: the host of the
            repository's ``origin`` when it is a GitLab instance, see
            :func:`ascend_reflint.extract.gitlab.place_on_instance`).
        (and every key of :class:`PackSettings`)
    """

    select: tuple[RuleSelector, ...] | None = None
    extend_select: tuple[RuleSelector, ...] = ()
    ignore: tuple[RuleSelector, ...] = ()
    per_file_ignores: dict[Glob, tuple[RuleSelector, ...]] = Field(default_factory=dict)
    exclude: tuple[Glob, ...] = ()
    extend_exclude: tuple[Glob, ...] = ()
    rule_packs: tuple[str, ...] = ()
    verify_commits: StrictBool = True
    unsafe_fixes: StrictBool = False
    fixable: tuple[RuleSelector, ...] | None = None
    unfixable: tuple[RuleSelector, ...] = ()
    pin_commits: StrictBool = False
    docs: StrictBool = True
    gitlab_host: Host | None = None
