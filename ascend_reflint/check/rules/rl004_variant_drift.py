"""Variants of one recipe that pin a remote differently.

## What it does

Compares the files that are variants of one recipe: files of one kind whose paths differ only by the
tokens that the rule packs list under `variant-tokens` (default: `a2`, `a3`, `a5`, `310p`, `openEuler`,
any case, each a whole `.`-, `_`- or `-`-separated part of a name), and the groups listed under
`variant-groups`. `Dockerfile.ascend_9.1.0_a2` and `Dockerfile.ascend_9.1.0_a3` are variants; so are
`Dockerfile`, `Dockerfile.a3`, `Dockerfile.openEuler` and `Dockerfile.a3.openEuler`, and
`docker-build-ascend-a2.yml` and `docker-build-ascend-a3.yml`.

Every remote that one variant pins must be pinned by the others, at the same ref (two commit ids match
when one abbreviates the other), cloned shallow in all or in none. Each side that differs is reported,
with the other side's line as a related location; a variant that does not pin the remote at all is
reported on its first line.

Only pins whose ref and URL are resolved are compared. A pin whose ref is unresolved (a
`git fetch URL "$COMMIT"` with `ARG COMMIT=""`, a `${{ matrix.ref }}`: RL009 reports it) or empty
(RL012) says nothing that can be compared, so it is left out. A variant whose only pins of a remote are
such pins is not reported as lacking the remote (it does name it), and does not make the other variants
lack it either.

Remotes under `variant-allowed-drift`, or under a group's `allowed-drift`, may differ; a single
difference is accepted with `# reflint: ignore[RL004]` above the pin (on the first line, for the variant
that lacks the remote).

The other variants are read from disk when only some of them are scanned (pre-commit passes the staged
files); findings are reported on the files scanned.

## Why is this bad?

The A2 and A3 images (or the Ubuntu and openEuler ones) are meant to hold the same software for
different hardware. When a bump of Megatron-LM or a switch to `--depth 1` lands in one of them only, the
images drift apart silently: a training job that works on A2 fails on A3, and nobody changed the A3
recipe on purpose.

## Example

```dockerfile
# docker/Dockerfile.ascend_a2
RUN git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git
# docker/Dockerfile.ascend_a3
RUN git clone --depth 1 --branch core_v0.13.0 https://github.com/NVIDIA/Megatron-LM.git
```

## Use instead

```dockerfile
# docker/Dockerfile.ascend_a2
RUN git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git
# docker/Dockerfile.ascend_a3
RUN git clone --depth 1 --branch core_v0.12.1 https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ascend_reflint.check.context import ProjectContext
from ascend_reflint.check.refnames import same_ref
from ascend_reflint.check.variants import VariantGroup, shown_ref
from ascend_reflint.model import Finding, Pin, Related, Severity, SourceFile, Span, Via

CODE = "RL004"
NAME = "variant-drift"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False


def check_project(context: ProjectContext) -> Iterator[Finding]:
    """Report every difference between the variants of each group, on each side."""
    for group in context.variants.groups:
        named = {source.path: _remotes_named(source) for source in group.files}
        compared = {source.path: [pin for pin in source.pins if _comparable(pin)] for source in group.files}
        remotes = dict.fromkeys(pin.remote for listed in compared.values() for pin in listed if pin.remote)
        for remote in remotes:
            if remote in group.allowed_drift:
                continue
            of_remote = {
                path: [pin for pin in listed if pin.remote == remote] for path, listed in compared.items()
            }
            naming = {path for path, remotes_named in named.items() if remote in remotes_named}
            for source in group.files:
                yield from _compare(context, group, source, remote, of_remote, naming)


def _comparable(pin: Pin) -> bool:
    """True for a pin whose remote and ref are known: an unresolved or empty one pins nothing to compare."""
    return pin.remote is not None and pin.resolved


def _remotes_named(source: SourceFile) -> set[str]:
    """The remotes that ``source`` names, by any pin (resolved or not)."""
    return {pin.remote for pin in source.pins if pin.remote is not None}


def _compare(
    context: ProjectContext,
    group: VariantGroup,
    source: SourceFile,
    remote: str,
    of_remote: dict[str, list[Pin]],
    naming: set[str],
) -> Iterator[Finding]:
    """Findings on ``source`` for ``remote``.

    Args:
        of_remote: display path → the comparable pins of ``remote`` in that variant.
        naming: the display paths of the variants that name ``remote`` by any pin, comparable or not:
            a variant whose pins of it are all unresolved neither lacks it nor is compared.
    """
    others = [other for other in group.files if other is not source]
    mine = of_remote[source.path]
    if not mine:
        if source.path not in naming:
            pinned_elsewhere = [of_remote[other.path][0] for other in others if of_remote[other.path]]
            yield _missing_here(context, source, remote, pinned_elsewhere)
        return
    for pin in mine:
        missing: list[SourceFile] = []
        other_refs: list[Pin] = []
        other_depths: list[Pin] = []
        for other in others:
            theirs = of_remote[other.path]
            same = [q for q in theirs if same_ref(pin.ref, q.ref)]
            clones = [q for q in same if _is_clone(q)]
            if not theirs:
                if other.path not in naming:
                    missing.append(other)
            elif not same:
                other_refs.extend(theirs)
            elif _is_clone(pin) and clones and not any(q.shallow == pin.shallow for q in clones):
                other_depths.append(clones[0])
        if other_refs:
            yield _different_ref(context, pin, other_refs)
        if other_depths:
            yield _different_depth(context, pin, other_depths)
        if missing:
            yield _missing_there(context, pin, missing)


def _is_clone(pin: Pin) -> bool:
    """Only a clone can be shallow; pip and GitHub Actions fetch as they do."""
    return pin.via in (Via.CLONE, Via.CLONE_BRANCH, Via.CHECKOUT, Via.SUBMODULE)


def _different_ref(context: ProjectContext, pin: Pin, others: Sequence[Pin]) -> Finding:
    elsewhere = ", ".join(f"{shown_ref(other)} in {other.path}" for other in others)
    return context.finding(
        pin.path,
        pin.span,
        f"{pin.remote} is pinned at {shown_ref(pin)} here but at {elsewhere}, a variant of the same recipe; "
        "pin the same ref in every variant (or list the remote under the group's allowed-drift)",
        remote=pin.remote,
        ref=pin.ref,
        related=[_at(other, f"{other.remote} is pinned at {shown_ref(other)} here") for other in others],
    )


def _different_depth(context: ProjectContext, pin: Pin, others: Sequence[Pin]) -> Finding:
    elsewhere = ", ".join(f"{_depth(other)} in {other.path}" for other in others)
    return context.finding(
        pin.path,
        pin.span,
        f"{pin.remote} is cloned {_depth(pin)} here but {elsewhere}, a variant of the same recipe; clone it "
        "the same way in every variant",
        remote=pin.remote,
        ref=pin.ref,
        related=[_at(other, f"{other.remote} is cloned {_depth(other)} here") for other in others],
    )


def _missing_there(context: ProjectContext, pin: Pin, others: Sequence[SourceFile]) -> Finding:
    names = ", ".join(other.path for other in others)
    return context.finding(
        pin.path,
        pin.span,
        f"{pin.remote} is pinned here but not in {names}, a variant of the same recipe; pin it in every "
        "variant or in none",
        remote=pin.remote,
        ref=pin.ref,
        related=[Related(other.path, 1, 1, f"{other.path} does not pin {pin.remote}") for other in others],
    )


def _missing_here(context: ProjectContext, source: SourceFile, remote: str, others: Sequence[Pin]) -> Finding:
    elsewhere = ", ".join(f"{other.path} at {shown_ref(other)}" for other in others)
    return context.finding(
        source.path,
        first_line_span(source),
        f"{remote} is not pinned in this file but in {elsewhere}, a variant of the same recipe; pin it in "
        "every variant or in none",
        remote=remote,
        related=[_at(other, f"{other.remote} is pinned at {shown_ref(other)} here") for other in others],
    )


def first_line_span(source: SourceFile) -> Span:
    """The span of a file's first line (for a finding about something the file lacks)."""
    first = (source.text or "").split("\n", 1)[0].rstrip("\r")
    return Span(1, 1, 1, len(first) + 1)


def _depth(pin: Pin) -> str:
    if not pin.shallow:
        return "with full history"
    return f"shallow (`--depth {pin.depth}`)" if pin.depth is not None else "shallow"


def _at(pin: Pin, message: str) -> Related:
    return Related(pin.path, pin.span.line, pin.span.column, message)
