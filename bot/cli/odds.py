"""``python -m bot odds [--json] [--ruleset R]``: the exact odds of every game, as tables."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any

from bot.rules import dice_bots, odds, oneroll
from bot.rules import pushluck as pl

PUSH_RULESETS: tuple[pl.Variant, ...] = ("standard", "reverse", "extended", "sudden")
RULESETS: tuple[str, ...] = (*PUSH_RULESETS, *oneroll.RULESETS)
WITHIN = (9, 10, 20)


def _f(x: Fraction | None, digits: int = 3) -> str:
    return "-" if x is None else f"{float(x):.{digits}f}"


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:5.1f} %"


def push_text(v: pl.Variant) -> str:
    lines = []
    for soft in (False, True):
        table = odds.push_table(v, soft)
        title = f"{v}{' (team plays the same per turn)' if v == 'standard' else ''}"
        ev = odds.optimal_turn_ev(v, soft)
        lines.append(
            f"{title}, soft last die {'on' if soft else 'off'}: optimal turn EV {_f(ev, 4)} "
            f"({ev.numerator}/{ev.denominator})"
        )
        lines.append(" run dice  P(extend)   P(bust)  EV push  EV bank  best   lock")
        for e in table:
            lock = "all" if all(k == j for j, k in e.lock.items()) else str(dict(e.lock))
            lines.append(
                f" {e.run:3} {e.dice:4}  {_pct(e.p_extend)}  {_pct(e.p_bust)}  "
                f"{_f(e.ev_push):>7}  {_f(e.ev_bank):>7}  {e.best:5}  {lock}"
            )
        bank_at = ", ".join(
            f"{k}: {_f(odds.threshold_turn_ev(v, soft, k))}"
            for k in range(1, pl.PushConfig(variant=v).n_dice + 2)
        )
        lines.append(f" fixed 'bank at k' policies: {bank_at}")
    return "\n".join(lines)


def sudden_text() -> str:
    lines = []
    for soft in (False, True):
        turns = odds.expected_turns_to_21(0, soft)
        lines.append(
            f"sudden, soft last die {'on' if soft else 'off'}: "
            f"expected turns to exactly 21 from 0 = {_f(turns, 4)}"
        )
        lines.append(" total  E[turns]  best at run 1..5 (locks fewer where noted)")
        for t, row in enumerate(odds.sudden_table(soft)):
            parts = []
            for e in row[1:]:
                fewer = {j: k for j, k in e.lock.items() if k != j}
                parts.append(e.best + (f" lock{fewer}" if fewer else ""))
            first = row[0].lock
            fewer0 = {j: k for j, k in first.items() if k != j}
            note = f"  first throw lock{fewer0}" if fewer0 else ""
            lines.append(
                f" {t:5}  {_f(odds.expected_turns_to_21(t, soft), 3):>8}  {', '.join(parts)}{note}"
            )
    return "\n".join(lines)


def oneroll_text(ruleset: oneroll.Ruleset) -> str:
    o = odds.oneroll_odds(ruleset)
    lines = [f"{ruleset}: one throw of six dice"]
    lines.append(" points  probability")
    for points, p in o.points.items():
        lines.append(f" {points:6}  {_pct(p)}  ({p.numerator}/{p.denominator})")
    lines.append(f" penalty {_pct(o.p_penalty)}  ({o.p_penalty})")
    lines.append(f" P(no score, penalty included) = {_pct(o.p_no_score)}")
    lines.append(f" mean points per throw = {_f(o.mean_points, 4)}")
    turns = odds.expected_turns_to_target(ruleset)
    clean = odds.expected_turns_to_target(ruleset, penalty=False)
    lines.append(f" expected turns to 100 = {_f(turns, 3)} (without the penalty {_f(clean, 3)})")
    within = ", ".join(f"{n}: {_pct(odds.p_reach_within(ruleset, n))}" for n in WITHIN)
    lines.append(f" P(reach 100 within n turns): {within}")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object, exact p/q values")
    parser.add_argument("--ruleset", help=f"only one of: {', '.join(RULESETS)}")


def exact(x: Fraction | None) -> dict[str, Any] | None:
    if x is None:
        return None
    return {"exact": f"{x.numerator}/{x.denominator}", "float": float(x)}


def _push_entry(entry: odds.StateOdds) -> dict[str, Any]:
    return {
        "run": entry.run,
        "dice": entry.dice,
        "p_extend": exact(entry.p_extend),
        "p_bust": exact(entry.p_bust),
        "ev_push": exact(entry.ev_push),
        "ev_bank": exact(entry.ev_bank),
        "best": entry.best,
        "lock": {str(extend): k for extend, k in entry.lock.items()},
    }


def _push_figures(variant: pl.Variant, soft: bool) -> dict[str, Any]:
    table = odds.push_table(variant, soft)
    levels = {
        level: exact(odds.policy_turn_ev(variant, soft, dice_bots.level_policy(level, variant)))
        for level in dice_bots.LEVELS
    }
    n_dice = pl.PushConfig(variant=variant).n_dice
    return {
        "optimal_turn_ev": exact(odds.optimal_turn_ev(variant, soft)),
        "policy": [_push_entry(entry) for entry in table],
        "bank_at": {
            str(k): exact(odds.threshold_turn_ev(variant, soft, k)) for k in range(1, n_dice + 2)
        },
        "levels_turn_ev": levels,
    }


def _sudden_figures(soft: bool) -> dict[str, Any]:
    table = odds.sudden_table(soft)
    levels = {
        level: exact(odds.policy_turns_to_21(soft, dice_bots.level_policy(level, "sudden")))
        for level in dice_bots.LEVELS
    }
    first_turn = odds.policy_turn_ev("sudden", soft, odds.OptimalPolicy("sudden", soft))
    return {
        # From 0 the Sudden policy is the five-dice one, so its first turn scores like it.
        "optimal_turn_ev": exact(first_turn),
        "optimal_turn_ev_note": "expected points of a turn from a total of 0 under the "
        "policy that minimises the expected number of turns to exactly 21",
        "expected_turns_to_21": exact(odds.expected_turns_to_21(0, soft)),
        "expected_turns_to_21_from": {
            str(t): exact(odds.expected_turns_to_21(t, soft)) for t in range(odds.SUDDEN_GOAL)
        },
        "policy": [
            [
                {
                    "total": e.total,
                    "run": e.run,
                    "dice": e.dice,
                    "p_extend": exact(e.p_extend),
                    "p_bust": exact(e.p_bust),
                    "turns_push": exact(e.turns_push),
                    "turns_bank": exact(e.turns_bank),
                    "best": e.best,
                    "lock": {str(extend): k for extend, k in e.lock.items()},
                }
                for e in row
            ]
            for row in table
        ],
        "levels_turns_to_21": levels,
    }


def _oneroll_figures(ruleset: oneroll.Ruleset) -> dict[str, Any]:
    o = odds.oneroll_odds(ruleset)
    return {
        "points": {str(points): exact(p) for points, p in o.points.items()},
        "p_no_score": exact(o.p_no_score),
        "p_penalty": exact(o.p_penalty),
        "mean_points": exact(o.mean_points),
        "expected_turns_to_100": exact(odds.expected_turns_to_target(ruleset)),
        "expected_turns_to_100_without_penalty": exact(
            odds.expected_turns_to_target(ruleset, penalty=False)
        ),
        "p_reach_100_within": {str(n): exact(odds.p_reach_within(ruleset, n)) for n in WITHIN},
    }


def figures(ruleset: str) -> dict[str, Any]:
    """The JSON figures of one ruleset (push-your-luck also with the soft last die)."""
    if ruleset == "sudden":
        return {**_sudden_figures(False), "soft_last_die": _sudden_figures(True)}
    for variant in PUSH_RULESETS:
        if ruleset == variant:
            return {**_push_figures(variant, False), "soft_last_die": _push_figures(variant, True)}
    for name in oneroll.RULESETS:
        if ruleset == name:
            return _oneroll_figures(name)
    raise ValueError(f"unknown ruleset {ruleset!r}")


def run(args: argparse.Namespace) -> int:
    chosen = RULESETS if args.ruleset is None else (args.ruleset,)
    if args.ruleset is not None and args.ruleset not in RULESETS:
        print(
            f"error: unknown ruleset {args.ruleset!r}: use one of {', '.join(RULESETS)}",
            file=sys.stderr,
        )
        return 2
    if args.json:
        print(json.dumps({name: figures(name) for name in chosen}, indent=1))
        return 0
    blocks = []
    for name in chosen:
        if name == "sudden":
            blocks.append(sudden_text())
        for variant in PUSH_RULESETS:
            if name == variant != "sudden":
                blocks.append(push_text(variant))
        for ruleset in oneroll.RULESETS:
            if name == ruleset:
                blocks.append(oneroll_text(ruleset))
    print("\n\n".join(blocks))
    return 0
