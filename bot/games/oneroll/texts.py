"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by."""

from __future__ import annotations

from bot.errors import add_texts
from bot.games.base import RulesPage
from bot.i18n.speaking import N_, _, number

# The one name of each ruleset, wherever a game of it is named (lobby, thread, turns, results):
# translated where shown (``ruleset_title``).
RULESETS = {
    # TRANSLATORS: the dice game of one throw a turn (no decisions), beside push-your-luck.
    "classic": N_("Sequences (One-roll)"),
    # TRANSLATORS: the game's name: Hearts Due keeps it in every language.
    "heartsdue": N_("Hearts Due"),
}


def ruleset_title(ruleset: str) -> str:
    """The ruleset's name in the reader's language: "Sequences (One-roll)", "Hearts Due"."""
    return _(RULESETS[ruleset])


def rules_pages() -> tuple[RulesPage, ...]:
    """The /rules pages, in the reader's language (made when read: ``Game.rules_pages``)."""
    classic = "\n".join(
        (
            _("**Any number of players (up to 10), six dice, one throw a turn: no decisions.**"),
            _(
                "• Opening: everyone throws once; the highest sum of pips starts (ties throw "
                "again), and play goes round the table from there."
            ),
            _(
                "• A throw scores its dice split into runs that start at 1, each die in one "
                "run at most, taking the split that scores most; every run scores:"
            ),
            # TRANSLATORS: the scoring table: keep the `code` runs and the points; translate
            # "five 6s" and "six 6s".
            _(
                "`1` 0 · `1-2` 5 · `1-2-3` 10 · `1-…-4` 15 · `1-…-5` 20 · `1-…-6` 25 · "
                "five 6s 30 · six 6s 60."
            ),
            _("  e.g. 1-1-2-2-3-5 → 1-2 (5) + 1-2-3 (10) = 15; five 6s and a 1 → 30."),
            _("• **Four or more 1s** wipe your total to 0 (the throw scores 0)."),
            _(
                "• When anyone reaches 100 the round is finished so everyone has thrown "
                "equally often; the highest total wins; a tie is settled by one more throw "
                "each."
            ),
            _(
                "• The figures, exactly: an average throw scores **4.51** points (the old "
                "book says 10), **58 %** of throws score nothing (it says about half), and "
                "reaching 100 takes **25.3 turns** on average (it says about twenty). See "
                "`/odds`."
            ),
        )
    )
    hearts = "\n".join(
        (
            _(
                "As classic one-roll Sequences, with its own table (every run scores, a lone "
                "1 too):"
            ),
            _(
                "`1` 5 · `1-2` 10 · `1-2-3` 15 · `1-…-4` 20 · `1-…-5` 25 · `1-…-6` 30 · "
                "five 6s 35 · six 6s 70."
            ),
            _("  e.g. 1-1-2-3-5-6 → 1 (5) + 1-2-3 (15) = 20;"),
            _("  6-6-6-6-6-1 → five 6s (35) + 1 (5) = 40."),
            _("• Four or more 1s wipe your total to 0. Race to 100, round finished, tie throws."),
            _(
                "• Exactly: **9.33** points a throw on average; **11.9 turns** to reach 100 "
                "(only 29 % of players get there within 9 turns, though the book says most "
                "do)."
            ),
        )
    )
    return (
        RulesPage("classic", ruleset_title("classic"), classic),
        RulesPage("heartsdue", ruleset_title("heartsdue"), hearts),
    )


LABELS = dict(RULESETS)

# The words of the settings' refusals (``bot.games.oneroll.settings``).
add_texts(
    {
        "oneroll.ruleset": lambda: _("Unknown ruleset."),
        "oneroll.target": lambda low, high: _(
            "A one-roll race needs a target of %(low)s to %(high)s points.",
            low=number(low),
            high=number(high),
        ),
    }
)

# The words of the rules core's refusals (``bot.rules.oneroll``).
add_texts(
    {
        "oneroll.throw_only": lambda: _("The only move in this game is to throw the dice."),
        # TRANSLATORS: %(ruleset)s is the name a request gave, quoted; classic and heartsdue
        # are the rulesets' keys: keep them.
        "oneroll.bad_ruleset": lambda ruleset: _(
            "Unknown game %(ruleset)s: classic or heartsdue.", ruleset=repr(ruleset)
        ),
        "oneroll.bad_target": lambda most: _(
            "The target score must be between 1 and %(most)s.", most=number(most)
        ),
    }
)

# The start options' names in the host's settings form (``Game.option_labels``).
OPTION_LABELS = {
    # TRANSLATORS: a field of the host's settings form (at most 45 characters).
    "target": N_("Target score"),
}
