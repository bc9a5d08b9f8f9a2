"""Pins in ``.pre-commit-config.yaml`` and prek's ``prek.toml``: each ``repo`` with its ``rev``.

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
- prek (a reimplementation of pre-commit) reads the same configuration model from ``prek.toml`` (its
  "Configuration" page): ``[[repos]]`` tables (or a ``repos = [...]`` array of inline tables) with
  ``repo`` and ``rev``; ``repo = "local"``, ``"meta"`` and ``"builtin"`` (prek's own hooks) fetch nothing.
"""

from __future__ import annotations

from ascend_reflint.extract.comments import version_comment
from ascend_reflint.extract.tomlpos import TomlString, check_toml, toml_strings
from ascend_reflint.extract.yamlpos import (
    LineIndex,
    YamlMapping,
    YamlScalar,
    YamlSequence,
    parse_yaml,
    value_span,
)
from ascend_reflint.model import Pin, Resolution, SourceFile, Span, Via
from ascend_reflint.remote import normalise_remote

#: ``repo:`` values that name no remote (pre-commit's ``clientlib.LOCAL`` and ``META``; prek's ``builtin``).
_NOT_REMOTES = frozenset({"local", "meta", "builtin"})


def extract_pre_commit(source: SourceFile) -> None:
    """Fill ``source.pins`` with one pin per remote repository of a pre-commit config, in file order.

    Args:
        source: the file, with ``text`` read: YAML, or TOML when its name ends with ``.toml``.

    Raises:
        ExtractError: for malformed YAML or TOML.
    """
    assert source.text is not None
    text = source.text
    if source.path.lower().endswith(".toml"):
        _extract_prek_toml(source, text)
        return
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
    written = (rev.value, value_span(source.text, rev, lines), rev.end) if rev is not None else None
    return _repo_pin(source, lines, repo.value, url_span, written, 'rev: "" names no ref')


def _extract_prek_toml(source: SourceFile, text: str) -> None:
    """The pins of a ``prek.toml``: the ``repo`` of each table of ``repos`` with the ``rev`` beside it."""
    check_toml(text)
    strings = toml_strings(text)
    revs = {string.path[:2]: string for string in strings if _is_repos_key(string, "rev")}
    lines = LineIndex(text)
    for repo in strings:
        if not _is_repos_key(repo, "repo") or not repo.value or repo.value in _NOT_REMOTES:
            continue
        rev = revs.get(repo.path[:2])
        url_span = lines.span(*repo.region())
        found = (rev.value, lines.span(*rev.region()), rev.literal[1]) if rev is not None else None
        source.pins.append(_repo_pin(source, lines, repo.value, url_span, found, 'rev = "" names no ref'))


def _is_repos_key(string: TomlString, key: str) -> bool:
    """Whether ``string`` is the value of ``key`` in a table of the top-level ``repos`` array."""
    return len(string.path) == 3 and string.path[0] == "repos" and string.path[2] == key


def _repo_pin(
    source: SourceFile,
    lines: LineIndex,
    url: str,
    url_span: Span,
    rev: tuple[str, Span, int] | None,
    empty_note: str,
) -> Pin:
    """The pin of one remote hook repository at ``url`` (written at ``url_span``).

    Args:
        rev: the ``rev`` as ``(value, its span, the offset just after it as written)``; None without one.
        empty_note: what the pin's note says when the rev is empty (as the format writes it).
    """
    assert source.text is not None
    resolution, note = Resolution.RESOLVED, None
    if rev is not None and rev[0] == "":
        resolution, note = Resolution.EMPTY, empty_note
    comment = version_comment(source.text, rev[2], lines) if rev is not None else None
    return Pin(
        path=source.path,
        kind=source.kind,
        via=Via.PRE_COMMIT,
        span=rev[1] if rev is not None else url_span,
        url=url,
        remote=normalise_remote(url),
        ref=rev[0] if rev is not None else None,
        ref_text=rev[0] if rev is not None else None,
        resolution=resolution,
        resolution_note=note,
        url_span=url_span,
        version_comment=comment[0] if comment is not None else None,
        version_comment_span=comment[1] if comment is not None else None,
    )
