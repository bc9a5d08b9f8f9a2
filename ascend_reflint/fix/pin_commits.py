"""``--pin-commits``: replace each pinned tag by the commit it points at, and keep the tag in a comment.

A tag can be moved or deleted on the remote; a commit id cannot change what it names. pinact, ratchet and
frizbee do this for ``uses:``; reflint does it for every pin where a commit id can stand in for the ref:

- ``uses: owner/repo@TAG``, pip's ``git+URL@TAG``, ``git checkout TAG`` after a clone, pre-commit's
  ``rev:``, uv's and Poetry's ``rev =``: the tag is replaced by its commit id (the peeled ``^{}`` id of an
  annotated tag, as ``git ls-remote`` lists it), where it is written (see
  :mod:`ascend_reflint.check.fixes`). Safe: the same commit is built, unless the pin is a
  ``pyproject.toml`` source, whose lock file must be made again (unsafe, "relock").
- ``git clone --branch TAG``: ``--branch`` takes no commit id (git-clone(1)), so the clone is followed by
  a checkout of the commit (:func:`ascend_reflint.check.fixes.clone_then_checkout`). Unsafe: the recipe
  is rewritten.

The tag is kept in a comment that each syntax allows:

- YAML (workflows, pre-commit, conda) and the last line of a shell command: a trailing comment after the
  value, ``# v4.2.2`` (pre-commit's own form ``# frozen: v4.2.2`` in its config), when nothing but blanks
  follows on the line; a version comment already there is corrected;
- TOML (``pyproject.toml``) and requirements files: a comment at the end of the value's line, when the line
  holds none yet (``{ git = "…", rev = "<commit>" }  # v2.10``);
- a Dockerfile, whose comments are whole lines only: a comment line above the instruction (``RUN``,
  ``ARG``, ``ENV``) that holds the value, ``# Megatron-LM core_v0.18.0``; never a trailing ``#`` inside a
  ``RUN``'s continuation lines, which would make the rest of the command a comment;
- a shell script line followed by more of its command: a comment line above it, when it starts the
  command (the line before does not end with a ``\\``);
- CMake's ``GIT_TAG <commit> # v3.11.3`` (``FetchContent_Declare``, ``ExternalProject_Add``, CPM), dropping
  ``GIT_SHALLOW TRUE``, which CMake cannot apply to a commit id.

A pin whose comment has no place is left as it is: a commit id without its tag is harder to review than
the tag. So is a tag that another reason keeps (a definition that feeds several pins, a ``tag =`` key that
takes no commit id, a rewrite that needs ``--unsafe-fixes``): each such tag is a notice that says why
(:class:`PinCommits`), so that a run that pinned everything else does not pass for one that pinned all.

In a requirements file a comment is a ``#`` at the start of a line or after white space (pip's
``COMMENT_RE``): the ``#egg=`` fragment of a URL is not one, so the tag's comment goes after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from ascend_reflint.check.engine import pin_lookup_key
from ascend_reflint.check.fixes import (
    SHALLOW_OPTIONS,
    clone_then_checkout,
    make_fix,
    option_removals,
    ref_edit,
)
from ascend_reflint.check.refnames import pinned_ref
from ascend_reflint.model import (
    Applicability,
    Edit,
    FileKind,
    FileMessage,
    Fix,
    LookupResult,
    Pin,
    RefType,
    RemoteRefs,
    SourceFile,
    Span,
    Via,
)
from ascend_reflint.remote import repo_dir_name

#: The kinds of pin whose ref a commit id can replace as it is written.
_TAKES_A_COMMIT = frozenset(
    {
        Via.ACTION,
        Via.PIP_VCS,
        Via.CHECKOUT,
        Via.PRE_COMMIT,
        Via.UV_SOURCE,
        Via.POETRY,
        Via.FETCHCONTENT,
        Via.EXTERNAL_PROJECT,
        Via.CPM,
    }
)
#: CMake's ways of pinning: a commit id in ``GIT_TAG`` cannot be cloned shallow (CMake's docs), so
#: ``GIT_SHALLOW`` goes.
_CMAKE = frozenset({Via.FETCHCONTENT, Via.EXTERNAL_PROJECT, Via.CPM})
#: The kinds of file whose comments run from ``#`` to the end of the line, after a blank.
_TRAILING_COMMENTS = frozenset(
    {
        FileKind.SHELL,
        FileKind.WORKFLOW,
        FileKind.PRE_COMMIT,
        FileKind.CONDA,
        FileKind.REQUIREMENTS,
        FileKind.PYPROJECT,
        FileKind.CMAKE,
    }
)
#: The kinds of file where a comment may end any line that holds none (not only one that ends with the value).
_COMMENT_AT_LINE_END = frozenset({FileKind.REQUIREMENTS, FileKind.PYPROJECT, FileKind.CMAKE})
#: uv's and Poetry's key for a ref that may be a commit id (``tag =`` and ``branch =`` may not).
_REV_KEY = re.compile(r"\brev\s*=\s*[\"']$")
#: What keeps a tag that the recipe names as a tag (``ref_type``) from taking a commit id, by kind of pin.
_TAG_KEYS = {
    Via.UV_SOURCE: "uv's tag = takes no commit id (rev = does)",
    Via.POETRY: "Poetry's tag = takes no commit id (rev = does)",
    Via.CARGO: "cargo install --tag takes no commit id (--rev does)",
}


class PinCommits(NamedTuple):
    """What ``--pin-commits`` can do with the files of a scan.

    Attributes:
        fixes: one fix per tag that can be pinned, in file order.
        unpinned: a notice per tag left as it is (at the ref as written, where the fix would go), saying
            why, in file order; no two alike.
    """

    fixes: list[Fix]
    unpinned: list[FileMessage]


def pin_commit_fixes(
    files: Sequence[SourceFile], lookups: Mapping[str, LookupResult], unsafe: bool = False
) -> PinCommits:
    """The fixes that pin each tag of ``files`` to its commit, and the tags left as they are, with why (see
    the module docstring).

    Args:
        files: the files scanned (those with an error are left out).
        lookups: lookup key → the remote's ref list (the scan's answers); a pin whose remote did not answer
            is neither pinned nor a notice (RL010 reports it).
        unsafe: ``--unsafe-fixes``: the unsafe pinnings are fixes too, else notices that say it takes
            ``--unsafe-fixes``.

    Returns:
        The :class:`PinCommits`.
    """
    sources = {source.path: source for source in files if source.error is None and source.text is not None}
    users = _origin_users(files)
    fixes: list[Fix] = []
    unpinned: dict[FileMessage, None] = {}
    for source in sources.values():
        for pin in source.pins:
            key = pin_lookup_key(pin)
            refs = lookups.get(key) if key is not None else None
            if not isinstance(refs, RemoteRefs):
                continue
            outcome = _pinned(pin, refs, sources, users)
            if isinstance(outcome, Fix) and outcome.applicability is Applicability.UNSAFE and not unsafe:
                outcome = _UNSAFE_BECAUSE[pin.via is Via.CLONE_BRANCH]
            if isinstance(outcome, Fix):
                fixes.append(outcome)
            elif outcome is not None:
                unpinned[_unpinned_notice(pin, outcome)] = None
    return PinCommits(fixes, list(unpinned))


def _unpinned_notice(pin: Pin, why: str) -> FileMessage:
    """The notice that ``pin``'s tag stays, at the ref as written (the definition it comes from, if any)."""
    place = pin.ref_origin or pin
    tag = pin.ref_text if pin.ref_origin is None and pin.ref_text else pin.ref
    return FileMessage(
        place.path, f'--pin-commits left "{tag}" as it is: {why}', place.span.line, place.span.column
    )


def _pinned(
    pin: Pin, refs: RemoteRefs, sources: Mapping[str, SourceFile], users: Mapping[tuple[str, Span], int]
) -> Fix | str | None:
    """The fix that pins ``pin``'s tag to its commit; why it cannot be pinned (a phrase); or None when the
    pin names no tag."""
    ref = pinned_ref(pin)
    if ref is None or ref.kind is RefType.BRANCH or ref.name not in refs.tags:
        return None
    if pin.ref_type is not None:
        return _TAG_KEYS.get(pin.via, "the recipe names it as a tag, where no commit id can stand")
    if ref.kind is None and ref.name in refs.branches:
        return f"{pin.remote} has a branch of that name too"
    origin = pin.ref_origin
    if origin is not None and (count := users.get((origin.path, origin.span), 0)) > 1:
        return f"its value is the ref of {count} pins, which each need their own decision"
    commit = refs.tags[ref.name]
    tag = most_specific_tag(ref.name, refs)
    message = f'pin "{ref.name}" to its commit {commit[:12]}'
    if pin.via is Via.CLONE_BRANCH:
        return _clone_pinned(pin, tag, commit, sources, message)
    if pin.via not in _TAKES_A_COMMIT:
        return f"reflint does not pin {pin.via.value} pins to commits"
    if not _commit_fits(pin, sources):
        return _TAG_KEYS.get(pin.via, "this key takes no commit id")
    edit = ref_edit(pin, commit)
    if edit is None:
        return _NOT_AS_WRITTEN
    comment = _comment(edit.path, edit.span, _label(pin, tag), sources, pin)
    if isinstance(comment, str):
        return comment
    unshallow = option_removals(pin, *SHALLOW_OPTIONS) if pin.via in _CMAKE else []
    if pin.via in _CMAKE and pin.shallow and not unshallow:
        return "GIT_SHALLOW, which CMake cannot apply to a commit id, is not written where it can be deleted"
    return make_fix(Applicability.SAFE, message, [edit, *comment, *unshallow], [pin])


#: Why pinning is unsafe: [a pyproject.toml source, whose lock file records the tag's commit; a clone].
_UNSAFE_BECAUSE = (
    "pinning it leaves the lock file stale (an unsafe fix): add --unsafe-fixes",
    "pinning it rewrites the clone (an unsafe fix): add --unsafe-fixes",
)
#: Why a tag that is not written as it is (quoted in part, built of several values) is not pinned.
_NOT_AS_WRITTEN = "the tag is not written as it is here (quoted in part, or made of several values)"


def _clone_pinned(
    pin: Pin, tag: str, commit: str, sources: Mapping[str, SourceFile], message: str
) -> Fix | str:
    """``git clone --branch TAG`` → a clone and a checkout of the commit, the tag in a comment; or why not."""
    origin = pin.ref_origin
    cannot = "reflint cannot rewrite this clone as a clone and a checkout of the commit"
    if origin is not None:
        written = pin.ref_text or ""
        value = ref_edit(pin, commit)
        rewritten = clone_then_checkout(pin, written, commit) if value is not None else None
        if value is None or rewritten is None:
            return _NOT_AS_WRITTEN if value is None else cannot
        edits = [value, *rewritten[0]]
        comment = _comment(origin.path, origin.span, _label(pin, tag), sources, pin)
    else:
        rewritten = clone_then_checkout(pin, commit, commit)
        if rewritten is None:
            return cannot
        edits = rewritten[0]
        comment = _comment(pin.path, edits[-1].span, _label(pin, tag), sources, pin, at_end=edits[-1])
        if not isinstance(comment, str) and comment[0].span == edits[-1].span:
            edits[-1], comment = comment[0], []
    if isinstance(comment, str):
        return comment
    fix = make_fix(Applicability.UNSAFE, f"{message}: clone, then check it out", [*edits, *comment], [pin])
    return fix if fix is not None else cannot


def most_specific_tag(tag: str, refs: RemoteRefs) -> str:
    """The tag to name in the comment: ``tag``, or the longest release of its naming scheme that extends
    it and points at the same commit (``v4.2.2`` for ``v4``, as pinact writes it), so that the comment says
    which release the commit is even after the alias moves on."""
    from ascend_reflint.check.versions import parse_version

    wanted, commit = parse_version(tag), refs.tags[tag]
    if wanted is None or not wanted.is_release:
        return tag
    same = [
        other
        for other, tagged in refs.tags.items()
        if tagged == commit
        and (version := parse_version(other)) is not None
        and version.is_release
        and version.skeleton == wanted.skeleton
        and other.startswith(tag)
        and other[len(tag) : len(tag) + 1] == "."
    ]
    return max(same, key=len, default=tag)


def _commit_fits(pin: Pin, sources: Mapping[str, SourceFile]) -> bool:
    """True when a commit id may be written where ``pin``'s ref is: uv and Poetry take one under ``rev =``
    only."""
    if pin.via not in (Via.UV_SOURCE, Via.POETRY):
        return True
    source = sources.get(pin.path)
    assert source is not None and source.text is not None
    line = source.text.split("\n")[pin.span.line - 1]
    return _REV_KEY.search(line[: pin.span.column - 1]) is not None


def _label(pin: Pin, tag: str) -> str:
    """What the comment says: the tag (``v4.2.2``), pre-commit's ``frozen: v4.2.2``."""
    return f"frozen: {tag}" if pin.via is Via.PRE_COMMIT else tag


def _comment(
    path: str,
    span: Span,
    label: str,
    sources: Mapping[str, SourceFile],
    pin: Pin,
    at_end: Edit | None = None,
) -> list[Edit] | str:
    """The edits that keep ``label`` in a comment by the value at ``span`` of ``path`` (see the module
    docstring), or why the syntax has no place for one (a phrase).

    Args:
        path: the file edited.
        span: the value (or, for a rewritten clone, the point after the command).
        label: the comment's text after ``# ``.
        sources: display path → the file read.
        pin: the pin, for its version comment and its repository's name.
        at_end: the edit that appends to the line at ``span``, which a trailing comment then follows.
    """
    source = sources.get(path)
    if source is None or source.text is None:
        return f"{path}, where the tag is written, was not read whole"
    lines = source.text.split("\n")
    if (
        pin.version_comment_span is not None
        and pin.version_comment_span.line == span.line
        and path == pin.path
    ):
        return [Edit(path, pin.version_comment_span, label.removeprefix("frozen: "))]
    if source.kind is FileKind.DOCKERFILE:
        return _comment_above_instruction(source, span.line, f"{_repo_name(pin)} {label}")
    if source.kind not in _TRAILING_COMMENTS:
        where = "documentation" if source.kind is FileKind.DOCS else f"a {source.kind.value} file"
        return f"reflint writes no comment for the tag in {where}"
    line = lines[span.end_line - 1]
    rest = line[span.end_column - 1 :]
    if rest[:1] in ("'", '"'):
        rest = rest[1:]
    if (
        source.kind in _COMMENT_AT_LINE_END
        and not _holds_comment(source.kind, line, span.end_column - 1)
        and not line.rstrip().endswith("\\")
    ):
        rest = ""  # the value is inside a TOML table or array, or before a requirement's options or #egg=
    if rest.strip() == "":
        if at_end is not None:
            return [Edit(at_end.path, at_end.span, f"{at_end.content}{_separator(source.kind)}# {label}")]
        end = Span(span.end_line, len(line) + 1, span.end_line, len(line) + 1)
        return [Edit(path, end, f"{_separator(source.kind)}# {label}")]
    if source.kind is FileKind.SHELL and _starts_command(lines, span.line):
        indent = lines[span.line - 1][: len(lines[span.line - 1]) - len(lines[span.line - 1].lstrip())]
        at = Span(span.line, 1, span.line, 1)
        return [Edit(path, at, f"{indent}# {_repo_name(pin)} {label}\n")]
    return "its line has no place for the tag's comment (another comment, or more of the command, follows)"


def _holds_comment(kind: FileKind, line: str, after: int) -> bool:
    """True when ``line`` holds a comment after its index ``after``: in a requirements file a ``#`` that
    starts the line or follows white space (pip's ``COMMENT_RE``), elsewhere any ``#``."""
    if kind is FileKind.REQUIREMENTS:
        from ascend_reflint.extract.requirements import PIP_COMMENT

        return PIP_COMMENT.search(line, after) is not None
    return "#" in line[after:]


def _separator(kind: FileKind) -> str:
    """The blanks before a trailing comment: one in workflows, conda files and CMake (as pinact and Renovate
    write ``@<commit> # v4.2.2``), two elsewhere (pre-commit's ``# frozen:``, PEP 8's inline comments)."""
    return " " if kind in (FileKind.WORKFLOW, FileKind.CONDA, FileKind.CMAKE) else "  "


def _comment_above_instruction(source: SourceFile, line: int, text: str) -> list[Edit] | str:
    """A comment line above the Dockerfile instruction that holds ``line``, indented as it is."""
    assert source.text is not None
    first = _instruction_line(source.text, line)
    if first is None:
        return "no Dockerfile instruction holds it"
    written = source.text.split("\n")[first - 1]
    indent = written[: len(written) - len(written.lstrip())]
    return [Edit(source.path, Span(first, 1, first, 1), f"{indent}# {text}\n")]


@lru_cache(maxsize=64)
def _instruction_starts(text: str) -> tuple[int, ...]:
    """The first line of each instruction of a Dockerfile, in order."""
    from ascend_reflint.extract.dockerfile.lines import parse

    return tuple(instruction.line for instruction in parse(text).instructions)


def _instruction_line(text: str, line: int) -> int | None:
    """The first line of the Dockerfile instruction that ``line`` belongs to."""
    starts = [start for start in _instruction_starts(text) if start <= line]
    return starts[-1] if starts else None


def _starts_command(lines: Sequence[str], line: int) -> bool:
    """True when shell line ``line`` starts a command: the line before it does not continue onto it."""
    before = lines[line - 2] if line >= 2 else ""
    return not before.rstrip().endswith("\\") and lines[line - 1].strip()[:1].isalnum()


def _repo_name(pin: Pin) -> str:
    """The repository's name for a comment line (``Megatron-LM``), from the URL as written."""
    return repo_dir_name(pin.url) or pin.remote or pin.url


def _origin_users(files: Sequence[SourceFile]) -> dict[tuple[str, Span], int]:
    """(path, span) of each definition → how many pins' refs it is."""
    counts: dict[tuple[str, Span], int] = {}
    for pin in _pins(files):
        if pin.ref_origin is not None:
            key = (pin.ref_origin.path, pin.ref_origin.span)
            counts[key] = counts.get(key, 0) + 1
    return counts


def _pins(files: Sequence[SourceFile]) -> Iterator[Pin]:
    for source in files:
        yield from source.pins
