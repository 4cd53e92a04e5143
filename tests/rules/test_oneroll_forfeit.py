"""Forfeits in the one-roll games (RULINGS §4): the rules core and the kind."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.games.oneroll.kind import OneRollKind, OneRollTable
from bot.rules import oneroll
from bot.rules.dice import ScriptedDice
from bot.rules.oneroll import OneRollConfig, Throw
from bot.tables.model import Seat

KIND = OneRollKind()
NOTHING = (2, 3, 4, 5, 6, 6)  # classic 0
FIVE = (1, 2, 5, 5, 6, 6)  # classic 5
TWENTY = (1, 2, 3, 4, 5, 5)  # classic 20
LOW = (1, 1, 1, 2, 2, 2)  # 9 pips
HIGH = (6,) * 6  # 36 pips


def seats(n: int) -> list[Seat]:
    return [Seat(user_id=100 + i, name=f"P{i}") for i in range(n)]


def throw_all(state: oneroll.OneRollState, *throws: tuple[int, ...]) -> oneroll.OneRollState:
    dice = ScriptedDice(throws)
    for _ in throws:
        state = oneroll.apply(state, Throw(), dice)
    return state


def opened(n_seats: int, target: int = 100) -> oneroll.OneRollState:
    """A classic game that seat 0 starts."""
    state = oneroll.new_game(OneRollConfig("classic", target), n_seats)
    return throw_all(state, HIGH, *[LOW] * (n_seats - 1))


def table(state: oneroll.OneRollState) -> OneRollTable:
    return OneRollTable(state, 0, (0,) * state.n_seats)


def test_forfeit_of_the_seat_to_throw_passes_the_turn() -> None:
    state = opened(3)
    before = table(state)
    after = KIND.forfeit(before, 0)
    assert KIND.current_seat(after) == 1
    assert KIND.turn_index(after) == KIND.turn_index(before) + 1
    assert KIND.forfeited(after) == frozenset({0})
    # Seat 0 is skipped from now on: 1, 2, 1, ...
    state = throw_all(after.state, FIVE, FIVE)
    assert state.current == 1


def test_forfeit_of_another_seat_does_not_pass_the_turn() -> None:
    before = table(opened(3))
    after = KIND.forfeit(before, 2)
    assert KIND.current_seat(after) == 0
    assert KIND.turn_index(after) == KIND.turn_index(before)
    state = throw_all(after.state, FIVE, FIVE)
    assert state.current == 0


def test_last_seat_standing_wins_at_once_and_forfeited_seats_rank_last() -> None:
    state = opened(3)
    state = throw_all(state, TWENTY, FIVE)  # seat 0: 20, seat 1: 5
    state = oneroll.forfeit(state, 0)
    assert state.outcome is None and state.current == 2
    state = oneroll.forfeit(state, 2)
    assert state.outcome is not None
    assert state.outcome.winner == 1 and state.outcome.reason == "forfeit"
    done = table(state)
    assert KIND.current_seat(done) is None
    results = KIND.results(done, seats(3))
    assert results is not None
    assert [(r.place, r.won, r.score) for r in results] == [
        (2, False, 20),
        (1, True, 5),
        (2, False, 0),
    ]


def test_the_round_and_the_target_count_only_seats_playing() -> None:
    state = opened(3, target=20)
    state = throw_all(state, NOTHING)  # seat 0: 0
    state = oneroll.forfeit(state, 1)  # to throw: seat 2 throws next
    assert state.current == 2
    state = throw_all(state, TWENTY)  # seat 2 completes the round with 20
    assert state.outcome is not None and state.outcome.winner == 2
    assert state.outcome.reason == "target" and state.outcome.rounds == 1
    results = KIND.results(table(state), seats(3))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(2, False), (3, False), (1, True)]


def test_a_forfeited_leader_does_not_win() -> None:
    state = opened(3, target=20)
    state = throw_all(state, TWENTY, FIVE)  # seat 0: 20, seat 1: 5
    state = oneroll.forfeit(state, 0)
    state = throw_all(state, NOTHING)  # seat 2 completes the round
    # Seat 0 reached the target but forfeited: the others play on until one of them does.
    assert state.outcome is None and state.current == 1
    state = throw_all(state, TWENTY, NOTHING)
    assert state.outcome is not None and state.outcome.winner == 1


def test_opening_forfeits_leave_the_pass() -> None:
    state = oneroll.new_game(OneRollConfig("classic"), 3)
    state = throw_all(state, HIGH)  # seat 0 threw the best
    state = oneroll.forfeit(state, 0)  # its opening throw no longer counts
    assert state.phase == "opening" and state.contenders == (1, 2) and state.current == 1
    state = oneroll.forfeit(state, 2)
    assert state.outcome is not None and state.outcome.winner == 1


def test_opening_forfeit_of_the_last_to_throw_decides_the_opening() -> None:
    state = oneroll.new_game(OneRollConfig("classic"), 3)
    state = throw_all(state, LOW, HIGH)
    state = oneroll.forfeit(state, 2)
    assert state.phase == "play" and state.starter == 1 and state.current == 1


def test_tiebreak_forfeits() -> None:
    state = opened(3, target=20)
    state = throw_all(state, TWENTY, TWENTY, NOTHING)
    assert state.phase == "tiebreak" and state.contenders == (0, 1)
    state = oneroll.forfeit(state, 2)  # not in the tie-break
    assert state.phase == "tiebreak" and state.current == 0
    state = oneroll.forfeit(state, 0)  # to throw: the tie-break has one seat left
    assert state.outcome is not None and state.outcome.winner == 1


def test_tiebreak_forfeit_of_a_seat_that_threw() -> None:
    state = opened(4, target=20)
    state = throw_all(state, TWENTY, TWENTY, TWENTY, NOTHING)
    assert state.contenders == (0, 1, 2)
    state = throw_all(state, TWENTY)  # seat 0's tie-break throw
    state = oneroll.forfeit(state, 0)
    assert state.contenders == (1, 2) and state.pass_values == () and state.current == 1
    state = throw_all(state, FIVE, NOTHING)
    assert state.outcome is not None and state.outcome.winner == 1
    assert state.outcome.reason == "tiebreak"


def test_forfeit_twice_or_after_the_end_is_illegal() -> None:
    state = opened(3)
    state = oneroll.forfeit(state, 1)
    with pytest.raises(IllegalAction, match="already forfeited"):
        oneroll.forfeit(state, 1)
    with pytest.raises(IllegalAction, match="already forfeited"):
        KIND.forfeit(table(state), 1)
    state = oneroll.forfeit(state, 2)
    with pytest.raises(IllegalAction, match="over"):
        oneroll.forfeit(state, 0)
    with pytest.raises(IllegalAction):
        oneroll.forfeit(opened(2), 2)


def test_dump_load_keeps_forfeits_and_old_states_load_as_nobody_forfeited() -> None:
    state = oneroll.forfeit(opened(4), 0)
    after = KIND.forfeit(table(state), 2)
    data = KIND.dump(after)
    assert data["forfeited"] == [0, 2]
    assert KIND.load(data) == after
    assert oneroll.load(oneroll.dump(after.state)) == after.state
    old = KIND.dump(table(opened(2)))
    del old["forfeited"], old["skipped"]
    loaded = KIND.load(old)
    assert KIND.forfeited(loaded) == frozenset() and loaded.skipped == 0
    with pytest.raises(ValueError):
        oneroll.load({**oneroll.dump(state), "forfeited": [7]})


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_seats=st.integers(2, 6))
def test_random_games_with_random_forfeits_end_with_a_winner_still_playing(
    seed: int, n_seats: int
) -> None:
    rng = random.Random(seed)
    state = table(
        oneroll.new_game(OneRollConfig(rng.choice(["classic", "heartsdue"]), 40), n_seats)
    )
    for _ in range(5_000):
        current = KIND.current_seat(state)
        if current is None:
            break
        assert current not in KIND.forfeited(state), "a forfeited seat got a turn"
        if rng.random() < 0.05:
            seat = rng.choice(state.state.playing)
            before = KIND.turn_index(state)
            state = KIND.forfeit(state, seat)
            assert (KIND.turn_index(state) != before) == (seat == current)
        else:
            state, _, _ = KIND.apply(state, Throw(), rng, seats(n_seats))
        assert KIND.load(KIND.dump(state)) == state
    outcome = state.state.outcome
    assert outcome is not None, "game did not end"
    assert outcome.winner not in state.state.out
    results = KIND.results(state, seats(n_seats))
    assert results is not None
    last = max(r.place for r in results)
    assert [r.seat for r in results if r.won] == [outcome.winner]
    for r in results:
        if r.seat in state.state.out:
            assert r.place == last and not r.won
