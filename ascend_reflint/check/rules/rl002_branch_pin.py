"""A pin names a branch, which moves, where a tag would hold still.

## What it does

Reports a pin that ends up on a branch of its remote. Who gets the branch when a branch and a tag share a
name: `git clone --branch` and pip take the branch, `git checkout` after a clone and GitHub Actions take
the tag (see RL013).

- **error** when the remote has a tag for the same version (same version numbers and qualifiers, any
  letters: branch `core_r0.18.0` and tag `core_v0.18.0` of Megatron-LM, branch `release_v2.11` and tag
  `v2.11` of TransformerEngine); the finding suggests that tag.
- **error** when a rule pack lists the remote under `tag-pinned-remotes` (the default pack lists
  Megatron-LM, vLLM, vllm-ascend, SGLang, TransformerEngine, DeepEP, Megatron-Bridge and others); no
  suggestion, and the message names the newest release tag.
- **warning** otherwise. A GitHub Action's `uses:` on a branch (`@main`) and a pre-commit `rev:` on a
  branch are at most warnings: they move what a CI job or a developer's hooks run, not what an image holds.
- **nothing** for remotes under `branch-release-remotes`, whose releases are branches (MindSpeed's
  `core_r0.18.0` is its release), or under `head-tracking-remotes`, which are meant to be built at
  their head, and for documentation that clones the scanned repository itself (its git `origin`, or
  the repository its `pyproject.toml` or `setup.py` names): install-from-source steps follow the
  repository's own development branches by design; nor, in a scan of that repository, for any recipe
  that clones a remote under `self-head-tracking-remotes` (verl's Dockerfiles clone verl).

When a tag shares the branch's name (Megatron-LM's `core_r0.10.0`) and the pin takes the branch
(`git clone --branch`, pip), the build gets the moving branch: RL002 reports it, as an error (the remote
does have a tag of that version: that very name), and suggests a tag of the same version that names only
a tag (`core_v0.10.0`). RL013, which describes the same ambiguity, is not reported on that ref as well:
one finding per problem, and RL002 is the more specific (`git clone --branch` and pip prefer
`refs/heads`, so the branch is what gets built).

## Why is this bad?

A branch moves whenever a commit lands on it, so the same recipe builds different code from one day to
the next, and a build that passed yesterday can fail today with nothing changed in the repository. A
release branch such as `core_r0.18.0` keeps receiving backports after the release tag `core_v0.18.0`
was cut; a Docker layer cache hides the change until the cache is dropped.

## Example

```dockerfile
RUN git clone --depth 1 --branch core_r0.18.0 https://github.com/NVIDIA/Megatron-LM.git
RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@release_v2.11
```

## Use instead

```dockerfile
RUN git clone --depth 1 --branch core_v0.18.0 https://github.com/NVIDIA/Megatron-LM.git
RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@v2.11
```

## Fix

The branch is replaced by the tag the finding names, where the ref is written (the `ARG` or variable
that holds it, when it comes through one). Safe when the tag points at the commit the branch points at
now (as the remote's ref list says: TransformerEngine's `release_v2.10` and `v2.10`): the build gets the
same code, and keeps getting it. Unsafe when the branch has moved on since the tag (Megatron-LM's
`core_r0.18.0` after backports): the build gets the release instead of what the branch holds today. A ref
written as a branch (`origin/core_r0.18.0`, uv's `branch =`) is not rewritten.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import COMMAND, NamedRef, gets_branch, pinned_ref
from ascend_reflint.check.suggest import branch_release_tag, newest_release_tag
from ascend_reflint.model import Applicability, Finding, Fix, Pin, RemoteRefs, Severity, Via

CODE = "RL002"
NAME = "branch-pin"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = True
FIXES = (Applicability.SAFE, Applicability.UNSAFE)


def check(context: PinContext) -> Iterator[Finding]:
    """Report a pin that ends up on a branch (see the module docstring for the severity)."""
    pin, refs, policy = context.pin, context.refs, context.policy
    ref = pinned_ref(pin)
    if refs is None or ref is None or not gets_branch(ref, refs):
        return
    if context.tracks_head or policy.is_branch_release(pin.remote):
        return
    highest = Severity.WARNING if pin.via in (Via.ACTION, Via.PRE_COMMIT) else Severity.ERROR
    head = f'ref "{ref.written}" is a branch of {refs.remote}, which moves whenever a commit lands on it'
    if ref.kind is None and ref.name in refs.tags:
        taken = f"{head}; {COMMAND[ref.via]} takes the branch although a tag has the same name"
        only_tag = branch_release_tag(ref.name, refs, shares_name=True)
        if only_tag is not None:
            message = f'{taken}: pin "{only_tag}", which names only a tag'
            fix = _tag_instead(pin, ref, only_tag, refs)
            yield context.finding(message, severity=highest, suggestion=only_tag, fix=fix)
        else:
            yield context.finding(f"{taken}: pin a name that is only a tag, or a commit id", severity=highest)
        return
    tag = branch_release_tag(ref.name, refs)
    if tag is not None:
        yield context.finding(
            f'{head}: pin its release tag "{tag}"',
            severity=highest,
            suggestion=tag,
            fix=_tag_instead(pin, ref, tag, refs),
        )
        return
    newest = newest_release_tag(refs)
    advice = f'pin a release tag (newest: "{newest}") or a commit id' if newest else "pin a commit id"
    if policy.is_tag_pinned(pin.remote):
        yield context.finding(f"{head}, and {refs.remote} releases by tag: {advice}", severity=highest)
    else:
        yield context.finding(f"{head}: {advice}", severity=Severity.WARNING)


def _tag_instead(pin: Pin, ref: NamedRef, tag: str, refs: RemoteRefs) -> Fix | None:
    """Replace the branch by ``tag`` where the ref is written: safe when the tag points at the commit the
    branch points at now (the same ``git ls-remote`` says so), else unsafe (the branch has moved on)."""
    from ascend_reflint.check.fixes import make_fix, ref_edit

    if ref.kind is not None or pin.ref_type is not None:
        return None  # `origin/NAME`, uv's `branch =`: the name says "branch", a tag name would not fit
    if refs.tags.get(tag) == refs.branches.get(ref.name):
        applicability, why = Applicability.SAFE, "which points at the commit the branch points at now"
    else:
        applicability, why = Applicability.UNSAFE, "which points at another commit than the branch now"
    message = f'pin the tag "{tag}" instead of the branch "{ref.name}", {why}'
    return make_fix(applicability, message, [ref_edit(pin, tag)], [pin])
