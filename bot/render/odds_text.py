"""The exact odds as plain-text tables: for ``python -m bot odds`` and ``/odds``."""

from __future__ import annotations

from fractions import Fraction

from bot.rules import odds, oneroll
from bot.rules import pushluck as pl

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
