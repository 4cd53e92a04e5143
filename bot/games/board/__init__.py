"""Sequence, the board-and-card game: 10x10 board, two decks, jacks, 2–12 players
(RULINGS §3)."""

from bot.games.board.game import BoardGame

GAME = BoardGame()

__all__ = ["GAME", "BoardGame"]
