"""The coach's words that the board's own result shows (``bot.games.board.render`` reads it;
the rest of the coach's words are in ``bot.games.board.coach``)."""

from bot.i18n.speaking import N_, _

UNRATED_NOTE = N_("Not rated: a suggestion was asked for in this game.")


def unrated_note() -> str:
    """The result's line for a game in which a member asked for a suggested move."""
    return _(UNRATED_NOTE)
