"""The differential check of the board kernel: seeded games rolled out by the compiled
kernel and by the pure-Python engine must agree move for move (``board-sim --parity``)."""

from __future__ import annotations

import random
import time
from typing import Any

from bot.rules.board import BoardConfig, BoardState, forfeit, new_game
from bot.rules.board.kernel import Playout, playout_compiled, playout_python

#: The tables the check cycles through: (seats, teams, first sequence wins, a seat out).
TABLES: tuple[tuple[int, int | None, bool, bool], ...] = (
    (2, None, False, False),
    (3, None, False, False),
    (4, None, False, False),
    (6, None, False, False),
    (6, 3, False, False),
    (2, None, True, False),
    (4, None, False, True),
)


def parity_game(index: int, seed: int) -> BoardState:
    """The starting position of game ``index`` of a check seeded ``seed``."""
    seats, teams, first, forfeited = TABLES[index % len(TABLES)]
    rng = random.Random(seed * 1_000_003 + index)
    state = new_game(BoardConfig(seats, first_sequence_wins=first, teams=teams), rng, index % seats)
    if forfeited:
        state = forfeit(state, (index // len(TABLES)) % seats)
    return state


def _same(a: Playout, b: Playout) -> bool:
    x, y = a.state, b.state
    return (
        a.moves == b.moves
        and a.result == b.result
        and (x.chips, x.hands, x.draw_pile, x.discards, x.sequences, x.turn)
        == (y.chips, y.hands, y.draw_pile, y.discards, y.sequences, y.turn)
    )


def parity(games: int, seed: int) -> dict[str, Any]:
    """Roll ``games`` seeded games out through both engines; the report as a dict: games
    that agree (moves, result, final position and the generator's state), the first that
    does not, and each engine's time."""
    agree = plies = 0
    first_difference: dict[str, Any] | None = None
    spent = {"python": 0.0, "compiled": 0.0}
    for index in range(games):
        state = parity_game(index, seed)
        rngs = random.Random(index ^ seed), random.Random(index ^ seed)
        tick = time.process_time()
        slow = playout_python(state, rngs[0], record=True)
        spent["python"] += time.process_time() - tick
        tick = time.process_time()
        fast = playout_compiled(state, rngs[1], record=True)
        spent["compiled"] += time.process_time() - tick
        plies += slow.plies
        if _same(slow, fast) and rngs[0].getstate() == rngs[1].getstate():
            agree += 1
        elif first_difference is None:
            at = next(
                (i for i, (m, n) in enumerate(zip(slow.moves, fast.moves, strict=False)) if m != n),
                min(len(slow.moves), len(fast.moves)),
            )
            first_difference = {"game": index, "ply": at, "seats": state.config.seats}
    return {
        "games": games,
        "seed": seed,
        "agree": agree,
        "plies": plies,
        "first_difference": first_difference,
        "cpu_seconds": spent,
        "us_per_ply": {name: 1e6 * value / max(1, plies) for name, value in spent.items()},
    }
