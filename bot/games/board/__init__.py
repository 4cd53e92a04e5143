"""Sequence, the board-and-card game: 10x10 board, two decks, jacks, 2–12 players
(RULINGS §3)."""

from bot.games.board.game import BoardGame
from bot.games.board.kind import BoardKind

GAME = BoardGame(BoardKind())

__all__ = ["GAME", "BoardGame", "BoardKind"]
