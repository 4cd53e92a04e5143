"""A game's declared options (``bot.games.options``) as discord.py's slash-command
decorators read them: descriptions and choices."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from discord import app_commands

from bot.games.options import Option, descriptions

__all__ = ["choices", "describe", "picked"]

F = TypeVar("F")


def describe(*options: Option[Any]) -> Callable[[F], F]:
    """``app_commands.describe`` for these options, in their words."""
    return app_commands.describe(**descriptions(options))


def choices(option: Option[Any]) -> list[app_commands.Choice[Any]]:
    """An option's choices as Discord lists them."""
    return [app_commands.Choice(name=name, value=value) for name, value in option.choices]


def picked(pairs: Iterable[tuple[str, int]]) -> list[app_commands.Choice[int]]:
    """(name, value) suggestions as an autocomplete answer."""
    return [app_commands.Choice(name=name, value=value) for name, value in pairs]
