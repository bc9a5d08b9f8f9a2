"""The handler of ``pip install`` (and ``python -m pip``, ``uv pip``): each ``git+URL[@REF]`` requirement, as
written or once expanded, is a pin (the command-line syntax is :mod:`ascend_reflint.extract.commands.pip`'s).
"""

from __future__ import annotations

from ascend_reflint.extract.commands.pip import pip_requirements, vcs_parts
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.state import Sink
from ascend_reflint.extract.shell.values import Expanded, Value, combined, empty_ref
from ascend_reflint.extract.shell.words import Word
from ascend_reflint.model import Pin, RefType, Via
from ascend_reflint.remote import normalise_remote


def run_pip(walker: Walker, command: Command) -> None:
    """Any command: the requirements it installs when it is a pip install, else nothing."""
    for position in pip_requirements(command.name, command.words, command.start):
        _requirement(walker, command.words[position], command.text)


def _requirement(walker: Walker, word: Word, text: Text) -> None:
    """A pip requirement word: a pin when it holds ``git+URL[@REF]``, as written or once expanded."""
    if "git+" not in word.display and word.is_literal:
        return  # nothing to expand, so vcs_parts would look for "git+" in the display
    expanded = Expanded(walker.expander, word, text, walker.env.scope)
    parts = vcs_parts(expanded.text, expanded.known)
    if parts is None:
        return
    url = expanded.value(*parts.url)
    ref: Value | None = None
    if parts.ref is not None:
        ref = expanded.value(*parts.ref)
    elif parts.at is not None:  # an empty revision: written so, or expansions that give nothing
        at_span = expanded.value(parts.at, parts.at + 1).span
        ref = empty_ref(expanded.vanished_after(parts.at) or Value("", "", at_span))
    add_value_pin(walker.sink, Via.PIP_VCS, url, ref)


def add_value_pin(
    sink: Sink, via: Via, url: Value, ref: Value | None, ref_type: RefType | None = None
) -> None:
    """Add to ``sink`` the pin of a repository ``url`` at ``ref`` (None: no ref), both as the shell expands
    them, with where each is written (a handler's pin that is neither a clone nor a checkout: pip's, and
    the package managers' of :mod:`.packages`)."""
    resolution, note = combined(ref, url)
    sink.pins.append(
        Pin(
            path=sink.path,
            kind=sink.kind,
            via=via,
            span=ref.span if ref is not None else url.span,
            url=url.value if url.value is not None else url.written,
            remote=normalise_remote(url.value) if url.value is not None else None,
            ref=None if ref is None else ref.value,
            ref_text=None if ref is None else ref.written,
            resolution=resolution,
            resolution_note=note,
            url_span=url.span,
            ref_origin=None if ref is None else ref.origin,
            url_origin=url.origin,
            call_sites=sink.call_sites,
            stage=sink.stage,
            ref_type=ref_type,
        )
    )
