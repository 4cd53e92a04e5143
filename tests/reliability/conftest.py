"""The reliability tests drive the real bot through the harness, like tests/discord."""

from tests.discord.conftest import make_env

__all__ = ["make_env"]
