"""The Review button of a result message and of ``/replay``: a member who played gets their own
moves where their chances dropped most, privately, from their own cards and what was public
(docs/board-rules.md, "Suggest and Review")."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import UserError
from bot.games.base import Game
from bot.i18n.speaking import _
from bot.render.common import NO_PINGS, every_language
from bot.ui.buttons import NOT_THIS_MESSAGE, is_button
from bot.ui.checks import fits_id
from bot.ui.errors import handle_error, reply_private
from bot.ui.replay import TITLE as REPLAY_TITLE
from bot.ui.review_texts import NO_REVIEW, NOT_A_PLAYER, OUTSIDE, review_button
from bot.ui.shell import shell_of


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rv:(?P<game>[0-9]{1,12})"
):
    def __init__(self, game_id: int) -> None:
        super().__init__(review_button(game_id))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReviewButton:
        return cls(int(match["game"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only on the game's own result message or its /replay. The answer is private and
        only about the presser's own moves and the clicked message is never edited, but a
        button answers on its own message alone, as every persistent one does."""
        if not is_button(interaction):
            return False
        message = interaction.message
        if message is not None:
            replay = tuple(t % {"id": self.game_id} for t in every_language(REPLAY_TITLE))
            if any((e.title or "").startswith(replay) for e in message.embeds):
                return True
            try:
                if fits_id(self.game_id) and self.game_id > 0:
                    game = await shell_of(interaction).tables.get(self.game_id)
                    if (game.row.guild_id, game.row.message_id) == (
                        interaction.guild_id,
                        message.id,
                    ):
                        return True
            except UserError:
                pass  # no such game: the same refusal
            except Exception as exc:
                await handle_error(interaction, exc, f"on the review of game {self.game_id}")
                return False
        await reply_private(interaction, _(NOT_THIS_MESSAGE))
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await review(interaction, self.game_id)
        except Exception as exc:
            await handle_error(interaction, exc, f"on the review of game {self.game_id}")


async def review(interaction: discord.Interaction[Any], game_id: int) -> None:
    if interaction.guild_id is None:
        raise UserError(_(OUTSIDE))
    shell = shell_of(interaction)
    replay = await shell.replays.load(game_id, interaction.guild_id)
    game: Game[Any] = shell.games.shown(replay.kind)
    if not game.reviewable:
        raise UserError(_(NO_REVIEW))
    seat = next((i for i, s in enumerate(replay.seats) if s.user_id == interaction.user.id), None)
    if seat is None:
        raise UserError(_(NOT_A_PLAYER))
    await interaction.response.defer(ephemeral=True, thinking=True)
    payload = await game.review_payload(shell.tables, game_id, replay.moments, replay.seats, seat)
    await interaction.followup.send(**payload, ephemeral=True, allowed_mentions=NO_PINGS)
