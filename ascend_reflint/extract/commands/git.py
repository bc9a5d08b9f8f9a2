"""What a git command line asks for: global options, ``clone``, ``checkout``/``switch``/``reset``, ``fetch``.

Sources of the option tables: git(1) "OPTIONS" (global options, parsed by git.c: no abbreviation, no
bundling), git-clone(1), git-checkout(1), git-switch(1), git-reset(1), git-fetch(1) (parsed by git's
parse-options, see :func:`~ascend_reflint.extract.commands.options.parse_options`), gitrevisions(7).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ascend_reflint.extract.commands.options import CommandWord, OptionTable, WordPart, parse_options

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


#: git pull: fetch's options and merge's (git-pull(1)).
_PULL = OptionTable(
    with_value=_FETCH.with_value | {"strategy", "strategy-option", "gpg-sign"},
    optional_value=_FETCH.optional_value | {"rebase", "log", "signoff", "gpg-sign"},
    flags=_FETCH.flags
    | {"ff", "no-ff", "ff-only", "squash", "no-squash", "commit", "no-commit", "autostash", "no-rebase"},
    short={**_FETCH.short, "s": "strategy", "X": "strategy-option", "r": "rebase"},
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
        revision: the ``--revision`` value (git 2.49: fetch that ref or commit and detach HEAD at it), or
            None.
        no_tags: ``--no-tags`` (no tag is fetched, then or later).
        one_branch: the clone fetches one branch only, now and on later fetches: ``--single-branch``, or
            ``--depth`` without ``--no-single-branch``.
        options: ``(canonical name, first word, last word)`` of each option given, in order (the last word
            is the value's when the value is a word of its own), for fixes that remove one.
        settings: the ``--config``/``-c`` values (``NAME=VALUE``), in order: git-clone(1) writes them to the
            new repository's configuration before it fetches or checks out anything.
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
    revision: WordPart | None = None
    no_tags: bool = False
    one_branch: bool = False
    options: tuple[tuple[str, int, int], ...] = ()
    settings: tuple[WordPart, ...] = ()


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
    revision = parsed.last("revision")
    tags = parsed.last("tags", "no-tags")
    shallow = parsed.has("depth", "shallow-since", "shallow-exclude")
    return CloneCommand(
        url=positionals[url_at],
        directory=directory,
        branch=branch[2] if branch else None,
        depth=depth[2] if depth else None,
        shallow=shallow,
        single_branch=single is not None and single[0] == "single-branch",
        recurse_submodules=recurse is not None and recurse[0] == "recurse-submodules",
        bare=parsed.has("bare", "mirror"),
        origin=origin[2] if origin else None,
        revision=revision[2] if revision else None,
        no_tags=tags is not None and tags[0] == "no-tags",
        # --depth implies --single-branch unless --no-single-branch is given (git-clone(1))
        one_branch=single[0] == "single-branch" if single is not None else shallow,
        options=tuple(
            (name, index, value.word if value is not None else index) for name, index, value in parsed.options
        ),
        settings=tuple(value for name, _, value in parsed.options if name == "config" and value is not None),
    )


class ConfigCommand(NamedTuple):
    """``git config`` setting or unsetting one variable (git-config(1)).

    Attributes:
        name: index of the variable's name.
        value: index of its value, or None when the command unsets the variable.
        everywhere: the setting is the user's or the machine's (``--global``, ``--system``), for every
            repository; else the repository's own (``--local``, the default, or ``--worktree``).
    """

    name: int
    value: int | None
    everywhere: bool


_CONFIG = OptionTable(
    with_value=frozenset({"file", "blob", "type", "default", "comment", "value", "url"}),
    flags=frozenset(
        {
            "global",
            "system",
            "local",
            "worktree",
            "get",
            "get-all",
            "get-regexp",
            "get-urlmatch",
            "replace-all",
            "add",
            "unset",
            "unset-all",
            "rename-section",
            "remove-section",
            "list",
            "fixed-value",
            "bool",
            "int",
            "bool-or-int",
            "path",
            "expiry-date",
            "no-type",
            "null",
            "name-only",
            "show-origin",
            "show-scope",
            "get-color",
            "get-colorbool",
            "edit",
            "includes",
            "no-includes",
            "all",
            "regexp",
        }
    ),
    short={"f": "file", "l": "list", "z": "null", "e": "edit"},
)
#: git-config(1) options that make the command read, edit or rename (no variable's value is written), or
#: work on another file than the repository's or the user's (``--file``, ``--blob``).
_CONFIG_OTHER_ACTIONS = frozenset(
    {"get", "get-all", "get-regexp", "get-urlmatch", "rename-section", "remove-section", "list", "get-color"}
    | {"get-colorbool", "edit", "file", "blob"}
)
#: git 2.46's ``git config`` subcommands (git-config(1) "COMMANDS").
_CONFIG_SUBCOMMANDS = frozenset({"list", "get", "set", "unset", "rename-section", "remove-section", "edit"})


def parse_config(words: Sequence[CommandWord], start: int) -> ConfigCommand | None:
    """Read ``git config [--global|--system|--local] NAME VALUE`` (also ``--add``, ``--replace-all``, and
    git 2.46's ``git config set NAME VALUE``) and ``git config --unset NAME`` (``--unset-all``, ``unset``)
    from ``words[start:]``; None for a command that reads, edits another file (``--file``), or renames.
    """
    action = words[start].display if start < len(words) else ""
    if action in _CONFIG_SUBCOMMANDS and action not in ("set", "unset"):
        return None
    parsed = parse_options(words, _CONFIG, start + 1 if action in ("set", "unset") else start)
    if parsed.has(*_CONFIG_OTHER_ACTIONS):
        return None
    positionals = parsed.positionals
    unsets = action == "unset" or parsed.has("unset", "unset-all")
    if not positionals or (not unsets and len(positionals) < 2):
        return None
    return ConfigCommand(positionals[0], None if unsets else positionals[1], parsed.has("global", "system"))


def names_submodule_recurse(name: str) -> bool:
    """Whether a configuration variable's name is ``submodule.recurse`` (its section and key are
    case-insensitive: git-config(1) "Syntax").

    git-config(1): ``submodule.recurse`` makes the commands that have ``--recurse-submodules`` (checkout,
    switch, reset, …) recurse by default, all but clone.
    """
    return name.lower() == "submodule.recurse"


def submodule_recurse_setting(setting: str) -> bool | None:
    """What a ``NAME=VALUE`` setting (``git -c``, ``git clone -c``) says of ``submodule.recurse``: True or
    False, or None when it sets another variable or its value is no boolean. A name alone sets it true
    (git(1) "-c")."""
    name, equals, value = setting.partition("=")
    if not names_submodule_recurse(name):
        return None
    return config_bool(value) if equals else True


def config_bool(value: str) -> bool | None:
    """A git-config(1) boolean ("Values"): True for ``true``, ``yes``, ``on`` or a non-zero number, False
    for ``false``, ``no``, ``off``, ``0`` or nothing, None for anything else (git refuses it)."""
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off", ""):
        return False
    try:
        return int(lowered) != 0
    except ValueError:
        return None


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
    tag: bool = False


def parse_fetch(words: Sequence[CommandWord], start: int, pull: bool = False) -> FetchCommand:
    """Read ``git fetch [options] [REMOTE [REFSPEC…]]`` from ``words[start:]`` (git-fetch(1)); with
    ``pull``, ``git pull [options] [REMOTE [REFSPEC…]]`` (git-pull(1): fetch's options and merge's).

    ``tag NAME`` as a refspec means ``refs/tags/NAME:refs/tags/NAME``; its NAME word is returned, and
    ``tag`` is True.
    """
    parsed = parse_options(words, _PULL if pull else _FETCH, start)
    depth = parsed.last("depth")
    repository = parsed.positionals[0] if parsed.positionals else None
    refspecs = parsed.positionals[1:]
    refspec: WordPart | None = None
    tag = False
    if refspecs:
        first = refspecs[0]
        if words[first].display == "tag" and len(refspecs) > 1:
            first, tag = refspecs[1], True
        offset = 1 if words[first].literal_prefix.startswith("+") else 0
        refspec = WordPart(first, offset)
    return FetchCommand(
        refspec,
        parsed.has("unshallow"),
        repository=repository,
        depth=depth[2] if depth else None,
        shallow=parsed.has("depth", "shallow-since", "shallow-exclude"),
        tag=tag,
    )


_INIT = OptionTable(
    with_value=frozenset({"template", "separate-git-dir", "object-format", "ref-format", "initial-branch"}),
    optional_value=frozenset({"shared"}),
    flags=frozenset({"quiet", "bare"}),
    short={"q": "quiet", "b": "initial-branch"},
)


def parse_init(words: Sequence[CommandWord], start: int) -> int | bool | None:
    """The directory word of ``git init [options] [DIRECTORY]`` (git-init(1)): its index, None when the
    repository is the current directory, False for ``--bare`` (no work tree to check out in)."""
    parsed = parse_options(words, _INIT, start)
    if parsed.has("bare"):
        return False
    return parsed.positionals[0] if parsed.positionals else None


class RemoteCommand(NamedTuple):
    """``git remote add NAME URL`` or ``git remote set-url NAME URL`` (git-remote(1)).

    Attributes:
        name: index of the remote's name.
        url: index of its (new) URL.
    """

    name: int
    url: int


_REMOTE_ADD = OptionTable(
    with_value=frozenset({"track", "master"}),
    optional_value=frozenset({"mirror"}),
    flags=frozenset({"fetch", "tags", "no-tags", "verbose"}),
    short={"t": "track", "m": "master", "f": "fetch", "v": "verbose"},
)
_REMOTE_SET_URL = OptionTable(with_value=frozenset(), flags=frozenset({"push", "add", "delete"}))


def parse_remote(words: Sequence[CommandWord], start: int) -> RemoteCommand | None:
    """Read ``git remote add …`` or ``git remote set-url …`` (not ``--push``, which sets the push URL only,
    nor ``--delete``); None for any other ``git remote`` command."""
    index = start
    while index < len(words) and words[index].literal_prefix.startswith("-"):
        index += 1  # git remote -v add …
    if index >= len(words) or words[index].display not in ("add", "set-url"):
        return None
    action = words[index].display
    parsed = parse_options(words, _REMOTE_ADD if action == "add" else _REMOTE_SET_URL, index + 1)
    if parsed.has("push", "delete") or len(parsed.positionals) < 2:
        return None
    return RemoteCommand(parsed.positionals[0], parsed.positionals[1])


def options_without_value(subcommand: str, words: Sequence[CommandWord], start: int) -> list[int]:
    """The indexes of the options of ``git SUBCOMMAND`` (clone, fetch, pull, checkout, switch) that take a
    value and have none: the last word of the command (``git clone URL -b``, or ``-b #…``, whose ``#`` starts
    a comment). git refuses them ("switch `b' requires a value")."""
    table = _OPTION_TABLES.get(subcommand)
    if table is None:
        return []
    parsed = parse_options(words, table, start)
    return [index for name, index, value in parsed.options if value is None and name in table.with_value]


_OPTION_TABLES = {
    "clone": _CLONE,
    "fetch": _FETCH,
    "pull": _PULL,
    "checkout": _CHECKOUT,
    "switch": _SWITCH,
}
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
