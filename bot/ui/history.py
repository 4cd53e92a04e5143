"""``/history``: a server's finished games, newest first, with persistent Previous/Next
buttons. The custom_id carries the page: ``hi:<owner>:<page>:<member or 0>:<game key or
->``. The member who asked turns the pages in place; anyone else who presses gets the page
privately. Each row names the game's id for ``/replay``."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import UserError
from bot.tables.names import md_name
from bot.tables.replays import FinishedGame
from bot.ui.buttons import is_button
from bot.ui.checks import fits_id, on_own_message
from bot.ui.errors import handle_error, reply_private
from bot.ui.replay import HISTORY_TITLE as TITLE
from bot.ui.replay import ReplayButton
from bot.ui.shell import Shell, shell_of

COLOUR = 0x5865F2


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"hi:(?P<owner>[0-9]{1,20}):(?P<page>[0-9]{1,6}):(?P<member>[0-9]{1,20}):"
        r"(?P<game>[a-z0-9_:.-]{1,60})"
    ),
):
    def __init__(
        self,
        owner: int,
        page: int,
        member_id: int | None,
        game_key: str | None,
        *,
        label: str,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"hi:{owner}:{page}:{member_id or 0}:{game_key or '-'}",
            )
        )
        self.owner = owner
        self.page = page
        self.member_id = member_id
        self.game_key = game_key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryButton:
        member = int(match["member"])
        game = match["game"]
        return cls(
            int(match["owner"]),
            int(match["page"]),
            member or None,
            None if game == "-" else game,
            label=getattr(item, "label", None) or "",
        )

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not is_button(interaction):
            return False
        if not fits_id(self.owner, self.member_id or 0):
            await reply_private(interaction, "That button isn't one of mine; nothing changed.")
            return False
        return await on_own_message(interaction, TITLE)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if interaction.guild_id is None:
                raise UserError("Game history belongs to a server.")
            viewer = interaction.user.id
            embed, view = await render_history(
                shell_of(interaction), interaction.guild_id, viewer, self.page,
                self.member_id, self.game_key,
            )  # fmt: skip
            if viewer == self.owner:
                await interaction.response.edit_message(embed=embed, view=view)
            else:
                await interaction.response.send_message(
                    embed=embed, view=view, ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                )  # fmt: skip
        except Exception as exc:
            await handle_error(interaction, exc, f"on history page {self.page}")


async def render_history(
    shell: Shell,
    guild_id: int,
    viewer_id: int,
    page: int,
    member_id: int | None = None,
    game_key: str | None = None,
    member_name: str | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the server's history (of one member, of one game) and its buttons."""
    found = await shell.replays.history(guild_id, page, user_id=member_id, game_key=game_key)
    title = TITLE
    if game_key is not None:
        title += f" of {shell.games.label(game_key)}"
    if member_id is not None:
        title += f" with {member_name}" if member_name else " of one member"
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if found.games:
        embed.description = "\n".join(_row(shell, g) for g in found.games)
    else:
        embed.description = "No finished games yet."
    embed.set_footer(
        text=f"Page {found.page}/{found.pages} · {found.total} games · ▶ opens a game's replay "
        "(or /replay game:<id>)"
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        HistoryButton(
            viewer_id, found.page - 1, member_id, game_key,
            label="◀ Previous", disabled=found.page <= 1,
        )
    )  # fmt: skip
    view.add_item(
        HistoryButton(
            viewer_id, found.page + 1, member_id, game_key,
            label="Next ▶", disabled=found.page >= found.pages,
        )
    )  # fmt: skip
    for index, game in enumerate(found.games):  # at most 10 a page: two rows of five
        view.add_item(ReplayButton(game.id, 0, "o", label=f"▶ #{game.id}", row=1 + index // 5))
    return embed, view


def _row(shell: Shell, game: FinishedGame) -> str:
    players = ", ".join(_short(name) for name in game.players) or "?"
    winners = " & ".join(_short(name) for name in game.winners) or "nobody"
    pot = f" · pot {game.pot:,}" if game.pot else ""
    return (
        f"**#{game.id}** {shell.games.label(game.game_key)} · <t:{int(game.finished_at)}:d>\n"
        f"  {md_name(players)} · won by {md_name(winners)}{pot} · {game.moves} moves"
    )


def _short(name: str, limit: int = 32) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
