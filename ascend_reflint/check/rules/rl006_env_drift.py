"""A workflow that runs an image, or its tests, without the environment the image sets.

## What it does

For each environment variable that the rule packs list under `shared-env` (default:
`VERL_USE_EXTERNAL_MODULES`), compares the value a Dockerfile's `ENV` gives it with the `env:` of the
workflows paired with that Dockerfile under `env-pairs` (default: Dockerfiles with `ascend` or `npu` in
their path, and workflows with `ascend` or `npu` in their file name). Reported, on the workflow side,
with the Dockerfile's `ENV` as a related location:

- a workflow-level, job-level or step-level `env:` that sets the variable to another value;
- a job that does not set it, at the job's `env:` key (or its id when it has no `env:`), unless the
  workflow-level `env:` does. A step's `env:` does not count for its job.

Jobs that call a reusable workflow (`uses:`) are skipped. A value that cannot be known statically
(`${{ inputs.x }}`, an `ENV` built from an `ARG` without a default) is not compared. When the paired
Dockerfiles set different values, any of them is accepted.

The Dockerfiles are read from disk when only a workflow is scanned (pre-commit passes the staged files);
findings are reported on the workflows scanned.

## Why is this bad?

verl reads `VERL_USE_EXTERNAL_MODULES` at import time to load the NPU patches. The image sets it; a CI
job that runs the image's tests in a plain container, or overrides the variable, tests another
configuration than the one users run, so it passes while the image is broken (or the other way round).

## Example

```dockerfile
# docker/ascend/Dockerfile.ascend_a2
ENV VERL_USE_EXTERNAL_MODULES=verl_npu
```

```yaml
# .github/workflows/npu_unit_tests.yml
jobs:
  unit-tests:
    runs-on: linux-aarch64-a2-8
    env:
      HF_ENDPOINT: https://hf-mirror.com
```

## Use instead

```yaml
# .github/workflows/npu_unit_tests.yml
jobs:
  unit-tests:
    runs-on: linux-aarch64-a2-8
    env:
      HF_ENDPOINT: https://hf-mirror.com
      VERL_USE_EXTERNAL_MODULES: verl_npu
```
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ascend_reflint.check.context import ProjectContext, TreeView
from ascend_reflint.check.globs import matches
from ascend_reflint.check.workflow_jobs import workflow_jobs
from ascend_reflint.model import EnvSetting, FileKind, Finding, Related, Severity, SourceFile

CODE = "RL006"
NAME = "env-drift"
SEVERITY = Severity.WARNING
NEEDS_LOOKUP = False

_WORKFLOW_SCOPE = "workflow"


def check_project(context: ProjectContext) -> Iterator[Finding]:
    """Report, per paired workflow and shared variable, each `env:` that differs and each job without it."""
    policy = context.policy
    if not policy.shared_env or not policy.env_pairs:
        return
    dockerfiles = _Dockerfiles(context)
    for workflow in context.files:
        if workflow.kind is not FileKind.WORKFLOW or workflow.text is None:
            continue
        relpath = context.relpath(workflow)
        pairs = frozenset(
            index for index, pair in enumerate(policy.env_pairs) if matches(pair.workflows, relpath)
        )
        for name in policy.shared_env:
            images = dockerfiles.images(pairs, name)
            if any(setting.value is not None for _, setting in images):
                yield from _check_workflow(context, workflow, name, images)


def compared_with(view: TreeView) -> Iterator[str]:
    """The Dockerfiles that the env pairs pair with the workflows scanned (findings are reported on the
    workflow side only, so a Dockerfile scanned needs no workflow)."""
    policy = view.policy
    if not policy.shared_env or not policy.env_pairs:
        return
    pairs = [
        pair
        for pair in policy.env_pairs
        if any(
            source.kind is FileKind.WORKFLOW and matches(pair.workflows, view.relpaths[source.path])
            for source in view.scanned
        )
    ]
    for source in view.others:
        if source.kind is FileKind.DOCKERFILE:
            relpath = view.relpaths[source.path]
            if any(matches(pair.dockerfiles, relpath) for pair in pairs):
                yield source.path


class _Dockerfiles:
    """The Dockerfiles of a scan and what they set, by the env pairs that pair them with a workflow.

    Many workflows match the same pairs, so the Dockerfiles are matched against each pair's globs once, and
    the images of one set of pairs are gathered once.
    """

    def __init__(self, context: ProjectContext) -> None:
        self._context = context
        self._pairs_of: list[tuple[SourceFile, frozenset[int]]] | None = None
        self._images: dict[tuple[frozenset[int], str], list[tuple[SourceFile, EnvSetting]]] = {}

    def images(self, pairs: frozenset[int], name: str) -> list[tuple[SourceFile, EnvSetting]]:
        """The last ``ENV`` of ``name`` in each Dockerfile that one of ``pairs`` (indexes into the policy's
        env pairs) takes, in file order."""
        key = (pairs, name)
        if key not in self._images:
            self._images[key] = [
                (dockerfile, setting)
                for dockerfile, matched in self._pairs()
                if matched & pairs
                for setting in _image_setting(dockerfile, name)
            ]
        return self._images[key]

    def _pairs(self) -> list[tuple[SourceFile, frozenset[int]]]:
        """Each Dockerfile, in file order, with the indexes of the env pairs whose globs match it."""
        if self._pairs_of is None:
            context = self._context
            pairs = list(enumerate(context.policy.env_pairs))
            self._pairs_of = [
                (
                    source,
                    frozenset(i for i, pair in pairs if matches(pair.dockerfiles, context.relpath(source))),
                )
                for source in context.files
                if source.kind is FileKind.DOCKERFILE
            ]
        return self._pairs_of


def _image_setting(dockerfile: SourceFile, name: str) -> list[EnvSetting]:
    """The last ``ENV`` of ``name`` in the Dockerfile (the one the final image keeps), if any."""
    settings = [setting for setting in dockerfile.env if setting.name == name and setting.scope == "image"]
    return settings[-1:]


def _check_workflow(
    context: ProjectContext,
    workflow: SourceFile,
    name: str,
    images: Sequence[tuple[SourceFile, EnvSetting]],
) -> Iterator[Finding]:
    expected = [setting.value for _, setting in images if setting.value is not None]
    related = [
        Related(
            dockerfile.path,
            setting.span.line,
            setting.span.column,
            f'the image sets {name}="{setting.value}"',
        )
        for dockerfile, setting in images
    ]
    where, values = _images_text(images), _values_text(expected)
    settings = [setting for setting in workflow.env if setting.name == name]
    for setting in settings:
        if setting.value is not None and setting.value not in expected:
            yield context.finding(
                workflow.path,
                setting.span,
                f'{name} is "{setting.value}" here but {values} in the image built by {where}, so CI runs '
                f"another configuration than the image; set it to {values}",
                related=related,
            )
    scopes = {setting.scope for setting in settings}
    if _WORKFLOW_SCOPE in scopes:
        return
    for job in workflow_jobs(workflow.text or ""):
        if job.reusable or f"job:{job.job_id}" in scopes:
            continue
        at = job.env_span or job.key_span
        yield context.finding(
            workflow.path,
            at,
            f'job "{job.job_id}" does not set {name}, which the image built by {where} sets to {values}; add '
            "it to the job's or the workflow's `env:`",
            related=related,
        )


def _values_text(values: Sequence[str]) -> str:
    unique = list(dict.fromkeys(values))
    quoted = [f'"{value}"' for value in unique]
    return quoted[0] if len(quoted) == 1 else "one of " + ", ".join(quoted)


def _images_text(images: Sequence[tuple[SourceFile, EnvSetting]]) -> str:
    paths = list(dict.fromkeys(dockerfile.path for dockerfile, _ in images))
    return paths[0] if len(paths) == 1 else f"{paths[0]} (and {len(paths) - 1} more)"
