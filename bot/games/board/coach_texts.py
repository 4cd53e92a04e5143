"""The coach's words that the board's own result shows (``bot.games.board.render`` reads it;
the rest of the coach's words are in ``bot.games.board.coach``)."""

# The result of a game in which a member asked for a suggested move.
UNRATED_NOTE = "Not rated: a suggestion was asked for in this game."
