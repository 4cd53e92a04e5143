"""Settings, read once from the environment and `.env`, then passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.store.db import is_postgresql
from bot.tables.limits import TableLimits
from bot.tables.shards import Shards
from bot.tables.thinking import default_workers

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# More shards than Discord has servers to seat (2,500 a shard at most): a larger count is a
# typo, and would open that many gateway connections.
MAX_SHARD_COUNT = 50_000


def url_problem(url: str) -> str | None:
    """Why a postgresql:// URL cannot be used as written, without quoting any of it (an unencoded
    ``@`` in the password would be shown as the host); None when it can."""
    rest = url.split("://", 1)[-1].split("?", 1)[0]
    if "@" not in rest:
        return None
    credentials = rest.rsplit("@", 1)[0]
    if "@" in credentials or "/" in credentials:
        return (
            "the user name or password holds an @ or / that is not percent-encoded: "
            "write @ as %40 and / as %2F"
        )
    return None


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = Field(default=None, description="Bot token")
    database_path: Path = Path("data/bot.sqlite3")
    # A PostgreSQL server instead of the SQLite file, for several processes. Secret: it may
    # hold a password, which no message or log line shows.
    database_url: SecretStr | None = None
    dev_guild_id: int | None = None
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
    # Processes where the hard and expert board bots think, so clicks never wait on a search
    # (0: in the event loop); unset, one fewer than the cores (bot.tables.thinking).
    bot_workers: int = Field(default_factory=default_workers, ge=0, le=32)
    # Sharding over several processes: every process gets the same SHARD_COUNT and its own
    # SHARD_IDS; unset, one process runs the bot unsharded, as a small bot does.
    shard_count: int | None = None
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    # The web companion (bot/web): pages, health and metrics in this process, on this address;
    # port 0 serves nothing. PUBLIC_URL is the address users see (links and link previews).
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=8080, ge=0, le=65535)
    public_url: str | None = None
    # /metrics and the health routes answer requests from WEB_HOST's own machine only, or
    # any that carry this token (Authorization: Bearer ...).
    metrics_token: SecretStr | None = None

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        # Accept "1,2,3" in .env as well as a JSON list.
        if isinstance(value, str):
            parts = [part for part in value.replace(" ", "").split(",") if part]
            if not all(part.lstrip("-").isdigit() for part in parts):
                raise ValueError(f"must be whole numbers separated by commas, not {value!r}")
            return [int(part) for part in parts]
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

    @field_validator("public_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("http://", "https://")) or len(value) > 200:
            raise ValueError("must be an http:// or https:// address, e.g. https://games.example")
        return value.rstrip("/")

    @field_validator(
        "dev_guild_id", "shard_count", "database_url", "public_url", "metrics_token", mode="before"
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        return value

    @field_validator("bot_workers", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return default_workers()
        return value

    @field_validator("database_url")
    @classmethod
    def _postgresql_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        url = value.get_secret_value().strip()
        if is_postgresql(url):
            problem = url_problem(url)
            if problem is not None:
                raise ValueError(problem)
        else:
            # Only the scheme: the rest may hold a password.
            scheme = url.split("://", 1)[0] if "://" in url else ""
            got = f"a {scheme}:// URL" if scheme else "no URL"
            raise ValueError(
                f"must be a postgresql://user:password@host/database URL, not {got} "
                "(leave it empty for SQLite at DATABASE_PATH)"
            )
        return SecretStr(url)

    @field_validator("shard_count")
    @classmethod
    def _shards_discord_allows(cls, value: int | None) -> int | None:
        # Before the database is opened (and migrated) and before any connection to Discord.
        if value is not None and not 1 <= value <= MAX_SHARD_COUNT:
            raise ValueError(f"must be 1 to {MAX_SHARD_COUNT:,} (the shards in all), not {value}")
        return value

    @field_validator("shard_ids")
    @classmethod
    def _ids_of_the_count(cls, value: list[int] | None, info: ValidationInfo) -> list[int] | None:
        if not value or "shard_count" not in info.data:  # a bad count is reported itself
            return value or None  # empty: every shard of SHARD_COUNT
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the total number of shards")
        wrong = [i for i in value if not 0 <= i < count]
        if wrong:
            listed = ", ".join(map(str, wrong))
            raise ValueError(
                f"each shard id must be 0 to {count - 1} (SHARD_COUNT={count}), not {listed}"
            )
        if len(set(value)) != len(value):
            raise ValueError("a shard id is listed twice")
        return value

    def database_target(self) -> str | Path:
        """Where the data is: the DATABASE_URL server, else the SQLite file DATABASE_PATH."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    def table_limits(self) -> TableLimits:
        """What the table service enforces, from these settings."""
        return TableLimits(
            **{name: getattr(self, name) for name in TableLimits.__dataclass_fields__}
        )

    def shards(self) -> Shards:
        """The shards this process runs, hence the guilds it owns; without SHARD_COUNT,
        every guild."""
        if self.shard_count is None:
            return Shards()
        return Shards(self.shard_count, tuple(self.shard_ids or range(self.shard_count)))
