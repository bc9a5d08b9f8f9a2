"""A pinned ref or URL that expands to nothing where it is used.

## What it does

Reports a pin whose ref (or URL) is empty where it is used: written as nothing (`--branch ""`,
`git+URL@`), or a variable that the file itself shows is empty at that point, because it is assigned
only further down, only in another Dockerfile build stage (`ARG` and `ENV` do not cross `FROM`), or only
on a commented-out line, or because the file sets it to nothing and nothing outside the file can replace
that (`REF=` in a script, `ENV REF=""`, a workflow `env:` entry `""`, `unset REF`). The message says
which, and what the command does with the empty ref. An empty default that the build's caller replaces
(`ARG REF=""`, `${REF:-}`), and a variable set to nothing that the script tests before it uses it (`if
[ -n "$REF" ]`: a setting used only when it is set) are not empty refs but unknown ones (RL009). A
repository URL that expands to nothing unquoted (`git fetch $REPO $SHA`, `git clone $REPO dir`) vanishes
from the command line, and git reads the next word as the repository: the message names that word.

## Why is this bad?

git refuses an empty name: `git clone --branch ""` fails ("Remote branch  not found"), and so do
`git checkout ""`, `git switch ""` and `git reset --hard ""`. Unquoted, an empty variable vanishes from
the command line: a bare `git checkout` does nothing, so the build takes whatever the clone checked out.
pip rejects a `git+URL@` with an empty revision. The ref was meant to name something, and the recipe
does not do what it says.

## Example

```dockerfile
FROM base AS build
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
ARG MEGATRON_REF=core_v0.15.0
```

## Use instead

```dockerfile
FROM base AS build
ARG MEGATRON_REF=core_v0.15.0
RUN git clone --depth 1 --branch "$MEGATRON_REF" https://github.com/NVIDIA/Megatron-LM.git
```
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import COMMAND
from ascend_reflint.model import Finding, Resolution, Severity, Via
from ascend_reflint.remote import redact

CODE = "RL012"
NAME = "empty-ref"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False

#: The message for a ref written as nothing, per command (git 2.39 refuses an empty name: "Remote branch
#: not found", "empty string is not a valid pathspec"; pip: "has an empty revision (after @)").
_WRITTEN_EMPTY = {
    Via.CLONE_BRANCH: (
        '`--branch ""` names no branch or tag, so `git clone` fails; name the branch or tag to clone, or '
        "drop --branch to clone the default branch"
    ),
    Via.CHECKOUT: (
        '`git checkout ""` names no ref, so git refuses it and the build fails; name the branch, tag or '
        "commit to check out"
    ),
    Via.PIP_VCS: (
        'the revision after "@" is empty, so pip rejects the URL; write the ref after "@", or drop the "@" '
        "to install the default branch"
    ),
    Via.ACTION: (
        'the `uses:` has no ref after "@", so the workflow is invalid; write a tag or a full commit id'
    ),
}

#: The resolution note's phrase (ascend_reflint.extract.shell.git) for an unquoted repository word that
#: expands to nothing, after which git reads the next word as the repository.
_VANISHES = "unquoted, it vanishes"
#: The resolution notes' phrases (ascend_reflint.extract: shell assignments and ``unset``, Dockerfile ENV,
#: workflow ``env:``) for a variable that the file itself sets to nothing before the use.
_EMPTIED = ("is set to nothing on line", "is unset on line")
#: The resolution note's phrase (ascend_reflint.extract.expressions) for a workflow input that a trigger
#: of the workflow leaves empty (GitHub: the ``inputs`` context is empty on other events).
_INPUT_ON_OTHER_TRIGGER = "is empty when the workflow runs on"
#: What each command does with a variable that expands to nothing, quoted or not.
_EXPANDS_EMPTY = {
    Via.CLONE_BRANCH: "`git clone --branch` gets no branch name and the clone fails",
    Via.CHECKOUT: (
        "`git checkout` gets an empty ref and fails (unquoted, it gets none and leaves the clone where it "
        "was)"
    ),
    Via.PIP_VCS: 'pip rejects the empty revision after "@"',
    Via.ACTION: "the `uses:` has no ref and the workflow is invalid",
}


def check(context: PinContext) -> Iterator[Finding]:
    """Report a pin whose resolution is EMPTY: what is empty, why, and what the command does with it."""
    pin = context.pin
    if pin.resolution is not Resolution.EMPTY:
        return
    why = pin.resolution_note or "the variable is empty here"
    if pin.remote is None:
        # an unquoted repository word vanishes: the note says which word git takes instead
        consequence = "" if _VANISHES in why else f", so {COMMAND[pin.via]} gets no repository"
        yield context.finding(
            f'URL "{redact(pin.url)}" expands to nothing here ({why}){consequence}; assign the variable '
            "before this line",
            span=pin.url_span,
        )
    elif pin.ref_text == "":
        fallback = f"the ref is empty, so {COMMAND[pin.via]} fails; name the ref"
        yield context.finding(_WRITTEN_EMPTY.get(pin.via, fallback), ref="")
    else:
        consequence = _EXPANDS_EMPTY.get(pin.via, f"{COMMAND[pin.via]} gets an empty ref")
        yield context.finding(
            f'ref "{pin.ref_text}" expands to nothing here ({why}), so {consequence}; {_advice(why)}',
            ref=pin.ref_text,
        )


def _advice(why: str) -> str:
    """What to do about a variable that is empty where a pin uses it, from the resolution note: give it a
    ref where the file empties it; give a workflow input a fallback for the triggers that leave it empty;
    else assign it before the use (it is assigned only later, in another stage, or on a commented-out
    line)."""
    if any(phrase in why for phrase in _EMPTIED):
        return "set the variable to the ref to use"
    name, _, rest = why.partition(_INPUT_ON_OTHER_TRIGGER)
    if rest:
        return (
            f"give the expression a fallback ref (`${{{{ {name.strip()} || '<ref>' }}}}`), or run the step "
            "only on the triggers that set the input"
        )
    return "assign the variable before this line"
