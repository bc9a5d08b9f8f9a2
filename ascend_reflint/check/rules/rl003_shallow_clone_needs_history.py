r"""A shallow clone that the recipe then needs history from.

## What it does

Reports a shallow clone (`--depth`, `--shallow-since`, `--shallow-exclude`, a submodule's
`shallow = true`):

- of a remote that a rule pack lists under `full-history-remotes` (the default pack lists MindSpeed, on
  gitcode.com and github.com, which recipes check out by commit id), when something then needs its
  history: a checkout of another ref than the one cloned, even one that cannot be resolved (`git checkout
  $COMMIT`); a `git describe`, `git log`, `git rev-list` (not `-1`), `git shortlog`, `git merge-base`,
  `git cherry-pick`, `git rebase` or `git bisect` run in the clone; a shallow submodule, which checks out
  the commit its superproject records; CMake's `GIT_SHALLOW` with a commit id. A shallow clone of a
  release branch that nothing reads further back from builds fine, and is not reported;
- of any remote, when a `git checkout`, `git switch` or `git reset --hard` in the clone then moves to a
  ref other than the one cloned: another branch, a tag, or a commit id (unless the remote's ref list
  shows that the tag or commit is the tip of what was cloned);
- of CMake's `FetchContent_Declare`/`ExternalProject_Add` (and CPM.cmake's packages) with `GIT_SHALLOW`
  true (`ON`, `TRUE`, `1` …) and a commit id as `GIT_TAG`: CMake's ExternalProject documentation says
  "If `GIT_SHALLOW` is enabled then `GIT_TAG` works only with branch names and tags. A commit hash is not
  allowed." CMake clones with `--depth 1 --no-single-branch`, which fetches the newest commit of each
  branch and tag only, and then runs `git checkout <GIT_TAG>`. Not reported when the remote's ref list
  shows a tag at that commit (the clone fetches it); when only a branch's tip is that commit, the finding
  says the build breaks once the branch moves on.

Not reported: `git fetch --depth 1 origin <full commit id>` in the clone followed by a checkout of that
id or of `FETCH_HEAD`, which works (GitHub, GitLab and Gitee serve a commit fetched by its full id). A
name checked out from a clone of the default branch is reported only when the remote was looked up (the
name may be the default branch itself).

## Why is this bad?

A shallow clone holds only the newest commits of the one branch or tag it cloned: git-clone(1) says
`--depth` (and the other shallow options) imply `--single-branch`, and fetches only the tags that point
into that history. `git checkout f2b0977e` fails with "reference is not a tree" once the commit is not
among them, and `git checkout v0.12.0` fails with "pathspec did not match" because the tag was never
fetched. A checkout that works today, because the commit is still the tip, breaks the day the branch
moves on, with nothing changed in the recipe.

## Example

```dockerfile
RUN git clone --depth 1 https://gitcode.com/Ascend/MindSpeed.git && \
    cd MindSpeed && git checkout f2b0977e
RUN git clone --depth 1 https://github.com/deepseek-ai/DeepEP.git && \
    cd DeepEP && git checkout v1.2.1
```

```cmake
FetchContent_Declare(cutlass GIT_REPOSITORY https://github.com/NVIDIA/cutlass.git
                     GIT_TAG f115c3f85467d5d9619119d1dbeb9c03c3d73864 GIT_SHALLOW TRUE)
```

## Use instead

```dockerfile
RUN git clone https://gitcode.com/Ascend/MindSpeed.git && \
    cd MindSpeed && git checkout f2b0977e
RUN git clone --depth 1 --branch v1.2.1 https://github.com/deepseek-ai/DeepEP.git
```

```cmake
FetchContent_Declare(cutlass GIT_REPOSITORY https://github.com/NVIDIA/cutlass.git
                     GIT_TAG f115c3f85467d5d9619119d1dbeb9c03c3d73864)
```

## Fix

Safe: the shallow options (`--depth N`, `--shallow-since`, `--shallow-exclude`) are deleted, and so is a
`--single-branch` before a checkout, which would still leave the other branches and their tags out. The
clone then holds the whole history: it takes longer, and builds what the recipe meant. For CMake,
`GIT_SHALLOW <value>` is deleted. A clone whose options come from a variable (`git clone $GIT_ARGS …`) is
not rewritten.

The message also suggests cloning the checked-out ref directly (`git clone --depth 1 --branch v1.2.1`) when
that ref is a branch or tag name, the only refs `--branch` takes (git-clone(1); names by
git-check-ref-format(1)); for a revision (`core_v0.12.1~3`, `main@{2}`, `v1^{commit}`) it does not.

The finding is at the ref that needs the history (the checkout's ref, the pin's), where the build fails; its
related location (a `note:` in text, `related` in JSON, `relatedLocations` in SARIF) is where the fix
applies: the shallow option as written (`--depth 1`, `GIT_SHALLOW TRUE`), or, when no fix can rewrite the
clone, the `git clone` that a checkout follows.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_reflint.check.context import PinContext
from ascend_reflint.check.refnames import (
    COMMAND,
    first_tip,
    is_abbreviated_commit_id,
    is_full_commit_id,
    is_ref_name,
    same_ref,
)
from ascend_reflint.model import Applicability, Finding, Fix, Pin, Related, RemoteRefs, Severity, Via

CODE = "RL003"
NAME = "shallow-clone-needs-history"
SEVERITY = Severity.ERROR
NEEDS_LOOKUP = False
FIXES = (Applicability.SAFE,)

#: The ways of pinning that CMake clones (CPM.cmake hands its packages to FetchContent).
_CMAKE = (Via.FETCHCONTENT, Via.EXTERNAL_PROJECT, Via.CPM)


def check(context: PinContext) -> Iterator[Finding]:
    """Report a shallow clone of a full-history remote, or one followed by a checkout of another ref."""
    pin = context.pin
    if not pin.shallow or _fetched_before_checkout(pin):
        return
    related = _shallow_place(pin)
    if context.policy.needs_full_history(pin.remote):
        need = _history_need(pin)
        if need is not None:
            what, place = need
            yield context.finding(
                f"{_shallow(pin)} of {pin.remote}, which the rule pack lists under full-history-remotes: "
                f"{what}, and a shallow clone holds only the newest ones; drop the shallow option",
                related=related + place,
                fix=_full_clone(pin),
                at_use=True,
            )
        return
    if pin.via in _CMAKE and pin.resolved and pin.ref is not None and _is_commit_id(pin.ref):
        yield from _cmake_commit(context, pin.ref)
        return
    if pin.via is not Via.CHECKOUT or not pin.resolved or pin.ref is None:
        return
    if _holds_ref(pin, context.refs) is not False:
        return
    cloned = f'"{pin.clone_ref}"' if pin.clone_ref else "the default branch"
    if is_full_commit_id(pin.ref) or is_abbreviated_commit_id(pin.ref):
        what, holds = f'commit "{pin.ref}"', f"only the newest commits of {cloned}"
        advice = (
            "drop the shallow option, or fetch the commit with `git fetch --depth 1 origin <full commit id>` "
            "and check out FETCH_HEAD"
        )
    else:
        what, holds = f'"{pin.ref}"', f"no other branch, and only the tags at the tip of {cloned}"
        if is_ref_name(pin.ref):
            advice = (
                f"clone it directly with `git clone --depth 1 --branch {pin.ref}`, or drop the shallow option"
            )
        else:  # a revision (core_v0.12.1~3, main@{2}): --branch takes a branch or tag name only
            advice = f'drop the shallow option (`git clone --branch` takes no revision such as "{pin.ref}")'
    yield context.finding(
        f"the checkout of {what} follows {_shallow(pin)} of {cloned} of {pin.remote or pin.url}, which holds "
        f"{holds}, so the checkout fails (or breaks once {cloned} moves on); {advice}",
        related=related,
        fix=_full_clone(pin),
        at_use=True,
    )


def _history_need(pin: Pin) -> tuple[str, tuple[Related, ...]] | None:
    """What needs more history than a shallow clone of ``pin`` holds, for the message, and where it is
    when that is not the pin's own span; None when nothing does."""
    if pin.via is Via.CHECKOUT and not (pin.ref is not None and same_ref(pin.ref, pin.clone_ref)):
        if pin.ref is not None and _is_commit_id(pin.ref):
            return f'its commits are checked out by id (here "{pin.ref}")', ()
        return f"the checkout of `{pin.ref_text or pin.ref}` needs another commit than the one cloned", ()
    if pin.via is Via.SUBMODULE or (pin.via in _CMAKE and pin.ref is not None and _is_commit_id(pin.ref)):
        return "its commits are checked out by id", ()
    read = pin.history_read
    if read is None:
        return None
    span = read.span
    return f"`{read.command}` reads its history", (
        Related(pin.path, span.line, span.column, f"`{read.command}`"),
    )


def _cmake_commit(context: PinContext, commit: str) -> Iterator[Finding]:
    """``GIT_SHALLOW`` true with a commit id as ``GIT_TAG``: CMake's shallow clone holds the tips of the
    branches and tags only (see the module docstring)."""
    tip = first_tip(commit, context.refs) if context.refs is not None else None
    if tip is not None and tip[0] == "tag":
        return  # `--no-single-branch` fetches every tag's commit: the checkout works, and keeps working
    if tip is not None:
        fails = f'works only while it is the tip of branch "{tip[1]}", and fails once that branch moves on'
    elif context.refs is not None:
        fails = "fails: it is the tip of no branch or tag"
    else:
        fails = "fails unless it is the tip of a branch or tag"
    pin = context.pin
    yield context.finding(
        f"GIT_SHALLOW makes {COMMAND[pin.via]} clone {pin.remote or pin.url} with `--depth 1`, which holds "
        f'the newest commit of each branch and tag only, so the checkout of commit "{commit}" {fails} '
        "(CMake's documentation: with GIT_SHALLOW, GIT_TAG works only with branch names and tags); drop "
        "GIT_SHALLOW",
        related=_shallow_place(pin),
        fix=_full_clone(pin),
        at_use=True,
    )


def _is_commit_id(ref: str) -> bool:
    return is_full_commit_id(ref) or is_abbreviated_commit_id(ref)


def _full_clone(pin: Pin) -> Fix | None:
    """Delete the clone's shallow options (and ``--single-branch`` before a checkout of another ref)."""
    from ascend_reflint.check.fixes import SHALLOW_OPTIONS, make_fix, option_removals

    shallow = option_removals(pin, *SHALLOW_OPTIONS)
    if not shallow:
        return None
    single = option_removals(pin, "single-branch") if pin.via is Via.CHECKOUT else []
    dropped = " and ".join(("the shallow option", "--single-branch")[: 1 + bool(single)])
    return make_fix(Applicability.SAFE, f"drop {dropped}: clone the whole history", [*shallow, *single])


def _fetched_before_checkout(pin: Pin) -> bool:
    """``git fetch [--depth N] origin REF`` and then a checkout of REF (or of FETCH_HEAD) works."""
    return pin.via is Via.CHECKOUT and pin.fetched_ref is not None and same_ref(pin.ref, pin.fetched_ref)


def _holds_ref(pin: Pin, refs: RemoteRefs | None) -> bool | None:
    """Whether the shallow clone holds the ref checked out: True, False, or None when only the ref list
    could tell (a name checked out from a clone of the default branch, with no lookup)."""
    assert pin.ref is not None
    if pin.clone_ref is not None and same_ref(pin.ref, pin.clone_ref):
        return True
    tip = _cloned_tip(pin, refs)
    if is_full_commit_id(pin.ref) or is_abbreviated_commit_id(pin.ref):
        return tip is not None and tip.startswith(pin.ref.lower())
    if refs is None:
        return None if pin.clone_ref is None else False
    tag_at_tip = tip is not None and refs.tags.get(pin.ref) == tip
    default_branch = pin.clone_ref is None and tip is not None and refs.branches.get(pin.ref) == tip
    return tag_at_tip or default_branch


def _cloned_tip(pin: Pin, refs: RemoteRefs | None) -> str | None:
    """The commit the clone checked out: the tip of its ``--branch`` (branch first, as git-clone(1)), or
    HEAD's; None without a ref list."""
    if refs is None:
        return None
    if pin.clone_ref is None:
        return refs.head
    return refs.branches.get(pin.clone_ref) or refs.tags.get(pin.clone_ref)


def _shallow(pin: Pin) -> str:
    if pin.via is Via.SUBMODULE:
        return "a shallow submodule (`shallow = true`)"
    option = f"`--depth {pin.depth}`" if pin.depth is not None else "`--shallow-since`/`--shallow-exclude`"
    return f"a shallow clone ({option})"


def _shallow_place(pin: Pin) -> tuple[Related, ...]:
    """Where the fix applies: the shallow option as written (``--depth 1``, CMake's ``GIT_SHALLOW ON``),
    which the fix deletes; else, for a checkout, the ``git clone`` it follows (options from a variable,
    which no fix rewrites); else nothing (the finding is at the clone)."""
    from ascend_reflint.check.fixes import SHALLOW_OPTIONS

    layout = pin.clone_layout
    option = layout.first_written(*SHALLOW_OPTIONS) if layout is not None else None
    if option is not None:
        what = "GIT_SHALLOW" if pin.via in _CMAKE else "the shallow option"
        return (Related(pin.path, option.line, option.column, f"{what}, which the fix deletes"),)
    clone = pin.clone_span
    if pin.via is not Via.CHECKOUT or clone is None:
        return ()
    return (Related(pin.path, clone.line, clone.column, "the shallow clone"),)
