"""The coach's words that the board's own messages show (``bot.games.board.render`` and
``game`` read them; the rest of the coach's words are in ``bot.games.board.coach``): the
result of a game with a suggestion, and how each bot level plays."""

from bot.i18n.speaking import N_, _

UNRATED_NOTE = N_("Not rated: a suggestion was asked for in this game.")


def unrated_note() -> str:
    """The result's line for a game in which a member asked for a suggested move."""
    return _(UNRATED_NOTE)


# TRANSLATORS: how a bot player of each level plays, after its level's name (/rules).
BOT_LEVEL_TEXTS = {
    "easy": N_("looks one move ahead: extends its own lines and blocks any four it sees"),
    "medium": N_("one move ahead, weighing every line and which cards are still unseen"),
    "hard": N_("plays its best moves out a turn ahead over guesses of the hidden hands"),
    "expert": N_("like hard, with five times as many guesses: slower and stronger"),
}
