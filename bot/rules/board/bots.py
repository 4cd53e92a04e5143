"""Bot players for the board game, seeing only a ``SeatView``: ``random``, ``greedy`` (window
counts) and ``strong`` (a learned logistic evaluation); what each does and how it measured:
docs/board-rules.md, "Bot players"."""

from __future__ import annotations

import math
import random
from collections import Counter
from math import comb

from bot.rules.board.cards import FULL_DECK, ONE_EYED_JACKS, TWO_EYED_JACKS
from bot.rules.board.game import (
    Action,
    Pass,
    PlayCard,
    RemoveChip,
    SeatView,
    TradeDeadCard,
    legal_actions,
    new_sequences,
    sequence_cells,
    without_card,
)
from bot.rules.board.layout import (
    BOARD,
    CARD_CELLS,
    CELL_WINDOWS,
    CORNER_CODE,
    CORNER_MASK,
    SIZE,
    WINDOW_MASKS,
)

#: The one-ply levels (``levels.choose_action`` adds the searching ones).
LEVELS: tuple[str, ...] = ("random", "greedy", "strong")

_WINDOW_COUNT = len(WINDOW_MASKS)


def one_ply_action(view: SeatView, level: str, rng: random.Random) -> Action:
    """Pick a legal action for the viewer, who must be the seat to move, at a one-ply level."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: use one of {', '.join(LEVELS)}")
    actions = legal_actions(view)
    if not actions:
        raise ValueError("it is not this seat's turn, or the game is over")
    if level == "random":
        return rng.choice(actions)
    forced = forced_action(actions)
    if forced is not None:
        return forced
    if level == "greedy":
        return greedy_action(view, actions, rng)
    return _strong(view, actions, rng)


# --------------------------------------------------------------------------- shared pieces


def forced_action(actions: list[Action]) -> Action | None:
    """The move the greedy and strong bots make without weighing: trade a dead card (never worth
    keeping) or pass (legal only when nothing can be played or traded)."""
    for action in actions:
        if isinstance(action, TradeDeadCard):
            return action
    return actions[0] if isinstance(actions[0], Pass) else None


def dead_windows(view: SeatView, side: int) -> frozenset[int]:
    """Windows that can never become a new sequence of ``side``: they share two or more
    spaces with one of its sequences (the rule allows one shared space)."""
    cells = tuple(seq.cells for seq in view.sequences if seq.side == side)
    if not cells:
        return frozenset()
    dead = _DEAD.get(cells)
    if dead is None:
        found: set[int] = set()
        for seq_cells in cells:
            mask = 0
            for row, col in seq_cells:
                mask |= 1 << (row * SIZE + col)
            for w, window in enumerate(WINDOW_MASKS):
                if (window & mask).bit_count() >= 2:
                    found.add(w)
        if len(_DEAD) > 4096:  # a search sees few distinct sets of sequences: stay small
            _DEAD.clear()
        dead = _DEAD[cells] = frozenset(found)
    return dead


# The dead windows of each set of one side's sequences seen lately (searches ask often).
_DEAD: dict[tuple[tuple[tuple[int, int], ...], ...], frozenset[int]] = {}


def _cell(action: PlayCard | RemoveChip) -> int:
    return action.row * SIZE + action.col


def _pick(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    best = max(score for score, _ in scored)
    # Near-equal options are drawn at random so that bot games vary.
    return rng.choice([action for score, action in scored if score >= best - 1e-9])


# --------------------------------------------------------------------------- greedy

# Gain for raising an open window from k to k+1 own spaces; five completes a sequence.
_GREEDY_OWN = (0.0, 1.0, 3.0, 9.0, 27.0, 1000.0)
# Gain for spoiling an opponent window holding k of their spaces.
_GREEDY_BLOCK = (0.0, 1.0, 3.0, 15.0, 500.0, 0.0)
_GREEDY_JACK_COST = 45.0


def greedy_action(view: SeatView, actions: list[Action], rng: random.Random) -> Action:
    """One ply: window gains of each placement or removal, jacks at a fixed cost."""
    side = view.side
    masks = view.side_masks
    own_chips = masks[side]
    own = own_chips | CORNER_MASK
    gone = view.sides_out()
    # Sides that are out still block with their chips (``foes``) but are not worth blocking.
    opponents = [(m | CORNER_MASK, m) for s, m in enumerate(masks) if s != side and s not in gone]
    foes = 0
    for s, m in enumerate(masks):
        if s != side:
            foes |= m
    dead = dead_windows(view, side)
    cache: dict[int, float] = {}

    def place_gain(cell: int) -> float:
        gain = cache.get(cell)
        if gain is not None:
            return gain
        gain = 0.0
        for w in CELL_WINDOWS[cell]:
            window = WINDOW_MASKS[w]
            if not window & foes:
                if w not in dead:
                    k = (window & own).bit_count()
                    gain += _GREEDY_OWN[k + 1] - _GREEDY_OWN[k]
            elif not window & own_chips:
                for theirs, chips in opponents:
                    if window & chips and not window & foes & ~chips:
                        gain += _GREEDY_BLOCK[(window & theirs).bit_count()]
        cache[cell] = gain
        return gain

    def removal_gain(cell: int) -> float:
        gain = 0.0
        for theirs, chips in opponents:
            if chips >> cell & 1:
                for w in CELL_WINDOWS[cell]:
                    window = WINDOW_MASKS[w]
                    if not window & foes & ~chips and not window & own_chips:
                        gain += _GREEDY_BLOCK[(window & theirs).bit_count()]
        return gain

    scored: list[tuple[float, Action]] = []
    for action in actions:
        if isinstance(action, PlayCard):
            score = place_gain(_cell(action))
            if action.card in TWO_EYED_JACKS:
                score -= _GREEDY_JACK_COST
        elif isinstance(action, RemoveChip):
            score = removal_gain(_cell(action)) - _GREEDY_JACK_COST
        else:
            continue
        scored.append((score, action))
    return _pick(scored, rng)


# --------------------------------------------------------------------------- strong

# Chance-like weight of filling an empty space by unseen copies (0, 1, 2) of its card.
_FILL = (0.2, 0.55, 0.8)
# A two-eyed jack in hand can fill any one space.
_JACK_FILL = 0.6

#: What ``strong`` measures in the position its move leaves, in the order of ``WEIGHTS``
#: ("own" the mover's side, "foe" the opponents'; each: docs/board-rules.md, "Bot players").
FEATURES: tuple[str, ...] = (
    "own_fill_1",
    "own_fill_2",
    "own_fill_3",
    "own_fill_4",
    "own_count_2",
    "own_count_3",
    "own_count_4",
    "foe_fill_1",
    "foe_fill_2",
    "foe_fill_3",
    "foe_fill_4",
    "foe_count_2",
    "foe_count_3",
    "foe_count_4",
    "own_one_away",
    "foe_one_away",
    "own_threat",
    "own_threat_one_away",
    "foe_threat",
    "foe_threat_one_away",
    "own_ready_holes",
    "foe_holes",
    "own_one_eyed_jacks",
    "own_two_eyed_jacks",
    "unseen_two_eyed_jacks",
    "unseen_one_eyed_jacks",
)

#: Weights of a logistic model of "the side that just moved goes on to win" (``board-fit``):
#: their sum, ``score``, orders strong's moves; ``win_chance`` calibrates it.
WEIGHTS: tuple[float, ...] = (
    0.02689,  # own_fill_1
    0.08977,  # own_fill_2
    0.131,  # own_fill_3
    0.2815,  # own_fill_4
    -0.0154,  # own_count_2
    0.003073,  # own_count_3
    0.0337,  # own_count_4
    -0.02946,  # foe_fill_1
    -0.1025,  # foe_fill_2
    -0.07907,  # foe_fill_3
    -0.07866,  # foe_fill_4
    0.00642,  # foe_count_2
    -0.03445,  # foe_count_3
    0.01129,  # foe_count_4
    1.46,  # own_one_away
    -1.148,  # foe_one_away
    0.4664,  # own_threat
    1.319,  # own_threat_one_away
    -0.1701,  # foe_threat
    -0.821,  # foe_threat_one_away
    -0.01539,  # own_ready_holes
    -0.2278,  # foe_holes
    0.3979,  # own_one_eyed_jacks
    0.5706,  # own_two_eyed_jacks
    -0.04608,  # unseen_two_eyed_jacks
    -0.1866,  # unseen_one_eyed_jacks
)


#: Platt scaling of ``score`` (``board-fit --calibrate``; docs/board-rules.md, "The calibrated
#: evaluation"): a positive scale, so the order of the moves is kept.
CALIBRATION: tuple[float, float] = (0.9693, 0.192)


class Cards:
    """What the viewer knows about the cards: the unseen pool and who may hold what."""

    def __init__(self, view: SeatView) -> None:
        seen = Counter(view.hand) + Counter(view.discards)
        self.unseen = Counter(FULL_DECK) - seen
        self.total = sum(self.unseen.values())
        config = view.config
        # Cards of the opponents who move before our next turn.
        self.foe_cards = sum(
            view.hand_sizes[(view.seat + i) % config.seats]
            for i in range(1, config.seats)
            if config.side_of((view.seat + i) % config.seats) != view.side
        )
        self.jacks = sum(self.unseen[j] for j in TWO_EYED_JACKS)
        self.removers = sum(self.unseen[j] for j in ONE_EYED_JACKS)
        # Weight of a foe filling each space: their hands are drawn from the unseen cards.
        self.foe_fill = [
            0.0 if code == CORNER_CODE else _FILL[min(2, self.unseen[code])] for code in BOARD
        ]
        # ``my_fill`` of each set of cards kept (the candidates of one move share a few).
        self._fills: dict[frozenset[str], list[float]] = {}
        self._jack_fill: list[float] | None = None

    def chance(self, useful: int, cards: int) -> float:
        """Probability that ``cards`` unseen cards include one of ``useful`` copies."""
        total = self.total
        if useful <= 0 or cards <= 0 or total <= 0:
            return 0.0
        cards = min(cards, total)
        return 1.0 - comb(total - useful, cards) / comb(total, cards)

    def copies(self, cells: set[int]) -> int:
        """Unseen copies of the cards that fill any of ``cells``."""
        return sum(self.unseen[code] for code in {BOARD[c] for c in cells})

    def my_fill(self, hand: tuple[str, ...]) -> list[float]:
        """Weight of us filling each space, given the hand we keep."""
        held = frozenset(hand)
        fill = self._fills.get(held)
        if fill is None:
            jack = any(card in TWO_EYED_JACKS for card in held)
            if jack:
                if self._jack_fill is None:
                    self._jack_fill = [
                        0.0 if code == CORNER_CODE else max(weight, _JACK_FILL)
                        for code, weight in zip(BOARD, self.foe_fill, strict=True)
                    ]
                fill = list(self._jack_fill)
            else:
                fill = list(self.foe_fill)
            for card in held:
                for cell in CARD_CELLS.get(card, ()):
                    fill[cell] = 1.0
            self._fills[held] = fill
        return fill


def _strong(view: SeatView, actions: list[Action], rng: random.Random) -> Action:
    """One ply over distinct moves: the one whose position ``WEIGHTS`` scores highest."""
    immediate, scored = strong_candidates(view, actions)
    if immediate is not None:
        return immediate
    return _pick([(score(features), action) for features, action in scored], rng)


def score(features: list[float]) -> float:
    """How good a position with ``features`` is for the mover: its log-odds of winning up to
    the scale and shift of ``CALIBRATION``, which keep the order."""
    return sum(w * f for w, f in zip(WEIGHTS, features, strict=True))


def win_chance(value: float) -> float:
    """The probability that the mover wins from a position that ``score``s ``value``."""
    scale, intercept = CALIBRATION
    return 1.0 / (1.0 + math.exp(-(scale * value + intercept)))


def strong_candidates(
    view: SeatView, actions: list[Action], fast: bool = False
) -> tuple[Action | None, list[tuple[list[float], Action]]]:
    """A winning move if there is one, else every distinct move with the ``FEATURES`` of the
    position it leaves (``board-fit`` learns from them). ``fast`` updates the features window by
    window, the same up to rounding and several times faster."""
    side = view.side
    config = view.config
    cards = Cards(view)
    dead = [dead_windows(view, s) for s in range(config.sides)]
    counts = [0] * config.sides
    for seq in view.sequences:
        counts[seq.side] += 1
    masks = view.side_masks
    hand = view.hand
    existing = sequence_cells(view.sequences, side)
    windows = _Windows(view, cards, dead) if fast else None

    # Candidate moves, deduplicated: a plain card and a two-eyed jack on the same space
    # reach the same position, and the plain card keeps the jack.
    plain_cells: dict[int, str] = {}
    jack_cells: dict[int, str] = {}
    removals: dict[int, str] = {}
    for action in actions:
        if isinstance(action, PlayCard):
            target = jack_cells if action.card in TWO_EYED_JACKS else plain_cells
            target.setdefault(_cell(action), action.card)
        elif isinstance(action, RemoveChip):
            removals.setdefault(_cell(action), action.card)
    for cell in plain_cells:
        jack_cells.pop(cell, None)
    if jack_cells:
        # A kept two-eyed jack is worth more than any quiet placement, so only spaces where
        # some side already holds three of a live window are worth scoring for it.
        hot = _hot_cells(masks, dead)
        kept = {cell: card for cell, card in jack_cells.items() if hot >> cell & 1}
        # A hand of nothing but two-eyed jacks must still place one somewhere.
        if kept or plain_cells or removals:
            jack_cells = kept

    scored: list[tuple[list[float], Action]] = []
    for cell, card in [*plain_cells.items(), *jack_cells.items()]:
        new_masks = (*masks[:side], masks[side] | 1 << cell, *masks[side + 1 :])
        made = len(new_sequences(new_masks, view.locked, side, cell, existing))
        action = PlayCard(card, *divmod(cell, SIZE))
        if counts[side] + made >= config.sequences_to_win:
            return action, []
        left = without_card(hand, card)
        if windows is None:
            features = position_features(view, new_masks, left, cards, dead, counts, made)
        else:
            features = windows.features(new_masks, left, cell, counts, made)
        scored.append((features, action))
    for cell, card in removals.items():
        new_masks = tuple(m & ~(1 << cell) for m in masks)
        left = without_card(hand, card)
        if windows is None:
            features = position_features(view, new_masks, left, cards, dead, counts, 0)
        else:
            features = windows.features(new_masks, left, cell, counts, 0)
        scored.append((features, RemoveChip(card, *divmod(cell, SIZE))))
    return None, scored


# One window's part in ``position_features`` for one side: (spaces held, fill weight, hole of a four
# or -1), or None when the window counts for nothing (blocked, dead, or none held).
_Part = tuple[int, float, int] | None


class _Windows:
    """``position_features`` of the positions one move away from ``view``: the window sums of the
    view's own position, corrected for the windows through the space the move changes
    (and, for our side, those through the spaces of a card the move gives up)."""

    def __init__(self, view: SeatView, cards: Cards, dead: list[frozenset[int]]) -> None:
        self.view = view
        self.cards = cards
        self.dead = dead
        side = view.side
        masks = view.side_masks
        gone = view.sides_out()
        self.live = [s for s in range(len(masks)) if s not in gone]
        foes_left = sum(1 for s in self.live if s != side)
        self.shares = [1.0 if s == side else 1.0 / max(1, foes_left) for s in range(len(masks))]
        self.held = frozenset(view.hand)
        self.jack = any(card in TWO_EYED_JACKS for card in view.hand)
        my_fill = cards.my_fill(view.hand)
        occupied = 0
        for m in masks:
            occupied |= m
        self.parts: dict[int, list[_Part]] = {}
        # [own fill, own count, foe fill, foe count] by spaces held; holes by cell, counted.
        self.sums = [[0.0] * 6 for _ in range(4)]
        self.holes: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for s in self.live:
            fill = my_fill if s == side else cards.foe_fill
            parts = [self._part(s, w, masks[s], occupied, fill) for w in range(_WINDOW_COUNT)]
            self.parts[s] = parts
            for part in parts:
                self._add(s, part, 1)

    def _part(self, s: int, w: int, chips: int, occupied: int, fill: list[float]) -> _Part:
        window = WINDOW_MASKS[w]
        own = chips | CORNER_MASK
        if window & occupied & ~chips or w in self.dead[s]:
            return None
        missing = window & ~own
        k = 5 - missing.bit_count()
        if not k:
            return None
        weight = self.shares[s]
        hole = missing.bit_length() - 1 if k == 4 else -1
        while missing:
            low = missing & -missing
            weight *= fill[low.bit_length() - 1]
            missing ^= low
        return (k, weight, hole)

    def _add(
        self,
        s: int,
        part: _Part,
        sign: int,
        sums: list[list[float]] | None = None,
        holes: tuple[dict[int, int], dict[int, int]] | None = None,
    ) -> None:
        if part is None:
            return
        sums = self.sums if sums is None else sums
        holes = self.holes if holes is None else holes
        k, weight, hole = part
        mine = s == self.view.side
        at = 0 if mine else 2
        sums[at][k] += sign * weight
        sums[at + 1][k] += sign * self.shares[s]
        if hole >= 0:
            counted = holes[0 if mine else 1]
            counted[hole] = counted.get(hole, 0) + sign

    def features(
        self, masks: tuple[int, ...], hand: tuple[str, ...], cell: int, counts: list[int], made: int
    ) -> list[float]:
        side = self.view.side
        cards = self.cards
        my_fill = cards.my_fill(hand)
        occupied = 0
        for m in masks:
            occupied |= m
        sums = [list(row) for row in self.sums]
        holes = (dict(self.holes[0]), dict(self.holes[1]))
        changed = CELL_WINDOWS[cell]
        jack = any(card in TWO_EYED_JACKS for card in hand)
        # Our windows whose fill weight changed: through the spaces of a card given up (every
        # window when the last two-eyed jack goes); only those that counted can change.
        refilled: set[int] = set()
        if jack != self.jack:
            refilled = set(range(_WINDOW_COUNT))
        else:
            for card in self.held - frozenset(hand):
                for c in CARD_CELLS.get(card, ()):
                    refilled.update(CELL_WINDOWS[c])
        for s in self.live:
            mine = s == side
            fill = my_fill if mine else cards.foe_fill
            parts = self.parts[s]
            chips = masks[s]
            for w in changed:
                old = parts[w]
                new = self._part(s, w, chips, occupied, fill)
                if new != old:
                    self._add(s, old, -1, sums, holes)
                    self._add(s, new, 1, sums, holes)
            if mine and refilled:
                for w in refilled.difference(changed):
                    old = parts[w]
                    if old is not None:
                        new = self._part(s, w, chips, occupied, fill)
                        if new != old:
                            self._add(s, old, -1, sums, holes)
                            self._add(s, new, 1, sums, holes)
        my_holes = {c for c, n in holes[0].items() if n > 0}
        foe_holes = {c for c, n in holes[1].items() if n > 0}
        own_fill, own_count, foe_fill, foe_count = sums
        return _finish(
            self.view,
            hand,
            cards,
            counts,
            made,
            my_fill,
            (own_fill, own_count, foe_fill, foe_count),
            my_holes,
            foe_holes,
        )


def _hot_cells(masks: tuple[int, ...], dead: list[frozenset[int]]) -> int:
    """Empty spaces of windows in which one side holds three or more and no foe chip."""
    occupied = 0
    for m in masks:
        occupied |= m
    hot = 0
    for s, own_chips in enumerate(masks):
        own = own_chips | CORNER_MASK
        blockers = occupied & ~own_chips
        for w, window in enumerate(WINDOW_MASKS):
            if not window & blockers and w not in dead[s] and (window & own).bit_count() >= 3:
                hot |= window & ~own
    return hot


def position_features(
    view: SeatView,
    masks: tuple[int, ...],
    hand: tuple[str, ...],
    cards: Cards,
    dead: list[frozenset[int]],
    counts: list[int],
    made: int,
) -> list[float]:
    """``FEATURES`` of a position after our move, from our side's point of view."""
    side = view.side
    sides = len(masks)
    gone = view.sides_out()
    foes_left = sum(1 for s in range(sides) if s != side and s not in gone)
    occupied = 0
    for m in masks:
        occupied |= m
    my_fill = cards.my_fill(hand)
    foe_fill = cards.foe_fill
    own_fill = [0.0] * 6
    own_count = [0.0] * 6
    foe_fill_sum = [0.0] * 6
    foe_count = [0.0] * 6
    my_holes: set[int] = set()
    foe_holes: set[int] = set()
    for s in range(sides):
        if s in gone:
            continue  # out: its chips block (``occupied``), its lines are no threat
        own_chips = masks[s]
        own = own_chips | CORNER_MASK
        blockers = occupied & ~own_chips
        dead_s = dead[s]
        mine = s == side
        fill = my_fill if mine else foe_fill
        holes = my_holes if mine else foe_holes
        sums = own_fill if mine else foe_fill_sum
        tally = own_count if mine else foe_count
        share = 1.0 if mine else 1.0 / max(1, foes_left)
        for w, window in enumerate(WINDOW_MASKS):
            if window & blockers or w in dead_s:
                continue
            missing = window & ~own
            k = 5 - missing.bit_count()
            if not k:
                continue  # no space of the side yet: no feature counts it
            weight = share
            while missing:
                low = missing & -missing
                weight *= fill[low.bit_length() - 1]
                missing ^= low
            sums[k] += weight
            tally[k] += share
            if k == 4:
                holes.add((window & ~own).bit_length() - 1)
    return _finish(
        view,
        hand,
        cards,
        counts,
        made,
        my_fill,
        (own_fill, own_count, foe_fill_sum, foe_count),
        my_holes,
        foe_holes,
    )


def _finish(
    view: SeatView,
    hand: tuple[str, ...],
    cards: Cards,
    counts: list[int],
    made: int,
    my_fill: list[float],
    sums: tuple[list[float], list[float], list[float], list[float]],
    my_holes: set[int],
    foe_holes: set[int],
) -> list[float]:
    """``FEATURES`` from the window sums (own fill, own count, foe fill, foe count, each by
    the side's spaces in the window) and the holes of the fours."""
    own_fill, own_count, foe_fill_sum, foe_count = sums
    side = view.side
    sides = view.config.sides
    gone = view.sides_out()
    need = view.config.sequences_to_win
    own_one_away = float(need - counts[side] - made <= 1)
    foe_one_away = float(
        any(need - counts[s] <= 1 for s in range(sides) if s != side and s not in gone)
    )
    own_threat = 0.0
    ready: set[int] = set()
    if my_holes:
        ready = {c for c in my_holes if my_fill[c] == 1.0}
        if any(card in TWO_EYED_JACKS for card in hand):
            ready = my_holes
        if ready:
            useful = cards.copies(ready) + cards.jacks + cards.removers
            block = cards.chance(useful, cards.foe_cards)
            # Two different holes need two blocks before our next turn.
            own_threat = 1.0 - (block if len(ready) == 1 else block * block)
    foe_threat = 0.0
    if foe_holes:
        foe_threat = cards.chance(cards.copies(foe_holes) + cards.jacks, cards.foe_cards)
    return [
        *own_fill[1:5],
        *own_count[2:5],
        *foe_fill_sum[1:5],
        *foe_count[2:5],
        own_one_away,
        foe_one_away,
        own_threat,
        own_threat * own_one_away,
        foe_threat,
        foe_threat * foe_one_away,
        float(len(ready)),
        float(len(foe_holes)),
        float(sum(1 for card in hand if card in ONE_EYED_JACKS)),
        float(sum(1 for card in hand if card in TWO_EYED_JACKS)),
        cards.jacks / 4,
        cards.removers / 4,
    ]
