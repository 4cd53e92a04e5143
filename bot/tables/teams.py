"""Splitting a table into equal teams that alternate in turn order."""

from __future__ import annotations

from dataclasses import replace

from bot.errors import UserError
from bot.tables.model import Seat

TEAM_NAMES = "ABC"


def arrange_teams(seats: list[Seat], n_teams: int) -> list[Seat]:
    """Seats in turn order with teams alternating (A1 B1 A2 B2 ...): picked teams are kept, the
    others fill the smaller teams; refused when equal teams are impossible."""
    if n_teams <= 1:
        return [replace(s, team=None) for s in seats]
    if len(seats) % n_teams:
        raise UserError(code="teams.uneven", seats=len(seats), teams=n_teams)
    size = len(seats) // n_teams
    teams: list[list[Seat]] = [[] for _ in range(n_teams)]
    for seat in seats:
        if seat.team is not None and 0 <= seat.team < n_teams:
            teams[seat.team].append(seat)
    for t, members in enumerate(teams):
        if len(members) > size:
            raise UserError(code="teams.over", team=t, members=len(members), size=size)
    for seat in seats:
        if seat.team is None or not 0 <= seat.team < n_teams:
            smallest = min(range(n_teams), key=lambda t: (len(teams[t]), t))
            teams[smallest].append(seat)
    return [replace(teams[t][i], team=t) for i in range(size) for t in range(n_teams)]


def next_team(current: int | None, n_teams: int) -> int:
    return 0 if current is None else (current + 1) % n_teams
