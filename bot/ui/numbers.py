"""Numbers in slash-command options beyond what Discord's clients send: a raw API call may pass a
value past 2⁵³ − 1 or the declared range (discord.py trusts the client), so every option is checked
before the command runs and refused in one private line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.i18n.speaking import _, number, pgettext
from bot.tables.limits import OPTION_INT_MAX
from bot.ui.errors import reply_private

NUMERIC = (discord.AppCommandOptionType.integer.value, discord.AppCommandOptionType.number.value)


def _leaves(options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The options a member gave, below the subcommand (group) they nest in."""
    for option in options:
        if "options" in option:
            yield from _leaves(option["options"])
        else:
            yield option


def _bounds(interaction: discord.Interaction[Any], name: str) -> tuple[float, float]:
    """The option's declared range, within Discord's bound (Discord's bound where the
    command declares none)."""
    low: float = -OPTION_INT_MAX
    high: float = OPTION_INT_MAX
    command = interaction.command
    if isinstance(command, app_commands.Command):
        for param in command.parameters:
            if param.display_name == name:
                if param.min_value is not None:
                    low = max(low, param.min_value)
                if param.max_value is not None:
                    high = min(high, param.max_value)
                break
    return low, high


def out_of_range(interaction: discord.Interaction[Any]) -> tuple[str, Any] | None:
    """The first numeric option whose value lies outside its declared range (name, value).
    discord.py does not check a ``Range`` of numbers (it trusts Discord's clients), so
    ``rounds:50`` reached a command declaring 1 to 20."""
    data: Any = interaction.data or {}
    for option in _leaves(list(data.get("options", []))):
        value = option.get("value")
        if option.get("type") not in NUMERIC or isinstance(value, bool):
            continue
        if not isinstance(value, int | float):
            continue
        name = str(option.get("name", ""))
        low, high = _bounds(interaction, name)
        if not low <= value <= high:
            return name, value
    return None


def refusal(interaction: discord.Interaction[Any], name: str) -> str:
    """The one-line refusal: the option (named as the member's client shows it) and the
    command's declared range (Discord's bound where the command declares none)."""
    low, high = _bounds(interaction, name)
    return _(
        "The %(option)s option must be between %(low)s and %(high)s.",
        option=pgettext("option", name).replace("_", " "),
        low=number(int(low)),
        high=number(int(high)),
    )


class CommandTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a command whose numbers are outside their declared range (or past
    Discord's bound) is refused
    before it runs (``out_of_range``)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete: the command refuses the value when it is sent
        found = out_of_range(interaction)
        if found is None:
            return True
        await reply_private(interaction, refusal(interaction, found[0]))
        return False
