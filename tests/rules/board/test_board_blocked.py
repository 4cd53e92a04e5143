"""RULINGS §3 "Blocked game": passing is not the end; a draw only when no card left in the
game could ever be played, or when the pile went round twice with no chip placed or removed."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from board_helpers import check_invariants, jacks_only_after_forfeits, position

from bot.errors import IllegalAction
from bot.rules.board import (
    FULL_DECK,
    PLAYER_LEVELS,
    BoardConfig,
    BoardOutcome,
    BoardState,
    MoveRecord,
    Pass,
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
from bot.rules.board.game import no_card_playable
from bot.rules.board.layout import CORNER_CELLS

RNG = random.Random(0)
# 2S shows on B1 and G9; 3S on C1 and G8 (see the board layout).
DEAD_2S_3S = {(0, 1): 0, (8, 6): 0, (0, 2): 0, (8, 5): 0}


def test_a_seat_that_cannot_play_trades_first_then_passes() -> None:
    stuck = position(hands=[["2S", "JH"], ["3S"]], chips=DEAD_2S_3S)
    # 2S is dead and the one-eyed jack has nothing to remove: trade, no pass yet.
    assert legal_actions(stuck) == [TradeDeadCard("2S")]
    with pytest.raises(IllegalAction, match="Trade your dead card first"):
        apply(stuck, Pass(), RNG)
    traded = position(hands=[["2S", "JH"], ["3S"]], chips=DEAD_2S_3S, traded=True)
    assert legal_actions(traded) == [Pass()]


def test_a_whole_round_of_passes_plays_on() -> None:
    # Both seats hold only dead cards and trade them; the round of passes ends nothing.
    others = Counter(FULL_DECK) - Counter(["2S", "3S", "2S", "3S"])
    pile = [*sorted(others.elements()), "3S", "2S"]  # seat 1 draws the 2S, seat 0 the 3S
    state = position(hands=[["2S"], ["3S"]], chips=DEAD_2S_3S, draw_pile=pile, traded=True)
    state = apply(state, Pass(), RNG)
    assert legal_actions(state) == [TradeDeadCard("3S")]  # seat 1 trades, draws 2S (dead)
    state = apply(state, TradeDeadCard("3S"), RNG)
    state = apply(state, Pass(), RNG)
    assert state.passes == 2 and state.outcome is None
    assert legal_actions(state) == [TradeDeadCard("2S")]  # seat 0 again: draws 3S
    state = apply(state, TradeDeadCard("2S"), RNG)
    assert state.hands[0] == ("3S",) and state.outcome is None


def test_a_game_the_old_rule_ended_blocked_plays_on_to_a_winner() -> None:
    """Seed 9, strong against two greedy players: at turn 111 every seat had passed in a
    row with one space open (95 chips), which the old rule called a draw. It goes on."""
    levels = ["strong", "greedy", "greedy"]
    rng = random.Random(9)
    state = new_game(BoardConfig(3), rng)
    log: list[MoveRecord] = []
    round_of_passes: BoardState | None = None
    while state.outcome is None and state.turn_count < 2000:
        action = choose_action(view_for(state, state.turn), levels[state.turn], rng)
        state = apply(state, action, rng)
        assert state.last_move is not None
        log.append(state.last_move)
        if state.passes == 3 and round_of_passes is None:
            round_of_passes = state
    check_invariants(state, log)
    assert round_of_passes is not None, "the seed no longer shows a whole round of passes"
    chips = sum(1 for side in round_of_passes.chips if side >= 0)
    assert (round_of_passes.turn_count, chips) == (111, 95)
    assert state.outcome is not None and state.outcome.reason == "sequences"
    assert state.outcome.side is not None and state.turn_count > 111


def _full_board_all_locked_but(open_cell: tuple[int, int]) -> BoardState:
    """Side 0 holds 2S for B1 (the only open space): with A1 and C1-E1 it makes a sequence
    on row 1. Every other chip is side 1's and locked, so once B1 is taken no card can be
    played: no open space, nothing a one-eyed jack may remove."""
    row0 = {(0, c): 0 for c in (2, 3, 4)}
    rest = {
        (r, c): 1
        for r in range(10)
        for c in range(10)
        if (r, c) not in CORNER_CELLS and (r, c) not in row0 and (r, c) != open_cell
    }
    # One record locks them all: a hand-made position, not one a game could reach.
    return position(
        hands=[["2S"], ["JS", "JH", "JD", "JC"]],
        chips=row0 | rest,
        sequences=[(1, sorted(rest))],
    )


def test_a_draw_when_no_card_left_could_ever_be_played() -> None:
    state = _full_board_all_locked_but((0, 1))
    after = apply(state, PlayCard("2S", 0, 1), RNG)
    assert after.last_move is not None and len(after.last_move.new_sequences) == 1
    assert after.outcome == BoardOutcome(None, (), "blocked")
    assert legal_actions(after) == []


def test_no_draw_while_a_one_eyed_jack_could_remove_a_chip() -> None:
    # The same full board, but side 1's chip on J2 is not locked: side 0 could remove it.
    state = _full_board_all_locked_but((0, 1))
    data = dump(state)
    cells = data["sequences"][0]["cells"]
    data["sequences"][0]["cells"] = [cell for cell in cells if cell != [1, 9]]
    after = apply(load(data), PlayCard("2S", 0, 1), RNG)
    assert after.outcome is None


def _idle(state: BoardState, idle: int) -> BoardState:
    data = dump(state)
    data["idle_reshuffles"] = idle
    return load(json.loads(json.dumps(data)))


def test_two_reshuffles_with_no_chip_placed_is_a_draw() -> None:
    """Seat 0 holds all four one-eyed jacks, every chip it could remove is locked, the board
    is full: every seat only trades dead cards, round and round the pile, until the second
    reshuffle since the last chip ends it as a draw."""
    chips = {
        (r, c): (r + c) % 2 for r in range(10) for c in range(10) if (r, c) not in CORNER_CELLS
    }
    side1 = sorted(cell for cell, side in chips.items() if side == 1)
    hands = [["JH", "JH", "JS", "JS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S", "9S", "TS", "QS"]]
    rest = Counter(FULL_DECK) - Counter(card for hand in hands for card in hand)
    state = position(
        chips=chips,
        hands=hands,
        sequences=[(1, side1)],  # hand-made: side 1's chips all locked
        draw_pile=[],
        discards=sorted(rest.elements()),
    )
    log: list[MoveRecord] = []
    reshuffles = 0
    rng = random.Random(3)
    while state.outcome is None:
        state = apply(state, legal_actions(state)[0], rng)
        assert state.last_move is not None
        log.append(state.last_move)
        reshuffles += state.last_move.reshuffled
        assert state.idle_reshuffles == reshuffles
        assert state.turn_count < 1000
    assert reshuffles == 2 and isinstance(state.last_move.action, TradeDeadCard)
    assert state.outcome == BoardOutcome(None, (), "stalled")
    assert any(isinstance(move.action, Pass) for move in log)  # all-jack hands pass between


def test_a_chip_placed_between_reshuffles_restarts_the_count() -> None:
    # Seat 0 holds 7H (open on E5) and a dead 2S; one reshuffle already went by idle.
    hands = [["7H", "2S"], ["3S"]]
    rest = Counter(FULL_DECK) - Counter(["7H", "2S", "3S"])
    cards = sorted(rest.elements())
    idle = _idle(
        position(chips=DEAD_2S_3S, hands=hands, draw_pile=cards[:1], discards=cards[1:]), 1
    )
    assert idle.idle_reshuffles == 1
    # Trading draws the last card: no reshuffle, no draw yet.
    assert apply(idle, TradeDeadCard("2S"), RNG).outcome is None
    # Playing puts a chip on the board: the count starts again.
    played = apply(idle, PlayCard("7H", 4, 8), RNG)
    assert played.idle_reshuffles == 0 and played.outcome is None
    # With the pile empty, the trade's reshuffle is the second one: a draw.
    empty = _idle(position(chips=DEAD_2S_3S, hands=hands, draw_pile=[], discards=cards), 1)
    stalled = apply(empty, TradeDeadCard("2S"), RNG)
    assert stalled.last_move is not None and stalled.last_move.reshuffled
    assert stalled.outcome == BoardOutcome(None, (), "stalled")
    # The same trade with no idle reshuffle before: one, the game goes on.
    fresh = apply(
        position(chips=DEAD_2S_3S, hands=hands, draw_pile=[], discards=cards),
        TradeDeadCard("2S"),
        RNG,
    )
    assert fresh.outcome is None and fresh.idle_reshuffles == 1


def test_states_saved_before_the_count_load_and_dump_unchanged() -> None:
    old = dump(position(hands=[["7H"], ["3S"]]))
    assert "idle_reshuffles" not in old  # a state stored by the previous version
    state = load(old)
    assert state.idle_reshuffles == 0 and dump(state) == old
    assert dump(_idle(state, 1))["idle_reshuffles"] == 1


def test_a_round_of_passes_with_nothing_changing_is_a_draw() -> None:
    state = jacks_only_after_forfeits()
    assert state.out == frozenset(range(2, 8)) and state.outcome is None
    assert not no_card_playable(state)  # side 0's chips are free: not "blocked"
    assert legal_actions(state) == [Pass()]  # seat 0: nothing to remove, no dead card
    once = apply(state, Pass(), RNG)
    assert once.outcome is None and once.turn == 1 and once.idle_passes == 1
    assert legal_actions(once) == [Pass()]  # seat 1: no open space
    twice = apply(once, Pass(), RNG)
    assert twice.outcome == BoardOutcome(None, (), "passed")
    assert legal_actions(twice) == []
    assert load(json.loads(json.dumps(dump(twice)))) == twice


def test_bots_in_that_position_end_the_game_instead_of_looping() -> None:
    state = jacks_only_after_forfeits()
    rng = random.Random(5)
    for level in PLAYER_LEVELS:
        s = state
        while s.outcome is None:
            s = apply(s, choose_action(view_for(s, s.turn), level, rng), rng)
            assert s.turn_count < 10, level
        assert s.outcome == BoardOutcome(None, (), "passed"), level


def test_a_pass_after_this_turns_trade_starts_the_count_again() -> None:
    """Seat 1 trades its dead card, then passes; seat 0 passes bare: not a round of passes
    with nothing changing (seat 1 drew, and trades again next turn)."""
    others = Counter(FULL_DECK) - Counter(["2S", "3S", "2S", "3S", "JH"])
    pile = [*sorted(others.elements()), "2S", "3S"]
    state = position(hands=[["JH"], ["2S"]], chips=DEAD_2S_3S, draw_pile=pile, turn=1)
    state = apply(state, TradeDeadCard("2S"), RNG)  # draws the 3S, dead too
    state = apply(state, Pass(), RNG)
    assert state.idle_passes == 0
    state = apply(state, Pass(), RNG)  # seat 0: its one-eyed jack has nothing to remove
    assert state.outcome is None and state.idle_passes == 1
    assert legal_actions(state) == [TradeDeadCard("3S")]
    # A forfeit starts it again too.
    assert forfeit(position(seats=3, hands=[["JH"], ["JD"], ["JC"]]), 2).idle_passes == 0
