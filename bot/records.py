"""Plain records that cross layers: the store returns them, the table layer and the
renderers read them. Values only: no SQL, no Discord."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]
DAY = 86_400
WIN_RATE_MIN_GAMES = 5


def utc_day(now: float) -> int:
    return int(now // DAY)


@dataclass(frozen=True)
class TurnAction:
    """A move a turn offers, as a value: ``action`` goes into the custom_id (the game
    resolves it later), the rest says how it is offered. No words: the game's presentation
    labels it (``Game.turn_buttons``)."""

    action: str
    style: Style = "secondary"
    row: int = 0
    private: bool = False  # answered privately, changes nothing (e.g. Odds)
    disabled: bool = False


@dataclass(frozen=True)
class Button:
    """A game button: ``action`` goes into the custom_id; the game resolves it later."""

    action: str
    label: str
    style: Style = "secondary"
    row: int = 0
    private: bool = False  # answered privately, changes nothing (e.g. Odds)
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True)
class SeatResult:
    """One seat's result in a finished game."""

    seat: int
    user_id: int | None
    name: str
    team: int | None
    score: int
    place: int
    won: bool
    best_turn: int
    coached: bool = False  # asked for a suggested move (the board game): the game is unrated


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    delta: int
    kind: str
    reason: str | None
    game_id: int | None
    actor_id: int | None
    at: float


@dataclass(frozen=True, slots=True)
class WalletView:
    guild_id: int
    user_id: int
    balance: int
    held: int  # chips in stakes of tables not finished yet
    daily_day: int | None
    entries: list[LedgerEntry]

    def next_daily(self, now: float) -> float | None:
        """When /daily can next be claimed, or None if it can be claimed now."""
        if self.daily_day is not None and self.daily_day >= utc_day(now):
            return float((self.daily_day + 1) * DAY)
        return None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    name: str | None  # last seen display name; None if the member was never seen
    games: int
    wins: int
    win_rate: float
    best_turn: int
    chips_won: int
    chips_lost: int
    chips_net: int
    streak: int
    rating: int  # display_rating(ordinal)
    rated_games: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    rows: list[LeaderboardRow]
    total: int
    viewer_row: LeaderboardRow | None  # the viewer's rank, wherever it is (None: unranked)
    page: int  # 1-based, clamped to the pages there are
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


# The guild id of a table played outside any server (a DM or group DM, through a member's
# own install of the app): stored so, kept off every server's leaderboard, stats and ratings.
NO_GUILD = 0

# The guild id of a quick-play table whose players come from several servers (issue 36,
# ``where: everywhere``): the table belongs to no server, its places (one thread per server)
# are listed beside it, and its results make the everywhere ladder, the stats scope of this
# id, on no server's leaderboard. Discord's ids are at least 2**22 (a timestamp shifted by
# 22 bits), so no server has it; its shard is 0 whatever the shard count.
EVERYWHERE = 2**22 - 1


@dataclass(frozen=True, slots=True)
class Season:
    """One of a server's seasons. It runs from ``started_at`` until ``ends_at`` (the date
    chosen, or when the next season started; None: until a next one starts)."""

    id: int
    guild_id: int
    name: str
    soft_reset: bool
    started_at: float
    ends_at: float | None
    started_by: int

    def running(self, now: float) -> bool:
        return self.started_at <= now and (self.ends_at is None or now < self.ends_at)
