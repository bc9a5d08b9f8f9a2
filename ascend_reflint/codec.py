"""A plain JSON form of the model's values, for caches that another process, or another person, may have
written.

One generic codec, driven by the classes' type hints, so that a field added to a model class is stored and
read back with no code here: :func:`encode` turns a value into JSON-ready data (dicts, lists, strings,
numbers, booleans, None) and :func:`decode` turns such data back into a value of a given type, checking
every part of it against the type on the way. Nothing is ever evaluated or imported from the data (no
pickle): data that does not match the type, field for field, is a :class:`CodecError`.

Forms, by type:

- ``None``, ``bool``, ``int``, ``float``, ``str``: themselves (``int`` never accepts a boolean);
- an :class:`enum.Enum`: its value;
- ``X | None``: None or the form of ``X``;
- ``list[T]``, ``tuple[T, ...]``, ``frozenset[T]``: a list (a frozenset's in sorted form order);
  ``tuple[A, B]``: a list of exactly that length;
- ``dict[str, T]`` and ``Mapping[str, T]``: an object (read back as a dict);
- a dataclass, a :class:`typing.NamedTuple`, or a class that declares its fields as a NamedTuple does
  (``_fields``, ``_field_defaults``, a constructor taking them by name): an object of its fields by
  name, a field equal to its default left out (unknown names are an error; a field without a default
  must be there).

Any other type (``Any``, a plain class, a union of two classes) is refused when its codec is built, with
:class:`TypeError`: a field of such a type must get a form here before a cache can hold it.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from typing import Any

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


class CodecError(ValueError):
    """Data that does not have the form of the type it is read as; the message says where it differs."""


def encode(value: Any, kind: Any = None) -> Any:
    """The JSON-ready form of ``value``.

    Args:
        value: a value of ``kind``.
        kind: its type (default: ``type(value)``, which suits a dataclass or NamedTuple instance).

    Raises:
        TypeError: ``kind`` (or a type inside it) has no form (see the module docstring).
    """
    return _codec(type(value) if kind is None else kind)[0](value)


def decode(kind: Any, data: Any) -> Any:
    """The value of type ``kind`` that ``data`` (as :func:`encode` gives it) stands for.

    Raises:
        CodecError: ``data`` does not have the form of ``kind``.
        TypeError: ``kind`` has no form.
    """
    return _codec(kind)[1](data)


_CODECS: dict[Any, tuple[Encoder, Decoder]] = {}


def _codec(kind: Any) -> tuple[Encoder, Decoder]:
    """The encoder and decoder of ``kind``, built once per type."""
    found = _CODECS.get(kind)
    if found is None:
        found = _CODECS[kind] = _build(kind)
    return found


def _build(kind: Any) -> tuple[Encoder, Decoder]:
    if kind in _SCALARS:
        return _identity, _scalar_decoder(kind)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _enum_codec(kind)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _record_codec(kind, [(f.name, _field_default(f)) for f in dataclasses.fields(kind)])
    if isinstance(kind, type) and hasattr(kind, "_fields") and hasattr(kind, "_field_defaults"):
        defaults: dict[str, Any] = getattr(kind, "_field_defaults", {})
        names: tuple[str, ...] = getattr(kind, "_fields", ())
        return _record_codec(kind, [(name, defaults.get(name, _REQUIRED)) for name in names])
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _optional_codec(kind, args)
    if origin in (list, frozenset) and len(args) == 1:
        return _sequence_codec(origin, args[0])
    if origin is tuple:
        return _tuple_codec(args)
    if origin in (dict, collections.abc.Mapping) and len(args) == 2 and args[0] is str:
        return _dict_codec(args[1])
    raise TypeError(f"no cache form for the type {kind!r}")


_SCALARS = (str, int, float, bool, type(None))
_REQUIRED = object()
_DEFAULT_FACTORY = object()


def _identity(value: Any) -> Any:
    return value


def _scalar_decoder(kind: type) -> Decoder:
    def decode_scalar(data: Any) -> Any:
        # bool is an int to Python, never to a cache entry; an int is a fine float.
        if type(data) is kind or (kind is float and type(data) is int):
            return data
        raise CodecError(f"expected {kind.__name__}, found {type(data).__name__}")

    return decode_scalar


def _enum_codec(kind: type[enum.Enum]) -> tuple[Encoder, Decoder]:
    members = {member.value: member for member in kind}

    def decode_enum(data: Any) -> Any:
        try:
            return members[data]
        except (KeyError, TypeError):
            raise CodecError(f"not a {kind.__name__}: {data!r:.40}") from None

    return (lambda member: member.value), decode_enum


def _field_default(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return (_DEFAULT_FACTORY, field.default_factory)
    return _REQUIRED


def _record_codec(kind: type, fields: list[tuple[str, Any]]) -> tuple[Encoder, Decoder]:
    """A dataclass or NamedTuple: an object of the fields that differ from their defaults. The fields'
    codecs are built on first use, so that a class may refer to itself or to a class defined after it."""
    codecs: list[tuple[str, Any, Encoder]] = []
    decoders: dict[str, Decoder] = {}

    def prepare() -> None:
        hints = typing.get_type_hints(kind)
        built = []
        for name, default in fields:
            encoder, decoder = _codec(hints[name])
            if isinstance(default, tuple) and default[:1] == (_DEFAULT_FACTORY,):
                default = default[1]()
            built.append((name, default, encoder, decoder))
        codecs.extend((name, default, encoder) for name, default, encoder, _ in built)
        decoders.update((name, decoder) for name, _, _, decoder in built)

    def encode_record(value: Any) -> dict[str, Any]:
        if not codecs:
            prepare()
        return {
            name: encoder(item)
            for name, default, encoder in codecs
            if (item := getattr(value, name)) is not default and item != default
        }

    def decode_record(data: Any) -> Any:
        if not decoders:
            prepare()
        if type(data) is not dict:
            raise CodecError(f"expected an object for {kind.__name__}, found {type(data).__name__}")
        values = {}
        for name, item in data.items():
            decoder = decoders.get(name)
            if decoder is None:
                raise CodecError(f"{kind.__name__} has no field {name!r:.40}")
            try:
                values[name] = decoder(item)
            except CodecError as error:
                raise CodecError(f"{kind.__name__}.{name}: {error}") from None
        try:
            return kind(**values)
        except TypeError as error:  # a field without a default is missing
            raise CodecError(f"{kind.__name__}: {error}") from None

    return encode_record, decode_record


def _optional_codec(kind: Any, args: tuple[Any, ...]) -> tuple[Encoder, Decoder]:
    present = [arg for arg in args if arg is not type(None)]
    if len(present) != 1 or len(args) != 2:
        raise TypeError(f"no cache form for the type {kind!r}: only X | None unions have one")
    encoder, decoder = _codec(present[0])
    return (lambda value: None if value is None else encoder(value)), (
        lambda data: None if data is None else decoder(data)
    )


def _sequence_codec(origin: type, item: Any) -> tuple[Encoder, Decoder]:
    encoder, decoder = _codec(item)

    def encode_sequence(value: Any) -> list[Any]:
        forms = [encoder(element) for element in value]
        return sorted(forms, key=repr) if origin is frozenset else forms

    def decode_sequence(data: Any) -> Any:
        if type(data) is not list:
            raise CodecError(f"expected a list, found {type(data).__name__}")
        return origin(decoder(element) for element in data)

    return encode_sequence, decode_sequence


def _tuple_codec(args: tuple[Any, ...]) -> tuple[Encoder, Decoder]:
    if len(args) == 2 and args[1] is Ellipsis:
        encoder, decoder = _codec(args[0])

        def decode_many(data: Any) -> tuple[Any, ...]:
            if type(data) is not list:
                raise CodecError(f"expected a list, found {type(data).__name__}")
            return tuple(decoder(element) for element in data)

        return (lambda value: [encoder(element) for element in value]), decode_many
    codecs = [_codec(arg) for arg in args]

    def encode_fixed(value: Any) -> list[Any]:
        return [encoder(element) for (encoder, _), element in zip(codecs, value, strict=True)]

    def decode_fixed(data: Any) -> tuple[Any, ...]:
        if type(data) is not list or len(data) != len(codecs):
            raise CodecError(f"expected a list of {len(codecs)}, found {type(data).__name__}")
        return tuple(decoder(element) for (_, decoder), element in zip(codecs, data, strict=True))

    return encode_fixed, decode_fixed


def _dict_codec(item: Any) -> tuple[Encoder, Decoder]:
    encoder, decoder = _codec(item)

    def decode_dict(data: Any) -> dict[str, Any]:
        if type(data) is not dict:
            raise CodecError(f"expected an object, found {type(data).__name__}")
        return {key: decoder(value) for key, value in data.items()}

    return (lambda value: {key: encoder(element) for key, element in value.items()}), decode_dict
