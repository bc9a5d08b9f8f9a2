"""Pins in ``pyproject.toml``: requirement strings with ``git+`` URLs, uv's git sources and Poetry's git
dependencies.

Facts used here:

- Requirement strings (PEP 508 ``name @ git+URL@REF``, read as pip reads them: see
  :mod:`ascend_reflint.extract.requirements`) are in PEP 621 ``[project] dependencies`` and
  ``[project.optional-dependencies]``, PEP 735 ``[dependency-groups]`` (whose ``{include-group = …}`` tables
  are not requirements), PEP 518 ``[build-system] requires``, and uv's ``[tool.uv]`` lists
  ``dev-dependencies``, ``constraint-dependencies``, ``override-dependencies``,
  ``build-constraint-dependencies`` and ``extra-build-dependencies`` (uv's settings reference).
- uv, "Dependency sources: Git": ``name = { git = URL, tag | branch | rev = REF }`` in ``[tool.uv.sources]``,
  or a list of such tables told apart by ``marker``. uv looks ``tag`` up among tags only, ``branch`` among
  branches only, and ``rev`` as a branch, then a tag, then a commit id (uv-git's ``GitReference``).
- Poetry, "git dependencies": ``name = { git = URL, branch | tag | rev = REF }`` in
  ``[tool.poetry.dependencies]``, ``[tool.poetry.dev-dependencies]`` and
  ``[tool.poetry.group.<group>.dependencies]``, or a list of such tables (multiple constraints). Poetry
  (``poetry.vcs.git.backend.GitRefSpec``) looks ``tag`` up among tags only, ``rev`` as a tag, then a branch,
  then a commit id, and ``branch`` as a branch, else a tag of that name.

The file is read with ``tomllib`` (which says what is wrong with text that is not TOML) and located with
:mod:`ascend_reflint.extract.tomlpos`, so a pin's span is the exact characters of its value, quotes left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ascend_reflint.extract.requirements import pip_vcs_pin
from ascend_reflint.extract.tomlpos import KeyPath, TomlString, check_toml, toml_strings
from ascend_reflint.model import Pin, RefType, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote
from ascend_reflint.sourcemap import LineIndex

#: Key paths of requirement strings; ``str`` stands for any key (a group name), ``int`` for an array index.
_REQUIREMENT_PATHS: tuple[tuple[str | type, ...], ...] = (
    ("project", "dependencies", int),
    ("project", "optional-dependencies", str, int),
    ("dependency-groups", str, int),
    ("build-system", "requires", int),
    ("tool", "uv", "dev-dependencies", int),
    ("tool", "uv", "constraint-dependencies", int),
    ("tool", "uv", "override-dependencies", int),
    ("tool", "uv", "build-constraint-dependencies", int),
    ("tool", "uv", "extra-build-dependencies", str, int),
)
_POETRY_TABLES = ("dependencies", "dev-dependencies")


@dataclass(frozen=True)
class _Tool:
    """How a tool reads the ref keys of its git source tables: which kind of ref each key names (None: a
    branch or a tag may answer)."""

    via: Via
    ref_keys: dict[str, RefType | None]


_UV = _Tool(Via.UV_SOURCE, {"tag": RefType.TAG, "branch": RefType.BRANCH, "rev": None})
# Poetry's ``branch`` falls back to a tag of that name, so it names no single kind.
_POETRY = _Tool(Via.POETRY, {"tag": RefType.TAG, "branch": None, "rev": None})


def extract_pyproject(source: SourceFile) -> None:
    """Fill ``source.pins`` with the git pins of a ``pyproject.toml``, in file order.

    Args:
        source: the file, with ``text`` read.

    Raises:
        ExtractError: when the text is not valid TOML.
    """
    assert source.text is not None
    check_toml(source.text)
    if "git" not in source.text:  # no git source, no git+ URL: nothing to locate
        return
    strings = toml_strings(source.text)
    by_path = {string.path: string for string in strings}
    lines = LineIndex(source.text)
    pins: list[Pin] = []
    for string in strings:
        if string.path[-1] == "git" and (tool := _source_tool(string.path[:-1])) is not None:
            pins.append(_source_pin(source, lines, string, string.path[:-1], tool, by_path))
        elif "git+" in string.value and any(_matches(string.path, path) for path in _REQUIREMENT_PATHS):
            pin = pip_vcs_pin(source, string.value, _span_of(lines, string), pip_env=False)
            if pin is not None:
                pins.append(pin)
    source.pins.extend(sorted(pins, key=lambda pin: (pin.span.line, pin.span.column)))


def _matches(path: KeyPath, pattern: tuple[str | type, ...]) -> bool:
    if len(path) != len(pattern):
        return False
    pairs = zip(path, pattern, strict=True)
    return all(isinstance(key, part) if isinstance(part, type) else key == part for key, part in pairs)


def _source_tool(table: KeyPath) -> _Tool | None:
    """The tool whose git source ``table`` is (the key path of the table that holds ``git``), or None."""
    if table and isinstance(table[-1], int):
        table = table[:-1]  # one table of a list of tables
    if len(table) == 4 and table[:3] == ("tool", "uv", "sources"):
        return _UV
    if len(table) == 4 and table[:2] == ("tool", "poetry") and table[2] in _POETRY_TABLES:
        return _POETRY
    if len(table) == 6 and table[:3] == ("tool", "poetry", "group") and table[4] == "dependencies":
        return _POETRY
    return None


def _span_of(lines: LineIndex, string: TomlString) -> Callable[[int, int], Span]:
    """A function from offsets of ``string.value`` to the file's span of those characters."""
    return lambda start, end: lines.span(*string.region(start, end))


def _source_pin(
    source: SourceFile,
    lines: LineIndex,
    git: TomlString,
    table: KeyPath,
    tool: _Tool,
    by_path: dict[KeyPath, TomlString],
) -> Pin:
    """The pin of one git source table: ``git`` and the first of its ref keys in file order."""
    written_url = git.value.removeprefix("git+")
    url_span = lines.span(*git.region(len(git.value) - len(written_url)))
    # uv and Poetry refuse a table with more than one of them; the first written is the one reported.
    written = [(ref, key) for key in tool.ref_keys if (ref := by_path.get((*table, key))) is not None]
    ref, key = min(written, key=lambda pair: pair[0].literal) if written else (None, None)
    resolution, note = Resolution.RESOLVED, None
    if ref is not None and ref.value == "":
        resolution, note = Resolution.EMPTY, f'`{key} = ""` names no ref'
    return Pin(
        path=source.path,
        kind=source.kind,
        via=tool.via,
        span=lines.span(*ref.region()) if ref is not None else url_span,
        url=written_url,
        remote=normalise_remote(written_url),
        ref=ref.value if ref is not None else None,
        ref_text=ref.value if ref is not None else None,
        resolution=resolution,
        resolution_note=note,
        url_span=url_span,
        ref_type=tool.ref_keys[key] if key is not None else None,
    )
