"""The board bot levels, by the names players see (easy, medium, hard, expert) and by the names of
the engines; ``random``, ``greedy`` and ``strong`` stay valid, for tables saved with them,
``board-sim`` and the tests (docs/board-rules.md, "Levels players pick")."""

from __future__ import annotations

import random

from bot.rules.board.bots import LEVELS as ONE_PLY
from bot.rules.board.bots import one_ply_action
from bot.rules.board.deep import deep_action
from bot.rules.board.game import Action, SeatView
from bot.rules.board.search import BUDGETS, EXPERIMENT_BUDGETS, search_action

#: The levels a player picks, weakest first.
PLAYER_LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
#: The engine each player level plays as (the searching ones are their own engine).
ENGINES: dict[str, str] = {"easy": "greedy", "medium": "strong"}
#: Every level ``choose_action`` takes.
LEVELS: tuple[str, ...] = (*ONE_PLY, *PLAYER_LEVELS)
#: Levels slow enough to think off the event loop (tens of milliseconds and more).
SEARCHING: frozenset[str] = frozenset(BUDGETS)
#: Levels whose move the view alone fixes (strong's exact ties all but never happen): two of
#: them in duplicate play measure nothing (``board-sim --league`` flags it).
DETERMINISTIC: frozenset[str] = frozenset({"strong", "medium"})
#: Experiments ``board-sim`` plays and players are not offered (``deep``: ``deep.py``; the
#: searches with inference over the opponent's hand: ``inference.py``).
EXPERIMENTS: tuple[str, ...] = ("deep", *EXPERIMENT_BUDGETS)


def engine_of(level: str) -> str:
    """The engine a level plays as (``easy``: ``greedy``; a searching level is its own)."""
    return ENGINES.get(level, level)


def choose_action(view: SeatView, level: str, rng: random.Random) -> Action:
    """Pick a legal action for the viewer, who must be the seat to move."""
    if level == "deep":
        return deep_action(view, rng)
    if level in EXPERIMENT_BUDGETS:
        return search_action(view, EXPERIMENT_BUDGETS[level], rng)
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: use one of {', '.join(LEVELS)}")
    budget = BUDGETS.get(level)
    if budget is not None:
        return search_action(view, budget, rng)
    return one_ply_action(view, engine_of(level), rng)


def bot_steps(view: SeatView, level: str, seed: int) -> list[Action]:
    """``choose_action`` with a generator seeded by ``seed``, as a list of one step: what a
    worker process runs for a searching bot (it gets the seat's view only)."""
    return [choose_action(view, level, random.Random(seed))]
