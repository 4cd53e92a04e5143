"""placeholder"""
import random
from bot.rules.board.game import Action, SeatView, legal_actions
LEVELS = ("random",)
def choose_action(view: SeatView, level: str, rng: random.Random) -> Action:
    return rng.choice(legal_actions(view))
