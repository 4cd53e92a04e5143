"""One-roll Sequences ("classic") and Hearts Due: six dice, one throw a turn (RULINGS §2)."""

from bot.games.oneroll.game import OneRollGame
from bot.games.oneroll.kind import OneRollKind

GAME = OneRollGame(OneRollKind())

__all__ = ["GAME", "OneRollGame", "OneRollKind"]
