"""The handler of ``docker build`` (``docker buildx build``, ``podman build``; the command-line syntax is
:mod:`ascend_reflint.extract.commands.docker`'s): an invocation of the Dockerfile it builds, with the build
arguments it gives (:class:`~ascend_reflint.model.Invocation`), or, for a git URL build context
(``docker build https://github.com/o/r.git#REF:DIR``), a pin of that repository at REF.

The Dockerfile is ``-f FILE`` (relative to the directory the command runs in, not to the context), else
``CONTEXT/Dockerfile`` (the docker CLI reference, "docker buildx build": ``--file``). A script is run from
the project root or from its own folder: both are tried, in that order; a workflow's ``run:`` runs in the
root. Nothing else is read here: the invocation is applied after extraction
(:mod:`ascend_reflint.invocations`).
"""

from __future__ import annotations

import posixpath

from ascend_reflint.extract.commands.docker import DockerBuild, parse_docker_build
from ascend_reflint.extract.commands.options import WordPart
from ascend_reflint.extract.gitsource import is_git_source, written_ref
from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.pip import add_value_pin
from ascend_reflint.extract.shell.values import Expanded, assigned_provenance
from ascend_reflint.model import CallSite, FileKind, GivenValue, Invocation, InvokedPath, Via
from ascend_reflint.resolve import Binding

#: The longest command shown as an invocation's call site.
_MAX_SHOWN = 80


def run_docker(walker: Walker, command: Command) -> None:
    """``docker build …``: the Dockerfile it builds, with its build arguments, or a git context's pin."""
    build = parse_docker_build(command.name, command.words, command.start)
    if build is None:
        return
    if build.context is not None and _git_context(walker, command, build.context):
        return
    paths = _dockerfile_paths(walker, command, build)
    if not paths:
        return
    words, text = command.words, command.text
    span = walker.expander.span(text, words[command.name_index].bounds()[0], words[build.command].bounds()[1])
    shown = " ".join(word.written() or word.display for word in words[command.name_index :])
    if len(shown) > _MAX_SHOWN:
        shown = shown[: _MAX_SHOWN - 1] + "…"
    target = None
    if build.target is not None:
        target = walker.expander.expand(command.part(build.target), text, walker.env.scope).value
    walker.sink.invocations.append(
        Invocation(
            kind=FileKind.DOCKERFILE,
            paths=paths,
            values=tuple(value for part in build.build_args if (value := _given(walker, command, part)).name),
            site=CallSite(walker.sink.path, span, f"built by `{shown}`"),
            target=target,
        )
    )


def _given(walker: Walker, command: Command, part: WordPart) -> GivenValue:
    """A ``--build-arg NAME=VALUE`` (or ``NAME``, which takes NAME's value from the command's environment)."""
    word = command.part(part)
    name, equals, _ = word.display.partition("=")
    if not equals:
        binding = command.scope.get(name) or Binding(None, note=f"${name} is not set in this file")
        provenance = binding.provenance
        return GivenValue(
            name,
            binding.value,
            provenance.origin if provenance else None,
            bool(provenance and provenance.verbatim),
            binding.note,
        )
    sub = word.sub(len(name) + 1)
    value = walker.expander.expand(sub, command.text, walker.env.scope)
    provenance = value.provenance
    if provenance is None:
        provenance = assigned_provenance(sub, value, walker.sink.path)
    return GivenValue(
        name,
        value.value,
        provenance.origin if provenance else None,
        bool(provenance and provenance.verbatim),
        value.note,
    )


def _dockerfile_paths(walker: Walker, command: Command, build: DockerBuild) -> tuple[InvokedPath, ...]:
    """Where the Dockerfile of ``build`` may be (see the module docstring); empty when not known."""
    expand, text, scope = walker.expander.expand, command.text, walker.env.scope
    if build.file is not None:
        named = expand(command.part(build.file), text, scope).value
    elif build.context is not None:
        context = expand(command.words[build.context], text, scope).value
        named = None if context is None or context == "-" else posixpath.join(context, "Dockerfile")
    else:
        return ()
    anchor, cwd = command.cwd
    if not named or named.startswith("/") or anchor != "":
        return ()  # not known statically, or not in the project
    path = posixpath.normpath(posixpath.join(cwd, named))
    if walker.sink.kind is FileKind.WORKFLOW:
        return (InvokedPath(path, from_root=True),)
    return (InvokedPath(path, from_root=True), InvokedPath(path, from_root=False))


def _git_context(walker: Walker, command: Command, index: int) -> bool:
    """A git URL build context (``URL#REF[:DIR]``): its pin; False when the context is no git URL."""
    word = command.words[index]
    expanded = Expanded(walker.expander, word, command.text, walker.env.scope)
    if not is_git_source(expanded.text, build_context=True):
        return False
    ends = [index for index in (expanded.text.find("#"), expanded.text.find("?")) if index != -1]
    url_end = min(ends, default=len(expanded.text))
    url = expanded.value(0, url_end)
    if url.value is not None and "://" not in url.value and "@" not in url.value:
        url.value = f"https://{url.value}"  # github.com/o/r: BuildKit fetches it over https
    ref = written_ref(expanded.text, url_end)
    found = expanded.value(ref.start, ref.start + len(ref.text)) if ref is not None else None
    add_value_pin(walker.sink, Via.BUILD_CONTEXT, url, found, ref.kind if ref is not None else None)
    return True
