"""Extraction: turn one read file into pins (and env settings), one extractor per kind.

Dockerfile RUN bodies and workflow ``run:`` blocks are shell: their extractors hand the text to the one
shell extractor (:mod:`ascend_reflint.extract.shell`) with a :class:`~ascend_reflint.sourcemap.SourceMap`
back to the file, so that positions are always the file's own.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping

from ascend_reflint.extract.comments import mark_version_comments
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.model import FileKind, Resolution, SourceFile
from ascend_reflint.resolve import placeholder

__all__ = ["ExtractError", "extract_file"]


def extract_file(source: SourceFile, build_args: Mapping[str, str] | None = None) -> None:
    """Fill ``source.pins``, ``source.env`` and ``source.notices`` from ``source.text``.

    Args:
        source: a file whose ``text`` has been read (``text`` must not be None).
        build_args: ``--build-arg NAME=VALUE`` values, which override Dockerfile ``ARG`` defaults.

    Raises:
        ExtractError: when the file cannot be extracted; pins found before the failure are kept.
    """
    assert source.text is not None
    try:
        _extract(source, build_args)
    finally:
        mark_placeholders(source)
        mark_version_comments(source)


def _extract(source: SourceFile, build_args: Mapping[str, str] | None) -> None:
    """Run the extractor of ``source``'s kind."""
    if source.kind is FileKind.DOCKERFILE:
        from ascend_reflint.extract.dockerfile import extract_dockerfile

        extract_dockerfile(source, build_args or {})
    elif source.kind is FileKind.SHELL:
        from ascend_reflint.extract.shell import extract_shell_file

        extract_shell_file(source)
    elif source.kind is FileKind.WORKFLOW:
        from ascend_reflint.extract.workflow import extract_workflow

        extract_workflow(source)
    else:
        module, function = _EXTRACTORS[source.kind]
        getattr(importlib.import_module(f"ascend_reflint.extract.{module}"), function)(source)


def mark_placeholders(source: SourceFile) -> None:
    """Mark each pin of ``source`` whose ref or URL holds a template placeholder (as written or as
    resolved, see :func:`ascend_reflint.resolve.placeholder`) as :attr:`Resolution.PLACEHOLDER`: it is no
    ref yet, and nothing is looked up for it."""
    for index, pin in enumerate(source.pins):
        if pin.resolution is Resolution.PLACEHOLDER:
            continue
        found = next(filter(None, map(placeholder, (pin.ref, pin.ref_text, pin.url))), None)
        if found is not None:
            note = f"{found} is a template placeholder, filled in when the template is rendered"
            source.pins[index] = dataclasses.replace(
                pin, resolution=Resolution.PLACEHOLDER, resolution_note=note
            )


#: The extractors of the kinds that need nothing but the file: module and function, imported on first use.
_EXTRACTORS = {
    FileKind.REQUIREMENTS: ("requirements", "extract_requirements"),
    FileKind.PYPROJECT: ("pyproject", "extract_pyproject"),
    FileKind.CONDA: ("conda", "extract_conda"),
    FileKind.SUBMODULE: ("submodule", "extract_submodules"),
    FileKind.PRE_COMMIT: ("precommit", "extract_pre_commit"),
}
