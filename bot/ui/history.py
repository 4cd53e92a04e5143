"""``/history``: a server's finished games, newest first, with persistent buttons
(``hi:<owner>:<page>:<member or 0>:<game key or ->``): the asker turns pages in place, anyone else
gets the page privately."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import UserError
from bot.games.words import how_left
from bot.i18n.speaking import _, current, number, plural, speaking
from bot.render.common import every_language
from bot.tables.names import md_name
from bot.tables.replays import FinishedGame
from bot.ui.buttons import is_button
from bot.ui.checks import fits_id
from bot.ui.errors import handle_error, reply_private
from bot.ui.i18n import locale_for
from bot.ui.pages import on_own_page
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
            await reply_private(interaction, _("That button isn't one of mine; nothing changed."))
            return False
        return await on_own_page(interaction, every_language(TITLE))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if interaction.guild_id is None:
                raise UserError(_("Game history belongs to a server."))
            viewer = interaction.user.id
            # Its asker turns the public page (the server's words); anyone else gets a
            # copy of their own, in theirs.
            words = (
                await locale_for(interaction, public=True) if viewer == self.owner else current()
            )
            with speaking(words):
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
    embed = discord.Embed(
        title=_title(shell, game_key, member_id, member_name)[:256], colour=COLOUR
    )
    if found.games:
        embed.description = "\n".join(_row(shell, g) for g in found.games)
    else:
        embed.description = _("No finished games yet.")
    embed.set_footer(
        text=plural(
            "Page %(page)s/%(pages)s · %(count)s game · ▶ opens a game's replay "
            "(or /replay game:<id>)",
            "Page %(page)s/%(pages)s · %(count)s games · ▶ opens a game's replay "
            "(or /replay game:<id>)",
            found.total,
            page=number(found.page),
            pages=number(found.pages),
        )
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        HistoryButton(
            viewer_id, found.page - 1, member_id, game_key,
            label=_("◀ Previous"), disabled=found.page <= 1,
        )
    )  # fmt: skip
    view.add_item(
        HistoryButton(
            viewer_id, found.page + 1, member_id, game_key,
            label=_("Next ▶"), disabled=found.page >= found.pages,
        )
    )  # fmt: skip
    for index, game in enumerate(found.games):  # at most 10 a page: two rows of five
        view.add_item(ReplayButton(game.id, 0, "o", label=f"▶ #{game.id}", row=1 + index // 5))
    return embed, view


def _title(
    shell: Shell, game_key: str | None, member_id: int | None, member_name: str | None
) -> str:
    """The page's title: every one starts as ``HISTORY_TITLE`` does, in each language."""
    game = None if game_key is None else shell.games.label(game_key)
    if member_id is None:
        return _(TITLE) if game is None else _("Finished games of %(game)s", game=game)
    if game is None:
        if member_name:
            return _("Finished games with %(member)s", member=member_name)
        return _("Finished games of one member")
    if member_name:
        return _("Finished games of %(game)s with %(member)s", game=game, member=member_name)
    return _("Finished games of %(game)s of one member", game=game)


def _row(shell: Shell, game: FinishedGame) -> str:
    players = ", ".join(_short(name) for name in game.players) or "?"
    # TRANSLATORS: /history, who won a game no seat won.
    winners = md_name(" & ".join(_short(name) for name in game.winners) or _("nobody"))
    if game.left and game.winners:
        # TRANSLATORS: /history, the winners of a game every other side left, and how:
        # "Ana (Bo resigned)".
        how = how_left(game.left, [md_name(_short(name)) for name in game.players])
        winners = _("%(winners)s (%(how)s)", winners=winners, how=how)
    head = f"**#{game.id}** {shell.games.label(game.game_key)} · <t:{int(game.finished_at)}:d>"
    moves = plural("%(count)s move", "%(count)s moves", game.moves)
    if game.pot:
        # TRANSLATORS: /history's second line of a game: players, winners, pot, moves.
        line = _(
            "%(players)s · won by %(winners)s · pot %(pot)s · %(moves)s",
            players=md_name(players), winners=winners, pot=number(game.pot), moves=moves,
        )  # fmt: skip
    else:
        line = _(
            "%(players)s · won by %(winners)s · %(moves)s",
            players=md_name(players), winners=winners, moves=moves,
        )  # fmt: skip
    return f"{head}\n  {line}"


def _short(name: str, limit: int = 32) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
