"""Forfeits in the board game (RULINGS §4): the rules core, the bots and the kind."""

from __future__ import annotations

import random

import pytest
from board_helpers import check_invariants, position
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.games.board.kind import BoardKind
from bot.rules.board import (
    BoardConfig,
    BoardOutcome,
    MoveRecord,
    PlayCard,
    TradeDeadCard,
    apply,
    choose_action,
    dump,
    forfeit,
    legal_actions,
    load,
    new_game,
    view_for,
)
from bot.tables.model import Seat

KIND = BoardKind()
RNG = random.Random(7)


def seats(n: int) -> list[Seat]:
    return [Seat(user_id=100 + i, name=f"P{i}") for i in range(n)]


def test_forfeit_of_the_seat_to_move_passes_the_turn_and_discards_the_hand() -> None:
    state = new_game(BoardConfig(3), random.Random(1))
    hand = state.hands[0]
    after = forfeit(state, 0)
    assert after.turn == 1 and after.outcome is None
    assert after.hands[0] == () and after.discards == hand
    assert KIND.turn_index(after) == KIND.turn_index(state) + 1
    assert KIND.current_seat(after) == 1
    assert KIND.forfeited(after) == frozenset({0})
    assert view_for(after, 1).hand_sizes[0] == 0


def test_forfeit_of_another_seat_does_not_pass_the_turn_and_is_skipped() -> None:
    rng = random.Random(2)
    state = new_game(BoardConfig(3), rng)
    after = forfeit(state, 2)
    assert after.turn == 0 and KIND.turn_index(after) == KIND.turn_index(state)
    after = apply(after, choose_action(view_for(after, 0), "greedy", rng), rng)
    assert after.turn == 1
    after = apply(after, choose_action(view_for(after, 1), "strong", rng), rng)
    assert after.turn == 0  # seat 2 is skipped


def test_last_side_standing_wins_at_once() -> None:
    state = new_game(BoardConfig(2), random.Random(3))
    after = forfeit(state, 0)
    assert after.outcome == BoardOutcome(1, (1,), "forfeit")
    assert KIND.current_seat(after) is None
    results = KIND.results(after, seats(2))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(2, False), (1, True)]
    assert legal_actions(after) == []


def test_three_sides_two_forfeit_the_third_wins() -> None:
    state = new_game(BoardConfig(3), random.Random(4))
    state = forfeit(state, 1)
    assert state.outcome is None
    state = forfeit(state, 0)
    assert state.outcome == BoardOutcome(2, (2,), "forfeit")
    results = KIND.results(state, seats(3))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(2, False), (2, False), (1, True)]


def test_teams_one_partner_out_the_team_plays_on_both_out_the_other_wins() -> None:
    state = new_game(BoardConfig(4), random.Random(5))  # sides: A = 0, 2; B = 1, 3
    state = forfeit(state, 1)
    assert state.outcome is None and state.turn == 0
    state = apply(state, legal_actions(state)[0], RNG)
    assert state.turn == 2  # seat 1 is skipped
    state = forfeit(state, 3)
    assert state.outcome == BoardOutcome(0, (0, 2), "forfeit")
    results = KIND.results(state, seats(4))
    assert results is not None
    assert [(r.place, r.won, r.team) for r in results] == [
        (1, True, 0),
        (2, False, 1),
        (1, True, 0),
        (2, False, 1),
    ]


def test_a_team_win_leaves_out_its_forfeited_partner_who_ranks_last() -> None:
    chips = {(0, c): 1 for c in (1, 2, 3)}
    state = position(seats=6, teams=3, hands=[[]] * 4 + [["5S"], []], turn=4, chips=chips)
    state = forfeit(state, 1)
    won = apply(state, PlayCard("5S", 0, 4), RNG)
    assert won.outcome == BoardOutcome(1, (4,), "sequences")
    results = KIND.results(won, seats(6))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [
        (2, False),
        (3, False),
        (2, False),
        (2, False),
        (1, True),
        (2, False),
    ]


def test_a_draw_ranks_the_seats_playing_first_and_the_forfeited_last() -> None:
    # 2S dead (B1 and G9 taken); one reshuffle went by with no chip placed, the pile is
    # empty: seat 0's trade reshuffles again, a draw (RULINGS §3 "Blocked game").
    state = position(seats=3, hands=[["2S"], [], []], chips={(0, 1): 0, (8, 6): 1})
    data = dump(state)
    data["idle_reshuffles"], data["discards"], data["draw_pile"] = 1, data["draw_pile"], []
    state = forfeit(load(data), 2)
    assert state.passes == 0 and state.outcome is None
    state = apply(state, TradeDeadCard("2S"), RNG)
    assert state.outcome == BoardOutcome(None, (), "stalled")
    results = KIND.results(state, seats(3))
    assert results is not None
    assert [(r.place, r.won) for r in results] == [(1, False), (1, False), (2, False)]


def test_bots_ignore_the_lines_of_a_side_that_is_out() -> None:
    # Side 2 has four on row 0 (the corner and three chips); 5S on E1 blocks it.
    chips = {(0, c): 2 for c in (1, 2, 3)}
    state = position(seats=3, hands=[["5S", "7H"], [], ["2S"]], chips=chips)
    for level in ("greedy", "strong"):
        assert choose_action(view_for(state, 0), level, random.Random(0)) == PlayCard("5S", 0, 4)
    state = forfeit(state, 2)
    assert view_for(state, 0).sides_out() == frozenset({2})
    for level in ("greedy", "strong"):
        action = choose_action(view_for(state, 0), level, random.Random(0))
        assert action in legal_actions(state) and action != PlayCard("5S", 0, 4)


def test_forfeit_twice_or_after_the_end_is_illegal() -> None:
    state = forfeit(new_game(BoardConfig(3), random.Random(6)), 1)
    with pytest.raises(IllegalAction, match="already forfeited"):
        forfeit(state, 1)
    with pytest.raises(IllegalAction, match="already forfeited"):
        KIND.forfeit(state, 1)
    state = forfeit(state, 2)
    assert state.outcome is not None
    with pytest.raises(IllegalAction, match="over"):
        forfeit(state, 0)
    with pytest.raises(IllegalAction):
        forfeit(new_game(BoardConfig(2), random.Random(6)), 2)


def test_dump_load_keeps_forfeits_and_old_states_load_as_nobody_forfeited() -> None:
    state = forfeit(forfeit(new_game(BoardConfig(6), random.Random(8)), 0), 3)
    data = KIND.dump(state)
    assert data["forfeited"] == [0, 3]
    assert KIND.load(data) == state and KIND.forfeited(KIND.load(data)) == frozenset({0, 3})
    old = dump(new_game(BoardConfig(2), random.Random(9)))
    del old["forfeited"]
    assert load(old).out == frozenset()
    with pytest.raises(ValueError):
        load({**dump(state), "forfeited": [12]})


TABLES = st.sampled_from([(2, None), (3, None), (4, None), (6, 3), (6, None), (9, None)])


@settings(max_examples=40, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1))
def test_random_games_with_random_forfeits_end_properly(
    table: tuple[int, int | None], seed: int
) -> None:
    n, teams = table
    rng = random.Random(seed)
    state = new_game(BoardConfig(n, teams=teams), rng, first_seat=seed % n)
    log: list[MoveRecord] = []
    while state.outcome is None and state.turn_count < 300:
        assert state.turn not in state.out, "a forfeited seat got a turn"
        if rng.random() < 0.04:
            seat = rng.choice(state.playing)
            before = KIND.turn_index(state)
            was_turn = seat == state.turn
            state = forfeit(state, seat)
            assert (KIND.turn_index(state) != before) == was_turn
        else:
            level = rng.choice(["random", "random", "greedy", "strong"])
            state = apply(state, choose_action(view_for(state, state.turn), level, rng), rng)
            assert state.last_move is not None
            log.append(state.last_move)
        check_invariants(state, log)
    assert load(dump(state)) == state
    if state.outcome is None:
        return  # long game: the invariants held all along
    winners = set(state.outcome.seats)
    assert not winners & state.out
    if state.outcome.side is not None:
        assert winners and all(s % state.config.sides == state.outcome.side for s in winners)
    results = KIND.results(state, seats(n))
    assert results is not None
    last = max(r.place for r in results)
    for r in results:
        assert r.won == (r.seat in winners)
        if r.seat in state.out:
            assert r.place == last and not r.won
