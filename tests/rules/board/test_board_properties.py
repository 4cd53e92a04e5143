"""Hypothesis properties over random play from random seeds and table sizes."""

from __future__ import annotations

import json
import random

from board_helpers import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.rules.board import (
    FULL_DECK,
    Action,
    BoardConfig,
    BoardState,
    MoveRecord,
    Pass,
    PlayCard,
    RemoveChip,
    TradeDeadCard,
    apply,
    dump,
    dump_action,
    dump_move,
    legal_actions,
    load,
    load_action,
    load_move,
    new_game,
)

TABLES = st.sampled_from([(2, None), (3, None), (4, None), (6, 3), (6, None), (9, None), (12, 2)])
CARDS = sorted(set(FULL_DECK))


def any_action(rng: random.Random) -> Action:
    """An arbitrary, usually illegal, action."""
    kind = rng.randrange(4)
    card = rng.choice(CARDS)
    row, col = rng.randrange(10), rng.randrange(10)
    if kind == 0:
        return PlayCard(card, row, col)
    if kind == 1:
        return RemoveChip(card, row, col)
    if kind == 2:
        return TradeDeadCard(card)
    return Pass()


def play_out(seats: int, teams: int | None, seed: int, max_turns: int) -> list[BoardState]:
    rng = random.Random(seed)
    state = new_game(BoardConfig(seats, teams=teams), rng, first_seat=seed % seats)
    states = [state]
    while state.outcome is None and state.turn_count < max_turns:
        state = apply(state, rng.choice(legal_actions(state)), rng)
        states.append(state)
    return states


@settings(max_examples=60, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_along_random_games(table: tuple[int, int | None], seed: int) -> None:
    states = play_out(*table, seed, max_turns=400)
    log: list[MoveRecord] = []
    locked_before = 0
    for state in states:
        if state.last_move is not None:
            log.append(state.last_move)
        check_invariants(state, log)
        # Locked chips never leave and never change side.
        assert state.locked & locked_before == locked_before
        locked_before = state.locked
    # A finished game's winner really has the sequences it needs.
    final = states[-1]
    if final.outcome is not None and final.outcome.side is not None:
        assert final.sequence_counts()[final.outcome.side] >= final.config.sequences_to_win


@settings(max_examples=40, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_exactly_what_apply_accepts(
    table: tuple[int, int | None], seed: int
) -> None:
    rng = random.Random(seed ^ 0x5EED)
    for state in play_out(*table, seed, max_turns=150)[::7]:
        legal = legal_actions(state)
        if state.outcome is not None:
            assert legal == []
            continue
        assert legal, "the seat to move always has an action"
        for action in legal:
            apply(state, action, random.Random(1))
        for _ in range(40):
            action = any_action(rng)
            try:
                apply(state, action, random.Random(1))
            except IllegalAction:
                assert action not in legal
            else:
                assert action in legal


@settings(max_examples=40, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1))
def test_dump_load_round_trip(table: tuple[int, int | None], seed: int) -> None:
    for state in play_out(*table, seed, max_turns=300)[::5]:
        data = json.loads(json.dumps(dump(state)))
        back = load(data)
        assert back == state
        assert back.side_masks == state.side_masks and back.locked == state.locked
        if state.last_move is not None:
            assert load_move(json.loads(json.dumps(dump_move(state.last_move)))) == state.last_move
        for action in legal_actions(state)[:10]:
            assert load_action(json.loads(json.dumps(dump_action(action)))) == action


def test_load_action_refuses_garbage() -> None:
    for bad in (
        {},
        {"type": "play", "card": "ZZ", "row": 1, "col": 1},
        {"type": "fly", "card": "2S"},
    ):
        try:
            load_action(bad)
        except IllegalAction:
            continue
        raise AssertionError(f"accepted {bad}")
