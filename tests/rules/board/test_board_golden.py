"""Golden positions: one hand-built position per rule of RULINGS §3."""

from __future__ import annotations

import random

import pytest
from board_helpers import position

from bot.errors import IllegalAction, UserError
from bot.rules.board import (
    BoardConfig,
    Pass,
    PlayCard,
    RemoveChip,
    TradeDeadCard,
    apply,
    card_label,
    coord_label,
    legal_actions,
    new_game,
    parse_coord,
    view_for,
)

RNG = random.Random(0)


# ----------------------------------------------------------------------------- labels


def test_card_labels() -> None:
    assert card_label("7H") == "7♥"
    assert card_label("TS") == "10♠"
    assert card_label("JD") == "J♦"
    assert card_label("AC") == "A♣"
    with pytest.raises(IllegalAction):
        card_label("1X")


def test_coordinates() -> None:
    assert coord_label(0, 0) == "A1"
    assert coord_label(4, 2) == "C5"
    assert coord_label(9, 9) == "J10"
    assert parse_coord("C5") == (4, 2)
    assert parse_coord(" j10 ") == (9, 9)
    for bad in ("K1", "A0", "A11", "", "5C"):
        with pytest.raises(IllegalAction):
            parse_coord(bad)


# ----------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("seats", "teams", "sides", "hand", "to_win"),
    [
        (2, None, 2, 7, 2),
        (3, None, 3, 6, 1),
        (4, None, 2, 6, 2),
        (6, None, 2, 5, 2),
        (6, 3, 3, 5, 1),
        (8, None, 2, 4, 2),
        (9, None, 3, 4, 1),
        (10, None, 2, 3, 2),
        (12, None, 2, 3, 2),
        (12, 3, 3, 3, 1),
    ],
)
def test_allowed_tables(seats: int, teams: int | None, sides: int, hand: int, to_win: int) -> None:
    config = BoardConfig(seats, teams=teams)
    config.validate()
    assert (config.sides, config.hand_size, config.sequences_to_win) == (sides, hand, to_win)
    state = new_game(config, random.Random(seats), first_seat=1)
    assert all(len(h) == hand for h in state.hands)
    assert len(state.draw_pile) == 104 - hand * seats
    assert state.turn == 1
    # Teams alternate in turn order.
    assert [config.side_of(s) for s in range(seats)] == [s % sides for s in range(seats)]


@pytest.mark.parametrize(
    ("seats", "teams", "message"),
    [
        (5, None, "5 players can't split into equal teams: play with 4 or 6"),
        (7, None, "play with 6 or 8"),
        (11, None, "play with 10 or 12"),
        (1, None, "2 to 12 players"),
        (13, None, "2 to 12 players"),
        (8, 3, "can't split into 3 equal teams"),
        (4, 4, "Play in 2 or 3 teams"),
        (3, 2, "everyone plays alone"),
    ],
)
def test_refused_tables(seats: int, teams: int | None, message: str) -> None:
    with pytest.raises(IllegalAction, match=message) as info:
        new_game(BoardConfig(seats, teams=teams), random.Random(0))
    assert isinstance(info.value, UserError)


def test_first_sequence_wins_option() -> None:
    assert BoardConfig(2, first_sequence_wins=True).sequences_to_win == 1


def test_deal_uses_injected_rng_only() -> None:
    a = new_game(BoardConfig(4), random.Random(42))
    b = new_game(BoardConfig(4), random.Random(42))
    assert a == b


# ----------------------------------------------------------------------------- normal play


def test_play_card_places_chip_discards_and_draws() -> None:
    state = position(hands=[["7H", "2S"], ["3S"]], draw_pile=["KD", "QC"])
    after = apply(state, PlayCard("7H", 4, 8), RNG)  # I5 shows 7H
    assert after.chip_at(4, 8) == 0
    assert after.hands[0] == ("2S", "QC")
    assert after.discards == ("7H",)
    assert after.turn == 1
    assert after.last_move is not None
    assert after.last_move.drawn == "QC"


def test_card_must_match_space_and_space_must_be_open() -> None:
    state = position(hands=[["7H", "2S"], ["3S"]], chips={(4, 8): 1})
    with pytest.raises(IllegalAction, match="I5 already holds a chip"):
        apply(state, PlayCard("7H", 4, 8), RNG)
    with pytest.raises(IllegalAction, match="B1 shows 2♠, not 7♥"):
        apply(state, PlayCard("7H", 0, 1), RNG)
    with pytest.raises(IllegalAction, match="don't hold 3♠"):
        apply(state, PlayCard("3S", 0, 2), RNG)
    assert PlayCard("7H", 5, 3) in legal_actions(state)
    assert PlayCard("7H", 4, 8) not in legal_actions(state)


def test_dead_card_trade_once_before_playing() -> None:
    # 7C shows on A3 and C5; both taken, so 7C is dead.
    state = position(
        hands=[["7C", "7C", "2S"], ["3S"]], chips={(2, 0): 1, (4, 2): 0}, draw_pile=["KD", "QC"]
    )
    actions = legal_actions(state)
    assert TradeDeadCard("7C") in actions
    assert not any(isinstance(a, PlayCard) and a.card == "7C" for a in actions)
    traded = apply(state, TradeDeadCard("7C"), RNG)
    assert traded.turn == 0 and traded.traded
    assert traded.hands[0] == ("7C", "2S", "QC")
    assert traded.discards == ("7C",)
    assert TradeDeadCard("7C") not in legal_actions(traded)
    with pytest.raises(IllegalAction, match="already traded"):
        apply(traded, TradeDeadCard("7C"), RNG)
    played = apply(traded, PlayCard("2S", 0, 1), RNG)
    assert played.turn == 1 and not played.traded


def test_live_card_and_jack_cannot_be_traded() -> None:
    state = position(hands=[["7C", "JD"], ["3S"]], chips={(2, 0): 1})
    with pytest.raises(IllegalAction, match="7♣ is not dead: C5 is open"):
        apply(state, TradeDeadCard("7C"), RNG)
    with pytest.raises(IllegalAction, match="Jacks are never dead"):
        apply(state, TradeDeadCard("JD"), RNG)


def test_two_eyed_jack_anywhere_open_but_corners() -> None:
    state = position(hands=[["JD"], ["3S"]], chips={(5, 5): 1})
    actions = legal_actions(state)
    assert len(actions) == 96 - 1
    assert PlayCard("JD", 0, 0) not in actions
    with pytest.raises(IllegalAction, match="A1 is a free corner"):
        apply(state, PlayCard("JD", 0, 0), RNG)
    with pytest.raises(IllegalAction, match="F6 already holds a chip"):
        apply(state, PlayCard("JD", 5, 5), RNG)
    after = apply(state, PlayCard("JD", 3, 3), RNG)
    assert after.chip_at(3, 3) == 0


def test_one_eyed_jack_removes_and_is_the_whole_turn() -> None:
    state = position(hands=[["JS", "2S"], ["3S"]], chips={(5, 5): 1, (5, 6): 0})
    actions = legal_actions(state)
    assert [a for a in actions if isinstance(a, RemoveChip)] == [RemoveChip("JS", 5, 5)]
    after = apply(state, RemoveChip("JS", 5, 5), RNG)
    assert after.chip_at(5, 5) is None
    assert after.turn == 1
    assert after.discards == ("JS",)
    assert len(after.hands[0]) == 2


def test_one_eyed_jack_refusals() -> None:
    seq = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    chips = {cell: 1 for cell in seq[1:]} | {(5, 5): 0, (7, 7): 1}
    state = position(hands=[["JH", "JD"], ["3S"]], chips=chips, sequences=[(1, seq)])
    with pytest.raises(IllegalAction, match="B1 is part of a sequence"):
        apply(state, RemoveChip("JH", 0, 1), RNG)
    with pytest.raises(IllegalAction, match="F6 is your own"):
        apply(state, RemoveChip("JH", 5, 5), RNG)
    with pytest.raises(IllegalAction, match="no chip on A1"):
        apply(state, RemoveChip("JH", 0, 0), RNG)
    with pytest.raises(IllegalAction, match="no chip on C3"):
        apply(state, RemoveChip("JH", 2, 2), RNG)
    with pytest.raises(IllegalAction, match="Only a one-eyed jack"):
        apply(state, RemoveChip("JD", 7, 7), RNG)
    with pytest.raises(IllegalAction, match="one-eyed jack: it removes"):
        apply(state, PlayCard("JH", 2, 2), RNG)
    removals = [a for a in legal_actions(state) if isinstance(a, RemoveChip)]
    assert removals == [RemoveChip("JH", 7, 7)]


def test_team_chips_are_own_chips() -> None:
    # 4 seats: seats 0 and 2 are side 0.
    state = position(seats=4, hands=[["JS"], [], ["2S"], []], chips={(5, 5): 0, (6, 6): 1})
    with pytest.raises(IllegalAction, match="your own"):
        apply(state, RemoveChip("JS", 5, 5), RNG)
    assert [a for a in legal_actions(state) if isinstance(a, RemoveChip)] == [
        RemoveChip("JS", 6, 6)
    ]


def test_pass_only_without_playable_card() -> None:
    state = position(hands=[["2S"], ["3S"]])
    with pytest.raises(IllegalAction, match="can't pass"):
        apply(state, Pass(), RNG)
    # 2S dead (B1 and G9 taken), already traded once, and the one-eyed jack has nothing
    # removable: pass, drawing nothing (the trade first: test_board_blocked.py).
    stuck = position(hands=[["2S", "JH"], ["3S"]], chips={(0, 1): 0, (8, 6): 0}, traded=True)
    assert legal_actions(stuck) == [Pass()]
    passed = apply(stuck, Pass(), RNG)
    assert passed.turn == 1 and passed.hands[0] == ("2S", "JH")
    assert passed.last_move is not None and passed.last_move.drawn is None
    assert passed.outcome is None


def test_reshuffle_when_draw_pile_runs_out() -> None:
    discards = ["KD", "QC"]
    # Cards that would normally sit in the draw pile are parked in seat 1's hand here.
    rest = position(hands=[["7H"], ["3S"]], discards=discards).draw_pile
    state = position(hands=[["7H"], ["3S", *rest]], draw_pile=[], discards=discards)
    after = apply(state, PlayCard("7H", 4, 8), random.Random(5))
    assert after.last_move is not None and after.last_move.reshuffled
    assert after.discards == ()
    assert sorted((*after.draw_pile, after.hands[0][-1])) == ["7H", "KD", "QC"]


# ----------------------------------------------------------------------------- sequences

ROW0 = [(0, c) for c in range(10)]  # XX 2S 3S 4S 5S 6S 7S 8S 9S XX


def test_corner_counts_for_everyone_in_a_diagonal() -> None:
    # A1 corner + B2..E5 on the main diagonal: 5C(1,1) 2D(2,2) 5C(3,3) 5H(4,4).
    chips = {(1, 1): 0, (2, 2): 0, (3, 3): 0}
    state = position(hands=[["5H"], ["3S"]], chips=chips)
    after = apply(state, PlayCard("5H", 4, 4), RNG)
    assert [s.cells for s in after.sequences] == [((0, 0), (1, 1), (2, 2), (3, 3), (4, 4))]
    assert after.is_locked(2, 2)


def test_nine_in_a_line_makes_two_sequences() -> None:
    # Row 2 (index 1): 6C 5C 4C 3C 2C AH KH QH TH TS; nine chips on columns 0-8, 2C last.
    chips = {(1, c): 0 for c in (0, 1, 2, 3, 5, 6, 7, 8)}
    state = position(hands=[["2C"], ["3S"]], chips=chips)
    after = apply(state, PlayCard("2C", 1, 4), RNG)
    assert after.last_move is not None
    assert sorted(s.cells for s in after.last_move.new_sequences) == [
        tuple((1, c) for c in range(0, 5)),
        tuple((1, c) for c in range(4, 9)),
    ]
    assert after.outcome is not None and after.outcome.side == 0
    assert after.outcome.reason == "sequences" and after.outcome.seats == (0,)
    assert after.last_move.drawn is None  # play stops at once: the winner does not draw


def test_full_ten_line_filled_in_the_middle_makes_two() -> None:
    # Row 1 (index 0) with both corners: A1 corner, B1..I1, J1 corner; 5S last.
    chips = {(0, c): 0 for c in (1, 2, 3, 5, 6, 7, 8)}
    state = position(hands=[["5S"], ["3S"]], chips=chips)
    after = apply(state, PlayCard("5S", 0, 4), RNG)
    assert sorted(s.cells for s in after.sequences) == [tuple(ROW0[0:5]), tuple(ROW0[4:9])]


def test_double_completion_row_and_column() -> None:
    # F6 (5,5) shows 3H; complete row 5 (cols 1-5) and column 5 (rows 1-5) at once.
    chips = {(5, c): 0 for c in (1, 2, 3, 4)} | {(r, 5): 0 for r in (1, 2, 3, 4)}
    state = position(hands=[["3H", "2S"], ["3S"]], chips=chips)
    after = apply(state, PlayCard("3H", 5, 5), RNG)
    assert after.last_move is not None
    new = {s.cells for s in after.last_move.new_sequences}
    assert new == {
        ((5, 1), (5, 2), (5, 3), (5, 4), (5, 5)),
        ((1, 5), (2, 5), (3, 5), (4, 5), (5, 5)),
    }
    assert after.outcome is not None and after.outcome.side == 0


def test_six_in_a_line_locks_the_five_that_leave_room() -> None:
    # Row 2 (index 1): 6C 5C 4C 3C 2C AH KH QH TH TS; run on columns 3-8 completed at col 5.
    chips = {(1, c): 0 for c in (3, 4, 6, 7, 8)}
    state = position(hands=[["AH", "2S"], ["JS"]], chips=chips)
    after = apply(state, PlayCard("AH", 1, 5), RNG)
    assert [s.cells for s in after.sequences] == [tuple((1, c) for c in range(4, 9))]
    assert not after.is_locked(1, 3)
    assert after.outcome is None
    # The spare chip stays removable.
    assert RemoveChip("JS", 1, 3) in legal_actions(after)


def test_eight_in_a_line_keeps_room_on_the_open_end() -> None:
    # Row 0: chips on 1-7 except 4, completed at 4: run 0-7 (corner at 0).
    chips = {(0, c): 0 for c in (1, 2, 3, 5, 6, 7)}
    state = position(hands=[["5S", "2S"], ["JS"]], chips=chips)
    after = apply(state, PlayCard("5S", 0, 4), RNG)
    # Locking 3-7 would leave no room; 0-4 leaves 4-8 open for a second sequence.
    assert [s.cells for s in after.sequences] == [tuple(ROW0[0:5])]
    # Later the chip on I1 completes 4-8, sharing only E1 with the first sequence.
    chips2 = {(0, c): 0 for c in (1, 2, 3, 4, 5, 6, 7)}
    before = position(hands=[["9S", "2S"], ["JS"]], chips=chips2, sequences=[(0, ROW0[0:5])])
    won = apply(before, PlayCard("9S", 0, 8), RNG)
    assert won.last_move is not None
    assert [s.cells for s in won.last_move.new_sequences] == [tuple(ROW0[4:9])]


def test_lock_leaves_room_a_one_eyed_jack_can_open_not_a_locked_window() -> None:
    # RULINGS §3, room: row 4 (index 4) holds side 0 on columns 1-4 and 6-8, side 1's
    # unlocked chip on A5 (4,0) and side 1's locked column-9 sequence through J5 (4,9).
    # A two-eyed jack on F5 (4,5) makes the run 1-8. Locking 1-5 would leave only 5-9,
    # which holds a locked chip: no room. Locking 4-8 leaves 0-4, open once A5 is removed.
    column9 = [(r, 9) for r in range(5)]
    chips = {(4, c): 0 for c in (1, 2, 3, 4, 6, 7, 8)} | {(4, 0): 1}
    chips |= {cell: 1 for cell in column9[1:]}
    hands = [["JD", "JS", "9C"], ["3S", "4S"]]
    state = position(hands=hands, chips=chips, sequences=[(1, column9)])
    after = apply(state, PlayCard("JD", 4, 5), RNG)
    assert after.last_move is not None
    assert [s.cells for s in after.last_move.new_sequences] == [tuple((4, c) for c in range(4, 9))]
    assert not any(after.is_locked(4, c) for c in (0, 1, 2, 3))
    assert after.outcome is None
    # Side 0 removes A5 with a one-eyed jack, then fills it: 0-4 is the second sequence.
    later = apply(after, PlayCard("3S", 0, 2), RNG)
    later = apply(later, RemoveChip("JS", 4, 0), RNG)
    later = apply(later, PlayCard("4S", 0, 3), RNG)
    won = apply(later, PlayCard("9C", 4, 0), RNG)
    assert won.last_move is not None
    assert [s.cells for s in won.last_move.new_sequences] == [tuple((4, c) for c in range(0, 5))]
    assert won.outcome is not None and won.outcome.side == 0


def test_equal_room_prefers_the_lock_leaving_fewest_chips_short() -> None:
    # RULINGS §3 tie-break, on a hand-made position (in play a full window like A5-E5 would
    # already be a sequence; with earlier sequences the tie-break never changes the choice
    # on a real line, see test_lock_choice_on_every_filling_of_a_line). Row 4 holds side 0
    # on columns 0-4 and 6-8, side 1's unlocked chip on J5 (4,9); a chip on F5 (4,5).
    # Locking 1-5 leaves 5-9, one chip short; locking 4-8 leaves 0-4, none short.
    chips = {(4, c): 0 for c in (0, 1, 2, 3, 4, 6, 7, 8)} | {(4, 9): 1}
    state = position(hands=[["JD", "2S"], ["3S"]], chips=chips)
    after = apply(state, PlayCard("JD", 4, 5), RNG)
    assert [s.cells for s in after.sequences] == [tuple((4, c) for c in range(4, 9))]


def test_middle_five_first_ten_line_yields_one() -> None:
    chips = {(0, c): 0 for c in range(3, 8)}
    state = position(hands=[["3S", "2S"], ["5C"]], chips=chips, sequences=[(0, ROW0[3:8])])
    state = apply(state, PlayCard("3S", 0, 2), RNG)
    state = apply(state, PlayCard("5C", 1, 1), RNG)
    state = apply(state, PlayCard("2S", 0, 1), RNG)
    # Row 0 now holds A1 corner + B1..H1: the only new window 0-4 overlaps 3-7 in two spaces.
    assert len(state.sequences) == 1
    assert state.outcome is None


def test_sequences_of_two_sides_and_crossing_lines() -> None:
    # Side 0 owns row 0 cols 1-4 locked with the corner; a column sequence may reuse (0,4).
    seq = ROW0[0:5]
    chips = {cell: 0 for cell in seq[1:]} | {(r, 4): 0 for r in (1, 2, 3)}
    # E5 (4,4) shows 5H.
    state = position(hands=[["5H", "2S"], ["3S"]], chips=chips, sequences=[(0, seq)])
    after = apply(state, PlayCard("5H", 4, 4), RNG)
    assert after.sequence_counts() == (2, 0)
    assert after.outcome is not None and after.outcome.side == 0


def test_three_sides_need_one_sequence_and_option_needs_one() -> None:
    chips = {(0, c): 0 for c in (1, 2, 3)}
    three = position(seats=3, hands=[["5S"], ["3S"], ["4S"]], chips=chips)
    assert apply(three, PlayCard("5S", 0, 4), RNG).outcome is not None
    two = position(hands=[["5S", "2S"], ["3S"]], chips=chips)
    assert apply(two, PlayCard("5S", 0, 4), RNG).outcome is None
    fast = position(hands=[["5S"], ["3S"]], chips=chips, first_sequence_wins=True)
    won = apply(fast, PlayCard("5S", 0, 4), RNG)
    assert won.outcome is not None and won.outcome.seats == (0,)


def test_team_win_names_all_seats() -> None:
    chips = {(0, c): 1 for c in (1, 2, 3)}
    state = position(seats=6, teams=3, hands=[[]] * 4 + [["5S"], []], turn=4, chips=chips)
    won = apply(state, PlayCard("5S", 0, 4), RNG)
    assert won.outcome is not None
    assert (won.outcome.side, won.outcome.seats) == (1, (1, 4))


# ----------------------------------------------------------------------------- views


def test_view_hides_other_hands_and_draws() -> None:
    state = position(hands=[["7H", "2S"], ["3S", "4S"]], draw_pile=["KD", "QC"])
    after = apply(state, PlayCard("7H", 4, 8), RNG)
    mine = view_for(after, 0)
    theirs = view_for(after, 1)
    assert mine.last_move is not None and mine.last_move.drawn == "QC"
    assert theirs.last_move is not None and theirs.last_move.drawn is None
    assert theirs.hand == ("3S", "4S") and theirs.hand_sizes == (2, 2)
    assert theirs.draw_pile_size == 1
    assert legal_actions(mine) == []
    assert legal_actions(theirs) == legal_actions(after)
