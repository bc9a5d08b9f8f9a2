"""Variants of one recipe that pin a remote differently.

## What it does

Compares the files that are variants of one recipe: files of one kind whose paths differ only by the
tokens that the rule packs list under `variant-tokens` (default: `a2`, `a3`, `a5`, `310p`, `openEuler`,
any case, each a whole `.`-, `_`- or `-`-separated part of a name), and the groups listed under
`variant-groups`. `Dockerfile.ascend_9.1.0_a2` and `Dockerfile.ascend_9.1.0_a3` are variants; so are
`Dockerfile`, `Dockerfile.a3`, `Dockerfile.openEuler` and `Dockerfile.a3.openEuler`, and
`docker-build-ascend-a2.yml` and `docker-build-ascend-a3.yml`.

Every remote that one variant pins must be pinned by the others, at the same commit (the same ref, two
commit ids one of which abbreviates the other, or a commit id and a tag that points at it, as the remote's
ref list says: see RL005 for when it is looked up; a branch is never the same as a commit id, as it
moves), cloned shallow in all or in none. The finding goes to the odd one out:
when seven variants pin `v0.26.0` and one pins `v0.27.0`, one finding on the one, with the seven as
related places, since that is the file to edit; nobody touched the seven. When no ref is pinned by more
variants than every other (two variants that disagree; two against two), each side is reported once, at
its first variant. A finding about a ref sits where the ref is written (`ARG VLLM_TAG=v0.27.0`), with the
pin that uses it as a related place; a variant that does not pin the remote at all is reported on its
first line.

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

## Fix

Unsafe (the odd variant builds another version): the odd variant takes the one ref that the majority of
its variants pin, where its ref is written (its `ARG VLLM_TAG=…` line). A tag or a commit never loses to
a branch that RL002 reports: the branch votes for its release tag (`core_r0.13.0` for `core_v0.13.0`),
is left to RL002 when the others pin that tag, and, when it is the majority, the odd variant is told to
pin, and fixed to, that tag rather than the branch. A tie has no majority and so no fix, and neither has
a majority that pins several refs of the remote, nor a difference in clone depth, nor a majority's name
whose kind no ref list gives (offline, nothing cached): it could be a branch.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence

from ascend_reflint.check.context import ProjectContext, TreeView
from ascend_reflint.check.globs import matches
from ascend_reflint.check.refnames import canonical_refs
from ascend_reflint.check.variants import find_variants, shown_ref, variant_key
from ascend_reflint.check.vote import Majority, elect
from ascend_reflint.model import Applicability, Finding, Fix, Pin, Related, Severity, SourceFile, Span, Via

CODE = "RL004"
NAME = "variant-drift"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False
FIXES = (Applicability.UNSAFE,)

#: How many files a message names before it says "and N more" (the related places list them all).
_NAMED = 3
#: The value of a variant that does not pin the remote.
_ABSENT = "absent"


def check_project(context: ProjectContext) -> Iterator[Finding]:
    """Report, for each remote that the variants of a group pin differently, the odd ones out (each side
    once when there is no majority)."""
    for remote, taking_part, pins in _compared(context):
        yield from _ref_drift(context, remote, taking_part, pins)
        yield from _depth_drift(context, remote, taking_part, pins)


def out_of_step(context: ProjectContext) -> frozenset[tuple[str, str]]:
    """``(display path, remote)`` of each variant that pins the remote at another ref than the majority of
    its variants do: the variants that RL004 tells to pin the majority's ref. RL005 leaves their pins of
    the remote out, so that one wrong ref is one finding (a tie, which RL004 cannot settle, stays in)."""
    odd: set[tuple[str, str]] = set()
    for remote, files, pins in _compared(context):
        for source, _side, others, majority in _ref_odd_ones(context, files, pins):
            if majority is not None and pins[source.path] and any(pins[other.path] for other in others):
                odd.add((source.path, remote))
    return frozenset(odd)


def _compared(
    context: ProjectContext,
) -> Iterator[tuple[str, list[SourceFile], dict[str, list[Pin]]]]:
    """``(remote, the variants taking part, display path → their pins of the remote)`` for each remote of
    each variant group, but those the group allows to drift."""
    for group in context.variants.groups:
        named = {source.path: _remotes_named(source) for source in group.files}
        compared = {source.path: [pin for pin in source.pins if _comparable(pin)] for source in group.files}
        remotes = dict.fromkeys(pin.remote for listed in compared.values() for pin in listed if pin.remote)
        for remote in remotes:
            if remote in group.allowed_drift:
                continue
            pins = {
                path: [pin for pin in listed if pin.remote == remote] for path, listed in compared.items()
            }
            # A variant whose pins of the remote are all unresolved neither lacks it nor is compared.
            taking_part = [s for s in group.files if pins[s.path] or remote not in named[s.path]]
            yield remote, taking_part, pins


def compared_with(view: TreeView) -> Iterator[str]:
    """The variants of the files scanned (variant groups follow from paths and kinds alone).

    Only the files that may share a group with a scanned file are grouped: those an explicit group takes,
    and those of a scanned file's kind whose path holds a token or is a scanned file's path with its tokens
    taken out (``Dockerfile`` beside ``Dockerfile.a3``): two paths without a token differ as they are.
    """
    policy = view.policy
    kinds = {source.kind for source in view.scanned}
    stripped = {variant_key(view.relpaths[source.path], policy.variant_tokens) for source in view.scanned}

    def may_be_variant(source: SourceFile) -> bool:
        relpath = view.relpaths[source.path]
        if any(matches(group.files, relpath) for group in policy.variant_groups):
            return True
        if source.kind not in kinds:
            return False
        lower = relpath.lower()
        return relpath in stripped or any(token in lower for token in policy.variant_tokens)

    candidates = [source for source in view.others if may_be_variant(source)]
    variants = find_variants([*view.scanned, *candidates], policy, view.relpaths)
    for source in view.scanned:
        group = variants.group_of(source.path)
        if group is not None:
            yield from (member.path for member in group.files if member is not source)


def _comparable(pin: Pin) -> bool:
    """True for a pin whose remote and ref are known: an unresolved or empty one pins nothing to compare."""
    return pin.remote is not None and pin.resolved


def _remotes_named(source: SourceFile) -> set[str]:
    """The remotes that ``source`` names, by any pin (resolved or not)."""
    return {pin.remote for pin in source.pins if pin.remote is not None}


def _sides(files: Sequence[SourceFile], value: Mapping[str, Hashable]) -> list[list[SourceFile]]:
    """The files grouped by their value, in the order of each value's first file."""
    sides: dict[Hashable, list[SourceFile]] = {}
    for source in files:
        sides.setdefault(value[source.path], []).append(source)
    return list(sides.values())


def _odd_ones(
    context: ProjectContext, sides: list[list[SourceFile]]
) -> Iterator[tuple[SourceFile, list[SourceFile], list[SourceFile], bool]]:
    """``(file, its side, the others to compare with, majority)`` for each file to report.

    With a majority (one side larger than every other), each file outside it, compared with the majority;
    without one, each side once, at its first file that the scan reports on, compared with all the others.
    """
    if len(sides) < 2:
        return
    largest = max(len(side) for side in sides)
    tops = [side for side in sides if len(side) == largest]
    if len(tops) == 1:
        for side in sides:
            if side is not tops[0]:
                for source in side:
                    yield source, side, tops[0], True
        return
    for side in sides:
        shown = [source for source in side if source.path in context.reported] or side
        others = [source for other in sides if other is not side for source in other]
        yield shown[0], side, others, False


def _ref_values(
    context: ProjectContext, files: Sequence[SourceFile], pins: Mapping[str, list[Pin]]
) -> tuple[dict[str, Hashable], dict[int, str | None], Callable[[str | None], str | None]]:
    """What each variant pins of the remote (display path → the set of what its pins build, or absent),
    what each pin builds (by ``id``), and the function that spells equal commits alike.

    A pin is compared by the commit it builds when that cannot move (a commit id, a tag's commit), else
    by its ref."""
    built = {id(pin): context.fixed_commit(pin) or pin.ref for listed in pins.values() for pin in listed}
    canonical = canonical_refs(list(built.values()))
    value: dict[str, Hashable] = {
        source.path: frozenset(canonical(built[id(pin)]) for pin in pins[source.path]) or _ABSENT
        for source in files
    }
    return value, built, canonical


def _ref_odd_ones(
    context: ProjectContext, files: Sequence[SourceFile], pins: Mapping[str, list[Pin]]
) -> Iterator[tuple[SourceFile, list[SourceFile], list[SourceFile], Majority | None]]:
    """``(file, its side, the others to compare with, the majority)`` for each file to report about its
    ref: with a majority (:func:`~ascend_reflint.check.vote.elect`), each file of a side that did not vote
    for it, compared with the sides that did; without one, each side once, at its first file that the scan
    reports on, compared with all the others."""
    sides = _sides(files, _ref_values(context, files, pins)[0])
    if len(sides) < 2:
        return
    majority = elect(context, [_pins_of(side, pins) for side in sides], [len(side) for side in sides])
    for index, side in enumerate(sides):
        if majority is not None and index not in majority.sides:
            others = [source for chosen in sorted(majority.sides) for source in sides[chosen]]
            for source in side:
                yield source, side, others, majority
        elif majority is None:
            shown = [source for source in side if source.path in context.reported] or side
            others = [source for other in sides if other is not side for source in other]
            yield shown[0], side, others, None


def _pins_of(files: Sequence[SourceFile], pins: Mapping[str, list[Pin]]) -> list[Pin]:
    return [pin for source in files for pin in pins[source.path]]


def _ref_drift(
    context: ProjectContext, remote: str, files: Sequence[SourceFile], pins: Mapping[str, list[Pin]]
) -> Iterator[Finding]:
    _value, built, canonical = _ref_values(context, files, pins)
    for source, side, others, majority in _ref_odd_ones(context, files, pins):
        theirs = _pins_of(others, pins)
        mates = [pin for mate in side if mate is not source for pin in pins[mate.path]]
        if not pins[source.path]:
            yield _missing_here(context, source, remote, others, theirs, majority is not None)
        elif not theirs:
            yield _missing_there(context, pins[source.path][0], others, majority is not None)
        else:
            wanted = {canonical(built[id(pin)]) for pin in theirs}
            mine = pins[source.path]
            odd = next((pin for pin in mine if canonical(built[id(pin)]) not in wanted), mine[0])
            yield _different_ref(context, odd, theirs, mates, majority)


def _depth_drift(
    context: ProjectContext, remote: str, files: Sequence[SourceFile], pins: Mapping[str, list[Pin]]
) -> Iterator[Finding]:
    """Clones of the remote shallow in some variants and with full history in others."""
    clones = {source.path: [pin for pin in pins[source.path] if _is_clone(pin)] for source in files}
    depths = {path: {pin.shallow for pin in listed} for path, listed in clones.items()}
    cloning = [source for source in files if len(depths[source.path]) == 1]
    value: dict[str, Hashable] = {source.path: depths[source.path].pop() for source in cloning}
    for source, side, others, majority in _odd_ones(context, _sides(cloning, value)):
        theirs = [pin for other in others for pin in clones[other.path]]
        mates = [pin for mate in side if mate is not source for pin in clones[mate.path]]
        yield _different_depth(context, clones[source.path][0], theirs, mates, majority)


def _is_clone(pin: Pin) -> bool:
    """Only a clone can be shallow; pip and GitHub Actions fetch as they do."""
    return pin.via in (Via.CLONE, Via.CLONE_BRANCH, Via.CHECKOUT, Via.SUBMODULE)


def _in_variants(names: Sequence[str]) -> str:
    """``in 7 of its variants (a, b, c and 4 more)``, or ``in its variant a`` for one."""
    listed = ", ".join(names[:_NAMED]) + (f" and {len(names) - _NAMED} more" if len(names) > _NAMED else "")
    return f"in {len(names)} of its variants ({listed})" if len(names) > 1 else f"in its variant {listed}"


def _different_ref(
    context: ProjectContext, pin: Pin, others: Sequence[Pin], mates: Sequence[Pin], majority: Majority | None
) -> Finding:
    related = [context.related_pin(o, f"{o.remote} is pinned at {shown_ref(o)} here") for o in others]
    related += [context.related_pin(m, f"{m.remote} is pinned at {shown_ref(m)} here too") for m in mates]
    fix = None
    group = context.variants.group_of(pin.path)
    allowing = group.allowing_key if group is not None else "variant-allowed-drift"
    if majority is not None:
        refs = list(dict.fromkeys(shown_ref(other) for other in others))
        where = _in_variants(list(dict.fromkeys(other.path for other in others)))
        message = (
            f"{pin.remote} is pinned at {shown_ref(pin)} here but at {' and '.join(refs)} {where}; "
            f"{majority.advice()} (or list the remote under {allowing})"
        )
        fix = _majority_ref(pin, majority)
    else:
        elsewhere = ", ".join(f"{shown_ref(other)} in {other.path}" for other in others)
        message = (
            f"{pin.remote} is pinned at {shown_ref(pin)} here but at {elsewhere}, a variant of the same "
            f"recipe; pin the same ref in every variant (or list the remote under {allowing})"
        )
    return context.pin_finding(pin, message, related=related, fix=fix)


def _majority_ref(pin: Pin, majority: Majority) -> Fix | None:
    """The odd variant takes the one ref the majority builds (none when the majority pins several, or
    when no ref list says that the ref is not a branch)."""
    from ascend_reflint.check.fixes import make_fix, ref_edit

    if majority.ref is None or not majority.known or pin.ref_type != majority.ref_type:
        return None
    message = f'pin "{majority.ref}", as the majority of its variants do'
    return make_fix(Applicability.UNSAFE, message, [ref_edit(pin, majority.ref)], [pin])


def _first(pins: Sequence[Pin], path: str) -> Pin:
    return next(pin for pin in pins if pin.path == path)


def _different_depth(
    context: ProjectContext, pin: Pin, others: Sequence[Pin], mates: Sequence[Pin], majority: bool
) -> Finding:
    related = [context.related_pin(o, f"{o.remote} is cloned {_depth(o)} here") for o in others]
    related += [context.related_pin(m, f"{m.remote} is cloned {_depth(m)} here too") for m in mates]
    if majority:
        where = _in_variants(list(dict.fromkeys(other.path for other in others)))
        message = (
            f"{pin.remote} is cloned {_depth(pin)} here but {_depth(others[0])} {where}; clone it as they do"
        )
    else:
        elsewhere = ", ".join(f"{_depth(other)} in {other.path}" for other in others)
        message = (
            f"{pin.remote} is cloned {_depth(pin)} here but {elsewhere}, a variant of the same recipe; clone "
            "it the same way in every variant"
        )
    return context.finding(pin.path, pin.span, message, remote=pin.remote, ref=pin.ref, related=related)


def _missing_there(
    context: ProjectContext, pin: Pin, others: Sequence[SourceFile], majority: bool
) -> Finding:
    names = [other.path for other in others]
    where = _in_variants(names) if majority else f"in {', '.join(names)}, a variant of the same recipe"
    return context.pin_finding(
        pin,
        f"{pin.remote} is pinned here but not {where}; pin it in every variant or in none",
        related=[Related(other.path, 1, 1, f"{other.path} does not pin {pin.remote}") for other in others],
    )


def _missing_here(
    context: ProjectContext,
    source: SourceFile,
    remote: str,
    others: Sequence[SourceFile],
    theirs: Sequence[Pin],
    majority: bool,
) -> Finding:
    firsts = [_first(theirs, other.path) for other in others if any(pin.path == other.path for pin in theirs)]
    listed = [f"{pin.path} at {shown_ref(pin)}" for pin in firsts]
    where = _in_variants(listed) if majority else f"in {', '.join(listed)}, a variant of the same recipe"
    return context.finding(
        source.path,
        first_line_span(source),
        f"{remote} is not pinned in this file but {where}; pin it in every variant or in none",
        remote=remote,
        related=[
            context.related_pin(pin, f"{pin.remote} is pinned at {shown_ref(pin)} here") for pin in firsts
        ],
    )


def first_line_span(source: SourceFile) -> Span:
    """The span of a file's first line (for a finding about something the file lacks); read from the file
    when a scan let its text go (:func:`ascend_reflint.inventory.text_needed`)."""
    text = source.text if source.text is not None else _head(source.abspath)
    first = text.split("\n", 1)[0].rstrip("\r")
    return Span(1, 1, 1, len(first) + 1)


def _head(path: str) -> str:
    """The start of the file at ``path`` as text (empty when it cannot be read any more)."""
    from ascend_reflint.textfile import FileReadError, read_head, text_of

    try:
        return text_of(read_head(path, 64 * 1024))[0]
    except FileReadError:
        return ""


def _depth(pin: Pin) -> str:
    if not pin.shallow:
        return "with full history"
    return f"shallow (`--depth {pin.depth}`)" if pin.depth is not None else "shallow"
