"""The values that a workflow gives its own GitHub expressions: ``${{ matrix.X }}`` (each value of the job's
matrix), ``${{ inputs.X }}`` (the ``default:`` of a ``workflow_dispatch`` or ``workflow_call`` input, or
nothing on the workflow's other triggers) and ``${{ env.X }}`` (the env in scope). What the workflow does not
give (``vars``, ``secrets``, ``github.event`` …) stays unknown.

Facts (GitHub's "Workflow syntax for GitHub Actions", ``jobs.<job_id>.strategy.matrix``; "Running variations
of jobs in a workflow"):

- A matrix is the product of its lists; an ``exclude`` entry removes the combinations that match all of its
  keys; an ``include`` entry adds its keys to every combination whose original values it does not change
  (keys it adds may be overwritten by a later entry), and is a combination of its own when it can be added to
  none.
- An input of a ``workflow_dispatch`` is its ``default:`` unless whoever dispatches the run gives another; a
  ``workflow_call`` input is the caller's ``with:`` or its default; on any other trigger the ``inputs``
  context is empty.

A step is read once per distinct combination of the values its text references (a bound keeps a large
matrix from multiplying the work): each value is a pin checked on its own, whose origin is the matrix or
input value where it is written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence

from ascend_reflint.extract.yamlpos import YamlMapping, YamlNode, YamlScalar, YamlSequence
from ascend_reflint.model import Resolution
from ascend_reflint.resolve import Binding, Scope, expression_key

#: The variants of one step that are read; past it, the references stay unresolved.
MAX_VARIANTS = 64
#: ``${{ matrix.X }}`` / ``${{ inputs.X }}`` references in a step's text.
_REFERENCE = re.compile(r"\$\{\{\s*((?:matrix|inputs)(?:\.[A-Za-z_][A-Za-z0-9_-]*)+)\s*\}\}")
_INPUT_TRIGGERS = ("workflow_dispatch", "workflow_call")

#: Makes the binding of a scalar that a workflow writes (its value, and where it is written).
BindingOf = Callable[[YamlScalar], Binding]
Combination = dict[str, Binding]


def matrix_combinations(job: YamlMapping, binding_of: BindingOf) -> list[Combination] | None:
    """The combinations of a job's ``strategy.matrix``, each key → its value there; None when the job has no
    matrix, or one computed at run time (``${{ fromJSON(…) }}``)."""
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if isinstance(strategy, YamlMapping) else None
    if not isinstance(matrix, YamlMapping):
        return None
    axes: list[list[Combination]] = []
    originals: set[str] = set()
    for key, values in matrix.pairs:
        if not isinstance(key, YamlScalar) or key.value in ("include", "exclude"):
            continue
        if not isinstance(values, YamlSequence):
            return None  # an expression: the values are known at run time only
        axes.append([_flattened(key.value, value, binding_of) for value in values.items])
        originals.update(name for value in axes[-1] for name in value)
    combinations = [_joined(values) for values in _product(axes)]
    for entry in _entries(matrix.get("exclude"), binding_of):
        combinations = [combination for combination in combinations if not _matches(combination, entry)]
    for entry in _entries(matrix.get("include"), binding_of):
        _include(combinations, entry, originals)
    return combinations


def _flattened(name: str, node: YamlNode, binding_of: BindingOf) -> Combination:
    """A matrix value as the keys it gives: ``{name: value}`` for a scalar, ``{name.key: value}`` for each
    scalar of a mapping (``matrix.build_meta.dockerfile``)."""
    if isinstance(node, YamlScalar):
        return {name: binding_of(node)}
    found: Combination = {}
    if isinstance(node, YamlMapping):
        for key, value in node.pairs:
            if isinstance(key, YamlScalar):
                found.update(_flattened(f"{name}.{key.value}", value, binding_of))
    return found


def _joined(values: Sequence[Combination]) -> Combination:
    joined: Combination = {}
    for value in values:
        joined.update(value)
    return joined


def _product(axes: Sequence[list[Combination]]) -> Iterator[tuple[Combination, ...]]:
    """The combinations of the axes' values, at most a bound more than any step reads."""
    return itertools.islice(itertools.product(*axes), MAX_VARIANTS * 16)


def _entries(node: YamlNode | None, binding_of: BindingOf) -> Iterator[Combination]:
    """The mappings of an ``include``/``exclude`` list, their values bound (nested mappings flattened)."""
    if not isinstance(node, YamlSequence):
        return
    for item in node.items:
        if isinstance(item, YamlMapping):
            pairs = [
                _flattened(key.value, value, binding_of)
                for key, value in item.pairs
                if isinstance(key, YamlScalar)
            ]
            yield _joined(pairs)


def _matches(combination: Combination, entry: Mapping[str, Binding]) -> bool:
    return all(
        name in combination and combination[name].value == value.value for name, value in entry.items()
    )


def _include(combinations: list[dict[str, Binding]], entry: dict[str, Binding], originals: set[str]) -> None:
    """Add an ``include`` entry as GitHub does (see the module docstring)."""
    added = False
    for combination in combinations:
        if all(combination[name].value == value.value for name, value in entry.items() if name in originals):
            combination.update({name: value for name, value in entry.items() if name not in originals})
            added = True
    if not added:
        combinations.append(dict(entry))


def input_values(root: YamlMapping, binding_of: BindingOf, called: bool = False) -> dict[str, list[Binding]]:
    """Each input of ``workflow_dispatch``/``workflow_call`` → its values: the defaults, and nothing (an
    EMPTY binding) when the workflow also runs on other triggers; with ``called``, as a call runs it: the
    ``workflow_call`` defaults only (the caller's ``with:`` values replace them).

    An input without a default, or with ``default: ""`` (an optional input, not a ref), is one unknown
    value that the run gives; when the workflow runs on other triggers too, its note says that it is empty
    there as well (one value, not an unknown one and an empty one side by side)."""
    triggers = root.get("on")
    names = _trigger_names(triggers)
    others = [] if called else sorted(name for name in names if name not in _INPUT_TRIGGERS)
    values: dict[str, list[Binding]] = {}
    declared: dict[str, list[str]] = {}
    lacking: dict[str, str] = {}  # input → how the first trigger without a usable default lacks one
    for trigger in ("workflow_call",) if called else _INPUT_TRIGGERS:
        config = triggers.get(trigger) if isinstance(triggers, YamlMapping) else None
        inputs = config.get("inputs") if isinstance(config, YamlMapping) else None
        if not isinstance(inputs, YamlMapping):
            continue
        for key, spec in inputs.pairs:
            if not isinstance(key, YamlScalar):
                continue
            found = values.setdefault(key.value, [])
            declared.setdefault(key.value, []).append(trigger)
            default = spec.get("default") if isinstance(spec, YamlMapping) else None
            if isinstance(default, YamlScalar) and default.value:
                binding = binding_of(default)
                if all(binding.value != known.value for known in found):
                    found.append(binding)
            else:
                empty = isinstance(default, YamlScalar) and default.style is not None
                lacking.setdefault(key.value, 'defaults to ""' if empty else "has no default")
    for name, found in values.items():
        given_by = " or ".join(declared[name])
        if name in lacking:
            note = f"inputs.{name} {lacking[name]}: the run gives it"
            if others and not found:
                note = (
                    f"inputs.{name} {lacking[name]} and is empty when the workflow runs on {others[0]}: a "
                    f"{given_by} run gives it"
                )
            found.append(Binding(None, Resolution.UNRESOLVED, note))
        if others and any(binding.value is not None for binding in found):
            why = (
                f"inputs.{name} is empty when the workflow runs on {others[0]}: only a {given_by} run sets it"
            )
            found.append(Binding(None, Resolution.EMPTY, why))
    return values


def _trigger_names(triggers: YamlNode | None) -> set[str]:
    """The events of ``on:`` (a name, a list of names, or a mapping)."""
    if isinstance(triggers, YamlScalar):
        return {triggers.value}
    if isinstance(triggers, YamlSequence):
        return {item.value for item in triggers.items if isinstance(item, YamlScalar)}
    if isinstance(triggers, YamlMapping):
        return {key.value for key, _ in triggers.pairs if isinstance(key, YamlScalar)}
    return set()


def references(text: str) -> list[str]:
    """The ``matrix.X`` and ``inputs.X`` references of ``text``, each once, in order."""
    return list(dict.fromkeys(match.group(1) for match in _REFERENCE.finditer(text)))


def variants(
    referenced: Sequence[str],
    matrix: Sequence[Combination] | None,
    inputs: Mapping[str, list[Binding]],
) -> list[dict[str, Binding]]:
    """The distinct bindings of ``referenced`` (``matrix.X``, ``inputs.X``) that a step is read with: the
    matrix's combinations projected on the keys it references, times the values of each input it
    references; ``[{}]`` when it references none that the workflow gives."""
    keys = [reference.split(".", 1)[1] for reference in referenced if reference.startswith("matrix.")]
    rows: list[dict[str, Binding]] = [{}]
    if keys and matrix:
        projected: dict[tuple[tuple[str, str | None], ...], dict[str, Binding]] = {}
        for combination in matrix:
            row = {f"matrix.{key}": combination[key] for key in keys if key in combination}
            projected.setdefault(tuple((name, value.value) for name, value in row.items()), row)
        rows = list(projected.values())
    for reference in referenced:
        if reference.startswith("inputs.") and reference[7:] in inputs:
            rows = [{**row, reference: value} for row in rows for value in inputs[reference[7:]]]
    return rows[:MAX_VARIANTS]


def bind(scope: Scope, row: Mapping[str, Binding]) -> None:
    """Bind each ``matrix.X``/``inputs.X`` of ``row`` in ``scope``."""
    for reference, binding in row.items():
        scope.set(expression_key(reference), binding)
