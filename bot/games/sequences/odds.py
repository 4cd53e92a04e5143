"""What ``/odds`` shows for push-your-luck Sequences and Sudden: the best play in words and
the chances that matter, worked out from the exact tables of ``bot.rules.odds``."""

from __future__ import annotations

from fractions import Fraction

from bot.games.base import OddsPage
from bot.render.odds_text import PlayerOdds, dice, num, percent
from bot.rules import odds
from bot.rules import pushluck as pl


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
        advice.append(f"• {_run_name(config, n)} ends the turn: {num(full.value)} points.")
    elif full.best == "bank":
        assert full.ev_push is not None
        advice += [
            f"• With all {n} locked, bank {num(full.value)}: the bonus",
            f"throw is worth only {num(full.ev_push)} on average.",
        ]
    else:
        advice.append(f"• With all {n} locked, take the bonus throw.")
    # The chance that matters: the push you make, and the one you should not.
    chance = []
    last_push = table[pushes[-1]] if pushes else None
    first_bank = table[banks[0]] if banks else None
    opening = table[0]
    chance.append(f"First throw ({n} dice): {percent(opening.p_bust)} bust.")
    for entry, verdict in ((last_push, "push"), (first_bank, "bank")):
        if entry is None:
            continue
        assert entry.ev_push is not None and entry.ev_bank is not None
        chance.append(
            f"Holding {_run_name(config, entry.run)}, a push of {dice(entry.dice)} "
            f"busts {percent(entry.p_bust)}"
        )
        chance.append(
            f"{'but' if verdict == 'push' else 'and'} is worth {num(entry.ev_push)} against "
            f"{num(entry.ev_bank)} banked: {verdict}."
        )
    ev = odds.optimal_turn_ev(v)
    summary = (
        "**Best play**",
        *advice,
        "**The chances**",
        *chance,
        f"Played so, a turn scores {num(ev)} on average.",
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
            lines.append(f"{percent(entry.p_extend)} start a run, {percent(entry.p_bust)} bust.")
            continue
        name = _run_name(config, entry.run)
        if entry.best == "end":
            lines.append(f"**{name}**: the turn ends, {num(entry.value)} points")
            continue
        assert entry.ev_push is not None and entry.ev_bank is not None
        lines.append(f"**{name}** · best: {entry.best}")
        if entry.run == n:
            lines.append(
                f"Bonus throw: {percent(entry.p_extend)} for {pl.BONUS_POINTS}, "
                f"worth {num(entry.ev_push)}"
            )
        else:
            lines.append(
                f"Push {dice(entry.dice)}: {percent(entry.p_bust)} bust, worth {num(entry.ev_push)}"
            )
        lines.append(f"Bank: {num(entry.ev_bank)}")
    lines.append("**Soft last die** (house rule)")
    hard, soft = odds.push_table(v), odds.push_table(v, True)
    for h, entry in zip(hard, soft, strict=True):
        if h.ev_push != entry.ev_push:
            assert entry.ev_push is not None
            what = "bonus" if entry.run == n else "push"
            lines.append(
                f"{_run_name(config, entry.run)}: {what} worth {num(entry.ev_push)}, "
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
    return num(odds.expected_turns_to_21(total))


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
        f"First throw: {percent(odds.extension_distribution(5)[0])} bust.",
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


# /odds' entries for these games: Team plays turn by turn as Standard does.
ODDS_PAGES = (
    OddsPage(
        "standard",
        "Sequences: standard (also Team)",
        "sequences:standard",
        lambda: _push_player("standard"),
    ),
    OddsPage("reverse", "Sequences: reverse", "sequences:reverse", lambda: _push_player("reverse")),
    OddsPage(
        "extended",
        "Sequences: extended (6 dice)",
        "sequences:extended",
        lambda: _push_player("extended"),
    ),
    OddsPage("sudden", "Sequences: sudden (exactly 21)", "sequences:sudden", _sudden_player),
)


# --- the Odds button: the advice of bot.rules.odds in words ---------------------------------


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}"


def advice_text(advice: odds.Advice) -> str:
    """What the Odds button says: the chances of the throw faced and the advised move."""
    goal = odds.SUDDEN_GOAL
    if advice.phase == "throw":
        start = f"Throw: {_pct(advice.p_extend)} to start a run, {_pct(advice.p_bust)} to bust"
        if advice.sudden:
            assert advice.turns is not None
            return (
                f"{start}; from {advice.total}, best play needs {_num(advice.turns)} turns "
                f"on average to reach exactly {goal}."
            )
        assert advice.ev_push is not None
        return f"{start}; best play makes this turn worth {_num(advice.ev_push)} points on average."
    if advice.phase == "lock":
        k, extend = advice.lock, advice.extend
        if k == extend:
            what = "Lock the extending die" if k == 1 else f"Lock all {k} extending dice"
        else:
            what = f"Lock {k} of the {extend} extending dice"
        if advice.full_run is not None:
            return f"{what}: the full run ends the turn with {advice.full_run} points."
        return f"{what}, then {advice.then}. {_decide_text(advice)}"
    return _decide_text(advice)


def _decide_text(advice: odds.Advice) -> str:
    goal = odds.SUDDEN_GOAL
    move = advice.then or advice.best
    bonus = advice.bonus
    if bonus:
        chance = _pct(Fraction(1, 6))
        throw = f"Bonus throw: {chance} to throw the {advice.bonus_face} for "
        chances = f"{throw}{advice.bonus_points} points, {_pct(advice.p_bust)} to bust"
    else:
        chances = f"Push: {_pct(advice.p_extend)} to extend, {_pct(advice.p_bust)} to bust"
    if advice.sudden:
        assert advice.turns_push is not None and advice.turns_bank is not None
        after = "after the bonus throw" if bonus else "after pushing"
        bank_words = f"after banking {_num(advice.turns_bank)}"
        if advice.bank_total > goal:
            bank_words = f"banking would pass {goal} and score nothing ({_num(advice.turns_bank)})"
        elif advice.bank_total == goal:
            bank_words = f"banking reaches {goal} and wins"
        return (
            f"{chances}; {after} you need {_num(advice.turns_push)} more turns on average "
            f"to reach exactly {goal}, {bank_words}: {move}."
        )
    assert advice.ev_push is not None and advice.ev_bank is not None
    doing = "the bonus throw is" if bonus else "pushing is"
    return (
        f"{chances}; {doing} worth {_num(advice.ev_push)} points on average, banking is "
        f"worth {_num(advice.ev_bank)}: {move}."
    )
