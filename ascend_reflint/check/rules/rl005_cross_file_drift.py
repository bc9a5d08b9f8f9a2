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
pins of drift family 'ascend' are at "v0.11.0": …"); these pins are its related locations (the first 20).
Once two files of different kinds disagree, the majority counts every pin of the family, also those of
the same kind that are not compared with each other (an image folder's Dockerfiles that agree with the
docs).
When no ref is pinned more often than every other, each side is reported once, at its first pin, naming
three of the other refs and counting the rest. A tag or a commit never loses to a branch that RL002
reports: the branch's pins vote for the release tag RL002 suggests (TransformerEngine's `release_v2.10`
for `v2.10`), and are left to RL002 when the others pin that tag.

Not compared, to keep the noise down:

- files of the same kind (two Dockerfiles, two workflows): image folders pin different versions on
  purpose, and `actions/checkout@v4` in one workflow beside a commit id in another is a choice of each
  workflow. Set `drift-same-kind: true` to compare them too;
- variants of one recipe (RL004 compares those, more strictly); and a variant whose ref RL004 reports
  against the majority of its variants is left out altogether (RL004's finding, and its fix, settle it:
  one wrong ref, one finding). A variant of a tie, which RL004 cannot settle, is still compared;
- pins whose ref is unresolved or absent (RL009 and RL015 report those);
- remotes listed under `drift-allowed-remotes`.

A tag and a commit id are compared by the commit the tag points to only when the remote was looked up:
a scan looks it up for the rules that need ref lists, and, when only rules that need none run (`--select
RL005`), for the remotes that are pinned both by commit id and by name. Offline, without a cached ref
list, they are compared as written.

The other files are read from disk when only some are scanned (pre-commit passes the staged files):
those of the family that pin a remote the scanned files pin, by the tree index; findings are reported on
the files scanned.

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
from typing import TYPE_CHECKING

from ascend_reflint.check.context import ProjectContext, TreeView
from ascend_reflint.check.globs import matches
from ascend_reflint.check.refnames import canonical_refs
from ascend_reflint.check.vote import Majority, elect
from ascend_reflint.model import FileKind, Finding, Pin, Severity, SourceFile

if TYPE_CHECKING:
    from ascend_reflint.check.policy import Policy

CODE = "RL005"
NAME = "cross-file-drift"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False

#: How many files, and other refs, a message names before it says "and N more".
_NAMED = 3
#: How many other refs a finding looks for, and how many related places it lists (its side's other pins
#: first): a remote pinned at thousands of refs is read from the message's counts, not from thousands of
#: locations in each of thousands of findings (that was quadratic in time, output and memory).
_LISTED = 20


def check_project(context: ProjectContext) -> Iterator[Finding]:
    """Report, for each remote that the files of a family pin at different refs, each side that is not the
    majority once (each side once when no side is; see the module docstring)."""
    from ascend_reflint.check.rules.rl004_variant_drift import out_of_step

    left_to_rl004 = out_of_step(context)
    compared: dict[tuple[str, str], list[Pin]] = {}
    for source in context.files:
        family = family_of(context, source)
        for pin in source.pins:
            if pin.remote is None or pin.ref is None or not pin.resolved:
                continue
            if (pin.path, pin.remote) in left_to_rl004:
                continue
            if not context.policy.may_drift_across_files(pin.remote):
                compared.setdefault((family, pin.remote), []).append(pin)
    for (family, _), pins in compared.items():
        sides = _sides(context, pins)
        if len(sides) < 2:
            continue
        majority = elect(context, sides, [len(side) for side in sides])
        layout = _Layout(context, sides)
        for index in range(len(sides)):
            if majority is not None and index in majority.sides:
                continue
            host = layout.host(index)
            if host is None:
                continue
            if majority is not None:
                yield _drift(context, layout, host, index, sorted(majority.sides), family, majority)
            else:  # the first sides that the host is compared with (not its variants, nor its kind)
                yield _drift(context, layout, host, index, layout.differing(host, index), family, None)


def family_of(context: ProjectContext, source: SourceFile) -> str:
    """``drift family 'NAME'`` for a file that a family's globs match, else ``folder 'PATH'``."""
    return _family(context.policy, context.relpath(source))


def compared_with(view: TreeView) -> Iterator[str]:
    """The files of a scanned file's family that may pin one of its remotes (by the tree index), when the
    files pinning that remote in the family are of more than one kind (or ``drift-same-kind`` is on):
    files of one kind are not compared, so they are not needed.

    A scanned pin counts whether or not its ref is resolved, and one whose remote is unknown stands for
    every remote: the values that the files read for context give (build arguments of a workflow that
    builds the file) may resolve them, or give a URL written with a variable another remote
    (``view.open_scanned``).
    """
    policy = view.policy
    members: dict[str, list[SourceFile]] = {}
    for source in view.others:
        members.setdefault(_family(policy, view.relpaths[source.path]), []).append(source)
    scanned: dict[tuple[str, str | None], list[SourceFile]] = {}
    for source in view.scanned:
        family = _family(policy, view.relpaths[source.path])
        remotes = {pin.remote for pin in source.pins}
        if source.path in view.open_scanned:
            remotes.add(None)
        for remote in remotes:
            if remote is None or not policy.may_drift_across_files(remote):
                scanned.setdefault((family, remote), []).append(source)
    for (family, remote), sources in scanned.items():
        pinning = [
            source for source in members.get(family, ()) if remote is None or view.may_pin(source, remote)
        ]
        kinds = {source.kind for source in (*sources, *pinning)}
        if len(kinds) > 1 or policy.drift_same_kind:
            yield from (source.path for source in pinning)


def _family(policy: Policy, relpath: str) -> str:
    for family in policy.drift_families:
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


class _Layout:
    """Where the sides of one family and remote are pinned, by kind of file and by file, so that each side's
    questions cost about the pins of that side: a hostile family of thousands of refs in two files stays
    linear (comparing each side with every other was quadratic in time, and in the related places listed).

    RL005 compares two pins in different files that are not variants of each other (RL004 compares those),
    of different kinds unless ``drift-same-kind``.
    """

    def __init__(self, context: ProjectContext, sides: Sequence[Sequence[Pin]]) -> None:
        self.context = context
        self.sides = sides
        #: side → the files it is pinned in, each once, in order.
        self.side_files = [list(dict.fromkeys(pin.path for pin in side)) for side in sides]
        #: kind → file → the sides pinned there, in the order they are first met.
        self.files: dict[FileKind, dict[str, set[int]]] = {}
        #: kind → side → the files of that kind it is pinned in (sides in order).
        self.by_side: dict[FileKind, dict[int, list[str]]] = {}
        for index, side in enumerate(sides):
            for pin in side:
                self.files.setdefault(pin.kind, {}).setdefault(pin.path, set()).add(index)
                paths = self.by_side.setdefault(pin.kind, {}).setdefault(index, [])
                if not paths or paths[-1] != pin.path:
                    paths.append(pin.path)

    def _kinds(self, pin: Pin) -> list[FileKind]:
        """The kinds of file that ``pin`` is compared with."""
        same_kind = self.context.policy.drift_same_kind
        return [kind for kind in self.files if same_kind or kind is not pin.kind]

    def _compared(self, pin: Pin, path: str) -> bool:
        return path != pin.path and not self.context.variants.are_variants(pin.path, path)

    def host(self, index: int) -> Pin | None:
        """The pin of side ``index`` that a finding about it is reported at: the first, of those in files the
        scan reports on, that a pin of another side is compared with; None when there is none. A file that
        holds this side only is skipped, so a side costs about its own files and its variants."""
        side = self.sides[index]
        shown = [pin for pin in side if pin.path in self.context.reported] or list(side)
        asked: dict[str, bool] = {}
        for pin in shown:
            if pin.path not in asked:
                asked[pin.path] = any(
                    held != {index} and self._compared(pin, path)
                    for kind in self._kinds(pin)
                    for path, held in self.files[kind].items()
                )
            if asked[pin.path]:
                return pin
        return None

    def differing(self, host: Pin, index: int) -> list[int]:
        """The other sides, in order, that have a pin compared with ``host``: the first :data:`_LISTED` of
        them (each kind's list of sides is read until it gives that many, so a side costs about the sides
        it names, not all of them)."""
        found: set[int] = set()
        for kind in self._kinds(host):
            taken = 0
            for other, paths in self.by_side[kind].items():
                if taken == _LISTED:
                    break
                if other != index and any(self._compared(host, path) for path in paths):
                    found.add(other)
                    taken += 1
        return sorted(found)[:_LISTED]


def _drift(
    context: ProjectContext,
    layout: _Layout,
    pin: Pin,
    index: int,
    others: Sequence[int],
    family: str,
    majority: Majority | None,
) -> Finding:
    """The finding about side ``index``, at ``pin``: where the side's other pins are, and the ref that the
    majority (``others``, one side) or each other side named pins, with their files; the family's other
    refs are counted, not named. The related places are the side's other pins, then the others' pins, at
    most :data:`_LISTED` of them."""
    side = layout.sides[index]
    mates = [mate for mate in side if mate is not pin]
    mate_files = [path for path in layout.side_files[index] if path != pin.path]
    here = f"here and in {_files(mate_files)}" if mate_files else "here"
    if majority is not None:
        theirs = [away for other in others for away in layout.sides[other]]
        many = len(theirs) > 1
        count = f"{len(theirs)} other pin{'s' if many else ''} of {family} {'are' if many else 'is'}"
        refs = " and ".join(f'"{ref}"' for ref in dict.fromkeys(away.ref for away in theirs))
        paths = dict.fromkeys(path for other in others for path in layout.side_files[other])
        where = f"{count} at {refs}: {_files(list(paths))}"
        advice = majority.advice()
    else:
        where = " and ".join(
            f'at "{layout.sides[other][0].ref}" in {_files(layout.side_files[other])}'
            for other in others[:_NAMED]
        )
        if len(others) > _NAMED:
            more = len(others) - _NAMED
            where += f" and {'at least ' if len(others) == _LISTED else ''}{more} other ref{'s' * (more > 1)}"
        advice = f"the files of {family} should pin one ref"
    message = f'{pin.remote} is pinned at "{pin.ref}" {here}, but {where}; {advice}'
    related = [
        context.related_pin(mate, f'{mate.remote} is pinned at "{mate.ref}" here too')
        for mate in mates[:_LISTED]
    ]
    for other in others:
        room = _LISTED - len(related)
        related += [
            context.related_pin(away, f'{away.remote} is pinned at "{away.ref}" here')
            for away in layout.sides[other][:room]
        ]
    return context.pin_finding(
        pin, f"{message} (or list the remote under drift-allowed-remotes)", related=related
    )


def _files(paths: Sequence[str]) -> str:
    """``a, b, c and 4 more`` (at most :data:`_NAMED` paths named)."""
    named = ", ".join(paths[:_NAMED])
    return f"{named} and {len(paths) - _NAMED} more" if len(paths) > _NAMED else named
