"""Docker Bake files (``docker-bake.hcl``, ``docker-bake.json``, and their ``.override`` files): the
Dockerfile each target builds, with its build arguments (an :class:`~ascend_reflint.model.Invocation` of
it), or the pin of a git URL build context.

Facts (Docker's "Bake file reference"): a ``target`` block has ``context`` (relative to the bake file's
folder, or a git URL; default ``.``), ``dockerfile`` (relative to the context; default ``Dockerfile``),
``args`` (a map), ``target`` (the stage) and ``inherits`` (targets whose attributes it takes, its own
winning); a ``variable`` block's ``default`` is its value unless the environment sets it, and strings
interpolate variables as ``${NAME}``. A JSON bake file has the same structure (``{"target": {"name":
{…}}, "variable": {…}}``). What a function or an operator computes is not known statically.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping

from ascend_reflint.extract.gitsource import is_git_source, written_ref
from ascend_reflint.extract.hcl import (
    HclBlock,
    HclBody,
    HclList,
    HclObject,
    HclReference,
    HclString,
    HclValue,
    parse_hcl,
)
from ascend_reflint.extract.yamlpos import YamlMapping, YamlNode, YamlScalar, YamlSequence, parse_yaml
from ascend_reflint.model import (
    CallSite,
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
from ascend_reflint.remote import normalise_remote
from ascend_reflint.resolve import Binding, Provenance, Scope, expand
from ascend_reflint.sourcemap import LineIndex

#: A target's ``inherits`` are followed this deep.
_MAX_INHERITS = 16


def extract_bake(source: SourceFile) -> None:
    """Fill ``source.invocations`` (and ``source.pins`` for git contexts) from a bake file.

    Raises:
        ExtractError: for text that is not HCL (or JSON) of a bake file's kind, naming the line.
    """
    text = source.text
    assert text is not None
    body = _json_body(text) if source.path.lower().endswith(".json") else parse_hcl(text)
    _Bake(source, text, body).read()


class _Bake:
    """Reads the targets of one bake file."""

    def __init__(self, source: SourceFile, text: str, body: HclBody) -> None:
        self.source = source
        self.lines = LineIndex(text)
        self.body = body
        self.scope = Scope()
        self.targets = {
            block.labels[0].value: block for block in body.blocks if block.type == "target" and block.labels
        }

    def read(self) -> None:
        for block in self.body.blocks:
            if block.type == "variable" and block.labels:
                default = block.body.attributes.get("default")
                self.scope.set(block.labels[0].value, self._binding(default))
        for name, block in self.targets.items():
            self._target(name, block.labels[0], self._attributes(name))

    def _attributes(self, name: str) -> dict[str, HclValue]:
        """A target's attributes, those it inherits under its own (``inherits``, in order, depth-first)."""
        result: dict[str, HclValue] = {}
        pending, seen = [(name, 0)], set()
        order: list[str] = []
        while pending:
            current, depth = pending.pop(0)
            if current in seen or current not in self.targets or depth > _MAX_INHERITS:
                continue
            seen.add(current)
            order.append(current)
            inherits = self.targets[current].body.attributes.get("inherits")
            if isinstance(inherits, HclList):
                parents = [item.value for item in inherits.items if isinstance(item, HclString)]
                pending.extend((parent, depth + 1) for parent in parents)
        for current in order:  # the target first: its own attributes win, args merge key by key
            for key, value in self.targets[current].body.attributes.items():
                existing = result.get(key)
                if key == "args" and isinstance(value, HclObject) and isinstance(existing, HclObject):
                    known = {item[0] for item in existing.items}
                    result[key] = HclObject(
                        existing.items + [item for item in value.items if item[0] not in known]
                    )
                else:
                    result.setdefault(key, value)
        return result

    def _target(self, name: str, label: HclString, attributes: Mapping[str, HclValue]) -> None:
        context = self._text(attributes.get("context"), ".")
        if context is not None and is_git_source(context, build_context=True):
            self.source.pins.append(self._context_pin(attributes.get("context"), context))
            return
        dockerfile = self._text(attributes.get("dockerfile"), "Dockerfile")
        if context is None or dockerfile is None or dockerfile.startswith("/"):
            return
        args = attributes.get("args")
        stage = self._text(attributes.get("target"), None)
        span = self._span(label.start, label.end)
        self.source.invocations.append(
            Invocation(
                kind=FileKind.DOCKERFILE,
                paths=(
                    InvokedPath(posixpath.normpath(posixpath.join(context, dockerfile)), from_root=False),
                ),
                values=tuple(self._args(args)) if isinstance(args, HclObject) else (),
                site=CallSite(self.source.path, span, f"built by bake target `{name}`"),
                target=stage,
            )
        )

    def _args(self, args: HclObject) -> Iterator[GivenValue]:
        for key, _start, value in args.items:
            binding = self._binding(value)
            provenance = binding.provenance
            yield GivenValue(
                key,
                binding.value,
                provenance.origin if provenance is not None else None,
                provenance.verbatim if provenance is not None else False,
                binding.note,
            )

    def _binding(self, value: HclValue | None) -> Binding:
        """The value of a string (interpolated) or a variable reference, with where it is written."""
        if isinstance(value, HclReference):
            name = value.name.removeprefix("var.")
            found = self.scope.get(name)
            if found is not None:
                return found
            return (
                Binding(value.name)
                if value.name[:1].isdigit() or value.name in ("true", "false")
                else Binding(None, Resolution.UNRESOLVED, f"{value.name} is not known statically")
            )
        if not isinstance(value, HclString):
            return Binding(None, Resolution.UNRESOLVED, "the value is computed when bake runs")
        if "${" not in value.value and "%{" not in value.value:
            span = self._span(value.start, value.end)
            provenance = Provenance.written(self.source.path, span, value.value) if value.verbatim else None
            if provenance is None and value.value:
                provenance = Provenance(Origin(self.source.path, span), False)
            return Binding(value.value, provenance=provenance)
        expansion = expand(value.value, self.scope, shell_quotes=False)
        if expansion.value is None:
            return Binding(None, expansion.resolution, expansion.note)
        return Binding(expansion.value, provenance=expansion.provenance)

    def _text(self, value: HclValue | None, default: str | None) -> str | None:
        """The text of a string attribute (interpolated), ``default`` when the attribute is not set."""
        return default if value is None else self._binding(value).value

    def _span(self, start: int, end: int) -> Span:
        return self.lines.span(start, max(end, start + 1))

    def _context_pin(self, node: HclValue | None, value: str) -> Pin:
        """The pin of a git URL context (``URL#REF:DIR``)."""
        assert isinstance(node, HclString | HclReference)
        ends = [index for index in (value.find("#"), value.find("?")) if index != -1]
        url_end = min(ends, default=len(value))
        url = value[:url_end] if "://" in value or "@" in value else f"https://{value[:url_end]}"
        direct = isinstance(node, HclString) and node.verbatim and node.value == value
        ref = written_ref(value, url_end) if direct else None
        url_span = (
            self._span(node.start, node.start + url_end) if direct else self._span(node.start, node.end)
        )
        return Pin(
            path=self.source.path,
            kind=FileKind.BAKE,
            via=Via.BUILD_CONTEXT,
            span=self._span(node.start + ref.start, node.start + ref.start + len(ref.text))
            if ref
            else url_span,
            url=url,
            remote=normalise_remote(url),
            ref=ref.text if ref else None,
            ref_text=ref.text if ref else None,
            resolution=Resolution.RESOLVED,
            url_span=url_span,
            ref_type=ref.kind if ref else None,
        )


def _json_body(text: str) -> HclBody:
    """A JSON bake file read into the body that its HCL twin would give (YAML reads JSON, with positions)."""
    root = parse_yaml(text)
    body = HclBody()
    if not isinstance(root, YamlMapping):
        return body
    for kind in ("variable", "target"):
        blocks = root.get(kind)
        if not isinstance(blocks, YamlMapping):
            continue
        for key, value in blocks.pairs:
            if isinstance(key, YamlScalar) and isinstance(value, YamlMapping):
                label = HclString(key.value, key.start + 1, key.end - 1, True)
                attributes = {k.value: _json_value(v) for k, v in value.pairs if isinstance(k, YamlScalar)}
                body.blocks.append(HclBlock(kind, [label], HclBody(attributes), key.start))
    return body


def _json_value(node: YamlNode) -> HclValue:
    """A JSON value as the HCL reader gives one: strings with their content's span (JSON strings are quoted;
    escapes make a value not verbatim)."""
    if isinstance(node, YamlScalar):
        quoted = node.style == '"'
        start, end = (node.start + 1, node.end - 1) if quoted else (node.start, node.end)
        return HclString(node.value, start, end, end - start == len(node.value))
    if isinstance(node, YamlSequence):
        return HclList([_json_value(item) for item in node.items])
    return HclObject(
        [
            (key.value, key.start, _json_value(value))
            for key, value in node.pairs
            if isinstance(key, YamlScalar)
        ]
    )
