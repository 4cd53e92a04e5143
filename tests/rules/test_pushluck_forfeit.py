"""Forfeits in push-your-luck Sequences (RULINGS §4): the rules core and the kind."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.games.sequences.kind import SequencesKind
from bot.rules import pushluck as pl
from bot.rules.dice import RandomDice, ScriptedDice
from bot.tables.model import Seat

KIND = SequencesKind()
BUST = (2, 2, 2, 2, 2)


def seats(n: int) -> list[Seat]:
    return [Seat(user_id=100 + i, name=f"P{i}") for i in range(n)]


def bank_one(state: pl.PushState) -> pl.PushState:
    """The seat to move throws 1-6-6-6-6, locks the 1 and banks 1 point."""
    dice = ScriptedDice([(1, 6, 6, 6, 6)])
    for action in (pl.Throw(), pl.Lock(1), pl.Bank()):
        state = pl.apply(state, action, dice)
    return state


def bust(state: pl.PushState) -> pl.PushState:
    return pl.apply(state, pl.Throw(), ScriptedDice([BUST]))


def test_forfeit_of_the_seat_to_move_passes_the_turn() -> None:
    state = pl.new_game(pl.PushConfig(rounds=3), 3)
    after = pl.forfeit(state, 0)
    assert after.out == frozenset({0})
    assert after.current == 1 and after.phase == "throw" and after.outcome is None
    assert KIND.turn_index(after) == KIND.turn_index(state) + 1
    assert KIND.current_seat(after) == 1
    assert KIND.forfeited(after) == frozenset({0})


def test_forfeit_mid_turn_scores_nothing_and_passes_the_turn() -> None:
    state = pl.new_game(pl.PushConfig(rounds=3), 3)
    state = pl.apply(state, pl.Throw(), ScriptedDice([(1, 2, 3, 6, 6)]))
    state = pl.apply(state, pl.Lock(3), ScriptedDice([]))
    assert state.phase == "decide"
    after = pl.forfeit(state, 0)
    assert after.totals == (0, 0, 0) and after.run == () and after.throw == ()
    assert after.current == 1 and after.phase == "throw"


def test_forfeit_of_another_seat_does_not_pass_the_turn() -> None:
    state = pl.new_game(pl.PushConfig(rounds=3), 3)
    state = pl.apply(state, pl.Throw(), ScriptedDice([(1, 2, 3, 6, 6)]))
    after = pl.forfeit(state, 2)
    assert after.current == 0 and after.phase == "lock" and after.throw == state.throw
    assert KIND.turn_index(after) == KIND.turn_index(state)
    # Seat 2 is skipped from now on.
    after = pl.apply(after, pl.Lock(3), ScriptedDice([]))
    after = pl.apply(after, pl.Bank(), ScriptedDice([]))
    assert after.current == 1
    after = bust(after)
    assert after.current == 0


def test_last_side_standing_wins_at_once() -> None:
    state = pl.new_game(pl.PushConfig(rounds=5), 3)
    state = pl.forfeit(state, 1)
    assert state.outcome is None
    state = pl.forfeit(state, 0)
    assert state.outcome == pl.Outcome((2,), "forfeit")
    assert KIND.current_seat(state) is None
    results = KIND.results(state, seats(3))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(2, False), (2, False), (1, True)]


def test_forfeited_seats_are_skipped_and_the_round_counts_only_seats_playing() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 3)
    state = bank_one(state)  # seat 0: 1
    state = pl.forfeit(state, 2)
    state = bust(state)  # seat 1 ends the round: seat 2 plays no more
    assert state.outcome == pl.Outcome((0,), "rounds")


def test_forfeit_of_the_last_seat_of_a_round_ends_the_round() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 3)
    state = bank_one(state)
    state = bust(state)
    assert state.current == 2
    state = pl.forfeit(state, 2)
    assert state.outcome == pl.Outcome((0,), "rounds")


def test_target_round_is_finished_only_among_seats_playing() -> None:
    state = pl.new_game(pl.PushConfig(rounds=None, target=5), 3)
    dice = ScriptedDice([(1, 2, 3, 4, 5)])
    for action in (pl.Throw(), pl.Lock(5), pl.Bank()):
        state = pl.apply(state, action, dice)
    state = pl.forfeit(state, 1)
    assert state.current == 2 and state.outcome is None  # seat 2 still gets its turn
    state = bust(state)
    assert state.outcome == pl.Outcome((0,), "target")


def test_forfeited_leader_cannot_win_and_ranks_last() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 3)
    dice = ScriptedDice([(1, 2, 3, 4, 5)])
    for action in (pl.Throw(), pl.Lock(5), pl.Bank()):
        state = pl.apply(state, action, dice)  # seat 0 leads with 5
    state = pl.forfeit(state, 0)
    state = bank_one(state)  # seat 1: 1
    state = bust(state)  # seat 2: 0
    assert state.outcome == pl.Outcome((1,), "rounds")
    results = KIND.results(state, seats(3))
    assert results is not None
    assert [(r.place, r.won, r.score) for r in results] == [
        (3, False, 5),
        (1, True, 1),
        (2, False, 0),
    ]


def test_tiebreak_only_among_seats_playing_and_a_lone_tied_side_wins() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 3)
    state = bank_one(state)
    state = bank_one(state)
    state = bust(state)
    assert state.tiebreak == (0, 1) and state.current == 0
    state = pl.forfeit(state, 2)  # not in the tie-break: nothing changes
    assert state.tiebreak == (0, 1) and state.current == 0 and state.outcome is None
    state = pl.forfeit(state, 0)
    assert state.outcome == pl.Outcome((1,), "forfeit")


def test_tiebreak_forfeit_of_the_player_to_move_lets_the_others_decide() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 4)
    for _ in range(3):
        state = bank_one(state)
    state = bust(state)
    assert state.tiebreak == (0, 1, 2)
    state = bank_one(state)  # seat 0's tie-break turn: 1
    state = pl.forfeit(state, 0)  # already played: its tie-break points go
    assert state.tiebreak == (1, 2) and state.tiebreak_points == () and state.current == 1
    state = bank_one(state)
    state = pl.forfeit(state, 2)  # to move, and the last of the tie-break but one side left
    assert state.outcome == pl.Outcome((1,), "tiebreak")


def test_tiebreak_forfeit_of_the_last_to_move_decides_it() -> None:
    state = pl.new_game(pl.PushConfig(rounds=1), 4)
    for _ in range(3):
        state = bank_one(state)
    state = bust(state)
    state = bank_one(state)  # seat 0: 1
    state = bust(state)  # seat 1: 0
    assert state.current == 2
    state = pl.forfeit(state, 2)
    assert state.outcome == pl.Outcome((0,), "tiebreak")


def test_team_one_partner_out_the_team_plays_on() -> None:
    state = pl.new_game(pl.PushConfig(variant="team", rounds=2), 4)
    state = bank_one(state)  # seat 0 (team A): 1
    state = pl.forfeit(state, 2)  # team A's other partner
    assert state.outcome is None and state.current == 1
    state = bust(state)  # seat 1
    assert state.current == 3  # seat 2 is skipped
    state = bust(state)  # seat 3 ends round 1
    assert state.current == 0
    state = bust(state)
    state = bust(state)
    state = bust(state)
    # Team A keeps seat 0's point and seat 2's nothing; seat 2 ranks last and does not win.
    assert state.outcome == pl.Outcome((0,), "rounds")
    results = KIND.results(state, seats(4))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(1, True), (2, False), (3, False), (2, False)]


def test_team_both_partners_out_the_other_team_wins() -> None:
    state = pl.new_game(pl.PushConfig(variant="team", rounds=5), 4)
    state = pl.forfeit(state, 3)
    assert state.outcome is None
    state = pl.forfeit(state, 1)
    assert state.outcome == pl.Outcome((0, 2), "forfeit")
    results = KIND.results(state, seats(4))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(1, True), (2, False), (1, True), (2, False)]


def test_team_win_leaves_out_a_forfeited_partner() -> None:
    state = pl.new_game(pl.PushConfig(variant="team", rounds=5), 4)
    state = pl.forfeit(state, 2)
    state = pl.forfeit(state, 1)
    state = pl.forfeit(state, 3)
    assert state.outcome == pl.Outcome((0,), "forfeit")
    results = KIND.results(state, seats(4))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(1, True), (2, False), (2, False), (2, False)]


def test_sudden_skips_forfeited_seats() -> None:
    state = pl.new_game(pl.PushConfig(variant="sudden"), 3)
    state = pl.forfeit(state, 1)
    state = bust(state)
    assert state.current == 2
    state = bust(state)
    assert state.current == 0


def test_forfeit_twice_or_after_the_end_is_illegal() -> None:
    state = pl.new_game(pl.PushConfig(rounds=3), 3)
    state = pl.forfeit(state, 1)
    with pytest.raises(IllegalAction, match="already forfeited"):
        pl.forfeit(state, 1)
    with pytest.raises(IllegalAction, match="already forfeited"):
        KIND.forfeit(state, 1)
    state = pl.forfeit(state, 2)
    assert state.outcome is not None
    with pytest.raises(IllegalAction, match="over"):
        pl.forfeit(state, 0)
    with pytest.raises(IllegalAction):
        pl.forfeit(pl.new_game(pl.PushConfig(), 2), 5)


def test_dump_load_keeps_forfeits_and_old_states_load_as_nobody_forfeited() -> None:
    state = pl.new_game(pl.PushConfig(rounds=3), 4)
    state = pl.forfeit(state, 0)
    state = pl.forfeit(state, 2)
    data = KIND.dump(state)
    assert data["forfeited"] == [0, 2]
    assert KIND.load(data) == state
    old = {k: v for k, v in pl.dump(pl.new_game(pl.PushConfig(), 2)).items()}
    del old["forfeited"], old["forfeited_turns"]
    loaded = pl.load(old)
    assert loaded.out == frozenset() and loaded.forfeited_turns == 0
    assert KIND.forfeited(loaded) == frozenset()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(pl.VARIANTS),
    seats_n=st.integers(2, 4),
    target=st.booleans(),
)
def test_random_games_with_random_forfeits_end_with_winners_still_playing(
    seed: int, variant: pl.Variant, seats_n: int, target: bool
) -> None:
    rng = random.Random(seed)
    if variant == "team":
        seats_n = 4
    rounds, goal = (None, 12) if target else (3, None)
    state = pl.new_game(pl.PushConfig(variant=variant, rounds=rounds, target=goal), seats_n)
    dice = RandomDice(rng)
    for _ in range(20_000):
        if state.outcome is not None:
            break
        assert state.current not in state.out, "a forfeited seat got a turn"
        if rng.random() < 0.03:
            seat = rng.choice(state.playing)
            before = KIND.turn_index(state)
            was_current = seat == state.current
            state = pl.forfeit(state, seat)
            assert (KIND.turn_index(state) != before) == was_current
        else:
            state = pl.apply(state, rng.choice(pl.legal_actions(state)), dice)
        assert pl.load(pl.dump(state)) == state
    assert state.outcome is not None, "game did not end"
    winners = state.outcome.winners
    assert winners and not set(winners) & state.out
    assert len({state.side_of(s) for s in winners}) == 1
    results = KIND.results(state, seats(seats_n))
    assert results is not None
    last = max(r.place for r in results)
    for r in results:
        assert r.won == (r.seat in winners)
        if r.seat in state.out:
            assert r.place == last and not r.won
