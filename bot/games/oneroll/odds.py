"""What ``/odds`` shows for the one-roll games: no choice to advise on, so the chances of
a throw and of reaching 100, from the exact figures of ``bot.rules.odds``."""

from __future__ import annotations

from fractions import Fraction

from bot.games.base import OddsPage
from bot.i18n.speaking import _, number
from bot.render.odds_text import PlayerOdds, chance, num, percent
from bot.rules import odds, oneroll

WITHIN = (9, 10, 20)

# TRANSLATORS (the /odds lines): a sentence is one line, which Discord wraps to the
# screen: write no line break in it. The full table's short lines (a figure each) keep
# within 46 characters, so a phone shows each whole.


def _oneroll_player(ruleset: oneroll.Ruleset) -> PlayerOdds:
    o = odds.oneroll_odds(ruleset)
    turns = odds.expected_turns_to_target(ruleset)
    summary = (
        _("**No choices**: each turn is one throw of six dice; only luck decides."),
        _("**The chances**"),
        _(
            "%(nothing)s of throws score nothing (%(wipe)s wipe your total: four 1s).",
            nothing=percent(o.p_no_score),
            wipe=percent(o.p_penalty),
        ),
        _("An average throw scores %(points)s.", points=num(o.mean_points)),
        _("Reaching 100 takes %(turns)s turns on average.", turns=num(turns)),
    )
    table = [_("**Points from one throw**")]
    for points, p in o.points.items():
        if points:
            table.append(
                _("%(points)s points: %(chance)s", points=number(points), chance=chance(p))
            )
    table.append(_("Nothing: %(chance)s", chance=percent(o.points.get(0, Fraction(0)))))
    table.append(_("Four 1s (total wiped): %(chance)s", chance=percent(o.p_penalty)))
    clean = odds.expected_turns_to_target(ruleset, penalty=False)
    table += [
        _("**Reaching 100**"),
        _("%(turns)s turns on average", turns=num(turns)),
        _("(%(turns)s if four 1s did not wipe)", turns=num(clean)),
    ]
    for n in WITHIN:
        table.append(
            _(
                "Within %(count)s turns: %(chance)s",
                count=number(n),
                chance=percent(odds.p_reach_within(ruleset, n)),
            )
        )
    return PlayerOdds(summary, tuple(table))


# The choices are the command tree's (the ``commands`` catalogue translates them).
ODDS_PAGES = (
    OddsPage(
        "classic", "Sequences: classic one-roll", "classic", lambda: _oneroll_player("classic")
    ),
    OddsPage("heartsdue", "Hearts Due", "heartsdue", lambda: _oneroll_player("heartsdue")),
)
