"""Install steps in documentation: the shell and Dockerfile blocks of Markdown, reStructuredText and Jupyter
notebooks, which users copy into their terminals and Dockerfiles.

- Markdown (``*.md``, ``*.markdown``, ``*.mdx``, ``*.qmd``): fenced blocks (:mod:`.markdown`).
- reStructuredText (``*.rst``): ``code-block``/``code``/``sourcecode``/``prompt`` directives and literal
  blocks that ``.. highlight::`` marks (:mod:`.rst`).
- Notebooks (``*.ipynb``): ``!``/``%pip`` lines and ``%%bash`` cells, and the fences of Markdown cells
  (:mod:`.notebook`).

The languages read are in :mod:`.blocks`: scripts (``bash``, ``sh``, ``shell`` …), terminal sessions
(``console``, ``shell-session``: prompts stripped, output skipped) and Dockerfiles; code in any other language
is not read. A Dockerfile under a script's label is read as a Dockerfile, and a Markdown fence without a
language is read when its first line is a command, a prompt or a Dockerfile instruction
(:func:`.blocks.read_as`). Each script is a run of one :class:`~ascend_reflint.extract.shell.ShellSession` per
file, so that a clone in one block and a checkout of it in a later one (``cd NAME && git checkout v1``) make
one pin, as when a user runs the blocks in one terminal; a Dockerfile block is read as a Dockerfile.
``{{ name }}`` on one line (MyST substitutions, MkDocs macros) is filled in when the documentation is built:
masked, and unresolved (:mod:`ascend_reflint.extract.template`). A block that does not parse is a notice,
never a file error: what it holds is read as far as it goes. Pins have the kind ``docs`` whatever the block's
language; their findings are capped at warning by the scan.
"""

from __future__ import annotations

import dataclasses
import re

from ascend_reflint.extract.docs.blocks import DOCKERFILE_LANGUAGES, Block, shell_text
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.model import FileKind, Pin, SourceFile
from ascend_reflint.resolve import Scope
from ascend_reflint.sourcemap import SourceMap

_RENDERER = "the documentation build"
#: What every pin of a block that says git holds: ``git`` followed by a blank (a command, ``--git URL``),
#: ``+`` (pip's ``git+``), ``@``/``/``/``#``/a quote (a ``.git`` URL's end), or ``hub:``/``lab:`` (npm).
#: Most documentation mentions git only in ``github.com`` links: such a file is not looked at further,
#: unless it names npm, yarn or pnpm (:mod:`ascend_reflint.extract.pinwords`). (A pattern that starts with a
#: literal, so that the search is fast: 0.5 ms over verl's 120 documents.)
_GIT_WORD = re.compile(r"git(?:[^\w-]|hub:|lab:|$)")


def extract_docs(source: SourceFile) -> None:
    """Fill ``source.pins`` and ``source.notices`` from a documentation file's shell and Dockerfile blocks.

    Args:
        source: a file of kind DOCS, with ``text`` read; Markdown, reStructuredText or a notebook by its
            name.
    """
    from ascend_reflint.extract.shell import ShellSession

    text = source.text
    assert text is not None
    says_git = "git" in text and _GIT_WORD.search(text) is not None
    if not says_git and "npm" not in text and "yarn" not in text:
        return
    lower = source.path.lower()
    session = ShellSession(source.path, source.kind, Scope())
    expressions: dict[str, str] = {}
    blocks: list[Block] = []
    if lower.endswith(".ipynb"):
        from ascend_reflint.extract.docs.notebook import notebook_parts
        from ascend_reflint.extract.errors import ExtractError

        try:
            runs, blocks = notebook_parts(text)
        except ExtractError as error:  # a notice, not an error: documentation is read as far as it goes
            source.notices.append(f"{error}: not read")
            return
        for run in runs:
            session.scope = run.scope
            _run(source, session, run.text, run.source_map, run.line, "the notebook's shell command")
    elif "{{" in text:
        from ascend_reflint.extract.template import mask_template

        masked = mask_template(text, expressions_only=True)
        expressions = masked.expressions
        blocks = _blocks(lower, masked.text)
    else:
        blocks = _blocks(lower, text)
    docker_pins: list[Pin] = []
    for block in blocks:
        if not may_name_pin(block.text):
            continue
        if block.is_script:
            session.scope = Scope()
            block_text, source_map = shell_text(block)
            _run(source, session, block_text, source_map, block.line, block.name)
        elif block.language in DOCKERFILE_LANGUAGES and not lower.endswith(".ipynb"):
            docker_pins.extend(_dockerfile_pins(source, block))
    pins = [*session.finish(), *docker_pins]
    source.notices.extend(session.notices)
    if expressions:
        from ascend_reflint.extract.template import unmask_pin

        pins = [unmask_pin(pin, expressions, _RENDERER) for pin in pins]
    if lower.endswith(".ipynb"):
        pins = [_written_in_notebook(pin, text) for pin in pins]
    pins.sort(key=lambda pin: (pin.span.line, pin.span.column))
    source.pins.extend(pins)


def _blocks(lower: str, text: str) -> list[Block]:
    if lower.endswith(".rst"):
        if ".. " not in text and "::" not in text:
            return []
        from ascend_reflint.extract.docs.rst import rst_blocks

        return rst_blocks(text)
    if "```" not in text and "~~~" not in text:
        return []
    from ascend_reflint.extract.docs.markdown import markdown_blocks

    return markdown_blocks(text)


def _run(source: SourceFile, session: object, text: str, source_map: SourceMap, line: int, what: str) -> None:
    """Read one shell text; one that does not parse is a notice naming the block's line."""
    try:
        session.run(text, source_map)  # type: ignore[attr-defined]
    except ExtractError as error:
        source.notices.append(f"line {line}: {what} is not valid shell ({error}); read as far as it goes")


def _dockerfile_pins(source: SourceFile, block: Block) -> list[Pin]:
    """A Dockerfile block read as a Dockerfile: its lines laid out where the file has them (blank lines
    and indentation before), so that the Dockerfile reader's positions are the file's."""
    from ascend_reflint.extract.dockerfile import extract_dockerfile

    laid_out: list[str] = []
    line = 1
    offset = 0
    for content in block.text.splitlines(keepends=True):
        at_line, column = block.source_map.position(offset)
        laid_out.append("\n" * max(at_line - line, 0) + " " * (column - 1) + content)
        line = at_line + content.count("\n")
        offset += len(content)
    dockerfile = SourceFile(source.path, source.abspath, FileKind.DOCKERFILE, text="".join(laid_out))
    try:
        extract_dockerfile(dockerfile, {})
    except ExtractError as error:
        source.notices.append(f"line {block.line}: {block.name} is not a valid Dockerfile ({error})")
    source.notices.extend(f"line {block.line}: {notice}" for notice in dockerfile.notices)
    return [dataclasses.replace(pin, kind=FileKind.DOCS) for pin in dockerfile.pins]


def _written_in_notebook(pin: Pin, text: str) -> Pin:
    """``pin`` with ``ref_text`` as the notebook writes it at the pin's span (decoded from JSON), where the
    shell saw ``${NAME}`` for IPython's ``{NAME}``."""
    if not pin.ref_text or "${" not in pin.ref_text or pin.span.line != pin.span.end_line:
        return pin
    line = text.split("\n", pin.span.line)[pin.span.line - 1]
    written = line[pin.span.column - 1 : pin.span.end_column - 1]
    return dataclasses.replace(pin, ref_text=written)
