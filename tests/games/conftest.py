"""The harness fixtures of tests/discord serve the test-only game too."""

from tests.discord.conftest import make_env

__all__ = ["make_env"]
