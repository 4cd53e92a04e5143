"""Dice games played many times with a bot policy: samples to check the exact odds against
(``python -m bot simulate`` and the odds tests)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.rules import dice_bots, oneroll
from bot.rules import pushluck as pl
from bot.rules.dice import RandomDice

RULESETS: tuple[str, ...] = (*pl.VARIANTS, *oneroll.RULESETS)
MAX_TURNS = 10_000_000


@dataclass
class PushSample:
    turn_points: list[int]
    games_turns: list[int]  # Sudden: turns each finished game took to reach 21


def solo_push_state(config: pl.PushConfig) -> pl.PushState:
    """A one-seat game: ``new_game`` asks for a real table, the rules core plays any count."""
    state = pl.new_game(config, config.seats_range[0])
    return replace(state, n_seats=1, totals=(0,), turns_taken=(0,), best_turn=(0,))


def play_push_turns(
    config: pl.PushConfig, level: dice_bots.Level, turns: int, seed: int
) -> PushSample:
    dice = RandomDice(random.Random(seed))
    # The bot's tie-breaks use their own stream so the dice are the same for every level.
    bot_rng = random.Random(seed + 1)
    sample = PushSample([], [])
    state = solo_push_state(config)
    game_turns = 0
    while len(sample.turn_points) < turns:
        action = dice_bots.choose_push_action(state, level, bot_rng)
        state = pl.apply(state, action, dice)
        event = state.last
        if event is not None and event.turn_over:
            sample.turn_points.append(event.points)
            game_turns += 1
        if state.outcome is not None:
            if config.variant == "sudden":
                sample.games_turns.append(game_turns)
            game_turns = 0
            state = solo_push_state(config)
    return sample


@dataclass
class OneRollSample:
    throws: list[oneroll.ThrowScore]
    games_turns: list[int]


def play_oneroll_turns(ruleset: oneroll.Ruleset, turns: int, seed: int) -> OneRollSample:
    dice = RandomDice(random.Random(seed))
    config = oneroll.OneRollConfig(ruleset)
    sample = OneRollSample([], [])
    state = oneroll.new_game(config, 1)
    while len(sample.throws) < turns:
        state = oneroll.apply(state, oneroll.Throw(), dice)
        assert state.last is not None
        sample.throws.append(state.last.score)
        if state.outcome is not None:
            sample.games_turns.append(state.outcome.rounds)
            state = oneroll.new_game(config, 1)
    return sample
