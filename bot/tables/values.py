"""Frozen dataclass values to JSON and back, by their type hints: how a game's rules state
(``GameKind.load``/``dump``) and an event (``bot.tables.events``) are stored."""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Union, get_args, get_origin, get_type_hints


def to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted(to_json(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(hint: Any, value: Any) -> Any:
    """``value`` (from JSON) as the type ``hint`` names."""
    origin, args = get_origin(hint), get_args(hint)
    if value is None:
        return None
    if origin in (Union, types.UnionType):
        arms = [a for a in args if a is not type(None)]
        return from_json(arms[0], value) if len(arms) == 1 else value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in value)
        return tuple(from_json(a, v) for a, v in zip(args, value, strict=True))
    if origin in (frozenset, set, list):
        return origin(from_json(args[0] if args else Any, v) for v in value)
    if origin is dict:
        return {k: from_json(args[1] if args else Any, v) for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = get_type_hints(hint)
        fields = [f for f in dataclasses.fields(hint) if f.init]
        return hint(
            **{f.name: from_json(hints[f.name], value[f.name]) for f in fields if f.name in value}
        )
    return value
