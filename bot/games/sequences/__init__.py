"""Sequences, the push-your-luck dice game, with its variants (RULINGS §1)."""

from bot.games.sequences.game import SequencesGame
from bot.games.sequences.kind import SequencesKind

GAME = SequencesGame(SequencesKind())

__all__ = ["GAME", "SequencesGame", "SequencesKind"]
