"""Builders for the check tests: ref lists from ``data/``, pins, one-file scans."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from ascend_reflint.check import Policy, RulePack, run_checks
from ascend_reflint.check.engine import pin_lookup_key
from ascend_reflint.model import (
    CommitVerdict,
    FileKind,
    Finding,
    LookupResult,
    Pin,
    RemoteRefs,
    Resolution,
    SourceFile,
    Span,
    Via,
)
from ascend_reflint.remote import normalise_remote

DATA = Path(__file__).resolve().parent / "data"

MEGATRON = "github.com/nvidia/megatron-lm"
TE = "github.com/nvidia/transformerengine"
VLLM_ASCEND = "github.com/vllm-project/vllm-ascend"
DEEPEP = "github.com/deepseek-ai/deepep"
MINDSPEED_GITHUB = "github.com/ascend/mindspeed"
SGL_KERNEL_NPU = "github.com/sgl-project/sgl-kernel-npu"
CHECKOUT_ACTION = "github.com/actions/checkout"
VERL = "github.com/volcengine/verl"

_FILES = {
    MEGATRON: "NVIDIA__Megatron-LM.refs",
    TE: "NVIDIA__TransformerEngine.refs",
    VLLM_ASCEND: "vllm-project__vllm-ascend.refs",
    DEEPEP: "deepseek-ai__DeepEP.refs",
    MINDSPEED_GITHUB: "Ascend__MindSpeed.refs",
    SGL_KERNEL_NPU: "sgl-project__sgl-kernel-npu.refs",
    CHECKOUT_ACTION: "actions__checkout.refs",
    VERL: "volcengine__verl.refs",
}

PATH = "docker/Dockerfile"


def refs_of(remote: str, as_remote: str | None = None) -> RemoteRefs:
    """The recorded ref list of ``remote`` (a key of ``_FILES``), answering for ``as_remote`` if given.

    Peeled ``^{}`` lines replace the tag object's id, as :class:`RemoteRefs` keeps commits only.
    """
    branches: dict[str, str] = {}
    tags: dict[str, str] = {}
    head = None
    for line in (DATA / _FILES[remote]).read_text(encoding="utf-8").splitlines():
        object_id, refname = line.split("\t")
        if refname == "HEAD":
            head = object_id
        elif refname.startswith("refs/heads/"):
            branches[refname.removeprefix("refs/heads/")] = object_id
        elif refname.endswith("^{}"):
            tags[refname.removeprefix("refs/tags/").removesuffix("^{}")] = object_id
        else:
            tags.setdefault(refname.removeprefix("refs/tags/"), object_id)
    return RemoteRefs(remote=as_remote or remote, branches=branches, tags=tags, head=head)


def span(line: int, column: int, end_column: int) -> Span:
    """A one-line span."""
    return Span(line, column, line, end_column)


REF_SPAN = span(3, 40, 52)
URL_SPAN = span(3, 53, 95)
CLONE_REF_SPAN = span(2, 30, 39)


def make_pin(
    ref: str | None,
    url: str = "https://github.com/NVIDIA/Megatron-LM.git",
    via: Via = Via.CLONE_BRANCH,
    **fields: object,
) -> Pin:
    """A Dockerfile pin of ``ref`` at :data:`REF_SPAN` (the URL's span when ``ref`` is None)."""
    values: dict[str, object] = {
        "path": PATH,
        "kind": FileKind.DOCKERFILE,
        "via": via,
        "span": REF_SPAN if ref is not None else URL_SPAN,
        "url": url,
        "remote": normalise_remote(url),
        "ref": ref,
        "ref_text": ref,
        "url_span": URL_SPAN,
    }
    values.update(fields)
    return Pin(**values)  # type: ignore[arg-type]


def unresolved(pin: Pin, note: str, resolution: Resolution = Resolution.UNRESOLVED) -> Pin:
    """``pin`` as resolution leaves an unresolved (or empty) ref: no resolved ref, the text as written."""
    return replace(pin, ref=None, resolution=resolution, resolution_note=note)


def policy(**lists: object) -> Policy:
    """A policy from one pack holding ``lists`` (python names: ``tag_pinned_remotes=(...)``)."""
    return Policy.from_packs([RulePack(name="test", **lists)])  # type: ignore[arg-type]


def by_lookup_key(pins: Sequence[Pin], lookups: Mapping[str, LookupResult]) -> dict[str, LookupResult]:
    """``lookups`` keyed by remote, filed under the lookup key of each pin's URL instead (the engine looks
    a pin's result up by the URL it fetches: :func:`ascend_reflint.check.engine.pin_lookup_key`)."""
    keyed = {}
    for pin in pins:
        key = pin_lookup_key(pin)
        if key is not None and pin.remote in lookups:
            keyed[key] = lookups[pin.remote]
    return keyed


def scan(
    pins: Sequence[Pin],
    lookups: Mapping[str, LookupResult] | None = None,
    with_policy: Policy | None = None,
    code: str | None = None,
    commits: Sequence[CommitVerdict] = (),
) -> list[Finding]:
    """Run every rule over one file holding ``pins``; only findings of ``code`` when given. ``commits`` are
    what commit verification found.

    ``lookups`` is keyed by remote (``host/owner/name``): each answers for every URL of that remote that the
    pins fetch (see :func:`by_lookup_key`).
    """
    source = SourceFile(path=PATH, abspath=f"/repo/{PATH}", kind=FileKind.DOCKERFILE, pins=list(pins))
    keys = {pin.remote: key for pin in pins if (key := pin_lookup_key(pin)) is not None}
    verdicts = {(keys[verdict.remote], verdict.pinned): verdict for verdict in commits}
    keyed = by_lookup_key(pins, lookups or {})
    found = run_checks([source], keyed, with_policy or Policy(), commits=verdicts)
    return [finding for finding in found if code is None or finding.code == code]
