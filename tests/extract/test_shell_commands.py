"""Command-line syntax of git, pip, shells and wrappers, on words as the shell extractor hands them over."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ascend_reflint.extract import commands
from ascend_reflint.extract.commands import WordPart
from ascend_reflint.extract.commands.git import _CLONE


@dataclass(frozen=True)
class Word:
    """A word whose expansions start at ``$`` (enough for these tests)."""

    display: str

    @property
    def literal_prefix(self) -> str:
        return self.display.split("$", 1)[0]


def words(text: str) -> list[Word]:
    return [Word(part) for part in text.split()]


def test_parse_options_reads_values_in_every_form_and_stops_at_double_dash() -> None:
    parsed = commands.parse_options(
        words("clone -qb v1 --depth=1 --jobs 4 -j8 URL --br x -- -dir"), _CLONE, start=1
    )
    assert parsed.options == [
        ("quiet", 1, None),
        ("branch", 1, WordPart(2)),
        ("depth", 3, WordPart(3, 8)),
        ("jobs", 4, WordPart(5)),
        ("jobs", 6, WordPart(6, 2)),
        ("branch", 8, WordPart(9)),
    ]
    assert (parsed.positionals, parsed.double_dash) == ([7, 11], 1)


def test_ambiguous_or_unknown_long_options_are_flags() -> None:
    parsed = commands.parse_options(words("--re x --frob=1 --no-t"), _CLONE)
    # --re: reference, reference-if-able, recurse-submodules, reject-shallow, …; --no-t: no-tags only
    assert parsed.options == [("re", 0, None), ("frob", 2, WordPart(2, 7)), ("no-tags", 3, None)]
    assert parsed.positionals == [1]


def test_sticked_short_value_may_be_an_expansion() -> None:
    parsed = commands.parse_options(words("-b$REF URL"), _CLONE)
    assert parsed.options == [("branch", 0, WordPart(0, 2))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "git -C /src -c a=b --git-dir=/g/.git clone",
            commands.GitCommand(6, (WordPart(2),), WordPart(5, 10), True),
        ),
        (
            "git --no-pager -C a -C b --work-tree w checkout",
            commands.GitCommand(8, (WordPart(3), WordPart(5)), WordPart(7)),
        ),
        ("git --version", None),
    ],
)
def test_git_global_options(text: str, expected: commands.GitCommand | None) -> None:
    assert commands.parse_git(words(text), 1) == expected


@pytest.mark.parametrize(
    ("text", "may_split", "names_remote", "url", "directory"),
    [
        # The first positional is the repository, the second the directory, whatever they look like.
        ("$URL /opt/a", "$URL", "", 0, 1),
        ("ext::sh /opt/a", "", "ext::sh", 0, 1),
        ("-b v1 $URL dir", "$URL", "", 2, 3),
        ("-- --upload-pack=x /opt/y", "", "", 1, 2),
        # A word that may stand for any number of words (options, or nothing) is passed over when the
        # next positional names a remote, or when more than two positionals remain.
        ("$ARGS URL", "$ARGS", "URL", 1, None),
        ("$ARGS URL dir", "$ARGS", "", 1, 2),
        ("$A $B URL dir", "$A $B", "", 2, 3),
        ("$ARGS /opt/b", "$ARGS", "", 0, 1),
        ("$URL", "$URL", "", 0, None),
        # Nothing after -- is passed over.
        ("-- $A URL", "$A", "URL", 1, 2),
        ("$A -- $B URL dir", "$A $B", "URL", 2, 3),
    ],
)
def test_clone_repository_is_the_first_positional_unless_a_split_word_stands_before(
    text: str, may_split: str, names_remote: str, url: int, directory: int | None
) -> None:
    given = words(text)
    splits = [word.display in may_split.split() for word in given]
    remotes = [word.display in names_remote.split() for word in given]
    found = commands.parse_clone(given, 0, splits, remotes)
    assert found is not None
    assert (found.url, found.directory) == (url, directory)


def test_clone_parts() -> None:
    found = commands.parse_clone(words("-b v1 --depth 1 --recursive URL dir"), 0, [False] * 7, [False] * 7)
    assert found == commands.CloneCommand(
        url=5,
        directory=6,
        branch=WordPart(1),
        depth=WordPart(3),
        shallow=True,
        single_branch=False,
        recurse_submodules=True,
        bare=False,
        origin=None,
        one_branch=True,  # --depth implies --single-branch
        options=(("branch", 0, 1), ("depth", 2, 3), ("recurse-submodules", 4, 4)),
    )
    assert commands.parse_clone(words("--depth 1"), 0, [False, False], [False, False]) is None


@pytest.mark.parametrize(
    ("text", "revision", "no_tags", "one_branch"),
    [
        ("--revision v1 URL", WordPart(1), False, False),
        ("--depth 1 --no-single-branch URL", None, False, False),
        ("--single-branch --no-tags URL", None, True, True),
    ],
)
def test_clone_revision_tags_and_branches(
    text: str, revision: WordPart | None, no_tags: bool, one_branch: bool
) -> None:
    found = commands.parse_clone(words(text), 0, [False] * 5, [False] * 5)
    assert found is not None
    assert (found.revision, found.no_tags, found.one_branch) == (revision, no_tags, one_branch)


@pytest.mark.parametrize(
    ("subcommand", "text", "target"),
    [
        ("checkout", "v1", 0),
        ("checkout", "-b new v1", 2),
        ("checkout", "-B new --track origin/x", 3),
        ("checkout", "--orphan new", None),
        ("checkout", "-- file", None),
        ("checkout", "v1 -- file", None),
        ("checkout", "v1 file", None),
        ("checkout", "./file", None),
        ("checkout", "--conflict=merge v1", 1),
        ("switch", "-c new v1", 2),
        ("switch", "--create=new", None),
        ("reset", "--hard v1", 1),
        ("reset", "--keep v1", 1),
        ("reset", "--mixed v1", None),
    ],
)
def test_checkout_target(subcommand: str, text: str, target: int | None) -> None:
    assert commands.checkout_target(subcommand, words(text), 0) == target


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("origin", commands.FetchCommand(None, False, 0)),
        ("--depth 1 origin abc", commands.FetchCommand(WordPart(3), False, 2, WordPart(1), True)),
        ("--depth=1 URL abc", commands.FetchCommand(WordPart(2), False, 1, WordPart(0, 8), True)),
        ("--shallow-since=2024-01-01 URL abc", commands.FetchCommand(WordPart(2), False, 1, None, True)),
        ("origin tag v1", commands.FetchCommand(WordPart(2), False, 0, tag=True)),
        ("origin +refs/heads/x:refs/remotes/origin/x", commands.FetchCommand(WordPart(1, 1), False, 0)),
        ("--unshallow", commands.FetchCommand(None, True)),
    ],
)
def test_fetch(text: str, expected: commands.FetchCommand) -> None:
    assert commands.parse_fetch(words(text), 0) == expected


@pytest.mark.parametrize(
    ("ref", "name"),
    [
        ("tags/v1", "v1"),
        ("refs/tags/v1", "v1"),
        ("refs/heads/main", "main"),
        ("origin/dev", "dev"),
        ("refs/remotes/origin/dev", "dev"),
        ("remotes/origin/dev", "dev"),
        ("up/dev", "up/dev"),
        ("v1", "v1"),
        ("feature/x", "feature/x"),
    ],
)
def test_checkout_ref_name(ref: str, name: str) -> None:
    assert commands.checkout_ref_name(ref) == name


def test_checkout_ref_name_uses_the_clone_origin() -> None:
    assert commands.checkout_ref_name("up/dev", "up") == "dev"


@pytest.mark.parametrize(
    ("ref", "relative"),
    [
        ("HEAD", True),
        ("HEAD~2", True),
        ("@{-1}", True),
        ("-", True),
        ("@", True),
        ("ORIG_HEAD", True),
        ("v1", False),
        ("FETCH_HEAD", False),
        ("HEADS", False),
        ("HEAD^", True),
    ],
)
def test_is_relative_ref(ref: str, relative: bool) -> None:
    assert commands.is_relative_ref(ref) is relative


@pytest.mark.parametrize(
    ("name", "text", "indexes"),
    [
        ("pip", "install -U git+x -r req.txt -c c.txt pkg", [2, 7]),
        ("pip3", "--proxy http://p install -e git+x", [4]),
        ("pip", "show git+x", []),
        ("python3", "-u -m pip install git+x", [4]),
        ("python", "-mpip install git+x", [2]),
        ("python", "-m venv git+x", []),
        ("python", "script.py install git+x", []),
        ("uv", "pip install git+x", [2]),
        ("uv", "add git+x", []),
        ("pipx", "install git+x", []),
    ],
)
def test_pip_requirements(name: str, text: str, indexes: list[int]) -> None:
    assert commands.pip_requirements(name, words(text), 0) == indexes


@pytest.mark.parametrize(
    ("display", "url", "ref"),
    [
        ("git+https://h/o/r.git@v1", "https://h/o/r.git", "v1"),
        ("git+https://h/o/r.git", "https://h/o/r.git", None),
        ("git+https://h/o/r.git@", "https://h/o/r.git", None),
        ("git+https://tok@h/o/r.git", "https://tok@h/o/r.git", None),
        ("git+https://tok@h/o/r.git@v1#egg=r", "https://tok@h/o/r.git", "v1"),
        ("git+ssh://git@h/o/r.git@feat/x", "ssh://git@h/o/r.git", "feat/x"),
        ("git+git@h:o/r.git@v1", "git@h:o/r.git", "v1"),
        ("git+file:///srv/r@v1", "file:///srv/r", "v1"),
        ("r @ git+https://h/o/r@v1 ; python_version>'3'", "https://h/o/r", "v1"),
        ("--editable=git+https://h/o/r@v1", "https://h/o/r", "v1"),
        ("legit+https://h/o/r@v1", None, None),
        ("torch", None, None),
    ],
)
def test_vcs_parts(display: str, url: str | None, ref: str | None) -> None:
    parts = commands.vcs_parts(display, [True] * len(display))
    if url is None:
        assert parts is None
        return
    assert parts is not None
    assert display[slice(*parts.url)] == url
    assert (display[slice(*parts.ref)] if parts.ref else None) == ref


@pytest.mark.parametrize(
    ("display", "at"),
    [
        ("git+https://h/o/r.git@v1", 21),
        ("git+https://h/o/r.git@", 21),  # an empty revision, which pip refuses
        ("git+https://h/o/r.git@#egg=r", 21),
        ("git+https://tok@h/o/r.git", None),
        ("git+https://h/o/r.git", None),
    ],
)
def test_vcs_parts_say_where_the_revision_separator_is(display: str, at: int | None) -> None:
    parts = commands.vcs_parts(display, [True] * len(display))
    assert parts is not None
    assert parts.at == at


def test_vcs_parts_only_split_at_literal_characters() -> None:
    display = "git+https://h/o/r@${A@B}"
    literal = [True] * 18 + [False] * 6
    assert commands.vcs_parts(display, literal) == commands.VcsParts((4, 17), (18, 24), 17)
    assert commands.vcs_parts("git+$URL", [True] * 4 + [False] * 4) == commands.VcsParts((4, 8), None)


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("-c cmd", commands.ShellScript(1)),
        ("-ex -c cmd name", commands.ShellScript(2)),
        ("-lc cmd", commands.ShellScript(1)),
        ("-o pipefail -c cmd", commands.ShellScript(3)),
        ("", commands.ShellScript(None)),
        ("-ex", commands.ShellScript(None)),
        ("-s -- a b", commands.ShellScript(None)),
        ("script.sh", None),
        ("-c", None),
    ],
)
def test_shell_script(text: str, script: commands.ShellScript | None) -> None:
    assert commands.shell_script(words(text), 0) == script


@pytest.mark.parametrize(
    ("name", "text", "wrapped"),
    [
        ("sudo", "-u root -E git", commands.Wrapped(3)),
        ("sudo", "X=1 git", commands.Wrapped(1, (0,))),
        ("env", "-i -u HOME A=1 B=2 git", commands.Wrapped(5, (3, 4))),
        ("env", "-C /src git", commands.Wrapped(2, (), WordPart(1))),
        ("env", "--chdir=/src git", commands.Wrapped(1, (), WordPart(0, 8))),
        ("timeout", "-k 5 60 git", commands.Wrapped(3)),
        ("nice", "-n 5 git", commands.Wrapped(2)),
        ("command", "-v git", commands.Wrapped(None)),
        ("time", "", commands.Wrapped(None)),
    ],
)
def test_unwrap(name: str, text: str, wrapped: commands.Wrapped) -> None:
    assert commands.unwrap(name, words(text), 0) == wrapped


@pytest.mark.parametrize(
    ("text", "target"), [("dir", 0), ("-P dir", 1), ("-- -dir", 1), ("", None), ("-", 0), ("-L", None)]
)
def test_cd_target(text: str, target: int | None) -> None:
    assert commands.cd_target(words(text), 0) == target


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", None),
        ("-q /w", 1),
        ("--initial-branch main /w", 2),
        ("-b main", None),
        ("--bare /w.git", False),
    ],
)
def test_init_directory(text: str, expected: int | bool | None) -> None:
    assert commands.parse_init(words(text), 0) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("add origin URL", commands.RemoteCommand(1, 2)),
        ("add -f -t main up URL", commands.RemoteCommand(4, 5)),
        ("-v add up URL", commands.RemoteCommand(2, 3)),
        ("set-url up URL", commands.RemoteCommand(1, 2)),
        ("set-url --push up URL", None),
        ("remove up", None),
        ("add up", None),
    ],
)
def test_remote_add_and_set_url(text: str, expected: commands.RemoteCommand | None) -> None:
    assert commands.parse_remote(words(text), 0) == expected


@pytest.mark.parametrize(
    ("subcommand", "text", "expected"),
    [
        ("clone", "URL -b", [1]),
        ("clone", "--depth URL", []),  # takes URL as its value: the clone then lacks a repository
        ("clone", "URL dir --branch", [2]),
        ("fetch", "origin --depth", [1]),
        ("checkout", "-b", [0]),
        ("clone", "-b v1 URL", []),
        ("status", "-b", []),
    ],
)
def test_options_left_without_a_value(subcommand: str, text: str, expected: list[int]) -> None:
    assert commands.options_without_value(subcommand, words(text), 0) == expected


def test_pull_reads_merge_options_with_values() -> None:
    found = commands.parse_fetch(words("-s recursive --rebase=false origin v1"), 0, pull=True)
    assert (found.repository, found.refspec) == (3, WordPart(4))
