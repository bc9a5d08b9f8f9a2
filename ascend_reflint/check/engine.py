"""The rule engine: which remotes to look up, and every rule run over every pin and every set of files.

Rules are modules (``ascend_reflint/check/rules/rlNNN_*.py``, listed in
:data:`ascend_reflint.check.rules.RULES`). The engine gives each pin rule one :class:`PinContext` per pin
of the files scanned, in file order, and each project rule one :class:`ProjectContext` holding every file
read (scanned and context-only); it keeps the findings on the files scanned, and applies the rule packs'
severities to them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from ascend_reflint.check.context import (
    IssueContext,
    PinContext,
    ProjectContext,
    RuleInfo,
    RuleModule,
    TreeView,
)
from ascend_reflint.check.policy import Policy
from ascend_reflint.check.refnames import exists, is_full_commit_id, named_refs, pinned_commit
from ascend_reflint.check.rules import ISSUE_RULES, PIN_RULES, PROJECT_RULES, RULES
from ascend_reflint.check.suggest import wants_default_branch
from ascend_reflint.check.variants import find_variants
from ascend_reflint.discover import under_root
from ascend_reflint.model import (
    CommitVerdict,
    Finding,
    LookupResult,
    Pin,
    RefType,
    RemoteRefs,
    Resolution,
    SourceFile,
    Via,
)
from ascend_reflint.projects import Projects
from ascend_reflint.remote import is_local_path, lookup_key, unsafe_reason

#: The rules that report a pin whose ref or URL is a template placeholder: it is no pin yet (the template
#: is rendered before anything fetches it), so no other rule judges it.
_PLACEHOLDER_CODES = frozenset({"RL009"})


def rule_info(rule: RuleModule) -> RuleInfo:
    """The :class:`RuleInfo` of a rule module (its constants, and its docstring as ``doc``)."""
    return RuleInfo(
        code=rule.CODE,
        name=rule.NAME,
        severity=rule.SEVERITY,
        needs_lookup=rule.NEEDS_LOOKUP,
        doc=(rule.__doc__ or "").strip(),
        fixes=tuple(getattr(rule, "FIXES", ())),
    )


def all_rules() -> list[RuleInfo]:
    """Every rule, in code order."""
    return sorted((rule_info(rule) for rule in RULES), key=lambda info: info.code)


def needs_lookup(pin: Pin) -> bool:
    """True when checking ``pin`` needs its remote's ref list.

    A pin needs it when its ref and URL are resolved, its URL is safe to give git and is not a local path
    (RL017: a path on the build machine is never looked up), and it asks for anything
    but a full commit id after ``git clone --branch`` (that fails whatever the remote holds: RL007). A
    full commit id that ``git checkout``, pip or a ``uses:`` takes is looked up, because the ref list
    confirms it when it is a branch or tag tip (RL008; ``actions/checkout@<id>`` usually is), and says
    whether the repository exists. A pin with no ref at all is looked up too: the lookup says whether the
    repository exists and which release tag to suggest.
    """
    if not pin.resolved or pin.remote is None or unsafe_reason(pin.url) is not None or is_local_path(pin.url):
        return False
    asked = [(name, Via.CLONE_BRANCH) for name in (pin.clone_ref,) if name]
    asked += [(name, pin.via) for name in (pin.ref,) if name]
    return not asked or any(via is not Via.CLONE_BRANCH or not is_full_commit_id(name) for name, via in asked)


def pin_lookup_key(pin: Pin) -> str | None:
    """The key of the lookup that judges ``pin`` (:func:`ascend_reflint.remote.lookup_key` of the URL it
    fetches), or None when it needs none (:func:`needs_lookup`)."""
    return lookup_key(pin.url) if needs_lookup(pin) else None


def remotes_to_look_up(files: Sequence[SourceFile]) -> dict[str, str]:
    """The lookups the checks need: one per URL that pins fetch, as :func:`ascend_reflint.remote.lookup_key`
    normalises it (scheme, user part, host, port and path all count).

    Args:
        files: the files read, with their pins.

    Returns:
        lookup key → the URL of the first pin with that key, in file and pin order.
    """
    lookups: dict[str, str] = {}
    for source in files:
        for pin in source.pins:
            key = pin_lookup_key(pin)
            if key is not None:
                lookups.setdefault(key, pin.url)
    return lookups


def default_branch_lookups(files: Sequence[SourceFile], lookups: Mapping[str, LookupResult]) -> list[str]:
    """The lookups whose remote's default branch a suggestion needs: a pin asks for a branch the remote
    lacks by a name that means "the default branch"
    (:func:`~ascend_reflint.check.suggest.wants_default_branch`).

    Returns:
        Lookup keys, in file and pin order, each once.
    """
    keys: dict[str, None] = {}
    for source in files:
        for pin in source.pins:
            key = pin_lookup_key(pin)
            refs = lookups.get(key) if key is not None else None
            if key is None or not isinstance(refs, RemoteRefs) or key in keys:
                continue
            if any(
                ref.kind is not RefType.TAG and not exists(ref, refs) and wants_default_branch(ref.name, refs)
                for ref in named_refs(pin)
            ):
                keys[key] = None
    return list(keys)


def drift_lookups(files: Sequence[SourceFile], scanned: Sequence[SourceFile] | None = None) -> dict[str, str]:
    """The lookups that the drift rules (RL004, RL005) need when no other rule asks for one: one of each
    remote that some pins pin by commit id and others by name, since only its tags say whether a name is
    the commit pinned elsewhere.

    Args:
        files: every file read (scanned and context-only), with their pins.
        scanned: the files whose findings are reported, when they are not all of ``files``: only the
            remotes they pin can change those findings, so only those are looked up (whichever files of the
            tree a scan naming them reads).

    Returns:
        lookup key → URL, as :func:`remotes_to_look_up` gives them.
    """
    commits: set[str] = set()
    names: set[str] = set()
    for source in files:
        for pin in source.pins:
            if pin.remote is not None and pin.resolved and pin.ref is not None:
                (commits if pinned_commit(pin) is not None else names).add(pin.remote)
    both = commits & names
    lookups: dict[str, str] = {}
    for source in files if scanned is None else scanned:
        for pin in source.pins:
            if pin.remote in both and (key := pin_lookup_key(pin)) is not None:
                lookups[key] = pin.url
                both.discard(pin.remote)
    return lookups


def pinned_commits(
    files: Sequence[SourceFile], lookups: Mapping[str, LookupResult]
) -> dict[str, tuple[str, set[str]]]:
    """The commit ids to verify, per URL that pins fetch.

    Args:
        files: the files read, with their pins.
        lookups: lookup key → its ref list or the lookup's failure.

    Returns:
        lookup key (:func:`pin_lookup_key`) → (the normalised remote; the commit ids its pins check out:
        lower-case, see :func:`~ascend_reflint.check.refnames.pinned_commit`), for keys whose lookup
        succeeded; ids that are also branch or tag names there are left out.
    """
    commits: dict[str, tuple[str, set[str]]] = {}
    for source in files:
        for pin in source.pins:
            key = pin_lookup_key(pin)
            refs = lookups.get(key) if key is not None else None
            if key is None or pin.remote is None or not isinstance(refs, RemoteRefs):
                continue
            commit = pinned_commit(pin, refs)
            if commit is not None:
                commits.setdefault(key, (pin.remote, set()))[1].add(commit)
    return commits


def run_checks(
    files: Sequence[SourceFile],
    lookups: Mapping[str, LookupResult],
    policy: Policy,
    context_files: Sequence[SourceFile] = (),
    root: str | None = None,
    commits: Mapping[tuple[str, str], CommitVerdict] | None = None,
    projects: Projects | None = None,
) -> list[Finding]:
    """Run the pin rules over every pin of ``files`` and the project rules over the files of each project.

    Args:
        files: the files scanned, with their pins; findings are reported on these only.
        lookups: lookup key (:func:`pin_lookup_key`) → its ref list or the lookup's failure (keys missing
            here were not looked up).
        policy: the merged rule packs.
        context_files: files read only so that project rules can compare the scanned files with them
            (pre-commit passes a few paths; their variants and the workflows that run them are elsewhere).
        root: the absolute project root that the packs' globs are relative to (default: globs match the
            display paths).
        commits: (lookup key, commit id) → what commit verification found (see :func:`pinned_commits`);
            None when commits were not verified.
        projects: the projects under ``root`` (:mod:`ascend_reflint.projects`), when a nested repository
            has a config of its own; default: every nested repository with ``policy``.

    Returns:
        The findings on ``files``, with the packs' severities applied, sorted by :meth:`Finding.sort_key`.
    """
    if projects is None and root is not None:
        projects = Projects(root, policy)
    rules = [(rule, rule_info(rule)) for rule in PIN_RULES]
    reported = frozenset(source.path for source in files)
    policies = {source.path: projects.policy_of(source.abspath) if projects else policy for source in files}
    findings: list[Finding] = []
    for source in files:
        file_policy = policies[source.path]
        file_root = projects.folder_of(source.abspath) if projects else root
        keys = [pin_lookup_key(pin) for pin in source.pins]
        pins_of_key = _pins_by_key(source.pins, keys)
        for pin, key in zip(source.pins, keys, strict=True):
            lookup = lookups.get(key) if key is not None else None
            shared = pins_of_key.get(key, ()) if key is not None else ()
            verdict = _verdict(pin, key, lookup, commits)
            for rule, info in rules:
                if pin.resolution is Resolution.PLACEHOLDER and info.code not in _PLACEHOLDER_CODES:
                    continue
                context = PinContext(pin, lookup, file_policy, shared, info, verdict, reported, file_root)
                findings.extend(rule.check(context))
    findings.extend(_issue_findings(files, policies))
    if PROJECT_RULES:
        findings.extend(_project_findings(files, context_files, policy, projects, lookups))
    return sorted(
        (_with_policy_severity(finding, policies.get(finding.path, policy)) for finding in findings),
        key=Finding.sort_key,
    )


def _issue_findings(files: Sequence[SourceFile], policies: Mapping[str, Policy]) -> list[Finding]:
    """The findings of the issue rules on the command issues of ``files`` (each with the policy of its
    project, by display path), each issue once (a Dockerfile built several ways records the same issue for
    each)."""
    rules = {rule.KIND: (rule, rule_info(rule)) for rule in ISSUE_RULES}
    findings: list[Finding] = []
    for source in files:
        for issue in dict.fromkeys(source.issues):
            if issue.kind in rules:
                rule, info = rules[issue.kind]
                findings.extend(rule.check_issue(IssueContext(issue, policies[source.path], info)))
    return findings


def _verdict(
    pin: Pin,
    key: str | None,
    lookup: LookupResult | None,
    commits: Mapping[tuple[str, str], CommitVerdict] | None,
) -> CommitVerdict | None:
    """The verification verdict of the commit id ``pin`` checks out (from the URL of lookup ``key``), if it
    pins one and it was verified."""
    if not commits or key is None or not isinstance(lookup, RemoteRefs):
        return None
    commit = pinned_commit(pin, lookup)
    return commits.get((key, commit)) if commit is not None else None


def _project_findings(
    files: Sequence[SourceFile],
    context_files: Sequence[SourceFile],
    policy: Policy,
    projects: Projects | None,
    lookups: Mapping[str, LookupResult],
) -> list[Finding]:
    """The project rules' findings on ``files``: the files of each project (:mod:`ascend_reflint.projects`)
    are compared among themselves only, with paths relative to its folder and with its policy; without
    ``projects`` (no root), all the files with ``policy``, globs matching their display paths."""
    everything = sorted([*files, *context_files], key=lambda source: source.path)
    scanned = frozenset(source.path for source in files)
    members: dict[str | None, list[SourceFile]] = {}
    for source in everything:
        members.setdefault(projects.folder_of(source.abspath) if projects else None, []).append(source)
    findings: list[Finding] = []
    for folder, sources in members.items():
        own = projects.policy_for(folder) if projects and folder else policy
        relpaths = {source.path: _relpath(source, folder) for source in sources}
        variants = find_variants(sources, own, relpaths)
        refs = _refs_by_remote(sources, lookups)
        for rule in PROJECT_RULES:
            context = ProjectContext(sources, own, rule_info(rule), relpaths, variants, scanned, refs)
            findings.extend(finding for finding in rule.check_project(context) if finding.path in scanned)
    return findings


def files_compared_with(view: TreeView, runs: Callable[[str], bool]) -> set[str]:
    """The display paths of the files of ``view.others`` that the project rules which run compare the files
    scanned with (``compared_with`` of each :class:`~ascend_reflint.check.context.ProjectRule`).

    Args:
        view: the files scanned and the rest of the work tree, not read.
        runs: whether the rule with a code runs (``--select``/``--ignore``).
    """
    return {path for rule in PROJECT_RULES if runs(rule.CODE) for path in rule.compared_with(view)}


def _refs_by_remote(
    files: Sequence[SourceFile], lookups: Mapping[str, LookupResult]
) -> dict[str, RemoteRefs]:
    """Normalised remote → the ref list of a lookup of it (any of its URLs: one repository has one set of
    refs whichever transport lists them)."""
    refs: dict[str, RemoteRefs] = {}
    for source in files:
        for pin in source.pins:
            if pin.remote is None or pin.remote in refs:
                continue
            key = pin_lookup_key(pin)
            found = lookups.get(key) if key is not None else None
            if isinstance(found, RemoteRefs):
                refs[pin.remote] = found
    return refs


def _relpath(source: SourceFile, root: str | None) -> str:
    relative = under_root(source.abspath, root) if root is not None else None
    return source.path if relative is None else relative


def _pins_by_key(pins: Sequence[Pin], keys: Sequence[str | None]) -> dict[str, tuple[Pin, ...]]:
    grouped: dict[str, list[Pin]] = {}
    for pin, key in zip(pins, keys, strict=True):
        if key is not None:
            grouped.setdefault(key, []).append(pin)
    return {key: tuple(group) for key, group in grouped.items()}


def _with_policy_severity(finding: Finding, policy: Policy) -> Finding:
    severity = policy.severity_for(finding.code, finding.severity)
    return finding if severity is finding.severity else dataclasses.replace(finding, severity=severity)
