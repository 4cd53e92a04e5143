"""The board bot levels, by the names players see and by the names of the engines.

Players choose ``easy``, ``medium``, ``hard`` or ``expert``:

- ``easy`` plays as ``greedy``: one move ahead, extends its lines and blocks fours;
- ``medium`` plays as ``strong``: one move ahead over a learned evaluation that counts the
  unseen cards;
- ``hard`` and ``expert`` search (``search``): they play each promising move out in deals of
  the hidden cards consistent with what they have seen; ``expert`` plays out five times as
  many.

``random``, ``greedy`` and ``strong`` stay valid levels: tables saved with them play on as
before, and ``board-sim`` and the tests use them.
"""

from __future__ import annotations

import random

from bot.rules.board.bots import LEVELS as ONE_PLY
from bot.rules.board.bots import one_ply_action
from bot.rules.board.deep import deep_action
from bot.rules.board.game import Action, SeatView
from bot.rules.board.search import BUDGETS, search_action

#: The levels a player picks, weakest first.
PLAYER_LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
#: The engine each player level plays as (the searching ones are their own engine).
ENGINES: dict[str, str] = {"easy": "greedy", "medium": "strong"}
#: Every level ``choose_action`` takes.
LEVELS: tuple[str, ...] = (*ONE_PLY, *PLAYER_LEVELS)
#: Levels slow enough to think off the event loop (tens of milliseconds and more).
SEARCHING: frozenset[str] = frozenset(BUDGETS)
#: Experiments ``board-sim`` plays and players are not offered (``deep``: ``deep.py``).
EXPERIMENTS: tuple[str, ...] = ("deep",)


def choose_action(view: SeatView, level: str, rng: random.Random) -> Action:
    """Pick a legal action for the viewer, who must be the seat to move."""
    if level == "deep":
        return deep_action(view, rng)
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: use one of {', '.join(LEVELS)}")
    budget = BUDGETS.get(level)
    if budget is not None:
        return search_action(view, budget, rng)
    return one_ply_action(view, ENGINES.get(level, level), rng)


def bot_steps(view: SeatView, level: str, seed: int) -> list[Action]:
    """``choose_action`` with a generator seeded by ``seed``, as a list of one step: what a
    worker process runs for a searching bot (it gets the seat's view only)."""
    return [choose_action(view, level, random.Random(seed))]
