"""Sequences, the push-your-luck dice game, with its variants (RULINGS §1)."""

from bot.games.sequences.game import SequencesGame

GAME = SequencesGame()

__all__ = ["GAME", "SequencesGame"]
