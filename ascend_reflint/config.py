"""The user's config: ``.reflint.yaml`` or ``[tool.reflint]`` in ``pyproject.toml`` at the project root, or
the file that ``--config FILE`` names.

The project root is found as black and ruff find theirs: from the folder that holds every path given (the
current directory when none was), upwards, the first folder holding ``.reflint.yaml``, a
``pyproject.toml`` with a ``[tool.reflint]`` table, or ``.git``. In a folder with both config files,
``.reflint.yaml`` is read. With none of them anywhere above, the root is the current directory when the
paths are under it, else their common folder. The root is the folder that globs in the config and in the
rule packs are relative to, and the work tree that cross-file rules read when pre-commit passes only some
files. ``--config FILE`` does not move the root: a config kept elsewhere (``--config ci/reflint.yaml``, a
shared file outside the repository) still means the project being scanned, so its globs are relative to
that project's root, as they are when the file sits at the root. Only its ``rule-packs`` are relative to
the file's own folder, where the packs it names live beside it.

The config holds what a rule pack holds (remote lists, check parameters, severities; see
:class:`~ascend_reflint.check.pack_schema.PackSettings` and ``rules/README.md``) and also ``select``,
``ignore``, ``per-file-ignores`` and ``rule-packs``. It is validated by a pydantic model that forbids
unknown keys; an unknown key or a value of the wrong type is a :class:`ConfigError` naming the file, the
line, the column and the key.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from pathlib import Path

    from ascend_reflint.check.located import Loc, Locator
    from ascend_reflint.check.pack_schema import UserConfig

YAML_NAME = ".reflint.yaml"
PYPROJECT_NAME = "pyproject.toml"
_TOOL_TABLE = ("tool", "reflint")


class ConfigError(Exception):
    """The config file cannot be read or is not valid; the message names the file, the line and the key."""


def __getattr__(name: str) -> Any:
    """``UserConfig``, the pydantic model of a config file (in :mod:`ascend_reflint.check.pack_schema`),
    imported when first asked for (PEP 562): a scan without a config file does not need pydantic."""
    if name == "UserConfig":
        from ascend_reflint.check.pack_schema import UserConfig

        return UserConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Config(NamedTuple):
    """The config in force for a scan.

    Attributes:
        root: the absolute project root (see the module docstring).
        path: the config file read, or None when there is none.
        settings: its settings (a :class:`~ascend_reflint.check.pack_schema.UserConfig`), or None when
            there is no file.
        folder: the absolute folder of the config file, which its ``rule-packs`` are relative to (None:
            the root).
        locate: where a key or list entry of the file is, for errors found after validation (a removal
            that removes nothing when the packs are merged); None when there is no file.
    """

    root: str
    path: str | None = None
    settings: UserConfig | None = None
    folder: str | None = None
    locate: Locator | None = None

    @property
    def select(self) -> tuple[str, ...] | None:
        """The codes the config's ``select`` and ``extend-select`` choose (None: every rule)."""
        if self.settings is None or self.settings.select is None:
            return None
        from ascend_reflint.check.rules import selected_codes

        return selected_codes((*self.settings.select, *self.settings.extend_select))

    @property
    def fixable(self) -> tuple[str, ...] | None:
        """The codes whose fixes the config's ``fixable`` keeps (None: every rule's)."""
        if self.settings is None or self.settings.fixable is None:
            return None
        from ascend_reflint.check.rules import selected_codes

        return selected_codes(self.settings.fixable)

    @property
    def unfixable(self) -> tuple[str, ...]:
        """The codes whose fixes the config's ``unfixable`` drops."""
        if self.settings is None:
            return ()
        from ascend_reflint.check.rules import selected_codes

        return selected_codes(self.settings.unfixable)

    @property
    def extend_select(self) -> tuple[str, ...]:
        """The codes of the config's ``extend-select``."""
        if self.settings is None:
            return ()
        from ascend_reflint.check.rules import selected_codes

        return selected_codes(self.settings.extend_select)

    @property
    def exclude(self) -> tuple[str, ...]:
        """The config's ``exclude`` and ``extend-exclude`` globs, relative to the root."""
        if self.settings is None:
            return ()
        return (*self.settings.exclude, *self.settings.extend_exclude)

    @property
    def verify_commits(self) -> bool:
        """The config's ``verify-commits`` (default: True)."""
        return self.settings.verify_commits if self.settings is not None else True

    @property
    def unsafe_fixes(self) -> bool:
        """The config's ``unsafe-fixes`` (default: False)."""
        return self.settings.unsafe_fixes if self.settings is not None else False

    @property
    def pin_commits(self) -> bool:
        """The config's ``pin-commits`` (default: False)."""
        return self.settings.pin_commits if self.settings is not None else False

    @property
    def docs(self) -> bool:
        """The config's ``docs`` (default: True): read the install steps in documentation."""
        return self.settings.docs if self.settings is not None else True

    @property
    def gitlab_host(self) -> str | None:
        """The config's ``gitlab-host``: the GitLab instance that runs the project's pipelines (None: not
        set)."""
        return self.settings.gitlab_host if self.settings is not None else None

    @property
    def ignore(self) -> tuple[str, ...]:
        """The codes of the config's ``ignore``."""
        if self.settings is None:
            return ()
        from ascend_reflint.check.rules import selected_codes

        return selected_codes(self.settings.ignore)

    def rule_pack_paths(self) -> list[Path]:
        """``rule-packs``, each relative to the config file's folder (absolute ones as they are);
        :func:`load_config` has checked that each is inside that folder."""
        if self.settings is None:
            return []
        from pathlib import Path

        return [Path(self.folder or self.root) / entry for entry in self.settings.rule_packs]

    def relpath(self, abspath: str) -> str:
        """``abspath`` relative to the root, ``/``-separated (as given when it is outside the root)."""
        from ascend_reflint.discover import under_root

        relative = under_root(abspath, self.root)
        return abspath if relative is None else relative

    @property
    def has_per_file_ignores(self) -> bool:
        """True when ``per-file-ignores`` turns some code off for some files."""
        return self.settings is not None and bool(self.settings.per_file_ignores)

    def ignored_for(self, relpath: str) -> frozenset[str]:
        """The codes that ``per-file-ignores`` turns off for the root-relative ``relpath``."""
        if self.settings is None:
            return frozenset()
        from ascend_reflint.check.globs import matches
        from ascend_reflint.check.rules import selected_codes

        return frozenset(
            code
            for glob, selectors in self.settings.per_file_ignores.items()
            if matches((glob,), relpath)
            for code in selected_codes(selectors)
        )

    def unmatched_per_file_ignores(self, relpaths: Sequence[str]) -> list[str]:
        """The ``per-file-ignores`` globs that match none of the root-relative ``relpaths``, in file order:
        a glob that matches nothing is usually written relative to the wrong folder."""
        if self.settings is None:
            return []
        from ascend_reflint.check.globs import matches

        return [
            glob for glob in self.settings.per_file_ignores if not any(matches((glob,), p) for p in relpaths)
        ]

    def listed_remotes(self) -> list[tuple[Loc, str]]:
        """Every remote that the config's own lists name (``*-remotes``, ``variant-allowed-drift``, each
        ``variant-groups`` entry's ``allowed-drift``), with where it is: ``(("variant-allowed-drift", 0),
        "github.com/a/b")``, in file order; removals (``!ENTRY``) are not remotes the config names."""
        if self.settings is None:
            return []
        from ascend_reflint.check.fields import REMOVAL
        from ascend_reflint.check.policy import LIST_FIELDS

        listed: list[tuple[Loc, str]] = []
        for name in LIST_FIELDS:
            if name.endswith(("_remotes", "_drift")):
                entries = enumerate(getattr(self.settings, name))
                listed += [((name.replace("_", "-"), index), remote) for index, remote in entries]
        for number, group in enumerate(self.settings.variant_groups):
            for index, remote in enumerate(group.allowed_drift):
                listed.append((("variant-groups", number, "allowed-drift", index), remote))
        return [(loc, remote) for loc, remote in listed if not remote.startswith(REMOVAL)]


def load_config(paths: Sequence[str], config_file: str | None = None, cwd: str | None = None) -> Config:
    """The config for a scan of ``paths``.

    A config file that reflint finds is part of the scanned repository: it must be inside the root (not a
    symbolic link to a file elsewhere), and so must every rule pack that its ``rule-packs`` names (see
    :mod:`ascend_reflint.sidefile`). One that ``config_file`` names is the user's choice; its rule packs
    must still be inside its folder. The root is the project root of ``paths`` either way.

    Args:
        paths: files and folders as given on the command line (none: the current directory).
        config_file: the ``--config`` file, or None to look for one (see the module docstring).
        cwd: the directory that relative paths start from (default: the process's).

    Returns:
        The config; its settings are None when no config file is found.

    Raises:
        ConfigError: the file cannot be read or is not valid, or names a rule pack outside the root.
    """
    cwd = os.path.abspath(cwd or os.getcwd())
    root = project_root(paths, cwd)
    if config_file is not None:
        path = os.path.abspath(os.path.join(cwd, config_file))
        folder = os.path.dirname(path)
        text = _read(path, config_file)
        if path.endswith(".toml"):
            settings, locate = _parse_toml(text, config_file, folder)
        else:
            settings, locate = _parse_yaml(text, config_file, folder)
        return Config(root, config_file, settings, folder, locate)
    if os.path.isfile(os.path.join(root, YAML_NAME)):
        shown = _shown(os.path.join(root, YAML_NAME), cwd)
        settings, locate = _parse_yaml(_read_in_root(root, YAML_NAME, shown), shown, root)
        return Config(root, shown, settings, locate=locate)
    if os.path.isfile(os.path.join(root, PYPROJECT_NAME)):
        shown = _shown(os.path.join(root, PYPROJECT_NAME), cwd)
        pyproject = _read_pyproject(root, shown)
        if pyproject is not None and (table := reflint_table(pyproject, shown)) is not None:
            settings, locate = _validate_table(table, pyproject, shown, root)
            return Config(root, shown, settings, locate=locate)
    return Config(root)


def project_root(paths: Sequence[str], cwd: str | None = None) -> str:
    """The project root of a scan of ``paths`` (see the module docstring), found without validating a
    config: a folder whose ``pyproject.toml`` cannot be read as TOML (or links outside the folder) is the
    root too (its config is then an error for :func:`load_config`).

    Args:
        paths: files and folders as given on the command line (none: the current directory).
        cwd: the directory that relative paths start from (default: the process's).

    Returns:
        The absolute root.
    """
    cwd = os.path.abspath(cwd or os.getcwd())
    start = _common_folder(paths, cwd)
    for folder in _upwards(start):
        if os.path.isfile(os.path.join(folder, YAML_NAME)) or os.path.exists(os.path.join(folder, ".git")):
            return folder
        if os.path.isfile(os.path.join(folder, PYPROJECT_NAME)):
            try:
                text = _read_pyproject(folder, PYPROJECT_NAME)
                if text is not None and reflint_table(text, PYPROJECT_NAME) is not None:
                    return folder
            except ConfigError:
                return folder
    inside_cwd = start == cwd or start.startswith(cwd + os.sep)
    return cwd if inside_cwd else start


def _read_in_root(root: str, name: str, shown: str) -> str:
    """A config file found in ``root``, refused when it is a symbolic link to a file outside it."""
    from ascend_reflint.sidefile import inside_root

    if inside_root(root, name) is None:
        raise ConfigError(
            f"{shown}: the config file links to a file outside the project root; reflint does not read it "
            "(give a config outside the repository with --config FILE)"
        )
    return _read(os.path.join(root, name), shown)


def _read_pyproject(root: str, shown: str) -> str | None:
    """The text of the ``pyproject.toml`` in ``root``, or None when it cannot be read as text of at most
    :data:`~ascend_reflint.textfile.DEFAULT_MAX_BYTES` bytes: such a file holds no config that reflint can
    read (TOML is UTF-8), and as a recipe its reading fails and is reported with the scanned files. It is
    another tool's file first: neither its size nor its encoding is reflint's to refuse the scan for.

    Raises:
        ConfigError: it links to a file outside ``root``.
    """
    from ascend_reflint.sidefile import inside_root, read_side_file
    from ascend_reflint.textfile import DEFAULT_MAX_BYTES, FileReadError

    if inside_root(root, PYPROJECT_NAME) is None:
        return _read_in_root(root, PYPROJECT_NAME, shown)  # raises: it links outside the root
    try:
        return read_side_file(os.path.join(root, PYPROJECT_NAME), DEFAULT_MAX_BYTES)
    except FileReadError:
        return None


def _read(path: str, shown: str) -> str:
    from ascend_reflint.sidefile import CONFIG_MAX_BYTES, read_side_file
    from ascend_reflint.textfile import FileReadError

    try:
        return read_side_file(path, CONFIG_MAX_BYTES)
    except FileReadError as error:
        raise ConfigError(f"{shown}: cannot read the config file: {error}") from None


def parse_yaml_config(text: str, source: str, root: str | None = None) -> UserConfig:
    """Read the config in the YAML ``text`` (an empty file is an empty config).

    Args:
        text: the file's text.
        source: its name, for messages.
        root: the config file's folder, to check that ``rule-packs`` stay inside it (None: not checked).

    Raises:
        ConfigError: the text is not YAML, not a mapping, or not a valid config; a rule pack outside
            ``root``.
    """
    return _parse_yaml(text, source, root)[0]


def _parse_yaml(text: str, source: str, root: str | None) -> tuple[UserConfig, Locator]:
    """:func:`parse_yaml_config`'s settings, and where each key and list entry is in ``text``."""
    from ascend_reflint.check.located import InvalidFileError, load_yaml, yaml_locator
    from ascend_reflint.check.pack_schema import UserConfig

    try:
        data = load_yaml(text, source)
    except InvalidFileError as error:
        raise ConfigError(str(error)) from None
    if data is None:
        return UserConfig(), yaml_locator(data)
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the config must be a mapping of settings (see `reflint scan --help`)")
    locate = yaml_locator(data)
    return _validate(data, source, locate, "", root), locate


def parse_toml_config(text: str, source: str, root: str | None = None) -> UserConfig:
    """Read the ``[tool.reflint]`` table of the TOML ``text``.

    Args:
        text: the file's text.
        source: its name, for messages.
        root: the config file's folder, to check that ``rule-packs`` stay inside it (None: not checked).

    Raises:
        ConfigError: the text is not TOML, has no such table, or the table is not a valid config; a rule
            pack outside ``root``.
    """
    return _parse_toml(text, source, root)[0]


def _parse_toml(text: str, source: str, root: str | None) -> tuple[UserConfig, Locator]:
    """:func:`parse_toml_config`'s settings, and where each key is in ``text``."""
    table = reflint_table(text, source)
    if table is None:
        raise ConfigError(f"{source}: no [tool.reflint] table")
    return _validate_table(table, text, source, root)


def reflint_table(text: str, source: str) -> dict[str, Any] | None:
    """The ``[tool.reflint]`` table of the TOML ``text``, or None when it has none.

    A text that does not name reflint (not even through a ``\\u`` escape in a quoted key) has no such table,
    and is not parsed: most projects' ``pyproject.toml`` is another tool's business. Nor does a text that
    the TOML reader cannot take (nested deeper than its recursion goes, or a dotted key of so many parts
    that it would take minutes, :func:`~ascend_reflint.extract.tomlpos.long_dotted_key`): no config is, and
    as a recipe the file is reported with the scanned files.

    Raises:
        ConfigError: the text is not TOML, or ``tool.reflint`` is not a table.
    """
    if "reflint" not in text and "\\u" not in text and "\\U" not in text:
        return None
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    from ascend_reflint.extract.tomlpos import long_dotted_key

    if long_dotted_key(text) is not None:
        return None
    try:
        table: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        from ascend_reflint.extract.tomlpos import toml_error

        message, line, column = toml_error(error, text)
        where = source if line is None else f"{source}:{line}:{column}"
        raise ConfigError(f"{where}: not valid TOML: {message}") from None
    except RecursionError:
        return None
    for part in _TOOL_TABLE:
        table = table.get(part) if isinstance(table, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{source}: tool.reflint must be a table")
    return table


def _validate_table(
    table: dict[str, Any], text: str, source: str, root: str | None
) -> tuple[UserConfig, Locator]:
    """The settings of the ``[tool.reflint]`` ``table`` of ``text``, and where each key is in ``text`` (an
    entry of a list is found at its key's line when the list spans lines)."""
    lines = toml_key_lines(text)

    def locate(loc: Loc) -> tuple[int, int] | None:
        full = (*_TOOL_TABLE, *loc)
        for length in range(len(full), len(_TOOL_TABLE) - 1, -1):
            if full[:length] in lines:
                return lines[full[:length]]
        return None

    return _validate(table, source, locate, "tool.reflint.", root), locate


def _validate(
    data: Mapping[str, Any], source: str, locate: Locator, prefix: str, root: str | None
) -> UserConfig:
    from pydantic import ValidationError

    from ascend_reflint.check.located import validation_messages
    from ascend_reflint.check.pack_schema import UserConfig

    try:
        settings = UserConfig.model_validate(data)
    except ValidationError as error:
        raise ConfigError(validation_messages(error, source, locate, UserConfig, prefix)) from None
    if root is not None:
        _check_rule_packs_inside(settings.rule_packs, root, source, locate, prefix)
    return settings


def _check_rule_packs_inside(
    entries: Sequence[str], root: str, source: str, locate: Locator, prefix: str
) -> None:
    """Refuse a ``rule-packs`` entry that resolves outside ``root``, before anything reads it: the error
    names the key and the entry as written, never what the file holds."""
    from ascend_reflint.output import shown
    from ascend_reflint.sidefile import inside_root

    problems = []
    for index, entry in enumerate(entries):
        if inside_root(root, entry) is None:
            position = locate(("rule-packs", index))
            where = f"{source}:{position[0]}:{position[1]}" if position else source
            problems.append(
                shown(
                    f"{where}: {prefix}rule-packs[{index}]: {entry!r} is outside the project root "
                    f"{root} (symbolic links followed); a repository's config may name only packs inside "
                    "it (give others with --rule-pack FILE)"
                )
            )
    if problems:
        raise ConfigError("\n".join(problems))


_BARE_KEY = r"[A-Za-z0-9_-]+"
# Patterns compiled on first use (re keeps them): only a scan that reads a config file needs them.
_KEY_PART = rf"\s*(?:\"((?:[^\"\\]|\\.)*)\"|'([^']*)'|({_BARE_KEY}))\s*"
_HEADER = r"\s*(\[\[?)"


def toml_key_lines(text: str) -> dict[tuple[str | int, ...], tuple[int, int]]:
    """Where each table and key of a TOML text is written: full key path → 1-based (line, column).

    Paths are the keys from the document's top (``("tool", "reflint", "select")``); an array of tables
    counts its entries (``("tool", "reflint", "variant-groups", 0)``). Keys inside inline tables and
    multi-line arrays are not listed: a location inside them is found at their key's line.
    """
    found: dict[tuple[str | int, ...], tuple[int, int]] = {}
    table: tuple[str | int, ...] = ()
    array_counts: dict[tuple[str | int, ...], int] = {}
    in_string = False
    header_pattern = re.compile(_HEADER)
    for number, line in enumerate(text.splitlines(), start=1):
        if line.count('"""') % 2 or line.count("'''") % 2:
            in_string = not in_string
            continue
        if in_string:
            continue
        header = header_pattern.match(line)
        if header:
            keys = _dotted_key(line, header.end())
            if keys is None:
                continue
            path: tuple[str | int, ...]
            path, column = keys
            if header.group(1) == "[[":
                index = array_counts.get(path, -1) + 1
                array_counts[path] = index
                found.setdefault(path, (number, column))
                path = (*path, index)
            table = path
            found.setdefault(path, (number, column))
            continue
        keys = _dotted_key(line, 0)
        if keys is not None:
            path, column = keys
            found.setdefault((*table, *path), (number, column))
    return found


def _dotted_key(line: str, start: int) -> tuple[tuple[str, ...], int] | None:
    """The dotted key at ``line[start:]`` and the 1-based column where it starts, or None."""
    parts: list[str] = []
    position = start
    column = len(line) - len(line.lstrip()) + 1 if start == 0 else None
    key_part = re.compile(_KEY_PART)
    while True:
        match = key_part.match(line, position)
        if match is None or not any(group is not None for group in match.groups()):
            return None
        if column is None:
            column = match.start() + len(match.group(0)) - len(match.group(0).lstrip()) + 1
        parts.append(next(group for group in match.groups() if group is not None))
        position = match.end()
        if position < len(line) and line[position] == ".":
            position += 1
            continue
        return (tuple(parts), column) if position < len(line) and line[position] in "=]" else None


def _common_folder(paths: Sequence[str], cwd: str) -> str:
    absolute = [os.path.abspath(os.path.join(cwd, path)) for path in paths] or [cwd]
    common = os.path.commonpath(absolute)
    return common if os.path.isdir(common) else os.path.dirname(common)


def _upwards(folder: str) -> Iterator[str]:
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def _shown(path: str, cwd: str) -> str:
    relative = os.path.relpath(path, cwd)
    return path if relative.startswith(os.pardir) else relative.replace(os.sep, "/")
