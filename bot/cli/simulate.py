"""``python -m bot simulate <ruleset> --turns N --seed S --policy <level>``: N turns with the real
rules core and seeded dice, one player alone, the empirical figures printed beside the exact ones.
"""

from __future__ import annotations

import argparse
import math
import sys
from fractions import Fraction

from bot.rules import dice_bots, odds, oneroll
from bot.rules import pushluck as pl
from bot.sim.dice import MAX_TURNS, play_oneroll_turns, play_push_turns

RULESETS: tuple[str, ...] = (*pl.VARIANTS, *oneroll.RULESETS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help=f"one of: {', '.join(RULESETS)}")
    parser.add_argument("--turns", type=int, default=20_000, help="turns to play (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    parser.add_argument(
        "--policy", default="optimal", help="cautious, bold or optimal (push-your-luck only)"
    )
    parser.add_argument("--soft", action="store_true", help="soft last die house rule")


def _mean_se(values: list[int]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    return mean, math.sqrt(var / n)


def _row(name: str, empirical: float, exact: Fraction, se: float | None = None) -> str:
    spread = "" if se is None else f" ± {se:.4f}"
    z = ""
    if se:
        z = f"  ({(empirical - float(exact)) / se:+.1f} se)"
    return f"  {name:34} {empirical:10.4f}{spread:10}  exact {float(exact):10.4f}{z}"


def run(args: argparse.Namespace) -> int:
    if args.ruleset not in RULESETS:
        return _fail(f"unknown ruleset {args.ruleset!r}: use one of {', '.join(RULESETS)}")
    if args.policy not in dice_bots.LEVELS:
        return _fail(f"unknown policy {args.policy!r}: use cautious, bold or optimal")
    if not 1 <= args.turns <= MAX_TURNS:
        return _fail(f"--turns is 1 to {MAX_TURNS}")
    if args.ruleset in oneroll.RULESETS:
        print("\n".join(report_oneroll(args.ruleset, args.turns, args.seed)))
    else:
        print("\n".join(report_push(args.ruleset, args.policy, args.turns, args.seed, args.soft)))
    return 0


def report_push(
    variant: pl.Variant, level: dice_bots.Level, turns: int, seed: int, soft: bool
) -> list[str]:
    config = pl.PushConfig(
        variant=variant, rounds=None if variant == "sudden" else pl.MAX_ROUNDS, soft_last_die=soft
    )
    sample = play_push_turns(config, level, turns, seed)
    policy = dice_bots.level_policy(level, variant, soft)
    lines = [f"{variant}, {level} bot, {turns} turns, seed {seed}, soft last die {soft}"]
    if variant == "sudden":
        games = sample.games_turns
        exact = odds.policy_turns_to_21(soft, policy)
        if games:
            mean, se = _mean_se(games)
            lines.append(_row(f"turns to exactly 21 ({len(games)} games)", mean, exact, se))
        else:
            lines.append(f"  no game reached 21 in {turns} turns; exact {float(exact):.4f}")
        return lines
    dist = odds.turn_score_distribution(variant, soft, policy)
    mean, se = _mean_se(sample.turn_points)
    ev = sum((s * p for s, p in dist.items()), start=Fraction(0))
    lines.append(_row("mean turn score", mean, ev, se))
    for score, p in sorted(dist.items()):
        share = sample.turn_points.count(score) / turns
        se_p = math.sqrt(float(p) * (1 - float(p)) / turns)
        lines.append(_row(f"P(turn scores {score})", share, p, se_p))
    return lines


def report_oneroll(ruleset: oneroll.Ruleset, turns: int, seed: int) -> list[str]:
    sample = play_oneroll_turns(ruleset, turns, seed)
    exact = odds.oneroll_odds(ruleset)
    n = len(sample.throws)
    lines = [f"{ruleset}, {n} throws, seed {seed}"]
    mean, se = _mean_se([s.points for s in sample.throws])
    lines.append(_row("mean points per throw", mean, exact.mean_points, se))
    for name, hits, p in (
        ("P(no score)", sum(s.points == 0 for s in sample.throws), exact.p_no_score),
        ("P(penalty)", sum(s.penalty for s in sample.throws), exact.p_penalty),
    ):
        lines.append(_row(name, hits / n, p, math.sqrt(float(p) * (1 - float(p)) / n)))
    games = sample.games_turns
    target = odds.expected_turns_to_target(ruleset)
    if len(games) >= 2:
        mean_t, se_t = _mean_se(games)
        lines.append(_row(f"turns to 100 ({len(games)} games)", mean_t, target, se_t))
    return lines


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
