"""Extraction: turn one read file into pins (and env settings), one extractor per kind.

Dockerfile RUN bodies and workflow ``run:`` blocks are shell: their extractors hand the text to the one
shell extractor (:mod:`ascend_reflint.extract.shell`) with a :class:`~ascend_reflint.sourcemap.SourceMap`
back to the file, so that positions are always the file's own.

An extractor reads nothing but its file and its settings (``--build-arg``): what it gives is cached by the
file's content (:mod:`ascend_reflint.extraction_cache`). A kind whose extractor reads more (``.gitmodules``:
the index's gitlinks) is listed in :data:`ascend_reflint.extraction_cache.REPOSITORY_KINDS`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping

from ascend_reflint.extract.budget import file_budget
from ascend_reflint.extract.comments import mark_version_comments
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.model import FileKind, Resolution, SourceFile
from ascend_reflint.output import ensure_logging
from ascend_reflint.resolve import Binding, placeholder, url_placeholder

__all__ = ["ExtractError", "extract_file"]


def extract_file(
    source: SourceFile,
    build_args: Mapping[str, str | Binding] | None = None,
    inputs: Mapping[str, Binding] | None = None,
) -> None:
    """Fill ``source.pins``, ``source.env`` and ``source.notices`` from ``source.text``.

    A template of a recipe (:attr:`SourceFile.template`) is read as its kind with its template syntax
    masked (:mod:`ascend_reflint.extract.template`); one that does not read so is a notice, not an error.

    Args:
        source: a file whose ``text`` has been read (``text`` must not be None).
        build_args: values that override Dockerfile ``ARG`` defaults: reflint's ``--build-arg NAME=VALUE``,
            or the build arguments that another file gives, with where they are written
            (:mod:`ascend_reflint.invocations`).
        inputs: for a reusable workflow that another workflow calls, the inputs the call gives (the
            workflow is then read as that call runs it: no input is empty for want of a trigger).

    Raises:
        ExtractError: when the file cannot be extracted (also when its shell parses pass the file's CPU-time
            budget, :mod:`ascend_reflint.extract.budget`); pins found before the failure are left in
            ``source`` (the inventory drops them: a file that does not parse is not checked).
    """
    assert source.text is not None
    # Extraction runs other libraries' code, which may log: its records go through reflint's handler. A
    # warm scan, which extracts nothing, never installs it (nor imports logging).
    ensure_logging()
    try:
        with file_budget(len(source.text)):
            if source.template:
                _extract_template(source, build_args, inputs)
            else:
                _extract(source, build_args, inputs)
    finally:
        mark_placeholders(source)
        mark_version_comments(source)


def _extract(
    source: SourceFile,
    build_args: Mapping[str, str | Binding] | None,
    inputs: Mapping[str, Binding] | None = None,
) -> None:
    """Run the extractor of ``source``'s kind."""
    if source.kind is FileKind.DOCKERFILE:
        from ascend_reflint.extract.dockerfile import extract_dockerfile

        extract_dockerfile(source, build_args or {})
    elif source.kind is FileKind.SHELL:
        from ascend_reflint.extract.shell import extract_shell_file

        extract_shell_file(source)
    elif source.kind is FileKind.WORKFLOW:
        from ascend_reflint.extract.workflow import extract_workflow

        extract_workflow(source, inputs)
    else:
        module, function = _EXTRACTORS[source.kind]
        getattr(importlib.import_module(f"ascend_reflint.extract.{module}"), function)(source)


def _extract_template(
    source: SourceFile,
    build_args: Mapping[str, str | Binding] | None,
    inputs: Mapping[str, Binding] | None = None,
) -> None:
    """Read a template as its kind, its template syntax masked; pins come back as the template writes them."""
    from ascend_reflint.extract.template import mask_template, unmask_pin

    text = source.text
    assert text is not None
    masked = mask_template(text)
    source.text = masked.text
    try:
        _extract(source, build_args, inputs)
    except ExtractError as error:
        source.notices.append(
            f"read as a {source.kind.value} template with its template syntax masked: {error}; "
            "read as far as it goes"
        )
    finally:
        source.text = text
        source.pins = [unmask_pin(pin, masked.expressions) for pin in source.pins]
    if masked.unterminated is not None:
        source.notices.append(
            f"line {masked.unterminated}: a template tag that nothing closes; masked to the end of the file"
        )


def mark_placeholders(source: SourceFile) -> None:
    """Mark each pin of ``source`` whose ref or URL holds a template placeholder (as written or as
    resolved, see :func:`ascend_reflint.resolve.placeholder`), or whose URL names the reader's own account
    or repository (:func:`ascend_reflint.resolve.url_placeholder`), as :attr:`Resolution.PLACEHOLDER`: it
    is no ref or repository yet, and nothing is looked up for it."""
    for index, pin in enumerate(source.pins):
        if pin.resolution is Resolution.PLACEHOLDER:
            continue
        # A ref that the file gives a value (Apptainer's {{ ARG }} with a %arguments default, IPython's
        # {NAME} of a Python string) is judged by that value; one without, by what is written.
        written = (pin.ref, pin.url) if pin.ref is not None else (pin.ref_text, pin.url)
        found = next(filter(None, map(placeholder, written)), None)
        if found is not None:
            note = f"{found} is a template placeholder, filled in when the template is rendered"
        else:
            found = url_placeholder(pin.url)
            note = f"{found} stands for the reader's own account or repository"
        if found is not None:
            source.pins[index] = dataclasses.replace(
                pin, resolution=Resolution.PLACEHOLDER, resolution_note=note
            )


#: The extractors of the kinds that need nothing but the file: module and function, imported on first use.
_EXTRACTORS = {
    FileKind.COMPOSE: ("compose", "extract_compose"),
    FileKind.BAKE: ("bake", "extract_bake"),
    FileKind.REQUIREMENTS: ("requirements", "extract_requirements"),
    FileKind.PYPROJECT: ("pyproject", "extract_pyproject"),
    FileKind.CONDA: ("conda", "extract_conda"),
    FileKind.SUBMODULE: ("submodule", "extract_submodules"),
    FileKind.PRE_COMMIT: ("precommit", "extract_pre_commit"),
    FileKind.CMAKE: ("cmake", "extract_cmake"),
    FileKind.MAKEFILE: ("makefile", "extract_makefile"),
    FileKind.GITLAB_CI: ("gitlab", "extract_gitlab_ci"),
    FileKind.APPTAINER: ("apptainer", "extract_apptainer"),
    FileKind.DOCS: ("docs", "extract_docs"),
}
