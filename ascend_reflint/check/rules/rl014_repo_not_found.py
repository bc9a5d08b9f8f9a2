"""The remote repository does not exist, or is private.

## What it does

Reports, once per file and remote (at the first pin that needed the remote, with the count of such pins
in the message and the other pins as related places), a `git ls-remote` that the server answered with "no
such repository", or, over https, with a request for credentials: GitHub answers so for a repository that
does not exist and for a private one alike. Remotes listed under `private-remotes` in a rule pack are not
reported. A `# reflint: ignore[RL014]` comment at any of the file's pins of that remote suppresses the
finding.

## Why is this bad?

A mistyped owner or name fails at this line: the clone or pip install of a build, the `uses:` of a
workflow (GitHub cannot find the action), `pre-commit install`, `git submodule update`, each said in the
message in its own words. A private repository fails the same way on any machine without credentials for
it, such as a fresh CI runner or a colleague's laptop.

When your git configuration rewrites the URL to a mirror (`url.<base>.insteadOf`), a "not found" from the
mirror is not reported here: it says only that the mirror lacks a copy, which RL010 reports as such.

## Example

```dockerfile
RUN git clone --branch v0.9.1 https://github.com/vllm-project/vllm-ascnd.git
```

## Use instead

```dockerfile
RUN git clone --branch v0.9.1 https://github.com/vllm-project/vllm-ascend.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import FailureKind, Finding, Pin, Severity, Via

CODE = "RL014"
NAME = "repo-not-found"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = True

#: What fails when the repository does not exist, by how the pin fetches it. Only a clone, pip, uv or
#: Poetry run by the recipe is "the build": GitHub resolves `uses:` through its API, pre-commit installs
#: hooks on a developer's machine, `git submodule update` runs in a checkout.
_FAILS = {
    Via.CLONE: "`git clone` fails here",
    Via.CLONE_BRANCH: "`git clone` fails here",
    Via.CHECKOUT: "`git clone` fails here",
    Via.PIP_VCS: "pip fails to install it",
    Via.UV_SOURCE: "uv fails to resolve it",
    Via.POETRY: "Poetry fails to resolve it",
    Via.ACTION: "GitHub Actions cannot find the action and the job fails before it starts",
    Via.SUBMODULE: "`git submodule update` fails",
    Via.PRE_COMMIT: "pre-commit cannot install its hooks",
    Via.FETCHCONTENT: "CMake's download step fails",
    Via.EXTERNAL_PROJECT: "CMake's download step fails",
    Via.CPM: "CPM's download fails",
    Via.GITLAB_INCLUDE: "GitLab refuses the pipeline",
    Via.ADD_GIT: "the image build fails at this ADD",
    Via.BUILD_CONTEXT: "the image build fails before it starts",
    Via.CARGO: "`cargo install` fails",
    Via.NPM: "the install fails",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report a "not found" lookup of the pin's remote at the file's first pin that needed it."""
    failure = context.failure
    if failure is None or not context.first_of_remote or context.policy.is_private(failure.remote):
        return
    count = len(context.remote_pins)
    pins = "" if count == 1 else f" ({count} pins in this file)"
    span = context.pin.url_span or context.pin.span
    if failure.kind is FailureKind.NOT_FOUND:
        detail = f" ({failure.detail})" if failure.detail else ""
        yield context.finding(
            f"{failure.remote} does not exist{detail}, so {fails(context.pin)}; check the owner and name in "
            f"the URL{pins}",
            span=span,
            related=context.other_pins_of_remote(),
        )
    elif failure.kind is FailureKind.NOT_FOUND_OR_PRIVATE:
        yield context.finding(
            f"{failure.remote} was not found or is private: if it is mistyped, {fails(context.pin)}; a "
            "private one needs credentials in git's config and its host allowed them (--credentials-for "
            f"HOST), or its remote listed under private-remotes{pins}",
            span=span,
            related=context.other_pins_of_remote(),
        )


def fails(pin: Pin) -> str:
    """What fails when ``pin``'s repository does not exist, in the words of its kind (``pip fails to
    install it``): only a clone, pip, uv or Poetry run by a recipe is part of a build."""
    return _FAILS.get(pin.via, "fetching it fails")
