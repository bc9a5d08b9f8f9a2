"""The cache form of the model's values (:mod:`ascend_reflint.codec`): every field of every model class
survives a round trip through JSON, and data of the wrong form is refused, never half-read.

The round trip is checked on an instance of each class with every field away from its default, built from
the class's type hints: a field added to the model is covered the day it is added, and one whose type the
codec cannot store fails here.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import types
import typing
from typing import Any, NamedTuple

import pytest

from ascend_reflint import model
from ascend_reflint.codec import CodecError, decode, encode
from ascend_reflint.model import FileKind, Pin, Resolution, SourceFile, Span, Via

#: Every record class that the model defines: NamedTuples and the mutable records (and any dataclass).
MODEL_CLASSES = [
    value
    for name, value in inspect.getmembers(model, inspect.isclass)
    if value.__module__ == model.__name__
    and not name.startswith("_")
    and (dataclasses.is_dataclass(value) or (hasattr(value, "_fields") and hasattr(value, "_field_defaults")))
]


def _fields(kind: type) -> list[tuple[str, Any]]:
    """``(name, default)`` of each field of a dataclass or NamedTuple (``_NO_DEFAULT`` when it has none)."""
    if dataclasses.is_dataclass(kind):
        return [
            (
                field.name,
                field.default
                if field.default is not dataclasses.MISSING
                else field.default_factory()
                if field.default_factory is not dataclasses.MISSING
                else _NO_DEFAULT,
            )
            for field in dataclasses.fields(kind)
        ]
    defaults = getattr(kind, "_field_defaults", {})
    return [(name, defaults.get(name, _NO_DEFAULT)) for name in getattr(kind, "_fields", ())]


_NO_DEFAULT = object()


def example(kind: Any, name: str = "value", default: Any = _NO_DEFAULT) -> Any:
    """A value of type ``kind`` that differs from ``default``, with every field of a record set away from
    its default too."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return example(next(arg for arg in args if arg is not type(None)), name)
    if kind is bool:
        return default is not True
    if kind is int:
        return 8 if default == 7 else 7
    if kind is float:
        return 2.5 if default == 1.5 else 1.5
    if kind is str:
        return f"{name}-example"
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return next(member for member in reversed(list(kind)) if member != default)
    if origin is list:
        return [example(args[0], name)]
    if origin is frozenset:
        return frozenset({example(args[0], name)})
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (example(args[0], name),)
        return tuple(example(arg, f"{name}{index}") for index, arg in enumerate(args))
    if origin is dict:
        return {f"{name}-key": example(args[1], name)}
    if isinstance(kind, type):
        hints = typing.get_type_hints(kind)
        values = {field: example(hints[field], field, default) for field, default in _fields(kind)}
        return kind(**values)
    raise AssertionError(f"no example for {kind!r}")


def round_trip(value: Any) -> Any:
    """``value`` encoded, written as JSON text, read back and decoded."""
    return decode(type(value), json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize("kind", MODEL_CLASSES, ids=lambda kind: kind.__name__)
def test_every_field_of_every_model_class_survives_the_round_trip(kind: type) -> None:
    value = example(kind)
    # The example is worth something only if every field is away from its default.
    assert [name for name, default in _fields(kind) if getattr(value, name) == default] == []
    assert round_trip(value) == value


def test_the_model_classes_are_found() -> None:
    names = {kind.__name__ for kind in MODEL_CLASSES}
    assert {"Span", "Origin", "Pin", "EnvSetting", "SourceFile", "Finding", "RemoteRefs"} <= names


def test_fields_at_their_defaults_are_left_out() -> None:
    pin = Pin(
        "Dockerfile", FileKind.DOCKERFILE, Via.CLONE, Span(1, 2, 1, 5), "https://h/o/r", None, None, None
    )
    assert encode(pin) == {
        "path": "Dockerfile",
        "kind": "dockerfile",
        "via": "clone",
        "span": {"line": 1, "column": 2, "end_line": 1, "end_column": 5},
        "url": "https://h/o/r",
        "remote": None,
        "ref": None,
        "ref_text": None,
    }
    assert encode(SourceFile("a", "/a", FileKind.SHELL)) == {"path": "a", "abspath": "/a", "kind": "shell"}


class _Pair(NamedTuple):
    name: str
    count: int = 0


def test_a_named_tuple_is_stored_by_field_name() -> None:
    assert encode(_Pair("x", 3)) == {"name": "x", "count": 3}
    assert decode(_Pair, {"name": "x"}) == _Pair("x")


SPAN = {"line": 1, "column": 2, "end_line": 1, "end_column": 5}


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        (Span, [1, 2, 1, 5], "expected an object for Span, found list"),
        (Span, {**SPAN, "line": "1"}, "Span.line: expected int, found str"),
        (Span, {**SPAN, "line": True}, "Span.line: expected int, found bool"),
        (Span, {**SPAN, "line": 1.0}, "Span.line: expected int, found float"),
        (Span, {**SPAN, "width": 3}, "Span has no field 'width'"),
        (
            Span,
            {"line": 1},
            "Span: Span.__new__() missing 3 required positional arguments: 'column', "
            "'end_line', and 'end_column'",
        ),
        (Resolution, "guessed", "not a Resolution: 'guessed'"),
        (Resolution, ["resolved"], "not a Resolution: ['resolved']"),
        (
            SourceFile,
            {"path": "a", "abspath": "/a", "kind": "shell", "pins": {}},
            "SourceFile.pins: expected a list, found dict",
        ),
        (
            SourceFile,
            {"path": "a", "abspath": "/a", "kind": "shell", "named_files": [["r.txt"]]},
            "SourceFile.named_files: expected a list of 2, found list",
        ),
        (
            SourceFile,
            {"path": "a", "abspath": "/a", "kind": "shell", "pins": [{"span": SPAN}]},
            "SourceFile.pins: Pin: Pin.__init__() missing 7 required positional arguments: 'path', 'kind', "
            "'via', 'url', 'remote', 'ref', and 'ref_text'",
        ),
        (dict[str, int], {"a": None}, "expected int, found NoneType"),
        (dict[str, int], [], "expected an object, found list"),
        (tuple[int, ...], {"0": 1}, "expected a list, found dict"),
        (str | None, 3, "expected str, found int"),
    ],
)
def test_data_of_another_form_is_refused(kind: Any, data: Any, message: str) -> None:
    with pytest.raises(CodecError) as raised:
        decode(kind, data)
    assert str(raised.value) == message


@pytest.mark.parametrize("kind", [Any, object, int | str, dict[int, str], set[str]], ids=repr)
def test_a_type_without_a_form_is_refused_when_its_codec_is_built(kind: Any) -> None:
    with pytest.raises(TypeError, match="no cache form for the type"):
        encode(None, kind)


def test_a_float_field_takes_an_int_and_a_frozenset_is_stored_sorted() -> None:
    assert decode(float, 3) == 3
    assert encode(frozenset({"b", "a"}), frozenset[str]) == ["a", "b"]
    assert decode(frozenset[str], ["b", "a"]) == frozenset({"a", "b"})
