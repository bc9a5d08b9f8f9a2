"""The unified diff that ``reflint scan --diff`` prints: what ``--fix`` would change, in a form that
``git apply`` (and ``patch -p1``) takes.

The format is git's (git-diff(1) "Generating patch text with -p", diffutils' "Unified Format"):

- ``--- a/PATH`` and ``+++ b/PATH`` name the file, relative to the current directory (``git apply`` run
  in a subdirectory of a work tree takes paths relative to it); a path with a double quote, a backslash,
  a control character or a byte above 0x7f is written in C quotes with octal escapes, as git's
  ``quote_c_style`` does;
- lines are the file's own, split at ``\\n`` only: a ``\\r`` before it stays part of the line, so a CRLF
  file's diff keeps its carriage returns, and bytes that are not UTF-8 are written back as they are;
- a last line without a line end is followed by ``\\ No newline at end of file``;
- three lines of context, as git and diff default to.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from ascend_reflint.fix.contents import FileContent

_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")
_NO_NEWLINE = "\\ No newline at end of file\n"
#: C escapes that git's quote_c_style writes (quote.c, ``cq_lookup``).
_C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r"}


def unified_diff(contents: Iterable[FileContent]) -> str:
    """The diff of every changed file of ``contents``, in path order.

    Returns:
        The diff as text; characters that stand for bytes that are not UTF-8 are lone surrogates, which
        :meth:`ascend_reflint.output.Channel.write_exact` writes back as those bytes. Empty when nothing
        changed.
    """
    parts = [
        _file_diff(content)
        for content in sorted(contents, key=lambda content: content.path)
        if content.changed
    ]
    return "".join(parts)


def _file_diff(content: FileContent) -> str:
    before = _lines(_original_text(content))
    after = _lines(content.bom.decode("utf-8") + content.text)
    head = [f"--- {quote_path('a/' + content.path)}\n", f"+++ {quote_path('b/' + content.path)}\n"]
    body = list(difflib.unified_diff(before, after, n=3, lineterm="\n"))[2:]
    return "".join(head) + "".join(_marked(line) for line in body)


def _original_text(content: FileContent) -> str:
    return content.original.decode("utf-8", "surrogateescape")


def _lines(text: str) -> list[str]:
    return _LINES.findall(text)


def _marked(line: str) -> str:
    """A diff line, and the marker git writes after a line that has no line end."""
    return line if line.endswith("\n") else line + "\n" + _NO_NEWLINE


def quote_path(path: str) -> str:
    """``path`` as git writes it in a diff header: as it is, or in C quotes when it holds ``"``, ``\\``,
    a control character or a byte above 0x7f (git's ``quote_c_style`` with ``core.quotePath`` true)."""
    data = path.encode("utf-8", "surrogateescape")
    if not any(byte < 0x20 or byte >= 0x7F or byte in b'"\\' for byte in data):
        return path
    out = []
    for byte in data:
        char = chr(byte)
        if char in _C_ESCAPES:
            out.append(_C_ESCAPES[char])
        elif char in '"\\':
            out.append("\\" + char)
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
