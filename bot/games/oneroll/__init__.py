"""One-roll Sequences ("classic") and Hearts Due: six dice, one throw a turn (RULINGS §2)."""

from bot.games.oneroll.game import OneRollGame

GAME = OneRollGame()

__all__ = ["GAME", "OneRollGame"]
