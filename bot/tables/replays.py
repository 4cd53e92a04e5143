"""The replay service (issue 15): a finished game rebuilt from its log, kept in a small LRU so a
replay's buttons do not replay the whole log each click; and the server's history of games."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.errors import UserError
from bot.store import games, replays
from bot.store.db import Database
from bot.store.replays import FinishedGame
from bot.tables.history import StepMismatch, replay, start_of
from bot.tables.kind import GameKind, NotReplayable
from bot.tables.limits import MAX_ID
from bot.tables.model import Seat

__all__ = ["FinishedGame", "HistoryPage", "Replay", "Replays"]

HISTORY_PAGE = 10
CACHE_GAMES = 32


@dataclass(frozen=True)
class Replay:
    """A finished game rebuilt from its log: ``moments[0]`` is the start, ``moments[i]``
    the state after step ``i`` (``bot.tables.history.replay``)."""

    game_id: int
    guild_id: int
    kind: str
    game_key: str
    seats: list[Seat]
    moments: list[tuple[Any, Any]]
    rounds: list[int]  # per moment, the round it belongs to (every seat moves once a round)
    stamp: Any = field(default=None, compare=False, repr=False)  # the game's state as read

    @property
    def last(self) -> int:
        return len(self.moments) - 1

    def clamp(self, step: int) -> int:
        return max(0, min(self.last, step))

    def round_back(self, step: int) -> int:
        """The first step of this round, or of the round before when already there."""
        now = self.rounds[self.clamp(step)]
        start = self.rounds.index(now)
        if start < step:
            return start
        return self.rounds.index(self.rounds[start - 1]) if start > 0 else 0

    def round_forward(self, step: int) -> int:
        """The first step of the next round (the last step in the last round)."""
        now = self.rounds[self.clamp(step)]
        return next((i for i, r in enumerate(self.rounds) if r > now), self.last)


@dataclass(frozen=True)
class HistoryPage:
    games: list[FinishedGame]
    total: int
    page: int  # 1-based, clamped
    pages: int


class Replays:
    def __init__(
        self, db: Database, kinds: Mapping[str, GameKind[Any]], cache_size: int = CACHE_GAMES
    ) -> None:
        self.db = db
        self.kinds = kinds
        self.cache_size = cache_size
        self._cache: OrderedDict[int, Replay] = OrderedDict()

    async def load(self, game_id: int, guild_id: int) -> Replay:
        """The replay of a finished game of this server; ``UserError`` (one line) for an
        unknown, unfinished, other-server or unreplayable game. A forgotten member is
        "Deleted member" in it, as everywhere."""
        if not 0 < game_id <= MAX_ID:  # an option or custom_id a client forged
            raise UserError(code="replay.none", game=game_id)
        row = await games.get(self.db, game_id)
        if row is None or row.guild_id != guild_id:
            raise UserError(code="replay.none", game=game_id)
        cached = self._cache.get(game_id)
        # Kept while the game's row is as it was read: `forget` (another process) rewrites
        # a forgotten member's seats and log, and the next press must show the new names.
        if cached is not None and cached.stamp == row.state:
            self._cache.move_to_end(game_id)
            return cached
        if row.status != "finished":
            raise UserError(code="replay.unfinished", game=game_id)
        kind = row.state.get("kind", "?")
        game = self.kinds.get(kind)
        if game is None:
            raise UserError(code="replay.no_kind", game=game_id)
        entries = await games.log_entries(self.db, game_id)
        try:
            seats, _ = start_of(entries)
            moments = list(replay(game, entries))
        except (NotReplayable, StepMismatch, NotImplementedError):
            raise UserError(code="replay.incomplete", game=game_id) from None
        per_round = max(1, len(seats))
        rounds = [game.turn_index(state) // per_round for _, state in moments]
        found = Replay(game_id, row.guild_id, kind, row.game_key, seats, moments, rounds, row.state)
        self._cache[game_id] = found
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return found

    async def history(
        self,
        guild_id: int,
        page: int = 1,
        *,
        user_id: int | None = None,
        game_key: str | None = None,
        page_size: int = HISTORY_PAGE,
    ) -> HistoryPage:
        """A server's finished games (of one member, of one game), newest first."""
        if user_id is not None and not 0 < user_id <= MAX_ID:
            raise UserError(code="replay.no_member")
        total = await replays.count_finished(self.db, guild_id, user_id, game_key)
        pages = max(1, -(-total // page_size))
        page = max(1, min(pages, page))
        rows = await replays.recent_finished(
            self.db, guild_id, user_id=user_id, game_key=game_key, limit=page_size,
            offset=(page - 1) * page_size,
        )  # fmt: skip
        return HistoryPage(rows, total, page, pages)

    async def recent(self, guild_id: int, limit: int = 25) -> list[FinishedGame]:
        """The server's latest finished games (the autocomplete of ``/replay``)."""
        return await replays.recent_finished(self.db, guild_id, limit=limit)
