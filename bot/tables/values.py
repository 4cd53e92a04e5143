"""Frozen dataclass values to JSON and back by their type hints; each hint is resolved once and its
decoder kept, since ``get_type_hints`` costs tens of microseconds a class."""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable
from typing import Any, Union, get_args, get_origin, get_type_hints

Decoder = Callable[[Any], Any]


@functools.cache
def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's fields, in order (``dataclasses.fields``, kept per class)."""
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def init_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's ``__init__`` fields with their resolved type hints, kept per class."""
    hints = get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init)


def to_json(value: Any) -> Any:
    """``value`` as JSON: a dataclass's fields as an object, tuples and lists as lists,
    sets sorted; the way each type is written is worked out once per type."""
    kind = type(value)
    encode = _ENCODERS.get(kind)
    if encode is None:
        encode = _ENCODERS[kind] = _encoder(kind)
    return encode(value)


_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def _encoder(kind: type) -> Callable[[Any], Any]:
    if dataclasses.is_dataclass(kind):
        names = field_names(kind)
        return lambda value: {name: to_json(getattr(value, name)) for name in names}
    if issubclass(kind, (set, frozenset)):
        return lambda value: sorted(to_json(v) for v in value)
    if issubclass(kind, (tuple, list)):
        return lambda value: [to_json(v) for v in value]
    if issubclass(kind, dict):
        return lambda value: {k: to_json(v) for k, v in value.items()}
    return _same


def from_json(hint: Any, value: Any) -> Any:
    """``value`` (from JSON) as the type ``hint`` names."""
    return decoder(hint)(value)


def _same(value: Any) -> Any:
    return value


@functools.cache
def decoder(hint: Any) -> Decoder:
    """The function that turns JSON into a value of ``hint`` (None stays None), built once
    per hint."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        arms = [a for a in args if a is not type(None)]
        return decoder(arms[0]) if len(arms) == 1 else _same
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = decoder(args[0])
            return _none_or(lambda value: tuple(each(v) for v in value))
        parts = tuple(decoder(a) for a in args)
        return _none_or(lambda value: tuple(d(v) for d, v in zip(parts, value, strict=True)))
    if origin in (frozenset, set, list):
        each, make = decoder(args[0] if args else Any), origin
        return _none_or(lambda value: make(each(v) for v in value))
    if origin is dict:
        each = decoder(args[1] if args else Any)
        return _none_or(lambda value: {k: each(v) for k, v in value.items()})
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        cls = hint
        fields: tuple[tuple[str, Decoder], ...] | None = None

        def record(value: Any) -> Any:
            nonlocal fields
            if fields is None:  # resolved on first use: a record may name itself
                fields = tuple((name, decoder(h)) for name, h in init_hints(cls))
            return cls(**{name: d(value[name]) for name, d in fields if name in value})

        return _none_or(record)
    return _same


def _none_or(decode: Decoder) -> Decoder:
    return lambda value: None if value is None else decode(value)
