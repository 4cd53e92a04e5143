"""Shared helpers for the board-game tests: build positions, check invariants."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from bot.rules.board import FULL_DECK, BoardState, MoveRecord, forfeit, load
from bot.rules.board.game import EMPTY, PlayCard, RemoveChip
from bot.rules.board.layout import CORNER_CELLS


def position(
    *,
    seats: int = 2,
    chips: dict[tuple[int, int], int] | None = None,
    hands: list[list[str]] | None = None,
    sequences: list[tuple[int, list[tuple[int, int]]]] | None = None,
    turn: int = 0,
    discards: list[str] | None = None,
    draw_pile: list[str] | None = None,
    teams: int | None = None,
    first_sequence_wins: bool = False,
    traded: bool = False,
) -> BoardState:
    """A hand-made position; cards not in hands or discards make up the draw pile."""
    board = [EMPTY] * 100
    for (row, col), side in (chips or {}).items():
        board[row * 10 + col] = side
    hands = hands or [[] for _ in range(seats)]
    discards = discards or []
    if draw_pile is None:
        rest = Counter(FULL_DECK) - Counter(c for hand in hands for c in hand) - Counter(discards)
        draw_pile = sorted(rest.elements())
    data: dict[str, Any] = {
        "version": 1,
        "config": {"seats": seats, "first_sequence_wins": first_sequence_wins, "teams": teams},
        "chips": board,
        "hands": hands,
        "draw_pile": draw_pile,
        "discards": discards,
        "sequences": [
            {"side": side, "cells": [list(cell) for cell in cells]}
            for side, cells in (sequences or [])
        ],
        "turn": turn,
        "first_seat": 0,
        "turn_count": 0,
        "traded": traded,
        "passes": 0,
        "last_move": None,
        "outcome": None,
    }
    return load(data)


def check_invariants(state: BoardState, log: list[MoveRecord]) -> None:
    """Card accounting, chips against the log, locked chips against sequences.

    Accounting: the multiset draw pile + hands + discards is always the 104-card deck
    (played cards, jacks included, go to the discards). Chips: every chip on the board was
    put there by a logged placement on that space and not removed since; the number of
    chips is placements minus removals.
    """
    cards = Counter(state.draw_pile) + Counter(state.discards)
    for hand in state.hands:
        cards += Counter(hand)
    assert cards == Counter(FULL_DECK)
    placed: dict[int, int] = {}
    for move in log:
        action = move.action
        if isinstance(action, PlayCard):
            cell = action.row * 10 + action.col
            assert cell not in placed
            placed[cell] = move.seat % state.config.sides
        elif isinstance(action, RemoveChip):
            del placed[action.row * 10 + action.col]
    on_board = {cell: side for cell, side in enumerate(state.chips) if side != EMPTY}
    assert on_board == placed
    for i, mask in enumerate(state.side_masks):
        assert mask == sum(1 << c for c, s in on_board.items() if s == i)
    corners = {0, 9, 90, 99}
    for seq in state.sequences:
        assert len(seq.cells) == 5
        for row, col in seq.cells:
            cell = row * 10 + col
            assert cell in corners or state.chips[cell] == seq.side
            assert state.is_locked(row, col)
    if state.outcome is None:
        size = state.config.hand_size
        # A forfeited seat's hand went to the discards (RULINGS §4).
        assert all(
            len(hand) == (0 if seat in state.out else size) for seat, hand in enumerate(state.hands)
        )


def seeded(seed: int) -> random.Random:
    return random.Random(seed)


def jacks_only_after_forfeits() -> BoardState:
    """Issue 31.29, found by an independent rules check: an 8-seat game (4 cards a hand)
    where forfeits left seat 0 (side 0) and seat 1 (side 1). The board is full; side 1's
    chips are all locked (hand-made), side 0's are not. Seat 0 holds only one-eyed jacks,
    with nothing it may remove; seat 1 only two-eyed jacks, with no open space. Jacks are
    never dead, so nobody trades and the pile never turns ("stalled" never comes), and
    side 0's chips are free ("blocked" is false)."""
    chips = {
        (r, c): (r + c) % 2 for r in range(10) for c in range(10) if (r, c) not in CORNER_CELLS
    }
    hands = [["JH", "JH", "JS", "JS"], ["JD", "JD", "JC", "JC"], *[[] for _ in range(6)]]
    rest = sorted((Counter(FULL_DECK) - Counter(c for hand in hands for c in hand)).elements())
    # The six seats that left had four cards each: theirs were discarded as they forfeited.
    state = position(
        seats=8, chips=chips, hands=hands, sequences=_diagonals(chips, 1), draw_pile=rest[24:]
    )
    for seat in range(2, 8):
        cards = rest[(seat - 2) * 4 : (seat - 1) * 4]
        state = forfeit(replace(state, hands=(*state.hands[:seat], tuple(cards),
                                              *state.hands[seat + 1 :])), seat)  # fmt: skip
    return state


def _diagonals(
    chips: dict[tuple[int, int], int], side: int
) -> list[tuple[int, list[tuple[int, int]]]]:
    """Five-space diagonal windows of ``side``'s chips (or corners) covering every chip of
    ``side``: hand-made sequences that lock them all (a checkerboard's colours run along
    diagonals), each drawable as a sequence."""

    def own(cell: tuple[int, int]) -> bool:
        return cell in CORNER_CELLS or chips.get(cell) == side

    windows: list[tuple[int, list[tuple[int, int]]]] = []
    covered: set[tuple[int, int]] = set()
    for cell in sorted(c for c, s in chips.items() if s == side):
        if cell in covered:
            continue
        for dr, dc in ((1, 1), (1, -1)):
            for back in range(5):
                r0, c0 = cell[0] - back * dr, cell[1] - back * dc
                window = [(r0 + k * dr, c0 + k * dc) for k in range(5)]
                if all(0 <= r < 10 and 0 <= c < 10 and own((r, c)) for r, c in window):
                    windows.append((side, window))
                    covered.update(window)
                    break
            if cell in covered:
                break
        assert cell in covered, cell
    return windows
