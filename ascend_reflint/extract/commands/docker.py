"""What a ``docker build`` command line asks for: the build context, the Dockerfile, the build arguments and
the target stage.

Recognised: ``docker build``, ``docker image build``, ``docker buildx build`` (and ``docker builder
build``), with docker's and buildx's own options before the subcommand, and ``podman build``. Option tables:
the docker CLI reference for ``docker buildx build`` (which ``docker build`` is an alias of since Docker
23) and ``docker`` (global options); ``--build-arg NAME`` without ``=`` takes NAME's value from the
environment of the command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ascend_reflint.extract.commands.options import CommandWord, OptionTable, WordPart, parse_options

#: docker(1) options before the subcommand that take a value (``docker --context ci build …``).
_DOCKER_GLOBAL_WITH_VALUE = frozenset(
    {
        "-c",
        "--context",
        "-H",
        "--host",
        "--config",
        "-l",
        "--log-level",
        "--tlscacert",
        "--tlscert",
        "--tlskey",
    }
)
#: ``docker buildx`` options before ``build``.
_BUILDX_WITH_VALUE = frozenset({"--builder"})

_BUILD = OptionTable(
    with_value=frozenset(
        {
            "add-host",
            "allow",
            "annotation",
            "attest",
            "build-arg",
            "build-context",
            "builder",
            "cache-from",
            "cache-to",
            "call",
            "cgroup-parent",
            "cpu-period",
            "cpu-quota",
            "cpu-shares",
            "cpuset-cpus",
            "cpuset-mems",
            "file",
            "iidfile",
            "isolation",
            "label",
            "memory",
            "memory-swap",
            "metadata-file",
            "network",
            "no-cache-filter",
            "output",
            "platform",
            "progress",
            "secret",
            "security-opt",
            "shm-size",
            "ssh",
            "tag",
            "target",
            "ulimit",
        }
    ),
    optional_value=frozenset({"provenance", "sbom", "check"}),
    flags=frozenset(
        {"compress", "debug", "force-rm", "load", "no-cache", "pull", "push", "quiet", "rm", "squash"}
    ),
    short={"f": "file", "t": "tag", "o": "output", "q": "quiet", "m": "memory"},
    abbreviations=False,
)


class DockerBuild(NamedTuple):
    """What ``docker build`` was asked to build.

    Attributes:
        command: the index of the ``build`` word (the build's words are those up to it).
        context: the index of the context word (a path, ``-`` for standard input, or a git URL), or None.
        file: the ``--file``/``-f`` value, or None (the context's ``Dockerfile``).
        build_args: each ``--build-arg`` value (``NAME=VALUE`` or ``NAME``), in order.
        target: the ``--target`` value, or None.
    """

    command: int
    context: int | None
    file: WordPart | None
    build_args: tuple[WordPart, ...]
    target: WordPart | None


def parse_docker_build(name: str, words: Sequence[CommandWord], start: int) -> DockerBuild | None:
    """Read a ``docker build`` (``podman build``) command from ``words[start:]`` (the words after ``name``).

    Returns:
        The build's parts, or None when the command builds nothing (``docker run``, ``docker buildx bake``).
    """
    index = _subcommand(name, words, start)
    if index is None:
        return None
    parsed = parse_options(words, _BUILD, index + 1)
    file = parsed.last("file")
    target = parsed.last("target")
    return DockerBuild(
        command=index,
        context=parsed.positionals[0] if parsed.positionals else None,
        file=file[2] if file else None,
        build_args=tuple(part for option, _, part in parsed.options if option == "build-arg" and part),
        target=target[2] if target else None,
    )


def _subcommand(name: str, words: Sequence[CommandWord], start: int) -> int | None:
    """The index of the ``build`` word of ``docker [opts] [image|buildx|builder] [opts] build``, or None."""
    if name not in ("docker", "podman"):
        return None
    index = _skip_options(words, start, _DOCKER_GLOBAL_WITH_VALUE)
    if index < len(words) and words[index].display in ("image", "buildx", "builder"):
        index = _skip_options(words, index + 1, _BUILDX_WITH_VALUE)
    if index < len(words) and words[index].display in ("build", "b"):
        return index
    return None


def _skip_options(words: Sequence[CommandWord], index: int, with_value: frozenset[str]) -> int:
    """The index of the first word from ``index`` that is not an option (or an option's value)."""
    while index < len(words) and words[index].literal_prefix.startswith("-"):
        option = words[index].literal_prefix
        index += 2 if option in with_value else 1
    return index
