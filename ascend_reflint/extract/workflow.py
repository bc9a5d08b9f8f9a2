"""Workflow extraction: GitHub Actions workflows (``.github/workflows/*.yml``) and action metadata files
(``action.yml``; composite actions' ``runs.steps``).

What a workflow pins (GitHub's "Workflow syntax for GitHub Actions" and "Metadata syntax for GitHub
Actions"):

- ``uses: owner/repo[/path]@REF`` on a step (an action) or on a job (a reusable workflow) fetches
  ``https://github.com/owner/repo`` at REF. ``./local`` actions and ``docker://`` images pin no git ref.
  GitHub does not evaluate ``${{ }}`` in ``uses:``; a ref written so is reported unresolved.
- ``uses: actions/checkout@…`` with ``with: repository: OWNER/NAME`` also fetches that repository (from
  ``github-server-url:``, default ``https://github.com``). With ``ref: REF`` it is a CHECKOUT pin of REF;
  without a ref (or an empty one) a CLONE pin of the default branch. ``fetch-depth`` (default 1; 0 is the
  whole history) sets ``depth``/``shallow``; the action fetches the ref itself (``git fetch --depth=N
  origin REF``), so ``fetched_ref`` is REF. ``${{ env.NAME }}`` in ``ref:`` and ``repository:`` takes the
  value of the step's ``env`` scope; any other expression leaves the pin unresolved. Without
  ``repository:`` the action checks out the workflow's own repository: no pin. (actions/checkout's
  ``action.yml`` and README: inputs ``repository``, ``ref``, ``fetch-depth``, ``github-server-url``.)
- ``run:`` is a script for the step's shell. Each step runs in its own shell process, so each ``run:`` is
  its own :class:`~ascend_reflint.extract.shell.ShellSession`, whose variables are the ``env:`` of the
  workflow, then the job, then the step (a value holding ``${{ }}`` is unresolved). A step whose shell
  (``shell:``, else the job's then the workflow's ``defaults.run.shell``, else ``pwsh`` on a Windows
  runner, else ``bash``) is not bash or sh (pwsh, python, cmd …) is skipped with a notice.
- ``env:`` at workflow, job and step level becomes :class:`~ascend_reflint.model.EnvSetting` values,
  scoped ``"workflow"``, ``"job:<job id>"`` and ``"step:<job id>:<index>"`` (``index`` counts a job's
  steps from 0; a composite action's steps belong to the job id ``"runs"``). Values are the YAML text:
  ``true`` and ``1`` are ``"true"`` and ``"1"``; an empty or null value is ``""``.

Positions are the file's own, through :mod:`ascend_reflint.extract.yamlpos`: exact for every scalar
style, quotes excluded, including literal and folded block scalars and multi-line plain scalars.

The file is untrusted: it is read into inert nodes (no tag is constructed), and only the fixed paths above
are walked. Aliases let a small file name the same step or ``env:`` many times over; the work done is
bounded by a multiple of the file's size, past which the walk stops with an error (pins found so far kept).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from ascend_reflint.extract.comments import version_comment
from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.expressions import (
    Combination,
    bind,
    input_values,
    matrix_combinations,
    references,
    variants,
)
from ascend_reflint.extract.gitsource import is_git_source
from ascend_reflint.extract.pinwords import PIN_WORDS
from ascend_reflint.extract.shell import ShellSession
from ascend_reflint.extract.yamlpos import (
    LineIndex,
    YamlMapping,
    YamlNode,
    YamlScalar,
    YamlSequence,
    parse_yaml,
    scalar_source_map,
)
from ascend_reflint.model import (
    CallSite,
    EnvSetting,
    FileKind,
    GivenValue,
    Invocation,
    InvokedPath,
    Origin,
    Pin,
    Resolution,
    SourceFile,
    Span,
    Via,
)
from ascend_reflint.remote import github_action_url, normalise_remote
from ascend_reflint.resolve import Binding, Provenance, Scope, evaluate_expression, expression_key, origin_of
from ascend_reflint.sourcemap import SourceMap

#: A file holding none of these words can neither pin a ref nor set env: it is not parsed at all (see
#: :mod:`ascend_reflint.extract.pinwords` for what every pin holds).
_WORTH_PARSING = (*PIN_WORDS, "uses", "env", "docker", "podman")
_ACTION_FILE_NAMES = frozenset({"action.yml", "action.yaml"})
#: The job id that a composite action's steps are scoped under (``step:runs:<index>``).
ACTION_JOB_ID = "runs"
_POSIX_SHELLS = frozenset({"bash", "sh"})
#: Plain scalars that YAML reads as null; GitHub sets such an env variable to the empty string.
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
#: Work allowed per character of the file, and at least, before the walk stops (see ``_Walker._spend``):
#: enough for a step list that aliases repeat in several jobs, linear in the file's size for an alias bomb.
_BUDGET_PER_CHARACTER = 8
_BUDGET_FLOOR = 50_000
#: Work units of reading one job or step, and one env entry, besides the characters of the values read.
_COST_OF_ITEM = 32
_COST_OF_ENTRY = 8
#: The action whose ``with: repository:`` fetches another repository (owner and name case-insensitive).
_CHECKOUT_ACTION = "actions/checkout"
_GITHUB_SERVER = "https://github.com"
#: The action that builds a Dockerfile with build arguments.
_BUILD_PUSH_ACTION = "docker/build-push-action"
_DEFAULT_CONTEXT = "{{defaultContext}}"
#: actions/checkout's ``fetch-depth`` default: one commit.
_CHECKOUT_DEFAULT_DEPTH = 1
_ANY_EXPRESSION = re.compile(r"\$\{\{.*?(?:\}\}|$)", re.DOTALL)


def extract_workflow(source: SourceFile, inputs: Mapping[str, Binding] | None = None) -> None:
    """Fill ``source.pins`` (in file order), ``source.env`` and ``source.notices`` from a workflow or an
    action metadata file.

    Args:
        source: a file of kind WORKFLOW whose ``text`` has been read; ``action.yml``/``action.yaml`` is
            read as action metadata, any other name as a workflow.
        inputs: the inputs that a caller gives a reusable workflow (``with:``), read as that call runs it;
            None to read the workflow as its own triggers run it.

    Raises:
        ExtractError: for malformed YAML (the message names the line and column); when aliases make the
            walk pass its budget (an alias bomb: the pins found before that point are kept); or, once
            every step has been read, for the first ``run:`` script that does not parse as shell (what its
            well-formed parts and the other steps pin is in ``source.pins`` all the same). A workflow whose
            parts have unexpected shapes (``jobs`` not a mapping, a step that is a string …) is not an
            error: those parts pin nothing.
    """
    text = source.text
    assert text is not None
    if not any(word in text for word in _WORTH_PARSING):
        return
    root = parse_yaml(text)
    if not isinstance(root, YamlMapping):
        return
    walker = _Walker(source, text, inputs)
    try:
        if os.path.basename(source.path).lower() in _ACTION_FILE_NAMES:
            walker.action(root)
        else:
            walker.workflow(root)
    except _BudgetSpent as spent:
        # The file was not read as a whole: an error (what was found is dropped), not a caveat.
        raise ExtractError(
            f"line {spent.line}: stopped reading: YAML aliases repeat more content than the file holds "
            "(an alias bomb?); the file is not checked"
        ) from None
    finally:
        # A step reached again through an alias, in the same env, pins the same refs at the same place; a
        # step read once per matrix value may invoke the same build each time.
        source.invocations[:] = list(dict.fromkeys(source.invocations))
        unique = dict.fromkeys(source.pins)
        source.pins[:] = sorted(unique, key=lambda pin: (pin.span.line, pin.span.column))
    if walker.shell_errors:
        raise ExtractError(walker.shell_errors[0])


class _Shell(NamedTuple):
    """The shell a ``run:`` runs in: its command as written and where that choice came from."""

    command: str
    origin: str

    def is_posix(self) -> bool:
        """True for bash and sh, with or without options (``bash -el {0}``) or a path (``/bin/sh``)."""
        words = self.command.split()
        return bool(words) and os.path.basename(words[0]) in _POSIX_SHELLS


_DEFAULT_SHELL = _Shell("bash", "the default shell")
_WINDOWS_SHELL = _Shell("pwsh", "the default shell on Windows runners")


class _JobContext(NamedTuple):
    """What a job's steps are read with: its id, its ``env:`` node, and its matrix's combinations."""

    job_id: str
    env: YamlNode | None
    matrix: list[Combination] | None


class _BudgetSpent(Exception):
    """The walk did more work than the file's size allows; ``line`` is where it stopped."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class _Walker:
    """Walks the fixed paths of a workflow or action file and records pins, env and notices."""

    def __init__(self, source: SourceFile, text: str, given: Mapping[str, Binding] | None = None) -> None:
        self.source = source
        self.text = text
        self.lines = LineIndex(text)
        # Work units: a fixed cost per job, step or env entry, plus the characters of each value read.
        self.budget = _BUDGET_PER_CHARACTER * len(text) + _BUDGET_FLOOR
        self.in_action = False
        #: Why ``run:`` scripts did not parse, in the order met (their well-formed parts are read).
        self.shell_errors: list[str] = []
        #: The values of the workflow's inputs (see :func:`.expressions.input_values`).
        self.inputs: dict[str, list[Binding]] = {}
        self.given = given

    def workflow(self, root: YamlMapping) -> None:
        """Read a workflow: its ``env``, ``defaults``, inputs and ``jobs``."""
        scope = Scope()
        self.inputs = input_values(root, self._binding_of, called=self.given is not None)
        self.inputs.update({name: [binding] for name, binding in (self.given or {}).items()})
        self._env(root.get("env"), "workflow", scope)
        shell = _defaults_shell(root)
        jobs = root.get("jobs")
        if not isinstance(jobs, YamlMapping):
            return
        for key, job in jobs.pairs:
            if isinstance(key, YamlScalar) and isinstance(job, YamlMapping):
                self._job(key.value, job, scope, shell)

    def action(self, root: YamlMapping) -> None:
        """Read action metadata: a composite action's ``runs.steps`` (other actions have no steps)."""
        self.in_action = True
        runs = root.get("runs")
        if isinstance(runs, YamlMapping):
            self._steps(_JobContext(ACTION_JOB_ID, None, None), runs.get("steps"), Scope(), _DEFAULT_SHELL)

    def _job(self, job_id: str, job: YamlMapping, workflow_scope: Scope, shell: _Shell | None) -> None:
        self._spend(_COST_OF_ITEM, job)
        scope = workflow_scope.child()
        env = job.get("env")
        self._env(env, f"job:{job_id}", scope)
        context = _JobContext(job_id, env, matrix_combinations(job, self._binding_of))
        uses = job.get("uses")
        if isinstance(uses, YamlScalar):
            self._uses(uses)
            for row_scope in self._variants(job, scope, context):
                self._workflow_call(uses, job.get("with"), row_scope)
        job_shell = _defaults_shell(job) or shell
        if job_shell is None:
            job_shell = _WINDOWS_SHELL if self._runs_on_windows(job.get("runs-on")) else _DEFAULT_SHELL
        self._steps(context, job.get("steps"), scope, job_shell)

    def _steps(self, job: _JobContext, steps: YamlNode | None, job_scope: Scope, shell: _Shell) -> None:
        if not isinstance(steps, YamlSequence):
            return
        for index, step in enumerate(steps.items):
            if isinstance(step, YamlMapping):
                self._step(job, index, step, job_scope, shell)

    def _variants(self, node: YamlMapping, job_scope: Scope, job: _JobContext) -> Iterator[Scope]:
        """A scope per distinct combination of the matrix and input values that ``node`` (a step, or a job
        that calls a reusable workflow) references, with the job's env evaluated again in it when that env
        references them (see :mod:`.expressions`)."""
        referenced = references(self._texts(node) + self._texts(job.env))
        rows = variants(referenced, job.matrix, self.inputs)
        for row in rows:
            scope = job_scope.child()
            bind(scope, row)
            if row and job.env is not None:
                self._env(job.env, f"job:{job.job_id}", scope, record=False)
            yield scope

    def _step(self, job: _JobContext, index: int, step: YamlMapping, job_scope: Scope, shell: _Shell) -> None:
        self._spend(_COST_OF_ITEM, step)
        uses = step.get("uses")
        if isinstance(uses, YamlScalar):
            self._uses(uses)
        run = step.get("run")
        step_shell = step.get("shell")
        if isinstance(step_shell, YamlScalar):
            shell = _Shell(step_shell.value, "set by the step's shell:")
        where = f"step {index} of runs.steps" if self.in_action else f"step {index} of job '{job.job_id}'"
        for number, scope in enumerate(self._variants(step, job_scope, job)):
            self._env(step.get("env"), f"step:{job.job_id}:{index}", scope, record=number == 0)
            if isinstance(uses, YamlScalar) and _is_checkout(uses.value):
                self._checkout(step.get("with"), scope)
            elif isinstance(uses, YamlScalar) and _is_build_push(uses.value):
                self._build_push(uses, step.get("with"), scope, where)
            if isinstance(run, YamlScalar):
                self._run(run, scope, shell, where)

    def _texts(self, node: YamlNode | None) -> str:
        """The scalars under ``node``, joined: where a step's expressions are."""
        found: list[str] = []
        pending = [node] if node is not None else []
        while pending:
            item = pending.pop()
            if isinstance(item, YamlScalar):
                found.append(item.value)
            elif isinstance(item, YamlMapping):
                pending.extend(value for _, value in item.pairs)
            elif isinstance(item, YamlSequence):
                pending.extend(item.items)
        return "\n".join(found)

    def _binding_of(self, node: YamlScalar) -> Binding:
        """The value a scalar of the workflow gives (a matrix value, an input's default), with where it is
        written; unresolved when it holds an expression."""
        text = "" if node.style is None and node.value in _NULLS else node.value
        note = _expression_note(text)
        if note:
            return Binding(None, Resolution.UNRESOLVED, f"the value is set by {note}")
        span = self._map(node).span(0, max(1, len(text)))
        return Binding(text, provenance=Provenance.written(self.source.path, span, text))

    def _uses(self, node: YamlScalar) -> None:
        """Record ``uses: owner/repo[/path]@REF`` as an ACTION pin (not ``./local``, not ``docker://``)."""
        self._spend(len(node.value), node)
        written = node.value.strip()
        lead = node.value.find(written[:1]) if written else 0
        at = written.find("@")
        if written.startswith((".", "docker://")) or at <= 0 or at == len(written) - 1:
            return
        target, ref = written[:at], written[at + 1 :]
        owner_repo = target.split("/")
        if len(owner_repo) < 2 or not owner_repo[0] or not owner_repo[1]:
            return
        source_map = self._map(node)
        target_note, ref_note = _expression_note(target), _expression_note(ref)
        url = target if target_note else github_action_url(target)
        comment = version_comment(self.text, node.end, self.lines)
        self.source.pins.append(
            Pin(
                path=self.source.path,
                kind=FileKind.WORKFLOW,
                via=Via.ACTION,
                span=source_map.span(lead + at + 1, lead + len(written)),
                url=url,
                remote=None if target_note else normalise_remote(url),
                ref=None if ref_note else ref,
                ref_text=ref,
                resolution=Resolution.UNRESOLVED if target_note or ref_note else Resolution.RESOLVED,
                resolution_note=target_note or ref_note,
                url_span=source_map.span(lead, lead + at),
                version_comment=comment[0] if comment is not None else None,
                version_comment_span=comment[1] if comment is not None else None,
            )
        )

    def _checkout(self, inputs: YamlNode | None, scope: Scope) -> None:
        """Record the repository that ``actions/checkout`` fetches when ``with: repository:`` names one.

        A CHECKOUT pin spanning the ``ref:`` value, or a CLONE pin spanning the ``repository:`` value when
        no ref is given; ``url_span`` is the ``repository:`` value's span either way.
        """
        if not isinstance(inputs, YamlMapping):
            return
        repository = _input(inputs, "repository")
        if repository is None:
            return  # the workflow's own repository
        ref = _input(inputs, "ref")
        server = _input(inputs, "github-server-url")
        written = (repository, ref, server)
        self._spend(sum(len(node.value) for node in written if node is not None), inputs)
        repo_value = _with_expressions(repository.value.strip(), scope)
        server_value = (
            _with_expressions(server.value.strip(), scope) if server is not None else _Value(_GITHUB_SERVER)
        )
        url, remote, url_note = repository.value.strip(), None, repo_value.note or server_value.note
        if url_note is None:
            assert repo_value.text is not None and server_value.text is not None
            parts = repo_value.text.split("/")
            if len(parts) != 2 or not all(parts):
                return  # actions/checkout refuses anything but OWNER/NAME
            url = f"{server_value.text.rstrip('/')}/{repo_value.text}"
            remote = normalise_remote(url)
        ref_text = ref.value.strip() if ref is not None else ""
        ref_value = _with_expressions(ref_text, scope) if ref_text else _Value(None)
        if ref_text and ref_value.text == "":
            return  # an input on a trigger that gives none: the checkout of the triggering ref, not a pin
        note = url_note or ref_value.note
        depth = _fetch_depth(inputs.get("fetch-depth"))
        ref_node = ref if ref_text and ref is not None else repository
        self.source.pins.append(
            Pin(
                path=self.source.path,
                kind=FileKind.WORKFLOW,
                via=Via.CHECKOUT if ref_text else Via.CLONE,
                span=self._stripped_span(ref_node),
                url=url,
                remote=remote,
                ref=ref_value.text,
                ref_text=ref_text or None,
                resolution=Resolution.UNRESOLVED if note else Resolution.RESOLVED,
                resolution_note=note,
                depth=depth,
                shallow=depth is not None,
                url_span=self._stripped_span(repository),
                fetched_ref=ref_value.text,
                ref_origin=origin_of(ref_value.provenance),
                url_origin=origin_of(repo_value.provenance),
            )
        )

    def _build_push(self, uses: YamlScalar, inputs: YamlNode | None, scope: Scope, where: str) -> None:
        """``docker/build-push-action``: an invocation of the Dockerfile it builds (``file:``, else
        ``{context}/Dockerfile``; the context is the workflow's repository when ``context:`` is not given)
        with its ``build-args:`` (one ``NAME=VALUE`` a line) and ``target:``; or the pin of a git URL
        ``context:``. (The action's README, "Inputs"; paths are relative to the workspace: the root.)"""
        inputs = inputs if isinstance(inputs, YamlMapping) else YamlMapping(uses.start)
        context = _input(inputs, "context")
        context_value = _with_expressions(context.value.strip(), scope).text if context is not None else "."
        if (
            context is not None
            and context_value is not None
            and is_git_source(context_value, build_context=True)
        ):
            return  # the Dockerfile is in that repository, not in this project
        file = _input(inputs, "file")
        named = _with_expressions(file.value.strip(), scope).text if file is not None else None
        if file is None and context_value is not None:
            # "{{defaultContext}}:DIR" is a folder of the workflow's repository
            folder = (
                context_value.split(":", 1)[1]
                if context_value.startswith(_DEFAULT_CONTEXT)
                else context_value
            )
            named = posixpath.join(folder or ".", "Dockerfile")
        if named is None or named.startswith("/"):
            return
        target = _input(inputs, "target")
        self.source.invocations.append(
            Invocation(
                kind=FileKind.DOCKERFILE,
                paths=(InvokedPath(posixpath.normpath(named), from_root=True),),
                values=tuple(self._build_args(inputs.get("build-args"), scope)),
                site=CallSite(
                    self.source.path, self._stripped_span(uses), f"built by `{uses.value.strip()}` ({where})"
                ),
                target=_with_expressions(target.value.strip(), scope).text if target is not None else None,
            )
        )

    def _build_args(self, node: YamlNode | None, scope: Scope) -> Iterator[GivenValue]:
        """The ``NAME=VALUE`` lines of a ``build-args:`` input, each value where it is written."""
        if not isinstance(node, YamlScalar):
            return
        source_map = self._map(node)
        offset = 0
        for line in node.value.split("\n"):
            start = offset + len(line) - len(line.lstrip())
            offset += len(line) + 1
            name, equals, value = line.strip().partition("=")
            if not equals or not name:
                continue
            value_start = start + len(name) + 1
            evaluated = _with_expressions(value, scope)
            provenance = evaluated.provenance
            span = source_map.span(value_start, value_start + max(1, len(value)))
            if provenance is None and evaluated.text == value and value:
                provenance = Provenance.written(self.source.path, span, value)
            origin = provenance.origin if provenance is not None else None
            if evaluated.text is None:  # a run-time value: where it is written, for the message
                origin = Origin(self.source.path, span)
            verbatim = provenance.verbatim if provenance is not None else False
            yield GivenValue(name, evaluated.text, origin, verbatim, evaluated.note)

    def _workflow_call(self, uses: YamlScalar, inputs: YamlNode | None, scope: Scope) -> None:
        """A job that calls a reusable workflow of this repository (``uses: ./.github/workflows/x.yml``):
        an invocation of it with the ``with:`` values as its inputs."""
        written = uses.value.strip()
        if not written.startswith("./") or "@" in written:
            return
        given: list[GivenValue] = []
        if isinstance(inputs, YamlMapping):
            for key, value in inputs.pairs:
                if not isinstance(key, YamlScalar) or not isinstance(value, YamlScalar):
                    continue
                evaluated = _with_expressions(value.value, scope)
                provenance = evaluated.provenance
                if provenance is None and evaluated.text == value.value and value.value:
                    provenance = self._binding_of(value).provenance
                given.append(
                    GivenValue(
                        key.value,
                        evaluated.text,
                        provenance.origin if provenance is not None else None,
                        provenance.verbatim if provenance is not None else False,
                        evaluated.note,
                    )
                )
        self.source.invocations.append(
            Invocation(
                kind=FileKind.WORKFLOW,
                paths=(InvokedPath(posixpath.normpath(written[2:]), from_root=True),),
                values=tuple(given),
                site=CallSite(self.source.path, self._stripped_span(uses), f"called by `uses: {written}`"),
            )
        )

    def _stripped_span(self, node: YamlScalar) -> Span:
        """The span of ``node``'s value without leading or trailing blanks (actions trim their inputs)."""
        written = node.value.strip()
        lead = node.value.find(written[:1]) if written else 0
        return self._map(node).span(lead, lead + max(1, len(written)))

    def _env(self, node: YamlNode | None, scope_name: str, scope: Scope, record: bool = True) -> None:
        """Bind each ``NAME: value`` of an ``env:`` mapping in ``scope`` (also as ``${{ env.NAME }}``), the
        expressions in its value that the workflow gives evaluated; with ``record``, also record it as an
        :class:`~ascend_reflint.model.EnvSetting` (as written: an expression's value is not known)."""
        if not isinstance(node, YamlMapping):
            return
        for key, value in node.pairs:
            self._spend(_COST_OF_ENTRY, node)
            if not isinstance(key, YamlScalar) or not isinstance(value, YamlScalar):
                continue
            self._spend(len(value.value), value)
            text = "" if value.style is None and value.value in _NULLS else value.value
            note = _expression_note(text)
            spanned = value if text else key
            span = self._map(spanned).span(0, max(1, len(spanned.value)))
            if record:
                self.source.env.append(EnvSetting(key.value, None if note else text, span, scope_name))
            if note:
                evaluated = _with_expressions(text, scope)
                binding = Binding(
                    evaluated.text, provenance=evaluated.provenance, empty_because=evaluated.empty_because
                )
                if evaluated.text is None:
                    why = f"{note}; {evaluated.note}" if evaluated.note and evaluated.note != note else note
                    binding = Binding(None, Resolution.UNRESOLVED, f"${key.value} is set by {why}")
            else:
                line = span.line
                empty = f"${key.value} is set to nothing on line {line}" if not text else None
                binding = Binding(
                    text, provenance=Provenance.written(self.source.path, span, text), empty_because=empty
                )
            scope.set(key.value, binding)
            scope.set(expression_key(f"env.{key.value}"), binding)

    def _run(self, node: YamlScalar, scope: Scope, shell: _Shell, where: str) -> None:
        """Hand a ``run:`` script to a shell session of its own, or say why it is skipped."""
        self._spend(len(node.value), node)
        if not shell.is_posix():
            line = self._map(node).position(0)[0]
            self.source.notices.append(
                f"line {line}: skipped the run: script of {where}: its shell is '{shell.command}' "
                f"({shell.origin}); reflint reads bash and sh scripts only"
            )
            return
        session = ShellSession(self.source.path, FileKind.WORKFLOW, scope)
        if not session.may_pin(node.value):
            return  # most scripts: their source map is not worth building
        try:
            session.run(node.value, self._map(node))
        except ExtractError as exc:
            self.shell_errors.append(f"{exc} (in the run: script of {where})")
        self.source.pins.extend(session.finish())
        self.source.notices.extend(session.notices)
        self.source.issues.extend(session.issues)
        self.source.invocations.extend(session.invocations)

    def _runs_on_windows(self, runs_on: YamlNode | None) -> bool:
        """True when ``runs-on`` names a Windows runner label (a label, a list, or ``{labels: …}``)."""
        if isinstance(runs_on, YamlMapping):
            runs_on = runs_on.get("labels")
        labels = runs_on.items if isinstance(runs_on, YamlSequence) else [runs_on]
        self._spend(len(labels), runs_on)
        return any(
            isinstance(label, YamlScalar) and label.value.strip().lower().startswith("windows")
            for label in labels
        )

    def _map(self, node: YamlScalar) -> SourceMap:
        return scalar_source_map(self.text, node, self.lines)

    def _spend(self, units: int, where: YamlNode | None) -> None:
        self.budget -= units
        if self.budget < 0:
            start = where.start if where is not None else 0
            raise _BudgetSpent(self.lines.position(start)[0])


def _defaults_shell(node: YamlMapping) -> _Shell | None:
    """The ``defaults.run.shell`` of a workflow or job, or None when it sets none."""
    defaults = node.get("defaults")
    run = defaults.get("run") if isinstance(defaults, YamlMapping) else None
    shell = run.get("shell") if isinstance(run, YamlMapping) else None
    return _Shell(shell.value, "set by defaults.run.shell") if isinstance(shell, YamlScalar) else None


class _Value(NamedTuple):
    """An action input's value after ``${{ env.NAME }}`` substitution: ``text``, or None and why not;
    ``provenance`` when the input is one ``${{ env.NAME }}`` whose value has one."""

    text: str | None
    note: str | None = None
    provenance: Provenance | None = None
    empty_because: str | None = None


def _is_build_push(uses: str) -> bool:
    """True for ``docker/build-push-action@ANY``."""
    target, at, ref = uses.strip().partition("@")
    return bool(at and ref) and target.lower() == _BUILD_PUSH_ACTION


def _is_checkout(uses: str) -> bool:
    """True for ``actions/checkout@ANY`` (a version, a branch or a commit id; owner and name any case)."""
    target, at, ref = uses.strip().partition("@")
    return bool(at and ref) and target.lower() == _CHECKOUT_ACTION


def _input(inputs: YamlMapping, name: str) -> YamlScalar | None:
    """The ``with:`` input ``name`` when it is a scalar holding more than blanks, else None."""
    node = inputs.get(name)
    if not isinstance(node, YamlScalar) or not node.value.strip():
        return None
    if node.style is None and node.value in _NULLS:
        return None
    return node


def _with_expressions(text: str, scope: Scope) -> _Value:
    """``text`` with each ``${{ matrix.X }}``, ``${{ inputs.X }}`` and ``${{ env.X }}`` replaced by the value
    the workflow gives it in ``scope`` (:mod:`.expressions`).

    GitHub evaluates ``${{ }}`` in ``with:`` and ``env:`` values (and never ``$NAME``); an input on a trigger
    that gives none is ``''``; any other expression, or a value the workflow does not give, leaves the value
    unresolved.
    """
    pieces: list[str] = []
    last = 0
    for match in _ANY_EXPRESSION.finditer(text):
        inner = match.group(0)[3:-2] if match.group(0).endswith("}}") else ""
        binding = evaluate_expression(inner, scope)
        if binding is not None and binding.resolution is Resolution.EMPTY:
            # an input on another trigger: the runner gives '', and nothing in the file can change that
            binding = Binding("", empty_because=binding.note)
        if binding is None or binding.value is None:
            note = binding.note if binding is not None and binding.note else _expression_note(match.group(0))
            return _Value(None, note)
        pieces += [text[last : match.start()], binding.value]
        last = match.end()
        if match.span() == (0, len(text)):
            return _Value(binding.value, provenance=binding.provenance, empty_because=binding.empty_because)
    return _Value("".join(pieces) + text[last:])


def _fetch_depth(node: YamlNode | None) -> int | None:
    """The depth that actions/checkout's ``fetch-depth`` asks for: None for 0 (all history), the default
    (1) when unset or empty, and None when it is not a whole number (an expression: not known statically)."""
    written = node.value.strip() if isinstance(node, YamlScalar) else None
    if (
        node is None
        or written == ""
        or (written in _NULLS and isinstance(node, YamlScalar) and node.style is None)
    ):
        return _CHECKOUT_DEFAULT_DEPTH
    if written is None or not written.isdigit():
        return None
    return int(written) or None


def _expression_note(text: str) -> str | None:
    """``GitHub expression ${{ … }}`` for the first expression in ``text``, or None when it holds none."""
    start = text.find("${{")
    if start == -1:
        return None
    end = text.find("}}", start + 3)
    return f"GitHub expression {text[start : len(text) if end == -1 else end + 2]}"
