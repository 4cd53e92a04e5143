"""The searching board bots (``hard``, ``expert``): determinized search over the hidden cards, as
docs/board-rules.md, "The searching bots", tells; the budget counts playouts, not time, so a seed
gives the same move anywhere."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.rules.board.bots import (
    Cards,
    dead_windows,
    forced_action,
    greedy_action,
    position_features,
    score,
    strong_candidates,
    win_chance,
)
from bot.rules.board.cards import FULL_DECK
from bot.rules.board.game import (
    Action,
    BoardState,
    PlayCard,
    RemoveChip,
    SeatView,
    apply,
    legal_actions,
    view_for,
)
from bot.rules.board.inference import TRIES, Evidence, evidence, likelihood
from bot.rules.board.layout import CORNER_MASK, SIZE, WINDOW_MASKS

_MIN_DEALS = 8


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard a searching level thinks: ``playouts`` in all, over at most ``width``
    candidate moves besides the threat moves."""

    playouts: int
    width: int
    #: Deals drawn from what the opponent's last move says about its hand (``inference``).
    infer: bool = False


#: The searching levels. Measured budgets and strengths: ``docs/board-rules.md``.
BUDGETS: dict[str, Budget] = {
    "hard": Budget(playouts=64, width=3),
    "expert": Budget(playouts=320, width=6),
}
#: Experiments ``board-sim`` plays, not offered to players: the searching levels with their
#: deals weighted by the opponent's last move (``inference``; measured in docs/board-rules.md).
EXPERIMENT_BUDGETS: dict[str, Budget] = {
    "hard-infer": Budget(playouts=64, width=3, infer=True),
    "expert-infer": Budget(playouts=320, width=6, infer=True),
}


def candidates(view: SeatView, rng: random.Random, width: int) -> Action | list[Action]:
    """What a searching player weighs, best first, or the one move to play when there is nothing to
    weigh; ``view`` must be the seat to move."""
    actions = legal_actions(view)
    if not actions:
        raise ValueError("it is not this seat's turn, or the game is over")
    forced = forced_action(actions)
    if forced is not None:
        return forced
    immediate, scored = strong_candidates(view, actions, fast=True)
    if immediate is not None:
        return immediate
    ranked = sorted(
        ((score(features), i, action) for i, (features, action) in enumerate(scored)),
        key=lambda row: (-row[0], row[1]),
    )
    if len(ranked) == 1:
        return ranked[0][2]
    prior = {action for _, _, action in ranked}
    chosen = [action for _, _, action in ranked[:width]]
    for action in [greedy_action(view, actions, rng), *threat_moves(view, actions)]:
        if action in prior and action not in chosen:
            chosen.append(action)
    return chosen[0] if len(chosen) == 1 else chosen


def search_action(view: SeatView, budget: Budget, rng: random.Random) -> Action:
    """The move a searching level plays; ``view`` must be the seat to move."""
    weighed = candidates(view, rng, budget.width)
    if not isinstance(weighed, list):
        return weighed
    seeds = _DealSeeds(rng.getrandbits(64))
    found = evidence(view) if budget.infer else None
    top = weighed[0]  # strong's choice: kept to the end, left only for a clearly better
    values: dict[Action, list[float]] = {action: [] for action in weighed}
    done = 0  # deals every surviving candidate has been played in
    spent = 0
    alive = list(weighed)
    while spent < budget.playouts:
        # The rounds left share the budget, each at least ``_MIN_DEALS`` deals so no move falls
        # on a few unlucky ones; the last round gives the final two what is left.
        left = budget.playouts - spent
        rounds = max(1, math.ceil(math.log2(len(alive))) - 1)
        deals = min(max(_MIN_DEALS, left // rounds // len(alive)), left // len(alive))
        if deals < 1:
            break
        for d in range(done, done + deals):
            state = inferred_deal(view, random.Random(seeds.seed(d)), found)
            for action in alive:
                values[action].append(playout_value(state, view.seat, action, seeds.seed(d)))
            spent += len(alive)
        done += deals
        # Keep the better half (at least two, strong's choice among them): the mean over
        # the same deals, strong's order breaking ties.
        alive.sort(key=lambda a: (-sum(values[a]), weighed.index(a)))
        keep = alive[: max(2, len(alive) // 2)]
        if top not in keep:
            keep[-1] = top
        alive = keep
    best = alive[0]
    return best if best != top and clearly_better(values[best], values[top]) else top


def clearly_better(challenger: list[float], incumbent: list[float]) -> bool:
    """Whether the challenger's mean over the same deals beats the incumbent's by more
    than twice the standard error of the paired difference: the playouts re-rank
    strong's order only on evidence (a difference of noise would cost as often as help)."""
    diffs = [a - b for a, b in zip(challenger, incumbent, strict=True)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 2.0 * math.sqrt(var / n)


class _DealSeeds:
    """Seeds of the deals of one search, drawn once each from the search's own generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._seeds: list[int] = []

    def seed(self, index: int) -> int:
        while len(self._seeds) <= index:
            self._seeds.append(self._rng.getrandbits(64))
        return self._seeds[index]


def unseen_cards(view: SeatView) -> list[str]:
    """The cards the viewer has not seen, in a fixed order: those in the other hands and
    the draw pile (every played card is in the discards until a reshuffle)."""
    unseen = list(FULL_DECK)
    for card in (*view.hand, *view.discards):
        unseen.remove(card)
    return sorted(unseen)


def sample_deal(view: SeatView, rng: random.Random) -> BoardState:
    """A whole position consistent with ``view``: the unseen cards dealt at random to the
    other hands (each its real size) and the draw pile. Public facts are kept as they are."""
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(pool[at : at + size]))
            at += size
    if len(pool) - at != view.draw_pile_size:
        raise ValueError("the view's card counts do not add up to 104")
    return BoardState(
        config=view.config,
        chips=view.chips,
        hands=tuple(hands),
        draw_pile=tuple(pool[at:]),
        discards=view.discards,
        sequences=view.sequences,
        turn=view.turn,
        first_seat=0,
        turn_count=view.turn_count,
        traded=view.traded,
        last_move=view.last_move,
        out=view.out,
        side_masks=view.side_masks,
        locked=view.locked,
    )


def inferred_deal(view: SeatView, rng: random.Random, found: Evidence | None) -> BoardState:
    """A deal consistent with ``view``, drawn from the posterior given the opponent's last move
    (``found``); without evidence, ``sample_deal``'s deal."""
    if found is None:
        return sample_deal(view, rng)
    best: BoardState | None = None
    best_weight = -1.0
    for _ in range(TRIES):
        state = sample_deal(view, rng)
        weight = likelihood(state.hands[found.seat], found)
        if weight >= 1.0 or rng.random() < weight:
            return state
        if weight > best_weight:
            best, best_weight = state, weight
    assert best is not None
    return best


def playout_value(state: BoardState, seat: int, action: Action, seed: int) -> float:
    """Play ``action`` in one deal, the others by ``greedy`` until ``seat`` moves again;
    the value of what is reached for ``seat``'s side (see ``leaf_value``)."""
    rng = random.Random(seed ^ 0x9E3779B97F4A7C15)
    side = state.config.side_of(seat)
    state = apply(state, action, rng)
    steps = 0
    while state.outcome is None and state.turn != seat and steps < 64:
        view = view_for(state, state.turn)
        actions = legal_actions(view)
        forced = forced_action(actions)
        move = forced if forced is not None else greedy_action(view, actions, rng)
        state = apply(state, move, rng)
        steps += 1
    result = state.outcome
    if result is not None:
        if result.side is None:
            return 0.5
        return 1.0 if result.side == side else 0.0
    return leaf_value(view_for(state, seat))


def leaf_value(view: SeatView) -> float:
    """``strong``'s calibrated estimate (``win_chance``) that the viewer's side wins, the
    viewer to move: the best of its moves as ``strong`` scores them (1.0 for a winning
    one); with only a trade or a pass to make, the position as it stands."""
    actions = legal_actions(view)
    if forced_action(actions) is None:
        immediate, scored = strong_candidates(view, actions, fast=True)
        if immediate is not None:
            return 1.0
        if scored:
            return win_chance(max(score(features) for features, _ in scored))
    config = view.config
    counts = [0] * config.sides
    for seq in view.sequences:
        counts[seq.side] += 1
    dead = [dead_windows(view, s) for s in range(config.sides)]
    features = position_features(view, view.side_masks, view.hand, Cards(view), dead, counts, 0)
    return win_chance(score(features))


def threat_moves(view: SeatView, actions: list[Action]) -> list[Action]:
    """Moves on the threat structure: a placement or removal in a window where a live foe
    holds four (blocks or breaks the four), and a placement that makes a four of ours."""
    side = view.side
    masks = view.side_masks
    gone = view.sides_out()
    occupied = 0
    for m in masks:
        occupied |= m
    foe_four = 0  # the spaces of windows in which a foe holds four and nobody else a chip
    own_hole = 0  # empty spaces of windows in which we hold three and nobody else a chip
    for s, chips in enumerate(masks):
        if s in gone:
            continue
        have = chips | CORNER_MASK
        blockers = occupied & ~chips
        for window in WINDOW_MASKS:
            if window & blockers:
                continue
            k = (window & have).bit_count()
            if s == side:
                if k == 3:
                    own_hole |= window & ~have
            elif k == 4:
                foe_four |= window
    found: list[Action] = []
    for action in actions:
        if isinstance(action, PlayCard | RemoveChip):
            bit = 1 << (action.row * SIZE + action.col)
            if foe_four & bit or (isinstance(action, PlayCard) and own_hole & bit):
                found.append(action)
    return found
