"""``/sequences start`` and ``/sequences end``: push-your-luck Sequences, its variants and one-roll;
the options are the games' settings, this command only picks which game they open."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.games.base import guild_of
from bot.games.oneroll import settings as oneroll
from bot.games.options import STAKE, WITH, Option, span
from bot.games.sequences import settings as push
from bot.i18n.speaking import _
from bot.records import NO_GUILD
from bot.ui.anywhere import anywhere
from bot.ui.options import choices, describe, picked
from cogs.game_group import GameGroup

_CLASSIC = oneroll.TARGET
# One target option for both rules: Discord allows the widest range, each game checks its own.
TARGET: Option[int | None] = Option(
    "target",
    f"{push.TARGET.description} (push-your-luck {push.TARGET.low}-{push.TARGET.high}; "
    f"classic {_CLASSIC.low}-{_CLASSIC.high}, default {oneroll.DEFAULT_TARGET})",
    default=None,
    low=span(push.TARGET, _CLASSIC)[0],
    high=span(push.TARGET, _CLASSIC)[1],
)
RULES: Option[str] = Option(
    "rules",
    "push-your-luck (default) or classic one-roll Sequences",
    default=push.PUSHLUCK_CHOICE[1],
    choices=(push.PUSHLUCK_CHOICE, oneroll.CLASSIC_CHOICE),
)
VARIANT, ROUNDS, SOFT_LAST_DIE = push.VARIANT, push.ROUNDS, push.SOFT_LAST_DIE


@anywhere  # classic one-roll Sequences plays in DMs and group DMs too (bot.ui.anywhere)
class Sequences(GameGroup, group_name="sequences", group_description="Sequences, the dice game"):
    game_keys = ("sequences:", "classic")  # push-your-luck and classic one-roll

    @app_commands.command(name="start", description="Open a table for Sequences in this channel")
    @describe(VARIANT, ROUNDS, TARGET, SOFT_LAST_DIE, RULES, STAKE, WITH)
    @app_commands.choices(variant=choices(VARIANT), rules=choices(RULES))
    @app_commands.rename(with_="with")
    async def start(
        self,
        interaction: discord.Interaction[SequencesBot],
        variant: str = VARIANT.default,
        rounds: app_commands.Range[int, ROUNDS.low, ROUNDS.high] | None = ROUNDS.default,
        target: app_commands.Range[int, TARGET.low, TARGET.high] | None = TARGET.default,
        soft_last_die: bool = SOFT_LAST_DIE.default,
        rules: str = RULES.default,
        stake: app_commands.Range[int, STAKE.low, STAKE.high] = STAKE.default,
        with_: str | None = WITH.default,
    ) -> None:
        if rules == oneroll.CLASSIC_CHOICE[1]:
            if variant != VARIANT.default or rounds is not None or soft_last_die:
                raise UserError(
                    _(
                        "Classic one-roll Sequences has no variants, rounds or house "
                        "rules: it is a race to the target."
                    )
                )
            await self.bot.shell.router.open_lobby(
                interaction,
                kind="oneroll",
                settings=oneroll.from_options("classic", target),
                stake=stake,
                invite=with_,
            )
            return
        if rules != RULES.default:
            raise UserError(_("Unknown rules."))
        if guild_of(interaction) == NO_GUILD:  # push-your-luck games are long: servers only
            raise UserError(
                _(
                    "Push-your-luck Sequences plays in servers only; here, pick rules: classic "
                    "(one roll a turn)."
                )
            )
        settings = push.from_options(variant, rounds, target, soft_last_die)
        await self.bot.shell.router.open_lobby(
            interaction, kind="sequences", settings=settings, stake=stake, invite=with_
        )

    @start.autocomplete("target")
    async def _target(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[int]]:
        options: Any = interaction.namespace
        rules = str(getattr(options, "rules", None) or RULES.default)
        variant = str(getattr(options, "variant", None) or VARIANT.default)
        typed = str(current).strip()
        if rules == oneroll.CLASSIC_CHOICE[1]:
            return picked(oneroll.target_suggestions(typed))
        return picked(push.target_suggestions(variant, typed))


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Sequences(bot))
