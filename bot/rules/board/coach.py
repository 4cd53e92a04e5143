"""The board game's coach: a move suggested to the seat to move, and a finished game's review.

Both read a ``SeatView`` only, so what they say can give away no hidden card (docs/board-rules.md,
"Suggest and Review"); reasons are values, worded by ``bot.games.board.coach``."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from bot.rules.board.bots import forced_action, greedy_action, score, strong_candidates, win_chance
from bot.rules.board.cards import ONE_EYED_JACKS, TWO_EYED_JACKS
from bot.rules.board.game import (
    Action,
    Pass,
    PlayCard,
    RemoveChip,
    SeatView,
    TradeDeadCard,
    apply,
    legal_actions,
)
from bot.rules.board.layout import CORNER_MASK, SIZE, WINDOW_MASKS, WINDOWS
from bot.rules.board.search import leaf_value, playout_value, sample_deal, threat_moves

Cell = tuple[int, int]

#: How many moves a suggestion offers, and how many deals each candidate is played in.
SUGGESTIONS = 3
SUGGEST_DEALS = 12
SUGGEST_WIDTH = 6
#: How many moves a review shows, and the least drop (in win chance) worth showing.
REVIEWED = 3
MIN_DROP = 0.02


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is good, as values: ``kind`` names the reason (``wins``, ``completes``,
    ``blocks``, ``breaks``, ``four``, ``builds``, ``removes``, ``keeps_jack``, ``wild``, ``trade``,
    ``pass``, ``only``, ``opens``), ``cells``, ``side``, ``count`` and ``card`` what it is about."""

    kind: str
    cells: tuple[Cell, ...] = ()
    side: int | None = None
    count: int = 0
    card: str = ""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One suggested move: ``value`` is the estimated chance that the seat's side wins
    after it (0 to 1), ``reasons`` the first the most important."""

    action: Action
    value: float
    reasons: tuple[Reason, ...]


@dataclass(frozen=True, slots=True)
class Mistake:
    """One reviewed move: the position before it (the seat's view), what was played and
    the better move, with their values and the better move's reasons."""

    index: int  # the seat's move number in the game, from 0
    view: SeatView
    played: Action
    played_value: float
    better: Action
    better_value: float
    reasons: tuple[Reason, ...]

    @property
    def drop(self) -> float:
        return self.better_value - self.played_value


def suggest(view: SeatView, rng: random.Random, count: int = SUGGESTIONS) -> list[Suggestion]:
    """The best ``count`` moves for the viewer, who must be the seat to move, best first."""
    actions = legal_actions(view)
    if not actions:
        raise ValueError("it is not this seat's turn, or the game is over")
    forced = forced_action(actions)
    if forced is not None:
        return [Suggestion(forced, leaf_value(view), reasons(view, forced, only=True))]
    immediate, scored = strong_candidates(view, actions, fast=True)
    if immediate is not None:
        return [Suggestion(immediate, 1.0, reasons(view, immediate))]
    ranked = sorted(
        ((score(f), i, a) for i, (f, a) in enumerate(scored)), key=lambda r: (-r[0], r[1])
    )
    prior = {a: v for v, _, a in ranked}
    candidates = [a for _, _, a in ranked[:SUGGEST_WIDTH]]
    for action in [greedy_action(view, actions, rng), *threat_moves(view, actions)]:
        if action in prior and action not in candidates:
            candidates.append(action)
    deals = [rng.getrandbits(64) for _ in range(SUGGEST_DEALS)]
    means: dict[Action, float] = {}
    for action in candidates:
        total = 0.0
        for seed in deals:
            total += playout_value(sample_deal(view, random.Random(seed)), view.seat, action, seed)
        means[action] = total / len(deals)
    order = sorted(candidates, key=lambda a: (-means[a], -prior[a]))
    return [Suggestion(a, means[a], reasons(view, a)) for a in order[:count]]


def review(moves: Iterable[tuple[SeatView, Action]], count: int = REVIEWED) -> list[Mistake]:
    """The seat's moves where its win chance dropped most against its best move, in play order;
    ``moves`` are its views and moves (a forced one is no mistake)."""
    found: list[Mistake] = []
    for index, (view, played) in enumerate(moves):
        actions = legal_actions(view)
        if not actions or forced_action(actions) is not None:
            continue
        if not isinstance(played, PlayCard | RemoveChip):
            continue
        immediate, scored = strong_candidates(view, actions, fast=True)
        values = {a: _chance(score(f)) for f, a in scored}
        if immediate is not None:
            values[immediate] = 1.0
        best = max(values, key=lambda a: values[a])
        played_value = _value_of(view, played)
        if values[best] - played_value < MIN_DROP or _same_space(best, played):
            continue
        found.append(
            Mistake(index, view, played, played_value, best, values[best], reasons(view, best))
        )
    worst = sorted(once_per_run(found), key=lambda m: -m.drop)[:count]
    return sorted(worst, key=lambda m: m.index)


def once_per_run(found: list[Mistake]) -> list[Mistake]:
    """One mistake for each better move the seat kept missing, where missing it cost most: told "J♠
    on D3" at move 20, a player needs no telling at 21."""
    kept: list[Mistake] = []
    previous: Mistake | None = None
    for mistake in found:  # in the order played
        if (
            previous is not None
            and previous.better == mistake.better
            and previous.index + 1 == mistake.index
        ):
            if mistake.drop > kept[-1].drop:
                kept[-1] = mistake
        else:
            kept.append(mistake)
        previous = mistake
    return kept


def reasons(view: SeatView, action: Action, only: bool = False) -> tuple[Reason, ...]:
    """Why ``action`` is worth playing for the viewer, the most telling reason first (at
    most two)."""
    if isinstance(action, TradeDeadCard):
        return (Reason("trade", card=action.card),)
    if isinstance(action, Pass):
        return (Reason("pass"),)
    found: list[Reason] = []
    if only:
        found.append(Reason("only"))
    assert isinstance(action, PlayCard | RemoveChip)
    cell = action.row * SIZE + action.col
    bit = 1 << cell
    side = view.side
    masks = view.side_masks
    occupied = 0
    for m in masks:
        occupied |= m
    if isinstance(action, PlayCard):
        made = _made_sequences(view, action)
        if made:
            won = _wins(view, action)
            found.append(Reason("wins" if won else "completes", cells=made[0]))
        foe = _foe_four(view, bit, occupied)
        if foe is not None:
            found.append(Reason("blocks", cells=foe[1], side=foe[0]))
        if not made:
            own = (masks[side] | CORNER_MASK | bit, occupied & ~masks[side])
            best: tuple[int, int] | None = None  # (count, window index)
            for w, window in enumerate(WINDOW_MASKS):
                if not window & bit or window & own[1]:
                    continue
                k = (window & own[0]).bit_count()
                if best is None or k > best[0]:
                    best = (k, w)
            if best is not None and best[0] >= 4:
                found.append(Reason("four", cells=_cells(best[1])))
            elif best is not None and best[0] >= 2:
                found.append(Reason("builds", cells=_cells(best[1]), count=best[0]))
        if action.card in TWO_EYED_JACKS:
            found.append(Reason("wild", cells=((action.row, action.col),)))
        elif any(card in TWO_EYED_JACKS for card in view.hand):
            found.append(Reason("keeps_jack"))
        if not found:
            found.append(Reason("opens", cells=((action.row, action.col),)))
    else:
        owner = next(s for s, m in enumerate(masks) if m & bit)
        foe = _foe_four(view, bit, occupied & ~bit, owner=owner)
        if foe is not None:
            found.append(Reason("breaks", cells=foe[1], side=owner))
        found.append(Reason("removes", cells=((action.row, action.col),), side=owner))
        if action.card in ONE_EYED_JACKS and any(card in TWO_EYED_JACKS for card in view.hand):
            found.append(Reason("keeps_jack"))
    return tuple(found[:2])


def _foe_four(
    view: SeatView, bit: int, occupied: int, owner: int | None = None
) -> tuple[int, tuple[Cell, ...]] | None:
    """A live foe side's four in a window through ``bit`` (its chips only, corners counting): (the
    side, the cells); ``owner``: that side, its chip on ``bit`` counted."""
    gone = view.sides_out()
    for s, chips in enumerate(view.side_masks):
        if s == view.side or s in gone or (owner is not None and s != owner):
            continue
        have = chips | CORNER_MASK
        blockers = occupied & ~chips
        for w, window in enumerate(WINDOW_MASKS):
            if window & bit and not window & blockers and (window & have).bit_count() >= 4:
                if owner is None and (window & have).bit_count() > 4:
                    continue
                return s, _cells(w)
    return None


def _made_sequences(view: SeatView, action: PlayCard) -> list[tuple[Cell, ...]]:
    """The sequences the placement completes, in one deal of the unseen cards (which do
    not change what the board does)."""
    after = apply(sample_deal(view, random.Random(0)), action, random.Random(0))
    record = after.last_move
    if record is None:
        return []
    return [tuple(seq.cells) for seq in record.new_sequences]


def _wins(view: SeatView, action: Action) -> bool:
    if not isinstance(action, PlayCard):
        return False
    after = apply(sample_deal(view, random.Random(0)), action, random.Random(0))
    return after.outcome is not None and after.outcome.side == view.side


def _cells(window: int) -> tuple[Cell, ...]:
    return tuple(divmod(cell, SIZE) for cell in WINDOWS[window])


def _same_space(a: Action, b: Action) -> bool:
    return (
        isinstance(a, PlayCard | RemoveChip)
        and isinstance(b, PlayCard | RemoveChip)
        and type(a) is type(b)
        and (a.row, a.col) == (b.row, b.col)
    )


def _chance(value: float) -> float:
    return win_chance(value)


def _value_of(view: SeatView, action: Action) -> float:
    """The evaluation's win chance after ``action`` (1 for a winning move)."""
    immediate, scored = strong_candidates(view, [action], fast=True)
    if immediate is not None:
        return 1.0
    return _chance(score(scored[0][0])) if scored else 0.0


def suggest_job(view: SeatView, seed: int) -> list[Suggestion]:
    """``suggest`` with a generator seeded by ``seed``: what a worker process runs."""
    return suggest(view, random.Random(seed))


def review_job(moves: list[tuple[SeatView, Action]]) -> list[Mistake]:
    """``review`` as a worker process runs it."""
    return review(moves)
