"""``Turns``: the turn order of a small game, a base for its state that the ``GameKind``
defaults read (whose turn, the turn count, forfeits, the result)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Self

from bot.errors import IllegalAction


@dataclass(frozen=True)
class Turns:
    """Seats that play one after another, each for itself, until one wins: a base for a small game's
    state, read by the ``GameKind`` defaults."""

    n_seats: int
    turn: int = 0  # the seat to play
    turns: int = 0  # turns played, and forfeits that ended one
    winner: int | None = None
    out: frozenset[int] = frozenset()  # the seats that forfeited

    def passed(self, **changes: Any) -> Self:
        """The state once the seat to play has played (with ``changes``): the turn passes to
        the next seat still playing."""
        state, n, seat = replace(self, **changes), self.n_seats, self.turn
        turn = next(s % n for s in range(seat + 1, seat + n + 1) if s % n not in state.out)
        return replace(state, turn=turn, turns=self.turns + 1)

    def forfeit(self, seat: int) -> Self:
        """RULINGS §4: the seat plays no more; its turn, if it was to play, passes on; the
        last seat still playing wins."""
        if self.winner is not None or seat in self.out or not 0 <= seat < self.n_seats:
            raise IllegalAction(code="turns.forfeit")
        out = self.out | {seat}
        left = [s for s in range(self.n_seats) if s not in out]
        if len(left) == 1:
            return replace(self, out=out, winner=left[0], turns=self.turns + 1)
        if seat != self.turn:
            return replace(self, out=out)
        return self.passed(out=out)

    def outcome(self) -> list[int] | None:
        """Every seat's score once a seat has won: 1 for the winner, 0 for the others."""
        if self.winner is None:
            return None
        return [int(i == self.winner) for i in range(self.n_seats)]
