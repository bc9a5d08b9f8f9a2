"""The handler of ``git``: what ``clone``, ``checkout``/``switch``/``reset --hard`` and ``fetch`` do to the
session's repositories (the command-line syntax is :mod:`ascend_reflint.extract.commands.git`'s).

- ``git clone`` records a clone, in the directory it names (git-clone(1): the last path component of the
  URL, ``.git`` and a trailing ``/`` removed, ``NAME.git`` for ``--bare``).
- ``git checkout REF`` (``switch``, ``reset --hard|--keep``) in a clone's work tree is a checkout of that
  clone; ``FETCH_HEAD`` is the ref the last ``git fetch … REF`` there brought in; ``origin/NAME`` and
  ``tags/NAME`` are looked up as ``NAME`` (gitrevisions(7)).
- ``git fetch REMOTE REF`` in a clone sets what FETCH_HEAD names (``--unshallow`` gives it its history);
  ``git fetch URL REF`` fills a repository of its own that only FETCH_HEAD names.
"""

from __future__ import annotations

import posixpath
import re

from ascend_reflint.extract.commands.git import (
    CloneCommand,
    FetchCommand,
    checkout_ref_name,
    checkout_target,
    is_relative_ref,
    parse_clone,
    parse_fetch,
    parse_git,
)
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.dirs import Dir, join
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.repos import Checkout, Clone, parse_depth
from ascend_reflint.extract.shell.values import Value, empty_ref
from ascend_reflint.extract.shell.words import Word
from ascend_reflint.model import CloneLayout, Resolution, Span
from ascend_reflint.remote import repo_dir_name

_SCP_LIKE_URL = re.compile(r"^[\w.-]+@[\w.-]+:")
#: git's ``<transport>::<address>`` form for remote helpers (git-remote-helpers(7)).
_HELPER_TRANSPORT = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")
#: The clone options that fixes remove (RL003 drops the shallow ones, RL007 and pinning drop ``--branch``).
_REMOVABLE = frozenset({"branch", "depth", "shallow-since", "shallow-exclude", "single-branch"})
#: What may follow a command's last word for another command to be added after it with ``&&``: the end of
#: the text or line, a line continuation, a comment, or an operator; not a redirection.
_ENDS_COMMAND = re.compile(r"[ \t]*(?:\Z|\n|\\\n|#|&|\||;|\)|\})")
#: A directory name that may be written into a shell line as it is.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9._][A-Za-z0-9._-]*")


def run_git(walker: Walker, command: Command) -> None:
    """``git [-C DIR] [--work-tree DIR] [--git-dir DIR] SUBCOMMAND …``."""
    words, text = command.words, command.text
    git = parse_git(words, command.start)
    if git is None:
        return
    scope = walker.env.scope
    repository = command.cwd
    for part in git.directories:
        repository = walker.directory(repository, command.part(part), text, scope)
    if git.work_tree is not None:
        tree = walker.directory(repository, command.part(git.work_tree), text, scope)
        if git.work_tree_is_git_dir and posixpath.basename(tree[1]) == ".git":
            tree = (tree[0], posixpath.dirname(tree[1]) or ".")
        repository = tree
    subcommand = words[git.subcommand].display
    start = git.subcommand + 1
    command_span = walker.expander.span(
        text, words[command.name_index].bounds()[0], words[git.subcommand].bounds()[1]
    )
    if subcommand == "clone":
        _clone(walker, command, start, repository, command_span)
    elif subcommand in ("checkout", "switch", "reset"):
        _checkout(walker, command, subcommand, start, repository)
    elif subcommand == "fetch":
        _fetch(walker, command, start, repository, command_span)


def _names_remote(walker: Walker, word: Word, text: Text, paths: bool) -> bool:
    """Whether the word's value looks like a repository URL rather than a directory or a remote's name:
    ``…://…``, scp-like ``user@host:path``, a remote helper's ``<transport>::<address>`` (``ext::…``,
    which reflint must see, to refuse it), and with ``paths`` a path (``/…``, ``./…``, ``../…``)."""
    value = word.display if word.is_literal else walker.expander.expand(word, text, walker.env.scope).value
    value = value if value is not None else word.display
    return (
        "://" in value
        or bool(_SCP_LIKE_URL.match(value) or _HELPER_TRANSPORT.match(value))
        or (paths and value.startswith(("/", "./", "../")))
    )


def _may_split(walker: Walker, word: Word, text: Text) -> bool:
    """Whether the word may stand for any number of words: an unquoted expansion of unknown value.

    (The walker has already split the unquoted expansions whose value is known into fields.)
    """
    if word.is_literal or any(quote in word.raw for quote in "\"'"):
        return False
    return walker.expander.expand(word, text, walker.env.scope).value is None


def _clone(walker: Walker, command: Command, start: int, parent: Dir, clone_span: Span) -> None:
    words, text = command.words, command.text
    may_split = [index >= start and _may_split(walker, word, text) for index, word in enumerate(words)]
    names_remote = [
        index >= start and _names_remote(walker, word, text, paths=False) for index, word in enumerate(words)
    ]
    clone = parse_clone(words, start, may_split, names_remote)
    if clone is None:
        return
    expand, scope = walker.expander.expand, walker.env.scope
    url = expand(words[clone.url], text, scope)
    branch = empty_ref(expand(command.part(clone.branch), text, scope)) if clone.branch else None
    depth = expand(command.part(clone.depth), text, scope).value if clone.depth else None
    origin = expand(command.part(clone.origin), text, scope).value if clone.origin else None
    path: Dir | None
    if clone.directory is not None:
        path = walker.directory(parent, words[clone.directory], text, scope)
    else:
        name = repo_dir_name(url.value if url.value is not None else words[clone.url].display)
        if name and clone.bare:
            name += ".git"
        path = join(parent, name) if name and "$" not in name and "`" not in name else None
    walker.repositories.add(
        Clone(
            url=url,
            clone_span=clone_span,
            branch=branch,
            depth=parse_depth(depth),
            shallow=clone.shallow,
            single_branch=clone.single_branch,
            recurse_submodules=clone.recurse_submodules,
            origin=origin or "origin",
            parent=parent,
            path=path,
            layout=_clone_layout(walker, command, clone, url.value),
        )
    )


def _clone_layout(walker: Walker, command: Command, clone: CloneCommand, url: str | None) -> CloneLayout:
    """Where the clone's parts are written (see :class:`~ascend_reflint.model.CloneLayout`).

    An option is listed only when its words are its own: written in the command (not the fields of a
    variable's value), and not bundled with other short options (``-qb v1``).
    """
    words, text = command.words, command.text
    options: list[tuple[str, Span]] = []
    for name, first, last in clone.options:
        display = words[first].display
        if name not in _REMOVABLE or not (display.startswith("--") or display.startswith("-b")):
            continue
        if any(words[index].provenance is not None for index in range(first - 1, last + 1)):
            continue
        options.append((name, walker.expander.span(text, _raw_end(words[first - 1]), _raw_end(words[last]))))
    end: Span | None = None
    last_end = _raw_end(words[-1])
    if words[-1].provenance is None and _ENDS_COMMAND.match(text.text, last_end):
        after = walker.expander.span(text, last_end - 1, last_end)
        end = Span(after.end_line, after.end_column, after.end_line, after.end_column)
    return CloneLayout(end, _clone_directory(command, clone, url), tuple(options))


def _clone_directory(command: Command, clone: CloneCommand, url: str | None) -> str | None:
    """The clone's directory as a shell word: as written, or the name git derives from ``url``."""
    if clone.directory is not None:
        word = command.words[clone.directory]
        return word.raw if word.provenance is None and "\n" not in word.raw else None
    name = repo_dir_name(url) if url is not None and not clone.bare else None
    return name if name and _PLAIN_NAME.fullmatch(name) else None


def _raw_end(word: Word) -> int:
    """The offset just after ``word`` as written, closing quotes included."""
    return word.start + len(word.raw)


def _checkout(walker: Walker, command: Command, subcommand: str, start: int, repository: Dir) -> None:
    target = checkout_target(subcommand, command.words, start)
    if target is None:
        return
    ref = walker.expander.expand(command.words[target], command.text, walker.env.scope)
    clone = walker.repositories.find(repository, fetch_head=ref.value == "FETCH_HEAD")
    if clone is None:
        return
    if ref.value is not None:
        if is_relative_ref(ref.value):
            return
        if ref.value == "FETCH_HEAD":
            fetched = clone.fetched
            if fetched is None:
                ref.value, ref.resolution = None, Resolution.UNRESOLVED
                ref.note = "FETCH_HEAD names no ref that this script fetched"
            else:
                ref.value, ref.resolution, ref.note = fetched.value, fetched.resolution, fetched.note
                ref.provenance = fetched.provenance
        else:
            name = checkout_ref_name(ref.value, clone.origin)
            if ref.provenance is not None and name != ref.value:  # origin/NAME: NAME is written after it
                size = len(ref.value)
                ref.provenance = ref.provenance.part(size - len(name), size, size)
            ref.value = name
    clone.checkouts.append(Checkout(empty_ref(ref), clone.fetched, clone.shallow, clone.depth))


def _fetch(walker: Walker, command: Command, start: int, repository: Dir, fetch_span: Span) -> None:
    """``git fetch``: of a URL and a ref, a repository of its own (see :class:`.repos.Clone`); of a
    remote's name, the ref it brings into the clone in ``repository`` (and ``--unshallow``)."""
    words, text = command.words, command.text
    fetch = parse_fetch(words, start)
    ref = None
    if fetch.refspec is not None:
        ref = walker.expander.expand(command.part(fetch.refspec).cut(":"), text, walker.env.scope)
    if (
        ref is not None
        and fetch.repository is not None
        and _names_remote(walker, words[fetch.repository], text, paths=True)
    ):
        _fetch_url(walker, command, fetch, empty_ref(ref), repository, fetch_span)
        return
    clone = walker.repositories.find(repository)
    if clone is None:
        return
    if fetch.unshallow:
        clone.shallow, clone.depth = False, None
    if ref is not None:
        clone.fetched = empty_ref(ref)


def _fetch_url(
    walker: Walker, command: Command, fetch: FetchCommand, ref: Value, repository: Dir, fetch_span: Span
) -> None:
    """``git fetch [--depth N] URL REF``: REF of URL lands in FETCH_HEAD of ``repository``."""
    assert fetch.repository is not None
    expand, text, scope = walker.expander.expand, command.text, walker.env.scope
    depth = expand(command.part(fetch.depth), text, scope).value if fetch.depth else None
    walker.repositories.add(
        Clone(
            url=expand(command.words[fetch.repository], text, scope),
            clone_span=fetch_span,
            branch=None,
            depth=parse_depth(depth),
            shallow=fetch.shallow,
            single_branch=False,
            recurse_submodules=False,
            origin="origin",
            parent=repository,
            path=repository,
            fetched=ref,
            fetch_only=True,
        )
    )
