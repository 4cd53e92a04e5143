"""``/rules`` and ``/help``: what the bot plays and how."""

from __future__ import annotations

from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SequencesBot
from bot.errors import UserError
from bot.games.base import Game, RulesPage
from bot.i18n.speaking import N_, _, pgettext
from bot.render.common import COLOUR
from bot.ui.anywhere import anywhere
from bot.ui.checks import for_organisers
from bot.ui.mentions import CommandMentions, Mention, plain
from bot.ui.quickplay import QUICKPLAY_RULES
from bot.ui.rules import rules_embed
from bot.ui.tournament_words import TOURNAMENT_RULES
from bot.ui.tournaments import may_organise

# What every game shares (RULINGS §4), after the games' own pages in /rules.
TABLE_RULES = RulesPage(
    "tables",
    N_("Turns, timers, forfeits and ending early"),
    # TRANSLATORS: /rules game:tables, what every game shares; `/<game> resign` and
    # `/<game> end` stand for a game's own command (/sequences resign, /board end).
    N_(
        "• Only the player to move can press the turn buttons. Every turn has a timer (3 minutes "
        "unless the server changes it; none in DMs and group DMs); when it runs out the bot plays "
        "that turn for you. With a third of it left, you are mentioned once in the game's thread "
        "unless you have acted (`/notify` sends it by direct message instead).\n"
        "• **Forfeit**: three missed turns in a row, or **Resign** (the button on the turn "
        "message, or `/<game> resign`, both asking to confirm), and your seat plays no more and "
        "ranks last. The game goes on among the others; when one side is left it wins at once "
        "and takes the pot. A forfeited seat's stake stays in the pot.\n"
        "• With no player left (or every one away), the game is abandoned: no result, no rating "
        "change, every stake refunded.\n"
        "• **Ending early** (`/<game> end`): Manage Server can end any game (stakes refunded). The "
        "host can end an unstaked game; a staked one only when everyone else still playing "
        "presses **Agree to end** within 2 minutes.\n"
        "• Games with bot players count for games and wins but do not move ratings."
    ),
)


class Help(commands.Cog):
    def __init__(self, bot: SequencesBot) -> None:
        self.bot = bot
        self.mentions = CommandMentions(bot.tree, bot.clock)

    @app_commands.command(name="rules", description="The rules of a game, as this bot plays them")
    @anywhere
    @app_commands.describe(game="Which game or variant")
    async def rules(
        self, interaction: discord.Interaction[SequencesBot], game: str | None = None
    ) -> None:
        pages: list[tuple[Game[Any] | None, RulesPage]] = [
            (g, p) for g in self.bot.games.presentations() for p in g.rules_pages
        ]
        pages += [(None, TABLE_RULES), (None, TOURNAMENT_RULES), (None, QUICKPLAY_RULES)]
        wanted = (game or pages[0][1].key).strip().casefold()
        found = next(
            (
                (g, p)
                for g, p in pages
                if wanted in (p.key.casefold(), p.title.casefold(), _(p.title).casefold())
            ),
            None,
        )
        if found is None:
            raise UserError(_("Pick a game from the list."))
        owner, page = found
        embed = rules_embed(page, owner.bot_level_texts if owner is not None else None)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("game")
    async def _rules_game(
        self, interaction: discord.Interaction[SequencesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        text = current.casefold()
        return [
            app_commands.Choice(name=_(page.title)[:100], value=page.key)
            for page in [
                *self.bot.games.rules_pages,
                TABLE_RULES,
                TOURNAMENT_RULES,
                QUICKPLAY_RULES,
            ]
            if text in page.key.casefold()
            or text in page.title.casefold()
            or text in _(page.title).casefold()
        ][:25]

    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: discord.Interaction[SequencesBot]) -> None:
        mention = await self.mentions.for_guild(interaction.guild_id)
        organiser = interaction.guild_id is not None and await may_organise(
            interaction, self.bot.shell
        )
        embed = help_embed(self.bot.tree, mention, interaction.permissions, organiser=organiser)
        await interaction.response.send_message(embed=embed, ephemeral=True)


# /help's sections: "Your chips and stats", "Play", and "Server admins" and "Run
# tournaments", each shown only to members with the permission or role.
FIELD_LIMIT = 1024  # Discord's limit of an embed field's value
CHIPS_AND_STATS = ("wallet", "daily", "pay", "stats", "leaderboard", "privacy")
PLAY_ORDER = ("rules", "odds", "replay", "history", "resign", "end")
GAME_ORDER = ("sequences", "heartsdue", "board")  # the dice games first, as the README


def _game_order(command: app_commands.Command[Any, ..., Any]) -> int:
    root = command.qualified_name.split(" ", 1)[0]
    return GAME_ORDER.index(root) if root in GAME_ORDER else len(GAME_ORDER)


def _needs(command: app_commands.Command[Any, ..., Any]) -> discord.Permissions | None:
    """The permissions a command asks for (its own, or its group's)."""
    found: Any = command
    while found is not None:
        if found.default_permissions is not None:
            return cast(discord.Permissions, found.default_permissions)
        found = found.parent
    return None


def _lines(commands: list[app_commands.Command[Any, ..., Any]], mention: Mention) -> list[str]:
    """One line per description: the end and resign of every game share theirs."""
    by_text: dict[str, list[str]] = {}
    for command in commands:
        by_text.setdefault(_described(command), []).append(mention(command.qualified_name))
    return [
        f"{names[0]} – {text}" if len(names) == 1 else f"{text}\n{' · '.join(names)}"
        for text, names in by_text.items()
    ]


def _in_language(mention: Mention) -> Mention:
    """``mention``, but a command whose id is unknown is written as the reader's Discord
    names it (``/regeln`` for a German reader), as a clickable mention shows it."""

    def named(name: str) -> str:
        shown = mention(name)
        if shown != plain(name):
            return shown
        return plain(" ".join(pgettext("command", word) for word in name.split()))

    return named


def _described(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> str:
    """A command's description as the reader's Discord shows it (the commands catalogue)."""
    return pgettext("description", command.description)


def help_embed(
    tree: app_commands.CommandTree[Any],
    mention: Mention,
    permissions: discord.Permissions,
    organiser: bool = False,
) -> discord.Embed:
    """/help for a member with ``permissions`` (and who may run tournaments here, or not):
    start-here steps, then the commands they can use by section, each a mention (clickable)
    where the command ids are known."""
    mention = _in_language(mention)
    every = [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]
    every.sort(key=_game_order)  # stable: otherwise in the tree's order
    starts = [c for c in every if c.name == "start" and c.parent is not None]
    play, chips, admin, organisers = [], [], [], []
    for command in every:
        needs = _needs(command)
        if needs is not None:
            if needs.is_subset(permissions):
                admin.append(command)
        elif for_organisers(command):
            if organiser:
                organisers.append(command)
        elif command in starts or command.name == "help":
            continue
        elif command.qualified_name.split(" ", 1)[0] in CHIPS_AND_STATS:
            chips.append(command)
        else:
            play.append(command)
    play.sort(key=lambda c: PLAY_ORDER.index(c.name) if c.name in PLAY_ORDER else 0)
    chips.sort(key=lambda c: CHIPS_AND_STATS.index(c.qualified_name.split(" ", 1)[0]))
    admin.sort(key=lambda c: c.qualified_name)
    start_here = [
        _("1. Open a table in a channel:"),
        *(f"• {mention(c.qualified_name)} – {_described(c.parent) if c.parent else ''}"
          for c in starts),
        # TRANSLATORS: **Join**, **Start** and **Rules** are the buttons' labels: write them
        # as the table's buttons say them in your language.
        _("2. Others press **Join**; the host presses **Start**."),
        _("3. Play in the game's thread when it pings you. **Rules** on every turn shows "
          "that game's rules."),
    ]  # fmt: skip
    embed = discord.Embed(
        title=_("Sequences bot"),
        description=_("Dice and board games of sequences, played with buttons."),
        colour=COLOUR,
    )
    # TRANSLATORS: /help's section titles (embed field names).
    sections = [
        (_("Start here"), start_here),
        (_("Play"), _lines(play, mention)),
        (_("Your chips and stats"), _lines(chips, mention)),
        (_("Run tournaments"), _lines(organisers, mention)),
        (_("Server admins"), _lines(admin, mention)),
    ]
    for name, lines in sections:
        for index, value in enumerate(_packed(lines)):
            # A section longer than a field goes on in the next, under a blank name.
            embed.add_field(name=name if index == 0 else "\u200b", value=value, inline=False)
    return embed


def _packed(lines: list[str], limit: int = FIELD_LIMIT) -> list[str]:
    """``lines`` joined into as few field values as hold them, each at most ``limit``
    characters, never cutting a line (a command's clickable mention is some 40 characters,
    and a language's descriptions are longer than English's)."""
    values: list[str] = []
    for line in lines:
        line = line[:limit]
        if values and len(values[-1]) + 1 + len(line) <= limit:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


async def setup(bot: SequencesBot) -> None:
    await bot.add_cog(Help(bot))
