"""Turn order shared by every game: the next seat still playing."""

from __future__ import annotations

from collections.abc import Container


def next_playing(n_seats: int, out: Container[int], seat: int) -> int:
    """The first seat after ``seat`` in turn order that has not forfeited (``out``);
    ``seat`` itself when every other seat has."""
    for step in range(1, n_seats + 1):
        candidate = (seat + step) % n_seats
        if candidate not in out:
            return candidate
    return seat
