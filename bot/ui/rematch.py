"""The Rematch button of a result message: a player's press opens a lobby with the same seats,
settings and stake (``bot.tables.rematch``), pinging the members whose seats it holds; a later press
says where it is."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.errors import UserError
from bot.games.words import THEN, refusal_line
from bot.i18n.speaking import _
from bot.tables.events import REMATCH_UNPOSTED, Closed
from bot.tables.model import Table
from bot.tables.rematch import RematchRefused
from bot.ui import rematch_texts as texts
from bot.ui.buttons import is_button
from bot.ui.checks import fits_id
from bot.ui.compose import lobby_message, refusal
from bot.ui.errors import handle_error, reply_private
from bot.ui.shell import Shell, shell_of
from bot.ui.tournament_words import no_rematch

log = logging.getLogger(__name__)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rm:(?P<game>[0-9]{1,19})"
):
    def __init__(self, game_id: int) -> None:
        super().__init__(texts.rematch_button(game_id))
        self.game_id = game_id
        self.game: Table | None = None

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only on the game's own result message: the id copied onto another message (a
        forged click) changes nothing."""
        if not is_button(interaction):
            return False
        try:
            game = None
            if fits_id(self.game_id) and self.game_id > 0:
                game = await shell_of(interaction).tables.get(self.game_id)
            message = interaction.message
            if (
                game is None
                or message is None
                or interaction.guild_id != game.row.guild_id
                or message.id != game.row.message_id
            ):
                await reply_private(interaction, _(texts.NOT_THIS_MESSAGE))
                return False
        except UserError as exc:
            await reply_private(interaction, str(exc))
            return False
        except Exception as exc:
            await handle_error(interaction, exc, f"on the rematch of game {self.game_id}")
            return False
        self.game = game
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert self.game is not None  # set by interaction_check
        try:
            await rematch(shell_of(interaction), interaction, self.game)
        except RematchRefused as exc:
            await reply_private(interaction, texts.refusal(exc, self.game))
        except Exception as exc:
            await handle_error(interaction, exc, f"on the rematch of game {self.game_id}")


async def rematch(shell: Shell, interaction: discord.Interaction[Any], game: Table) -> None:
    user = interaction.user
    shell.rematches.check(game, user.id)  # refused at once, privately
    match = await shell.tournaments.match_for_table(game.id)
    if match is not None:  # a tournament opens its own next games (bot.ui.tournaments)
        await reply_private(interaction, no_rematch(match.tournament_id))
        return
    # Opening waits on the database and posting on Discord's rate limits: answer first.
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await shell.rematches.open(game.id, user.id, user.display_name)
    if not result.opened:
        await interaction.followup.send(texts.already(game, result.table), ephemeral=True)
        return
    lobby = result.table
    problem = await post_lobby(shell, game, lobby)
    text = problem or texts.opened(lobby)
    await interaction.followup.send(text, ephemeral=True)


async def post_lobby(shell: Shell, game: Table, lobby: Table) -> str | None:
    """Post the rematch lobby in the game's channel, pinging the members whose seats it
    holds; if Discord refuses, close it (the presser's stake goes back) and return why."""
    publisher = shell.publisher
    client = publisher.client
    channel_id = lobby.row.channel_id
    channel: Any = client.get_channel(channel_id)
    async with publisher.languages.public(lobby):  # the lobby is public: the server's words
        call, shown = texts.call(game, lobby), lobby_message(lobby)
    try:
        if channel is None:
            channel = await client.fetch_channel(channel_id)
        message = await channel.send(
            content=call,
            **shown,
            allowed_mentions=discord.AllowedMentions(
                everyone=False,
                roles=False,
                users=[discord.Object(s.user_id) for s in lobby.held if s.user_id is not None],
            ),
        )
    except discord.HTTPException as exc:
        log.warning("game %s: rematch lobby %s not posted (%s)", game.id, lobby.id, exc.status)
        refused = refusal(channel if channel is not None else discord.Object(channel_id), exc)
        await shell.tables.close_unseen(lobby.id, Closed(REMATCH_UNPOSTED, refusal=refused))
        return refusal_line(refused, THEN["rematch_off"])
    lobby.row.version = await shell.tables.set_lobby_message(lobby.id, message.id)
    lobby.row.lobby_message_id = message.id
    publisher.shown.mark(lobby)  # after a restart only a lobby changed since is redrawn
    return None
