"""Handlers of package managers that fetch from git (the command-line syntax is
:mod:`ascend_reflint.extract.commands.packages`'): ``cargo install|add --git URL [--tag|--branch|--rev REF]``
and ``npm``/``yarn``/``pnpm`` installs of git dependencies (``github:owner/repo#REF``,
``git+https://…#REF``). A ``#semver:RANGE`` is resolved by npm against the remote's tags when it installs:
unresolved. The command-line syntax is imported when one of these commands is met (most scripts have none).
"""

from __future__ import annotations

from ascend_reflint.extract.shell.command import Command, Walker
from ascend_reflint.extract.shell.pip import add_value_pin
from ascend_reflint.extract.shell.values import Expanded, empty_ref
from ascend_reflint.model import RefType, Resolution, Via

_KINDS = {"tag": RefType.TAG, "branch": RefType.BRANCH}


def run_cargo(walker: Walker, command: Command) -> None:
    """``cargo install|add --git URL [--tag T|--branch B|--rev R]``: a pin of URL at the ref."""
    from ascend_reflint.extract.commands.packages import cargo_git

    git = cargo_git(command.words, command.start)
    if git is None:
        return
    expand, text, scope = walker.expander.expand, command.text, walker.env.scope
    url = expand(command.part(git.url), text, scope)
    ref = empty_ref(expand(command.part(git.ref), text, scope)) if git.ref is not None else None
    add_value_pin(walker.sink, Via.CARGO, url, ref, _KINDS.get(git.ref_kind or ""))


def run_npm(walker: Walker, command: Command) -> None:
    """``npm install``/``yarn add``/``pnpm add`` of git dependencies: a pin of each."""
    from ascend_reflint.extract.commands.packages import npm_git_spec, npm_specs

    for position in npm_specs(command.name, command.words, command.start):
        word = command.words[position]
        if "/" not in word.display:
            continue
        expanded = Expanded(walker.expander, word, command.text, walker.env.scope)
        spec = npm_git_spec(expanded.text)
        if spec is None:
            continue
        url = expanded.value(*spec.repository)
        if url.value is not None:
            url.value = spec.url_template.format(url.value)
        ref = expanded.value(*spec.ref) if spec.ref is not None and spec.ref[1] > spec.ref[0] else None
        if ref is not None and spec.semver:
            ref.value, ref.resolution = None, Resolution.UNRESOLVED
            ref.note = f"npm installs the highest tag in the range semver:{ref.written} when it runs"
        add_value_pin(walker.sink, Via.NPM, url, ref, _KINDS.get(spec.ref_kind or ""))
