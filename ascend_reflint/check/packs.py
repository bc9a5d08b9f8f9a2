"""Rule packs: YAML files that tell the rules about remotes and files, and set severities.

A pack (format: ``rules/README.md``) that a user wrote is read with ruamel.yaml's round-trip loader (which
keeps the line of every key, for messages) and checked by a pydantic model that forbids unknown keys
(:mod:`ascend_reflint.check.pack_schema`), so a misspelt key is an error rather than a silent no-op. The
default packs are every ``*.yaml`` shipped in ``rules/``; they are trusted, and read with PyYAML's libyaml
loader and the plain checks of this module, without pydantic, which a scan would otherwise spend more time
importing than checking a small repository (a test validates them with the full model, so a bad edit
still fails CI; a shipped pack that the plain reader does not take is validated here too, for the message).
The user's config (:mod:`ascend_reflint.config`) and ``--rule-pack`` files come after the default packs.
Packs merge in order: lists concatenate (first occurrence kept), and a later pack's severity for a code
replaces an earlier one's.

Where the default packs live: an installed wheel holds them as ``ascend_reflint/rules`` (hatch's
``force-include``), found with :mod:`importlib.resources`; an editable install or a source checkout has
them in the repository's top-level ``rules/`` folder, next to the package.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascend_reflint.check.fields import (
    NEWER_RELEASE_LEVELS,
    check_env_name,
    check_token,
    normalise_entry,
    parse_severity,
    unique,
)
from ascend_reflint.check.globs import check_glob
from ascend_reflint.check.policy import (
    LIST_FIELDS,
    DriftFamilySetting,
    EnvPairSetting,
    Policy,
    PolicyError,
    ShippedPack,
    VariantGroupSetting,
)
from ascend_reflint.check.rules import check_code
from ascend_reflint.output import shown

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from ascend_reflint.check.located import Locator
    from ascend_reflint.check.pack_schema import RulePack

PACK_SUFFIX = ".yaml"


def parse_pack(text: str, source: str) -> RulePack:
    """Read one rule pack and validate it.

    Args:
        text: the YAML text.
        source: where it came from, for messages (a path).

    Returns:
        The pack.

    Raises:
        PolicyError: when the text is not YAML, not a mapping, or not a valid pack; each line of the
            message starts with ``source:line:column:`` and names the key at fault.
    """
    return _parse_located(text, source)[0]


def _parse_located(text: str, source: str) -> tuple[RulePack, Locator]:
    """:func:`parse_pack`'s pack, and where each of its keys and list entries is in ``text``."""
    from pydantic import ValidationError

    from ascend_reflint.check.located import InvalidFileError, load_yaml, validation_messages, yaml_locator
    from ascend_reflint.check.pack_schema import RulePack

    try:
        data = load_yaml(text, source)
    except InvalidFileError as error:
        raise PolicyError(str(error)) from None
    if not isinstance(data, dict):
        raise PolicyError(f"{source}: a rule pack must be a mapping with at least a 'name' key")
    locate = yaml_locator(data)
    try:
        return RulePack.model_validate(data), locate
    except ValidationError as error:
        raise PolicyError(validation_messages(error, source, locate, RulePack)) from None


def load_pack_file(path: Path) -> RulePack:
    """Read the rule pack at ``path`` (a side file: regular, at most
    :data:`~ascend_reflint.sidefile.CONFIG_MAX_BYTES`) and validate it.

    Raises:
        PolicyError: when the file cannot be read or is not a valid pack.
    """
    return load_located_pack(path)[0]


def load_located_pack(path: Path) -> tuple[RulePack, Locator]:
    """:func:`load_pack_file`'s pack, and where each of its keys and list entries is in the file (for the
    errors that merging it finds: :meth:`~ascend_reflint.check.policy.Policy.merged_with`).

    Raises:
        PolicyError: when the file cannot be read or is not a valid pack.
    """
    from ascend_reflint.sidefile import CONFIG_MAX_BYTES, read_side_file
    from ascend_reflint.textfile import FileReadError

    try:
        text = read_side_file(path, CONFIG_MAX_BYTES)
    except FileReadError as error:
        raise PolicyError(shown(f"{path}: cannot read the rule pack: {error}")) from None
    return _parse_located(text, str(path))


def bundled_rules_dir() -> Traversable:
    """The folder of the default rule packs: the installed ``ascend_reflint/rules``, else the repository's
    ``rules/`` next to the package (editable install, source checkout).

    Raises:
        PolicyError: when neither exists.
    """
    # For a package of plain files, importlib.resources gives this very path; it costs more to import.
    installed: Traversable = Path(__file__).parent.parent / "rules"
    if not Path(__file__).is_file():  # in a zip, say: ask importlib.resources where the package's data is
        import importlib.resources

        installed = importlib.resources.files("ascend_reflint") / "rules"
    return find_rules_dir(installed, Path(__file__).resolve().parents[2] / "rules")


def find_rules_dir(installed: Traversable, checkout: Path) -> Traversable:
    """The first of ``installed`` and ``checkout`` that is a folder.

    Raises:
        PolicyError: when neither is.
    """
    for candidate in (installed, checkout):
        if candidate.is_dir():
            return candidate
    raise PolicyError(f"the default rule packs are missing: neither {installed} nor {checkout} is a folder")


def bundled_packs(
    rules_dir: Traversable | None = None, cache_dir: Path | None = None
) -> list[ShippedPack | RulePack]:
    """The default rule packs: every ``*.yaml`` in ``rules_dir`` (default :func:`bundled_rules_dir`), in
    name order, read by :func:`read_shipped_pack`, or from reflint's cache in ``cache_dir`` (see
    :func:`cached_shipped_pack`).

    Raises:
        PolicyError: when the folder is missing or a pack is not valid.
    """
    folder = rules_dir if rules_dir is not None else bundled_rules_dir()
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(PACK_SUFFIX)), key=lambda e: e.name
    )
    if cache_dir is None:
        return [read_shipped_pack(entry.read_text(encoding="utf-8"), str(entry)) for entry in files]
    return [cached_shipped_pack(entry.read_text(encoding="utf-8"), str(entry), cache_dir) for entry in files]


#: The folder of read shipped packs in reflint's cache directory.
CACHE_FOLDER = "packs"
#: The format of a cached pack; another format is ignored (and replaced).
_CACHE_FORMAT = 1


def cached_shipped_pack(text: str, source: str, cache_dir: Path) -> ShippedPack | RulePack:
    """:func:`read_shipped_pack` of ``text``, kept in ``cache_dir/packs/`` with the compiled form of its
    globs (:func:`ascend_reflint.check.globs.compiled`), so that a scan reads the shipped packs without
    PyYAML and matches their globs without pathspec (each costs more to import than a small repository
    costs to check).

    An entry is keyed by the digest of the pack's text and of reflint's own code; it is read as a side file
    and must have the form of a :class:`ShippedPack` (:mod:`ascend_reflint.codec`), else it is ignored and
    replaced. A pack that the plain reader does not take is not cached.
    """
    from ascend_reflint.check.globs import compiled, remember
    from ascend_reflint.codec import encode
    from ascend_reflint.digest import sha256
    from ascend_reflint.extraction_cache import code_digest
    from ascend_reflint.output import OutputFileError, json_text, write_file

    key = sha256(f"{code_digest()}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    path = cache_dir / CACHE_FOLDER / f"{key}.json"
    cached = _read_cached_pack(path, key)
    if cached is not None:
        remember(cached[1])
        return cached[0]
    pack = read_shipped_pack(text, source)
    if not isinstance(pack, ShippedPack):
        return pack
    globs = {glob: compiled(glob) for glob in _pack_globs(pack)}
    document = {"format": _CACHE_FORMAT, "key": key, "pack": encode(pack), "globs": globs}
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_file(str(path), json_text(document, indent=None), inside=str(cache_dir))
    except (OSError, OutputFileError):
        pass  # the pack was read all the same; the next scan reads it again
    return pack


def _read_cached_pack(path: Path, key: str) -> tuple[ShippedPack, dict[str, tuple[str, bool]]] | None:
    import json

    from ascend_reflint.codec import decode
    from ascend_reflint.sidefile import CONFIG_MAX_BYTES, read_side_file
    from ascend_reflint.textfile import FileReadError

    try:
        document = json.loads(read_side_file(path, CONFIG_MAX_BYTES, follow_links=False))
        if (
            type(document) is not dict
            or document.get("format") != _CACHE_FORMAT
            or document.get("key") != key
        ):
            return None
        pack = decode(ShippedPack, document.get("pack"))
        globs = decode(dict[str, tuple[str, bool]], document.get("globs"))
    except (FileReadError, ValueError, RecursionError):
        return None
    if set(globs) != set(_pack_globs(pack)):
        return None
    return pack, globs


def _pack_globs(pack: ShippedPack) -> list[str]:
    """Every glob of ``pack``."""
    globs = [glob for group in pack.variant_groups for glob in group.files]
    globs += [glob for family in pack.drift_families for glob in family.files]
    globs += [glob for pair in pack.env_pairs for glob in (*pair.dockerfiles, *pair.workflows)]
    return globs


def read_shipped_pack(text: str, source: str) -> ShippedPack | RulePack:
    """Read a pack shipped with reflint: with PyYAML and the plain checks when the pack is the usual
    shape (kebab-case keys, lists of strings, …), else with :func:`parse_pack`, which validates it fully.

    Both give the same values for a valid pack (a test compares them on every shipped pack).

    Raises:
        PolicyError: when the pack is not valid (from :func:`parse_pack`, naming the line and the key).
    """
    pack = _plain_pack(text)
    return pack if pack is not None else parse_pack(text, source)


def _plain_pack(text: str) -> ShippedPack | None:
    """The pack in ``text`` when every key and value is of a shape the plain reader knows and passes the
    same checks as the pydantic model, else None (let the model say what is wrong)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(text, Loader=loader)
        return _shipped_pack(data) if isinstance(data, dict) else None
    except (yaml.YAMLError, ValueError, TypeError, KeyError):
        return None


_REMOTE_LISTS = frozenset(name for name in LIST_FIELDS if name.endswith(("_remotes", "_drift")))


def _shipped_pack(data: dict[Any, Any]) -> ShippedPack:
    """Raises ValueError, TypeError or KeyError for anything the model would not take as it is."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = _field_name(key)
        if name in _REMOTE_LISTS:
            values[name] = unique(tuple(normalise_entry(entry) for entry in _strings(value)))
        elif name == "variant_tokens":
            values[name] = tuple(check_token(token) for token in _strings(value))
        elif name == "shared_env":
            values[name] = tuple(check_env_name(entry) for entry in _strings(value))
        elif name == "variant_groups":
            values[name] = tuple(_variant_group(entry) for entry in _list(value))
        elif name == "drift_families":
            values[name] = tuple(_drift_family(entry) for entry in _list(value))
        elif name == "env_pairs":
            values[name] = tuple(_env_pair(entry) for entry in _list(value))
        elif name == "drift_same_kind":
            values[name] = value if value is None or isinstance(value, bool) else _refuse(value)
        elif name == "newer_release":
            values[name] = value if value in NEWER_RELEASE_LEVELS else _refuse(value)
        elif name == "severity":
            values[name] = {
                check_code(_string(code)): parse_severity(level) for code, level in _dict(value).items()
            }
        else:  # name, description
            values[name] = _string(value)
    if not values.get("name"):
        raise ValueError("a pack needs a name")
    return ShippedPack(**values)


_PACK_FIELDS = frozenset(
    {"name", "description", *LIST_FIELDS, "drift_same_kind", "severity", "newer_release"}
)


def _field_name(key: object, known: frozenset[str] = _PACK_FIELDS) -> str:
    """The field a kebab-case key names (snake_case keys, which the model also takes, are left to it)."""
    name = _string(key).replace("-", "_")
    if "_" in _string(key) or name not in known:
        raise KeyError(key)
    return name


def _variant_group(entry: object) -> VariantGroupSetting:
    values = {
        _field_name(key, frozenset({"name", "files", "allowed_drift"})): value
        for key, value in _dict(entry).items()
    }
    return VariantGroupSetting(
        files=_globs(values["files"]),
        name=_string(values.get("name", "")),
        allowed_drift=unique(
            tuple(normalise_entry(remote) for remote in _strings(values.get("allowed_drift", [])))
        ),
    )


def _drift_family(entry: object) -> DriftFamilySetting:
    values = {_field_name(key, frozenset({"name", "files"})): value for key, value in _dict(entry).items()}
    name = _string(values["name"])
    return DriftFamilySetting(name=name if name else _refuse(name), files=_globs(values["files"]))


def _env_pair(entry: object) -> EnvPairSetting:
    values = {
        _field_name(key, frozenset({"dockerfiles", "workflows"})): value
        for key, value in _dict(entry).items()
    }
    return EnvPairSetting(dockerfiles=_globs(values["dockerfiles"]), workflows=_globs(values["workflows"]))


def _globs(value: object) -> tuple[str, ...]:
    globs = tuple(check_glob(glob) for glob in _strings(value))
    return globs if globs else _refuse(value)


def _strings(value: object) -> tuple[str, ...]:
    return tuple(_string(entry) for entry in _list(value))


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else _refuse(value)


def _dict(value: object) -> dict[Any, Any]:
    return value if isinstance(value, dict) else _refuse(value)


def _string(value: object) -> str:
    return value if isinstance(value, str) else _refuse(value)


def _refuse(value: object) -> Any:
    raise TypeError(f"not of the shape a shipped pack has: {value!r}")


def load_policy(extra_packs: Sequence[Path] = ()) -> Policy:
    """The default packs, then ``extra_packs`` in order, merged into one policy.

    Args:
        extra_packs: rule pack files given by the user (``--rule-pack``).

    Returns:
        The merged policy.

    Raises:
        PolicyError: when a pack cannot be read or is not valid.
    """
    packs: list[ShippedPack | RulePack] = bundled_packs()
    packs.extend(load_pack_file(path) for path in extra_packs)
    return Policy.from_packs(packs)
