"""The limits and timings the table service enforces, taken from the settings once."""

from __future__ import annotations

from dataclasses import dataclass

MAX_ID = 2**63 - 1  # Discord snowflakes and the store's ids are signed 64-bit integers
# The largest bound a slash-command integer option may declare: Discord's schema holds
# option bounds to +-(2^53 - 1) and refuses the whole command tree's sync past it.
OPTION_INT_MAX = 2**53 - 1


@dataclass(frozen=True)
class TableLimits:
    turn_timeout_seconds: int = 180
    lobby_timeout_seconds: int = 900
    bot_turn_delay_seconds: float = 1.2
    max_stake: int = 10_000
    start_cooldown_seconds: int = 10
    max_lobbies_per_channel: int = 3
    max_games_per_channel: int = 5  # running games in one channel
    max_lobbies_per_guild: int = 10
    max_games_per_guild: int = 25  # lobbies and running games together
    max_bot_players: int = 11
