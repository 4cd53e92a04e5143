"""The exact odds in words: plain-text tables for ``python -m bot odds``, and for players
(``/odds`` and its Full table button) the advice and short lines a phone shows whole."""

from __future__ import annotations

from dataclasses import dataclass
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


# --- for players: ``/odds`` and its Full table button --------------------------------------

# The longest line a player's answer may hold: an embed on a phone shows about 45-50
# characters a line, and a table whose lines wrap cannot be read as a table.
PHONE_LINE = 46


@dataclass(frozen=True)
class PlayerOdds:
    """What ``/odds`` shows: the plain advice and the chance that matters, then (behind a
    button) the full table in words. Every line fits ``PHONE_LINE``."""

    summary: tuple[str, ...]
    table: tuple[str, ...]


def player_odds(ruleset: str) -> PlayerOdds:
    if ruleset in ("standard", "reverse", "extended"):
        return _push_player(ruleset)  # type: ignore[arg-type]
    if ruleset == "sudden":
        return _sudden_player()
    if ruleset in oneroll.RULESETS:
        return _oneroll_player(ruleset)
    raise ValueError(f"unknown ruleset {ruleset!r}")


def _num(x: Fraction, digits: int = 2) -> str:
    """A figure as a player reads it: 1.26, 5, 17.3 (three significant figures or so)."""
    value = float(x)
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}" if value >= 10 else f"{value:.{digits}f}"


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.1f} %"


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _chance(p: Fraction) -> str:
    """A probability too small for one decimal of a percentage reads as "1 in N"."""
    if 0 < p < Fraction(1, 1000):
        return f"1 in {round(1 / p):,}"
    return _percent(p)


def _run_name(config: pl.PushConfig, run: int) -> str:
    return "-".join(str(f) for f in config.faces[:run])


def _runs_phrase(config: pl.PushConfig, runs: list[int], upto: int) -> str:
    """``[2, 3, 4, 5]`` as "1-2 or more" when they reach ``upto``, else each by name."""
    if len(runs) > 1 and runs == list(range(runs[0], upto + 1)):
        return f"{_run_name(config, runs[0])} or more"
    return " or ".join(_run_name(config, r) for r in runs)


def _push_player(v: pl.Variant) -> PlayerOdds:
    config = pl.PushConfig(variant=v)
    n = config.n_dice
    table = odds.push_table(v)
    pushes = [e.run for e in table[1:n] if e.best == "push"]
    banks = [e.run for e in table[1:n] if e.best == "bank"]
    full = table[n]
    advice = []
    if pushes:
        advice.append(f"• Push on {_runs_phrase(config, pushes, n - 1)}.")
    if banks:
        advice.append(f"• Bank as soon as you hold {_runs_phrase(config, banks, n - 1)}.")
    if full.best == "end":
        advice.append(f"• {_run_name(config, n)} ends the turn: {_num(full.value)} points.")
    elif full.best == "bank":
        assert full.ev_push is not None
        advice += [
            f"• With all {n} locked, bank {_num(full.value)}: the bonus",
            f"throw is worth only {_num(full.ev_push)} on average.",
        ]
    else:
        advice.append(f"• With all {n} locked, take the bonus throw.")
    # The chance that matters: the push you make, and the one you should not.
    chance = []
    last_push = table[pushes[-1]] if pushes else None
    first_bank = table[banks[0]] if banks else None
    opening = table[0]
    chance.append(f"First throw ({n} dice): {_percent(opening.p_bust)} bust.")
    for entry, verdict in ((last_push, "push"), (first_bank, "bank")):
        if entry is None:
            continue
        assert entry.ev_push is not None and entry.ev_bank is not None
        chance.append(
            f"Holding {_run_name(config, entry.run)}, a push of {_dice(entry.dice)} "
            f"busts {_percent(entry.p_bust)}"
        )
        chance.append(
            f"{'but' if verdict == 'push' else 'and'} is worth {_num(entry.ev_push)} against "
            f"{_num(entry.ev_bank)} banked: {verdict}."
        )
    ev = odds.optimal_turn_ev(v)
    summary = (
        "**Best play**",
        *advice,
        "**The chances**",
        *chance,
        f"Played so, a turn scores {_num(ev)} on average.",
        *(["Team games play the same, turn by turn."] if v == "standard" else []),
    )
    return PlayerOdds(summary, _push_table_words(v))


def _push_table_words(v: pl.Variant) -> tuple[str, ...]:
    config = pl.PushConfig(variant=v)
    n = config.n_dice
    lines = ["Worth: what the turn scores from there on", "average, played well after."]
    for entry in odds.push_table(v):
        if entry.run == 0:
            lines.append(f"**Start**: throw all {n} dice")
            lines.append(f"{_percent(entry.p_extend)} start a run, {_percent(entry.p_bust)} bust.")
            continue
        name = _run_name(config, entry.run)
        if entry.best == "end":
            lines.append(f"**{name}**: the turn ends, {_num(entry.value)} points")
            continue
        assert entry.ev_push is not None and entry.ev_bank is not None
        lines.append(f"**{name}** · best: {entry.best}")
        if entry.run == n:
            lines.append(
                f"Bonus throw: {_percent(entry.p_extend)} for {pl.BONUS_POINTS}, "
                f"worth {_num(entry.ev_push)}"
            )
        else:
            lines.append(
                f"Push {_dice(entry.dice)}: {_percent(entry.p_bust)} bust, "
                f"worth {_num(entry.ev_push)}"
            )
        lines.append(f"Bank: {_num(entry.ev_bank)}")
    lines.append("**Soft last die** (house rule)")
    hard, soft = odds.push_table(v), odds.push_table(v, True)
    for h, entry in zip(hard, soft, strict=True):
        if h.ev_push != entry.ev_push:
            assert entry.ev_push is not None
            what = "bonus" if entry.run == n else "push"
            lines.append(
                f"{_run_name(config, entry.run)}: {what} worth {_num(entry.ev_push)}, "
                f"best {entry.best}"
            )
    same = all(h.best == e.best for h, e in zip(hard, soft, strict=True))
    lines.append("The best play stays the same." if same else "The best play changes.")
    return tuple(lines)


def _sudden_plan(total: int, soft: bool) -> tuple[int | None, list[int], list[int]]:
    """Best Sudden play from ``total`` as players would say it: the longest run worth
    locking (None: lock every extending die), and the runs met on the way where one
    pushes and where one banks. Only the runs best play can reach are described."""
    config = pl.PushConfig(variant="sudden")
    n = config.n_dice
    row = odds.sudden_table(soft)[total]
    reached: set[int] = set()
    locks: list[tuple[int, int, int]] = []  # (run, extending dice, dice locked)
    todo = [0]
    while todo:
        run = todo.pop()
        entry = row[run]
        if run and entry.best != "push":
            continue
        for extend, k in entry.lock.items():
            locks.append((run, extend, k))
            if run + k not in reached:
                reached.add(run + k)
                todo.append(run + k)
    cap: int | None = None
    if any(k != extend for _, extend, k in locks):
        fits = [
            c
            for c in range(1, n)
            if all(run + k == min(run + extend, c) for run, extend, k in locks)
        ]
        if not fits:  # no single "lock up to" rule: every table so far has one (tested)
            raise ValueError(f"no lock rule for Sudden from {total}")
        cap = fits[0]
    runs = sorted(reached)
    return (
        cap,
        [r for r in runs if row[r].best == "push"],
        [r for r in runs if row[r].best != "push"],
    )


def _sudden_advice(total: int, soft: bool) -> list[str]:
    config = pl.PushConfig(variant="sudden")
    cap, pushes, banks = _sudden_plan(total, soft)
    top = cap or config.n_dice
    lines = []
    if cap == 1:
        lines.append("• Lock only the 1.")
    elif cap is not None:
        lines.append(f"• Never lock past {_run_name(config, cap)}.")
    words = []
    if pushes:
        words.append(f"push on {_runs_phrase(config, pushes, top)}")
    if banks:
        words.append(f"bank {_runs_phrase(config, banks, top)}")
    text = "; ".join(words)
    lines.append(f"• {text[0].upper()}{text[1:]}.")
    return lines


def _sudden_groups(soft: bool) -> list[tuple[int, int, list[str]]]:
    """Consecutive totals with the same advice: (first, last, advice lines)."""
    groups: list[tuple[int, int, list[str]]] = []
    for total in range(pl.SUDDEN_TARGET):
        advice = _sudden_advice(total, soft)
        if groups and groups[-1][2] == advice:
            groups[-1] = (groups[-1][0], total, advice)
        else:
            groups.append((total, total, advice))
    return groups


def _turns(total: int) -> str:
    return _num(odds.expected_turns_to_21(total))


def _sudden_player() -> PlayerOdds:
    groups = _sudden_groups(False)
    first, last, usual = groups[0]
    summary = [
        "**Best play** (exactly 21 wins)",
        f"• From {first} to {last}: " + usual[-1][2:].lower(),
        f"• From {last + 1}: never lock past the total",
        "you need: a bank past 21 scores 0.",
        "**The chances**",
        f"From 0, best play needs {_turns(0)} turns",
        f"on average; from {last + 1}, {_turns(last + 1)}.",
        f"First throw: {_percent(odds.extension_distribution(5)[0])} bust.",
    ]
    table = ["Best play by your total, and the turns", "it needs on average to reach 21."]
    for first, last, advice in groups:
        span = f"{first}–{last}" if last > first else f"{first}"
        turns = _turns(first) if last == first else f"{_turns(first)} to {_turns(last)}"
        lines = [f"**At {span}** · {turns} turns"]
        if first == last:
            lines[0] = f"**At {span}** (needs {pl.SUDDEN_TARGET - first}) · {turns} turns"
        table += lines + advice
    soft_same = _sudden_groups(True) == groups
    table.append("**Soft last die** (house rule)")
    table.append(
        "It changes no play you will meet." if soft_same else "It changes the best play near 21."
    )
    return PlayerOdds(tuple(summary), tuple(table))


def _oneroll_player(ruleset: oneroll.Ruleset) -> PlayerOdds:
    o = odds.oneroll_odds(ruleset)
    turns = odds.expected_turns_to_target(ruleset)
    summary = (
        "**No choices**: each turn is one throw",
        "of six dice; only luck decides.",
        "**The chances**",
        f"{_percent(o.p_no_score)} of throws score nothing",
        f"({_percent(o.p_penalty)} wipe your total: four 1s).",
        f"An average throw scores {_num(o.mean_points)}.",
        f"Reaching 100 takes {_num(turns)} turns on average.",
    )
    table = ["**Points from one throw**"]
    for points, p in o.points.items():
        if points:
            table.append(f"{points} points: {_chance(p)}")
    table.append(f"Nothing: {_percent(o.points.get(0, Fraction(0)))}")
    table.append(f"Four 1s (total wiped): {_percent(o.p_penalty)}")
    clean = odds.expected_turns_to_target(ruleset, penalty=False)
    table += [
        "**Reaching 100**",
        f"{_num(turns)} turns on average",
        f"({_num(clean)} if four 1s did not wipe)",
    ]
    for n in WITHIN:
        table.append(f"Within {n} turns: {_percent(odds.p_reach_within(ruleset, n))}")
    return PlayerOdds(summary, tuple(table))
