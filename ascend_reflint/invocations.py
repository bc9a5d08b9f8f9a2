"""Values that other files give: the invocations that extraction recorded, applied after extraction.

This is the second half of the resolve stage (the first is :mod:`ascend_reflint.resolve`, which extractors
use while they walk). A file that builds a Dockerfile with build arguments (``docker build --build-arg``
in a script or a workflow's ``run:``, ``docker/build-push-action``'s ``build-args:``, a bake target, a
compose service) or calls a reusable workflow with inputs records an
:class:`~ascend_reflint.model.Invocation` and reads nothing else. Here, once every file is extracted, each
invocation's file is found (inside the project root only: :func:`ascend_reflint.sidefile.inside_root`),
extracted again with the values given (``--build-arg`` on reflint's own command line still overrides them
all), and the pins that the values change are added to it, each with the invocation as its call site.
Pins that the values do not change stay as the file's own values resolve them, so a finding about them is
not repeated per invocation; the same pin from several invocations is one pin with all of them as call
sites, and a finding about it is reported once with them as related places. An extraction cache keyed by
a file's content stays valid: what other files give enters here, after it.

An invoked file's own invocations, made with the values it was given (a reusable workflow that builds a
Dockerfile with its inputs as build arguments), are applied too, :data:`MAX_DEPTH` deep.
"""

from __future__ import annotations

import dataclasses
import operator
import os
from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ascend_reflint.model import FileKind, GivenValue, Invocation, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.output import log_debug
from ascend_reflint.sidefile import inside_root

if TYPE_CHECKING:
    from ascend_reflint.extraction_cache import ExtractionCache
    from ascend_reflint.resolve import Binding

#: Invocations of one file that are applied (each is an extraction of the file).
MAX_INVOCATIONS_PER_FILE = 32
#: Invocations are followed this deep: a workflow that calls a reusable workflow that builds a Dockerfile.
MAX_DEPTH = 3


def apply_invocations(
    targets: Sequence[SourceFile],
    invokers: Iterable[SourceFile],
    root: str,
    build_args: Mapping[str, str] | None = None,
    cache: ExtractionCache | None = None,
    unread: Sequence[SourceFile] = (),
) -> None:
    """Apply the invocations of ``invokers`` to the files of ``targets`` they invoke (see the module
    docstring); ``targets`` gain pins, command issues and nothing else.

    Args:
        targets: the files that may be invoked, read and extracted.
        invokers: the files whose invocations to apply (``targets`` themselves, or files read as context).
        root: the project root; an invoked path that resolves outside it is not followed.
        build_args: ``--build-arg`` values of reflint's command line, which override the values given.
        cache: the extraction cache that read ``targets``: each extraction with the values given is kept
            in it too (:meth:`~ascend_reflint.extraction_cache.ExtractionCache.invoked_entry`), so that a
            warm scan parses nothing (None: extract each time).
        unread: files of the tree that were found but not read (a scan naming files reads only some of the
            others, :mod:`ascend_reflint.context`): an invocation that names one of them first runs it, not
            a later path that was read.
    """
    by_path = _Targets(targets, unread)
    pending = deque(
        (source, invocation, 1, f"{source.path}#{number}")
        for source in invokers
        for number, invocation in enumerate(source.invocations)
    )
    applied: dict[str, int] = {}
    added: dict[str, list[Pin]] = {}
    # Each target's own pins, unsited (:func:`_unsited`): the pins that an invocation does not change.
    own: dict[str, set[tuple[object, ...]]] = {}
    explained: dict[str, dict[Pin, Pin]] = {}  # own unresolved pin → the same pin, with what gives its value
    given: dict[str, _Given] = {}  # which own unresolved pins the invocations give values, and which not
    while pending:
        invoker, invocation, depth, slot = pending.popleft()
        real = _target(invoker, invocation, root, by_path)
        if real is None or applied.get(real, 0) >= MAX_INVOCATIONS_PER_FILE:
            continue
        applied[real] = applied.get(real, 0) + 1
        target = by_path.chosen[real]
        if real not in own:
            own[real] = {_unsited(pin) for pin in target.pins}
        copy = _applied(target, invocation, build_args or {}, own[real], cache, slot)
        if copy is None:
            continue
        added.setdefault(real, []).extend(
            dataclasses.replace(pin, call_sites=(invocation.site,))
            for pin in copy.pins
            if pin.resolution is not Resolution.UNRESOLVED
        )
        _explain(target, copy, invocation, explained.setdefault(real, {}))
        given.setdefault(real, _Given()).record(target, copy)
        target.issues.extend(issue for issue in copy.issues if issue not in target.issues)
        if depth < MAX_DEPTH:  # a reusable workflow that builds a Dockerfile with the inputs it was given
            pending.extend(
                (copy, nested, depth + 1, f"{slot}>{number}")
                for number, nested in enumerate(copy.invocations)
                if nested not in invoker.invocations
            )
    if added:  # resolve is imported only when an invocation gave a file pins: most name no file scanned
        from ascend_reflint.resolve import merge_call_sites
    for real, pins in added.items():
        target = by_path.chosen[real]
        resolved = given[real].everywhere()
        own_pins = [
            explained[real].get(pin, pin)
            for pin in target.pins
            if pin.resolution is not Resolution.UNRESOLVED
            or pin in explained[real]
            or (pin.span, pin.via) not in resolved
        ]
        target.pins = sorted(
            merge_call_sites([*own_pins, *pins]), key=lambda pin: (pin.span.line, pin.span.column)
        )


def _explain(target: SourceFile, copy: SourceFile, invocation: Invocation, explained: dict[Pin, Pin]) -> None:
    """Record, for each pin of ``target`` that its own values leave unresolved (an ``ARG`` without a
    default), the same pin as ``copy`` (``target`` with the values ``invocation`` gives) has it when the
    value given is not known statically either (``build-args: TE_REF=${{ inputs.te_ref }}``): its note then
    says where the value comes from, not "no --build-arg", and the invocation is its call site. The first
    invocation that explains a pin is kept."""
    unresolved = {
        (pin.span, pin.via): pin
        for pin in target.pins
        if pin.resolution is Resolution.UNRESOLVED and pin not in explained
    }
    for pin in copy.pins:
        own = unresolved.get((pin.span, pin.via))
        if (
            own is not None
            and pin.resolution is Resolution.UNRESOLVED
            and pin.resolution_note != own.resolution_note
        ):
            explained[own] = dataclasses.replace(pin, call_sites=(invocation.site,))


class _Given:
    """Which of a target's own unresolved pins (an ``ARG`` without a default) its invocations give a value.

    A pin that every invocation of the file resolves is left out of the file's own pins: the builds check
    it (each through its call site), and RL009's "has no default and no --build-arg" would contradict
    them. A pin that some invocation leaves as it is (a build that gives no such value) keeps its own
    unresolved pin: that build fetches with no value.
    """

    __slots__ = ("left", "resolved")

    def __init__(self) -> None:
        self.resolved: set[tuple[Span, Via]] = set()
        self.left: set[tuple[Span, Via]] = set()

    def record(self, target: SourceFile, copy: SourceFile) -> None:
        """Record what ``copy`` (``target`` extracted with one invocation's values; the pins that the
        values do not change left out) does to each unresolved pin of ``target``: resolves it, leaves it
        as it is (absent from ``copy``), or leaves it unresolved another way (an unknown value: neither)."""
        resolutions = {(pin.span, pin.via): pin.resolution for pin in copy.pins}
        for pin in target.pins:
            if pin.resolution is Resolution.UNRESOLVED:
                key = (pin.span, pin.via)
                resolution = resolutions.get(key)
                if resolution is None:
                    self.left.add(key)
                elif resolution is not Resolution.UNRESOLVED:
                    self.resolved.add(key)

    def everywhere(self) -> set[tuple[Span, Via]]:
        """The pins (by span and via) that some invocation resolves and none leaves as they are."""
        return self.resolved - self.left


class _RealPaths:
    """:func:`os.path.realpath` of files, each folder's real path found once: realpath costs a system call
    per component of the path, and a scan's files share a few folders (395 files of volcengine/verl: 5 ms
    of a warm scan)."""

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        """The real path of the absolute path ``path``, as :func:`os.path.realpath` gives it."""
        folder, name = os.path.split(path)
        if name in ("", os.curdir, os.pardir):
            return os.path.realpath(path)
        real_folder = self._folders.get(folder)
        if real_folder is None:
            real_folder = self._folders[folder] = os.path.realpath(folder)
        joined = os.path.join(real_folder, name)
        return os.path.realpath(joined) if os.path.islink(joined) else joined


class _Targets:
    """The files that invocations may run, by real path, found kind by kind when an invocation first names
    the kind (a scan's shell scripts and requirements are never run with values: their real paths are not
    looked for).

    Attributes:
        chosen: real path → the file that an invocation ran there.
    """

    def __init__(self, targets: Sequence[SourceFile], unread: Sequence[SourceFile] = ()) -> None:
        self._targets = targets
        self._unread = unread
        self._real_path = _RealPaths()
        self._by_kind: dict[FileKind, dict[str, SourceFile]] = {}
        self._unread_by_kind: dict[FileKind, set[str]] = {}
        self.chosen: dict[str, SourceFile] = {}

    def of_kind(self, kind: FileKind) -> Mapping[str, SourceFile]:
        """Real path → the file of ``kind`` there."""
        found = self._by_kind.get(kind)
        if found is None:
            found = self._by_kind[kind] = {
                self._real_path(source.abspath): source for source in self._targets if source.kind is kind
            }
        return found

    def unread_of_kind(self, kind: FileKind) -> set[str]:
        """The real paths of the files of ``kind`` that were found but not read."""
        found = self._unread_by_kind.get(kind)
        if found is None:
            found = self._unread_by_kind[kind] = {
                self._real_path(source.abspath) for source in self._unread if source.kind is kind
            }
        return found


def _target(source: SourceFile, invocation: Invocation, root: str, targets: _Targets) -> str | None:
    """The real path of the file ``invocation`` (of ``source``) runs: the first of its paths that is a file
    of the right kind inside the project of ``source`` (the root, or the repository under it that holds
    ``source``: :mod:`ascend_reflint.projects`), or None."""
    from ascend_reflint.projects import project_of

    of_kind = targets.of_kind(invocation.kind)
    project = project_of(source.abspath, root)
    for candidate in invocation.paths:
        base = project if candidate.from_root else os.path.dirname(source.abspath)
        real = inside_root(project, os.path.join(base, *candidate.path.split("/")))
        if real is not None and real in targets.unread_of_kind(invocation.kind):
            return None  # it runs a file whose pins the scan does not need
        target = of_kind.get(real) if real is not None else None
        # A file that does not parse is not checked (its error says so): no invocation reads it either.
        if (
            real is not None
            and target is not None
            and target.abspath != source.abspath
            and target.error is None
        ):
            targets.chosen[real] = target
            return real
    return None


def _reread(target: SourceFile) -> str | None:
    """The text of ``target`` read again: a scan lets the texts of extracted files go
    (:func:`ascend_reflint.inventory.text_needed`); None when it cannot be read now."""
    from ascend_reflint.textfile import DEFAULT_MAX_BYTES, FileReadError, read_recipe_bytes, text_of

    try:
        return text_of(read_recipe_bytes(target.abspath, DEFAULT_MAX_BYTES))[0]
    except FileReadError:
        return None


def _applied(
    target: SourceFile,
    invocation: Invocation,
    build_args: Mapping[str, str],
    own: Collection[tuple[object, ...]],
    cache: ExtractionCache | None = None,
    slot: str = "",
) -> SourceFile | None:
    """``target`` extracted again with the values ``invocation`` gives, keeping the pins that those values
    change (``own``: the target's own pins, :func:`_unsited`, which stay as they are), or None when that
    fails. From ``cache`` when it holds that extraction (``slot`` names the invocation there)."""
    copy = SourceFile(path=target.path, abspath=target.abspath, kind=target.kind, template=target.template)
    entry = None
    if cache is not None:
        from ascend_reflint.codec import encode

        given_form = {
            "values": encode(invocation.values, tuple[GivenValue, ...]),
            "build_args": dict(build_args),
        }
        entry = cache.invoked_entry(target, slot, given_form)
    if entry is not None and entry.load(copy):
        return copy
    from ascend_reflint.extract import ExtractError, extract_file

    copy.text = target.text if target.text is not None else _reread(target)
    if copy.text is None:
        return None
    given = {value.name: _binding(value, invocation) for value in invocation.values}
    try:
        if invocation.kind is FileKind.WORKFLOW:
            extract_file(copy, inputs=given)
        else:
            extract_file(copy, build_args={**given, **build_args})
    except ExtractError:
        pass  # the file's own extraction reported it; what was read before the error still counts
    except Exception:  # a bug of ours must not lose the file's own pins
        log_debug("applying %s to %s failed", invocation.site.call, target.path, exc_info=True)
        return None
    copy.pins = [pin for pin in copy.pins if _unsited(pin) not in own]
    from ascend_reflint.extract.budget import ran_out

    if entry is not None and not ran_out():  # what a file out of time gives depends on the machine
        entry.store(copy)
    return copy


#: The fields of a pin that say where its values come from.
_SITED_FIELDS = frozenset({"call_sites", "ref_origin", "url_origin"})
#: The other fields that pins are compared by.
_UNSITED_KEY = operator.attrgetter(
    *(field.name for field in dataclasses.fields(Pin) if field.compare and field.name not in _SITED_FIELDS)
)


def _unsited(pin: Pin) -> tuple[object, ...]:
    """``pin`` without what says where its values come from (:data:`_SITED_FIELDS`): two pins alike so are
    one pin. The other compared fields as a tuple, which compares as the pins would with those fields
    cleared, for a fraction of what a copy (``dataclasses.replace``) of every pin of every invoked copy
    costs."""
    result: tuple[object, ...] = _UNSITED_KEY(pin)
    return result


def _binding(value: GivenValue, invocation: Invocation) -> Binding:
    """The binding of a value that ``invocation`` gives; one not known statically says where it is written
    (its origin, else the invocation) and why it is not known."""
    from ascend_reflint.resolve import Binding, Provenance

    if value.value is None:
        note = value.note or f"${value.name} is not known statically"
        site = invocation.site
        path, line = (
            (value.origin.path, value.origin.span.line) if value.origin else (site.path, site.span.line)
        )
        what = "input" if invocation.kind is FileKind.WORKFLOW else "build argument"
        return Binding(
            None, Resolution.UNRESOLVED, f"the {what} {value.name} is given at {path}:{line}: {note}"
        )
    provenance = Provenance(value.origin, value.verbatim) if value.origin is not None else None
    return Binding(value.value, provenance=provenance)
