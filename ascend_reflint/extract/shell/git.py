"""The handler of ``git``: what ``clone``, ``init``, ``remote add``/``set-url``, ``fetch``, ``pull`` and
``checkout``/``switch``/``reset --hard`` do to the session's repositories (the command-line syntax is
:mod:`ascend_reflint.extract.commands.git`'s; what a checkout pins is :mod:`.repos`').

- ``git clone`` records a clone, in the directory it names (git-clone(1): the last path component of the
  URL, ``.git`` and a trailing ``/`` removed, ``NAME.git`` for ``--bare``), with its remote (``origin``, or
  ``-o NAME``); ``--revision REF`` checks REF out.
- ``git init [DIR]`` records a repository without remotes; ``git remote add NAME URL`` and ``git remote
  set-url NAME URL`` give the repository in the current directory a remote.
- ``git fetch [REMOTE|URL] REF`` sets what FETCH_HEAD names (``--unshallow`` gives a clone its history); a
  fetch of a URL into a directory that holds no repository yet makes one. ``git pull [REMOTE|URL] REF``
  fetches REF and merges it: a checkout of what it fetched.
- ``git checkout REF`` (``switch``, ``reset --hard|--keep``) in a repository's work tree is a checkout of
  that repository (see :mod:`.repos` for what it pins). A checkout in the directory that a clone was just
  made from, outside every repository, is recorded as a command issue (RL019), and so is an option left
  without its value (RL018).
- ``submodule.recurse`` (``git -c``, ``git clone -c``, ``git config``) makes a later checkout recurse into
  the submodules, as ``git submodule update`` after it does (RL027).
- ``git describe``, ``log``, ``rev-list``, ``shortlog``, ``merge-base``, ``cherry-pick``, ``rebase`` and
  ``bisect`` in a shallow clone read more of its history than it holds: the first is recorded on the clone's
  pins (RL003).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from ascend_reflint.extract.commands.git import (
    CloneCommand,
    FetchCommand,
    checkout_ref_name,
    checkout_target,
    config_bool,
    is_relative_ref,
    names_submodule_recurse,
    options_without_value,
    parse_clone,
    parse_config,
    parse_fetch,
    parse_git,
    parse_init,
    parse_remote,
    submodule_recurse_setting,
)
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.dirs import Dir, join
from ascend_reflint.extract.shell.parse import Text
from ascend_reflint.extract.shell.repos import Checkout, Fetched, Made, Repository, parse_depth
from ascend_reflint.extract.shell.values import Value, empty_ref
from ascend_reflint.extract.shell.words import Word
from ascend_reflint.model import (
    CloneLayout,
    CommandIssue,
    Fetch,
    FileKind,
    HistoryRead,
    IssueKind,
    Related,
    Resolution,
    Span,
)
from ascend_reflint.remote import redact, repo_dir_name

_SCP_LIKE_URL = re.compile(r"^[\w.-]+@[\w.-]+:")
#: git's ``<transport>::<address>`` form for remote helpers (git-remote-helpers(7)).
_HELPER_TRANSPORT = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")
_SUBCOMMANDS_WITH_OPTIONS = ("clone", "fetch", "pull", "checkout", "switch")
#: Subcommands that read commits or tags beyond the one checked out (git-describe(1) needs a tag that HEAD
#: descends from; log, rev-list and shortlog walk the history behind HEAD; the others need other commits):
#: in a shallow clone they fail, or answer from the few commits it holds (``git rev-list --count HEAD``
#: says 1).
_READS_HISTORY = frozenset(
    {"describe", "log", "rev-list", "shortlog", "merge-base", "cherry-pick", "rebase", "bisect"}
)
#: What limits ``log``/``rev-list`` to one commit, which a shallow clone holds (``git log -1 --format=%H``).
_ONE_COMMIT = frozenset({"-1", "-n1", "--max-count=1"})
_COUNT_OPTIONS = frozenset({"-n", "--max-count"})
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
    if subcommand in _SUBCOMMANDS_WITH_OPTIONS:
        _options_without_value(walker, command, subcommand, start)
    if subcommand == "clone":
        _clone(walker, command, start, repository, command_span)
    elif subcommand in ("checkout", "switch", "reset"):
        _checkout(walker, command, subcommand, start, repository, command_span)
    elif subcommand in ("fetch", "pull"):
        _fetch(walker, command, start, repository, command_span, pull=subcommand == "pull")
    elif subcommand == "init":
        _init(walker, command, start, repository, command_span)
    elif subcommand == "remote":
        _remote(walker, command, start, repository)
    elif subcommand == "submodule":
        _submodule(walker, command, start, repository)
    elif subcommand == "config":
        _config(walker, command, start, repository)
    elif subcommand in _READS_HISTORY:
        _history_read(walker, command, subcommand, start, repository, command_span)


def _history_read(
    walker: Walker, command: Command, subcommand: str, start: int, cwd: Dir, command_span: Span
) -> None:
    """Record on a shallow clone the first command run in it that reads more than one commit."""
    repository = walker.repositories.find(cwd)
    if repository is None or not repository.shallow or repository.history_read is not None:
        return
    words = [word.display for word in command.words[start:]]
    # Each word with the one after it (the last with ""); `git log` alone has no words at all.
    one_commit = any(
        word in _ONE_COMMIT or (word in _COUNT_OPTIONS and following == "1")
        for word, following in zip(words, [*words[1:], ""], strict=False)
    )
    if subcommand in ("log", "rev-list") and one_commit:
        return
    repository.history_read = HistoryRead(f"git {subcommand}", command_span)


def _options_without_value(walker: Walker, command: Command, subcommand: str, start: int) -> None:
    """Record each option of the command that takes a value and has none (RL018), and whether a comment
    took it: ``-b #8f3c…`` (in a Dockerfile RUN the comment runs to the end of the whole RUN)."""
    text = command.text
    for index in options_without_value(subcommand, command.words, start):
        word = command.words[index]
        end = word.bounds()[1]
        rest = text.text[end:]
        after = rest[len(rest) - len(rest.lstrip(" \t")) :]
        comment = after.split("\n", 1)[0] if after.startswith("#") else None
        walker.sink.issues.append(
            CommandIssue(
                kind=IssueKind.OPTION_WITHOUT_VALUE,
                path=walker.sink.path,
                span=walker.expander.expand(word, text, walker.env.scope).span,
                command=f"git {subcommand}",
                subject=word.display,
                detail=comment,
                rest_of_run=comment is not None and walker.sink.kind is FileKind.DOCKERFILE,
                stage=walker.sink.stage,
            )
        )


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
    url = _repository_value(walker, command, clone.url, clone.directory)
    branch = empty_ref(expand(command.part(clone.branch), text, scope)) if clone.branch else None
    revision = empty_ref(expand(command.part(clone.revision), text, scope)) if clone.revision else None
    depth = expand(command.part(clone.depth), text, scope).value if clone.depth else None
    origin = (expand(command.part(clone.origin), text, scope).value if clone.origin else None) or "origin"
    path: Dir | None
    if clone.directory is not None:
        path = walker.directory(parent, words[clone.directory], text, scope)
    else:
        name = repo_dir_name(url.value if url.value is not None else words[clone.url].display)
        if name and clone.bare:
            name += ".git"
        path = _directory_named(walker, parent, name, text)
    walker.repositories.add(
        Repository(
            made=Made.CLONE,
            command_span=clone_span,
            parent=parent,
            path=path,
            remotes={origin: url},
            origin=origin,
            branch=branch,
            revision=revision,
            depth=parse_depth(depth),
            shallow=clone.shallow,
            single_branch=clone.single_branch,
            one_branch=clone.one_branch,
            no_tags=clone.no_tags,
            recurse_submodules=clone.recurse_submodules,
            submodule_recurse=_last_recurse_setting(
                words[part.word].display[part.offset :] for part in clone.settings
            ),
            call_sites=walker.sink.call_sites,
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
    written: list[Span] = []
    for name, first, last in clone.options:
        display = words[first].display
        if name not in _REMOVABLE or not (display.startswith("--") or display.startswith("-b")):
            continue
        if any(words[index].provenance is not None for index in range(first - 1, last + 1)):
            continue
        options.append((name, walker.expander.span(text, _raw_end(words[first - 1]), _raw_end(words[last]))))
        written.append(walker.expander.span(text, words[first].start, _raw_end(words[last])))
    end: Span | None = None
    last_end = _raw_end(words[-1])
    if words[-1].provenance is None and _ENDS_COMMAND.match(text.text, last_end):
        after = walker.expander.span(text, last_end - 1, last_end)
        end = Span(after.end_line, after.end_column, after.end_line, after.end_column)
    return CloneLayout(end, _clone_directory(command, clone, url), tuple(options), tuple(written))


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


def _repository_value(walker: Walker, command: Command, index: int, following: int | None) -> Value:
    """The value of the repository word ``index`` of a clone or fetch; when the file shows it empty
    (RL012), the note says what git does instead: an unquoted expansion vanishes, so git takes the word
    ``following`` it as the repository."""
    word = command.words[index]
    value = walker.expander.expand(word, command.text, walker.env.scope)
    if value.resolution is Resolution.EMPTY and not any(quote in word.raw for quote in "\"'"):
        if following is not None:
            taken = command.words[following].written() or command.words[following].display
            value.note = (
                f"{value.note}; unquoted, it vanishes, so git takes the next word, "
                f'"{taken}", as the repository'
            )
        else:
            value.note = f"{value.note}; unquoted, it vanishes, so git gets no repository"
    return value


def _directory_named(walker: Walker, parent: Dir, name: str, text: Text) -> Dir | None:
    """The directory a clone makes from the name its URL gives: None when the name is not known statically,
    unless it is ``$(basename X)`` (``git clone URL/$(basename "$D").git``)."""
    if not name:
        return None
    if "$" not in name and "`" not in name:
        return join(parent, name)
    if name.startswith(("$(basename", "`basename")):
        found = walker.directory(parent, Word.parse(name, 0), text, walker.env.scope)
        return None if found[0].startswith("$(") else found
    return None


def _init(walker: Walker, command: Command, start: int, cwd: Dir, init_span: Span) -> None:
    """``git init [DIR]``: a repository without remotes (none for ``--bare``, which has no work tree)."""
    directory = parse_init(command.words, start)
    if directory is False:
        return
    path = cwd
    if isinstance(directory, int):
        path = walker.directory(cwd, command.words[directory], command.text, walker.env.scope)
    if walker.repositories.at(path) is None:  # git init in a repository re-initialises it
        repository = Repository(made=Made.INIT, command_span=init_span, parent=cwd, path=path)
        repository.call_sites = walker.sink.call_sites
        walker.repositories.add(repository)


def _remote(walker: Walker, command: Command, start: int, cwd: Dir) -> None:
    """``git remote add NAME URL``, ``git remote set-url NAME URL``: a remote of the repository here."""
    remote = parse_remote(command.words, start)
    repository = walker.repositories.find(cwd)
    if remote is None or repository is None:
        return
    expand, text, scope = walker.expander.expand, command.text, walker.env.scope
    name = expand(command.words[remote.name], text, scope).value
    if name is not None:
        repository.remotes[name] = expand(command.words[remote.url], text, scope)


def _checkout(
    walker: Walker, command: Command, subcommand: str, start: int, cwd: Dir, command_span: Span
) -> None:
    target = checkout_target(subcommand, command.words, start)
    if target is None:
        return
    ref = walker.expander.expand(command.words[target], command.text, walker.env.scope)
    repository = walker.repositories.find(cwd)
    if repository is None:
        _outside_clone(walker, command, ref, cwd, command_span)
        return
    if ref.value is not None and is_relative_ref(ref.value):
        return
    checkout = _checkout_of(repository, ref)
    if checkout is not None:
        recursing = _recurses(walker, command, start, target, repository)
        # In a folder below a recursive clone's top, git may be working in a submodule (`cd docs/sub &&
        # git checkout X` checks out the submodule's X): whose submodules stay behind is not known.
        below_top = repository.recurse_submodules and cwd != repository.path
        repository.checkouts.append(
            checkout._replace(call_sites=walker.sink.call_sites, submodules_updated=recursing or below_top)
        )


def _recurses(walker: Walker, command: Command, start: int, target: int, repository: Repository) -> bool:
    """Whether a checkout recurses into the submodules: by its own ``--[no-]recurse-submodules``, else by
    ``submodule.recurse`` given to ``git -c``, set in the repository's configuration, or set for every
    repository (git-config(1): the command line wins over ``-c``, ``-c`` over the files, the repository's
    file over the user's)."""
    words = command.words
    for word in reversed(words[start:target]):
        if word.display.startswith("--recurse-submodules") or word.display == "--no-recurse-submodules":
            return not word.display.startswith("--no-")
    given = _last_recurse_setting(
        words[index + 1].display for index in range(start - 1) if words[index].display == "-c"
    )
    for setting in (given, repository.submodule_recurse, walker.repositories.submodule_recurse):
        if setting is not None:
            return setting
    return False


def _last_recurse_setting(settings: Iterable[str]) -> bool | None:
    """What the last of ``NAME=VALUE`` ``settings`` that sets ``submodule.recurse`` says, None when none
    does."""
    found = None
    for setting in settings:
        value = submodule_recurse_setting(setting)
        found = value if value is not None else found
    return found


def _config(walker: Walker, command: Command, start: int, cwd: Dir) -> None:
    """``git config [--global] submodule.recurse VALUE`` (``--unset``): whether later checkouts in the
    repository here (in every repository, for ``--global`` and ``--system``) recurse into its submodules."""
    config = parse_config(command.words, start)
    if config is None or not names_submodule_recurse(command.words[config.name].display):
        return
    value = None if config.value is None else config_bool(command.words[config.value].display)
    if config.everywhere:
        walker.repositories.submodule_recurse = value
        return
    repository = walker.repositories.find(cwd)
    if repository is not None:
        repository.submodule_recurse = value


def _submodule(walker: Walker, command: Command, start: int, cwd: Dir) -> None:
    """``git submodule update``: the submodules of the repository at ``cwd`` follow its checkouts so far."""
    if not any(word.display == "update" for word in command.words[start:]):
        return
    repository = walker.repositories.find(cwd)
    if repository is not None:
        repository.checkouts = [
            checkout._replace(submodules_updated=True) for checkout in repository.checkouts
        ]


def _checkout_of(repository: Repository, ref: Value) -> Checkout | None:
    """What a checkout of ``ref`` in ``repository`` pins (see :mod:`.repos`), or None when nothing."""
    fetched = repository.fetched
    url, source = repository.url, repository.command_span
    fetch: Fetch | None = None
    if ref.value == "FETCH_HEAD":
        if fetched is None:
            if url is None:
                return None
            ref.value, ref.resolution = None, Resolution.UNRESOLVED
            ref.note = "FETCH_HEAD names no ref that this script fetched"
        else:
            ref, url = fetched.ref, fetched.url
            source = source if url is repository.url else fetched.command_span
    elif ref.value is not None:
        remote, name = _remote_and_name(repository, ref.value)
        if remote is not None:
            url = repository.remotes[remote]
        elif fetched is not None and name == fetched.ref.value:
            url = fetched.url
            source = source if url is repository.url else fetched.command_span
            fetch = _fetch_facts(repository, fetched)
        if ref.provenance is not None and name != ref.value:  # origin/NAME: NAME is written after it
            size = len(ref.value)
            ref.provenance = ref.provenance.part(size - len(name), size, size)
        ref.value = name
    if url is None:
        return None  # a repository that no clone made holds nothing but what it fetched
    return Checkout(empty_ref(ref), url, source, fetched, fetch, repository.shallow, repository.depth, ())


def _remote_and_name(repository: Repository, ref: str) -> tuple[str | None, str]:
    """The remote that ``ref`` names (``NAME/REF``, ``remotes/NAME/REF`` for a remote of the repository)
    and the branch or tag name it checks out (gitrevisions(7))."""
    for remote in repository.remotes:
        name = checkout_ref_name(ref, remote)
        if name != ref and not ref.startswith(("tags/", "refs/tags/", "heads/", "refs/heads/")):
            return remote, name
    return None, checkout_ref_name(ref, repository.origin or "origin")


def _fetch_facts(repository: Repository, fetched: Fetched) -> Fetch:
    """How the fetch that named the ref a checkout names stored it (RL020 reads it)."""
    named_remote = fetched.remote is not None
    from_clone = named_remote and fetched.remote == repository.origin and repository.made is Made.CLONE
    return Fetch(
        span=fetched.ref.span,
        by_url=not named_remote,
        tag=fetched.tag,
        tracked_branch=repository.tracked_branch() if from_clone else None,
        has_tags=from_clone and not repository.one_branch and not repository.no_tags,
    )


def _outside_clone(walker: Walker, command: Command, ref: Value, cwd: Dir, command_span: Span) -> None:
    """A checkout in a directory that holds no repository, just after a clone into a folder of it
    (``git clone URL sub && git checkout REF``, no ``cd sub``): RL019."""
    clone = walker.repositories.cloned_into(cwd)
    if clone is None or cwd[0].startswith("$(") or (ref.value is not None and is_relative_ref(ref.value)):
        return
    url = clone.url
    url_text = redact(
        url.value if url is not None and url.value is not None else (url.written if url else "")
    )
    folder = posixpath.basename(clone.path[1]) if clone.path is not None else None
    words = command.words
    shown = " ".join(word.written() or word.display for word in words[command.name_index :])
    span = command_span if not ref.written else ref.span
    related = Related(
        walker.sink.path,
        clone.command_span.line,
        clone.command_span.column,
        f"the clone of {url_text}" + (f" into {folder}" if folder else ""),
    )
    walker.sink.issues.append(
        CommandIssue(
            kind=IssueKind.CHECKOUT_OUTSIDE_CLONE,
            path=walker.sink.path,
            span=span,
            command=shown if len(shown) <= 80 else shown[:79] + "…",
            subject=ref.written or "",
            detail=folder,
            related=(related,),
            stage=walker.sink.stage,
        )
    )


def _fetch(
    walker: Walker, command: Command, start: int, cwd: Dir, fetch_span: Span, pull: bool = False
) -> None:
    """``git fetch`` (``git pull``): what FETCH_HEAD names in the repository here (see
    :class:`.repos.Fetched`); a fetch of a URL into a directory without a repository makes one."""
    words, text = command.words, command.text
    fetch = parse_fetch(words, start, pull=pull)
    ref = None
    if fetch.refspec is not None:
        ref = empty_ref(walker.expander.expand(command.part(fetch.refspec).cut(":"), text, walker.env.scope))
    empty = (
        _repository_value(walker, command, fetch.repository, fetch.refspec.word)
        if (fetch.repository is not None and fetch.refspec is not None)
        else None
    )
    if empty is not None and empty.resolution is not Resolution.EMPTY:
        empty = None
    by_url = empty is not None or (
        fetch.repository is not None and _names_remote(walker, words[fetch.repository], text, paths=True)
    )
    repository = walker.repositories.find(cwd)
    if repository is None:
        if ref is None or not by_url:
            return
        repository = _fetched_into(walker, command, fetch, cwd, fetch_span)
    if fetch.unshallow:
        repository.shallow, repository.depth = False, None
    elif fetch.shallow and repository.made is not Made.FETCH:
        depth = None
        if fetch.depth is not None:
            depth = walker.expander.expand(command.part(fetch.depth), text, walker.env.scope).value
        repository.shallow, repository.depth = True, parse_depth(depth)
    if ref is None:
        return
    remote: str | None = None
    if empty is not None:
        url = empty  # the file shows the repository empty: RL012
    elif by_url:
        assert fetch.repository is not None
        url = walker.expander.expand(words[fetch.repository], text, walker.env.scope)
    else:
        remote = words[fetch.repository].display if fetch.repository is not None else repository.origin
        url_of = repository.remotes.get(remote) if remote is not None else None
        if url_of is None:
            url_of = repository.url  # a remote reflint did not see added: the clone's own, as before
        if url_of is None:
            return
        url = url_of
    repository.fetched = Fetched(url, ref, fetch_span, remote, fetch.tag)
    if pull:
        repository.checkouts.append(
            Checkout(
                ref, url, fetch_span, repository.fetched, None, repository.shallow, repository.depth, ()
            )._replace(call_sites=walker.sink.call_sites)
        )


def _fetched_into(
    walker: Walker, command: Command, fetch: FetchCommand, cwd: Dir, fetch_span: Span
) -> Repository:
    """The repository that ``git fetch [--depth N] URL REF`` makes in a directory that had none."""
    expand, text, scope = walker.expander.expand, command.text, walker.env.scope
    depth = expand(command.part(fetch.depth), text, scope).value if fetch.depth else None
    repository = Repository(
        made=Made.FETCH,
        command_span=fetch_span,
        parent=cwd,
        path=cwd,
        depth=parse_depth(depth),
        shallow=fetch.shallow,
        call_sites=walker.sink.call_sites,
    )
    walker.repositories.add(repository)
    return repository
