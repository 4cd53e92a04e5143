"""``python -m bot sync [--guild ID]``: register the slash commands with Discord, explicitly, after
an upgrade (on every start it would hit the rate limits). Any refusal, a tree Discord would refuse
included, is one line and exit 2."""

from __future__ import annotations

import argparse
import asyncio
import sys

import aiohttp
import discord


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--guild", type=int, default=None, help="sync to one server only")


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import load_settings
    from bot.config import Settings

    settings = load_settings()
    if not isinstance(settings, Settings):
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set: put DISCORD_TOKEN=... in .env (see .env.example)",
            file=sys.stderr,
        )
        return 2
    return asyncio.run(_sync(settings, args.guild))


async def _sync(settings: object, guild_id: int | None) -> int:
    from bot.app import SequencesBot, discord_problem
    from bot.config import Settings
    from bot.store.db import Database, DatabaseUnusable
    from bot.ui.i18n import tree_refusals

    assert isinstance(settings, Settings) and settings.discord_token is not None
    try:
        db = await Database.open(settings.database_target())
    except DatabaseUnusable as exc:
        return _error(str(exc))
    async with db, SequencesBot(settings, db, run_timers=False) as bot:
        try:
            await bot.login(settings.discord_token.get_secret_value())
        except (OSError, aiohttp.ClientError, discord.DiscordException) as exc:
            problem = discord_problem(exc)
            if problem is None:
                raise
            return _error(problem)
        await bot.setup_hook()
        where = "" if guild_id is None else f" to guild {guild_id}"
        # A localised name Discord refuses fails the whole sync: say which, send nothing.
        refused = await tree_refusals(bot.tree)
        if refused:
            for line in refused:
                print(f"refused: {line}", file=sys.stderr)
            return _error(
                f"{len(refused)} command names or texts Discord would refuse (above); "
                "nothing synced: fix the catalogue (docs/i18n.md)"
            )
        try:
            if guild_id is not None:
                guild = discord.Object(guild_id)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
            else:
                synced = await bot.tree.sync()
        except discord.Forbidden as exc:
            if guild_id is None:
                return _error(discord_problem(exc, "syncing the commands") or str(exc))
            return _error(
                f"Discord refused the sync{where} (403): is the bot in that server, invited "
                "with the applications.commands scope?"
            )
        except (OSError, aiohttp.ClientError, discord.DiscordException) as exc:
            problem = discord_problem(exc, "syncing the commands")
            if problem is None:
                raise
            return _error(problem)
        print(f"synced {len(synced)} commands{where}")
    return 0


def _error(line: str) -> int:
    print(f"error: {line}", file=sys.stderr)
    return 2
