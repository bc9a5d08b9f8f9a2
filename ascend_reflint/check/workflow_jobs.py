"""The jobs of a GitHub Actions workflow and where they are written, for findings about what a job lacks.

:class:`~ascend_reflint.model.SourceFile` holds a workflow's ``env:`` settings but not its jobs, so a rule
that reports a variable missing from a job (RL006) reads the job ids and the position of each job's
``env:`` key here, from the file's text, with the extractor's position-keeping YAML reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ascend_reflint.model import Span

if TYPE_CHECKING:
    from ascend_reflint.extract.yamlpos import LineIndex, YamlScalar


class WorkflowJob(NamedTuple):
    """One job of a workflow.

    Attributes:
        job_id: the key under ``jobs:``.
        key_span: the span of that key.
        env_span: the span of the job's ``env:`` key, or None when the job has none.
        reusable: the job calls a reusable workflow (``uses:`` at job level), which takes no ``env:``.
    """

    job_id: str
    key_span: Span
    env_span: Span | None
    reusable: bool


def workflow_jobs(text: str) -> list[WorkflowJob]:
    """The jobs of the workflow ``text``, in file order.

    Returns:
        The jobs; empty when the text is not YAML, or has no ``jobs:`` mapping (extraction reports a
        malformed file already).
    """
    # The YAML reader (and ruamel.yaml behind it) is loaded only when a rule asks for jobs.
    from ascend_reflint.extract import ExtractError
    from ascend_reflint.extract.yamlpos import LineIndex, YamlMapping, YamlScalar, parse_yaml

    try:
        root = parse_yaml(text)
    except ExtractError:
        return []
    jobs = root.get("jobs") if isinstance(root, YamlMapping) else None
    if not isinstance(jobs, YamlMapping):
        return []
    lines = LineIndex(text)
    found = []
    for key, job in jobs.pairs:
        if not isinstance(key, YamlScalar) or not isinstance(job, YamlMapping):
            continue
        env_key = next(
            (name for name, _ in job.pairs if isinstance(name, YamlScalar) and name.value == "env"), None
        )
        found.append(
            WorkflowJob(
                job_id=key.value,
                key_span=_span(lines, key),
                env_span=_span(lines, env_key) if env_key is not None else None,
                reusable=job.get("uses") is not None,
            )
        )
    return found


def _span(lines: LineIndex, scalar: YamlScalar) -> Span:
    line, column = lines.position(scalar.start)
    end_line, end_column = lines.position(scalar.end)
    return Span(line, column, end_line, end_column)
