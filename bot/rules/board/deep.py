"""A search with roll-outs to the game's end (issue 34's "cheap check"), the ``board-sim`` level
``deep``, not offered to players; docs/board-rules.md, "The cheap check"."""

from __future__ import annotations

import random

from bot.rules.board.game import Action, SeatView
from bot.rules.board.kernel import compiled, playout_python
from bot.rules.board.search import candidates, clearly_better, sample_deal

DEALS = 64
WIDTH = 4
_CRN = 0x2545F4914F6CDD1D


def deep_action(
    view: SeatView, rng: random.Random, deals: int | None = None, width: int = WIDTH
) -> Action:
    """The move of the deep search over ``deals`` deals (``DEALS`` if not given); ``view``
    must be the seat to move."""
    weighed = candidates(view, rng, width)
    if not isinstance(weighed, list):
        return weighed
    count = DEALS if deals is None else deals
    values = _values(view, weighed, [rng.getrandbits(64) for _ in range(count)])
    top = weighed[0]
    best = max(weighed, key=lambda a: (sum(values[a]), -weighed.index(a)))
    return best if best != top and clearly_better(values[best], values[top]) else top


def _values(
    view: SeatView, candidates: list[Action], seeds: list[int]
) -> dict[Action, list[float]]:
    """Each candidate's result in each deal, for the viewer's side: 1, ½ or 0."""
    kernel = compiled()
    side = view.side
    values: dict[Action, list[float]] = {action: [] for action in candidates}
    for seed in seeds:
        state = sample_deal(view, random.Random(seed))
        prepared = None if kernel is None else kernel.prepare(state)
        for action in candidates:
            rng = random.Random(seed ^ _CRN)
            if kernel is None:
                result = playout_python(state, rng, first=action).result
            else:
                result = kernel.run(prepared, rng, first=action)
            values[action].append(1.0 if result == side else 0.0 if result >= 0 else 0.5)
    return values
