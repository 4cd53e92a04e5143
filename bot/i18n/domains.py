"""Which catalogue each word is in: one gettext domain per part of the bot, so a game's words are
translated together and two translators never edit one file. A file belongs to the first domain in
``DOMAINS`` whose globs match it; ``commands`` is read from the bot's tree."""

from __future__ import annotations

from dataclasses import dataclass

# The calls whose strings are messages (Babel's keyword specs): bot/i18n/speaking.py's.
KEYWORDS: dict[str, object] = {
    "_": None,
    "N_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "plural": (1, 2),
}

TREE_METHOD = "bot.cli.commands_catalogue:extract_tree"


@dataclass(frozen=True)
class Domain:
    name: str
    files: tuple[str, ...]
    about: str  # what a translator finds in it
    method: str = "python"


COMMANDS = Domain(
    "commands",
    ("cogs/**.py",),
    "the slash commands: names, descriptions, options and choices",
    TREE_METHOD,
)

# The domains of _() calls, most specific first (a file goes to the first that matches).
DOMAINS: tuple[Domain, ...] = (
    Domain(
        "tournaments",
        ("bot/ui/tournament*.py", "cogs/tournaments.py", "bot/render/bracket.py"),
        "tournaments: sign-up, rounds, standings, brackets and their rules page",
    ),
    Domain(
        "quickplay",
        ("bot/ui/quickplay.py", "bot/ui/reports.py", "cogs/play.py"),
        "quick play: the queue, ready checks, blocks, the bot offer, reporting a table, and "
        "their refusals",
    ),
    Domain(
        "sequences",
        ("bot/games/sequences/**.py",),
        "push-your-luck Sequences and its variants: turns, buttons, odds advice, rules",
    ),
    Domain(
        "oneroll",
        ("bot/games/oneroll/**.py",),
        "one-roll Sequences and Hearts Due: throws, scores, rules",
    ),
    Domain(
        "coach",
        (
            "bot/games/board/coach.py",
            "bot/games/board/coach_texts.py",
            "bot/ui/review.py",
            "bot/ui/review_texts.py",
        ),
        "the board game's coach: Suggest a move, each player's Review of a finished game, "
        "how each bot level plays",
    ),
    Domain(
        "board",
        ("bot/games/board/**.py",),
        "Sequence, the board game: moves, hands, the board picture's words, rules",
    ),
    Domain(
        "pages",
        (
            "cogs/**.py",
            "bot/ui/history.py",
            "bot/ui/leaderboard.py",
            "bot/ui/seasons.py",
            "bot/ui/replay.py",
            "bot/ui/odds.py",
            "bot/ui/rules.py",
            "bot/render/**.py",
            "bot/cli/demo.py",
            "bot/web/**.py",
            "bot/ui/weblinks.py",
        ),
        "the commands' answers: /help, /rules' table page, /stats, /leaderboard, /history, "
        "/replay, /odds, /wallet, /settings; the rating chart; the web pages",
    ),
    Domain(
        "table",
        ("bot/**.py",),
        "everything around a game: lobby, seats, turns' frame, results, rematch, reminders, "
        "refusals, the host's panel",
    ),
)

ALL: tuple[Domain, ...] = (COMMANDS, *DOMAINS)


def domain(name: str) -> Domain:
    for found in ALL:
        if found.name == name:
            return found
    raise KeyError(name)
