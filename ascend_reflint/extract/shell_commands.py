"""What the words of one shell command mean: git, pip, cd, shells and the wrappers that run other commands.

This module knows command-line syntax only; it never expands variables or computes positions. It works on
:class:`CommandWord` values (a word as the shell extractor sees it: quotes removed, expansions kept as
written) and answers with indexes into the word list, so that the extractor can map every answer back to
the file.

Sources of the option tables: git(1) "OPTIONS" (global options, parsed by git.c: no abbreviation, no
bundling), git-clone(1), git-checkout(1), git-switch(1), git-reset(1), git-fetch(1) (parsed by git's
parse-options: ``--opt=value`` or ``--opt value``, ``-ovalue`` or ``-o value``, bundled short flags,
unambiguous prefixes of long options, options mixed with positionals); pip's "pip install" reference
("Requirement Specifiers", "VCS Support"); bash(1) "INVOCATION" and "SHELL BUILTIN COMMANDS".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol


class CommandWord(Protocol):
    """One word of a command, as the shell extractor sees it.

    ``display`` is the word with quoting removed and expansions (``$V``, ``${V:-d}``, ``$(cmd)``) kept as
    written; ``literal_prefix`` is the start of ``display`` up to the first expansion (all of it for a
    word without expansions). Options are recognised from ``literal_prefix`` only.
    """

    @property
    def display(self) -> str: ...

    @property
    def literal_prefix(self) -> str: ...


@dataclass(frozen=True, slots=True)
class WordPart:
    """A value inside the word list: word ``index``, from ``offset`` display characters into it to its end.

    ``--branch=v1`` gives ``WordPart(i, 9)``; ``--branch v1`` gives ``WordPart(i + 1, 0)``.
    """

    index: int
    offset: int = 0


@dataclass(frozen=True, slots=True)
class OptionTable:
    """The options of one command.

    Attributes:
        with_value: canonical long names of options that take a value (``--opt=v`` or ``--opt v``).
        optional_value: canonical names whose value may only be given as ``--opt=v``.
        flags: canonical long names that take no value.
        short: short option letter → canonical long name.
        aliases: other long spellings → canonical long name (``recursive`` → ``recurse-submodules``).
        abbreviations: accept unambiguous prefixes of long names (git's parse-options does).
    """

    with_value: frozenset[str]
    flags: frozenset[str] = frozenset()
    optional_value: frozenset[str] = frozenset()
    short: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    abbreviations: bool = True

    def canonical(self, name: str) -> str | None:
        """The canonical long name for ``name`` (without ``--``), or None when unknown or ambiguous."""
        name = self.aliases.get(name, name)
        if name in self.with_value or name in self.flags or name in self.optional_value:
            return name
        if not self.abbreviations or not name:
            return None
        known = (*self.with_value, *self.flags, *self.optional_value, *self.aliases)
        matches = {self.aliases.get(k, k) for k in known if k.startswith(name)}
        return matches.pop() if len(matches) == 1 else None


@dataclass(slots=True)
class ParsedOptions:
    """The result of :func:`parse_options`.

    Attributes:
        options: ``(canonical name, index of the option word, value or None)`` in order; unknown options
            appear with their name as written (``"x"`` for ``-x``, ``"frob"`` for ``--frob``).
        positionals: indexes of the words that are not options or option values, in order.
        double_dash: the number of positionals seen before ``--`` (``len(positionals)`` when none).
    """

    options: list[tuple[str, int, WordPart | None]] = field(default_factory=list)
    positionals: list[int] = field(default_factory=list)
    double_dash: int | None = None

    def last(self, *names: str) -> tuple[str, int, WordPart | None] | None:
        """The last option given among ``names`` (later options override earlier ones), or None."""
        found = None
        for option in self.options:
            if option[0] in names:
                found = option
        return found

    def has(self, *names: str) -> bool:
        """True when any of ``names`` was given."""
        return any(option[0] in names for option in self.options)


def parse_options(
    words: Sequence[CommandWord], table: OptionTable, start: int = 0, stop_at_positional: bool = False
) -> ParsedOptions:
    """Split ``words[start:]`` into options (with their values) and positionals, as git's parse-options does.

    Args:
        words: the command's words.
        table: the command's options.
        start: the index of the first word to read.
        stop_at_positional: stop at the first positional (it and everything after are positionals).

    Returns:
        The options and positionals, with indexes into ``words``.
    """
    parsed = ParsedOptions()
    index = start
    while index < len(words):
        word = words[index]
        prefix = word.literal_prefix
        if parsed.double_dash is not None or not prefix.startswith("-") or word.display == "-":
            parsed.positionals.append(index)
            if stop_at_positional:
                parsed.positionals.extend(range(index + 1, len(words)))
                return parsed
        elif word.display == "--":
            parsed.double_dash = len(parsed.positionals)
        elif prefix.startswith("--"):
            index = _long_option(words, index, table, parsed)
        else:
            index = _short_options(words, index, table, parsed)
        index += 1
    return parsed


def _long_option(words: Sequence[CommandWord], index: int, table: OptionTable, parsed: ParsedOptions) -> int:
    prefix = words[index].literal_prefix
    name, equals, _ = prefix[2:].partition("=")
    canonical = table.canonical(name)
    if canonical is None:
        parsed.options.append((name, index, WordPart(index, len(name) + 3) if equals else None))
        return index
    if equals:
        parsed.options.append((canonical, index, WordPart(index, len(name) + 3)))
        return index
    if canonical in table.with_value and index + 1 < len(words):
        parsed.options.append((canonical, index, WordPart(index + 1)))
        return index + 1
    parsed.options.append((canonical, index, None))
    return index


def _short_options(
    words: Sequence[CommandWord], index: int, table: OptionTable, parsed: ParsedOptions
) -> int:
    word = words[index]
    prefix = word.literal_prefix
    for position in range(1, len(prefix)):
        letter = prefix[position]
        canonical = table.short.get(letter)
        if canonical is None:
            parsed.options.append((letter, index, None))
            continue
        if canonical not in table.with_value:
            parsed.options.append((canonical, index, None))
            continue
        if position + 1 < len(word.display):  # sticked value: -bv1, -j8
            parsed.options.append((canonical, index, WordPart(index, position + 1)))
            return index
        if index + 1 < len(words):
            parsed.options.append((canonical, index, WordPart(index + 1)))
            return index + 1
        parsed.options.append((canonical, index, None))
        return index
    return index


# --- git ------------------------------------------------------------------------------------------------

#: git(1) global options that take a separate value (git.c reads ``-C``/``-c`` only as separate words).
_GIT_GLOBAL_WITH_VALUE = frozenset(
    {
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--super-prefix",
        "--attr-source",
        "--list-cmds",
    }
)

_CLONE = OptionTable(
    with_value=frozenset(
        {
            "origin",
            "branch",
            "revision",
            "upload-pack",
            "template",
            "config",
            "depth",
            "shallow-since",
            "shallow-exclude",
            "separate-git-dir",
            "jobs",
            "reference",
            "reference-if-able",
            "filter",
            "server-option",
            "bundle-uri",
            "ref-format",
        }
    ),
    optional_value=frozenset({"recurse-submodules"}),
    flags=frozenset(
        {
            "local",
            "no-local",
            "no-hardlinks",
            "shared",
            "dissociate",
            "quiet",
            "verbose",
            "progress",
            "no-checkout",
            "bare",
            "sparse",
            "mirror",
            "reject-shallow",
            "no-reject-shallow",
            "single-branch",
            "no-single-branch",
            "no-tags",
            "tags",
            "no-recurse-submodules",
            "shallow-submodules",
            "no-shallow-submodules",
            "remote-submodules",
            "no-remote-submodules",
            "also-filter-submodules",
        }
    ),
    short={
        "o": "origin",
        "b": "branch",
        "u": "upload-pack",
        "c": "config",
        "j": "jobs",
        "l": "local",
        "s": "shared",
        "q": "quiet",
        "v": "verbose",
        "n": "no-checkout",
    },
    aliases={"recursive": "recurse-submodules"},
)

_CHECKOUT = OptionTable(
    with_value=frozenset({"branch", "force-branch", "orphan"}),
    optional_value=frozenset({"track", "conflict", "pathspec-from-file", "recurse-submodules"}),
    flags=frozenset(
        {
            "quiet",
            "progress",
            "no-progress",
            "force",
            "ours",
            "theirs",
            "no-track",
            "guess",
            "no-guess",
            "detach",
            "merge",
            "ignore-skip-worktree-bits",
            "ignore-other-worktrees",
            "overwrite-ignore",
            "no-overwrite-ignore",
            "no-recurse-submodules",
            "overlay",
            "no-overlay",
            "pathspec-file-nul",
            "patch",
            "reflog",
        }
    ),
    short={
        "b": "branch",
        "B": "force-branch",
        "q": "quiet",
        "f": "force",
        "t": "track",
        "l": "reflog",
        "d": "detach",
        "m": "merge",
        "p": "patch",
    },
)

_SWITCH = OptionTable(
    with_value=frozenset({"create", "force-create", "orphan"}),
    optional_value=frozenset({"track", "conflict", "recurse-submodules"}),
    flags=frozenset(
        {
            "detach",
            "guess",
            "no-guess",
            "force",
            "discard-changes",
            "merge",
            "quiet",
            "progress",
            "no-progress",
            "no-track",
            "ignore-other-worktrees",
            "no-recurse-submodules",
        }
    ),
    short={
        "c": "create",
        "C": "force-create",
        "d": "detach",
        "f": "force",
        "m": "merge",
        "q": "quiet",
        "t": "track",
    },
)

_RESET = OptionTable(
    with_value=frozenset(),
    optional_value=frozenset({"pathspec-from-file", "recurse-submodules"}),
    flags=frozenset(
        {
            "soft",
            "mixed",
            "hard",
            "merge",
            "keep",
            "quiet",
            "no-refresh",
            "refresh",
            "intent-to-add",
            "pathspec-file-nul",
            "no-recurse-submodules",
            "patch",
        }
    ),
    short={"q": "quiet", "N": "intent-to-add", "p": "patch"},
)

_FETCH = OptionTable(
    with_value=frozenset(
        {
            "depth",
            "deepen",
            "shallow-since",
            "shallow-exclude",
            "jobs",
            "negotiation-tip",
            "refmap",
            "server-option",
            "upload-pack",
            "filter",
            "submodule-prefix",
            "recurse-submodules-default",
        }
    ),
    optional_value=frozenset({"recurse-submodules"}),
    flags=frozenset(
        {
            "all",
            "no-all",
            "atomic",
            "append",
            "force",
            "keep",
            "multiple",
            "no-tags",
            "tags",
            "prune",
            "no-prune",
            "prune-tags",
            "quiet",
            "verbose",
            "progress",
            "dry-run",
            "unshallow",
            "update-shallow",
            "update-head-ok",
            "no-recurse-submodules",
            "write-fetch-head",
            "no-write-fetch-head",
            "set-upstream",
            "auto-maintenance",
            "no-auto-maintenance",
            "auto-gc",
            "no-auto-gc",
            "show-forced-updates",
            "no-show-forced-updates",
            "stdin",
            "porcelain",
            "refetch",
            "ipv4",
            "ipv6",
            "prefetch",
            "negotiate-only",
        }
    ),
    short={
        "j": "jobs",
        "o": "server-option",
        "a": "append",
        "f": "force",
        "k": "keep",
        "m": "multiple",
        "n": "no-tags",
        "t": "tags",
        "p": "prune",
        "P": "prune-tags",
        "q": "quiet",
        "v": "verbose",
        "u": "update-head-ok",
        "4": "ipv4",
        "6": "ipv6",
    },
)


class GitCommand(NamedTuple):
    """``git [global options] SUBCOMMAND args…``.

    Attributes:
        subcommand: index of the subcommand word (its ``display`` is the subcommand's name).
        directories: the ``-C <path>`` values in order (each relative to the one before, per git(1)).
        work_tree: the ``--work-tree`` (or, failing that, ``--git-dir``) value, or None.
        work_tree_is_git_dir: True when ``work_tree`` came from ``--git-dir``.
    """

    subcommand: int
    directories: tuple[WordPart, ...] = ()
    work_tree: WordPart | None = None
    work_tree_is_git_dir: bool = False


def parse_git(words: Sequence[CommandWord], start: int) -> GitCommand | None:
    """Read git's global options from ``words[start:]`` (the words after ``git``).

    Returns:
        Where the subcommand is and the directories that apply, or None when there is no subcommand.
    """
    directories: list[WordPart] = []
    work_tree: WordPart | None = None
    from_git_dir = False
    index = start
    while index < len(words):
        prefix = words[index].literal_prefix
        if not prefix.startswith("-"):
            return GitCommand(index, tuple(directories), work_tree, from_git_dir)
        name, equals, _ = prefix.partition("=")
        value: WordPart | None = None
        if equals and name.startswith("--"):
            value = WordPart(index, len(name) + 1)
        elif prefix in _GIT_GLOBAL_WITH_VALUE and index + 1 < len(words):
            index += 1
            value = WordPart(index)
        if value is not None and name == "-C":
            directories.append(value)
        elif value is not None and name == "--work-tree":
            work_tree, from_git_dir = value, False
        elif value is not None and name == "--git-dir" and (work_tree is None or from_git_dir):
            work_tree, from_git_dir = value, True
        index += 1
    return None


class CloneCommand(NamedTuple):
    """What ``git clone`` was asked to do (git-clone(1)).

    Attributes:
        url: index of the repository word.
        directory: index of the target-directory word, or None.
        branch: the ``--branch``/``-b`` value (the last one given), or None.
        depth: the ``--depth`` value, or None.
        shallow: ``--depth``, ``--shallow-since`` or ``--shallow-exclude`` was given.
        single_branch: ``--single-branch`` (not cancelled by a later ``--no-single-branch``).
        recurse_submodules: ``--recurse-submodules[=…]``/``--recursive`` (not cancelled later).
        bare: ``--bare`` or ``--mirror`` (the directory then defaults to ``NAME.git``).
        origin: the ``--origin``/``-o`` value, or None (git's default remote name is ``origin``).
    """

    url: int
    directory: int | None
    branch: WordPart | None
    depth: WordPart | None
    shallow: bool
    single_branch: bool
    recurse_submodules: bool
    bare: bool
    origin: WordPart | None


def parse_clone(
    words: Sequence[CommandWord], start: int, may_split: Sequence[bool], names_remote: Sequence[bool]
) -> CloneCommand | None:
    """Read ``git clone`` arguments from ``words[start:]``.

    git-clone(1) takes ``<repository> [<directory>]``: the first positional is the repository and the
    second the directory, whatever they look like (after ``--`` even a word that starts with ``-``). The
    one exception is a word that may stand for any number of words: an unquoted ``$ARGS`` that cannot be
    resolved may hold options or nothing, so it is passed over when more than two positionals follow it
    from there, or when the positional after it names a remote (``git clone $GIT_ARGS https://…``). Words
    after ``--`` are never passed over.

    Args:
        words: the command's words.
        start: the index of the first word after ``clone``.
        may_split: per word, whether it may stand for any number of words (an unquoted expansion whose
            value is not known statically).
        names_remote: per word, whether its value looks like a remote rather than a directory: a URL with
            ``://``, an scp-like ``host:path``, a remote helper's ``<transport>::<address>``.

    Returns:
        The clone's parts, or None when no repository is given.
    """
    parsed = parse_options(words, _CLONE, start)
    positionals = parsed.positionals
    if not positionals:
        return None
    before_double_dash = len(positionals) if parsed.double_dash is None else parsed.double_dash
    url_at = 0
    while (
        url_at < before_double_dash
        and url_at + 1 < len(positionals)
        and may_split[positionals[url_at]]
        and (len(positionals) - url_at > 2 or names_remote[positionals[url_at + 1]])
    ):
        url_at += 1
    directory = positionals[url_at + 1] if url_at + 1 < len(positionals) else None
    branch = parsed.last("branch")
    depth = parsed.last("depth")
    single = parsed.last("single-branch", "no-single-branch")
    recurse = parsed.last("recurse-submodules", "no-recurse-submodules")
    origin = parsed.last("origin")
    return CloneCommand(
        url=positionals[url_at],
        directory=directory,
        branch=branch[2] if branch else None,
        depth=depth[2] if depth else None,
        shallow=parsed.has("depth", "shallow-since", "shallow-exclude"),
        single_branch=single is not None and single[0] == "single-branch",
        recurse_submodules=recurse is not None and recurse[0] == "recurse-submodules",
        bare=parsed.has("bare", "mirror"),
        origin=origin[2] if origin else None,
    )


def checkout_target(subcommand: str, words: Sequence[CommandWord], start: int) -> int | None:
    """The index of the word naming the commit that ``git checkout``/``switch``/``reset`` moves HEAD to.

    ``git checkout REF``, ``git checkout --detach REF``, ``git checkout -b NEW REF`` (REF is the start
    point), ``git switch REF``, ``git switch -c NEW REF``, ``git reset --hard REF`` (also ``--keep``, the
    other mode that updates the work tree) have one. ``git checkout -- FILE``, ``git checkout REF -- FILE``,
    ``git checkout .`` (paths), ``git checkout -b NEW`` and ``git switch -c NEW`` (no start point), a plain
    or ``--soft``/``--mixed`` reset (the work tree stays) have none.

    Returns:
        The index into ``words``, or None.
    """
    if subcommand == "reset":
        parsed = parse_options(words, _RESET, start)
        if not parsed.has("hard", "keep"):
            return None
    else:
        parsed = parse_options(words, _CHECKOUT if subcommand == "checkout" else _SWITCH, start)
        if parsed.has("pathspec-from-file", "patch"):
            return None
    if parsed.double_dash is not None or len(parsed.positionals) != 1:
        return None
    target = parsed.positionals[0]
    if is_path_like(words[target].display):
        return None
    return target


def is_path_like(text: str) -> bool:
    """True for ``.``, ``..`` and words starting with ``./``, ``../`` or ``/``: git reads them as paths."""
    return text in (".", "..") or text.startswith(("./", "../", "/"))


class FetchCommand(NamedTuple):
    """What ``git fetch`` was asked to do.

    Attributes:
        refspec: the first refspec's source: its word and the offset after a leading ``+`` (the extractor
            cuts it at ``:``), or None when only a remote (or nothing) is given.
        unshallow: ``--unshallow`` (the clone gets its full history).
        repository: index of the ``<repository>`` word (a remote's name or a URL), or None.
        depth: the ``--depth`` value, or None.
        shallow: ``--depth``, ``--shallow-since`` or ``--shallow-exclude`` was given.
    """

    refspec: WordPart | None
    unshallow: bool
    repository: int | None = None
    depth: WordPart | None = None
    shallow: bool = False


def parse_fetch(words: Sequence[CommandWord], start: int) -> FetchCommand:
    """Read ``git fetch [options] [REMOTE [REFSPEC…]]`` from ``words[start:]`` (git-fetch(1)).

    ``tag NAME`` as a refspec means ``refs/tags/NAME:refs/tags/NAME``; its NAME word is returned.
    """
    parsed = parse_options(words, _FETCH, start)
    depth = parsed.last("depth")
    repository = parsed.positionals[0] if parsed.positionals else None
    refspecs = parsed.positionals[1:]
    refspec: WordPart | None = None
    if refspecs:
        first = refspecs[0]
        if words[first].display == "tag" and len(refspecs) > 1:
            first = refspecs[1]
        offset = 1 if words[first].literal_prefix.startswith("+") else 0
        refspec = WordPart(first, offset)
    return FetchCommand(
        refspec,
        parsed.has("unshallow"),
        repository=repository,
        depth=depth[2] if depth else None,
        shallow=parsed.has("depth", "shallow-since", "shallow-exclude"),
    )


_REMOTE_PREFIXES = ("refs/remotes/", "remotes/")
_BRANCH_OR_TAG_PREFIXES = ("refs/tags/", "refs/heads/", "tags/", "heads/")


def checkout_ref_name(ref: str, origin: str = "origin") -> str:
    """The branch or tag name that a checkout of ``ref`` in a fresh clone refers to.

    git resolves ``tags/v1`` to ``refs/tags/v1`` and ``origin/main`` to ``refs/remotes/origin/main``, the
    clone's copy of the remote branch ``main`` (gitrevisions(7), "<refname>"), so reflint looks those up
    on the remote as ``v1`` and ``main``. The checkout's ``ref_text`` keeps what was written.

    Args:
        ref: the resolved ref as written to ``git checkout``/``switch``/``reset``.
        origin: the clone's remote name (``git clone -o NAME``).

    Returns:
        The ref without those prefixes.
    """
    for prefix in _REMOTE_PREFIXES:
        if ref.startswith(prefix + origin + "/"):
            return ref[len(prefix) + len(origin) + 1 :]
    if ref.startswith(origin + "/"):
        return ref[len(origin) + 1 :]
    for prefix in _BRANCH_OR_TAG_PREFIXES:
        if ref.startswith(prefix):
            return ref[len(prefix) :]
    return ref


def is_relative_ref(ref: str) -> bool:
    """True for refs that name no remote ref: ``HEAD``, ``HEAD~1``, ``@``, ``@{-1}``, ``-``, ``ORIG_HEAD``."""
    return ref in ("-", "@", "HEAD", "ORIG_HEAD") or ref.startswith(
        ("HEAD~", "HEAD^", "HEAD@", "@{", "@~", "@^")
    )


# --- pip ------------------------------------------------------------------------------------------------

_PIP_NAME = re.compile(r"pip(?:\d+(?:\.\d+)?)?")
_PYTHON_NAME = re.compile(r"python(?:\d+(?:\.\d+)?)?")
_PIP_INSTALLING = frozenset({"install", "download", "wheel"})
#: pip install options whose value is a file or index, never a requirement to read.
_PIP_FILE_OPTIONS = frozenset(
    {
        "-r",
        "--requirement",
        "-c",
        "--constraint",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--src",
        "--log",
        "--cache-dir",
        "-t",
        "--target",
        "--prefix",
        "--root",
        "--report",
        "--cert",
        "--client-cert",
    }
)
#: pip's general options that take a separate value (they may come before the subcommand).
_PIP_GENERAL_WITH_VALUE = frozenset(
    {
        "--proxy",
        "--retries",
        "--timeout",
        "--exists-action",
        "--trusted-host",
        "--cert",
        "--client-cert",
        "--cache-dir",
        "--log",
        "--python",
        "--keyring-provider",
        "--use-feature",
        "--use-deprecated",
    }
)
#: python(1) options that take a value, before ``-m``.
_PYTHON_WITH_VALUE = frozenset({"-W", "-X", "-Q"})


def pip_requirements(name: str, words: Sequence[CommandWord], start: int) -> list[int]:
    """The indexes of the words that may be requirements in a pip install command.

    Recognised: ``pip``/``pip3``/``pip3.11 install``, ``python[3[.x]] -m pip install``, ``uv pip install``
    (also ``download`` and ``wheel``, which fetch the same way). Values of ``-r``, ``-c``, ``-i`` and the
    like are files or indexes and are left out.

    Args:
        name: the command's name (the basename of its first word).
        words: the command's words.
        start: the index of the first word after the command's name.

    Returns:
        Word indexes (empty when this is not a pip install).
    """
    index = _pip_subcommand(name, words, start)
    if index is None:
        return []
    candidates: list[int] = []
    skip_next = False
    for position in range(index + 1, len(words)):
        text = words[position].display
        if skip_next:
            skip_next = False
        elif text in _PIP_FILE_OPTIONS:
            skip_next = True
        elif not text.startswith("-") or "git+" in text:
            candidates.append(position)
    return candidates


def _pip_subcommand(name: str, words: Sequence[CommandWord], start: int) -> int | None:
    """The index of pip's ``install`` word, or None when the command does not run ``pip install``."""
    index: int | None = start
    if _PYTHON_NAME.fullmatch(name):
        index = _after_python_module(words, start, "pip")
    elif name == "uv":
        index = start + 1 if start < len(words) and words[start].display == "pip" else None
    elif not _PIP_NAME.fullmatch(name):
        return None
    if index is None:
        return None
    position = index
    while position < len(words):
        text = words[position].display
        if text in _PIP_INSTALLING:
            return position
        if not text.startswith("-"):
            return None
        position += 2 if text in _PIP_GENERAL_WITH_VALUE else 1
    return None


def _after_python_module(words: Sequence[CommandWord], start: int, module: str) -> int | None:
    index = start
    while index < len(words):
        text = words[index].display
        if text == "-m":
            found = index + 1 < len(words) and words[index + 1].display == module
            return index + 2 if found else None
        if text.startswith("-m"):
            return index + 1 if text[2:] == module else None
        if not text.startswith("-"):
            return None
        index += 2 if text in _PYTHON_WITH_VALUE else 1
    return None


class VcsParts(NamedTuple):
    """Where the parts of a ``git+URL[@REF][#FRAGMENT]`` requirement are in a word's ``display``.

    Attributes:
        url: ``(start, end)`` of URL (after ``git+``, before ``@REF`` and ``#…``).
        ref: ``(start, end)`` of REF, or None when there is none (no ``@``, or nothing after it).
        at: the offset of the ``@`` that separates the revision, or None when there is none; ``ref`` is
            None and ``at`` is not for ``git+URL@`` (an empty revision, which pip refuses).
    """

    url: tuple[int, int]
    ref: tuple[int, int] | None
    at: int | None = None


def vcs_parts(display: str, literal: Sequence[bool]) -> VcsParts | None:
    """Find a pip VCS URL in a requirement word.

    The word may be the URL itself, ``--editable=URL`` or ``NAME @ URL`` (PEP 508); the URL ends at
    whitespace or ``;`` (an environment marker). pip splits the revision off the URL's path at the last
    ``@`` (pip's ``Git.get_url_rev_and_auth``: ``urlsplit`` then ``path.rsplit("@", 1)``), so an ``@`` in
    the user part (``git+ssh://git@host/o/r.git``) is not a revision and a revision may hold ``/``
    (``@feature/x``). For the scp-like form ``git+git@host:o/r.git@v1`` the path starts after ``:``.
    An ``@`` with nothing after it is an empty revision, which the same pip function refuses ("has an
    empty revision (after @) which is not supported"). Only literal characters count as separators (an
    ``@`` inside ``${V}`` is not one).

    Args:
        display: the word's display text.
        literal: per character of ``display``, whether it is literal (not part of an expansion).

    Returns:
        The parts, or None when the word holds no ``git+`` URL (``git+`` with nothing before ``@``, ``#``
        or the word's end is none).
    """
    start = _find_literal(display, literal, "git+", 0)
    while start != -1 and start > 0 and not (literal[start - 1] and display[start - 1] in " \t\n@="):
        start = _find_literal(display, literal, "git+", start + 1)
    if start == -1:
        return None
    url_start = start + 4
    end = len(display)
    for stop in " \t\n;#":
        found = _find_literal(display, literal, stop, url_start)
        if found != -1:
            end = min(end, found)
    scheme = _find_literal(display, literal, "://", url_start, end)
    if scheme != -1:
        slash = _find_literal(display, literal, "/", scheme + 3, end)
        path_start = end if slash == -1 else slash
    else:
        colon = _find_literal(display, literal, ":", url_start, end)
        path_start = url_start if colon == -1 else colon + 1
    at = _rfind_literal(display, literal, "@", path_start, end)
    if (end if at == -1 else at) == url_start:
        return None  # "git+" and no URL: pip refuses it, and it names no remote
    if at == -1:
        return VcsParts((url_start, end), None)
    if at + 1 == end:
        return VcsParts((url_start, at), None, at)
    return VcsParts((url_start, at), (at + 1, end), at)


def _find_literal(text: str, literal: Sequence[bool], sub: str, start: int, end: int | None = None) -> int:
    end = len(text) if end is None else end
    index = text.find(sub, start, end)
    while index != -1 and not all(literal[index : index + len(sub)]):
        index = text.find(sub, index + 1, end)
    return index


def _rfind_literal(text: str, literal: Sequence[bool], sub: str, start: int, end: int) -> int:
    index = text.rfind(sub, start, end)
    while index != -1 and not literal[index]:
        index = text.rfind(sub, start, index)
    return index


# --- shells and wrappers --------------------------------------------------------------------------------

SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "ash", "mksh"})
_SHELL_WITH_VALUE = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


class ShellScript(NamedTuple):
    """Where a shell invocation takes its script from.

    Attributes:
        command: index of the ``-c`` string, or None when the script comes from standard input.
    """

    command: int | None


def shell_script(words: Sequence[CommandWord], start: int) -> ShellScript | None:
    """How ``bash [options] [-c STRING | FILE]`` (bash(1) "INVOCATION") gets its commands.

    Args:
        words: the command's words.
        start: the index of the first word after the shell's name.

    Returns:
        ``ShellScript(i)`` for ``-c`` (also inside ``-ec``, ``-lc``), ``ShellScript(None)`` when the shell
        reads standard input (no file argument, or ``-s``), None when it runs a script file.
    """
    reads_command = False
    index = start
    while index < len(words):
        text = words[index].literal_prefix
        if text == "--" or text == "-":
            index += 1
            break
        if text in _SHELL_WITH_VALUE:
            index += 2
            continue
        if text.startswith("--"):
            index += 1
            continue
        if text[:1] in ("-", "+") and len(text) > 1:
            if text[0] == "-" and "c" in text[1:]:
                reads_command = True
            if text[0] == "-" and "s" in text[1:] and not reads_command:
                return ShellScript(None)
            index += 1
            continue
        break
    if reads_command:
        return ShellScript(index) if index < len(words) else None
    return ShellScript(None) if index >= len(words) else None


class Wrapped(NamedTuple):
    """A command run by a wrapper (``sudo git clone …``).

    Attributes:
        command: index of the wrapped command's first word, or None when the wrapper runs nothing.
        environment: indexes of ``NAME=VALUE`` words the wrapper puts in the command's environment
            (``env`` and ``sudo`` take them).
        directory: the directory the wrapper runs the command in (``env -C DIR``), or None.
    """

    command: int | None
    environment: tuple[int, ...] = ()
    directory: WordPart | None = None


_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")

#: wrapper → (options that take a separate value, whether the command follows a positional argument).
_WRAPPERS: dict[str, tuple[frozenset[str], bool]] = {
    "sudo": (
        frozenset(
            {
                "-u",
                "-g",
                "-C",
                "-D",
                "-h",
                "-p",
                "-r",
                "-t",
                "-T",
                "-U",
                "--user",
                "--group",
                "--chdir",
                "--host",
                "--prompt",
                "--role",
                "--type",
                "--command-timeout",
                "--other-user",
                "--close-from",
            }
        ),
        False,
    ),
    "doas": (frozenset({"-u", "-C"}), False),
    "env": (frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}), False),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), False),
    "exec": (frozenset({"-a"}), False),
    "command": (frozenset(), False),
    "builtin": (frozenset(), False),
    "nice": (frozenset({"-n", "--adjustment"}), False),
    "nohup": (frozenset(), False),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), False),
    "timeout": (frozenset({"-k", "--kill-after", "-s", "--signal"}), True),
}

WRAPPERS = frozenset(_WRAPPERS)


def unwrap(name: str, words: Sequence[CommandWord], start: int) -> Wrapped:
    """The command that a wrapper (``sudo``, ``env``, ``time``, ``exec``, ``command``, ``nice``, ``nohup``,
    ``stdbuf``, ``timeout``, ``builtin``, ``doas``) runs.

    ``command -v``/``-V`` only looks a command up, so it runs nothing.

    Args:
        name: the wrapper's name (one of :data:`WRAPPERS`).
        words: the command's words.
        start: the index of the first word after the wrapper's name.

    Returns:
        Where the wrapped command starts, and what the wrapper adds to its environment.
    """
    with_value, skips_positional = _WRAPPERS[name]
    environment: list[int] = []
    directory: WordPart | None = None
    index = start
    while index < len(words):
        text = words[index].literal_prefix
        if text == "--":
            index += 1
            break
        if name == "command" and text in ("-v", "-V"):
            return Wrapped(None)
        if name in ("env", "sudo") and _ASSIGNMENT_WORD.match(text):
            environment.append(index)
            index += 1
            continue
        if not text.startswith("-") or text == "-":
            break
        option, equals, _ = text.partition("=")
        if name == "env" and option in ("-C", "--chdir"):
            directory = WordPart(index, len(option) + 1) if equals else WordPart(index + 1)
        index += 2 if text in with_value else 1
    while (
        name in ("env", "sudo") and index < len(words) and _ASSIGNMENT_WORD.match(words[index].literal_prefix)
    ):
        environment.append(index)
        index += 1
    if skips_positional:
        index += 1
    if index >= len(words):
        return Wrapped(None, tuple(environment), directory)
    return Wrapped(index, tuple(environment), directory)


def cd_target(words: Sequence[CommandWord], start: int) -> int | None:
    """The index of ``cd``'s directory word (after ``-L``/``-P``/``-e``/``-@`` and ``--``), or None."""
    index = start
    while index < len(words):
        text = words[index].display
        if text == "--":
            return index + 1 if index + 1 < len(words) else None
        if text in ("-L", "-P", "-e", "-@", "-LP", "-PL", "-Pe", "-eP"):
            index += 1
            continue
        return index
    return None


def assignment_names(words: Sequence[CommandWord], start: int) -> list[int]:
    """The indexes of the variable-name words of ``read [options] NAME…`` (bash(1) "read")."""
    names: list[int] = []
    index = start
    while index < len(words):
        text = words[index].display
        if text in ("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"):
            index += 2
            continue
        if not text.startswith("-") and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
            names.append(index)
        index += 1
    return names
