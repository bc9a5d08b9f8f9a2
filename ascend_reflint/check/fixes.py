"""Building fixes for findings: the edits that replace a pin's ref where it is written.

A rule that knows the answer ("pin its release tag core_v0.18.0") attaches a
:class:`~ascend_reflint.model.Fix` to its finding; :mod:`ascend_reflint.fix` applies it. The rules here:

- **An edit goes where the value is written.** A ref that comes through a variable (``ARG``, ``ENV``, a
  shell or workflow ``env:`` assignment, a build argument) is edited at its definition
  (:attr:`~ascend_reflint.model.Pin.ref_origin`), one that a default gives (``${REF:-v1}``) at the default;
  a ref written at the use is edited there; a ref made of several pieces (``v$VER``) has no edit. Whether
  one definition feeds other pins that need another value is settled once every finding is known
  (:func:`ascend_reflint.fix.settle.settle_fixes`).
- **Only what the span holds is replaced**: each edit records the text it expects there (the ref as
  resolved), so an escaped or quoted spelling that differs from the value is never rewritten.
- **Only plain names are written.** A ref name comes from the remote, which anyone may run; git allows
  ``;``, ``$``, ``|``, quotes and ``#`` in ref names (git-check-ref-format(1)), which would change what a
  shell line or a requirement means. A name outside :data:`WRITABLE_REF` is never written into a file.
- **Editing a ``pyproject.toml`` git source leaves the lock file stale** (``uv.lock``, ``poetry.lock``
  record the commit): such a fix is unsafe and says "relock".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascend_reflint.model import Applicability, Edit, FileKind, Fix, Pin, Span

if TYPE_CHECKING:
    from ascend_reflint.check.refnames import NamedRef

#: Ref names that a fix may write: letters, digits and ``._/+-``, starting with a letter or digit. Every
#: release tag and branch of the trial repositories is of this form.
WRITABLE_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/+-]*")
#: What a fix of a ``pyproject.toml`` git source adds to its message.
RELOCK = "; then relock (`uv lock`, `poetry lock`): the lock file records the old commit"


def writable(name: str) -> bool:
    """True when ``name`` may be written into a recipe as it is (see :data:`WRITABLE_REF`)."""
    return WRITABLE_REF.fullmatch(name) is not None and ".." not in name


def ref_edit(pin: Pin, new_ref: str) -> Edit | None:
    """The edit that makes ``pin`` name ``new_ref`` instead of its ref, where the ref is written.

    Args:
        pin: a resolved pin with a ref.
        new_ref: the ref to write.

    Returns:
        An edit of the definition when the ref comes through a variable (its
        :attr:`~ascend_reflint.model.Pin.ref_origin`), of the ref's token when it is written at the use as
        it is; None when it is neither (written in pieces, escaped, from ``--build-arg``), or when
        ``new_ref`` is not :func:`writable`.
    """
    if pin.ref is None or not writable(new_ref):
        return None
    if pin.ref_origin is not None:
        return Edit(pin.ref_origin.path, pin.ref_origin.span, new_ref, expected=pin.ref)
    if pin.ref_text != pin.ref:
        return None
    return Edit(pin.path, pin.span, new_ref, expected=pin.ref)


def renamed(ref: NamedRef, new_name: str) -> str:
    """The ref as written with its branch or tag name replaced (``refs/tags/v1`` → ``refs/tags/v2``,
    ``origin/mian`` → ``origin/main``): the prefix says which kind of ref, so ``new_name`` must be of that
    kind. ``new_name`` alone when the name is all that is written."""
    if ref.written != ref.name and ref.written.endswith(ref.name):
        return ref.written[: len(ref.written) - len(ref.name)] + new_name
    return new_name


def token_edit(path: str, span: Span, old: str, new: str) -> Edit | None:
    """The edit that replaces the token ``old`` written at ``span`` of ``path`` by ``new`` (a clone's
    ``--branch`` before a checkout), or None when ``new`` is not :func:`writable`."""
    return Edit(path, span, new, expected=old) if writable(new) else None


def make_fix(
    applicability: Applicability, message: str, edits: Sequence[Edit | None], pins: Sequence[Pin] = ()
) -> Fix | None:
    """A fix of ``edits``, or None when one of them could not be made.

    Args:
        applicability: safe or unsafe, before the lock-file rule.
        message: what the fix does, in a phrase.
        edits: the edits (None for one that could not be made).
        pins: the pins the fix changes; when one is in a ``pyproject.toml``, the fix is unsafe and its
            message says to relock.
    """
    if not edits or any(edit is None for edit in edits):
        return None
    if any(pin.kind is FileKind.PYPROJECT for pin in pins):
        applicability, message = Applicability.UNSAFE, message + RELOCK
    ordered = sorted((edit for edit in edits if edit is not None), key=_position)
    return Fix(applicability, message, tuple(ordered))


def _position(edit: Edit) -> tuple[str, int, int]:
    return (edit.path, edit.span.line, edit.span.column)


#: The ``git clone`` options that make a shallow clone (git-clone(1)).
SHALLOW_OPTIONS = ("depth", "shallow-since", "shallow-exclude")
# Compiled on first use (re keeps them): only a finding whose fix rewrites a clone needs them.
_VARIABLE = r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})"
_FULL_COMMIT_ID = r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}"


def option_removals(pin: Pin, *names: str) -> list[Edit]:
    """Edits that delete each of the clone's options ``names`` (with their values and the white space
    before them); empty when the pin has no clone layout or none of them is written so."""
    layout = pin.clone_layout
    if layout is None:
        return []
    return [Edit(pin.path, span, "") for span in layout.option_spans(*names)]


def clone_then_checkout(pin: Pin, commit: str, commit_id: str | None) -> tuple[list[Edit], str] | None:
    """The edits that turn ``git clone --branch X … URL DIR`` into a clone and a checkout of ``commit``.

    git-clone(1) ``--branch`` takes a branch or a tag, never a commit id; a commit is checked out after the
    clone (``git -C DIR checkout COMMIT``, added with ``&&`` after the clone's last word). The other
    options stay, but:

    - ``--branch`` and ``--single-branch`` go (the commit need not be on the branch cloned);
    - a ``--depth N`` clone keeps its depth and fetches the commit by its full id before the checkout
      (``git -C DIR fetch --depth N origin COMMIT``; GitHub, GitLab and Gitee serve a commit fetched by
      its full id); ``--shallow-since``/``--shallow-exclude``, or an abbreviated id, which no server
      fetches, drop the shallow options instead;
    - ``--recurse-submodules`` gets a ``git -C DIR submodule update --init --recursive`` after the
      checkout, since the submodules were cloned at the branch's commits.

    Args:
        pin: a ``git clone --branch`` pin with a clone layout.
        commit: the commit id to check out, as it is to be written: a commit id, or the variable the
            ``--branch`` was given (``$COMMIT``).
        commit_id: the commit id that ``commit`` stands for, when known (a full id can be fetched).

    Returns:
        ``(edits, what is checked out as a phrase)``, or None when the command cannot be rewritten: no
        layout, no known directory, something other than an operator after the command, a ``--branch``
        not written as an option of its own, or ``commit`` neither a plain name nor a variable.
    """
    layout = pin.clone_layout
    if layout is None or layout.end is None or layout.directory is None:
        return None
    if not (writable(commit) or re.fullmatch(_VARIABLE, commit)) or not layout.option_spans("branch"):
        return None
    fetch_by_id = (
        pin.depth is not None
        and commit_id is not None
        and re.fullmatch(_FULL_COMMIT_ID, commit_id) is not None
        and not layout.option_spans("shallow-since", "shallow-exclude")
    )
    dropped = ("branch", "single-branch") if fetch_by_id else ("branch", "single-branch", *SHALLOW_OPTIONS)
    directory = layout.directory
    commands = [f"git -C {directory} checkout {commit}"]
    if fetch_by_id:
        commands.insert(0, f"git -C {directory} fetch --depth {pin.depth} origin {commit}")
    if pin.recurse_submodules:
        commands.append(f"git -C {directory} submodule update --init --recursive")
    edits = option_removals(pin, *dropped)
    edits.append(Edit(pin.path, layout.end, "".join(f" && {command}" for command in commands)))
    return edits, f"{commit} in {directory}"
