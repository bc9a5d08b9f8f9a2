"""Build stages and the dispatch of instructions: ``FROM``, ``ARG``/``ENV`` per stage, ``WORKDIR``,
``SHELL``, and ``RUN`` (also ``ONBUILD RUN``) bodies handed to the shell extractor, one
:class:`~ascend_reflint.extract.shell.ShellSession` per stage (see the package docstring for BuildKit's
rules that this follows).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.extract import shell
from ascend_reflint.extract.dockerfile.execform import json_array
from ascend_reflint.extract.dockerfile.lines import WHITESPACE, Instruction, Parsed, parse, skip_flags
from ascend_reflint.extract.dockerfile.runs import RunTexts
from ascend_reflint.extract.dockerfile.words import docker_value, docker_words
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.shell.dialect import SystemShell, may_hold_bash_syntax
from ascend_reflint.model import (
    CommandIssue,
    EnvSetting,
    FileKind,
    IssueKind,
    Origin,
    Pin,
    Resolution,
    SourceFile,
    Span,
)
from ascend_reflint.resolve import Binding, Scope, referenced_names

if TYPE_CHECKING:
    from ascend_reflint.extract.shell import ShellSession, SyntaxProblem
    from ascend_reflint.sourcemap import SourceMapBuilder

_SHELL_ASSIGNMENT = re.compile(r"(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=")
#: A commented-out ``ARG NAME``/``ENV NAME`` or shell assignment: ``# ARG MCORE_REF=core_v0.18.0``.
_COMMENTED_DECLARATION = re.compile(
    r"#+[ \t]*(?:(?i:ARG|ENV)[ \t]+([A-Za-z_][A-Za-z0-9_]*)"
    r"|(?:(?:export|local|readonly|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=)"
)
_ONBUILD_RUN = re.compile(r"\s*RUN(?=\s|$)", re.IGNORECASE)
#: Distributions whose /bin/sh is bash, as a base image's name or tag names them (openEuler, the RHEL family,
#: Amazon Linux, EulerOS; PyPA's manylinux images, built on CentOS and AlmaLinux); Debian, Ubuntu, Alpine
#: and musllinux have dash or BusyBox ash.
_BASH_AS_SH = re.compile(
    r"openeuler|euleros|centos|rhel|\bubi\d*\b|redhat|fedora|rocky|alma|amazonlinux|oraclelinux|anolis"
    r"|manylinux",
    re.IGNORECASE,
)
#: Base images whose config sets ``SHELL ["/bin/bash", "-c"]``, which a stage built FROM them inherits (the
#: SHELL instruction is kept in the image's config, Dockerfile reference "SHELL"): Ascend's CANN images
#: (the Dockerfiles of Ascend/cann-container-image end with it), on quay.io/ascend, Docker Hub's ascendai
#: and SWR's ascendhub, and vllm-ascend's, built FROM them without another SHELL.
_SHELL_IS_BASH = re.compile(
    r"(?:^|/)(?:ascend|ascendai|ascendhub)/(?:cann|vllm-ascend)(?:[:@]|$)", re.IGNORECASE
)
#: ARGs that BuildKit sets itself (dockerfile2llb ``defaultArgs``): a stage sees them after ``ARG NAME``.
_PLATFORM_ARGS = frozenset(
    {
        "BUILDPLATFORM",
        "BUILDOS",
        "BUILDOSVERSION",
        "BUILDARCH",
        "BUILDVARIANT",
        "TARGETPLATFORM",
        "TARGETOS",
        "TARGETOSVERSION",
        "TARGETARCH",
        "TARGETVARIANT",
        "TARGETSTAGE",
    }
)


def extract_dockerfile(source: SourceFile, build_args: Mapping[str, str | Binding]) -> None:
    """Fill ``source.pins``, ``source.env`` and ``source.notices`` from a Dockerfile's ``text``.

    Every ``RUN`` that can hold a pin (its text mentions ``git``, or a variable whose value does) goes to
    the shell extractor; the RUNs of one build stage share one :class:`ShellSession`, so that a clone in one
    RUN and a checkout in a later one (after ``WORKDIR``) make one pin.

    Args:
        source: the file, with ``text`` read. Pins get ``path=source.path``, ``kind=FileKind.DOCKERFILE``
            and ``stage`` = the stage's ``AS`` name, or its 0-based index as a string.
        build_args: ``--build-arg NAME=VALUE`` values (or the bindings that another file's invocation
            gives, with where they are written); each overrides the ``ARG NAME`` it names.

    Raises:
        ExtractError: for a bad parser directive or an unterminated heredoc (Docker refuses the file too).
            Pins from the instructions before the failure are kept. For more than
            :data:`~.lines.MAX_INSTRUCTIONS` instructions (none is read).
    """
    assert source.text is not None
    parsed = parse(source.text)
    _Extractor(source, build_args, parsed).run()
    if parsed.error is not None:
        raise ExtractError(parsed.error)


@dataclass(slots=True)
class _Stage:
    """A build stage: its label for pins, variables, shell session, working directory and ``SHELL``."""

    index: int
    label: str
    scope: Scope
    session: ShellSession
    lineage: frozenset[int]
    shell: tuple[str, int] | None = None  # SHELL's program and line; None: /bin/sh
    sh_is_dash: bool = True  # /bin/sh is likely dash: the base image names no distribution that has bash

    @property
    def cwd(self) -> str:
        """The working directory (``""`` when unknown)."""
        return self.session.cwd


class _Mention(NamedTuple):
    """A place where the file gives a variable a value.

    Attributes:
        line: the instruction's (or comment's) first line.
        stage: the build stage's index; -1 before the first FROM; -2 for a comment (no stage).
        how: ``"ARG"``, ``"ENV"``, ``"RUN"`` (a shell assignment) or ``"comment"`` (commented out).
    """

    line: int
    stage: int
    how: str


class _Extractor:
    """Walks the instructions in order, keeping per-stage variables, and feeds RUN bodies to the shell."""

    def __init__(self, source: SourceFile, build_args: Mapping[str, str | Binding], parsed: Parsed) -> None:
        self.source = source
        self.build_args = build_args
        self.parsed = parsed
        self.escape = parsed.escape
        self.global_scope = Scope()
        #: Global ARGs declared without a default (``ARG X`` before the first FROM).
        self.valueless_globals: set[str] = set()
        self.stages: list[_Stage] = []
        self.by_name: dict[str, _Stage] = {}
        self.trigger_sessions: list[ShellSession] = []
        #: The pins of ``ADD`` git sources, in file order.
        self.add_pins: list[Pin] = []
        self.runs = RunTexts(source.text or "", source.notices)
        #: The shell texts of RUNs that cannot pin, whose syntax is checked once every RUN is walked.
        self.unwalked: list[tuple[Instruction, SourceMapBuilder, _Stage]] = []
        from_lines = [instruction for instruction in parsed.instructions if instruction.keyword == "FROM"]
        self.labels = [_stage_name(instruction) or str(index) for index, instruction in enumerate(from_lines)]

    def run(self) -> None:
        """Dispatch every instruction, then collect the pins of every session in file order."""
        try:
            for instruction in self.parsed.instructions:
                self._dispatch(instruction)
            for instruction, text, stage in self.unwalked:
                self._check_syntax(instruction, text, stage, None)
        finally:
            pins: list[Pin] = list(self.add_pins)
            for session in [stage.session for stage in self.stages] + self.trigger_sessions:
                pins.extend(session.finish())
                self.source.notices.extend(session.notices)
                self.source.issues.extend(session.issues)
                self.source.invocations.extend(session.invocations)
            pins.sort(key=lambda pin: (pin.span.line, pin.span.column))
            self.source.issues.sort(key=lambda issue: (issue.span.line, issue.span.column))
            self.source.pins.extend(self.runs.written_in_file(pin) for pin in pins)

    def _dispatch(self, instruction: Instruction) -> None:
        keyword = instruction.keyword
        stage = self.stages[-1] if self.stages else None
        if keyword == "FROM":
            self._from(instruction)
        elif keyword == "ARG":
            self._arg(instruction, stage)
        elif stage is None:
            return  # only ARG may come before the first FROM; Docker refuses anything else
        elif keyword == "ENV":
            self._env(instruction, stage)
        elif keyword == "WORKDIR":
            self._workdir(instruction, stage)
        elif keyword == "SHELL":
            self._shell(instruction, stage)
        elif keyword == "RUN":
            self._run(instruction, stage, instruction.args_start, stage.session)
        elif keyword == "ADD":
            self._add(instruction, stage)
        elif keyword == "ONBUILD":
            self._onbuild(instruction, stage)

    # FROM, ARG, ENV, WORKDIR, SHELL

    def _from(self, instruction: Instruction) -> None:
        words = instruction.args.split()
        base = None
        if words:
            image = docker_value(words[0], self.global_scope, self.escape)
            base = self.by_name.get((image.value or "").lower()) if image.value is not None else None
        index = len(self.stages)
        name = _stage_name(instruction)
        label = self.labels[index]
        scope = base.scope.copy() if base is not None else Scope()
        session = shell.ShellSession(self.source.path, FileKind.DOCKERFILE, scope, stage=label)
        session.cwd = base.cwd if base is not None else ""
        lineage = (base.lineage if base is not None else frozenset()) | {index}
        stage = _Stage(index, label, scope, session, lineage)
        if base is not None:
            stage.shell, stage.sh_is_dash = base.shell, base.sh_is_dash
        elif words:
            stage.sh_is_dash = not _BASH_AS_SH.search(image.value or words[0])
            if _SHELL_IS_BASH.search(image.value or words[0]):
                stage.shell = ("/bin/bash", instruction.line)  # the base image's SHELL
        self.stages.append(stage)
        if name:
            self.by_name[name.lower()] = stage

    def _arg(self, instruction: Instruction, stage: _Stage | None) -> None:
        text = instruction.logical.text
        for word, start, end in docker_words(text, instruction.args_start, self.escape):
            name, equals, value = word.partition("=")
            if not name:
                continue
            scope = stage.scope if stage is not None else self.global_scope
            at = self._written_at(instruction, start + len(name) + 1, end) if equals else None
            binding = self._arg_binding(name, value if equals else None, scope, stage is None, at)
            scope.set(name, binding)

    def _written_at(self, instruction: Instruction, start: int, end: int) -> Origin | None:
        """Where the value ``logical.text[start:end]`` of an ARG or ENV is written, the quotes around it
        excluded (None when it is empty)."""
        raw = instruction.logical.text[start:end]
        if len(raw) >= 2 and raw[0] in "\"'" and raw[-1] == raw[0]:
            start, end = start + 1, end - 1
        return Origin(self.source.path, instruction.logical.span(start, end)) if end > start else None

    def _arg_binding(
        self, name: str, value: str | None, scope: Scope, is_global: bool, at: Origin | None
    ) -> Binding:
        """The value that ``ARG name[=value]`` gives, as BuildKit's ``dispatchArg`` decides it
        (frontend/dockerfile/dockerfile2llb/convert.go): the build argument given for the build, else the
        ARG's own default, else a global ``ARG name=…``'s value; with none of them the ARG sets nothing, and
        the stage keeps the value it has, which a stage built ``FROM parent`` copied from the parent's
        state (``dispatchState.init``: ``ds.state = ds.base.state``; Docker's docs: "inherited from
        parent stages")."""
        if is_global:
            self.valueless_globals.discard(name)
        if name in self.build_args:
            given = self.build_args[name]
            return given if isinstance(given, Binding) else Binding(given)
        if value is not None:  # a default: --build-arg replaces it, so it is never empty for good
            return docker_value(value, scope, self.escape, at)._replace(empty_because=None)
        if is_global:
            self.valueless_globals.add(name)  # BuildKit's buildMetaArgs keeps no value for it
        else:
            inherited = None if name in self.valueless_globals else self.global_scope.get(name)
            inherited = inherited or scope.get(name)
            if inherited is not None:
                return inherited
        if name in _PLATFORM_ARGS:
            return Binding(None, Resolution.UNRESOLVED, f"ARG {name} is set by BuildKit from the platform")
        return Binding(None, Resolution.UNRESOLVED, f"ARG {name} has no default and no --build-arg")

    def _env(self, instruction: Instruction, stage: _Stage) -> None:
        pairs = list(_env_pairs(instruction, self.escape))
        bindings = [
            docker_value(raw, stage.scope, self.escape, self._written_at(instruction, *value_at))
            for _name, raw, _span, value_at in pairs
        ]
        for (name, raw, span, _value_at), binding in zip(pairs, bindings, strict=True):
            if binding.value == "" and "$" not in raw:
                binding = binding._replace(empty_because=f"ENV {name} is set to nothing on line {span.line}")
            stage.scope.set(name, binding)
            self.source.env.append(EnvSetting(name, binding.value, span, "image"))

    def _workdir(self, instruction: Instruction, stage: _Stage) -> None:
        path = docker_value(instruction.args, stage.scope, self.escape).value
        if path is None or (not path.startswith("/") and not stage.cwd):
            stage.session.cwd = ""  # unknown: unresolved, or relative to the base image's own WORKDIR
        elif path:
            stage.session.cwd = posixpath.normpath(posixpath.join(stage.cwd, path))

    def _shell(self, instruction: Instruction, stage: _Stage) -> None:
        try:
            argv = json_array(instruction.args)
        except ExtractError as error:
            raise ExtractError(f"line {instruction.line}: SHELL {error}") from None
        if argv:
            stage.shell = (argv[0], instruction.line)

    def _add(self, instruction: Instruction, stage: _Stage) -> None:
        """``ADD`` of a git repository (:mod:`.add`)."""
        text = instruction.logical.text
        if "git" in text or "$" in text:
            from ascend_reflint.extract.dockerfile.add import add_git_pins

            self.add_pins.extend(
                add_git_pins(self.source.path, instruction, stage.scope, self.escape, stage.label)
            )

    # RUN

    def _onbuild(self, instruction: Instruction, stage: _Stage) -> None:
        """``ONBUILD RUN …`` runs in the stages (or images) built FROM this one: scanned on its own."""
        text = instruction.logical.text
        match = _ONBUILD_RUN.match(text, instruction.args_start)
        if match is None:
            return
        session = shell.ShellSession(self.source.path, FileKind.DOCKERFILE, stage.scope, stage=stage.label)
        session.cwd = stage.cwd
        self.trigger_sessions.append(session)
        self._run(instruction, stage, skip_flags(text, match.end()), session)

    def _run(self, instruction: Instruction, stage: _Stage, args_start: int, session: ShellSession) -> None:
        """Walk a RUN's shell texts when they may pin or hold bash syntax that ``/bin/sh`` refuses, and check
        their syntax (RL021); the others are only parsed, after the file's walks (:attr:`unwalked`), so that
        the parse budget goes to pins first."""
        system_shell = None
        if self.runs.runs_in_system_shell(instruction, stage.shell, args_start):
            system_shell = SystemShell(stage.sh_is_dash)
        may_pin = self._may_hold_pin(instruction, stage)
        walk = may_pin or (system_shell is not None and may_hold_bash_syntax(instruction.logical.text))
        if not walk and self.source.template:
            return  # a template's shell gets the rendered text, not this one with the template syntax masked
        try:
            texts = list(self.runs.shell_texts(instruction, stage.shell, args_start))
        except ExtractError as error:
            if may_pin:
                self.source.notices.append(f"line {instruction.line}: RUN {error}; not scanned for pins")
            return
        for text in texts:
            if not walk:
                self.unwalked.append((instruction, text, stage))
                continue
            session.scope = self._scope_for(stage, instruction, text.text)
            try:
                session.run(text.text, text.source_map, system_shell)
            except ExtractError as error:
                self._check_syntax(instruction, text, stage, error)
            else:
                self._check_syntax(instruction, text, stage, None)

    def _check_syntax(
        self, instruction: Instruction, text: SourceMapBuilder, stage: _Stage, failed: ExtractError | None
    ) -> None:
        """Record a shell text of a RUN that is not valid shell (RL021); ``failed`` is the walk's error, if
        any. Asked after a walk too, which has parsed the text already: the walk stops at none of the stray
        words that the grammar takes and bash refuses (``;;`` outside a ``case``). An error that is no
        syntax error (the file's parse budget is spent), or a template's (whose syntax is not checked: its
        shell gets the rendered text), is a notice."""
        problem = None
        if not self.source.template:
            try:
                problem = shell.syntax_problem(text.text)
            except ExtractError as error:
                failed = failed or error
        if problem is not None:
            self._syntax_error(problem, text, stage)
        elif failed is not None:
            self.source.notices.append(f"line {instruction.line}: RUN: {failed}")

    def _syntax_error(self, problem: SyntaxProblem, text: SourceMapBuilder, stage: _Stage) -> None:
        """Record a RUN whose shell text does not parse, at the offending token (RL021)."""
        source_map = text.source_map
        if problem.end > problem.start:
            span = source_map.span(problem.start, problem.end)
        else:
            line, column = source_map.position(problem.start)
            span = Span(line, column, line, column)
        self.source.issues.append(
            CommandIssue(
                kind=IssueKind.RUN_SYNTAX_ERROR,
                path=self.source.path,
                span=span,
                command="RUN",
                subject=text.text[problem.start : problem.end],
                detail=problem.what,
                stage=stage.label,
            )
        )

    @staticmethod
    def _may_hold_pin(instruction: Instruction, stage: _Stage) -> bool:
        """Cheap test before any shell parsing (:func:`~ascend_reflint.extract.shell.may_pin`)."""
        texts = [instruction.logical.text] + [heredoc.body for heredoc in instruction.heredocs]
        return any(shell.may_pin(text, stage.scope) for text in texts)

    # RL012 support: variables the file shows to be empty where a RUN uses them

    def _scope_for(self, stage: _Stage, instruction: Instruction, text: str) -> Scope:
        """A snapshot of the stage's variables for one RUN, with empty-hints for the names it uses."""
        return stage.scope.copy().hinted(
            referenced_names(text), lambda name: self._why_empty(name, instruction, stage)
        )

    def _why_empty(self, name: str, instruction: Instruction, stage: _Stage) -> str | None:
        """Why the file shows ``name`` empty at this RUN (naming the line), or None when it never sets it."""
        mentions = self._mentions.get(name, [])
        line = instruction.line
        for mention in mentions:
            if mention.stage == stage.index and mention.line > line and mention.how in ("ARG", "ENV"):
                return f"{mention.how} {name} is set only after this RUN, on line {mention.line}"
        for mention in mentions:
            if mention.stage == -1:
                return f"ARG {name} on line {mention.line} is global; this stage does not redeclare it"
        for mention in mentions:
            if mention.how in ("ARG", "ENV") and mention.stage not in stage.lineage:
                other = self.labels[mention.stage]
                return (
                    f"{mention.how} {name} is set only in build stage {other} (line {mention.line}), "
                    "which this stage is not built from"
                )
        for mention in mentions:
            if mention.how == "RUN" and mention.line != line:
                return f"{name} is assigned only in the RUN on line {mention.line}, whose shell ends with it"
        for mention in mentions:
            if mention.how == "comment":
                return f"{name} is set only on a commented-out line ({mention.line})"
        return None

    @cached_property
    def _mentions(self) -> dict[str, list[_Mention]]:
        """Every place that gives a variable a value: ARG/ENV, shell assignments in RUNs, comments."""
        mentions: dict[str, list[_Mention]] = {}

        def add(name: str, mention: _Mention) -> None:
            mentions.setdefault(name, []).append(mention)

        stage = -1
        for instruction in self.parsed.instructions:
            keyword = instruction.keyword
            if keyword == "FROM":
                stage += 1
            elif keyword in ("ARG", "ENV"):
                for name in _declared_names(instruction, self.escape):
                    add(name, _Mention(instruction.line, stage, keyword))
            elif keyword in ("RUN", "ONBUILD"):
                texts = [instruction.args] + [heredoc.body for heredoc in instruction.heredocs]
                for text in texts:
                    for match in _SHELL_ASSIGNMENT.finditer(text):
                        add(match.group(1), _Mention(instruction.line, stage, "RUN"))
        for line, comment in self.parsed.comments:
            declaration = _COMMENTED_DECLARATION.match(comment)
            if declaration is not None:
                add(declaration.group(1) or declaration.group(2), _Mention(line, -2, "comment"))
        return mentions


def _stage_name(instruction: Instruction) -> str | None:
    """The ``AS name`` of a FROM instruction, as written, or None."""
    words = instruction.args.split()
    return words[2] if len(words) >= 3 and words[1].lower() == "as" else None


def _env_pairs(instruction: Instruction, escape: str) -> Iterator[tuple[str, str, Span, tuple[int, int]]]:
    """The (name, raw value, span of the value or of the name, the value's offsets in the instruction's
    text) of each pair of an ENV (BuildKit ``parseNameVal``)."""
    logical = instruction.logical
    words = docker_words(logical.text, instruction.args_start, escape)
    if not words:
        return
    if "=" not in words[0][0]:
        start = words[0][1]
        gap = WHITESPACE.search(logical.text, start)
        name_end = gap.start() if gap else len(logical.text)
        name = logical.text[start:name_end]
        value_start = gap.end() if gap else len(logical.text)
        value = logical.text[value_start:].rstrip()
        value_at = (value_start, value_start + len(value))
        if value:
            yield name, value, logical.span(*value_at), value_at
        else:
            yield name, value, logical.span(start, name_end), value_at
        return
    for word, start, end in words:
        name, equals, value = word.partition("=")
        if not equals or not name:
            continue
        value_start = start + len(name) + 1
        span = logical.span(value_start, end) if end > value_start else logical.span(start, start + len(name))
        yield name, value, span, (value_start, end)


def _declared_names(instruction: Instruction, escape: str) -> Iterator[str]:
    """The variable names that an ARG or ENV instruction declares."""
    if instruction.keyword == "ENV":
        yield from (pair[0] for pair in _env_pairs(instruction, escape))
        return
    for word, _start, _end in docker_words(instruction.logical.text, instruction.args_start, escape):
        name = word.partition("=")[0]
        if name:
            yield name
