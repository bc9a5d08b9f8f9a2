"""Messages for invalid rule packs and config files that name the file, the line, the column and the key.

YAML is read with ruamel.yaml's round-trip loader, which records where each key and list item sits
(``CommentedMap.lc``); a pydantic validation error's ``loc`` (the path of keys and list indexes to the
bad value) is walked through that tree to find the line. TOML files find their lines another way (see
:mod:`ascend_reflint.config`) and hand a locator of their own to :func:`validation_messages`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ascend_reflint.output import shown

#: A pydantic error location: keys (str) and list indexes (int).
Loc = tuple[str | int, ...]
#: 1-based (line, column) of a location in the file, or None when it cannot be found.
Locator = Callable[[Loc], "tuple[int, int] | None"]


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class InvalidFileError(Exception):
    """A file that is not valid YAML; the message starts with ``source:line:column:`` when known."""


def load_yaml(text: str, source: str) -> Any:
    """Parse YAML ``text`` keeping the position of every key and item.

    Args:
        text: the file's text.
        source: the file's name, for messages.

    Returns:
        The document (``CommentedMap``/``CommentedSeq``/scalars), or None for an empty document.

    Raises:
        InvalidFileError: the text is not YAML (duplicate keys included), naming the line and column; or it
            is nested too deeply for the loader (which recurses), which no config or rule pack is.
    """
    try:
        return YAML(typ="rt", pure=True).load(text)
    except RecursionError:
        raise InvalidFileError(
            f"{source}: nested too deeply to read (a config or rule pack never is)"
        ) from None
    except MarkedYAMLError as error:
        from ascend_reflint.extract.errors import ExtractError
        from ascend_reflint.extract.yamlpos import parse_yaml, yaml_problem
        from ascend_reflint.sourcemap import LineIndex

        try:  # the event parser, which names the bracket or quote left open
            parse_yaml(text)
        except ExtractError as located:
            if located.line is not None:
                where = f"{source}:{located.line}:{located.column}"
                raise InvalidFileError(
                    f"{where}: not valid YAML: {located.message.removeprefix('malformed YAML: ')}"
                ) from None
        index, problem = yaml_problem(text, error)
        if index is None:
            raise InvalidFileError(f"{source}: not valid YAML: {problem}") from None
        line, column = LineIndex(text).position(min(index, len(text)))
        raise InvalidFileError(f"{source}:{line}:{column}: not valid YAML: {problem}") from None
    except YAMLError as error:
        raise InvalidFileError(f"{source}: not valid YAML: {' '.join(str(error).split())}") from None


def yaml_locator(document: Any) -> Locator:
    """A locator for a document from :func:`load_yaml`: the deepest key or item of ``loc`` found in it."""

    def locate(loc: Loc) -> tuple[int, int] | None:
        node, found = document, None
        for part in loc:
            if isinstance(node, CommentedMap) and isinstance(part, str) and part in node:
                line, column = node.lc.key(part)
            elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
                line, column = node.lc.item(part)
            else:
                break
            found, node = (line + 1, column + 1), node[part]
        return found

    return locate


def validation_messages(
    error: ValidationError, source: str, locate: Locator, model: type[BaseModel], prefix: str = ""
) -> str:
    """One line per problem: ``source:line:column: key: message`` (``source: key: message`` when the line
    is unknown). Keys and values come from the file: each line is made safe with
    :func:`ascend_reflint.output.shown`, so that a key holding a line break stays on its line.

    Args:
        error: what pydantic found.
        source: the file's name.
        locate: where a location sits in the file.
        model: the model validated, to suggest the nearest known key for an unknown one.
        prefix: put before the key path (``tool.reflint.`` for a pyproject.toml table).
    """
    problems = error.errors()
    locs = [tuple(problem["loc"]) for problem in problems]
    lines: list[tuple[tuple[int, int], str]] = []
    for problem in problems:
        loc: Loc = tuple(problem["loc"])
        if problem["type"] == "too_short" and any(_inside(other, loc) for other in locs):
            continue  # the list is short only because an entry of it is invalid: that entry's error says why
        position = locate(loc)
        where = f"{source}:{position[0]}:{position[1]}" if position else source
        key = key_path(loc)
        message = _message(problem, model)
        line = f"{where}: {prefix}{key}: {message}" if key else f"{where}: {message}"
        lines.append((position or (0, 0), line))
    return "\n".join(shown(line) for _, line in sorted(lines, key=lambda item: item[0]))


def _inside(loc: Loc, outer: Loc) -> bool:
    return len(loc) > len(outer) and loc[: len(outer)] == outer


def key_path(loc: Loc) -> str:
    """``("variant-groups", 0, "files")`` → ``variant-groups[0].files``; a key that is not a bare word is
    quoted (``per-file-ignores."docker/*"``); a dict key's own ``[key]`` marker is dropped with the key it
    marks (the message names the key)."""
    parts: list[str] = []
    for index, part in enumerate(loc):
        if part == "[key]" or (index + 1 < len(loc) and loc[index + 1] == "[key]"):
            continue
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{part}]"]
        else:
            parts.append(part if _BARE_KEY.fullmatch(part) else '"' + part.replace('"', '\\"') + '"')
    return ".".join(parts)


def _message(problem: Mapping[str, Any], model: type[BaseModel]) -> str:
    kind = problem["type"]
    if kind == "extra_forbidden":
        known = _known_keys(model, tuple(problem["loc"][:-1]))
        close = difflib.get_close_matches(str(problem["loc"][-1]), known, n=1)
        return f"unknown key (did you mean '{close[0]}'?)" if close else "unknown key"
    if kind == "too_short":
        least = problem["ctx"]["min_length"]
        return f"expected at least {least} entr{'y' if least == 1 else 'ies'}"
    plain = {
        "tuple_type": "expected a list",
        "list_type": "expected a list",
        "dict_type": "expected a mapping",
        "model_type": "expected a mapping",
        "model_attributes_type": "expected a mapping",
        "string_type": "expected a string",
        "bool_type": "expected true or false",
        "missing": "a required key is missing",
    }
    return plain.get(kind, str(problem["msg"]).removeprefix("Value error, "))


def _known_keys(model: type[BaseModel], loc: Sequence[str | int]) -> list[str]:
    """The keys (aliases) that the model nested at ``loc`` inside ``model`` accepts."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fields = {(field.alias or name): field for name, field in current.model_fields.items()}
        if part not in fields:
            return []
        current = _nested_model(fields[part].annotation)
        if current is None:
            return []
    return [field.alias or name for name, field in current.model_fields.items()]


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) is not None:
        for argument in get_args(annotation):
            found = _nested_model(argument)
            if found is not None:
                return found
    return None
