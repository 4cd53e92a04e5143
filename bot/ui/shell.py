"""The services the Discord side of the bot is built from, wired once by ``bot.app``.
Buttons and cogs reach them from an interaction with ``shell_of``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.games.registry import Games
from bot.tables.clock import Clock
from bot.tables.guild_settings import GuildSettings
from bot.tables.quickplay import QuickPlay
from bot.tables.rematch import Rematches
from bot.tables.reminders import TurnReminders
from bot.tables.replays import Replays
from bot.tables.service import TableService
from bot.tables.shards import EVERY_GUILD, Shards
from bot.tables.stats import Stats
from bot.tables.tournaments import Tournaments
from bot.tables.web import WebDirectory
from bot.ui.publisher import Publisher
from bot.ui.router import Router


@dataclass
class Shell:
    games: Games
    tables: TableService
    stats: Stats
    guild_settings: GuildSettings
    publisher: Publisher
    router: Router
    clock: Clock
    replays: Replays
    reminders: TurnReminders  # the turn reminders' /notify choices
    rematches: Rematches
    tournaments: Tournaments
    shards: Shards = EVERY_GUILD  # the guilds this process owns
    web: WebDirectory | None = None  # the web companion's public servers and opaque ids
    public_url: str | None = None  # PUBLIC_URL: where the pages are, for "View on the web"
    quickplay: QuickPlay | None = None  # the queue (cogs/play.py sets it up)


class _HasShell(Protocol):
    shell: Shell


def shell_of(interaction: discord.Interaction[Any]) -> Shell:
    return cast(_HasShell, interaction.client).shell
