"""A remote's default branch: asked only when a suggestion needs it, once per URL, and cached.

``git ls-remote --heads --tags`` lists branches and tags, not ``HEAD``, so the ref list does not say
which branch a clone without ``--branch`` gets. When a pin asks for a branch that does not exist under a
name that usually means "the default branch" (``--branch main`` on a remote whose default is ``master``),
RL001 suggests the remote's real default branch; only then is it asked for, with ``git ls-remote --symref
-- URL HEAD``, which prints ``ref: refs/heads/master<TAB>HEAD`` before HEAD's commit (git-ls-remote(1),
``--symref``). The answer is kept in the ref list's cache entry, so it is asked once per URL for as long
as the entry lives.

It runs as every lookup does: through the same git runners (:func:`ascend_reflint.lookup.start_runners`),
in the environment the URL may have (credentials only for the hosts the user allowed), with ``--`` before
the URL, never interactively, each git bounded by ``--timeout`` and by its share of ``--lookup-memory``.
A failure leaves the ref list as it was (no suggestion, nothing cached); ``--offline`` asks nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from ascend_reflint.lookup import LookupOptions, LookupStats, start_runners
from ascend_reflint.lookup.cache import RefCache, cache_key, default_cache_dir
from ascend_reflint.lookup.credentials import CredentialPolicy
from ascend_reflint.model import RemoteRefs
from ascend_reflint.output import log_debug

_SYMREF = "ref: refs/heads/"


def symref_args(url: str) -> list[str]:
    """``ls-remote --symref -- URL HEAD``: ``--`` so that no URL can read as an option."""
    return ["ls-remote", "--symref", "--", url, "HEAD"]


def parse_symref(output: str) -> str:
    """The branch named by the ``ref: refs/heads/NAME<TAB>HEAD`` line of ``git ls-remote --symref``
    output, or ``""`` when there is none (HEAD is detached, or the server does not say)."""
    for line in output.splitlines():
        name, tab, ref = line.partition("\t")
        if tab and ref == "HEAD" and name.startswith(_SYMREF):
            return name[len(_SYMREF) :]
    return ""


def default_branches(
    requests: Mapping[str, tuple[str, RemoteRefs]], options: LookupOptions, stats: LookupStats
) -> dict[str, RemoteRefs]:
    """Each ref list of ``requests`` with its :attr:`~ascend_reflint.model.RemoteRefs.default_branch`.

    Args:
        requests: lookup key → (the URL a pin gave, its ref list); lists that already know their default
            branch (from the cache) are returned as they are.
        options: the lookup options (timeout, jobs, cache, offline, credentials).
        stats: counts ``lookups`` and collects notices.

    Returns:
        lookup key → the ref list, with ``default_branch`` set where git answered. Never raises for a
        failed lookup.
    """
    asked = {key: (url, refs) for key, (url, refs) in requests.items() if refs.default_branch is None}
    results = {key: refs for key, (_, refs) in requests.items()}
    if not asked or options.offline:
        return results
    from ascend_reflint.lookup.git import git_directory

    cache = RefCache(options.cache_dir or default_cache_dir())
    policy = CredentialPolicy(options.credentials_for)
    with git_directory() as directory:
        started = start_runners(options.timeout, directory, options.credentials_for)
        if isinstance(started, str):
            return results
        runners, notice = started
        if notice is not None:
            stats.notice(notice)

        workers = min(options.jobs or len(asked), len(asked))
        # The lookups' memory budget, shared: git holds a whole ref advertisement, which a server can
        # make endless (one such answer grew git to 1.7 GB in 5 s).
        share = options.memory // workers

        def ask(url: str) -> str | None:
            log_debug("git %s", " ".join(symref_args(url)))  # the handler masks credentials
            run = runners.for_url(url).run(symref_args(url), max_memory=share)
            stats.lookups += 1
            return parse_symref(run.stdout) if run.returncode == 0 and run.stopped is None else None

        with ThreadPoolExecutor(workers, thread_name_prefix="reflint-head") as pool:
            try:
                answers = dict(zip(asked, pool.map(ask, [url for url, _ in asked.values()]), strict=True))
            except BaseException:
                runners.kill_all()
                raise
    for key, branch in answers.items():
        if branch is None:
            continue
        url, refs = asked[key]
        results[key] = refs._replace(default_branch=branch)
        problem = cache.store(cache_key(key, policy.allows(url)), results[key])
        if problem is not None:
            stats.notice(problem)
    return results
