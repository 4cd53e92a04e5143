"""What the opponent's last move says about its hand (issue 34, item 4): a foe that neither finished
nor blocked probably held no card that could have, so sampled hands are weighted by that likelihood
(docs/board-rules.md, "Inference over the opponent's hand")."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.board.bots import dead_windows
from bot.rules.board.cards import ONE_EYED_JACKS, TWO_EYED_JACKS
from bot.rules.board.game import PlayCard, RemoveChip, SeatView
from bot.rules.board.layout import BOARD, CORNER_MASK, SIZE, WINDOW_MASKS

#: The chance that a strong-like player leaves a finish or a block it could make.
ERROR = 0.05
#: Deals drawn at most for one kept deal.
TRIES = 32


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the foe at ``seat`` did not do: it held none of ``telling`` (card codes) before
    its move, up to ``ERROR``."""

    seat: int
    telling: frozenset[str]


def evidence(view: SeatView) -> Evidence | None:
    """The constraint the last move puts on its mover's hand, or ``None`` when it says nothing (it
    finished or blocked, was not a live foe's placement, or spent a telling card itself)."""
    last = view.last_move
    config = view.config
    if last is None or last.new_sequences or view.outcome is not None:
        return None
    seat, action = last.seat, last.action
    foe_side = config.side_of(seat)
    if foe_side == view.side or seat in view.out or not isinstance(action, PlayCard | RemoveChip):
        return None
    bit = 1 << (action.row * SIZE + action.col)
    masks = list(view.side_masks)
    if isinstance(action, PlayCard):
        masks[foe_side] &= ~bit
    elif config.sides == 2:
        masks[view.side] |= bit  # at two sides a removed chip was ours
    else:
        return None
    occupied = 0
    for m in masks:
        occupied |= m
    telling: set[str] = set()
    # Its own fours: the card of each hole (or a two-eyed jack) would have finished one.
    own_holes = _four_holes(masks, foe_side, occupied, dead_windows(view, foe_side))
    # Our fours: the card of the hole, a two-eyed jack, or a one-eyed jack on an unlocked chip.
    ours = view.side
    blocked = False
    removable = False
    our_holes: set[int] = set()
    for window, hole in _fours(masks, ours, occupied, dead_windows(view, ours)):
        if window & bit:
            blocked = True  # its move went into (or broke) this four
        our_holes.add(hole)
        if window & masks[ours] & ~view.locked:
            removable = True
    if blocked and not own_holes:
        return None
    if blocked:
        our_holes.clear()
        removable = False
    holes = own_holes | our_holes
    if not holes:
        return None
    telling.update(BOARD[cell] for cell in holes)
    telling.update(TWO_EYED_JACKS)
    if removable:
        telling.update(ONE_EYED_JACKS)
    if action.card in telling:
        return None
    return Evidence(seat, frozenset(telling))


def likelihood(hand: tuple[str, ...], found: Evidence) -> float:
    """How likely the foe's move was with ``hand`` (its hand now) under the constraint."""
    held = sum(1 for card in hand if card in found.telling)
    if held == 0:
        return 1.0
    if held >= 2 or not hand:
        return ERROR
    share = 1.0 / len(hand)
    return share + (1.0 - share) * ERROR


def _fours(
    masks: list[int], side: int, occupied: int, dead: frozenset[int]
) -> list[tuple[int, int]]:
    """``side``'s live fours: (window mask, the empty hole's cell)."""
    have = masks[side] | CORNER_MASK
    blockers = occupied & ~masks[side]
    found: list[tuple[int, int]] = []
    for w, window in enumerate(WINDOW_MASKS):
        if window & blockers or w in dead:
            continue
        missing = window & ~have
        if missing and missing.bit_count() == 1:
            found.append((window, missing.bit_length() - 1))
    return found


def _four_holes(masks: list[int], side: int, occupied: int, dead: frozenset[int]) -> set[int]:
    return {hole for _, hole in _fours(masks, side, occupied, dead)}
