"""CMake extraction: the git dependencies that ``CMakeLists.txt`` and ``*.cmake`` files fetch at configure
time.

What pins (facts from CMake's ExternalProject and FetchContent documentation and
``Modules/ExternalProject/shared_internal_commands.cmake``, and CPM.cmake's ``cmake/CPM.cmake``):

- ``FetchContent_Declare(name GIT_REPOSITORY url [GIT_TAG ref] [GIT_SHALLOW bool] …)`` and
  ``ExternalProject_Add(name …)`` with the same keywords (FetchContent runs ExternalProject's download
  step): CMake runs ``git clone [--depth 1 --no-single-branch] URL`` (``GIT_SHALLOW`` true) and then
  ``git checkout GIT_TAG --``, so the ref is read as ``git checkout`` reads it (a tag before a branch,
  ``origin/NAME`` is the remote's branch NAME, a commit id works unless the clone is shallow). Without
  ``GIT_TAG`` CMake checks out ``master`` (not the remote's default branch): the pin's ``ref`` is
  ``master``, its ``ref_text`` null and its span the URL. A declaration with ``URL`` and no
  ``GIT_REPOSITORY`` downloads an archive: no pin.
- ``CPMAddPackage``/``CPMFindPackage``/``CPMDeclarePackage``: named arguments (``GIT_REPOSITORY``, or
  ``GITHUB_REPOSITORY owner/repo`` for ``https://github.com/owner/repo.git``, ``GITLAB_REPOSITORY`` and
  ``BITBUCKET_REPOSITORY`` likewise; ``GIT_TAG``; ``VERSION``), or one shorthand argument
  (``cpm_parse_add_package_single_arg``): ``gh:owner/repo@1.2.3`` is VERSION 1.2.3, ``gh:owner/repo#TAG``
  names the tag, ``gl:``/``bb:`` are GitLab and Bitbucket, any other argument ending in ``.git`` (before
  ``@``/``#``) is a git URL, anything else a URL download (no pin); ``URI "gh:…"`` starts the same
  shorthand among named arguments. Without ``GIT_TAG`` CPM asks for the tag ``v<VERSION>``: the pin's
  ``ref`` is ``v1.2.3`` and its ``ref_text`` the ``1.2.3`` written. CPM passes ``GIT_SHALLOW`` on when it
  is given; it adds ``GIT_SHALLOW TRUE`` itself (for a ``GIT_TAG`` that is not 7 to 40 hex digits) only
  when its source cache (``CPM_SOURCE_CACHE``, set outside the file) is in use, which reflint cannot see:
  such a pin is not marked shallow.

Values come from the file's own ``set()``/``option()``/``project()`` (:mod:`.values`); the file is read as
CMake reads it (:mod:`.lexer`), so a commented-out declaration or one in a bracket argument pins nothing. A
``GIT_TAG ${TAG}`` (or ``GIT_REPOSITORY ${URL}``) whose variable one ``set()`` argument holds whole, as
written, has that argument as its ``ref_origin`` (``url_origin``): findings and fixes go there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ascend_reflint.extract.cmake.lexer import Argument, Invocation, invocations
from ascend_reflint.extract.cmake.values import Evaluated, Variables, split_list
from ascend_reflint.model import CloneLayout, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote
from ascend_reflint.resolve import Provenance, origin_of
from ascend_reflint.sourcemap import LineIndex

_GIT_DECLARATIONS = {"fetchcontent_declare": Via.FETCHCONTENT, "externalproject_add": Via.EXTERNAL_PROJECT}
_CPM_COMMANDS = frozenset({"cpmaddpackage", "cpmfindpackage", "cpmdeclarepackage"})
_CONDITIONAL_OPEN = frozenset({"if", "foreach", "while"})
_CONDITIONAL_CLOSE = frozenset({"endif", "endforeach", "endwhile"})
_SCOPE_OPEN = frozenset({"function", "macro", "block"})
_SCOPE_CLOSE = frozenset({"endfunction", "endmacro", "endblock"})
#: An argument that is one variable reference and nothing else (``${TAG}``): it has that variable's value.
_WHOLE_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_./+-]+)\}")
#: Commands that compute values into variables named by their literal arguments.
_COMPUTING = frozenset(
    {
        "string",
        "list",
        "math",
        "file",
        "execute_process",
        "get_filename_component",
        "get_property",
        "get_target_property",
        "get_directory_property",
        "cmake_path",
        "find_program",
        "find_path",
        "find_file",
        "find_library",
        "separate_arguments",
        "cmake_parse_arguments",
        "include",
        "configure_file",
    }
)
#: CMake's false constants (cmake-language(7) ``if(<constant>)``): anything else that is not a number 0 is
#: true for ``GIT_SHALLOW``.
_FALSE = frozenset({"", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND"})
_CPM_HOSTS = {"gh": "https://github.com/", "gl": "https://gitlab.com/", "bb": "https://bitbucket.org/"}
_CPM_REPOSITORY_KEYS = {
    "GITHUB_REPOSITORY": "https://github.com/",
    "GITLAB_REPOSITORY": "https://gitlab.com/",
    "BITBUCKET_REPOSITORY": "https://bitbucket.org/",
}
_CPM_SCHEME = re.compile(r"^([a-zA-Z]+):(.+)$")
_GIT_LIKE = re.compile(r"\.git/?(@|#|$)")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def extract_cmake(source: SourceFile) -> None:
    """Fill ``source.pins`` with the git dependencies of a CMake file, in file order.

    Args:
        source: the file, with ``text`` read; its ``path`` and ``kind`` go into every pin.
    """
    text = source.text
    assert text is not None
    if "GIT_REPOSITORY" not in text and "cpm" not in text.lower():
        return
    _Reader(source, text).read()


@dataclass(frozen=True, slots=True)
class _Arg:
    """An argument after evaluation (an unquoted list is several, each with the whole argument's place)."""

    value: str | None
    note: str | None
    written: str
    argument: Argument

    @property
    def literal(self) -> str | None:
        """The argument as a keyword: its text when it is unquoted and holds no reference or escape."""
        if self.argument.kind == "unquoted" and self.value == self.written:
            return self.value
        return None


class _Reader:
    """Reads one file's invocations in order: variables, blocks and the declarations that pin."""

    def __init__(self, source: SourceFile, text: str) -> None:
        self.source = source
        self.text = text
        self.lines = LineIndex(text)
        self.variables = Variables()
        self.blocks: list[tuple[str, int]] = []  # ("conditional", previous state) or ("scope", 0)

    def read(self) -> None:
        for invocation in invocations(self.text):
            self._invocation(invocation)

    def _invocation(self, invocation: Invocation) -> None:
        name = invocation.lower
        line = self.lines.position(invocation.start)[0]
        if name in _CONDITIONAL_OPEN:
            self.blocks.append(("conditional", self.variables.enter_conditional(line)))
        elif name in _SCOPE_OPEN:
            self.blocks.append(("scope", 0))
        elif name in _CONDITIONAL_CLOSE or name in _SCOPE_CLOSE:
            if self.blocks:
                kind, previous = self.blocks.pop()
                if kind == "conditional":
                    self.variables.leave_conditional(previous)
        elif name in _GIT_DECLARATIONS:
            self._declaration(invocation, _GIT_DECLARATIONS[name])
        elif name in _CPM_COMMANDS:
            self._cpm(invocation)
        elif not self._in_scope():
            self._variables(name, invocation, line)

    def _in_scope(self) -> bool:
        """True inside a ``function()``/``macro()``/``block()`` body, whose assignments stay in it."""
        return any(kind == "scope" for kind, _previous in self.blocks)

    # Variables

    def _variables(self, name: str, invocation: Invocation, line: int) -> None:
        arguments = invocation.arguments
        if name in ("set", "option") and arguments:
            variable = self._args([arguments[0]])
            target = variable[0].value if variable else None
            if target is None:
                return
            if name == "option":
                value = self._args(arguments[2:3])
                self.variables.set(target, Evaluated(value[0].value if value else "OFF"), line)
                return
            self._set(target, arguments[1:], line)
        elif name == "unset" and arguments:
            unset = self._args([arguments[0]])
            if unset and unset[0].value:
                self.variables.unset(unset[0].value)
        elif name == "project" and arguments:
            self._project(arguments, line)
        elif name in _COMPUTING:
            # Which argument is the output varies by command and mode; any word that may name a variable
            # is taken as one (a keyword such as TOLOWER taken so is never read back).
            for arg in self._args(arguments):
                if arg.literal is not None and _IDENTIFIER.fullmatch(arg.literal):
                    self.variables.computed(arg.literal, name, line)

    def _set(self, target: str, arguments: list[Argument], line: int) -> None:
        values = self._args(arguments)
        words = [arg.literal for arg in values]
        if "PARENT_SCOPE" in words:
            return
        if "CACHE" in words:
            values = values[: words.index("CACHE")]
        if not values:
            self.variables.unset(target)
            return
        notes = [arg.note for arg in values if arg.value is None]
        if notes:
            self.variables.set(target, Evaluated(None, notes[0]), line)
            return
        value = ";".join(arg.value or "" for arg in values)
        provenance = self._written(values[0]) if len(values) == 1 else None
        self.variables.set(target, Evaluated(value), line, provenance)

    def _written(self, arg: _Arg) -> Provenance | None:
        """Where the value of ``arg`` is written: the argument itself when it is written as it is, else the
        place of the variable it is one whole reference to (``${TAG}``)."""
        if arg.value is None:
            return None
        if arg.written == arg.value:
            return Provenance.written(self.source.path, self._span(arg.argument), arg.value)
        return self._copied(arg)

    def _copied(self, arg: _Arg) -> Provenance | None:
        """The provenance of the variable that ``arg`` is one whole reference to, when its value is all of
        the argument's (``${TAG}``, not ``v${VERSION}`` nor ``$ENV{TAG}``)."""
        reference = _WHOLE_REFERENCE.fullmatch(arg.written)
        if reference is None or arg.argument.kind == "bracket":
            return None
        provenance = self.variables.provenance(reference.group(1))
        if provenance is None or self.variables.expand(arg.written).value != arg.value:
            return None
        return provenance

    def _project(self, arguments: list[Argument], line: int) -> None:
        """``project(NAME [VERSION x.y.z] …)`` sets ``PROJECT_VERSION`` and ``<NAME>_VERSION``."""
        values = self._args(arguments)
        words = [arg.literal for arg in values]
        if "VERSION" not in words or values[0].value is None:
            return
        index = words.index("VERSION") + 1
        if index < len(values):
            version = Evaluated(values[index].value, values[index].note)
            for variable in ("PROJECT_VERSION", f"{values[0].value}_VERSION"):
                self.variables.set(variable, version, line)

    # Declarations

    def _declaration(self, invocation: Invocation, via: Via) -> None:
        """``FetchContent_Declare``/``ExternalProject_Add`` with ``GIT_REPOSITORY``."""
        args = self._args(invocation.arguments)
        url = _keyword_value(args, "GIT_REPOSITORY")
        if url is None:
            return
        tag = _keyword_value(args, "GIT_TAG")
        shallow = _is_true(_keyword_value(args, "GIT_SHALLOW"))
        self._pin(via, url, tag, shallow, implicit_ref="master", layout=self._layout(args))

    def _cpm(self, invocation: Invocation) -> None:
        args = self._args(invocation.arguments)
        shorthand: _Arg | None = None
        if len(args) == 1:
            shorthand, named = args[0], []
        elif len(args) > 1 and args[0].literal == "URI":
            shorthand, named = args[1], args[2:]
        else:
            named = args
        parts = _cpm_shorthand(self, shorthand) if shorthand is not None else None
        if shorthand is not None and parts is None:
            return  # an archive URL, or a shorthand that cannot be read
        url, version, tag = parts if parts is not None else (None, None, None)
        url = url or _keyword_value(named, "GIT_REPOSITORY") or self._cpm_repository(named)
        if url is None:
            return
        version = version or _keyword_value(named, "VERSION")
        tag = tag or _keyword_value(named, "GIT_TAG")
        shallow = _is_true(_keyword_value(named, "GIT_SHALLOW"))
        layout = self._layout(named)
        if tag is None and version is not None:
            tag = _Arg(
                None if version.value is None else "v" + version.value,
                version.note,
                version.written,
                version.argument,
            )
        self._pin(Via.CPM, url, tag, shallow, implicit_ref="v", layout=layout)

    def _cpm_repository(self, named: list[_Arg]) -> _Arg | None:
        for key, prefix in _CPM_REPOSITORY_KEYS.items():
            value = _keyword_value(named, key)
            if value is not None:
                url = None if value.value is None else f"{prefix}{value.value}.git"
                return _Arg(url, value.note, value.written, value.argument)
        return None

    def _pin(
        self,
        via: Via,
        url: _Arg,
        tag: _Arg | None,
        shallow: bool,
        implicit_ref: str,
        layout: CloneLayout | None = None,
    ) -> None:
        url_span = self._span(url.argument)
        ref: str | None
        if tag is None:
            ref, ref_text, span = implicit_ref, None, url_span
            resolution, note = (Resolution.RESOLVED, None) if url.value is not None else _unresolved(url)
        else:
            ref, ref_text, span = tag.value, tag.written, self._span(tag.argument)
            resolution, note = _combined(tag, url)
            if tag.value == "" and tag.written == "":
                resolution, note = Resolution.EMPTY, "GIT_TAG is empty (CMake refuses an empty tag)"
        self.source.pins.append(
            Pin(
                path=self.source.path,
                kind=self.source.kind,
                via=via,
                span=span,
                url=url.value if url.value is not None else url.written,
                remote=normalise_remote(url.value) if url.value is not None else None,
                ref=ref,
                ref_text=ref_text,
                resolution=resolution,
                resolution_note=note,
                depth=1 if shallow else None,
                shallow=shallow,
                url_span=url_span,
                clone_layout=layout,
                ref_origin=origin_of(self._copied(tag)) if tag is not None else None,
                url_origin=origin_of(self._copied(url)),
            )
        )

    def _layout(self, args: list[_Arg]) -> CloneLayout | None:
        """Where ``GIT_SHALLOW value`` is written, as a clone's ``depth`` option (a fix deletes it with the
        white space before it); None when it is not given as two arguments of its own on their own."""
        at = next((i for i in range(len(args) - 1, 0, -1) if args[i].literal == "GIT_SHALLOW"), None)
        if at is None or at + 1 >= len(args):
            return None
        before, keyword, value = args[at - 1].argument, args[at].argument, args[at + 1].argument
        if len({before, keyword, value}) < 3 or "#" in self.text[before.end : value.start]:
            return None
        deleted, written = self.lines.span(before.end, value.end), self.lines.span(keyword.start, value.end)
        return CloneLayout(None, None, (("depth", deleted),), (written,))

    # Arguments

    def _args(self, arguments: list[Argument]) -> list[_Arg]:
        """The arguments evaluated, unquoted lists divided into one argument per element."""
        found: list[_Arg] = []
        for argument in arguments:
            written = self.text[argument.content_start : argument.content_end]
            value = self.variables.evaluate(self.text, argument)
            if argument.kind == "unquoted" and value.value is not None and ";" in value.value:
                found.extend(_Arg(part, None, written, argument) for part in split_list(value.value))
            elif argument.kind == "unquoted" and value.value == "" and written:
                continue  # an unquoted reference to an empty variable is no argument at all
            else:
                found.append(_Arg(value.value, value.note, written, argument))
        return found

    def _span(self, argument: Argument) -> Span:
        """The argument's content, or its quotes when it has none (``GIT_TAG ""``)."""
        if argument.content_end > argument.content_start:
            return self.lines.span(argument.content_start, argument.content_end)
        return self.lines.span(argument.start, argument.end)

    def sub_arg(self, arg: _Arg, start: int, end: int) -> _Arg:
        """The part ``written[start:end]`` of a quoted or unquoted argument, evaluated on its own."""
        written = arg.written[start:end]
        value = self.variables.expand(written, quoted=arg.argument.kind == "quoted")
        offset = arg.argument.content_start
        part = Argument(arg.argument.kind, offset + start, offset + end, offset + start, offset + end)
        return _Arg(value.value, value.note, written, part)


def _cpm_shorthand(reader: _Reader, arg: _Arg) -> tuple[_Arg, _Arg | None, _Arg | None] | None:
    """The URL, VERSION and GIT_TAG parts of CPM's one-argument form, each with its own place; None for an
    archive URL (see the module docstring)."""
    written = arg.written
    scheme = _CPM_SCHEME.match(written)
    host = _CPM_HOSTS.get(scheme.group(1).lower()) if scheme is not None else None
    start = scheme.start(2) if scheme is not None and host is not None else 0
    if host is None and not _GIT_LIKE.search(written):
        return None
    uri_end = len(written)
    version_part: tuple[int, int] | None = None
    at = written.rfind("@", start)
    if at != -1 and at + 1 < len(written) and "@" not in written[at + 1 :]:
        version_part, uri_end = (at + 1, len(written)), at
    tag_part: tuple[int, int] | None = None
    search_from, search_to = version_part or (start, uri_end)
    hash_mark = written.rfind("#", search_from, search_to)
    if hash_mark != -1 and hash_mark + 1 < search_to:
        tag_part = (hash_mark + 1, search_to)
        if version_part is not None:
            version_part = (version_part[0], hash_mark)
        else:
            uri_end = hash_mark
    url = reader.sub_arg(arg, start, uri_end)
    if host is not None:
        url = _Arg(
            None if url.value is None else f"{host}{url.value}.git", url.note, url.written, url.argument
        )
    version = reader.sub_arg(arg, *version_part) if version_part is not None else None
    tag = reader.sub_arg(arg, *tag_part) if tag_part is not None else None
    return url, version, tag


def _keyword_value(args: list[_Arg], keyword: str) -> _Arg | None:
    """The argument after the keyword ``keyword`` (the last time it is given), or None."""
    found: _Arg | None = None
    for index, arg in enumerate(args):
        if arg.literal == keyword and index + 1 < len(args):
            found = args[index + 1]
    return found


def _is_true(arg: _Arg | None) -> bool:
    """CMake's truth of a ``GIT_SHALLOW`` value (False when absent or not known statically)."""
    if arg is None or arg.value is None:
        return False
    value = arg.value.upper()
    if value in _FALSE or value.endswith("-NOTFOUND"):
        return False
    try:
        return float(value) != 0
    except ValueError:
        return True


def _unresolved(arg: _Arg) -> tuple[Resolution, str | None]:
    return Resolution.UNRESOLVED, arg.note


def _combined(*args: _Arg) -> tuple[Resolution, str | None]:
    for arg in args:
        if arg.value is None:
            return _unresolved(arg)
    return Resolution.RESOLVED, None
