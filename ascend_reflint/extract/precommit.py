"""Pins in ``.pre-commit-config.yaml``: each ``repo:`` with its ``rev:``.

Facts used here (pre-commit's documentation and source):

- ``repos:`` is a list of mappings; ``repo:`` is a git URL, or ``local``/``meta`` (hooks defined in the
  config itself or by pre-commit: nothing is fetched); ``rev:`` is the ref to install the hooks at
  (``clientlib.CONFIG_REPO_DICT``). A config whose top level is the list itself is the format before
  pre-commit 1.0, which pre-commit still migrates.
- pre-commit fetches ``git fetch origin REV --depth=1`` and checks out ``FETCH_HEAD``, falling back to a
  full fetch of the tags and ``git checkout REV`` (``store.Store._shallow_clone``/``_complete_clone``), so
  a tag wins over a branch of the same name, and a commit id works.
- ``pre-commit autoupdate --freeze`` writes a commit id with the tag it stands for in a comment on the same
  line: ``rev: <commit>  # frozen: v1.2.3`` (``commands.autoupdate._write_new_config``). The tag is kept on
  the pin as :attr:`~ascend_reflint.model.Pin.version_comment`, for the rule that checks it.
"""

from __future__ import annotations

from ascend_reflint.extract.comments import version_comment
from ascend_reflint.extract.yamlpos import (
    LineIndex,
    YamlMapping,
    YamlScalar,
    YamlSequence,
    parse_yaml,
    value_span,
)
from ascend_reflint.model import Pin, Resolution, SourceFile, Via
from ascend_reflint.remote import normalise_remote

#: ``repo:`` values that name no remote (pre-commit's ``clientlib.LOCAL`` and ``META``).
_NOT_REMOTES = frozenset({"local", "meta"})


def extract_pre_commit(source: SourceFile) -> None:
    """Fill ``source.pins`` with one pin per remote repository of a pre-commit config, in file order.

    Args:
        source: the file, with ``text`` read.

    Raises:
        ExtractError: for malformed YAML.
    """
    assert source.text is not None
    text = source.text
    root = parse_yaml(text)
    repos = root.get("repos") if isinstance(root, YamlMapping) else root
    if not isinstance(repos, YamlSequence):
        return
    lines = LineIndex(text)
    for entry in repos.items:
        if not isinstance(entry, YamlMapping):
            continue
        repo, rev = entry.get("repo"), entry.get("rev")
        if not isinstance(repo, YamlScalar) or not repo.value or repo.value in _NOT_REMOTES:
            continue
        if not isinstance(rev, YamlScalar) or (not rev.value and rev.style is None):
            rev = None  # no rev, or `rev:` with nothing after it (null)
        source.pins.append(_pin(source, lines, repo, rev))


def _pin(source: SourceFile, lines: LineIndex, repo: YamlScalar, rev: YamlScalar | None) -> Pin:
    assert source.text is not None
    url_span = value_span(source.text, repo, lines)
    resolution, note = Resolution.RESOLVED, None
    if rev is not None and rev.value == "":
        resolution, note = Resolution.EMPTY, 'rev: "" names no ref'
    comment = version_comment(source.text, rev.end, lines) if rev is not None else None
    return Pin(
        path=source.path,
        kind=source.kind,
        via=Via.PRE_COMMIT,
        span=value_span(source.text, rev, lines) if rev is not None else url_span,
        url=repo.value,
        remote=normalise_remote(repo.value),
        ref=rev.value if rev is not None else None,
        ref_text=rev.value if rev is not None else None,
        resolution=resolution,
        resolution_note=note,
        url_span=url_span,
        version_comment=comment[0] if comment is not None else None,
        version_comment_span=comment[1] if comment is not None else None,
    )
