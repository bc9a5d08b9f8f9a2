"""One remote pinned at different refs by files of one stack that are not variants of each other.

## What it does

Compares the pins of one remote across the files of one *family*: the files that an entry of
`drift-families` in the rule packs matches (the default pack has one, `ascend`: every path with
`ascend` or `npu` in a file or folder name), and, for a file in no family, the other files of its folder.
Within a family, a Dockerfile, a shell script, a workflow and a requirements file that pin the same
remote must pin the same commit: the same ref, two commit ids one of which abbreviates the other, or a
commit id and a tag that points at it (a submodule's recorded commit and `--branch v1.2` of its release
tag elsewhere), as the remote's ref list says. A branch is never the same as a commit id, even its tip
today: the branch moves on. Each pin that differs is reported, with the other places as related
locations.

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
from ascend_reflint.check.refnames import same_commit, same_ref
from ascend_reflint.model import FileKind, Finding, Pin, Severity, SourceFile

#: How pins are bucketed for comparison: ref, kind of file, and the commit that cannot move (or None).
_Bucket = tuple[str | None, FileKind, str | None]

CODE = "RL005"
NAME = "cross-file-drift"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False

_KIND_NAMES = {
    FileKind.DOCKERFILE: "the Dockerfile",
    FileKind.SHELL: "the script",
    FileKind.WORKFLOW: "the workflow",
    FileKind.REQUIREMENTS: "the requirements file",
    FileKind.PYPROJECT: "the project file",
    FileKind.CONDA: "the conda environment",
    FileKind.SUBMODULE: "the submodule file",
    FileKind.PRE_COMMIT: "the pre-commit config",
    FileKind.CMAKE: "the CMake file",
    FileKind.MAKEFILE: "the Makefile",
    FileKind.GITLAB_CI: "the GitLab CI file",
    FileKind.APPTAINER: "the Apptainer definition",
    FileKind.DOCS: "the documentation",
}


def check_project(context: ProjectContext) -> Iterator[Finding]:
    """Report each pin whose remote another file of its family pins at another ref."""
    compared: dict[tuple[str, str], list[Pin]] = {}
    for source in context.files:
        family = family_of(context, source)
        for pin in source.pins:
            if pin.remote is None or pin.ref is None or not pin.resolved:
                continue
            if not context.policy.may_drift_across_files(pin.remote):
                compared.setdefault((family, pin.remote), []).append(pin)
    for (family, _), pins in compared.items():
        for pin, others in _drifting(context, pins):
            yield _drift(context, pin, others, family)


def family_of(context: ProjectContext, source: SourceFile) -> str:
    """``drift family 'NAME'`` for a file that a family's globs match, else ``folder 'PATH'``."""
    relpath = context.relpath(source)
    for family in context.policy.drift_families:
        if matches(family.files, relpath):
            return f"drift family '{family.name}'"
    return f"folder '{posixpath.dirname(relpath) or '.'}'"


def _drifting(context: ProjectContext, pins: Sequence[Pin]) -> Iterator[tuple[Pin, list[Pin]]]:
    """Each pin of one family and remote that others differ from, with those others in ``pins`` order.

    The others of a pin are the pins in another file, not a variant of its file, of another kind (unless
    ``drift-same-kind``), that build another commit: neither the same ref (:func:`same_ref`) nor the same
    commit that cannot move (:meth:`ProjectContext.fixed_commit`: a commit id, a tag's commit). Comparing
    every pin with every other is quadratic in the pins of a family (a folder of 20,000 scripts), so pins
    are bucketed by ``(ref, kind, commit)``: the comparison and the kind test run once per pair of
    buckets, and a pin looks only at the pins of the buckets that differ from its own, which are the
    others it reports, bar its own file and its variants.
    """
    buckets: dict[_Bucket, list[int]] = {}
    for index, pin in enumerate(pins):
        buckets.setdefault((pin.ref, pin.kind, context.fixed_commit(pin)), []).append(index)
    same_kind = context.policy.drift_same_kind
    differing: dict[_Bucket, list[int]] = {}
    for key in buckets:
        ref, kind, commit = key
        differing[key] = sorted(
            index
            for (other_ref, other_kind, other_commit), indexes in buckets.items()
            if (same_kind or other_kind is not kind)
            and not same_ref(ref, other_ref)
            and not same_commit(commit, other_commit)
            for index in indexes
        )
    for pin in pins:
        others = [
            other
            for other in (pins[index] for index in differing[(pin.ref, pin.kind, context.fixed_commit(pin))])
            if other.path != pin.path and not context.variants.are_variants(pin.path, other.path)
        ]
        if others:
            yield pin, others


def _drift(context: ProjectContext, pin: Pin, others: Sequence[Pin], family: str) -> Finding:
    first = others[0]
    more = f" (and {len(others) - 1} more)" if len(others) > 1 else ""
    return context.pin_finding(
        pin,
        f'{pin.remote} is pinned at "{pin.ref}" here but at "{first.ref}" in {_KIND_NAMES[first.kind]} '
        f"{first.path}{more}; the files of {family} should pin one ref (or list the remote under "
        "drift-allowed-remotes)",
        related=[
            context.related_pin(other, f'{other.remote} is pinned at "{other.ref}" here') for other in others
        ],
    )
