"""What a rule sees (:class:`PinContext`) and what a rule module provides (:class:`RuleModule`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ascend_reflint.model import Finding, LookupFailure, LookupResult, Pin, RemoteRefs, Severity, Span

if TYPE_CHECKING:
    from ascend_reflint.check.policy import Policy


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """A rule as ``reflint rules`` and the reports show it.

    Attributes:
        code: the stable code (``RL001``).
        name: the kebab-case name (``ref-not-found``).
        severity: the default severity (a finding may be lower; a rule pack may replace it).
        needs_lookup: True when the rule needs the remote's ref list to say anything.
        doc: the user documentation (markdown with "What it does", "Why is this bad?", "Example" and
            "Use instead" sections): the rule module's docstring.
    """

    code: str
    name: str
    severity: Severity
    needs_lookup: bool
    doc: str


class RuleModule(Protocol):
    """What a rule module defines (one rule per module, under ``ascend_reflint/check/rules/``).

    The module docstring is the rule's user documentation; ``check`` yields findings for one pin, built
    with :meth:`PinContext.finding`.
    """

    CODE: str
    NAME: str
    SEVERITY: Severity
    NEEDS_LOOKUP: bool
    __name__: str
    __doc__: str | None

    def check(self, context: PinContext) -> Iterator[Finding]: ...


@dataclass(frozen=True, slots=True)
class PinContext:
    """One pin, with what the rule running on it may use.

    Attributes:
        pin: the pin.
        lookup: the lookup result for ``pin.remote``, or None when the remote was not looked up.
        policy: the merged rule packs.
        remote_pins: the pins of the same file that share ``pin.remote`` and needed its lookup, in file
            order (so that a remote's failure is reported once per file, at the first of them).
        rule: the rule that is running.
    """

    pin: Pin
    lookup: LookupResult | None
    policy: Policy
    remote_pins: tuple[Pin, ...]
    rule: RuleInfo

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
        """True when this pin is the first in its file that needed ``pin.remote``'s lookup."""
        return bool(self.remote_pins) and self.remote_pins[0] is self.pin

    def finding(
        self,
        message: str,
        *,
        severity: Severity | None = None,
        span: Span | None = None,
        ref: str | None = None,
        suggestion: str | None = None,
    ) -> Finding:
        """A finding of the running rule about this pin.

        Args:
            message: what is wrong, where, and what to do, in one sentence.
            severity: a severity lower than the rule's default, when context lowers it (default: the
                rule's).
            span: where (default: the pin's span, the ref token or the URL token for a pin with no ref).
            ref: the ref concerned (default: the pin's ref as resolved, else as written).
            suggestion: the existing ref the user most likely meant.

        Raises:
            ValueError: when ``severity`` is above the rule's default (context may only lower it).
        """
        if severity is not None and severity > self.rule.severity:
            raise ValueError(f"{self.rule.code} may lower its severity, not raise it to {severity.label}")
        return Finding(
            code=self.rule.code,
            rule=self.rule.name,
            severity=severity if severity is not None else self.rule.severity,
            path=self.pin.path,
            span=span if span is not None else self.pin.span,
            message=message,
            remote=self.pin.remote,
            ref=ref if ref is not None else (self.pin.ref or self.pin.ref_text),
            suggestion=suggestion,
        )
