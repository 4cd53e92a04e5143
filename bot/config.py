"""Settings, read once from the environment and `.env`, then passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.tables.limits import TableLimits

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = Field(default=None, description="Bot token")
    database_path: Path = Path("data/bot.sqlite3")
    dev_guild_id: int | None = None
    owner_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    log_level: str = "INFO"
    turn_timeout_seconds: int = Field(default=180, ge=15, le=3600)
    lobby_timeout_seconds: int = Field(default=900, ge=60, le=86400)
    bot_turn_delay_seconds: float = Field(default=1.2, ge=0, le=10)
    max_stake: int = Field(default=10_000, ge=0)
    start_cooldown_seconds: int = Field(default=10, ge=0)
    max_lobbies_per_channel: int = Field(default=3, ge=1)
    max_games_per_channel: int = Field(default=5, ge=1)  # running games in one channel
    max_lobbies_per_guild: int = Field(default=10, ge=1)
    max_games_per_guild: int = Field(default=25, ge=1)  # lobbies and running games together
    max_bot_players: int = Field(default=11, ge=0)

    @field_validator("owner_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        # Accept "1,2,3" in .env as well as a JSON list.
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> object:
        # logging.basicConfig raises on a name it does not know, after the bot has started.
        if isinstance(value, str) and value.strip().upper() in LOG_LEVELS:
            return value.strip().upper()
        raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}, not {value!r}")

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value in ("", None) else value

    def table_limits(self) -> TableLimits:
        """What the table service enforces, from these settings."""
        return TableLimits(
            **{name: getattr(self, name) for name in TableLimits.__dataclass_fields__}
        )
