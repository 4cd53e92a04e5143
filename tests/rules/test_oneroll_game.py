"""One-roll games played through ``oneroll.apply`` with scripted and seeded dice."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.rules import oneroll
from bot.rules.dice import RandomDice, ScriptedDice
from bot.rules.oneroll import OneRollConfig, Throw

NOTHING = (2, 3, 4, 5, 6, 6)  # classic 0, pip sum 26
FIVE = (1, 2, 5, 5, 6, 6)  # classic 5
FIFTEEN = (1, 2, 3, 4, 6, 6)  # classic 15
TWENTY = (1, 2, 3, 4, 5, 5)  # classic 20
PENALTY = (1, 1, 1, 1, 2, 3)


def throw_all(state: oneroll.OneRollState, *throws: tuple[int, ...]) -> oneroll.OneRollState:
    dice = ScriptedDice(throws)
    for _ in throws:
        state = oneroll.apply(state, Throw(), dice)
    assert dice.remaining == 0
    return state


def opened(n_seats: int, target: int = 100, starter_throw: int = 0) -> oneroll.OneRollState:
    """A classic game whose opening seat ``starter_throw`` won with six 6s (36 pips)."""
    state = oneroll.new_game(OneRollConfig("classic", target), n_seats)
    throws = [(6,) * 6 if seat == starter_throw else (1,) * 6 for seat in range(n_seats)]
    state = throw_all(state, *throws)
    assert state.phase == "play" and state.starter == starter_throw
    return state


def test_opening_highest_pip_sum_starts_and_ties_rethrow() -> None:
    state = oneroll.new_game(OneRollConfig("classic"), 3)
    assert state.phase == "opening" and state.current == 0
    state = throw_all(state, (1, 1, 1, 2, 2, 2), (6, 6, 6, 6, 6, 5), (6, 6, 6, 6, 6, 5))
    # Seats 1 and 2 tied on 35 pips: only they throw again, in seating order.
    assert state.phase == "opening" and state.contenders == (1, 2) and state.current == 1
    state = throw_all(state, (1, 1, 1, 2, 2, 3), (2, 2, 2, 2, 2, 2))
    assert state.phase == "play" and state.starter == 2 and state.current == 2
    # Opening throws never score.
    assert state.totals == (0, 0, 0) and state.turns == (0, 0, 0)
    # Turn order follows seating from the starter: 2, 0, 1.
    state = throw_all(state, FIVE)
    assert state.current == 0 and state.totals == (0, 0, 5)
    state = throw_all(state, FIVE)
    assert state.current == 1


def test_penalty_wipes_the_total() -> None:
    state = opened(2)
    state = throw_all(state, TWENTY, FIVE, PENALTY)
    assert state.totals == (0, 5)
    assert state.last is not None and state.last.score.wiped
    assert (state.last.total_before, state.last.total_after) == (20, 0)


def test_round_is_finished_after_the_target_and_highest_wins() -> None:
    state = opened(3, target=20, starter_throw=1)
    # Seat 1 starts and reaches the target, but seats 2 and 0 still throw this round.
    state = throw_all(state, TWENTY)
    assert state.phase == "play" and state.current == 2
    state = throw_all(state, FIFTEEN)
    assert state.phase == "play" and state.current == 0
    state = throw_all(state, TWENTY)
    assert state.phase == "tiebreak" and state.contenders == (1, 0)
    state = throw_all(state, FIVE, FIFTEEN)
    assert state.phase == "over" and state.outcome is not None
    assert state.outcome.winner == 0 and state.outcome.totals == (20, 20, 15)
    assert state.outcome.rounds == 1 and state.outcome.reason == "tiebreak"
    assert oneroll.current_seat(state) is None
    assert oneroll.legal_actions(state) == []
    with pytest.raises(IllegalAction):
        oneroll.apply(state, Throw(), ScriptedDice([FIVE]))


def test_round_winner_without_tie() -> None:
    state = opened(2, target=20)
    state = throw_all(state, TWENTY, FIFTEEN)
    assert state.phase == "over" and state.outcome is not None
    assert state.outcome.winners == (0,) and state.outcome.reason == "target"


def test_last_seat_can_overtake_in_the_final_round() -> None:
    state = opened(2, target=30)
    state = throw_all(state, TWENTY, FIFTEEN, FIFTEEN)
    assert state.phase == "play" and state.totals == (35, 15)
    state = throw_all(state, (1, 2, 3, 4, 5, 6))
    assert state.outcome is not None and state.outcome.winner == 1
    assert state.outcome.totals == (35, 40) and state.outcome.rounds == 2


def test_tie_break_is_thrown_again_while_tied() -> None:
    state = opened(2, target=20)
    state = throw_all(state, TWENTY, TWENTY)
    state = throw_all(state, NOTHING, NOTHING, NOTHING, FIVE)
    assert state.outcome is not None and state.outcome.winner == 1


def test_tie_break_repeats_only_among_those_still_tied() -> None:
    state = opened(3, target=5)
    state = throw_all(state, FIVE, FIVE, FIVE)
    assert state.phase == "tiebreak" and state.contenders == (0, 1, 2)
    state = throw_all(state, FIFTEEN, NOTHING, FIFTEEN)
    assert state.phase == "tiebreak" and state.contenders == (0, 2)
    # A penalty in the tie-break counts 0 and leaves the final totals alone.
    state = throw_all(state, PENALTY, FIVE)
    assert state.outcome is not None and state.outcome.winner == 2
    assert state.totals == (5, 5, 5)


def test_one_seat_skips_the_opening() -> None:
    state = oneroll.new_game(OneRollConfig("heartsdue", target=20), 1)
    assert state.phase == "play"
    state = throw_all(state, (1, 2, 3, 4, 6, 6))
    assert state.outcome is not None and state.outcome.winner == 0


@pytest.mark.parametrize("seats", [0, 11, True])
def test_seat_count_is_capped(seats: int) -> None:
    with pytest.raises(IllegalAction):
        oneroll.new_game(OneRollConfig("classic"), seats)


def test_bad_config_is_refused() -> None:
    with pytest.raises(IllegalAction):
        OneRollConfig("classic", target=0)
    with pytest.raises(IllegalAction):
        OneRollConfig("craps")  # type: ignore[arg-type]


def test_only_throw_is_legal() -> None:
    state = opened(2)
    with pytest.raises(IllegalAction):
        oneroll.apply(state, object(), ScriptedDice([]))  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(1, 5),
    ruleset=st.sampled_from(oneroll.RULESETS),
)
def test_seeded_games_end_and_survive_json_at_every_step(
    seed: int, seats: int, ruleset: oneroll.Ruleset
) -> None:
    state = oneroll.new_game(OneRollConfig(ruleset, target=60), seats)
    dice = RandomDice(random.Random(seed))
    for _ in range(5000):
        assert oneroll.load(json.loads(json.dumps(oneroll.dump(state)))) == state
        if state.phase == "over":
            break
        state = oneroll.apply(state, Throw(), dice)
    assert state.outcome is not None
    # Play ended on a completed round: everyone threw equally often.
    assert len(set(state.turns)) == 1
    best = max(state.totals)
    assert state.totals[state.outcome.winner] == best >= 60


@pytest.mark.parametrize(
    "broken",
    [{}, {"v": 99}, {"v": 1, "ruleset": "classic"}],
)
def test_load_refuses_malformed_data(broken: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        oneroll.load(broken)


def test_load_refuses_inconsistent_seats() -> None:
    data = oneroll.dump(opened(2))
    data["totals"] = [0, 0, 0]
    with pytest.raises(ValueError):
        oneroll.load(data)


def test_actions_round_trip() -> None:
    assert oneroll.load_action(oneroll.dump_action(Throw())) == Throw()
    with pytest.raises(IllegalAction):
        oneroll.load_action({"type": "bank"})
