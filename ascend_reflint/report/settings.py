"""``reflint scan --show-settings``: the settings a scan of the paths given would run with, as ruff's
``check --show-settings`` prints its resolved configuration, without reading a recipe or asking a remote.

The text form is YAML under the keys of ``.reflint.yaml`` (docs/configuration.md), so an entry can be
copied into a config: the project root, the config file, the rule packs merged and the project's own
remotes as comments first, then the rules that run (``select``) and their severities, the file and fix
settings, and every list of remotes, tokens, groups and families as the shipped packs, the config's
``rule-packs``, the config and ``--rule-pack`` leave it (:class:`~ascend_reflint.check.policy.Policy`).
The JSON form holds the same values under the same keys, with ``root``, ``config``, ``packs`` and
``own-remotes`` in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ascend_reflint.check.policy import LIST_FIELDS, DriftFamilySetting, EnvPairSetting, VariantGroupSetting

if TYPE_CHECKING:
    from ascend_reflint.check.policy import Policy
    from ascend_reflint.config import Config
    from ascend_reflint.scan import RuleSelection


def settings_document(
    config: Config,
    policy: Policy,
    selection: RuleSelection,
    scan_settings: Mapping[str, Any],
    own_remotes: frozenset[str],
) -> dict[str, Any]:
    """The settings in effect, keyed as in ``.reflint.yaml``.

    Args:
        config: the config found or given (its root, its file).
        policy: the merged rule packs and config.
        selection: the rules that run, and whose fixes are applied.
        scan_settings: the other settings as the command line and the config leave them (``exclude``,
            ``unsafe-fixes``, ``pin-commits``, ``verify-commits``, ``docs``, ``gitlab-host``), by key.
        own_remotes: the project's own remotes (:func:`ascend_reflint.own_remotes.own_remotes`).

    Returns:
        ``root``, ``config`` (the file's path, or None), ``packs`` (the names of the packs merged, in order),
        ``own-remotes``, ``select`` (the codes of the rules that run), ``severity`` (code → the severity
        of each, the rule's own or a pack's or the config's; a rule may report less where context says so,
        see ``reflint rules``), ``per-file-ignores``,
        ``fixable`` (None: every rule's), ``unfixable``, the entries of ``scan_settings``, then
        ``newer-release``, ``drift-same-kind`` and each list of the policy.
    """
    from ascend_reflint.check import all_rules

    rules = [rule for rule in all_rules() if selection.runs(rule.code)]
    per_file_ignores = (
        {glob: list(codes) for glob, codes in config.settings.per_file_ignores.items()}
        if config.settings is not None
        else {}
    )
    document: dict[str, Any] = {
        "root": config.root,
        "config": config.path,
        "packs": list(policy.packs),
        "own-remotes": sorted(own_remotes),
        "select": [rule.code for rule in rules],
        "severity": {rule.code: policy.severity_for(rule.code, rule.severity).label for rule in rules},
        "per-file-ignores": per_file_ignores,
        "fixable": sorted(selection.fixable) if selection.fixable is not None else None,
        "unfixable": sorted(selection.unfixable),
        **scan_settings,
        "newer-release": policy.newer_release,
        "drift-same-kind": policy.drift_same_kind,
    }
    for name in LIST_FIELDS:
        document[name.replace("_", "-")] = [_plain(entry) for entry in getattr(policy, name)]
    return document


def _plain(entry: object) -> object:
    """A list entry as the config writes it: a string, or a mapping of kebab-case keys."""
    if isinstance(entry, VariantGroupSetting):
        group: dict[str, object] = {"name": entry.name} if entry.name else {}
        return {**group, "files": list(entry.files), "allowed-drift": list(entry.allowed_drift)}
    if isinstance(entry, DriftFamilySetting):
        return {"name": entry.name, "files": list(entry.files)}
    if isinstance(entry, EnvPairSetting):
        return {"dockerfiles": list(entry.dockerfiles), "workflows": list(entry.workflows)}
    return entry


#: The keys of :func:`settings_document` that the text form gives as comments: they are not config keys.
_ABOUT = {
    "root": "project root",
    "config": "config file",
    "packs": "rule packs, in the order merged",
    "own-remotes": "the project's own remotes (origin, package metadata)",
}


def settings_text(document: Mapping[str, Any]) -> str:
    """The text form of :func:`settings_document`: comment lines about the project, then YAML.

    Example of the first lines::

        # project root: /src/verl
        # config file: none
        # rule packs, in the order merged: ascend
        # the project's own remotes (origin, package metadata): github.com/volcengine/verl
        select:
        - RL001
    """
    import yaml

    from ascend_reflint.output import shown, shown_lines

    about = []
    for key, label in _ABOUT.items():
        value = document[key]
        written = ", ".join(value) if isinstance(value, list) else value
        about.append(shown(f"# {label}: {written or 'none'}") + "\n")
    rest = {key: value for key, value in document.items() if key not in _ABOUT}
    body = yaml.safe_dump(rest, sort_keys=False, default_flow_style=False, width=110, allow_unicode=True)
    return "".join(about) + shown_lines(body)
