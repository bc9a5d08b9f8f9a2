"""One remote pinned at different refs by files of one stack that are not variants of each other.

## What it does

Compares the pins of one remote across the files of one *family*: the files that an entry of
`drift-families` in the rule packs matches (the default pack has one, `ascend`: every path with
`ascend` or `npu` in a file or folder name), and, for a file in no family, the other files of its folder.
Within a family, a Dockerfile, a shell script, a workflow and a requirements file that pin the same
remote must pin the same commit: the same ref, two commit ids one of which abbreviates the other, or a
commit id and a tag that points at it (a submodule's recorded commit and `--branch v1.2` of its release
tag elsewhere), as the remote's ref list says. A branch is never the same as a commit id, even its tip
today: the branch moves on.

Each drift is reported once, on the side that is out of step: the pins of the family are grouped by
what they build, and when one ref is pinned more often than every other (the majority), each other ref
is one finding, at its first pin, which names its other pins and the files of the majority ("3 other
pins of drift family 'ascend' are at "v0.11.0": …"); all these pins are related locations. Once two
files of different kinds disagree, the majority counts every pin of the family, also those of the same
kind that are not compared with each other (an image folder's Dockerfiles that agree with the docs).
When no ref is pinned more often than every other, each side is reported once, at its first pin.

Not compared, to keep the noise down:

- files of the same kind (two Dockerfiles, two workflows): image folders pin different versions on
  purpose, and `actions/checkout@v4` in one workflow beside a commit id in another is a choice of each
  workflow. Set `drift-same-kind: true` to compare them too;
- variants of one recipe (RL004 compares those, more strictly);
- pins whose ref is unresolved or absent (RL009 and RL015 report those);
- remotes listed under `drift-allowed-remotes`.

A tag and a commit id are compared by the commit the tag points to only when the remote was looked up:
a scan looks it up for the rules that need ref lists, and, when only rules that need none run (`--select
RL005`), for the remotes that are pinned both by commit id and by name. Offline, without a cached ref
list, they are compared as written.

The other files are read from disk when only some are scanned (pre-commit passes the staged files);
findings are reported on the files scanned.

## Why is this bad?

An install script, the Dockerfile that builds the image and the workflow that tests it are three
copies of one decision. When Megatron-LM is bumped in the Dockerfile but not in the install script,
developers who install with the script train on another version than the image ships, and CI may test
a third one: results differ between machines with no change anyone can point to.

## Example

```dockerfile
# docker/ascend/Dockerfile.ascend_a2
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.1
```

```bash
# scripts/install_npu.sh
pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.0
```

## Use instead

```bash
# scripts/install_npu.sh
pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.1
```
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence

from ascend_reflint.check.context import ProjectContext
from ascend_reflint.check.globs import matches
from ascend_reflint.check.refnames import canonical_refs
from ascend_reflint.model import FileKind, Finding, Pin, Severity, SourceFile

CODE = "RL005"
NAME = "cross-file-drift"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False

#: How many files a message names before it says "and N more" (the related places list them all).
_NAMED = 3


def check_project(context: ProjectContext) -> Iterator[Finding]:
    """Report, for each remote that the files of a family pin at different refs, each side that is not the
    majority once (each side once when no side is; see the module docstring)."""
    compared: dict[tuple[str, str], list[Pin]] = {}
    for source in context.files:
        family = family_of(context, source)
        for pin in source.pins:
            if pin.remote is None or pin.ref is None or not pin.resolved:
                continue
            if not context.policy.may_drift_across_files(pin.remote):
                compared.setdefault((family, pin.remote), []).append(pin)
    for (family, _), pins in compared.items():
        sides = _sides(context, pins)
        if len(sides) < 2:
            continue
        largest = max(len(side) for side in sides)
        tops = [side for side in sides if len(side) == largest]
        majority = tops[0] if len(tops) == 1 else None
        for side in sides:
            if side is majority:
                continue
            others = [other for other in sides if other is not side]
            host = _host(context, side, others)
            if host is None:
                continue
            if majority is not None:
                yield _drift(context, host, side, [majority], family, True)
            else:  # each side that the host is compared with (not its variants, nor its kind)
                differing = [other for other in others if any(_compared(context, host, pin) for pin in other)]
                yield _drift(context, host, side, differing, family, False)


def family_of(context: ProjectContext, source: SourceFile) -> str:
    """``drift family 'NAME'`` for a file that a family's globs match, else ``folder 'PATH'``."""
    relpath = context.relpath(source)
    for family in context.policy.drift_families:
        if matches(family.files, relpath):
            return f"drift family '{family.name}'"
    return f"folder '{posixpath.dirname(relpath) or '.'}'"


def _sides(context: ProjectContext, pins: Sequence[Pin]) -> list[list[Pin]]:
    """The pins of one family and remote grouped by what they build, in the order of each group's first pin:
    the commit that cannot move (a commit id, as its longest spelling among the pins; a tag's commit, when
    the remote was looked up), else the ref."""
    built = [context.fixed_commit(pin) or pin.ref for pin in pins]
    canonical = canonical_refs(built)
    sides: dict[str | None, list[Pin]] = {}
    for pin, value in zip(pins, built, strict=True):
        sides.setdefault(canonical(value), []).append(pin)
    return list(sides.values())


def _host(context: ProjectContext, side: Sequence[Pin], others: Sequence[Sequence[Pin]]) -> Pin | None:
    """The pin of ``side`` that a finding about it is reported at: the first, of those in files the scan
    reports on, that another side differs from as RL005 compares (another file, not a variant of its own,
    of another kind unless ``drift-same-kind``); None when no pin of the side is so compared.

    Whether a pin is compared depends on its file only, so each file is asked once, and the other sides'
    pins are looked at by kind: a family of 20,000 scripts against one Dockerfile stays linear.
    """
    by_kind: dict[FileKind, list[Pin]] = {}
    for other_side in others:
        for other in other_side:
            by_kind.setdefault(other.kind, []).append(other)
    asked: dict[str, bool] = {}
    shown = [pin for pin in side if pin.path in context.reported] or list(side)
    for pin in shown:
        if pin.path not in asked:
            asked[pin.path] = any(
                _compared(context, pin, other)
                for kind, pins in by_kind.items()
                if kind is not pin.kind or context.policy.drift_same_kind
                for other in pins
            )
        if asked[pin.path]:
            return pin
    return None


def _compared(context: ProjectContext, pin: Pin, other: Pin) -> bool:
    """Whether RL005 compares two pins: in different files that are not variants of each other (RL004
    compares those), of different kinds unless ``drift-same-kind``."""
    if other.path == pin.path or (other.kind is pin.kind and not context.policy.drift_same_kind):
        return False
    return not context.variants.are_variants(pin.path, other.path)


def _drift(
    context: ProjectContext,
    pin: Pin,
    side: Sequence[Pin],
    others: Sequence[Sequence[Pin]],
    family: str,
    majority: bool,
) -> Finding:
    """The finding about one side, at ``pin``: where the side's other pins are, and the ref that the majority
    (``others``, one side) or each other side pins, with their files."""
    mates = [mate for mate in side if mate is not pin]
    mate_files = list(dict.fromkeys(mate.path for mate in mates if mate.path != pin.path))
    here = f"here and in {_files(mate_files)}" if mate_files else "here"
    if majority:
        (theirs,) = others
        many = len(theirs) > 1
        count = f"{len(theirs)} other pin{'s' if many else ''} of {family} {'are' if many else 'is'}"
        where = f'{count} at "{theirs[0].ref}": {_files(list(dict.fromkeys(o.path for o in theirs)))}'
        advice = f'pin "{theirs[0].ref}" as they do'
    else:
        where = " and ".join(
            f'at "{other[0].ref}" in {_files(list(dict.fromkeys(o.path for o in other)))}' for other in others
        )
        advice = f"the files of {family} should pin one ref"
    message = f'{pin.remote} is pinned at "{pin.ref}" {here}, but {where}; {advice}'
    related = [
        context.related_pin(mate, f'{mate.remote} is pinned at "{mate.ref}" here too') for mate in mates
    ]
    related += [
        context.related_pin(other, f'{other.remote} is pinned at "{other.ref}" here')
        for other_side in others
        for other in other_side
    ]
    return context.pin_finding(
        pin, f"{message} (or list the remote under drift-allowed-remotes)", related=related
    )


def _files(paths: Sequence[str]) -> str:
    """``a, b, c and 4 more`` (at most :data:`_NAMED` paths named)."""
    named = ", ".join(paths[:_NAMED])
    return f"{named} and {len(paths) - _NAMED} more" if len(paths) > _NAMED else named
