"""A pinned ref or URL that cannot be known without running the build.

## What it does

Reports, as information, a pin whose ref or URL holds something reflint cannot resolve from the file:
a variable the file never assigns (the base image or the caller may set it), a workflow expression
(`${{ matrix.version }}`), a command substitution (`$(cat VERSION)`), a loop variable. The message says
which part is unresolved (the ref, the URL, or both), and why; the finding is on the URL when only the
URL is unresolved, on the ref otherwise. Nothing is looked up for such a pin and no other rule checks
its ref.

A ref or URL that holds a template placeholder (`{version}`, `{{ version }}`, `<branch>`, `@VERSION@`,
`%(ref)s`, `$VERSION$`) is reported as a placeholder, not a ref: the file is a template that a tool
renders before anything fetches it, and no other rule judges it. So is a URL whose owner or name stands
for the reader's own, as contributing guides write it (`git clone
git@github.com:[username]/LLaMA-Factory.git`, `https://github.com/YOUR_USERNAME/vllm-ascend.git`,
`USERNAME/repo`, `your-username/repo`): no repository is named, and it is never looked up.

A Dockerfile `ARG` without a default that another file of the project builds with a value known only
when it runs (a workflow's `docker/build-push-action` with `build-args: TE_REF=${{ inputs.te_ref }}`, a
script's `--build-arg TE_REF="$(cat te.txt)"`), and a reusable workflow's input that its caller gives so,
are reported with where that value is given (`the build argument TE_REF is given at
.github/workflows/image.yml:14: …`), and the build or the call as a related place.

When the project's builds of a Dockerfile give an `ARG` without a default its value (a script's
`docker build --build-arg TE=release_v2.10`, a workflow's `build-args:`, a bake target, a compose
service), the pin is checked through each build, which is its related place, and RL009 is not reported for
it. When some build of it gives no value (a `docker build` without `--build-arg TE=…`), that build fetches
with an empty value, so RL009 stays at the use, beside what the other builds' values get. reflint cannot
know of builds made by hand: a Dockerfile that no file of the project builds is reported as before.

Where a default value would let reflint check the pin (a variable the file never sets, an `ARG`
without a default), the message says so. For a loop variable, an expression, a command, or a variable
that the file sets empty on purpose (`ARG VLLM_COMMIT=""`, or `VLLM_COMMIT=` in a script that tests
`-n "$VLLM_COMMIT"` before it uses it), it gives no advice: there is no default to add, or one would change
what the build does. A variable that the file sets to nothing for good is an empty ref (RL012).

## Why is this bad?

It may be fine, but reflint cannot check it, so a wrong ref there fails only when the build runs. A
default value in the file (`ARG MEGATRON_REF=core_v0.15.0`, `${MEGATRON_REF:-core_v0.15.0}`) or a
`--build-arg` on reflint's command line lets it be checked.

## Example

```dockerfile
ARG MEGATRON_REF
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
```

## Use instead

```dockerfile
ARG MEGATRON_REF=core_v0.15.0
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.model import Finding, Pin, Resolution, Severity
from ascend_reflint.remote import redact

CODE = "RL009"
NAME = "unresolved-ref"
SEVERITY = Severity.INFO
NEEDS_LOOKUP = False

#: The resolution note's phrase (ascend_reflint.resolve) for a variable that the file never sets, which
#: ``${VAR:-value}`` would give a value. A variable the file sets to "" on purpose (``ARG COMMIT=""``
#: beside an ``if [ -n "$COMMIT" ]``) gets no such advice: a default would change what the build does.
_UNSET_VARIABLE = "is not set in this file"
#: The resolution note's phrase (ascend_reflint.extract.dockerfile) for an ARG without a default.
_ARG_WITHOUT_DEFAULT = "has no default and no --build-arg"


def check(context: PinContext) -> Iterator[Finding]:
    """Report a pin whose resolution is UNRESOLVED: which part (ref, URL or both), why, and what helps; or
    PLACEHOLDER: a template's placeholder, not a ref."""
    pin = context.pin
    if pin.resolution is Resolution.PLACEHOLDER:
        yield _placeholder(context)
        return
    if pin.resolution is not Resolution.UNRESOLVED:
        return
    why = pin.resolution_note or "no value is known"
    url = f'URL "{redact(pin.url)}"'
    ref_unresolved = pin.ref is None and pin.ref_text is not None
    if ref_unresolved and _url_unresolved(pin):
        yield context.finding(
            f'ref "{pin.ref_text}" and {url} cannot be resolved statically ({why}), so this pin was not '
            f"checked{_advice(why, 'default values in the file let')}",
            ref=pin.ref_text,
        )
    elif ref_unresolved:
        yield context.finding(
            f'ref "{pin.ref_text}" of {pin.remote or redact(pin.url)} cannot be resolved statically ({why}), '
            f"so it was not checked{_advice(why, 'a default value in the file lets')}",
            ref=pin.ref_text,
        )
    else:
        yield context.finding(
            f"{url} cannot be resolved statically ({why}), so this pin was not checked"
            f"{_advice(why, 'a default value in the file lets')}",
            span=pin.url_span,
        )


def _placeholder(context: PinContext) -> Finding:
    """A pin whose ref or URL holds a template placeholder: on the ref when the placeholder is there."""
    # not at the top: most scans have no unresolved pin
    from ascend_reflint.resolve import placeholder, url_placeholder

    pin = context.pin
    found = placeholder(pin.ref) or placeholder(pin.ref_text)
    account = None if found or placeholder(pin.url) else url_placeholder(pin.url)
    if account is not None:
        return context.finding(
            f'URL "{redact(pin.url)}" holds the placeholder {account}, which stands for the reader\'s own '
            "account or repository: no repository is named, so nothing was checked",
            span=pin.url_span,
        )
    what, span = (f'ref "{pin.ref_text}"', pin.span) if found else (f'URL "{redact(pin.url)}"', pin.url_span)
    name = found or placeholder(pin.url) or "?"
    return context.finding(
        f"{what} holds the template placeholder {name}: a placeholder, not a ref, so nothing was checked; "
        "reflint checks the file the template renders",
        span=span,
    )


def _url_unresolved(pin: Pin) -> bool:
    """True when the URL is what resolution left unknown: no remote, and a variable or command in it."""
    from ascend_reflint.resolve import has_expansion

    return pin.remote is None and has_expansion(pin.url)


def _advice(why: str, default_helps: str) -> str:
    """Advice to append to the message: ``; <default_helps> reflint check it`` when the note shows a
    variable the file never sets (the ARG's own wording for a Dockerfile ARG), else nothing: a loop
    variable, a workflow expression, a command or a variable set empty on purpose has no default to add.

    Args:
        why: the pin's resolution note.
        default_helps: the subject and verb, singular or plural (``a default value in the file lets``).
    """
    if _ARG_WITHOUT_DEFAULT in why:
        return "; a default on the ARG, or --build-arg on reflint's command line, lets reflint check it"
    if _UNSET_VARIABLE in why:
        return f"; {default_helps} reflint check it"
    return ""
