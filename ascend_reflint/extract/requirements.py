"""Pins in pip requirement files: ``git+URL@REF``, and the files that ``-r``/``-c`` name.

Facts used here:

- pip's "Requirements File Format" (pip user guide, and ``pip/_internal/req/req_file.py``): one requirement
  per line; a line ending in ``\\`` continues on the next one; a comment starts with ``#`` at the start of a
  line or after whitespace (``(^|\\s+)#.*$``), so ``#egg=`` inside a URL is a fragment, not a comment; pip
  replaces ``${NAME}`` (upper-case letters, digits, ``_``) with the environment variable of that name;
  ``-r FILE``/``--requirement FILE`` and ``-c FILE``/``--constraint FILE`` read another file, relative to
  the folder of the file that names it unless it is a URL.
- pip's "VCS Support": ``git+URL[@REF][#egg=NAME&subdirectory=DIR]``; the ref follows the last ``@`` of the
  URL's *path*, so ``git+ssh://git@host/o/r`` keeps its user and ``@release/v1`` is a ref with a slash. The
  split is :func:`ascend_reflint.extract.commands.pip.vcs_parts`, shared with ``pip install`` in scripts.
- PEP 508 direct references (``name [extras] @ URL [; marker]``), which ``pyproject.toml`` and conda
  environment files hold too (:mod:`ascend_reflint.extract.pyproject`, :mod:`ascend_reflint.extract.conda`
  build their pins with :func:`pip_vcs_pin`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator

from ascend_reflint.extract.commands.pip import vcs_parts
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote
from ascend_reflint.sourcemap import SourceMap

#: The ``#`` of pip's comment pattern (``req_file.COMMENT_RE``, ``(^|\s+)#.*$``): at the start of a line or
#: after whitespace. The white space before it is cut off too (by ``rstrip``: pip's pattern, searched as it
#: is, is quadratic in a run of spaces before a ``#`` that starts no comment).
PIP_COMMENT = re.compile(r"(?:^|(?<=\s))#")
#: pip's environment variable pattern (``req_file.ENV_VAR_RE``).
_PIP_ENV_VAR = re.compile(r"\$\{[A-Z0-9_]+\}")
_PIP_NOTE = "pip replaces {var} with an environment variable when it reads the file"
#: The options of a requirements line that name another file (pip's ``cmdoptions.requirements`` and
#: ``constraints``), in their short and long forms.
_FILE_OPTIONS = ("-r", "--requirement", "-c", "--constraint")
_URL_SCHEMES = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def extract_requirements(source: SourceFile) -> None:
    """Fill ``source.pins`` with the ``git+`` pins of a pip requirements file, and ``source.named_files``
    with the files that its ``-r``/``-c`` lines name.

    Args:
        source: the file, with ``text`` read; its ``path`` and ``kind`` go into every pin.
    """
    assert source.text is not None
    for text, source_map in _logical_lines(source.text):
        read_requirement(source, text, source_map)


def read_requirement(source: SourceFile, line: str, source_map: SourceMap) -> None:
    """Add what one logical requirements line pins or names to ``source`` (a ``PIP_VCS`` pin, a
    ``-r``/``-c`` file).

    Args:
        source: the file the line is in.
        line: the line, continuation lines joined.
        source_map: maps offsets of ``line`` to the file.
    """
    if "#" in line and (comment := PIP_COMMENT.search(line)) is not None:
        line = line[: comment.start()].rstrip()
    pin = pip_vcs_pin(source, line, source_map.span, pip_env=True)
    if pin is not None:
        source.pins.append(pin)
    name = named_file(line)
    if name is not None:
        source.named_files.append((name, FileKind.REQUIREMENTS))


def named_file(line: str) -> str | None:
    """The file that one requirements line names with ``-r``/``-c`` (any spelling: ``-r f``, ``-rf``,
    ``--requirement=f``), as written, or None; URLs and names that hold pip's ``${VAR}`` are not files that
    reflint can read."""
    stripped = line.strip()
    if not stripped.startswith("-"):
        return None
    try:
        words = shlex.split(stripped)
    except ValueError:
        return None
    option, value = words[0], words[1] if len(words) > 1 else None
    for name in _FILE_OPTIONS:
        if option == name:
            break
        if option.startswith(name + "=") and name.startswith("--"):
            option, value = name, option[len(name) + 1 :]
            break
        if len(name) == 2 and option.startswith(name) and len(option) > 2:
            option, value = name, option[2:]
            break
    else:
        return None
    if not value or _URL_SCHEMES.match(value) or value.startswith("file:") or _PIP_ENV_VAR.search(value):
        return None
    return value


def _logical_lines(text: str) -> Iterator[tuple[str, SourceMap]]:
    """pip's logical lines (continuations joined; :func:`read_requirement` cuts comments off), each with a
    map to the file. Lines that can pin nothing and name no file (neither ``git+`` nor a leading ``-``) are
    left out.

    A line ending in ``\\`` continues on the next; a comment line ends a continuation (pip's
    ``join_lines``). Blank and comment-only lines are not yielded.
    """
    parts: list[str] = []
    source_map = SourceMap()
    length = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        is_comment = line.lstrip().startswith("#")
        continues = line.endswith("\\") and not is_comment
        # pip ends a continuation at a comment line and then cuts the comment off: its text never counts.
        piece = "" if is_comment else line.strip("\\") if continues else line
        leading = len(line) - len(line.lstrip("\\")) if continues else 0
        source_map.add(length, number, 1 + leading)
        parts.append(piece)
        length += len(piece)
        if continues:
            continue
        yield from _logical_line("".join(parts), source_map)
        parts, source_map, length = [], SourceMap(), 0
    if parts:
        yield from _logical_line("".join(parts), source_map)


def _logical_line(text: str, source_map: SourceMap) -> Iterator[tuple[str, SourceMap]]:
    if "git+" in text or text.lstrip().startswith("-"):
        yield text, source_map


def pip_vcs_pin(
    source: SourceFile, text: str, span_of: Callable[[int, int], Span], *, pip_env: bool
) -> Pin | None:
    """The ``PIP_VCS`` pin of a requirement (``git+URL@REF``, ``name @ git+URL@REF``), or None when it holds
    no ``git+`` URL.

    Args:
        source: the file (its ``path`` and ``kind`` go into the pin).
        text: one requirement (a logical line of a requirements file, a PEP 508 string).
        span_of: maps ``[start, end)`` offsets of ``text`` to the file's span.
        pip_env: True where pip replaces ``${NAME}`` with an environment variable (requirements files,
            which conda's ``pip:`` lists become), False in ``pyproject.toml``.
    """
    vcs = vcs_parts(text, [True] * len(text))
    if vcs is None:
        return None
    written_url = text[vcs.url[0] : vcs.url[1]]
    written_ref = text[vcs.ref[0] : vcs.ref[1]] if vcs.ref is not None else None
    url_span = span_of(*vcs.url)
    url, remote = written_url, normalise_remote(written_url)
    resolution, note = Resolution.RESOLVED, None
    ref = written_ref
    if pip_env and _PIP_ENV_VAR.search(written_url):
        url, remote, resolution, note = _url_with_env(written_url)
    if pip_env and written_ref is not None and (variable := _PIP_ENV_VAR.search(written_ref)):
        ref, resolution, note = None, Resolution.UNRESOLVED, _PIP_NOTE.format(var=variable.group(0))
    span = span_of(*vcs.ref) if vcs.ref is not None else url_span
    return Pin(
        path=source.path,
        kind=source.kind,
        via=Via.PIP_VCS,
        span=span,
        url=url,
        remote=remote,
        ref=ref,
        ref_text=written_ref,
        resolution=resolution,
        resolution_note=note,
        url_span=url_span,
    )


def _url_with_env(url: str) -> tuple[str, str | None, Resolution, str | None]:
    """URL, remote, resolution and note for a URL that holds pip's ``${VAR}``.

    A variable only in the user-info (``https://${TOKEN}@host/o/r``) carries credentials, not the
    repository's name: the URL without it names the same remote.
    """
    scheme_end = url.find("://")
    host_start = scheme_end + 3 if scheme_end != -1 else 0
    slash = url.find("/", host_start)
    authority_end = len(url) if slash == -1 else slash
    at = url.rfind("@", host_start, authority_end)
    if at != -1 and not _PIP_ENV_VAR.search(url, at):
        bare = url[:host_start] + url[at + 1 :]
        return bare, normalise_remote(bare), Resolution.RESOLVED, None
    variable = _PIP_ENV_VAR.search(url)
    assert variable is not None
    return url, None, Resolution.UNRESOLVED, _PIP_NOTE.format(var=variable.group(0))
