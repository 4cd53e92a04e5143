"""Statistics and OpenSkill ratings as plain values, no SQL; the live path and the rebuild both fold
through :func:`apply_game`, so they agree by construction (docs/wallets-and-ratings.md, "Ratings").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from openskill.models import PlackettLuce

from bot.records import EVERYWHERE

GLOBAL_SCOPE = 0


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def default_mu() -> float:
    return float(model().mu)


def default_sigma() -> float:
    return float(model().sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def display_rating(ordinal_value: float) -> int:
    return max(0, min(3000, round(1000 + 40 * ordinal_value)))


@dataclass(frozen=True, slots=True)
class Seat:
    """One row of game_results."""

    seat: int
    user_id: int | None
    team: int | None
    place: int
    won: bool
    best_turn: int
    coached: bool = False  # asked for a suggested move (the board game): the game is unrated


@dataclass(slots=True)
class StatLine:
    """One player_stats row."""

    scope: int
    game_key: str
    user_id: int
    games: int = 0
    wins: int = 0
    best_turn: int = 0
    chips_won: int = 0
    chips_lost: int = 0
    streak: int = 0
    rated_games: int = 0
    mu: float = field(default_factory=default_mu)
    sigma: float = field(default_factory=default_sigma)
    last_game_id: int | None = None
    updated_at: float = 0.0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def chips_net(self) -> int:
        return self.chips_won - self.chips_lost

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def display(self) -> int:
        return display_rating(self.ordinal)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One rating_history row."""

    scope: int
    game_key: str
    user_id: int
    game_id: int
    mu: float
    sigma: float
    at: float


StatKey = tuple[int, str, int]  # (scope, game_key, user_id)


def scopes_of(guild_id: int) -> tuple[int, ...]:
    """The stats scopes a game of ``guild_id`` counts on: its server's and the pooled global
    one; a cross-server table's (``EVERYWHERE``) only its own ladder."""
    return (EVERYWHERE,) if guild_id == EVERYWHERE else (guild_id, GLOBAL_SCOPE)


def stat_keys(guild_id: int, game_key: str, seats: Iterable[Seat]) -> list[StatKey]:
    """The player_stats rows a game touches."""
    users = sorted({s.user_id for s in seats if s.user_id is not None})
    return [(scope, game_key, u) for scope in scopes_of(guild_id) for u in users]


def _teams(seats: list[Seat]) -> list[list[Seat]]:
    """Seats grouped into teams, in order of each team's first seat."""
    groups: dict[tuple[str, int], list[Seat]] = {}
    for s in sorted(seats, key=lambda s: s.seat):
        key = ("team", s.team) if s.team is not None else ("seat", s.seat)
        groups.setdefault(key, []).append(s)
    return list(groups.values())


def is_rated(seats: list[Seat]) -> bool:
    return all(s.user_id is not None and not s.coached for s in seats) and len(_teams(seats)) >= 2


def apply_game(
    lines: dict[StatKey, StatLine],
    *,
    game_id: int,
    guild_id: int,
    game_key: str,
    seats: list[Seat],
    chips: dict[int, int],
    finished_at: float,
) -> list[RatingPoint]:
    """Fold one finished game into ``lines`` (missing rows created) and return the new points;
    ``chips`` is each member's net from the pot."""
    for key in stat_keys(guild_id, game_key, seats):
        if key not in lines:
            lines[key] = StatLine(scope=key[0], game_key=key[1], user_id=key[2])
    if guild_id == EVERYWHERE:  # chips belong to a server: the ladder counts none
        chips = {}
    return _fold(lines, scopes_of(guild_id), game_id, game_key, seats, chips, finished_at)


def soft_reset(mu: float, sigma: float) -> tuple[float, float]:
    """A season's soft reset: mu and sigma move halfway back to a newcomer's, so a regular starts
    nearer the field (docs/wallets-and-ratings.md)."""
    return (mu + default_mu()) / 2, (sigma + default_sigma()) / 2


def season_start(all_time: StatLine | None, *, soft: bool) -> tuple[float, float]:
    """The (mu, sigma) a member's first game of a season starts from: their all-time server
    rating just before it (no reset), or its soft reset."""
    mu, sigma = (
        (default_mu(), default_sigma()) if all_time is None else (all_time.mu, all_time.sigma)
    )
    return soft_reset(mu, sigma) if soft else (mu, sigma)


def apply_season_game(
    season_lines: dict[StatKey, StatLine],
    all_time: dict[StatKey, StatLine],
    *,
    season_id: int,
    soft: bool,
    game_id: int,
    guild_id: int,
    game_key: str,
    seats: list[Seat],
    chips: dict[int, int],
    finished_at: float,
) -> None:
    """Fold one game into a season's lines; call it before :func:`apply_game`, so a newcomer to the
    season starts from their server rating as the season began."""
    for user in sorted({s.user_id for s in seats if s.user_id is not None}):
        key = (season_id, game_key, user)
        if key not in season_lines:
            mu, sigma = season_start(all_time.get((guild_id, game_key, user)), soft=soft)
            season_lines[key] = StatLine(season_id, game_key, user, mu=mu, sigma=sigma)
    _fold(season_lines, (season_id,), game_id, game_key, seats, chips, finished_at)


def _fold(
    lines: dict[StatKey, StatLine],
    scopes: tuple[int, ...],
    game_id: int,
    game_key: str,
    seats: list[Seat],
    chips: dict[int, int],
    finished_at: float,
) -> list[RatingPoint]:
    """Fold one game into the rows of ``scopes`` (which exist)."""
    for s in seats:
        if s.user_id is None:
            continue
        net = chips.get(s.user_id, 0)
        for scope in scopes:
            line = lines[(scope, game_key, s.user_id)]
            line.games += 1
            line.wins += int(s.won)
            line.best_turn = max(line.best_turn, s.best_turn)
            line.chips_won += max(net, 0)
            line.chips_lost += max(-net, 0)
            if s.won:
                line.streak = line.streak + 1 if line.streak > 0 else 1
            else:
                line.streak = line.streak - 1 if line.streak < 0 else -1
            line.last_game_id = game_id
            line.updated_at = finished_at
    # A draw (a blocked board game, RULINGS §3) counts as a game played but moves no
    # rating: with every side placed first, OpenSkill would still shift them.
    if not is_rated(seats) or not any(s.won for s in seats):
        return []
    teams = _teams(seats)
    ranks = [min(s.place for s in team) for team in teams]
    points: list[RatingPoint] = []
    pl = model()
    for scope in scopes:
        rows = [[lines[(scope, game_key, s.user_id)] for s in team if s.user_id] for team in teams]
        before = [[pl.create_rating([r.mu, r.sigma]) for r in team] for team in rows]
        after = pl.rate(before, ranks=[float(r) for r in ranks])
        for team_rows, team_after in zip(rows, after, strict=True):
            for line, rating in zip(team_rows, team_after, strict=True):
                line.mu = float(rating.mu)
                line.sigma = float(rating.sigma)
                line.rated_games += 1
                points.append(
                    RatingPoint(scope, game_key, line.user_id, game_id, line.mu, line.sigma,
                                finished_at)
                )  # fmt: skip
    return points
