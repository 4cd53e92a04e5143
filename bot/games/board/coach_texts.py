"""The coach's words that the board's own messages show (``bot.games.board.render`` and
``game`` read them; the rest of the coach's words are in ``bot.games.board.coach``): the
result of a game with a suggestion, and how each bot level plays."""

from bot.i18n.speaking import N_, _

UNRATED_NOTE = N_("Not rated: a suggestion was asked for in this game.")


def unrated_note() -> str:
    """The result's line for a game in which a member asked for a suggested move."""
    return _(UNRATED_NOTE)


# TRANSLATORS: how a bot player of each level plays, after its level's name (/rules), and
# how it measured against the others (docs/board-rules.md, "Levels and their measured
# strength"): "medium", "easy" and "hard" are the level names of the same catalogue.
BOT_LEVEL_TEXTS = {
    "easy": N_(
        "one move ahead: extends its own lines, blocks any four it sees; "
        "wins 4 games in 10 against medium"
    ),
    "medium": N_(
        "one move ahead, weighing every line and the unseen cards; wins 6 games in 10 against easy"
    ),
    "hard": N_(
        "plays medium's best moves out over guesses of the hidden hands; measured even with medium"
    ),
    "expert": N_(
        "like hard with five times as many guesses: slower, not yet measured stronger than hard"
    ),
}
