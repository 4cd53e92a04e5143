"""The rules of this game as the bot plays them (RULINGS.md), in the words players read
in ``/rules``; and the names its leaderboards go by."""

from __future__ import annotations

from bot.errors import add_texts
from bot.games.base import RulesPage

# The one name of each ruleset, wherever a game of it is named (lobby, thread, turns, results).
RULESETS = {"classic": "Sequences (One-roll)", "heartsdue": "Hearts Due"}

RULES_PAGES = (
    RulesPage(
        "classic",
        RULESETS["classic"],
        "**Any number of players (up to 10), six dice, one throw a turn: no decisions.**\n"
        "• Opening: everyone throws once; the highest sum of pips starts (ties throw again), "
        "and play goes round the table from there.\n"
        "• A throw scores its dice split into runs that start at 1, each die in one run at "
        "most, taking the split that scores most; every run scores:\n"
        "`1` 0 · `1-2` 5 · `1-2-3` 10 · `1-…-4` 15 · `1-…-5` 20 · `1-…-6` 25 · "
        "five 6s 30 · six 6s 60.\n"
        "  e.g. 1-1-2-2-3-5 → 1-2 (5) + 1-2-3 (10) = 15; five 6s and a 1 → 30.\n"
        "• **Four or more 1s** wipe your total to 0 (the throw scores 0).\n"
        "• When anyone reaches 100 the round is finished so everyone has thrown equally "
        "often; the highest total wins; a tie is settled by one more throw each.\n"
        "• The figures, exactly: an average throw scores **4.51** points (the old book says "
        "10), **58 %** of throws score nothing (it says about half), and reaching 100 takes "
        "**25.3 turns** on average (it says about twenty). See `/odds`.",
    ),
    RulesPage(
        "heartsdue",
        "Hearts Due",
        "As classic one-roll Sequences, with its own table (every run scores, a lone 1 "
        "too):\n"
        "`1` 5 · `1-2` 10 · `1-2-3` 15 · `1-…-4` 20 · `1-…-5` 25 · `1-…-6` 30 · "
        "five 6s 35 · six 6s 70.\n"
        "  e.g. 1-1-2-3-5-6 → 1 (5) + 1-2-3 (15) = 20;\n"
        "  6-6-6-6-6-1 → five 6s (35) + 1 (5) = 40.\n"
        "• Four or more 1s wipe your total to 0. Race to 100, round finished, tie throws.\n"
        "• Exactly: **9.33** points a throw on average; **11.9 turns** to reach 100 (only "
        "29 % of players get there within 9 turns, though the book says most do).",
    ),
)

LABELS = dict(RULESETS)

# The words of the settings' refusals (``bot.games.oneroll.settings``).
add_texts(
    {
        "oneroll.ruleset": "Unknown ruleset.",
        "oneroll.target": "A one-roll race needs a target of {low} to {high:,} points.",
    }
)

# The words of the rules core's refusals (``bot.rules.oneroll``).
add_texts(
    {
        "oneroll.throw_only": "The only move in this game is to throw the dice.",
        "oneroll.bad_ruleset": "Unknown game {ruleset!r}: classic or heartsdue.",
        "oneroll.bad_target": "The target score must be between 1 and {most}.",
    }
)
