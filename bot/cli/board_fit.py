"""``python -m bot board-fit``: learn the strong board bot's ``WEIGHTS`` (or with ``--calibrate``
its ``CALIBRATION``) from its games against greedy; docs/board-rules.md, "The tools: board-sim and
board-fit"."""

from __future__ import annotations

import argparse
import math
import sys
import time

from bot.rules.board.bots import FEATURES, WEIGHTS, score
from bot.sim.board_fit import brier, calibrate, collect, fit, reliability


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="games to learn from")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run")
    parser.add_argument(
        "--explore", type=float, default=0.0, help="share of moves drawn from the best five"
    )
    parser.add_argument(
        "--calibrate", action="store_true", help="fit CALIBRATION and report it on held-out games"
    )
    parser.add_argument(
        "--holdout", type=int, default=1000, help="held-out games of --calibrate (default 1000)"
    )


def _logistic(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))


def _run_calibrate(args: argparse.Namespace) -> int:
    rows, labels = collect(args.games, args.seed)
    held_rows, held_labels = collect(args.holdout, args.seed + 1)
    scale, intercept = calibrate([score(row) for row in rows], labels)
    weights, refit_intercept, _, _ = fit(rows, labels)
    held = [score(row) for row in held_rows]
    kinds = {
        "sigmoid(score)": [_logistic(value) for value in held],
        "calibrated": [_logistic(scale * value + intercept) for value in held],
        "refit": [
            _logistic(refit_intercept + sum(w * x for w, x in zip(weights, row, strict=True)))
            for row in held_rows
        ],
    }
    print(
        f"fitted on {args.games} games ({len(rows)} positions, seed {args.seed}); held out"
        f" {args.holdout} games ({len(held_rows)} positions, seed {args.seed + 1})"
    )
    print(f"CALIBRATION: tuple[float, float] = ({scale:.4g}, {intercept:.4g})")
    for name, probabilities in kinds.items():
        print(f"  Brier score, {name}: {brier(probabilities, held_labels):.4f}")
    print("  decile | positions | sigmoid(score) | calibrated | won")
    raw = reliability(kinds["sigmoid(score)"], held_labels)
    for b, (n, mean, won) in enumerate(reliability(kinds["calibrated"], held_labels)):
        print(f"  {b + 1:>6} | {n:>9} | {raw[b][1]:>14.3f} | {mean:>10.3f} | {won:.3f}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.games < 2 or not 0.0 <= args.explore <= 1.0:
        print("error: --games must be at least 2 and --explore between 0 and 1", file=sys.stderr)
        return 2
    if args.calibrate:
        if args.holdout < 2:
            print("error: --holdout must be at least 2", file=sys.stderr)
            return 2
        return _run_calibrate(args)
    started = time.perf_counter()
    rows, labels = collect(args.games, args.seed, args.explore)
    played = time.perf_counter() - started
    weights, intercept, loss, accuracy = fit(rows, labels)
    print(
        f"{args.games} games, {len(rows)} positions in {played:.0f} s; "
        f"log loss {loss:.4f}, accuracy {accuracy:.1%}"
    )
    print(f"current weights: {', '.join(f'{w:.4g}' for w in WEIGHTS)}")
    print(f"intercept of the new weights: {intercept:.4g} (strong's order leaves it out)")
    print("WEIGHTS: tuple[float, ...] = (")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"    {weight:.4g},  # {name}")
    print(")")
    return 0
