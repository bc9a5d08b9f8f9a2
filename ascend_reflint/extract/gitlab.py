"""GitLab CI extraction: ``.gitlab-ci.yml``, the files under ``.gitlab/`` and the local files they include.

Facts used here (GitLab's "CI/CD YAML syntax reference" and "GitLab CI/CD variables"):

- A job is a top-level key that is not a keyword (``default``, ``include``, ``stages``, ``variables``,
  ``workflow``, ``image``, ``services``, ``cache``, ``before_script``, ``after_script``, ``spec``); a key
  that starts with ``.`` is a hidden job, a template that ``extends``/``!reference`` reuse: read too, so
  that what it pins is reported where it is written.
- ``before_script`` and ``script`` run in one shell, one line after the other (a list's items are lines;
  nested lists are flattened); ``after_script`` runs in a shell of its own. A job without its own
  ``before_script``/``after_script`` takes ``default:``'s, which reflint reads once, where written. Items
  that are ``!reference [...]`` tags name other jobs' scripts: left inert (those scripts are read where
  they are written). Each job's scripts are one :class:`~ascend_reflint.extract.shell.ShellSession`.
- ``variables:`` at the top level and in a job (a job's win; those of the hidden jobs it ``extends`` in this
  file come first) reach the script's environment; a value is a string or ``{value: …, description: …}``;
  GitLab expands ``$NAME``/``${NAME}`` in it (``$$`` is a ``$``) unless ``expand: false``. Keys of a job's
  ``parallel: matrix:`` take each of their values: unresolved. GitLab's predefined variables
  (``$CI_COMMIT_SHA``…) are set when the job runs: unresolved.
- ``include:`` takes a string or a list; ``project: PATH`` with ``ref: REF`` (and ``file:``) reads files of
  another project of the same GitLab instance at REF (without ``ref`` at its default branch): a pin of
  ``https://HOST/PATH.git``. ``component: HOST/PATH/NAME@VERSION`` (a CI/CD component) pins the project
  ``HOST/PATH`` at VERSION (``~latest`` is chosen when the pipeline starts: unresolved). The instance that
  runs the pipeline is not written in the file (a component names it as ``$CI_SERVER_FQDN``, or
  ``$CI_SERVER_HOST``/``$CI_SERVER_URL``, which GitLab sets when the job runs): unless the top-level
  ``variables:`` set one of those, the URL is left on the instance, :data:`INSTANCE_URL` ``+ PATH.git``,
  unresolved, and :func:`place_on_instance` puts it on the host that the config or the repository's
  ``origin`` names, after extraction (those are facts of the project, not of the file). ``local: PATH`` (or
  a string that is not a URL) names a file of this repository, relative to its root: the inventory reads it
  too (inside the project root only); ``remote:`` and ``template:`` name no git ref.

Positions come from :mod:`ascend_reflint.extract.yamlpos`; the YAML is read as inert parser events (no tag
is constructed); aliases may repeat content, so the work is bounded by a multiple of the file's size.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from ascend_reflint.extract.errors import ExtractError
from ascend_reflint.extract.pinwords import may_name_pin
from ascend_reflint.extract.yamlpos import (
    LineIndex,
    YamlMapping,
    YamlNode,
    YamlScalar,
    YamlSequence,
    parse_yaml,
    scalar_source_map,
    value_span,
)
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote, url_host
from ascend_reflint.resolve import Binding, Scope, expand
from ascend_reflint.sourcemap import SourceMapBuilder

#: Top-level keys that are not jobs.
_KEYWORDS = frozenset(
    {
        "default",
        "include",
        "stages",
        "variables",
        "workflow",
        "image",
        "services",
        "cache",
        "before_script",
        "after_script",
        "spec",
        "pages",
    }
)
_HOST_VARIABLES = ("CI_SERVER_FQDN", "CI_SERVER_HOST", "CI_SERVER_URL")
#: The start of the URL of a project on the instance that runs the pipeline, while its host is unknown.
INSTANCE_URL = "https://$CI_SERVER_FQDN/"
#: The resolution note of such a URL (RL009 shows it).
INSTANCE_NOTE = (
    "the project is on the GitLab instance that runs the pipeline, which the file does not name; "
    "`gitlab-host: HOST` in reflint's config names it"
)
#: Stands for the instance's host inside a value while it is expanded.
_INSTANCE = "\1"
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_BUDGET_PER_CHARACTER = 8
_BUDGET_FLOOR = 50_000
_MAX_NESTED_SCRIPT_LISTS = 10


def extract_gitlab_ci(source: SourceFile) -> None:
    """Fill ``source.pins``, ``source.notices`` and ``source.named_files`` from a GitLab CI file.

    Args:
        source: the file, with ``text`` read.

    Raises:
        ExtractError: for malformed YAML; when aliases make the walk pass its budget; or, once every job is
            read, for the first script that does not parse as shell (the other pins are kept).
    """
    text = source.text
    assert text is not None
    if not may_name_pin(text) and "include" not in text:
        return
    root = _parse(text)
    if not isinstance(root, YamlMapping):
        return
    reader = _Reader(source, text, root)
    try:
        reader.read()
    finally:
        source.pins.sort(key=lambda pin: (pin.span.line, pin.span.column))
    if reader.shell_errors:
        raise ExtractError(reader.shell_errors[0])


def place_on_instance(files: Sequence[SourceFile], configured: str | None) -> None:
    """Put the projects that GitLab CI files include from the instance that runs the pipeline (URLs that
    start with :data:`INSTANCE_URL`) on that instance, when it is known; else they stay unresolved, with
    :data:`INSTANCE_NOTE` (RL009), never looked up at a guessed host.

    The instance is ``configured`` (the config's ``gitlab-host``), else the host of the ``origin`` remote of
    the repository that holds the file, when that is a GitLab instance (:func:`instance_of_origin`).

    Args:
        files: the files read (those of kind GITLAB_CI are changed in place: their ``pins``).
        configured: ``HOST`` or ``HOST:PORT`` of the instance, or None.
    """
    from ascend_reflint.worktree import enclosing_origin_url

    hosts: dict[str, str | None] = {}
    for source in files:
        if source.kind is not FileKind.GITLAB_CI or not any(_on_instance(pin) for pin in source.pins):
            continue
        host = configured
        if host is None:
            folder = os.path.dirname(source.abspath)
            if folder not in hosts:
                hosts[folder] = instance_of_origin(enclosing_origin_url(folder))
            host = hosts[folder]
        if host is not None:
            source.pins = [_placed(pin, host) if _on_instance(pin) else pin for pin in source.pins]


def instance_of_origin(origin: str | None) -> str | None:
    """The host (with the port of an http(s) URL) of ``origin`` when it is a GitLab instance one can tell:
    a host name with ``gitlab`` in it (gitlab.com, gitlab.example.com, gitlab-master.nvidia.com), or a URL
    whose user is ``gitlab-ci-token`` (the clone that a GitLab CI job makes, GitLab's "CI/CD job token"
    docs); None for anything else (github.com, a local path, a host that names no forge)."""
    if not origin:
        return None
    host = url_host(origin)
    if host is None:
        return None
    user, port = None, None
    if "://" in origin:
        try:
            parts = urlsplit(origin)
            user = parts.username
            port = parts.port if parts.scheme.lower() in ("http", "https") else None
        except ValueError:
            return None
    if "gitlab" not in host and user != "gitlab-ci-token":
        return None
    return f"{host}:{port}" if port is not None else host


def _on_instance(pin: Pin) -> bool:
    return pin.via is Via.GITLAB_INCLUDE and pin.url.startswith(INSTANCE_URL)


def _placed(pin: Pin, host: str) -> Pin:
    """``pin`` with its project on the instance ``host``."""
    url = f"https://{host}/{pin.url[len(INSTANCE_URL) :]}"
    note = pin.resolution_note
    if note == INSTANCE_NOTE:
        return dataclasses.replace(
            pin, url=url, remote=normalise_remote(url), resolution=Resolution.RESOLVED, resolution_note=None
        )
    # The ref is unresolved too: it stays so, on the instance.
    note = note.removesuffix(f"; {INSTANCE_NOTE}") if note is not None else None
    return dataclasses.replace(pin, url=url, remote=normalise_remote(url), resolution_note=note)


def _parse(text: str) -> YamlNode | None:
    """The configuration document: a CI/CD component's file is a ``spec:`` header document, ``---``, and
    the configuration (the header is left out, its lines kept blank so that positions stay)."""
    try:
        return parse_yaml(text)
    except ExtractError as error:
        separator = re.search(r"^---[ \t]*\r?$", text, re.MULTILINE)
        if "second YAML document" not in str(error) or separator is None:
            raise
        second = re.search(r"^---[ \t]*\r?$", text[separator.end() :], re.MULTILINE)
        cut = separator.end() + second.start() if second is not None else None
        if cut is None:
            raise
        blank = re.sub(r"[^\n]", " ", text[:cut])
        return parse_yaml(blank + text[cut:])


class _BudgetSpent(Exception):
    pass


class _Reader:
    """Walks the jobs, variables and includes of one file."""

    def __init__(self, source: SourceFile, text: str, root: YamlMapping) -> None:
        self.source = source
        self.text = text
        self.root = root
        self.lines = LineIndex(text)
        self.budget = _BUDGET_PER_CHARACTER * len(text) + _BUDGET_FLOOR
        self.shell_errors: list[str] = []
        self.scope = Scope()
        self.host: str | None = None

    def read(self) -> None:
        try:
            self._variables(self.root.get("variables"), self.scope)
            self.host = self._host()
            self._includes(self.root.get("include"))
            default = self.root.get("default")
            if isinstance(default, YamlMapping):
                self._job("default", default)
            for key, value in self.root.pairs:
                if (
                    isinstance(key, YamlScalar)
                    and key.value not in _KEYWORDS
                    and isinstance(value, YamlMapping)
                ):
                    self._job(key.value, value)
            for keyword in ("before_script", "after_script"):  # deprecated top-level scripts
                scripts = list(self._scripts(self.root.get(keyword)))
                if scripts:
                    self._run(scripts, self.scope, f"the top-level {keyword}")
        except _BudgetSpent:
            raise ExtractError(
                "stopped reading: YAML aliases repeat more content than the file holds (an alias bomb?); "
                "the file is not checked"
            ) from None

    # Jobs

    def _job(self, name: str, job: YamlMapping) -> None:
        self._spend(32)
        scope = self.scope.child()
        for parent in self._extended(job):
            self._variables(parent.get("variables"), scope)
        self._variables(job.get("variables"), scope)
        self._matrix(job.get("parallel"), scope)
        main = [*self._scripts(job.get("before_script")), *self._scripts(job.get("script"))]
        if main:
            self._run(main, scope, f"job '{name}'")
        after = list(self._scripts(job.get("after_script")))
        if after:
            self._run(after, scope, f"the after_script of job '{name}'")

    def _extended(self, job: YamlMapping) -> list[YamlMapping]:
        """The jobs of this file that ``job`` extends, farthest first (bounded, cycles cut)."""
        found: list[YamlMapping] = []
        pending = [job]
        seen = {id(job)}
        while pending and len(found) < 16:
            current = pending.pop()
            extends = current.get("extends")
            names = (
                [extends]
                if isinstance(extends, YamlScalar)
                else (extends.items if isinstance(extends, YamlSequence) else [])
            )
            for name in names:
                parent = self.root.get(name.value) if isinstance(name, YamlScalar) else None
                if isinstance(parent, YamlMapping) and id(parent) not in seen:
                    seen.add(id(parent))
                    found.insert(0, parent)
                    pending.append(parent)
        return found

    def _scripts(self, node: YamlNode | None) -> Iterator[YamlScalar]:
        """The script lines of a ``script``-like value: a string, or a list (nested lists flattened)."""
        if isinstance(node, YamlScalar):
            if node.value:
                yield node
            return
        pending: list[tuple[YamlNode, int]] = [(node, 0)] if isinstance(node, YamlSequence) else []
        while pending:
            current, depth = pending.pop(0)
            self._spend(1)
            if isinstance(current, YamlScalar):
                if current.value and not self.text.startswith("!reference", current.start):
                    yield current
            elif isinstance(current, YamlSequence) and depth < _MAX_NESTED_SCRIPT_LISTS:
                if self.text.startswith("!reference", current.start):
                    continue
                pending[0:0] = [(item, depth + 1) for item in current.items]

    def _run(self, scripts: list[YamlScalar], scope: Scope, where: str) -> None:
        """Read script lines as one shell: each item a line of the script."""
        from ascend_reflint.extract.shell import ShellSession

        if not any(may_name_pin(script.value) or "$" in script.value for script in scripts):
            return
        out = SourceMapBuilder()
        for script in scripts:
            self._spend(len(script.value))
            source_map = scalar_source_map(self.text, script, self.lines)
            out.copy_mapped(script.value, source_map, 0, len(script.value))
            out.insert("\n", *source_map.position(max(len(script.value) - 1, 0)))
        session = ShellSession(self.source.path, self.source.kind, scope)
        if not session.may_pin(out.text):
            return
        try:
            session.run(out.text, out.source_map)
        except ExtractError as error:
            self.shell_errors.append(f"{error} (in the script of {where})")
        self.source.pins.extend(session.finish())
        self.source.notices.extend(session.notices)

    # Variables

    def _variables(self, node: YamlNode | None, scope: Scope) -> None:
        if not isinstance(node, YamlMapping):
            return
        for key, value in self._pairs(node):
            if not isinstance(key, YamlScalar):
                continue
            raw, expands = _variable_value(value)
            if raw is None:
                continue
            self._spend(len(raw))
            scope.set(key.value, _binding(key.value, raw, expands, scope))

    def _pairs(self, node: YamlMapping) -> Iterator[tuple[YamlNode, YamlNode]]:
        """The pairs of a mapping, ``<<: *anchor`` merge keys expanded first (YAML 1.1 merge keys, which
        GitLab's parser reads)."""
        for key, value in node.pairs:
            self._spend(8)
            if isinstance(key, YamlScalar) and key.value == "<<":
                merged = value.items if isinstance(value, YamlSequence) else [value]
                for item in merged:
                    if isinstance(item, YamlMapping):
                        yield from (
                            (k, v)
                            for k, v in item.pairs
                            if not (isinstance(k, YamlScalar) and k.value == "<<")
                        )
            else:
                yield key, value

    def _matrix(self, parallel: YamlNode | None, scope: Scope) -> None:
        matrix = parallel.get("matrix") if isinstance(parallel, YamlMapping) else None
        if not isinstance(matrix, YamlSequence):
            return
        for entry in matrix.items:
            if isinstance(entry, YamlMapping):
                for key, _value in entry.pairs:
                    if isinstance(key, YamlScalar):
                        note = f"${key.value} takes each value of parallel: matrix"
                        scope.set(key.value, Binding(None, Resolution.UNRESOLVED, note))

    def _host(self) -> str | None:
        """The GitLab instance's host when the top-level variables name the server, else None."""
        for name in _HOST_VARIABLES:
            binding = self.scope.get(name)
            if binding is not None and binding.value:
                value = binding.value
                return (
                    value.split("://", 1)[-1].split("/", 1)[0] if "://" in value else value.split("/", 1)[0]
                )
        return None

    # Includes

    def _includes(self, node: YamlNode | None) -> None:
        entries = node.items if isinstance(node, YamlSequence) else [node] if node is not None else []
        for entry in entries:
            self._spend(8)
            if isinstance(entry, YamlScalar):
                if entry.value and not _URL.match(entry.value):
                    self._local(entry)
            elif isinstance(entry, YamlMapping):
                local, project, component = entry.get("local"), entry.get("project"), entry.get("component")
                if isinstance(local, YamlScalar):
                    self._local(local)
                elif isinstance(project, YamlScalar) and project.value:
                    ref = entry.get("ref")
                    self._project(project, ref if isinstance(ref, YamlScalar) and ref.value else None)
                elif isinstance(component, YamlScalar) and component.value:
                    self._component(component)

    def _local(self, node: YamlScalar) -> None:
        """A file of this repository, relative to its root, recorded for the inventory (a path of this
        file's folder: the root is the folder of ``.gitlab-ci.yml``, or the one above ``.gitlab/``)."""
        path = node.value.strip().lstrip("/")
        if not path or any(char in path for char in "*$"):
            if path:
                line = self.lines.position(node.start)[0]
                self.source.notices.append(
                    f"line {line}: include {node.value!r} is a pattern or holds a variable: not read"
                )
            return
        parts = self.source.path.replace(os.sep, "/").split("/")[:-1]
        up = len(parts) - parts.index(".gitlab") if ".gitlab" in parts else 0
        self.source.named_files.append(("../" * up + path, FileKind.GITLAB_CI))

    def _project(self, project: YamlScalar, ref: YamlScalar | None) -> None:
        path = self._expanded(project.value.strip())
        url = None if path.value is None else f"{self._instance_url}{path.value.strip('/')}.git"
        ref_value = self._expanded(ref.value.strip()) if ref is not None else None
        self._pin(project, url, path.note, ref, ref_value)

    def _component(self, node: YamlScalar) -> None:
        written = node.value.strip()
        target, at, version = written.rpartition("@")
        if not at or not target:
            return
        location = self._expanded(target)
        url: str | None = None
        if location.value is not None:
            host, _, rest = location.value.partition("/")
            project = rest.rsplit("/", 1)[0] if "/" in rest else ""
            if not project:
                return
            url = f"{self._instance_url if host == _INSTANCE else f'https://{host}/'}{project}.git"
        lead = node.value.find(written)
        source_map = scalar_source_map(self.text, node, self.lines)
        ref_span = source_map.span(lead + len(target) + 1, lead + len(written)) if version else None
        ref = (
            _Expanded(version, None)
            if version != "~latest"
            else _Expanded(None, "~latest is the newest release, chosen when the pipeline starts")
        )
        self._pin(
            node,
            url,
            location.note,
            None,
            ref,
            ref_text=version or None,
            ref_span=ref_span,
            url_span=source_map.span(lead, lead + len(target)),
        )

    def _pin(
        self,
        project: YamlScalar,
        url: str | None,
        url_note: str | None,
        ref_node: YamlScalar | None,
        ref: _Expanded | None,
        ref_text: str | None = None,
        ref_span: Span | None = None,
        url_span: Span | None = None,
    ) -> None:
        url_span = url_span or value_span(self.text, project, self.lines)
        if ref_node is not None:
            ref_span, ref_text = value_span(self.text, ref_node, self.lines), ref_node.value.strip()
        note = url_note or (ref.note if ref is not None else None)
        if url is not None and url.startswith(INSTANCE_URL):
            note = f"{note}; {INSTANCE_NOTE}" if note else INSTANCE_NOTE
        self.source.pins.append(
            Pin(
                path=self.source.path,
                kind=self.source.kind,
                via=Via.GITLAB_INCLUDE,
                span=ref_span or url_span,
                url=url if url is not None else project.value.strip(),
                remote=normalise_remote(url) if url is not None else None,
                ref=ref.value if ref is not None else None,
                ref_text=ref_text,
                resolution=Resolution.UNRESOLVED if note else Resolution.RESOLVED,
                resolution_note=note,
                url_span=url_span,
            )
        )

    @property
    def _instance_url(self) -> str:
        """Where the instance's projects are: on the host the file names, else on :data:`INSTANCE_URL`."""
        return f"https://{self.host}/" if self.host is not None else INSTANCE_URL

    def _expanded(self, text: str) -> _Expanded:
        """``text`` with the top-level variables expanded (GitLab expands them in ``include:``); a variable
        naming the server is the instance's host (a stand-in for it while the host is unknown)."""
        host = self.host if self.host is not None else _INSTANCE
        for name in _HOST_VARIABLES:
            text = text.replace("${" + name + "}", host).replace("$" + name, host)
        expansion = expand(text.replace("$$", "\0"), self.scope, shell_quotes=False)
        if expansion.value is None:
            return _Expanded(None, expansion.note)
        return _Expanded(expansion.value.replace("\0", "$"), None)

    def _spend(self, units: int) -> None:
        self.budget -= units
        if self.budget < 0:
            raise _BudgetSpent


@dataclass(frozen=True, slots=True)
class _Expanded:
    value: str | None
    note: str | None


def _variable_value(node: YamlNode) -> tuple[str | None, bool]:
    """A variable's value as written and whether GitLab expands it: a string, or ``value:`` of a mapping
    (``expand: false`` keeps it raw)."""
    if isinstance(node, YamlScalar):
        return node.value, True
    if isinstance(node, YamlMapping):
        value, expand_flag = node.get("value"), node.get("expand")
        raw = value.value if isinstance(value, YamlScalar) else ""
        expands = not (isinstance(expand_flag, YamlScalar) and expand_flag.value.lower() == "false")
        return raw, expands
    return None, True


def _binding(name: str, raw: str, expands: bool, scope: Scope) -> Binding:
    if not expands or "$" not in raw:
        return Binding(raw)
    expansion = expand(raw.replace("$$", "\0"), scope, shell_quotes=False)
    if expansion.value is None:
        return Binding(None, expansion.resolution, f"${name} is {raw!r}: {expansion.note}")
    return Binding(expansion.value.replace("\0", "$"))
