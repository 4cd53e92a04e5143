"""What ``/odds`` shows for push-your-luck Sequences and Sudden: the best play in words and
the chances that matter, worked out from the exact tables of ``bot.rules.odds``."""

from __future__ import annotations

from fractions import Fraction

from babel.numbers import format_decimal

from bot.games.base import OddsPage
from bot.i18n.speaking import _, current, number, pgettext
from bot.render.odds_text import PlayerOdds, dice, num, percent
from bot.rules import odds
from bot.rules import pushluck as pl

# TRANSLATORS (the /odds lines): a sentence is one line, which Discord wraps to the
# screen: write no line break in it. The full table's short lines (a figure each) keep
# within 46 characters, so a phone shows each whole.


def _run_name(config: pl.PushConfig, run: int) -> str:
    return "-".join(str(f) for f in config.faces[:run])


def _runs_phrase(config: pl.PushConfig, runs: list[int], upto: int) -> str:
    """``[2, 3, 4, 5]`` as "1-2 or more" when they reach ``upto``, else each by name."""
    if len(runs) > 1 and runs == list(range(runs[0], upto + 1)):
        # TRANSLATORS: a run held and every longer one: "1-2 or more".
        return _("%(run)s or more", run=_run_name(config, runs[0]))
    names = [_run_name(config, r) for r in runs]
    if len(names) == 1:
        return names[0]
    # TRANSLATORS: runs to choose from: "1 or 1-2"; %(runs)s may list several, "1, 1-2".
    return _("%(runs)s or %(run)s", runs=", ".join(names[:-1]), run=names[-1])


def _best_word(best: str) -> str:
    """The best move of a table's row, as the row names it (``Best`` of bot.rules.odds)."""
    # TRANSLATORS: the best move, as in "best: bank" (push = throw the rest again).
    words = {
        "bank": pgettext("move", "bank"),
        "push": pgettext("move", "push"),
        "bonus": pgettext("move", "bonus"),
        "end": pgettext("move", "end"),
        "throw": pgettext("move", "throw"),
    }
    return words.get(best, best)


def _push_player(v: pl.Variant) -> PlayerOdds:
    config = pl.PushConfig(variant=v)
    n = config.n_dice
    table = odds.push_table(v)
    pushes = [e.run for e in table[1:n] if e.best == "push"]
    banks = [e.run for e in table[1:n] if e.best == "bank"]
    full = table[n]
    advice = []
    if pushes:
        advice.append(_("• Push on %(runs)s.", runs=_runs_phrase(config, pushes, n - 1)))
    if banks:
        advice.append(
            _("• Bank as soon as you hold %(runs)s.", runs=_runs_phrase(config, banks, n - 1))
        )
    if full.best == "end":
        advice.append(
            _(
                "• %(run)s ends the turn: %(points)s points.",
                run=_run_name(config, n),
                points=num(full.value),
            )
        )
    elif full.best == "bank":
        assert full.ev_push is not None
        advice.append(
            _(
                "• With all %(count)s locked, bank %(value)s: the bonus "
                "throw is worth only %(bonus)s on average.",
                count=number(n),
                value=num(full.value),
                bonus=num(full.ev_push),
            )
        )
    else:
        advice.append(_("• With all %(count)s locked, take the bonus throw.", count=number(n)))
    # The chance that matters: the push you make, and the one you should not.
    chance = []
    last_push = table[pushes[-1]] if pushes else None
    first_bank = table[banks[0]] if banks else None
    opening = table[0]
    chance.append(
        _("First throw (%(dice)s): %(bust)s bust.", dice=dice(n), bust=percent(opening.p_bust))
    )
    for entry, verdict in ((last_push, "push"), (first_bank, "bank")):
        if entry is None:
            continue
        assert entry.ev_push is not None and entry.ev_bank is not None
        values = {
            "run": _run_name(config, entry.run),
            "dice": dice(entry.dice),
            "bust": percent(entry.p_bust),
            "push": num(entry.ev_push),
            "bank": num(entry.ev_bank),
        }
        if verdict == "push":
            chance.append(
                _(
                    "Holding %(run)s, a push of %(dice)s busts %(bust)s "
                    "but is worth %(push)s against %(bank)s banked: push.",
                    **values,
                )
            )
        else:
            chance.append(
                _(
                    "Holding %(run)s, a push of %(dice)s busts %(bust)s "
                    "and is worth %(push)s against %(bank)s banked: bank.",
                    **values,
                )
            )
    ev = odds.optimal_turn_ev(v)
    summary = (
        _("**Best play**"),
        *advice,
        _("**The chances**"),
        *chance,
        _("Played so, a turn scores %(points)s on average.", points=num(ev)),
        *([_("Team games play the same, turn by turn.")] if v == "standard" else []),
    )
    return PlayerOdds(summary, _push_table_words(v))


def _push_table_words(v: pl.Variant) -> tuple[str, ...]:
    config = pl.PushConfig(variant=v)
    n = config.n_dice
    lines = [_("Worth: what the turn scores from there on average, played well after.")]
    for entry in odds.push_table(v):
        if entry.run == 0:
            lines.append(_("**Start**: throw all %(count)s dice", count=number(n)))
            lines.append(
                _(
                    "%(start)s start a run, %(bust)s bust.",
                    start=percent(entry.p_extend),
                    bust=percent(entry.p_bust),
                )
            )
            continue
        name = _run_name(config, entry.run)
        if entry.best == "end":
            lines.append(
                _(
                    "**%(run)s**: the turn ends, %(points)s points",
                    run=name,
                    points=num(entry.value),
                )
            )
            continue
        assert entry.ev_push is not None and entry.ev_bank is not None
        lines.append(_("**%(run)s** · best: %(move)s", run=name, move=_best_word(entry.best)))
        if entry.run == n:
            lines.append(
                _(
                    "Bonus throw: %(chance)s for %(points)s, worth %(worth)s",
                    chance=percent(entry.p_extend),
                    points=number(pl.BONUS_POINTS),
                    worth=num(entry.ev_push),
                )
            )
        else:
            lines.append(
                _(
                    "Push %(dice)s: %(bust)s bust, worth %(worth)s",
                    dice=dice(entry.dice),
                    bust=percent(entry.p_bust),
                    worth=num(entry.ev_push),
                )
            )
        lines.append(_("Bank: %(worth)s", worth=num(entry.ev_bank)))
    lines.append(_("**Soft last die** (house rule)"))
    hard, soft = odds.push_table(v), odds.push_table(v, True)
    for h, entry in zip(hard, soft, strict=True):
        if h.ev_push != entry.ev_push:
            assert entry.ev_push is not None
            values = {
                "run": _run_name(config, entry.run),
                "worth": num(entry.ev_push),
                "move": _best_word(entry.best),
            }
            if entry.run == n:
                lines.append(_("%(run)s: bonus worth %(worth)s, best %(move)s", **values))
            else:
                lines.append(_("%(run)s: push worth %(worth)s, best %(move)s", **values))
    same = all(h.best == e.best for h, e in zip(hard, soft, strict=True))
    lines.append(_("The best play stays the same.") if same else _("The best play changes."))
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
    if any(k != extend for _run, extend, k in locks):
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


def _sudden_plays(total: int, soft: bool) -> tuple[str | None, str]:
    """The best Sudden play from ``total``: the lock rule's line (if any), and what to push
    and bank on as a phrase to end a line ("push on 1; bank 1-2 or more")."""
    config = pl.PushConfig(variant="sudden")
    cap, pushes, banks = _sudden_plan(total, soft)
    top = cap or config.n_dice
    lock = None
    if cap == 1:
        lock = _("• Lock only the 1.")
    elif cap is not None:
        lock = _("• Never lock past %(run)s.", run=_run_name(config, cap))
    push_on = _runs_phrase(config, pushes, top) if pushes else ""
    bank_on = _runs_phrase(config, banks, top) if banks else ""
    # TRANSLATORS: %(push)s and %(bank)s are runs ("1", "1-2 or more"); the phrase ends a
    # line after "• " or "• From 0 to 15: " (lowercase there, as the English).
    if push_on and bank_on:
        play = _("push on %(push)s; bank %(bank)s", push=push_on, bank=bank_on)
    elif push_on:
        play = _("push on %(push)s", push=push_on)
    else:
        play = _("bank %(bank)s", bank=bank_on)
    return lock, play


def _sudden_advice(total: int, soft: bool) -> list[str]:
    lock, play = _sudden_plays(total, soft)
    return [*([lock] if lock else []), f"• {play[:1].upper()}{play[1:]}."]


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
    first, last, _advice = groups[0]
    _lock, usual = _sudden_plays(first, False)
    values = {
        "first": number(first),
        "last": number(last),
        "next": number(last + 1),
        "target": number(pl.SUDDEN_TARGET),
    }
    summary = [
        _("**Best play** (exactly %(target)s wins)", **values),
        _("• From %(first)s to %(last)s: %(play)s.", play=usual, **values),
        _(
            "• From %(next)s: never lock past the total you need: a bank past %(target)s scores 0.",
            **values,
        ),
        _("**The chances**"),
        _(
            "From 0, best play needs %(turns)s turns on average; from %(next)s, %(more)s.",
            turns=_turns(0),
            more=_turns(last + 1),
            **values,
        ),
        _("First throw: %(bust)s bust.", bust=percent(odds.extension_distribution(5)[0])),
    ]
    table = [
        _(
            "Best play by your total, and the turns it needs on average to reach %(target)s.",
            **values,
        )
    ]
    for first, last, advice in groups:
        if last == first:
            head = _(
                "**At %(total)s** (needs %(needed)s) · %(turns)s turns",
                total=number(first),
                needed=number(pl.SUDDEN_TARGET - first),
                turns=_turns(first),
            )
        else:
            head = _(
                "**At %(first)s–%(last)s** · %(turns)s to %(most)s turns",
                first=number(first),
                last=number(last),
                turns=_turns(first),
                most=_turns(last),
            )
        table += [head, *advice]
    soft_same = _sudden_groups(True) == groups
    table.append(_("**Soft last die** (house rule)"))
    table.append(
        _("It changes no play you will meet.")
        if soft_same
        else _("It changes the best play near %(target)s.", **values)
    )
    return PlayerOdds(tuple(summary), tuple(table))


# /odds' entries for these games: Team plays turn by turn as Standard does. The choices
# are the command tree's (the ``commands`` catalogue translates them).
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
    return percent(p)


def _num(x: Fraction) -> str:
    """A figure of the advice: two decimals always (14.58 turns), the reader's way."""
    if x.denominator == 1:
        return number(x.numerator)
    return format_decimal(float(x), format="#,##0.00", locale=current().babel)


def advice_text(advice: odds.Advice) -> str:
    """What the Odds button says: the chances of the throw faced and the advised move."""
    goal = number(odds.SUDDEN_GOAL)
    if advice.phase == "throw":
        start = {"start": _pct(advice.p_extend), "bust": _pct(advice.p_bust)}
        if advice.sudden:
            assert advice.turns is not None
            return _(
                "Throw: %(start)s to start a run, %(bust)s to bust; from %(total)s, best play "
                "needs %(turns)s turns on average to reach exactly %(goal)s.",
                total=number(advice.total),
                turns=_num(advice.turns),
                goal=goal,
                **start,
            )
        assert advice.ev_push is not None
        return _(
            "Throw: %(start)s to start a run, %(bust)s to bust; best play makes this turn "
            "worth %(worth)s points on average.",
            worth=_num(advice.ev_push),
            **start,
        )
    if advice.phase == "lock":
        k, extend = advice.lock, advice.extend
        assert k is not None and extend is not None
        if advice.full_run is not None:
            return _lock_words(k, extend, advice.full_run)
        then = _best_word(advice.then or "")
        return f"{_lock_then(k, extend, then)} {_decide_text(advice)}"
    return _decide_text(advice)


def _lock_words(k: int, extend: int, full_run: int) -> str:
    """Lock these dice: the full run (Extended) ends the turn with its points."""
    points = number(full_run)
    if k == extend == 1:
        return _("Lock the extending die: the full run ends the turn with %(points)s points.",
                 points=points)  # fmt: skip
    if k == extend:
        return _(
            "Lock all %(count)s extending dice: the full run ends the turn with %(points)s points.",
            count=number(k),
            points=points,
        )
    return _(
        "Lock %(count)s of the %(extend)s extending dice: the full run ends the turn with "
        "%(points)s points.",
        count=number(k),
        extend=number(extend),
        points=points,
    )


def _lock_then(k: int, extend: int, then: str) -> str:
    """Lock these dice, then the move (bank, push, bonus)."""
    # TRANSLATORS: %(move)s is the best move's word: bank, push or bonus.
    if k == extend == 1:
        return _("Lock the extending die, then %(move)s.", move=then)
    if k == extend:
        return _("Lock all %(count)s extending dice, then %(move)s.", count=number(k), move=then)
    return _(
        "Lock %(count)s of the %(extend)s extending dice, then %(move)s.",
        count=number(k),
        extend=number(extend),
        move=then,
    )


def _decide_text(advice: odds.Advice) -> str:
    goal = number(odds.SUDDEN_GOAL)
    move = _best_word(advice.then or advice.best)
    bonus = advice.bonus
    values: dict[str, object] = {"bust": _pct(advice.p_bust), "move": move, "goal": goal}
    if bonus:
        chances = _(
            "Bonus throw: %(chance)s to throw the %(face)s for %(points)s points, %(bust)s to bust",
            chance=_pct(Fraction(1, 6)),
            face=advice.bonus_face,
            points=number(advice.bonus_points or 0),
            **values,
        )
    else:
        chances = _(
            "Push: %(extend)s to extend, %(bust)s to bust", extend=_pct(advice.p_extend), **values
        )
    if advice.sudden:
        assert advice.turns_push is not None and advice.turns_bank is not None
        values |= {
            "chances": chances,
            "turns": _num(advice.turns_push),
            "bank": _num(advice.turns_bank),
        }
        # TRANSLATORS: %(chances)s is the line before ("Push: 42.1 % to extend, 57.9 % to
        # bust"), %(turns)s and %(bank)s turns on average, %(move)s the best move.
        if advice.bank_total > odds.SUDDEN_GOAL:
            if bonus:
                return _(
                    "%(chances)s; after the bonus throw you need %(turns)s more turns on "
                    "average to reach exactly %(goal)s, banking would pass %(goal)s and score "
                    "nothing (%(bank)s): %(move)s.",
                    **values,
                )
            return _(
                "%(chances)s; after pushing you need %(turns)s more turns on average to reach "
                "exactly %(goal)s, banking would pass %(goal)s and score nothing (%(bank)s): "
                "%(move)s.",
                **values,
            )
        if advice.bank_total == odds.SUDDEN_GOAL:
            if bonus:
                return _(
                    "%(chances)s; after the bonus throw you need %(turns)s more turns on "
                    "average to reach exactly %(goal)s, banking reaches %(goal)s and wins: "
                    "%(move)s.",
                    **values,
                )
            return _(
                "%(chances)s; after pushing you need %(turns)s more turns on average to reach "
                "exactly %(goal)s, banking reaches %(goal)s and wins: %(move)s.",
                **values,
            )
        if bonus:
            return _(
                "%(chances)s; after the bonus throw you need %(turns)s more turns on average "
                "to reach exactly %(goal)s, after banking %(bank)s: %(move)s.",
                **values,
            )
        return _(
            "%(chances)s; after pushing you need %(turns)s more turns on average to reach "
            "exactly %(goal)s, after banking %(bank)s: %(move)s.",
            **values,
        )
    assert advice.ev_push is not None and advice.ev_bank is not None
    values |= {"chances": chances, "push": _num(advice.ev_push), "bank": _num(advice.ev_bank)}
    if bonus:
        return _(
            "%(chances)s; the bonus throw is worth %(push)s points on average, banking is "
            "worth %(bank)s: %(move)s.",
            **values,
        )
    return _(
        "%(chances)s; pushing is worth %(push)s points on average, banking is worth "
        "%(bank)s: %(move)s.",
        **values,
    )
