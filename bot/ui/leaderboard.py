"""Previous/Next buttons for leaderboards, persistent across restarts
(``lb:<owner>:<page>:<scope>:<sort>[<season id>]:<game key>``): the asker turns pages in place,
anyone else gets the page privately."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.errors import UserError
from bot.i18n.speaking import N_, _
from bot.render.common import every_language
from bot.render.standings import leaderboard_embed
from bot.tables import stats
from bot.ui.buttons import is_button
from bot.ui.errors import handle_error
from bot.ui.i18n import privately, publicly
from bot.ui.pages import on_own_page
from bot.ui.shell import Shell, shell_of

# Every page's title starts so (bot.render.standings; see on_own_message), in the language
# the page was drawn in.
# TRANSLATORS: the start of a /leaderboard page's title, followed by the game's name.
TITLE = N_("Leaderboard · ")
SCOPE_CODES = {"server": "s", "global": "g", "everywhere": "e"}
SORT_CODES = {"rating": "r", "wins": "w", "win_rate": "p", "chips": "c"}
_SCOPES = {code: name for name, code in SCOPE_CODES.items()}
_SORTS = {code: name for name, code in SORT_CODES.items()}


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"lb:(?P<owner>[0-9]{1,20}):(?P<page>[0-9]{1,6}):(?P<scope>[sge]):(?P<sort>[rwpc])"
        r"(?P<season>[0-9]{1,12})?:(?P<game>[a-z0-9_:.-]{1,60})"
    ),
):
    def __init__(
        self,
        owner: int,
        page: int,
        scope: stats.Scope,
        sort: stats.Sort,
        game_key: str,
        *,
        label: str,
        disabled: bool = False,
        season_id: int | None = None,
    ) -> None:
        season = "" if season_id is None else str(season_id)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=(
                    f"lb:{owner}:{page}:{SCOPE_CODES[scope]}:{SORT_CODES[sort]}{season}:{game_key}"
                ),
            )
        )
        self.owner = owner
        self.page = page
        self.scope: stats.Scope = scope
        self.sort: stats.Sort = sort
        self.game_key = game_key
        self.season_id = season_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardButton:
        # ``item`` is a select when a forged component carries this id: built all the same,
        # interaction_check refuses it (and the bot's on_interaction answers).
        return cls(
            int(match["owner"]),
            int(match["page"]),
            _SCOPES[match["scope"]],  # type: ignore[arg-type]
            _SORTS[match["sort"]],  # type: ignore[arg-type]
            match["game"],
            label=getattr(item, "label", None) or "",
            season_id=None if match["season"] is None else int(match["season"]),
        )

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not is_button(interaction):
            return False
        return await on_own_page(interaction, every_language(TITLE))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self._show(interaction)
        except Exception as exc:
            await handle_error(interaction, exc, f"on leaderboard page {self.page}")

    async def _show(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise UserError(_("Leaderboards belong to a server."))
        viewer = interaction.user.id
        shell = shell_of(interaction)
        season = None
        if self.season_id is not None:
            if self.scope != "server":  # a forged id: seasons are a server's
                raise UserError(_("That season is not one of this server's."))
            season = await shell.stats.season(interaction.guild_id, self.season_id)
            if season is None:
                raise UserError(_("That season is not one of this server's."))
        async with publicly(interaction) if viewer == self.owner else _private(interaction):
            embed, view = await render_board(
                shell,
                interaction.guild_id,
                self.game_key,
                self.scope,
                self.sort,
                self.page,
                viewer,
                season,
            )
        if viewer == self.owner:  # the public page, turned in place: the server's words
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(
                embed=embed,
                view=view,
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )


@asynccontextmanager
async def _private(interaction: discord.Interaction[Any]) -> AsyncIterator[object]:
    """A page drawn for the presser alone: their own words (those of the interaction)."""
    with privately(interaction) as words:
        yield words


async def render_board(
    shell: Shell,
    guild_id: int,
    game_key: str,
    scope: stats.Scope,
    sort: stats.Sort,
    page: int,
    viewer_id: int,
    season: stats.Season | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and Previous/Next buttons for one page, owned by ``viewer_id``: the
    all-time board, or ``season``'s (of this server)."""
    season_id = None if season is None else season.id
    board = await shell.stats.leaderboard(
        game_key, scope, guild_id, sort, page=page, viewer_id=viewer_id, season_id=season_id
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardButton(
            viewer_id, board.page - 1, scope, sort, game_key,
            label=_("◀ Previous"), disabled=board.page <= 1, season_id=season_id,
        )
    )  # fmt: skip
    view.add_item(
        LeaderboardButton(
            viewer_id, board.page + 1, scope, sort, game_key,
            label=_("Next ▶"), disabled=board.page >= board.pages, season_id=season_id,
        )
    )  # fmt: skip
    name = shell.games.label(game_key)
    if season is not None:
        played = bool(board.rows) or game_key in await shell.stats.season_game_keys(season.id)
    else:
        played = bool(board.rows) or game_key in await shell.stats.game_keys(
            stats.scope_of(scope, guild_id)
        )
    # The all-time board says so where the server has seasons.
    all_time = (
        season is None and scope == "server" and bool(await shell.stats.list_seasons(guild_id))
    )
    embed = leaderboard_embed(
        board, name, scope, sort, viewer_id, played=played, season=season, all_time=all_time,
        now=shell.clock(),
    )  # fmt: skip
    return embed, view
