"""Package managers that fetch from git: ``cargo install --git`` and git dependencies given to ``npm``,
``yarn`` and ``pnpm``.

Sources: The Cargo Book, "cargo-install" (``--git URL`` with ``--branch``, ``--tag`` or ``--rev``; clap
reads ``--opt value`` and ``--opt=value``, no abbreviations) and "cargo-add" (the same options); npm's
"npm-install" and npm-package-arg / hosted-git-info (a git dependency is ``git+https://…``, ``git+ssh://…``,
``git://…`` or a ``.git`` URL, or a hosted shorthand ``github:o/r``, ``gitlab:o/r``, ``bitbucket:o/r``,
``o/r``, optionally after ``name@``; ``#<commit-ish>`` names a branch, tag or commit, ``#semver:<range>``
asks for the highest tag in a range); Yarn's ``#tag=…``, ``#commit=…``, ``#head=…`` fragments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ascend_reflint.extract.commands.options import CommandWord, OptionTable, WordPart, parse_options

_CARGO_GIT_SUBCOMMANDS = frozenset({"install", "add"})
_CARGO_OPTIONS = OptionTable(
    with_value=frozenset(
        {
            "git",
            "branch",
            "tag",
            "rev",
            "version",
            "vers",
            "path",
            "root",
            "index",
            "registry",
            "features",
            "target",
            "target-dir",
            "profile",
            "jobs",
            "config",
            "bin",
            "example",
            "color",
            "message-format",
            "rename",
            "package",
        }
    ),
    short={"F": "features", "j": "jobs", "Z": "config", "p": "package"},
    abbreviations=False,
)
_NPM_INSTALLING = {
    "npm": frozenset(
        {
            "install",
            "i",
            "in",
            "ins",
            "inst",
            "insta",
            "instal",
            "isnt",
            "isnta",
            "isntal",
            "isntall",
            "add",
            "update",
            "up",
        }
    ),
    "yarn": frozenset({"add", "global"}),
    "pnpm": frozenset({"add", "install", "i", "update", "up"}),
}
_HOSTS = {
    "github": "https://github.com/",
    "gitlab": "https://gitlab.com/",
    "bitbucket": "https://bitbucket.org/",
}
_HOSTED = re.compile(r"^(?:(github|gitlab|bitbucket):)?([\w.-]+/[\w.-]+?)(?:\.git)?$")
_GIT_URL = re.compile(r"^(?:git\+[a-z]+://|git://|[a-z]+://.*\.git$|[\w.-]+@[\w.-]+:.*\.git$)")
_ALIAS = re.compile(r"^(?:@[\w.-]+/)?[\w.-]+@(?=[a-z+]+:|[\w.-]+/[\w.-]+)")
_YARN_FRAGMENT = re.compile(r"^(tag|commit|head)=")


class CargoGit(NamedTuple):
    """A ``cargo install|add --git URL`` command: where the URL and the ref are, and which kind of ref
    (``"tag"``, ``"branch"``, or None for ``--rev``, which takes any commit-ish)."""

    url: WordPart
    ref: WordPart | None
    ref_kind: str | None


def cargo_git(words: Sequence[CommandWord], start: int) -> CargoGit | None:
    """The git source of ``cargo [+toolchain] install|add … --git URL …``, or None.

    Args:
        words: the command's words.
        start: the index of the first word after ``cargo``.
    """
    index = start
    while index < len(words) and words[index].display.startswith(("+", "-")):
        index += 1  # +nightly, and cargo's global flags (-v, --locked …) before the subcommand
    if index >= len(words) or words[index].display not in _CARGO_GIT_SUBCOMMANDS:
        return None
    parsed = parse_options(words, _CARGO_OPTIONS, index + 1)
    git = parsed.last("git")
    if git is None or git[2] is None:
        return None
    ref = parsed.last("tag", "branch", "rev")
    if ref is None or ref[2] is None:
        return CargoGit(git[2], None, None)
    return CargoGit(git[2], ref[2], None if ref[0] == "rev" else ref[0])


def npm_specs(name: str, words: Sequence[CommandWord], start: int) -> list[int]:
    """The indexes of the words that may be package specs of an ``npm``/``yarn``/``pnpm`` install.

    Args:
        name: the command's name (``npm``, ``yarn``, ``pnpm``).
        words: the command's words.
        start: the index of the first word after the command's name.
    """
    subcommands = _NPM_INSTALLING.get(name)
    if subcommands is None:
        return []
    positions = [
        index for index in range(start, len(words)) if not words[index].literal_prefix.startswith("-")
    ]
    if not positions or words[positions[0]].display not in subcommands:
        return []
    rest = positions[1:]
    if name == "yarn" and words[positions[0]].display == "global":
        rest = rest[1:] if rest and words[rest[0]].display == "add" else []
    return rest


class NpmGitSpec(NamedTuple):
    """The parts of a git dependency spec: the repository (offsets into the spec, and the URL it stands
    for with ``{}`` in place of what the spec writes there), the ref's offsets, and the ref's kind."""

    repository: tuple[int, int]
    url_template: str
    ref: tuple[int, int] | None
    ref_kind: str | None
    semver: bool


def npm_git_spec(spec: str) -> NpmGitSpec | None:
    """Read a package spec as npm does; None when it names no git repository."""
    alias = _ALIAS.match(spec)
    begin = alias.end() if alias is not None else 0
    hash_mark = spec.find("#", begin)
    end = hash_mark if hash_mark != -1 else len(spec)
    body = spec[begin:end]
    if body.startswith((".", "/", "~")) or not body:
        return None
    if _GIT_URL.match(body):
        url_start = begin + (4 if body.startswith("git+") else 0)
        repository, template = (url_start, end), "{}"
    else:
        hosted = _HOSTED.match(body)
        if hosted is None:
            return None
        host = _HOSTS[hosted.group(1) or "github"]
        start = begin + (len(hosted.group(1)) + 1 if hosted.group(1) else 0)
        repository, template = (start, start + len(hosted.group(2))), host + "{}.git"
    if hash_mark == -1 or hash_mark + 1 >= len(spec):
        return NpmGitSpec(repository, template, None, None, False)
    ref_start = hash_mark + 1
    fragment = spec[ref_start:]
    if fragment.startswith("semver:"):
        return NpmGitSpec(repository, template, (ref_start + 7, len(spec)), None, True)
    yarn = _YARN_FRAGMENT.match(fragment)
    kind = None
    if yarn is not None:
        ref_start += yarn.end()
        kind = {"tag": "tag", "head": "branch"}.get(yarn.group(1))
    ref_end = spec.find("&", ref_start)
    return NpmGitSpec(repository, template, (ref_start, len(spec) if ref_end == -1 else ref_end), kind, False)
