"""The coach reads one seat's view only: its suggestions and its review are the same
whatever the hidden cards (the other hands and the draw pile) are."""

from __future__ import annotations

import dataclasses
import random
from itertools import pairwise

from bot.rules import board as b
from bot.rules.board.coach import reasons, review, suggest
from bot.rules.board.search import unseen_cards


def _game(seed: int, turns: int) -> tuple[b.BoardState, list[tuple[b.SeatView, b.Action]]]:
    rng = random.Random(seed)
    state = b.new_game(b.BoardConfig(seats=2), rng)
    moves: list[tuple[b.SeatView, b.Action]] = []
    for _ in range(turns):
        if state.outcome is not None:
            break
        view = b.view_for(state, state.turn)
        action = b.choose_action(view, "greedy", rng)
        if state.turn == 0:
            moves.append((view, action))
        state = b.apply(state, action, rng)
    return state, moves


def _hidden_reshuffled(state: b.BoardState, seat: int, seed: int) -> b.BoardState:
    """The same position for ``seat`` with every card it cannot see dealt afresh."""
    view = b.view_for(state, seat)
    pool = unseen_cards(view)
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(pool[at : at + len(hand)]))
            at += len(hand)
    return dataclasses.replace(state, hands=tuple(hands), draw_pile=tuple(pool[at:]))


def test_suggestions_do_not_depend_on_hidden_cards() -> None:
    state, _ = _game(4, 24)
    seat = state.turn
    other = _hidden_reshuffled(state, seat, 99)
    assert other.hands[1 - seat] != state.hands[1 - seat]
    first = suggest(b.view_for(state, seat), random.Random(7))
    second = suggest(b.view_for(other, seat), random.Random(7))
    assert first == second and 1 <= len(first) <= 3
    legal = b.legal_actions(b.view_for(state, seat))
    assert all(s.action in legal and s.reasons for s in first)


def test_review_names_only_the_seats_own_moves_and_better_moves_from_its_hand() -> None:
    _, moves = _game(3, 60)
    mistakes = review(moves)
    assert mistakes and len(mistakes) <= 3
    for m in mistakes:
        view, played = moves[m.index]
        assert m.view == view and m.played == played
        assert m.better in b.legal_actions(view) and m.better_value > m.played_value
        assert getattr(m.better, "card", None) in view.hand


def test_a_block_is_named_as_one() -> None:
    rng = random.Random(5)
    state = b.new_game(b.BoardConfig(seats=2), rng)
    # Bo (side 1) holds four of row 3 from A3 (a corner is not in row 3: B3-E3).
    chips = list(state.chips)
    for col in range(1, 5):
        chips[2 * 10 + col] = 1
    masks = [0, sum(1 << (2 * 10 + c) for c in range(1, 5))]
    state = dataclasses.replace(state, chips=tuple(chips), side_masks=tuple(masks), turn=0)
    view = b.view_for(state, 0)
    blocks = [
        a
        for a in b.legal_actions(view)
        if isinstance(a, b.PlayCard) and (a.row, a.col) in ((2, 0), (2, 5))
    ]
    assert blocks  # the hand holds a card of A3 or F3 (seed 5)
    for action in blocks:
        assert reasons(view, action)[0].kind == "blocks"


def _random_mover(seed: int, turns: int) -> list[tuple[b.SeatView, b.Action]]:
    """Seat 0 plays at random (so it keeps missing good moves) against a greedy seat 1."""
    rng = random.Random(seed)
    state = b.new_game(b.BoardConfig(seats=2), rng)
    moves: list[tuple[b.SeatView, b.Action]] = []
    for _ in range(turns):
        if state.outcome is not None:
            break
        view = b.view_for(state, state.turn)
        action = b.choose_action(view, "random" if state.turn == 0 else "greedy", rng)
        if state.turn == 0:
            moves.append((view, action))
        state = b.apply(state, action, rng)
    return moves


def test_a_better_move_missed_on_several_moves_in_a_row_is_named_once() -> None:
    """Issue 31 item 17: Ana's moves 20 and 21 were both told "J on D3". A better move the
    seat kept missing on consecutive moves is named once, where missing it cost most."""
    moves = _random_mover(2, 80)  # seat 0's moves 3 to 7 all missed 9♥ on E7
    every = review(moves, count=99)
    for first, then in pairwise(every):
        assert not (then.index == first.index + 1 and then.better == first.better), (
            first.index,
            then.better,
        )
    run = [m for m in every if 2 <= m.index <= 6]  # one run: 9♥ on E7 each time
    assert [m.better for m in run] == [b.PlayCard("9H", 6, 4)]
    # The one kept is where missing it cost most.
    drops = [review([moves[i]], count=1)[0].drop for i in range(2, 7)]
    assert run[0].drop == max(drops)
