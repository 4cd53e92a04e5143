"""``python -m bot board-fit``: learn the weights of the strong board bot from its own games.

Example: ``python -m bot board-fit --games 3000 --seed 1``.
Plays ``strong`` against ``greedy`` in 2-seat games (first seat alternating), records the
``FEATURES`` of every position strong's move leaves and whether strong went on to win, fits
a logistic regression (Newton's method with a small ridge) and prints the new ``WEIGHTS``
to paste into ``bot/rules/board/bots.py``, with the fit's log loss and accuracy. Then
measure the new weights with ``board-sim`` before keeping them. ``--explore`` plays a random
one of strong's five best moves that often, so the fit also sees moves strong would not
choose. Pure Python; 3000 games take a few minutes on one core.
"""

from __future__ import annotations

import argparse
import sys
import time

from bot.rules.board.bots import FEATURES, WEIGHTS
from bot.sim.board_fit import collect, fit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="games to learn from")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run")
    parser.add_argument(
        "--explore", type=float, default=0.0, help="share of moves drawn from the best five"
    )


def run(args: argparse.Namespace) -> int:
    if args.games < 2 or not 0.0 <= args.explore <= 1.0:
        print("error: --games must be at least 2 and --explore between 0 and 1", file=sys.stderr)
        return 2
    started = time.perf_counter()
    rows, labels = collect(args.games, args.seed, args.explore)
    played = time.perf_counter() - started
    weights, loss, accuracy = fit(rows, labels)
    print(
        f"{args.games} games, {len(rows)} positions in {played:.0f} s; "
        f"log loss {loss:.4f}, accuracy {accuracy:.1%}"
    )
    print(f"current weights: {', '.join(f'{w:.4g}' for w in WEIGHTS)}")
    print("WEIGHTS: tuple[float, ...] = (")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"    {weight:.4g},  # {name}")
    print(")")
    return 0
