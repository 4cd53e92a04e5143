"""The board game's settings: its options and the one check of them (RULINGS §3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.errors import UserError
from bot.games.options import Option
from bot.rules import board as b

MIN_SEATS, MAX_SEATS = 2, 12
# The seat counts each choice of teams can start with (RULINGS §3): with 3 seats and 3
# teams everyone plays alone; 2 teams need at least 4.
TEAM_SEATS = {2: (4, 6, 8, 10, 12), 3: (3, 6, 9, 12)}
ANY_SEATS = (2, 3, 4, 6, 8, 9, 10, 12)
_UNEVEN = tuple(n for n in range(4, MAX_SEATS + 1) if n % 2 and n % 3)  # 5, 7, 11


def _counts(counts: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in counts[:-1]) + f" or {counts[-1]}"


SEATS: Option[int | None] = Option(
    "seats",
    f"Most players at this table ({MIN_SEATS}-{MAX_SEATS}; "
    f"{_counts(_UNEVEN).replace(' or ', ' and ')} can't make equal teams)",
    default=None,
    low=MIN_SEATS,
    high=MAX_SEATS,
)
TEAMS: Option[int | None] = Option(
    "teams",
    f"2 teams ({_counts(TEAM_SEATS[2])} players) or 3 teams ({_counts(TEAM_SEATS[3])})",
    default=None,
    choices=tuple((f"{n} teams", n) for n in TEAM_SEATS),
)
FIRST_SEQUENCE_WINS: Option[bool] = Option(
    "first_sequence_wins", "Shorter game: the first sequence wins", default=False
)
OPTIONS = (SEATS, TEAMS, FIRST_SEQUENCE_WINS)


def config(settings: Mapping[str, Any], n_seats: int) -> b.BoardConfig:
    teams = settings.get("teams") if n_seats >= 4 else None
    return b.BoardConfig(
        seats=n_seats, first_sequence_wins=bool(settings.get("first_sequence_wins")), teams=teams
    )


def check(settings: Mapping[str, Any]) -> None:
    """Raise ``UserError`` with what a player reads if a table can't open with these."""
    seats = settings.get("seats")
    teams = settings.get("teams")
    if seats is not None:
        if not SEATS.allows(int(seats)):
            raise UserError(code="board.seats", low=MIN_SEATS, high=MAX_SEATS)
        if int(seats) in _UNEVEN:
            raise UserError(code="board.uneven", seats=int(seats))
    if teams not in (None, *TEAM_SEATS):
        raise UserError(code="board.teams", choices=list(TEAM_SEATS))
    if seats is not None:
        if teams and int(seats) not in TEAM_SEATS[teams]:
            counts = list(TEAM_SEATS[teams])
            raise UserError(code="board.seats_teams", teams=teams, counts=counts, seats=seats)
        if int(seats) >= 4:
            config(settings, int(seats)).validate()


def from_options(seats: int | None, teams: int | None, first_sequence_wins: bool) -> dict[str, Any]:
    """The settings of a table opened with these options, checked."""
    settings = {"seats": seats, "teams": teams, "first_sequence_wins": first_sequence_wins}
    check(settings)
    return settings
