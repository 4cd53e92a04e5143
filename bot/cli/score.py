"""``python -m bot score <classic|heartsdue> <dice...>``: score one throw of six dice."""

from __future__ import annotations

import argparse
import json
import sys

from bot.rules import oneroll


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # Plain strings, checked here, so bad input gets one clear line instead of a usage dump.
    parser.add_argument("ruleset", help="classic or heartsdue")
    parser.add_argument("dice", nargs="*", help="the six faces, e.g. 1 2 2 3 4 6")


def run(args: argparse.Namespace) -> int:
    if args.ruleset not in oneroll.RULESETS:
        return _fail(f"unknown ruleset {args.ruleset!r}: use classic or heartsdue")
    try:
        dice = [int(face) for face in args.dice]
    except ValueError:
        return _fail(f"dice must be whole numbers 1 to 6, got {' '.join(args.dice)!r}")
    try:
        score = oneroll.score_throw(args.ruleset, dice)
    except ValueError as error:
        return _fail(str(error))
    runs = [list(run) for run in score.runs]
    print(json.dumps({"points": score.points, "penalty": score.penalty, "runs": runs}))
    return 0


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
