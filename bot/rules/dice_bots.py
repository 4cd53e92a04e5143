"""Bot players for the dice games (interim thresholds; replaced by the exact-odds policies)."""

from __future__ import annotations

import random
from typing import Literal

from bot.rules import pushluck as pl

Level = Literal["cautious", "bold", "optimal"]

LEVEL_DESCRIPTIONS: dict[str, str] = {
    "cautious": "banks as soon as the run reaches 3",
    "bold": "pushes until the run reaches 5, then takes the bonus throw",
    "optimal": "plays the exact expected-value policy",
}


def choose_push_action(state: pl.PushState, level: Level, rng: random.Random) -> pl.Action:
    if state.phase == "throw":
        return pl.Throw()
    if state.phase == "lock":
        return pl.Lock(len(state.extending))
    stop_at = {"cautious": 3, "bold": 5, "optimal": 4}[level]
    if state.dice_left == 0:
        return pl.BonusThrow() if level == "bold" and state.config.has_bonus else pl.Bank()
    return pl.Bank() if len(state.run) >= stop_at else pl.Push()
