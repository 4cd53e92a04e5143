"""Bot players: legal moves in every game, and the levels' exact strengths in order."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.games.sequences.texts import BOT_LEVEL_TEXTS
from bot.rules import dice_bots, odds, oneroll
from bot.rules import pushluck as pl
from bot.rules.dice import RandomDice, ScriptedDice


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(pl.VARIANTS),
    levels=st.lists(st.sampled_from(dice_bots.LEVELS), min_size=4, max_size=4),
    soft=st.booleans(),
)
def test_bots_only_make_legal_moves_and_games_end(
    seed: int, variant: pl.Variant, levels: list[dice_bots.Level], soft: bool
) -> None:
    config = pl.PushConfig(variant=variant, soft_last_die=soft)
    n_seats = config.seats_range[1]
    state = pl.new_game(config, n_seats)
    dice, rng = RandomDice(random.Random(seed)), random.Random(seed + 1)
    for _ in range(20_000):
        if state.outcome is not None:
            break
        action = dice_bots.choose_push_action(state, levels[state.current], rng)
        assert action in pl.legal_actions(state)
        state = pl.apply(state, action, dice)
    assert state.outcome is not None


def test_optimal_bot_follows_the_tables() -> None:
    config = pl.PushConfig()
    rng = random.Random(0)
    state = pl.new_game(config, 2)
    state = pl.apply(state, pl.Throw(), ScriptedDice([(1, 3, 3, 5, 6)]))
    assert dice_bots.choose_push_action(state, "optimal", rng) == pl.Lock(1)
    state = pl.apply(state, pl.Lock(1), ScriptedDice([]))
    assert dice_bots.choose_push_action(state, "optimal", rng) == pl.Push()
    state = pl.apply(state, pl.Push(), ScriptedDice([(2, 4, 4, 4)]))
    state = pl.apply(state, pl.Lock(1), ScriptedDice([]))
    assert dice_bots.choose_push_action(state, "optimal", rng) == pl.Bank()


def test_bots_in_sudden_lock_only_what_fits() -> None:
    config = pl.PushConfig(variant="sudden")
    state = replace(pl.new_game(config, 2), totals=(19, 0))
    state = pl.apply(state, pl.Throw(), ScriptedDice([(1, 2, 3, 4, 6)]))
    for level in dice_bots.LEVELS:
        assert dice_bots.choose_push_action(state, level, random.Random(0)) == pl.Lock(2)


def test_bold_never_takes_the_bonus_and_cautious_banks_first() -> None:
    config = pl.PushConfig()
    state = pl.new_game(config, 2)
    state = pl.apply(state, pl.Throw(), ScriptedDice([(1, 2, 3, 4, 5)]))
    state = pl.apply(state, pl.Lock(5), ScriptedDice([]))
    assert dice_bots.choose_push_action(state, "bold", random.Random(0)) == pl.Bank()
    early = replace(state, run=(1,))
    assert dice_bots.choose_push_action(early, "cautious", random.Random(0)) == pl.Bank()
    assert dice_bots.choose_push_action(early, "bold", random.Random(0)) == pl.Push()


def test_exact_ties_are_broken_by_the_rng() -> None:
    # On 20 with 1-2 locked, banking passes 21 and so does every extension: a pure tie.
    config = pl.PushConfig(variant="sudden")
    state = replace(pl.new_game(config, 2), totals=(20, 0), phase="decide", run=(1, 2))
    advice = odds.advice(state)
    assert advice.turns_push == advice.turns_bank
    moves = {dice_bots.choose_push_action(state, "optimal", random.Random(s)) for s in range(20)}
    assert moves == {pl.Bank(), pl.Push()}


@pytest.mark.parametrize("variant", ["standard", "extended"])
def test_levels_are_ordered_by_exact_strength(variant: pl.Variant) -> None:
    ev = {
        level: odds.policy_turn_ev(variant, False, dice_bots.level_policy(level, variant))
        for level in dice_bots.LEVELS
    }
    assert ev["optimal"] == odds.optimal_turn_ev(variant)
    assert ev["optimal"] > max(ev["cautious"], ev["bold"])


def test_levels_in_sudden() -> None:
    turns = {
        level: odds.policy_turns_to_21(False, dice_bots.level_policy(level, "sudden"))
        for level in dice_bots.LEVELS
    }
    assert turns["optimal"] == odds.expected_turns_to_21()
    assert turns["optimal"] < min(turns["cautious"], turns["bold"])


def test_level_descriptions_cover_every_level() -> None:
    assert set(BOT_LEVEL_TEXTS) == set(dice_bots.LEVELS)
    assert all(len(text) <= 100 for text in BOT_LEVEL_TEXTS.values())


def test_bots_refuse_a_finished_game() -> None:
    state = replace(pl.new_game(pl.PushConfig(), 2), phase="over")
    with pytest.raises(IllegalAction):
        dice_bots.choose_push_action(state, "optimal", random.Random(0))
    game = oneroll.new_game(oneroll.OneRollConfig("classic"), 2)
    assert dice_bots.choose_oneroll_action(game) == oneroll.Throw()
    with pytest.raises(IllegalAction):
        dice_bots.choose_oneroll_action(replace(game, phase="over"))


def test_the_dice_math_imports_nothing_of_the_shell() -> None:
    code = (
        "import sys, bot.rules.odds, bot.rules.oneroll, bot.rules.dice_bots; "
        "print(sorted(m for m in ('discord', 'aiosqlite', 'PIL', 'asyncio', 'sqlite3') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
