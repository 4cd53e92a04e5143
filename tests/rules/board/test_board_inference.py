"""Inference over the opponent's hand (issue 34, item 4): what a foe's last move says about
the cards it holds, and the deals the inferring search draws from it."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.rules.board import BoardState, SeatView, apply, choose_action, legal_actions, view_for
from bot.rules.board.cards import ONE_EYED_JACKS, TWO_EYED_JACKS
from bot.rules.board.game import PlayCard
from bot.rules.board.inference import ERROR, Evidence, evidence, likelihood
from bot.rules.board.layout import BOARD
from bot.rules.board.levels import EXPERIMENTS
from bot.rules.board.search import inferred_deal, sample_deal
from tests.rules.board.board_helpers import position

# Our four on row 6 (B6-E6, side 0): its holes are A6 (10 of clubs) and F6 (3 of hearts).
FOUR = {(5, 1): 0, (5, 2): 0, (5, 3): 0, (5, 4): 0}
OURS = ["9S", "9H", "8S", "8H", "7S", "7D", "6S"]
FOES = ["2D", "5C", "4S", "4H", "6C", "6H", "5D"]


def after_foe_plays(row: int, col: int, card: str) -> tuple[SeatView, BoardState]:
    """Seat 1 (the foe) plays ``card`` on (row, col); seat 0's view after it, and the state."""
    state = position(chips=FOUR, hands=[OURS, FOES], turn=1)
    state = apply(state, PlayCard(card, row, col), random.Random(1))
    return view_for(state, 0), state


def test_a_foe_that_leaves_our_four_holds_no_card_that_stops_it() -> None:
    view, _ = after_foe_plays(2, 2, "2D")  # a quiet move: our four stands
    found = evidence(view)
    assert found is not None and found.seat == 1
    assert found.telling == {BOARD[50], BOARD[55], *TWO_EYED_JACKS, *ONE_EYED_JACKS}


def test_a_block_or_our_own_move_says_nothing() -> None:
    blocked = position(chips=FOUR, hands=[OURS, [*FOES[:-1], BOARD[55]]], turn=1)
    blocked = apply(blocked, PlayCard(BOARD[55], 5, 5), random.Random(1))
    assert evidence(view_for(blocked, 0)) is None  # it blocked (the other hole is left)
    mine = position(chips=FOUR, hands=[OURS, FOES], turn=0)
    mine = apply(mine, PlayCard("9S", *_cell_of("9S")), random.Random(1))
    assert evidence(view_for(mine, 0)) is None  # the last move was ours
    assert evidence(view_for(position(chips=FOUR, hands=[OURS, FOES]), 0)) is None  # no move


def _cell_of(card: str) -> tuple[int, int]:
    return divmod(BOARD.index(card), 10)


def test_the_likelihood_of_a_hand() -> None:
    found = Evidence(1, frozenset({"JD", "TC"}))
    assert likelihood(("2D", "5C", "4S", "4H"), found) == 1.0
    # One telling card now: it may be the card drawn after the move (1 chance in 4).
    assert likelihood(("JD", "5C", "4S", "4H"), found) == 0.25 + 0.75 * ERROR
    assert likelihood(("JD", "TC", "4S", "4H"), found) == ERROR  # it held one before


def test_inferred_deals_seldom_give_the_foe_what_it_did_not_use() -> None:
    view, state = after_foe_plays(2, 2, "2D")
    found = evidence(view)
    assert found is not None

    def share(deal: Callable[[SeatView, random.Random], BoardState]) -> float:
        hits = 0
        for seed in range(200):
            hand = deal(view, random.Random(seed)).hands[1]
            hits += any(card in found.telling for card in hand)
        return hits / 200

    prior = share(sample_deal)
    posterior = share(lambda v, rng: inferred_deal(v, rng, found))
    assert prior > 0.4 and posterior < prior / 2
    # Every inferred deal is consistent with the view: our hand and the counts are real.
    deal = inferred_deal(view, random.Random(3), found)
    assert deal.hands[0] == state.hands[0]
    assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]


def test_the_inferring_searches_are_experiments_that_play_legal_moves() -> None:
    assert {"hard-infer", "expert-infer"} <= set(EXPERIMENTS)
    view, state = after_foe_plays(2, 2, "2D")
    action = choose_action(view, "hard-infer", random.Random(5))
    assert action in legal_actions(state)
