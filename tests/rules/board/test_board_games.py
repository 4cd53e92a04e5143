"""Whole seeded games to the end, with bot players, on every kind of table."""

from __future__ import annotations

import json
import random

import pytest
from board_helpers import check_invariants, position

from bot.rules.board import (
    LEVELS,
    BoardConfig,
    MoveRecord,
    PlayCard,
    apply,
    choose_action,
    dump,
    legal_actions,
    load,
    new_game,
    view_for,
)


def play_game(config: BoardConfig, levels: list[str], seed: int) -> tuple[list[MoveRecord], object]:
    rng = random.Random(seed)
    state = new_game(config, rng, first_seat=seed % config.seats)
    log: list[MoveRecord] = []
    while state.outcome is None:
        assert state.turn_count < 2000, "a bot game should end"
        seat = state.turn
        action = choose_action(view_for(state, seat), levels[seat % len(levels)], rng)
        assert action in legal_actions(state)
        state = apply(state, action, rng)
        assert state.last_move is not None
        log.append(state.last_move)
        check_invariants(state, log)
    # The stored form survives the whole game.
    assert load(json.loads(json.dumps(dump(state)))) == state
    return log, state.outcome


@pytest.mark.parametrize(
    ("seats", "teams"),
    [(2, None), (3, None), (4, None), (6, 3), (9, None), (12, 2)],
)
@pytest.mark.parametrize("levels", [["random"], ["greedy"], ["greedy", "random", "strong"]])
def test_game_reaches_an_outcome(seats: int, teams: int | None, levels: list[str]) -> None:
    config = BoardConfig(seats, teams=teams)
    log, result = play_game(config, levels, seed=seats * 31 + len(levels))
    assert result is not None
    assert log


def test_same_seed_same_game() -> None:
    config = BoardConfig(4)
    first = play_game(config, ["greedy", "random"], seed=7)
    second = play_game(config, ["greedy", "random"], seed=7)
    assert first == second


def test_bots_only_move_on_their_turn() -> None:
    state = new_game(BoardConfig(2), random.Random(3))
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose_action(view_for(state, 1), "greedy", random.Random(0))
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(view_for(state, 0), "genius", random.Random(0))
    assert set(LEVELS) == {"random", "greedy", "strong", "easy", "medium", "hard", "expert"}


def test_bots_complete_the_winning_sequence() -> None:
    # Side 0 holds a sequence on row 1 and B2..E2 on row 2; 6C on A2 wins, on C4 does not.
    chips = {(0, c): 0 for c in (1, 2, 3, 4)} | {(1, c): 0 for c in (1, 2, 3, 4)}
    state = position(
        hands=[["6C", "AS", "KD"], ["3S"]], chips=chips, sequences=[(0, [(0, c) for c in range(5)])]
    )
    for level in ("greedy", "strong", "hard", "expert"):
        assert choose_action(view_for(state, 0), level, random.Random(1)) == PlayCard("6C", 1, 0)


def test_bots_block_a_four() -> None:
    # The opponent holds J2..J4 under the J1 corner; its hole J5 shows A♠, which we hold.
    state = position(hands=[["AS", "7H", "8H"], ["3S"]], chips={(1, 9): 1, (2, 9): 1, (3, 9): 1})
    for level in ("greedy", "strong"):
        assert choose_action(view_for(state, 0), level, random.Random(1)) == PlayCard("AS", 4, 9)
    # With full hands (the searching bots weigh how likely the foe is to finish it).
    hands = [["AS", "7H", "8H", "2C", "3C", "4C", "5C"], ["3S", "4S", "5S", "6S", "7S", "8S", "9S"]]
    state = position(hands=hands, chips={(1, 9): 1, (2, 9): 1, (3, 9): 1})
    for level in ("greedy", "strong", "hard", "expert"):
        assert choose_action(view_for(state, 0), level, random.Random(1)) == PlayCard("AS", 4, 9)


def test_bots_play_a_hand_of_only_two_eyed_jacks() -> None:
    # No space is worth a jack, yet the jack is the only card: it must still be played.
    state = position(hands=[["JD", "JC"], ["3S"]], chips={(5, 5): 1})
    for level in LEVELS:
        action = choose_action(view_for(state, 0), level, random.Random(2))
        assert isinstance(action, PlayCard) and action in legal_actions(state)
