"""One JSON codec for every game's state: a frozen dataclass written as JSON and read back
exactly, led by the type hints of its fields (`Codec` in rules/base.py puts it to use).

What it knows: dataclasses (an object of their fields; a field missing from older JSON
takes its default), NamedTuples (a list of their fields), tuples (fixed or `...` length),
lists, frozensets (sorted), dicts with string keys, `X | None`, plain `int`, `float`,
`str` and `bool`, and a type with a compact form of its own (a `to_json` method and a
`from_json` static method, as Toss It's `Piece`). Anything else is a mistake the first
round trip in the tests shows.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

Read = Callable[[Any], Any]
PLAIN = (int, float, str, bool, type(None))


def to_json(value: Any) -> Any:
    """`value` as plain JSON data: lists, objects, numbers, strings."""
    return _writer(value.__class__)(value)


def from_json(kind: Any, data: Any) -> Any:
    """The inverse of `to_json` for a value of type `kind` (a type hint)."""
    return _reader(kind)(data)


# Both directions are worked out once per type and kept: a state is saved after every
# action, so the codec must cost no more than the hand-written ones did.


def _same(value: Any) -> Any:
    return value


def _items(values: Any) -> list[Any]:
    if all(type(value) in PLAIN for value in values):
        return list(values)
    return [to_json(value) for value in values]


@cache
def _writer(cls: Any) -> Read:
    if cls in PLAIN:
        return _same
    if hasattr(cls, "to_json"):  # a type with a compact form of its own
        return lambda value: value.to_json()
    if dataclasses.is_dataclass(cls):
        names = [field.name for field in dataclasses.fields(cls)]
        return lambda value: {name: to_json(getattr(value, name)) for name in names}
    if issubclass(cls, tuple | list):  # a NamedTuple too: a list of its fields
        return _items
    if issubclass(cls, frozenset | set):
        return lambda value: sorted(_items(value))
    if issubclass(cls, dict):
        return lambda value: {key: to_json(item) for key, item in value.items()}
    raise TypeError(f"no JSON form for {cls!r}")


@cache
def _reader(kind: Any) -> Read:
    origin, args = get_origin(kind), get_args(kind)
    if kind in (int, float, str, bool):
        return typing.cast(Read, kind)
    if kind is Any or origin is typing.Literal:
        return _same
    if origin in (Union, types.UnionType):
        (inner,) = [arg for arg in args if arg is not type(None)]
        read = _reader(inner)
        return lambda data: None if data is None else read(data)
    if isinstance(kind, type):
        return _class_reader(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])
        return lambda data: tuple(map(item, data))
    if origin is tuple:
        items = [_reader(arg) for arg in args]
        return lambda data: tuple(read(x) for read, x in zip(items, data, strict=True))
    if origin is list:
        item = _reader(args[0])
        return lambda data: list(map(item, data))
    if origin is frozenset:
        item = _reader(args[0])
        return lambda data: frozenset(map(item, data))
    if origin in (dict, collections.abc.Mapping):
        value = _reader(args[1])
        return lambda data: {key: value(item) for key, item in data.items()}
    raise TypeError(f"no JSON reading for {kind!r}")


def _class_reader(kind: type) -> Read:
    if hasattr(kind, "from_json"):
        return typing.cast(Read, kind.from_json)
    hints = get_type_hints(kind)
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):  # a NamedTuple
        items = [_reader(hints[name]) for name in kind._fields]
        return lambda data: kind(*(read(x) for read, x in zip(items, data, strict=True)))
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"no JSON reading for {kind!r}")
    fields = [(field, _reader(hints[field.name])) for field in dataclasses.fields(kind)]

    def read(data: Any) -> Any:
        values = {}
        for field, read_field in fields:
            if field.name in data:
                values[field.name] = read_field(data[field.name])
            elif field.default is not dataclasses.MISSING:  # added after the game was saved
                values[field.name] = field.default
            elif field.default_factory is not dataclasses.MISSING:
                values[field.name] = field.default_factory()
        return kind(**values)

    return read
