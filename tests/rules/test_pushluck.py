"""Push-your-luck Sequences: golden turns from scripted dice, and properties over seeded games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.rules import pushluck as pl
from bot.rules.dice import RandomDice, ScriptedDice


def play(state: pl.PushState, dice: ScriptedDice, *actions: pl.Action) -> pl.PushState:
    for action in actions:
        state = pl.apply(state, action, dice)
    return state


def test_extension_counts_each_number_once() -> None:
    cfg = pl.PushConfig()
    assert pl.extending_dice(cfg, (1, 2), (3, 4, 4, 6, 1)) == (3, 4)
    assert pl.extending_dice(cfg, (), (2, 3, 4, 5, 6)) == ()
    assert pl.extending_dice(cfg, (), (1, 2, 3, 5, 5)) == (1, 2, 3)


def test_first_throw_without_a_one_busts_for_zero() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 2)
    state = play(state, ScriptedDice([(2, 3, 4, 5, 6)]), pl.Throw())
    assert state.totals == (0, 0)
    assert state.last is not None and state.last.kind == "bust"
    assert state.current == 1 and state.phase == "throw"


def test_lock_fewer_than_all_then_bank() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 2)
    state = play(state, ScriptedDice([(1, 2, 3, 5, 5)]), pl.Throw())
    assert state.phase == "lock" and state.extending == (1, 2, 3)
    assert pl.legal_actions(state) == [pl.Lock(1), pl.Lock(2), pl.Lock(3)]
    state = play(state, ScriptedDice([]), pl.Lock(2), pl.Bank())
    assert state.totals == (2, 0)


def test_push_extends_then_bust_scores_zero() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 2)
    dice = ScriptedDice([(1, 2, 6, 6, 6), (3, 5, 5), (6, 6)])
    state = play(state, dice, pl.Throw(), pl.Lock(2), pl.Push())
    assert state.extending == (3,)
    state = play(state, dice, pl.Lock(1), pl.Push())
    assert state.totals == (0, 0) and state.last is not None and state.last.kind == "bust"


def test_full_run_bonus_six_scores_ten() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 2)
    dice = ScriptedDice([(1, 2, 3, 4, 5), (6,)])
    state = play(state, dice, pl.Throw(), pl.Lock(5))
    assert pl.legal_actions(state) == [pl.Bank(), pl.BonusThrow()]
    state = play(state, dice, pl.BonusThrow())
    assert state.totals == (10, 0)


def test_bonus_miss_busts_and_soft_last_die_keeps_half() -> None:
    hard = pl.new_game(pl.PushConfig(rounds=1), 2)
    soft = pl.new_game(pl.PushConfig(rounds=1, soft_last_die=True), 2)
    for state, expected in ((hard, 0), (soft, 2)):
        state = play(
            state, ScriptedDice([(1, 2, 3, 4, 5), (3,)]), pl.Throw(), pl.Lock(5), pl.BonusThrow()
        )
        assert state.totals[0] == expected


def test_reverse_runs_down_from_six_and_bonus_needs_one() -> None:
    state = pl.new_game(pl.PushConfig(variant="reverse", rounds=1), 2)
    state = play(state, ScriptedDice([(6, 5, 4, 1, 1)]), pl.Throw())
    assert state.extending == (6, 5, 4)
    state = play(state, ScriptedDice([(3, 2)]), pl.Lock(3), pl.Push(), pl.Lock(2))
    state = play(state, ScriptedDice([(1,)]), pl.BonusThrow())
    assert state.totals[0] == 10


def test_extended_six_dice_full_run_scores_fifteen_without_bonus() -> None:
    state = pl.new_game(pl.PushConfig(variant="extended", rounds=1), 2)
    state = play(state, ScriptedDice([(1, 2, 3, 4, 5, 6)]), pl.Throw(), pl.Lock(6))
    assert state.totals == (15, 0) and state.current == 1


def test_sudden_overshoot_scores_nothing_and_exact_21_wins_at_once() -> None:
    state = pl.new_game(pl.PushConfig(variant="sudden"), 2)
    state = pl.PushState(**{**state.__dict__, "totals": (19, 0)})
    # Banking 3 would make 22: nothing scores.
    state = play(state, ScriptedDice([(1, 2, 3, 6, 6)]), pl.Throw(), pl.Lock(3), pl.Bank())
    assert state.totals == (19, 0) and state.last is not None and state.last.kind == "overshoot"
    state = play(state, ScriptedDice([(2, 2, 2, 2, 2)]), pl.Throw())  # seat 1 busts
    # Lock fewer to land exactly on 21.
    state = play(state, ScriptedDice([(1, 2, 3, 6, 6)]), pl.Throw(), pl.Lock(2), pl.Bank())
    assert state.outcome == pl.Outcome((0,), "exact21")
    with pytest.raises(IllegalAction):
        pl.apply(state, pl.Throw(), ScriptedDice([]))


def test_target_finishes_the_round_then_highest_wins() -> None:
    state = pl.new_game(pl.PushConfig(rounds=None, target=5), 2)
    dice = ScriptedDice([(1, 2, 3, 4, 5), (1, 2, 3, 4, 5), (6,)])
    state = play(state, dice, pl.Throw(), pl.Lock(5), pl.Bank())
    assert state.outcome is None and state.current == 1  # seat 1 still gets its turn
    state = play(state, dice, pl.Throw(), pl.Lock(5), pl.BonusThrow())
    assert state.outcome == pl.Outcome((1,), "target")


def test_tie_goes_to_extra_turns_until_broken() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 2)
    dice = ScriptedDice(
        [
            (1, 6, 6, 6, 6),
            (1, 6, 6, 6, 6),
            (1, 6, 6, 6, 6),
            (1, 6, 6, 6, 6),
            (2, 2, 2, 2, 2),
            (1, 2, 6, 6, 6),
        ]
    )
    state = play(state, dice, pl.Throw(), pl.Lock(1), pl.Bank(), pl.Throw(), pl.Lock(1), pl.Bank())
    assert state.outcome is None and state.tiebreak == (0, 1)
    state = play(state, dice, pl.Throw(), pl.Lock(1), pl.Bank(), pl.Throw(), pl.Lock(1), pl.Bank())
    assert state.outcome is None and state.tiebreak == (0, 1)  # tied again
    state = play(state, dice, pl.Throw(), pl.Throw(), pl.Lock(2), pl.Bank())
    assert state.outcome == pl.Outcome((1,), "tiebreak")
    assert state.totals == (1, 1)  # tie turns decide, they do not add to totals


def test_team_partners_alternate_and_team_total_wins() -> None:
    state = pl.new_game(pl.PushConfig(variant="team", rounds=None, target=10), 4)
    dice = ScriptedDice([(1, 2, 3, 4, 5), (6,), (2, 2, 2, 2, 2), (2, 2, 2, 2, 2), (2, 2, 2, 2, 2)])
    state = play(state, dice, pl.Throw(), pl.Lock(5), pl.BonusThrow())
    assert state.current == 1
    state = play(state, dice, pl.Throw(), pl.Throw(), pl.Throw())
    assert state.outcome == pl.Outcome((0, 2), "target")
    assert state.side_totals() == (10, 0)


def test_team_needs_four_seats() -> None:
    with pytest.raises(IllegalAction, match="exactly 4"):
        pl.new_game(pl.PushConfig(variant="team"), 3)


def test_illegal_actions_are_refused_with_a_reason() -> None:
    state = pl.new_game(pl.PushConfig(), 2)
    with pytest.raises(IllegalAction, match="nothing to lock"):
        pl.apply(state, pl.Lock(1), ScriptedDice([]))
    state = play(state, ScriptedDice([(1, 2, 6, 6, 6)]), pl.Throw())
    with pytest.raises(IllegalAction, match="Lock at least one"):
        pl.apply(state, pl.Bank(), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="1 to 2"):
        pl.apply(state, pl.Lock(3), ScriptedDice([]))


def random_policy(rng: random.Random):  # type: ignore[no-untyped-def]
    def choose(state: pl.PushState) -> pl.Action:
        return rng.choice(pl.legal_actions(state))

    return choose


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(pl.VARIANTS),
    soft=st.booleans(),
    seats=st.integers(2, 4),
)
def test_random_games_always_end_with_sane_scores(
    seed: int, variant: pl.Variant, soft: bool, seats: int
) -> None:
    rng = random.Random(seed)
    if variant == "team":
        seats = 4
    config = pl.PushConfig(variant=variant, rounds=3, soft_last_die=soft)
    state = pl.new_game(config, seats)
    dice = RandomDice(rng)
    choose = random_policy(rng)
    for _ in range(20_000):
        if state.outcome is not None:
            break
        before = state
        state = pl.apply(state, choose(state), dice)
        # Locked dice always form an unbroken run from the start face.
        assert state.run == config.faces[: len(state.run)]
        if state.last is not None and state.last.turn_over:
            assert 0 <= state.last.points <= 15
            if state.last.kind == "bust":
                assert state.last.points <= (2 if soft else 0)
        assert pl.load(pl.dump(state)) == state
        assert sum(state.totals) >= sum(before.totals)
    assert state.outcome is not None, "game did not end"
    assert pl.legal_actions(state) == []
