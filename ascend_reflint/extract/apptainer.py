"""Apptainer/Singularity definition files: the sections that are shell scripts.

Facts used here (Apptainer's "Definition Files" and "Build args" documentation; apptainer's
``pkg/build/types/parser/deffile.go`` and ``internal/pkg/build/build.go``, ``stage.go``):

- A header of ``Keyword: value`` lines (``Bootstrap:`` first, ``From:``), then sections, each a line
  ``%name [options]`` followed by its body up to the next section line.
- ``%setup`` runs on the host and ``%post`` in the container while the image is built; both are
  ``/bin/sh`` scripts unless the section line names another interpreter (``%post -c /bin/bash``). They
  are read as shell, one :class:`~ascend_reflint.extract.shell.ShellSession` for the file, one ``run``
  per section (a shell each; what ``git clone`` leaves on disk stays).
- ``%environment`` is written into the image after ``%post`` has run and is sourced when the container
  runs: its variables are not those of ``%post``, but they are those of the runtime scripts
  ``%runscript``, ``%startscript`` and ``%test``, which are read as shell after it.
- ``{{ NAME }}`` is a build argument (Apptainer 1.2): ``apptainer build --build-arg NAME=…`` or the default
  in ``%arguments`` (``NAME=value`` lines) replaces it before anything runs; an argument with no default
  there is unresolved.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_reflint.extract.commands import SHELLS
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.extract.template import mask_template, unmask_pin
from ascend_reflint.model import Resolution, SourceFile
from ascend_reflint.resolve import Binding, Scope
from ascend_reflint.sourcemap import SourceMapBuilder

if TYPE_CHECKING:
    from ascend_reflint.extract.shell import ShellSession

_SECTION = re.compile(
    r"^[ \t]*%(setup|files|environment|post|runscript|startscript|test|labels|help|arguments|app\w+)\b(.*)$",
    re.IGNORECASE,
)
_BUILD_SECTIONS = ("setup", "post")
_RUNTIME_SECTIONS = ("runscript", "startscript", "test")
_ARGUMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")
_EXPRESSION_NAME = re.compile(r"\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}")


@dataclass(slots=True)
class _Section:
    """A section: its name (lower case), its options (``-c /bin/bash``), its line, and its body's offsets
    in the text (``[start, end)``)."""

    name: str
    options: str
    line: int
    start: int
    end: int


def extract_apptainer(source: SourceFile) -> None:
    """Fill ``source.pins`` and ``source.notices`` from a definition file's shell sections.

    Args:
        source: the file, with ``text`` read.
    """
    from ascend_reflint.extract.shell import ShellSession

    text = source.text
    assert text is not None
    if not may_name_pin(text):
        return
    masked = mask_template(text)
    sections = _sections(masked.text)
    lines = _line_starts(masked.text)
    arguments = _arguments(masked.text, sections)
    build = ShellSession(source.path, source.kind, _argument_scope(masked.expressions, arguments))
    for section in sections:
        if section.name in _BUILD_SECTIONS:
            _run(source, build, masked.text, lines, [section])
    environment = [section for section in sections if section.name == "environment"]
    runtime = ShellSession(source.path, source.kind, _argument_scope(masked.expressions, arguments))
    for section in sections:
        if section.name in _RUNTIME_SECTIONS:
            _run(source, runtime, masked.text, lines, [*environment, section])
    for session in (build, runtime):
        pins = session.finish()
        source.pins.extend(unmask_pin(pin, masked.expressions, "apptainer build") for pin in pins)
        source.notices.extend(session.notices)
    source.pins.sort(key=lambda pin: (pin.span.line, pin.span.column))


def _sections(text: str) -> list[_Section]:
    sections: list[_Section] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        match = _SECTION.match(line)
        if match is not None:
            if sections:
                sections[-1].end = offset
            body = offset + len(line) + 1
            sections.append(_Section(match.group(1).lower(), match.group(2).strip(), number, body, len(text)))
        offset += len(line) + 1
    for section in sections:
        section.start = min(section.start, len(text))
    return sections


def _line_starts(text: str) -> list[int]:
    starts = [0]
    index = text.find("\n")
    while index != -1:
        starts.append(index + 1)
        index = text.find("\n", index + 1)
    return starts


def _arguments(text: str, sections: list[_Section]) -> dict[str, str]:
    """The ``%arguments`` defaults of the build arguments."""
    found: dict[str, str] = {}
    for section in sections:
        if section.name == "arguments":
            for line in text[section.start : section.end].split("\n"):
                match = _ARGUMENT.match(line)
                if match is not None and not line.lstrip().startswith("#"):
                    found[match.group(1)] = match.group(2).strip("\"'")
    return found


def _argument_scope(expressions: dict[str, str], arguments: dict[str, str]) -> Scope:
    """The masks of ``{{ NAME }}`` bound to their ``%arguments`` defaults (unresolved without one)."""
    scope = Scope()
    for mask, expression in expressions.items():
        name = _EXPRESSION_NAME.fullmatch(expression)
        value = arguments.get(name.group(1)) if name is not None else None
        if value is not None:
            scope.set(mask[2:-1], Binding(value))
        else:
            note = (
                f"the build argument {expression} has no default in %arguments (apptainer build --build-arg)"
            )
            scope.set(mask[2:-1], Binding(None, Resolution.UNRESOLVED, note))
    return scope


def _run(
    source: SourceFile, session: ShellSession, text: str, starts: list[int], sections: list[_Section]
) -> None:
    """Read ``sections`` (their bodies one after the other) as one shell script, when the last one runs
    in a shell."""
    last = sections[-1]
    interpreter = _interpreter(last.options)
    if interpreter is not None and posixpath.basename(interpreter) not in SHELLS:
        if may_name_pin(text[last.start : last.end]):
            source.notices.append(
                f"line {last.line}: %{last.name} runs in {interpreter}: not scanned for pins"
            )
        return
    out = SourceMapBuilder()
    for section in sections:
        _copy_body(out, text, starts, section)
    try:
        session.run(out.text, out.source_map)
    except ExtractError as error:
        source.notices.append(f"line {last.line}: %{last.name} is not valid shell: {error}")


def _copy_body(out: SourceMapBuilder, text: str, starts: list[int], section: _Section) -> None:
    """Append a section's body to ``out``, line by line, each at its place in the file."""
    offset = section.start
    line = section.line + 1
    while offset < section.end:
        end = text.find("\n", offset, section.end)
        end = section.end if end == -1 else end + 1
        out.copy(text[offset:end], line, offset - starts[line - 1] + 1)
        offset, line = end, line + 1


def _interpreter(options: str) -> str | None:
    """The program that ``-c PROGRAM`` on a section line names, or None for ``/bin/sh``."""
    words = options.split()
    if "-c" in words and words.index("-c") + 1 < len(words):
        return words[words.index("-c") + 1]
    return None
