"""Teams: balanced on join, switchable in the lobby, alternating in turn order."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.tables.model import Seat
from bot.tables.teams import arrange_teams


def seat(name: str, team: int | None) -> Seat:
    return Seat(len(name), name, team=team)


def test_partners_alternate() -> None:
    seats = [seat("a", 0), seat("bb", 0), seat("ccc", 1), seat("dddd", 1)]
    ordered = arrange_teams(seats, 2)
    assert [s.name for s in ordered] == ["a", "ccc", "bb", "dddd"]
    assert [s.team for s in ordered] == [0, 1, 0, 1]


def test_unpicked_seats_fill_the_smaller_team() -> None:
    seats = [seat("a", 0), seat("bb", 0), seat("ccc", None), seat("dddd", None)]
    assert [s.team for s in arrange_teams(seats, 2)] == [0, 1, 0, 1]


def test_three_teams_of_two() -> None:
    seats = [seat(str(i) * (i + 1), None) for i in range(6)]
    ordered = arrange_teams(seats, 3)
    assert [s.team for s in ordered] == [0, 1, 2, 0, 1, 2]


def test_unequal_picks_are_refused() -> None:
    seats = [seat("a", 0), seat("bb", 0), seat("ccc", 0), seat("dddd", 1)]
    with pytest.raises(UserError, match="Team A has 3"):
        arrange_teams(seats, 2)
    with pytest.raises(UserError, match="equal teams"):
        arrange_teams(seats[:3], 2)
