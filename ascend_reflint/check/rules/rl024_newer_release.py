"""A pinned release tag has a newer release of the same line on the remote.

## What it does

Compares a pinned release tag with the remote's other tags of the same naming scheme (the same letters
around the version: `core_v0.18.0` with `core_v0.18.2`, never with `v0.18.2`) and reports one when a newer
release of its line exists. How far the line reaches is the config's `newer-release`:

- `patch` (the default): the same major and minor version (`core_v0.18.0` → `core_v0.18.2`);
- `minor`: the same major version (`v2.10` → `v2.11`);
- `major`: any newer release;
- `off`: never.

Only final releases count, on both sides: a pre-release is never offered, and a pinned pre-release
(`v0.11.0rc2`) is not reported here (RL001 suggests its release when the pinned tag is gone).

A short tag that stands for a line (`v2.5` while `v2.5.0` and `v2.5.1` exist, `v5` for `v5.*`: the moving
aliases of GitHub Actions and of some Python projects) is reported only when it points at another commit
than the newest release it stands for: an alias kept up to date is what it promises to be.

## Why is this bad?

A patch release exists to fix what the pinned one got wrong; a recipe that stays on `core_v0.18.0` builds
the bugs that `core_v0.18.2` fixed. An alias that lags behind its newest release (`v2.5` still at
`v2.5.0` after `v2.5.1`) builds older code than its name suggests.

## Example

```dockerfile
RUN git clone --depth 1 --branch core_v0.18.0 https://github.com/NVIDIA/Megatron-LM.git
```

## Use instead

```dockerfile
RUN git clone --depth 1 --branch core_v0.18.2 https://github.com/NVIDIA/Megatron-LM.git
```

## Fix

Unsafe (another commit gets built): the tag is replaced by the newest release of its line, where it is
written (the `ARG` or variable that holds it, see RL002).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refindex import index_of
from ascend_reflint.check.refnames import NamedRef, pinned_ref
from ascend_reflint.check.versions import parse_version
from ascend_reflint.model import Applicability, Finding, Fix, Pin, RefType, RemoteRefs, Severity, Via

CODE = "RL024"
NAME = "newer-release"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = True
FIXES = (Applicability.UNSAFE,)

#: The dotted numbers of a release name (``0.18.0`` of ``core_v0.18.0``), as written (zeros kept).
_NUMBERS = re.compile(r"\d+(?:\.\d+)*")
#: How many leading numbers must agree at each level (major.minor.patch).
_SAME_LEADING = {"patch": 2, "minor": 1, "major": 0}


def check(context: PinContext) -> Iterator[Finding]:
    """Report a release tag with a newer release of its line (see the module docstring)."""
    pin, refs = context.pin, context.refs
    level = context.policy.newer_release
    ref = pinned_ref(pin)
    if refs is None or ref is None or level == "off" or pin.via is Via.SUBMODULE:
        return
    if ref.kind is RefType.BRANCH or ref.name not in refs.tags or ref.name in refs.branches:
        return
    numbers = _release_numbers(ref.name)
    if numbers is None:
        return
    line = _line(ref.name, numbers, refs)
    alias_of = [(candidate, tag) for candidate, tag in line if _extends(candidate, numbers)]
    if alias_of:
        newest = max(alias_of)[1]
        if refs.tags[newest] == refs.tags[ref.name]:
            return
        message = (
            f'"{ref.name}" stands for the newest {ref.name} release of {refs.remote}, "{newest}", but points '
            f"at another commit ({refs.tags[ref.name][:12]}, not {refs.tags[newest][:12]})"
        )
    else:
        same = _SAME_LEADING[level]
        newer = [
            (candidate, tag)
            for candidate, tag in line
            if _padded(candidate) > _padded(numbers) and _padded(candidate)[:same] == _padded(numbers)[:same]
        ]
        if not newer:
            return
        newest = max(newer, key=lambda entry: (_padded(entry[0]), -len(entry[1]), entry[1]))[1]
        if refs.tags[newest] == refs.tags[ref.name]:
            return
        message = f'a newer release of "{ref.name}" exists on {refs.remote}: "{newest}"'
    yield context.finding(message, ref=ref.written, suggestion=newest, fix=_moved(pin, ref, newest))


def _release_numbers(name: str) -> tuple[int, ...] | None:
    """The numbers of a final release name with one version in it, zeros kept (``v2.5`` → ``(2, 5)``);
    None for a pre-release, a name with a tail (``v0.4.0_verl``) or with several versions."""
    version = parse_version(name)
    found = _NUMBERS.findall(name)
    if version is None or not version.is_release or len(version.parts) != 1 or len(found) != 1:
        return None
    return tuple(int(number) for number in found[0].split("."))


def _line(name: str, numbers: tuple[int, ...], refs: RemoteRefs) -> list[tuple[tuple[int, ...], str]]:
    """The remote's final releases of ``name``'s naming scheme (same letters around the numbers), as
    ``(numbers, tag)``; a tag that is also a branch's name is left out (a clone would get the branch)."""
    wanted = parse_version(name)
    assert wanted is not None
    return [entry for entry in _releases(refs).get(wanted.skeleton, ()) if entry[1] != name]


def _releases(refs: RemoteRefs) -> dict[str, list[tuple[tuple[int, ...], str]]]:
    """The remote's final releases by naming scheme (a version's skeleton), read once per ref list and kept
    with its index (:func:`~ascend_reflint.check.refindex.index_of`): a remote pinned in sixty workflow
    steps has its tags parsed once, not sixty times."""
    return index_of(refs).remembered(("newer-release", "releases"), lambda: _releases_of(refs))


def _releases_of(refs: RemoteRefs) -> dict[str, list[tuple[tuple[int, ...], str]]]:
    releases: dict[str, list[tuple[tuple[int, ...], str]]] = {}
    for tag in refs.tags:
        version = parse_version(tag)
        if tag in refs.branches or version is None:
            continue
        found = _release_numbers(tag)
        if found is not None:
            releases.setdefault(version.skeleton, []).append((found, tag))
    return releases


def _extends(candidate: tuple[int, ...], numbers: tuple[int, ...]) -> bool:
    """True when ``candidate`` is a longer version that starts with ``numbers`` (``2.5.1`` of ``2.5``)."""
    return len(candidate) > len(numbers) and candidate[: len(numbers)] == numbers


def _padded(numbers: tuple[int, ...]) -> tuple[int, ...]:
    return numbers + (0,) * (4 - len(numbers)) if len(numbers) < 4 else numbers


def _moved(pin: Pin, ref: NamedRef, newest: str) -> Fix | None:
    from ascend_reflint.check.fixes import make_fix, ref_edit, renamed

    edit = ref_edit(pin, renamed(ref, newest))
    return make_fix(Applicability.UNSAFE, f'move to "{newest}"', [edit], [pin])
