"""Hypothesis properties over random play from random seeds and table sizes."""

from __future__ import annotations

import json
import random
import re
from itertools import combinations, pairwise, product

import pytest
from board_helpers import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import IllegalAction
from bot.rules.board import (
    EMPTY,
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
from bot.rules.board.game import new_sequences, sequence_cells
from bot.rules.board.layout import CORNER_CELLS, LINES

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
        # A pass only when nothing can be played or traded (RULINGS §3 "Blocked game").
        assert Pass() not in legal or legal == [Pass()]
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


# ----------------------------------------------------------------------------- lock choice
# RULINGS §3: of the legal ways to lock a completed run, the engine takes one with the most
# sequences, then the most room left on the line for another sequence of the side, then the
# fewest chips short of it. The oracle below recomputes that by brute force, in positions
# along the line, independently of the engine's code.


def _room(
    length: int, taken: list[frozenset[int]], own: set[int], foe_locked: set[int]
) -> tuple[int, int]:
    """(room, -short) of a line of ``length`` positions once ``taken`` are the side's."""
    room, short = 0, 99
    for start in range(length - 4):
        window = set(range(start, start + 5))
        if all(len(window & seq) <= 1 for seq in taken) and not window & foe_locked:
            room += 1
            short = min(short, len(window - own))
    return room, -short


def _oracle(
    length: int, pos: int, own: set[int], foe_locked: set[int], on_line: list[frozenset[int]]
) -> tuple[int, tuple[int, int]]:
    """Most sequences a chip on ``pos`` completes, and the best room key among those locks."""
    windows = [
        frozenset(range(start, start + 5))
        for start in range(length - 4)
        if pos in range(start, start + 5)
        and set(range(start, start + 5)) <= own
        and all(len(set(range(start, start + 5)) & seq) <= 1 for seq in on_line)
    ]
    for size in range(len(windows), 0, -1):
        keys = [
            _room(length, on_line + list(combo), own, foe_locked)
            for combo in combinations(windows, size)
            if all(len(a & b) <= 1 for a, b in combinations(combo, 2))
        ]
        if keys:
            return size, max(keys)
    return 0, (0, 0)


def _check_lock_choice(
    line: tuple[int, ...],
    masks: tuple[int, ...],
    locked: int,
    side: int,
    cell: int,
    existing: list[frozenset[int]],
) -> None:
    """The engine's lock on ``line`` for a chip on ``cell`` matches the oracle's best."""
    index = {c: i for i, c in enumerate(line)}
    own = {i for i, c in enumerate(line) if masks[side] >> c & 1 or c in CORNER_CELLS}
    others = [m for s, m in enumerate(masks) if s != side]
    foe_locked = {
        i for i, c in enumerate(line) if locked >> c & 1 and any(m >> c & 1 for m in others)
    }
    on_line = [frozenset(index[c] for c in seq if c in index) for seq in existing]
    on_line = [seq for seq in on_line if len(seq) >= 2]
    chosen = [
        frozenset(index[c] for c in seq)
        for seq in new_sequences(masks, locked, side, cell, existing)
        if seq <= set(line)
    ]
    size, best = _oracle(len(line), index[cell], own, foe_locked, on_line)
    assert len(chosen) == size
    if size:
        assert _room(len(line), on_line + chosen, own, foe_locked) == best


CONTENT = st.sampled_from(["own"] * 5 + ["empty", "foe", "foe_locked"])


@settings(max_examples=400, deadline=None)
@given(
    line_index=st.integers(0, len(LINES) - 1),
    contents=st.lists(CONTENT, min_size=10, max_size=10),
    run=st.tuples(st.integers(0, 9), st.integers(5, 10), st.integers(0, 9)),
    sequence_start=st.none() | st.integers(0, 5),
)
def test_lock_never_leaves_less_room_than_another_legal_lock(
    line_index: int,
    contents: list[str],
    run: tuple[int, int, int],
    sequence_start: int | None,
) -> None:
    # A run of own chips (``length`` from ``start``, cut to the line) with the new chip at
    # ``offset`` in it; everything else on the line is random, maybe an own sequence too.
    line = LINES[line_index]
    start, length, offset = run
    start %= len(line) - 4
    end = min(start + length, len(line))
    pos = start + offset % (end - start)
    for i in range(start, end):
        contents[i] = "own"
    masks = [0, 0]
    locked = 0
    existing: list[frozenset[int]] = []
    if sequence_start is not None and sequence_start + 5 <= len(line):
        if sequence_start <= pos < sequence_start + 5:
            return  # the new chip lands on an empty space, never inside a sequence
        seq = frozenset(line[sequence_start : sequence_start + 5])
        existing.append(seq)
        for i in range(sequence_start, sequence_start + 5):
            contents[i] = "own"
        for c in seq:
            locked |= 1 << c
    for i, c in enumerate(line):
        if c in CORNER_CELLS:
            continue
        what = contents[i]
        if what == "own":
            masks[0] |= 1 << c
        elif what in ("foe", "foe_locked"):
            masks[1] |= 1 << c
            if what == "foe_locked":
                locked |= 1 << c
    _check_lock_choice(line, (masks[0], masks[1]), locked, 0, line[pos], existing)


@pytest.mark.parametrize("line_index", [4, 0, 21], ids=["row-5", "row-1-corners", "diagonal-9"])
def test_lock_choice_on_every_filling_of_a_line(line_index: int) -> None:
    # Exhaustive over one line: each space holds an own chip, an unlocked foe chip or a
    # locked foe chip (an empty space weighs like an unlocked foe chip in the choice);
    # every own chip with a run of 6+ through it is tried as the new one.
    line = LINES[line_index]
    corners = [i for i, c in enumerate(line) if c in CORNER_CELLS]
    checked = 0
    for contents in product("ofl", repeat=len(line)):
        if any(contents[i] != "o" for i in corners):
            continue
        masks = [0, 0]
        locked = 0
        for i, c in enumerate(line):
            if contents[i] == "o" and c not in CORNER_CELLS:
                masks[0] |= 1 << c
            elif contents[i] in "fl":
                masks[1] |= 1 << c
                locked |= (contents[i] == "l") << c
        text = "".join(contents)
        for run in re.finditer("o{6,}", text):
            for pos in range(run.start(), run.end()):
                if line[pos] not in CORNER_CELLS:
                    _check_lock_choice(line, (masks[0], masks[1]), locked, 0, line[pos], [])
                    checked += 1
    assert checked > 300


@settings(max_examples=30, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1))
def test_random_games_lock_the_roomiest_sequences(table: tuple[int, int | None], seed: int) -> None:
    states = play_out(*table, seed, max_turns=400)
    for before, after in pairwise(states):
        move = after.last_move
        if move is None or not move.new_sequences or not isinstance(move.action, PlayCard):
            continue
        cell = move.action.row * 10 + move.action.col
        side = move.seat % after.config.sides
        existing = sequence_cells(before.sequences, side)
        for seq in move.new_sequences:
            cells = {r * 10 + c for r, c in seq.cells}
            line = next(line for line in LINES if cells <= set(line))
            assert before.chip_at(move.action.row, move.action.col) is None
            assert after.chips[cell] == side != EMPTY
            _check_lock_choice(line, after.side_masks, before.locked, side, cell, existing)
