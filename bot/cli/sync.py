"""``python -m bot sync [--guild ID]``: register the slash commands with Discord, explicitly.

Syncing on every start would hit Discord's rate limits for nothing; do it after an upgrade.
Without --guild the commands go global (they can take a while to appear everywhere).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import discord


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--guild", type=int, default=None, help="sync to one server only")


def run(args: argparse.Namespace) -> int:
    from bot.config import Settings

    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set: put DISCORD_TOKEN=... in .env (see .env.example)",
            file=sys.stderr,
        )
        return 2
    return asyncio.run(_sync(settings, args.guild))


async def _sync(settings: object, guild_id: int | None) -> int:
    from bot.app import SequencesBot
    from bot.config import Settings
    from bot.store.db import Database, DatabaseUnusable

    assert isinstance(settings, Settings) and settings.discord_token is not None
    try:
        db = await Database.open(settings.database_target())
    except DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    async with db, SequencesBot(settings, db, run_timers=False) as bot:
        try:
            await bot.login(settings.discord_token.get_secret_value())
        except discord.LoginFailure:
            print("error: Discord refused the token in DISCORD_TOKEN", file=sys.stderr)
            return 2
        await bot.setup_hook()
        if guild_id is not None:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        else:
            synced = await bot.tree.sync()
        print(f"synced {len(synced)} commands" + (f" to guild {guild_id}" if guild_id else ""))
    return 0
