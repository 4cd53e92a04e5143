"""What ``/odds`` shows for the one-roll games: no choice to advise on, so the chances of
a throw and of reaching 100, from the exact figures of ``bot.rules.odds``."""

from __future__ import annotations

from fractions import Fraction

from bot.games.base import OddsPage
from bot.render.odds_text import PlayerOdds, chance, num, percent
from bot.rules import odds, oneroll

WITHIN = (9, 10, 20)


def _oneroll_player(ruleset: oneroll.Ruleset) -> PlayerOdds:
    o = odds.oneroll_odds(ruleset)
    turns = odds.expected_turns_to_target(ruleset)
    summary = (
        "**No choices**: each turn is one throw",
        "of six dice; only luck decides.",
        "**The chances**",
        f"{percent(o.p_no_score)} of throws score nothing",
        f"({percent(o.p_penalty)} wipe your total: four 1s).",
        f"An average throw scores {num(o.mean_points)}.",
        f"Reaching 100 takes {num(turns)} turns on average.",
    )
    table = ["**Points from one throw**"]
    for points, p in o.points.items():
        if points:
            table.append(f"{points} points: {chance(p)}")
    table.append(f"Nothing: {percent(o.points.get(0, Fraction(0)))}")
    table.append(f"Four 1s (total wiped): {percent(o.p_penalty)}")
    clean = odds.expected_turns_to_target(ruleset, penalty=False)
    table += [
        "**Reaching 100**",
        f"{num(turns)} turns on average",
        f"({num(clean)} if four 1s did not wipe)",
    ]
    for n in WITHIN:
        table.append(f"Within {n} turns: {percent(odds.p_reach_within(ruleset, n))}")
    return PlayerOdds(summary, tuple(table))


ODDS_PAGES = (
    OddsPage(
        "classic", "Sequences: classic one-roll", "classic", lambda: _oneroll_player("classic")
    ),
    OddsPage("heartsdue", "Hearts Due", "heartsdue", lambda: _oneroll_player("heartsdue")),
)
