"""``ADD`` of a git repository (BuildKit's git source): ``ADD [--keep-git-dir] [--checksum=…] URL#REF dest``.

What is a git source, and its ref, is :mod:`ascend_reflint.extract.gitsource`'s. Facts used here (the
Dockerfile reference, "ADD: Adding files from a Git repository", and BuildKit's
``frontend/dockerfile/dfgitutil/git_ref.go``, ``util/gitutil/git_url.go``, ``util/sshutil/scpurl.go`` and
``source/git/source.go``):

- A source is a git repository when it is an ``https://``/``http://`` URL whose path ends in ``.git``, a
  ``git://`` or ``ssh://`` URL, or scp-like ``user@host:path`` (``git@github.com:o/r.git``); ``./`` and
  ``../`` paths never are, and ``github.com/o/r`` (no scheme) is one only for a build context, not for ADD.
- The fragment is ``REF[:SUBDIR]``. The query (Dockerfile 1.18) takes ``ref=``, ``tag=`` (the tag only,
  ``refs/tags/`` implied), ``branch=`` (the branch only), ``checksum=``/``commit=`` (the commit REF must
  resolve to; with no ref, the commit of the default branch is checked against it), ``subdir=``,
  ``keep-git-dir=``, ``submodules=`` and a few more; a query key may not repeat and ``ref`` may not
  disagree with the fragment (BuildKit refuses the build otherwise).
- A name that is both a branch and a tag resolves to the branch (``resolveMetadataFromURL``); a commit id is
  fetched as it is.

Sources are expanded with the stage's ``ARG``/``ENV`` values, as BuildKit expands ``ADD``'s arguments.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote_plus

from ascend_reflint.extract.dockerfile.execform import json_array, json_strings
from ascend_reflint.extract.dockerfile.lines import Instruction, Logical
from ascend_reflint.extract.dockerfile.words import docker_value, docker_words
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.gitsource import is_git_source, written_ref
from ascend_reflint.model import FileKind, Pin, RefType, Resolution, Via
from ascend_reflint.remote import normalise_remote
from ascend_reflint.resolve import Binding, Scope


def add_git_pins(path: str, instruction: Instruction, scope: Scope, escape: str, stage: str) -> Iterator[Pin]:
    """The pins of the git sources of one ``ADD`` instruction.

    Args:
        path: the Dockerfile's display path.
        instruction: the ``ADD``.
        scope: the stage's variables at the instruction.
        escape: the file's escape token.
        stage: the build stage's label.
    """
    logical = instruction.logical
    for raw, start in _sources(instruction, escape):
        if raw.startswith(("./", "../", "<<")):
            continue
        value = docker_value(raw, scope, escape)
        probe = value.value if value.value is not None else raw
        if not is_git_source(probe):
            continue
        yield _pin(path, raw, start, scope, escape, stage, logical)


def _sources(instruction: Instruction, escape: str) -> list[tuple[str, int]]:
    """The source words of an ``ADD`` (all but the destination), each with its offset in the instruction."""
    text = instruction.logical.text
    args = text[instruction.args_start :].strip()
    try:
        values = json_array(args)
    except ExtractError:
        return []
    if values is not None:
        start = text.index("[", instruction.args_start)
        strings = json_strings(text, start, values)[:-1]
        return [
            (string.value, string.open_offset + 1)
            for string in strings
            if "\\" not in text[string.open_offset : string.close_offset]
        ]
    words = docker_words(text, instruction.args_start, escape)
    return [(word, start) for word, start, _end in words[:-1]]


def _pin(path: str, raw: str, start: int, scope: Scope, escape: str, stage: str, logical: Logical) -> Pin:
    """The pin of one git source ``raw``, written at ``start`` of the instruction's text."""
    url_end = min((index for index in (raw.find("?"), raw.find("#")) if index != -1), default=len(raw))
    url = docker_value(raw[:url_end], scope, escape)
    ref = written_ref(raw, url_end)
    ref_value: Binding | None = None
    if ref is not None:
        ref_value = docker_value(unquote_plus(ref.text), scope, escape)
        if ref.kind is not None and ref_value.value is not None:
            prefix = "refs/tags/" if ref.kind is RefType.TAG else "refs/heads/"
            ref_value = Binding(ref_value.value.removeprefix(prefix))
    url_span = logical.span(start, start + max(url_end, 1))
    unknown = next((value for value in (url, ref_value) if value is not None and value.value is None), None)
    return Pin(
        path=path,
        kind=FileKind.DOCKERFILE,
        via=Via.ADD_GIT,
        span=logical.span(start + ref.start, start + ref.start + len(ref.text)) if ref else url_span,
        url=url.value if url.value is not None else raw[:url_end],
        remote=normalise_remote(url.value) if url.value is not None else None,
        ref=ref_value.value if ref_value is not None else None,
        ref_text=ref.text if ref is not None else None,
        resolution=unknown.resolution if unknown is not None else Resolution.RESOLVED,
        resolution_note=unknown.note if unknown is not None else None,
        url_span=url_span,
        stage=stage,
        ref_type=ref.kind if ref is not None else None,
    )
