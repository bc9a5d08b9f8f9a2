"""Pins in ``.gitmodules``: one per submodule, at the commit that the superproject's index records.

Facts used here (gitmodules(5), git-submodule(1), git-config(1)):

- ``.gitmodules`` is in git's configuration syntax (:mod:`ascend_reflint.extract.gitconfig`); each
  ``[submodule "NAME"]`` has a ``path`` and a ``url``, and may have ``branch`` (the remote branch that
  ``git submodule update --remote`` follows; ``.`` means "the superproject's current branch") and
  ``shallow`` (``true``: clone with a history depth of 1). For a key given twice the last one counts.
- The commit a submodule is pinned at is not in ``.gitmodules``: it is the gitlink that the index records
  for the path (mode 160000 in ``git ls-files --stage``); ``git submodule update`` checks that commit out.
  A ``.gitmodules`` entry without a gitlink is skipped by ``git submodule update``; a gitlink without an
  entry makes it fail ("No url found for submodule path").
- A URL that starts with ``./`` or ``../`` is relative to the superproject's default remote (git's
  ``relative_url``: each ``../`` drops the remote URL's last path component, after a trailing ``/`` or
  ``/.``; an scp-like ``host:path`` URL loses its ``:`` too when its path runs out). reflint takes
  ``origin``, read from the repository's config as data (:func:`ascend_reflint.worktree.origin_url`).

Outside a git work tree (an unpacked archive) there is no index, so the pins have no commit: their URLs
and branches are still checked, and a notice says that the commits could not be read. Git reads only the
``.gitmodules`` at the root of a work tree; one in a folder of a work tree without its own ``.git`` (a
vendored copy) gives a notice and no pins.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ascend_reflint.extract.gitconfig import ConfigValue, parse_git_config
from ascend_reflint.model import Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote
from ascend_reflint.sourcemap import LineIndex
from ascend_reflint.worktree import gitlinks, inside_work_tree, origin_url

_TRUE = frozenset({"true", "yes", "on", "1"})
_NO_ORIGIN = "a relative URL is relative to the superproject's remote origin, and no origin URL is known here"
_NOT_AT_ROOT = (
    "not at the root of a git work tree (a copy inside another repository?), so git does not read it: no "
    "submodule pins"
)
_NO_INDEX = (
    "no git index could be read here (not a git work tree, or git refused it), so the commits that the "
    "submodules are pinned at are unknown; their URLs and branches were checked"
)


@dataclass
class _Submodule:
    """The last value of each key of one ``[submodule "NAME"]`` (sections may repeat)."""

    name: str
    keys: dict[str, ConfigValue]


def extract_submodules(source: SourceFile) -> None:
    """Fill ``source.pins`` (one per submodule, in file order) and ``source.notices`` of a ``.gitmodules``.

    Args:
        source: the file, with ``text`` read; ``abspath``'s folder is where git is asked for the gitlinks.

    Raises:
        ExtractError: for text that git refuses to read as configuration.
    """
    assert source.text is not None
    submodules = _submodules(parse_git_config(source.text))
    folder = os.path.dirname(source.abspath)
    at_root = os.path.lexists(os.path.join(folder, ".git"))
    if not at_root and inside_work_tree(folder):
        source.notices.append(_NOT_AT_ROOT)
        return
    # git runs only at a work tree's root: a folder without .git that git would still take for a
    # repository is a bare one that a pull request committed, and its index and config are the author's.
    recorded = gitlinks(folder) if at_root else None
    lines = LineIndex(source.text)
    origin: list[str | None] = []  # read once, when a relative URL needs it
    named: set[str] = set()
    for submodule in submodules:
        url, path = submodule.keys.get("url"), submodule.keys.get("path")
        if url is None or not url.value or path is None or not path.value:
            continue  # git skips an entry without both
        relative_path = path.value.rstrip("/")
        named.add(relative_path)
        commit = recorded.get(relative_path) if recorded is not None else None
        if recorded is not None and commit is None:
            source.notices.append(
                f"submodule '{submodule.name}': the index records no commit at '{relative_path}', so "
                "`git submodule update` skips it"
            )
            continue
        if _is_relative(url.value) and not origin:
            origin.append(origin_url(folder))
        source.pins.append(_pin(source, lines, submodule, url, commit, origin[0] if origin else None))
    if recorded is None:
        if source.pins:
            source.notices.append(_NO_INDEX)
        return
    for unnamed in sorted(set(recorded) - named):
        source.notices.append(
            f"the index records a submodule commit at '{unnamed}', which .gitmodules does not name, so "
            "`git submodule update` fails there"
        )


def _submodules(values: list[ConfigValue]) -> list[_Submodule]:
    by_name: dict[str, _Submodule] = {}
    for value in values:
        if value.section == "submodule" and value.subsection is not None:
            by_name.setdefault(value.subsection, _Submodule(value.subsection, {})).keys[value.key] = value
    return list(by_name.values())


def _pin(
    source: SourceFile,
    lines: LineIndex,
    submodule: _Submodule,
    url: ConfigValue,
    commit: str | None,
    origin: str | None,
) -> Pin:
    assert url.value is not None
    url_span = lines.span(*url.region())
    resolution, note, resolved_url = Resolution.RESOLVED, None, url.value
    if _is_relative(url.value):
        absolute = resolve_relative_url(origin, url.value) if origin else None
        if absolute is None:
            resolution, note = Resolution.UNRESOLVED, _NO_ORIGIN
        else:
            resolved_url = absolute
    branch = submodule.keys.get("branch")
    tracked = branch.value if branch is not None and branch.value not in (None, "", ".") else None
    shallow = submodule.keys.get("shallow")
    is_shallow = shallow is not None and (shallow.value is None or shallow.value.lower() in _TRUE)
    return Pin(
        path=source.path,
        kind=source.kind,
        via=Via.SUBMODULE,
        span=url_span,
        url=resolved_url,
        remote=normalise_remote(resolved_url) if resolution is Resolution.RESOLVED else None,
        ref=commit,
        ref_text=None,  # the commit is recorded in the index, not written in the file
        clone_ref=tracked,
        resolution=resolution,
        resolution_note=note,
        depth=1 if is_shallow else None,
        shallow=is_shallow,
        url_span=url_span,
        clone_ref_span=_span(lines, branch) if tracked is not None and branch is not None else None,
    )


def _span(lines: LineIndex, value: ConfigValue) -> Span:
    return lines.span(*value.region())


def _is_relative(url: str) -> bool:
    return url.startswith(("./", "../"))


def resolve_relative_url(remote_url: str, url: str) -> str | None:
    """A submodule's relative ``url`` made absolute against the superproject's ``remote_url``, as git's
    ``relative_url`` does it; None when ``remote_url`` is itself a relative path, or when the ``../`` would
    climb above a URL's host or past an scp-like URL's host.

    ``https://github.com/o/r.git`` and ``../x.git`` give ``https://github.com/o/x.git``;
    ``git@host:o/r`` and ``../../x`` give ``git@host:x``.
    """
    remote = _strip_url_ending(remote_url)
    scheme = remote.find("://")
    if scheme != -1:
        host_end = remote.find("/", scheme + 3)
        floor = host_end if host_end != -1 else len(remote) + 1  # nothing to drop without a path
    elif remote.startswith("/") or (":" in remote and not _is_relative(remote)):
        floor = 0
    else:
        return None
    colon = False
    while True:
        if url.startswith("../"):
            url = url[3:]
            slash = remote.rfind("/")
            if slash >= floor and slash != -1:
                remote = remote[:slash]
            elif scheme == -1 and ":" in remote:
                remote, colon = remote[: remote.rfind(":")], True
            else:
                return None
        elif url.startswith("./"):
            url = url[2:]
        else:
            break
    return _strip_url_ending(f"{remote}{':' if colon else '/'}{url}")


def _strip_url_ending(url: str) -> str:
    while url.endswith(("/", "/.")):
        url = url[:-2] if url.endswith("/.") else url[:-1]
    return url
