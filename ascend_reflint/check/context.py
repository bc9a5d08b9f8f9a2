"""What a rule sees (:class:`PinContext` for one pin, :class:`IssueContext` for one command issue,
:class:`ProjectContext` for files compared with each other) and what a rule module provides
(:class:`PinRule`, :class:`IssueRule`, :class:`ProjectRule`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ascend_reflint.check.placement import at_value, placed
from ascend_reflint.model import (
    Applicability,
    CallSite,
    CommandIssue,
    CommitVerdict,
    FileKind,
    Finding,
    Fix,
    IssueKind,
    LookupFailure,
    LookupResult,
    Origin,
    Pin,
    Related,
    RemoteRefs,
    Severity,
    SourceFile,
    Span,
)

if TYPE_CHECKING:
    from ascend_reflint.check.policy import Policy
    from ascend_reflint.check.variants import VariantIndex


class RuleInfo(NamedTuple):
    """A rule as ``reflint rules`` and the reports show it.

    Attributes:
        code: the stable code (``RL001``).
        name: the kebab-case name (``ref-not-found``).
        severity: the default severity (a finding may be lower; a rule pack may replace it).
        needs_lookup: True when the rule needs the remote's ref list to say anything.
        doc: the user documentation (markdown with "What it does", "Why is this bad?", "Example" and
            "Use instead" sections, and "Fix" for a rule that has one): the rule module's docstring.
        fixes: the kinds of fix its findings may carry (empty: none), as the module's ``FIXES`` says.
    """

    code: str
    name: str
    severity: Severity
    needs_lookup: bool
    doc: str
    fixes: tuple[Applicability, ...] = ()


class RuleModule(Protocol):
    """What every rule module defines (one rule per module, under ``ascend_reflint/check/rules/``).

    The module docstring is the rule's user documentation. A rule whose findings may carry a fix also
    defines ``FIXES``, the kinds of fix it makes (``(Applicability.SAFE,)``). A rule module is also a
    :class:`PinRule` (it defines ``check``), an :class:`IssueRule` (``check_issue``) or a
    :class:`ProjectRule` (it defines ``check_project``); RL099, whose findings come from the suppression
    comments rather than from pins, is none of them.
    """

    CODE: str
    NAME: str
    SEVERITY: Severity
    NEEDS_LOOKUP: bool
    __name__: str
    __doc__: str | None


class PinRule(RuleModule, Protocol):
    """A rule that looks at one pin at a time: ``check`` yields findings built with
    :meth:`PinContext.finding`."""

    def check(self, context: PinContext) -> Iterator[Finding]: ...


class IssueRule(RuleModule, Protocol):
    """A rule about commands that fail or do other than they say, as extraction recorded them
    (:class:`~ascend_reflint.model.CommandIssue`): ``check_issue`` yields findings built with
    :meth:`IssueContext.finding`; ``KIND`` is the kind of issue it reads."""

    KIND: IssueKind

    def check_issue(self, context: IssueContext) -> Iterator[Finding]: ...


class ProjectRule(RuleModule, Protocol):
    """A rule that compares files with each other: ``check_project`` yields findings built with
    :meth:`ProjectContext.finding`, for any file (the engine keeps those on the files scanned);
    ``compared_with`` names the other files of the work tree that it compares the files scanned with, so
    that a scan naming a few files (pre-commit) reads those and not the whole tree."""

    def check_project(self, context: ProjectContext) -> Iterator[Finding]: ...

    def compared_with(self, view: TreeView) -> Iterator[str]: ...


class TreeView(NamedTuple):
    """The work tree as a cross-file rule sees it before the files not scanned are read: which of them it
    needs (``compared_with``) follows from their paths, kinds and the remotes the tree index says they pin.

    Attributes:
        scanned: the files scanned, read and extracted.
        others: the other files of the tree as discovery found them (path and kind; not read).
        relpaths: display path → path relative to the project root (``/``-separated), for every file of
            both.
        policy: the merged rule packs.
        remotes: display path of a file of ``others`` → the normalised remotes it pins, from the tree index
            (:mod:`ascend_reflint.tree_index`); a file absent here, or mapped to None, may pin any remote.
        open_scanned: display paths of files of ``scanned`` that may pin any remote once the files read
            give them values (a Dockerfile whose URL is written with a variable, which a workflow read for
            context builds with another value).
    """

    scanned: Sequence[SourceFile]
    others: Sequence[SourceFile]
    relpaths: Mapping[str, str]
    policy: Policy
    remotes: Mapping[str, frozenset[str] | None]
    open_scanned: frozenset[str] = frozenset()

    def may_pin(self, source: SourceFile, remote: str) -> bool:
        """True unless the tree index says that ``source`` (one of ``others``) pins no ``remote``."""
        known = self.remotes.get(source.path)
        return known is None or remote in known


class PinContext(NamedTuple):
    """One pin, with what the rule running on it may use.

    Attributes:
        pin: the pin.
        lookup: the result of the lookup of the URL the pin fetches, or None when it was not looked up.
        policy: the merged rule packs.
        remote_pins: the pins of the same file that share the pin's lookup (the same URL, normalised: see
            :func:`ascend_reflint.remote.lookup_key`), in file order, so that a failed lookup is reported
            once per file, at the first of them.
        rule: the rule that is running.
        commit: what commit verification found for the commit id the pin checks out (see
            :func:`~ascend_reflint.check.refnames.pinned_commit`), or None when it pins no commit id or the
            id was not verified (the lookup failed, or the remote was not looked up).
        reported: the display paths the scan reports on (where a finding may move to; see
            :mod:`ascend_reflint.check.placement`); empty means the pin's own file only.
        root: the absolute project root, whose own remotes (its ``origin``, the repository its metadata
            names: :func:`ascend_reflint.own_remotes.own_remotes`) its recipes may clone at their head, or
            None.
    """

    pin: Pin
    lookup: LookupResult | None
    policy: Policy
    remote_pins: tuple[Pin, ...]
    rule: RuleInfo
    commit: CommitVerdict | None = None
    reported: frozenset[str] = frozenset()
    root: str | None = None

    @property
    def tracks_head(self) -> bool:
        """True when the pin is meant to build its remote's default branch head (no RL002, no RL015): the
        remote is under ``head-tracking-remotes``; or it is the scanned project's own remote
        (:func:`~ascend_reflint.own_remotes.own_remotes`) and either under ``self-head-tracking-remotes``
        (verl's Dockerfiles clone verl) or cloned by documentation (install-from-source steps follow the
        repository's own development head). The own remotes are read only for such a pin."""
        remote = self.pin.remote
        if self.policy.is_head_tracking(remote):
            return True
        own_clone = self.pin.kind is FileKind.DOCS or self.policy.is_self_head_tracking(remote)
        if remote is None or not own_clone:
            return False
        from ascend_reflint.own_remotes import own_remotes

        return remote in own_remotes(self.root)

    @property
    def refs(self) -> RemoteRefs | None:
        """The remote's branches and tags, or None when the lookup failed or did not happen."""
        return self.lookup if isinstance(self.lookup, RemoteRefs) else None

    @property
    def failure(self) -> LookupFailure | None:
        """The lookup's failure, or None when it succeeded or did not happen."""
        return self.lookup if isinstance(self.lookup, LookupFailure) else None

    @property
    def first_of_remote(self) -> bool:
        """True when this pin is the first in its file that needed its lookup."""
        return bool(self.remote_pins) and self.remote_pins[0] is self.pin

    def other_pins_of_remote(self) -> tuple[Related, ...]:
        """``related`` entries for the file's other pins in ``remote_pins``, at their URL tokens (else their
        spans), for a finding at this pin's URL token (else its span) that stands for all of them; a
        suppression comment at any of them then suppresses it (see :mod:`ascend_reflint.suppress`).

        A related place is never the finding's own: pins that share this pin's URL token (the ``git
        checkout``s of one clone all fetch the clone's URL) are each at their own span, this pin included,
        so that the note says which pins the finding stands for. Empty when this pin is the only one.
        """
        here = _place(self.pin)
        shared = any(_place(other) == here for other in self.remote_pins if other is not self.pin)
        related: dict[tuple[int, int], Related] = {}
        for other in self.remote_pins:
            if other is self.pin and not shared:
                continue
            at = _place(other)
            if at == here:
                at = (other.span.line, other.span.column)
            if at != here:
                what = "another pin" if other is not self.pin else "a pin"
                related.setdefault(at, Related(other.path, *at, f"{what} of {other.remote}"))
        return tuple(related.values())

    def finding(
        self,
        message: str,
        *,
        severity: Severity | None = None,
        span: Span | None = None,
        ref: str | None = None,
        suggestion: str | None = None,
        related: Sequence[Related] = (),
        fix: Fix | None = None,
        at_use: bool = False,
    ) -> Finding:
        """A finding of the running rule about this pin.

        A finding on the pin's ref token (or URL token) is about the value written there; when that value
        comes through a variable, the finding goes where the variable is set (:mod:`placement
        <ascend_reflint.check.placement>`), unless ``at_use``.

        Args:
            message: what is wrong, where, and what to do, in one sentence.
            severity: a severity lower than the rule's default, when context lowers it (default: the
                rule's).
            span: where (default: the pin's span, the ref token or the URL token for a pin with no ref).
            ref: the ref concerned (default: the pin's ref as resolved, else as written).
            suggestion: the existing ref the user most likely meant.
            related: other places the finding refers to (the clone that a checkout follows); the pin's
                call sites follow them (a finding about a pin inside a function, or inside a Dockerfile that
                another file builds, lists the calls that give the pin its values).
            fix: the edits that fix it (see :mod:`ascend_reflint.check.fixes`), or None.
            at_use: keep the finding at the use even when the value is written elsewhere: the fix changes
                the command there (RL007's ``--branch``, RL015's missing ref), not the value.

        Raises:
            ValueError: when ``severity`` is above the rule's default (context may only lower it).
        """
        if severity is not None and severity > self.rule.severity:
            raise ValueError(f"{self.rule.code} may lower its severity, not raise it to {severity.label}")
        finding = Finding(
            code=self.rule.code,
            rule=self.rule.name,
            severity=severity if severity is not None else self.rule.severity,
            path=self.pin.path,
            span=span if span is not None else self.pin.span,
            message=message,
            remote=self.pin.remote,
            ref=ref if ref is not None else (self.pin.ref or self.pin.ref_text),
            suggestion=suggestion,
            related=(*related, *(call_site_related(site) for site in self.pin.call_sites)),
            fix=fix,
        )
        if at_use:
            return finding
        return placed(finding, self._origin_of(finding.span), self.reported or {self.pin.path})

    def _origin_of(self, span: Span) -> Origin | None:
        """Where the value at ``span`` is written, when ``span`` is the pin's ref or URL token."""
        pin = self.pin
        if span == pin.span and pin.ref_text is not None:
            return pin.ref_origin
        if span == pin.url_span:
            return pin.url_origin
        return None


class IssueContext(NamedTuple):
    """One command issue, with what the rule reading it may use.

    Attributes:
        issue: the command issue.
        policy: the merged rule packs.
        rule: the rule that is running.
    """

    issue: CommandIssue
    policy: Policy
    rule: RuleInfo

    def finding(self, message: str, *, severity: Severity | None = None) -> Finding:
        """A finding of the running rule at the issue's span, with its related places.

        Raises:
            ValueError: when ``severity`` is above the rule's default (context may only lower it).
        """
        if severity is not None and severity > self.rule.severity:
            raise ValueError(f"{self.rule.code} may lower its severity, not raise it to {severity.label}")
        issue = self.issue
        return Finding(
            code=self.rule.code,
            rule=self.rule.name,
            severity=severity if severity is not None else self.rule.severity,
            path=issue.path,
            span=issue.span,
            message=message,
            related=issue.related,
        )


def call_site_related(site: CallSite) -> Related:
    """A finding's related location for a call that gives its pin its values."""
    return Related(site.path, site.span.line, site.span.column, site.call)


class ProjectContext(NamedTuple):
    """Every file read, for rules that compare files with each other.

    Attributes:
        files: the files scanned and the files read only as context (the rest of the work tree when
            explicit paths were given), in path order.
        policy: the merged rule packs.
        rule: the rule that is running.
        relpaths: display path → path relative to the project root (``/``-separated), which globs match.
        variants: the variant groups of ``files``.
        reported: the display paths of the files the scan reports on (the others are context only).
        refs: normalised remote → its ref list, for the remotes that were looked up.
    """

    files: Sequence[SourceFile]
    policy: Policy
    rule: RuleInfo
    relpaths: Mapping[str, str]
    variants: VariantIndex
    reported: frozenset[str] = frozenset()
    refs: Mapping[str, RemoteRefs] = MappingProxyType({})

    def relpath(self, source: SourceFile) -> str:
        """``source``'s path relative to the project root."""
        return self.relpaths[source.path]

    def fixed_commit(self, pin: Pin) -> str | None:
        """The commit ``pin`` builds when that cannot move: its commit id, or its tag's commit when its
        remote was looked up (:func:`~ascend_reflint.check.refnames.fixed_commit`); None otherwise."""
        from ascend_reflint.check.refnames import fixed_commit

        return fixed_commit(pin, self.refs.get(pin.remote) if pin.remote is not None else None)

    def finding(
        self,
        path: str,
        span: Span,
        message: str,
        *,
        remote: str | None = None,
        ref: str | None = None,
        related: Sequence[Related] = (),
        fix: Fix | None = None,
    ) -> Finding:
        """A finding of the running rule, at its default severity.

        Args:
            path: the display path of the file it is about.
            span: where in that file.
            message: what is wrong, where, and what to do, in one sentence.
            remote: the normalised remote concerned.
            ref: the ref concerned (resolved, else as written).
            related: the other places it refers to, in path and line order.
            fix: the edits that fix it, or None.
        """
        return Finding(
            code=self.rule.code,
            rule=self.rule.name,
            severity=self.rule.severity,
            path=path,
            span=span,
            message=message,
            remote=remote,
            ref=ref,
            related=tuple(related),
            fix=fix,
        )

    def pin_finding(
        self,
        pin: Pin,
        message: str,
        *,
        ref: str | None = None,
        related: Sequence[Related] = (),
        fix: Fix | None = None,
    ) -> Finding:
        """A finding about ``pin``'s ref, at its default severity, where the ref is written (see
        :mod:`ascend_reflint.check.placement`).

        Args:
            pin: the pin.
            message: what is wrong, where, and what to do, in one sentence.
            ref: the ref concerned (default: the pin's ref).
            related: the other places it refers to.
            fix: the edits that fix it, or None.
        """
        finding = self.finding(
            pin.path,
            pin.span,
            message,
            remote=pin.remote,
            ref=ref if ref is not None else pin.ref,
            related=related,
            fix=fix,
        )
        return placed(finding, pin.ref_origin if pin.ref_text is not None else None, self.reported)

    def related_pin(self, pin: Pin, message: str) -> Related:
        """A related place at ``pin``'s ref where it is written (its origin, when it has one)."""
        path, line, column = at_value(pin.ref_origin, pin.path, pin.span.line, pin.span.column)
        return Related(path, line, column, message)


def _place(pin: Pin) -> tuple[int, int]:
    """Where a finding about ``pin``'s remote is: its URL token's (else its span's) line and column."""
    at = pin.url_span or pin.span
    return at.line, at.column
