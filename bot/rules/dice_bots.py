"""Bot players for the dice games: push-your-luck's two heuristics are ``odds.ThresholdPolicy``
values, so their strength is known exactly (docs/odds.md, "Bot players"); "optimal" plays the exact
tables."""

from __future__ import annotations

import random
from typing import Literal

from bot.errors import IllegalAction
from bot.rules import odds, oneroll
from bot.rules import pushluck as pl

Level = Literal["cautious", "bold", "optimal"]
LEVELS: tuple[Level, ...] = ("cautious", "bold", "optimal")

# Bank thresholds of the heuristics. Banking at 2 is the exact optimum of the five-dice
# game and 3 of the six-dice one, so cautious stops one earlier and bold one later.
_CAUTIOUS_BANK_AT = 1
_BOLD_BANK_AT = {5: 3, 6: 4}


def level_policy(level: Level, variant: pl.Variant, soft_last_die: bool = False) -> odds.TurnPolicy:
    """The policy a level plays, for exact evaluation with ``bot.rules.odds``."""
    if level == "optimal":
        return odds.OptimalPolicy(variant, soft_last_die)
    if level == "cautious":
        return odds.ThresholdPolicy(_CAUTIOUS_BANK_AT)
    if level == "bold":
        n_dice = pl.PushConfig(variant=variant).n_dice
        return odds.ThresholdPolicy(_BOLD_BANK_AT[n_dice])
    raise ValueError(f"unknown level {level!r}")


def choose_push_action(state: pl.PushState, level: Level, rng: random.Random) -> pl.Action:
    """The move a bot player of ``level`` makes in ``state``; ``rng`` breaks the optimal policy's
    exact ties, so the bot is not predictable where that costs nothing."""
    if state.phase == "over" or state.outcome is not None:
        raise IllegalAction(code="rules.over")
    if state.phase == "throw":
        return pl.Throw()
    config = state.config
    run = len(state.run)
    total = state.totals[state.current] if config.variant == "sudden" else 0
    if level == "optimal":
        advice = odds.advice(state)
        if state.phase == "lock":
            assert advice.lock is not None
            return pl.Lock(advice.lock)
        tied = (advice.ev_push is not None and advice.ev_push == advice.ev_bank) or (
            advice.turns_push is not None and advice.turns_push == advice.turns_bank
        )
        bank = rng.random() < 0.5 if tied else advice.best == "bank"
    else:
        policy = level_policy(level, config.variant, config.soft_last_die)
        if state.phase == "lock":
            return pl.Lock(policy.lock(total, run, len(state.extending)))
        bank = policy.bank(total, run)
    if bank:
        return pl.Bank()
    return pl.BonusThrow() if state.dice_left == 0 else pl.Push()


def choose_oneroll_action(state: oneroll.OneRollState) -> oneroll.Throw:
    """One-roll games leave no decision: a bot player throws."""
    if state.phase == "over":
        raise IllegalAction(code="rules.over")
    return oneroll.Throw()
