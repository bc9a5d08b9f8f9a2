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
locations (the first 20; the message counts them all).

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

import heapq
import itertools
import posixpath
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence

from ascend_reflint.check.context import ProjectContext
from ascend_reflint.check.globs import matches
from ascend_reflint.check.refnames import is_abbreviated_commit_id, is_full_commit_id
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
        for pin, others, count in _drifting(context, pins):
            yield _drift(context, pin, others, count, family)


def family_of(context: ProjectContext, source: SourceFile) -> str:
    """``drift family 'NAME'`` for a file that a family's globs match, else ``folder 'PATH'``."""
    relpath = context.relpath(source)
    for family in context.policy.drift_families:
        if matches(family.files, relpath):
            return f"drift family '{family.name}'"
    return f"folder '{posixpath.dirname(relpath) or '.'}'"


#: The most other places a finding lists as related locations (its message counts them all): a family of
#: thousands of pins that all differ would otherwise list every pin at every pin.
MAX_RELATED = 20


def _drifting(context: ProjectContext, pins: Sequence[Pin]) -> Iterator[tuple[Pin, list[Pin], int]]:
    """Each pin of one family and remote that others differ from, with the first :data:`MAX_RELATED` of
    those others in ``pins`` order and how many there are.

    The others of a pin are the pins in another file, not a variant of its file, of another kind (unless
    ``drift-same-kind``), that build another commit: neither the same ref
    (:func:`~ascend_reflint.check.refnames.same_ref`) nor the same commit that cannot move
    (:meth:`ProjectContext.fixed_commit`: a commit id, a tag's commit). Pins are bucketed by ``(ref, kind,
    commit)``; the buckets that build what a bucket builds are found by looking up its ref and commit and
    their abbreviations (:class:`_SameBuild`), never by comparing every pair of buckets, and the others
    are counted from per-kind and per-file tallies: time linear in the pins (times the length of a commit
    id), whatever number of refs a pull request writes (4,000 pins at 4,000 refs took over ten minutes
    and 16 GB when every pair of buckets was compared and every other listed).
    """
    files = [_file_of(context, pin) for pin in pins]
    if len(set(files)) < 2:
        return  # others are in another file
    same_kind = context.policy.drift_same_kind
    keys: list[_Bucket] = [(pin.ref, pin.kind, context.fixed_commit(pin)) for pin in pins]
    size: Counter[_Bucket] = Counter(keys)
    by_kind: Counter[FileKind] = Counter(key[1] for key in keys)
    by_file: Counter[object] = Counter(files)
    by_file_kind: Counter[tuple[object, FileKind]] = Counter(
        zip(files, (key[1] for key in keys), strict=True)
    )
    by_file_bucket: Counter[tuple[object, _Bucket]] = Counter(zip(files, keys, strict=True))
    in_kind: dict[FileKind, list[int]] = {}
    for index, key in enumerate(keys):
        in_kind.setdefault(key[1], []).append(index)
    same_build = _SameBuild(size)
    for index, pin in enumerate(pins):
        key, file = keys[index], files[index]
        # The buckets that are no others of this one besides those of its kind: same ref or commit.
        alike = [other for other in same_build.of(key) if same_kind or other[1] is not key[1]]
        excluded = (0 if same_kind else by_kind[key[1]]) + sum(size[other] for other in alike)
        excluded_here = (0 if same_kind else by_file_kind[(file, key[1])]) + sum(
            by_file_bucket[(file, other)] for other in alike
        )
        count = (len(pins) - excluded) - (by_file[file] - excluded_here)
        if count <= 0:
            continue
        alike_set = set(alike)
        kinds = [kind for kind in in_kind if same_kind or kind is not key[1]]
        candidates = heapq.merge(*(in_kind[kind] for kind in kinds))  # in pins order
        others = (
            pins[other] for other in candidates if files[other] != file and keys[other] not in alike_set
        )
        yield pin, list(itertools.islice(others, MAX_RELATED)), count


def _file_of(context: ProjectContext, pin: Pin) -> object:
    """What a pin's others must not share: its file's variant group (by identity, as
    :meth:`~ascend_reflint.check.variants.VariantIndex.are_variants` compares them), else its file."""
    group = context.variants.group_of(pin.path)
    return pin.path if group is None else id(group)


class _SameBuild:
    """The buckets that build what a bucket builds (the same ref, or the same commit: see
    :func:`~ascend_reflint.check.refnames.same_ref` and :func:`~ascend_reflint.check.refnames.same_commit`),
    found by lookups: the same ref; for a commit id, the ids it abbreviates or that abbreviate it; the same
    for the fixed commit."""

    def __init__(self, buckets: Counter[_Bucket]) -> None:
        self._by_ref: dict[str | None, list[_Bucket]] = {}
        self._by_id: dict[str, list[_Bucket]] = {}
        self._by_commit: dict[str, list[_Bucket]] = {}
        for bucket in buckets:
            ref, _, commit = bucket
            self._by_ref.setdefault(ref, []).append(bucket)
            if ref is not None and _is_commit_id(ref):
                self._by_id.setdefault(ref.lower(), []).append(bucket)
            if commit is not None:
                self._by_commit.setdefault(commit.lower(), []).append(bucket)
        self._ids = sorted(self._by_id)
        self._commits = sorted(self._by_commit)

    def of(self, bucket: _Bucket) -> set[_Bucket]:
        ref, _, commit = bucket
        found = set(self._by_ref.get(ref, ()))
        if ref is not None and _is_commit_id(ref):
            found.update(_abbreviations(ref.lower(), self._by_id, self._ids, 7))
        if commit is not None:
            found.update(_abbreviations(commit.lower(), self._by_commit, self._commits, 1))
        return found


def _abbreviations(
    name: str, by_name: dict[str, list[_Bucket]], names: list[str], shortest: int
) -> list[_Bucket]:
    """The buckets of ``by_name`` whose name starts with ``name`` or that ``name`` starts with (names of at
    least ``shortest`` characters); ``names`` is ``by_name``'s keys, sorted."""
    found: list[_Bucket] = []
    for length in range(shortest, len(name)):
        found.extend(by_name.get(name[:length], ()))
    start = bisect_left(names, name)
    for other in names[start:]:
        if not other.startswith(name):
            break
        found.extend(by_name[other])
    return found


def _is_commit_id(ref: str) -> bool:
    return is_full_commit_id(ref) or is_abbreviated_commit_id(ref)


def _drift(context: ProjectContext, pin: Pin, others: Sequence[Pin], count: int, family: str) -> Finding:
    first = others[0]
    more = f" (and {count - 1} more)" if count > 1 else ""
    return context.pin_finding(
        pin,
        f'{pin.remote} is pinned at "{pin.ref}" here but at "{first.ref}" in {_KIND_NAMES[first.kind]} '
        f"{first.path}{more}; the files of {family} should pin one ref (or list the remote under "
        "drift-allowed-remotes)",
        related=[
            context.related_pin(other, f'{other.remote} is pinned at "{other.ref}" here') for other in others
        ],
    )
