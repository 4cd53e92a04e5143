"""``python -m bot run``: start the bot with the token from `.env`."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    from bot.config import Settings

    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "error: DISCORD_TOKEN is not set: put DISCORD_TOKEN=... in .env "
            "(see .env.example) or in the environment",
            file=sys.stderr,
        )
        return 2
    from bot.app import run_bot

    return run_bot(settings)
