"""Docker Compose files (``compose.yaml``, ``docker-compose*.yml``): the Dockerfile each service builds, with
its build arguments (an :class:`~ascend_reflint.model.Invocation` of it), or the pin of a git URL build
context.

Facts (the Compose Specification, "Compose Build Specification"): ``build:`` is a context path, or a
mapping with ``context`` (a path relative to the compose file's folder, or a git URL ``URL#REF:DIR``;
default ``.``), ``dockerfile`` (relative to the context; default ``Dockerfile``), ``args`` (a mapping, or a
list of ``NAME=VALUE``; a ``NAME`` alone takes the value from the environment) and ``target``. Values may
use ``${VAR}``, ``${VAR:-default}`` interpolation from the environment or ``.env``: the default is taken,
a variable without one is not known statically. YAML merge keys (``<<: *anchor``) merge mappings, as
Compose does (YAML 1.1's merge key type).
"""

from __future__ import annotations

import posixpath

from ascend_reflint.extract.gitsource import is_git_source, written_ref
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
    FileKind,
    GivenValue,
    Invocation,
    InvokedPath,
    Pin,
    Resolution,
    SourceFile,
    Via,
)
from ascend_reflint.remote import normalise_remote
from ascend_reflint.resolve import Provenance, Scope, expand

#: Merge keys nest at most this deep (an alias cannot merge itself, but a long chain could be costly).
_MAX_MERGES = 32


def extract_compose(source: SourceFile) -> None:
    """Fill ``source.invocations`` (and ``source.pins`` for git contexts) from a compose file.

    Raises:
        ExtractError: for malformed YAML (the message names the line and column).
    """
    text = source.text
    assert text is not None
    if "build" not in text:
        return
    root = parse_yaml(text)
    services = root.get("services") if isinstance(root, YamlMapping) else None
    if not isinstance(services, YamlMapping):
        return
    reader = _Reader(source, text)
    for key, service in services.pairs:
        if isinstance(key, YamlScalar) and isinstance(service, YamlMapping):
            reader.service(key, _merged(service))


class _Reader:
    """Reads the services of one compose file."""

    def __init__(self, source: SourceFile, text: str) -> None:
        self.source = source
        self.text = text
        self.lines = LineIndex(text)

    def service(self, name: YamlScalar, service: dict[str, YamlNode]) -> None:
        build = service.get("build")
        if isinstance(build, YamlScalar):
            self._build(name, {"context": build})
        elif isinstance(build, YamlMapping):
            self._build(name, _merged(build))

    def _build(self, name: YamlScalar, build: dict[str, YamlNode]) -> None:
        context = build.get("context")
        context_value = _interpolated(context.value) if isinstance(context, YamlScalar) else "."
        if (
            isinstance(context, YamlScalar)
            and context_value is not None
            and is_git_source(context_value, True)
        ):
            self.source.pins.append(self._context_pin(context, context_value))
            return
        dockerfile = build.get("dockerfile")
        dockerfile_value = (
            _interpolated(dockerfile.value) if isinstance(dockerfile, YamlScalar) else "Dockerfile"
        )
        if context_value is None or dockerfile_value is None or dockerfile_value.startswith("/"):
            return
        target = build.get("target")
        span = self.lines.span(name.start, name.end)
        self.source.invocations.append(
            Invocation(
                kind=FileKind.DOCKERFILE,
                paths=(
                    InvokedPath(posixpath.normpath(posixpath.join(context_value, dockerfile_value)), False),
                ),
                values=tuple(self._args(build.get("args"))),
                site=CallSite(self.source.path, span, f"built by compose service `{name.value}`"),
                target=_interpolated(target.value) if isinstance(target, YamlScalar) else None,
            )
        )

    def _args(self, node: YamlNode | None) -> list[GivenValue]:
        """The ``args`` of a build: a mapping, or a list of ``NAME=VALUE``."""
        given: list[GivenValue] = []
        if isinstance(node, YamlMapping):
            for key, value in node.pairs:
                if isinstance(key, YamlScalar) and isinstance(value, YamlScalar):
                    given.append(self._given(key.value, value, 0))
        elif isinstance(node, YamlSequence):
            for item in node.items:
                if isinstance(item, YamlScalar) and "=" in item.value:
                    name = item.value.partition("=")[0]
                    given.append(self._given(name, item, len(name) + 1))
        return given

    def _given(self, name: str, node: YamlScalar, start: int) -> GivenValue:
        """The value of build argument ``name``: ``node``'s value from ``start`` on, interpolated."""
        written = node.value[start:]
        value = _interpolated(written)
        if value is None:
            return GivenValue(name, None, note=f"{written} is interpolated from the environment")
        if value != written or not value:
            return GivenValue(name, value)
        span = scalar_source_map(self.text, node, self.lines).span(start, start + len(written))
        provenance = Provenance.written(self.source.path, span, value)
        assert provenance is not None
        return GivenValue(name, value, provenance.origin, provenance.verbatim)

    def _context_pin(self, node: YamlScalar, value: str) -> Pin:
        """The pin of a git URL context (``URL#REF:DIR``): at REF, or at the URL when it names none."""
        source_map = scalar_source_map(self.text, node, self.lines)
        ends = [index for index in (value.find("#"), value.find("?")) if index != -1]
        url_end = min(ends, default=len(value))
        url = value[:url_end] if "://" in value or "@" in value else f"https://{value[:url_end]}"
        ref = written_ref(value, url_end) if value == node.value else None
        url_span = source_map.span(0, max(1, url_end))
        return Pin(
            path=self.source.path,
            kind=FileKind.COMPOSE,
            via=Via.BUILD_CONTEXT,
            span=source_map.span(ref.start, ref.start + len(ref.text)) if ref else url_span,
            url=url,
            remote=normalise_remote(url),
            ref=ref.text if ref else None,
            ref_text=ref.text if ref else None,
            resolution=Resolution.RESOLVED,
            url_span=url_span,
            ref_type=ref.kind if ref else None,
        )


def _merged(mapping: YamlMapping) -> dict[str, YamlNode]:
    """The keys of ``mapping`` with its ``<<`` merge keys applied (its own keys win, then the first merged
    mapping's), as YAML 1.1's merge key type says."""
    result: dict[str, YamlNode] = {}
    pending: list[tuple[YamlMapping, int]] = [(mapping, 0)]
    order: list[YamlMapping] = []
    while pending:
        node, depth = pending.pop(0)
        order.append(node)
        merge = node.get("<<")
        sources = merge.items if isinstance(merge, YamlSequence) else [merge]
        if depth < _MAX_MERGES:
            pending.extend((item, depth + 1) for item in sources if isinstance(item, YamlMapping))
    for node in order:
        for key, value in node.pairs:
            if isinstance(key, YamlScalar) and key.value != "<<":
                result.setdefault(key.value, value)
    return result


def _interpolated(text: str) -> str | None:
    """``text`` with Compose's ``${VAR:-default}`` interpolation done as far as the file tells: the default
    when one is written, None when a variable has none (its value comes from the environment)."""
    if "$" not in text:
        return text
    expansion = expand(text.replace("$$", "\0"), Scope(), shell_quotes=False)
    return expansion.value.replace("\0", "$") if expansion.value is not None else None
