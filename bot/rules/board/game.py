"""The Sequence board game engine (RULINGS §3): configuration, state, actions, ``apply`` and views;
the points the rulings leave open are decided as docs/board-rules.md, "Decisions beyond RULINGS §3",
says."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from itertools import combinations, pairwise
from typing import Any

from bot.errors import IllegalAction
from bot.rules.board.cards import FULL_DECK, ONE_EYED_JACKS, TWO_EYED_JACKS, check_card, is_jack
from bot.rules.board.layout import (
    BOARD,
    CARD_CELLS,
    CELL_LINES,
    CELLS,
    CORNER_MASK,
    LINES,
    PLAIN_MASK,
    RUN,
    SIZE,
)
from bot.rules.seats import next_playing

#: ``chips`` value of a space with no chip (corners always hold this value).
EMPTY = -1
MIN_SEATS = 2
MAX_SEATS = 12
_STATE_VERSION = 1


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """How a game is set up: ``teams`` is the number of sides for 4+ seats (``None``: 2 where
    possible, else 3); seat ``i`` plays for side ``i % sides``, so teams alternate in turn order."""

    seats: int
    first_sequence_wins: bool = False
    teams: int | None = None

    def validate(self) -> None:
        """Raise ``IllegalAction`` (a code and values) if the set-up is not allowed."""
        seats = self.seats
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise IllegalAction(code="board.rules_seats", seats=seats)
        if seats <= 3:
            if self.teams is not None and self.teams != seats:
                raise IllegalAction(code="board.alone", seats=seats)
            return
        if self.teams is None:
            if seats % 2 and seats % 3:
                raise IllegalAction(code="board.no_split", seats=seats)
            return
        if self.teams not in (2, 3):
            raise IllegalAction(code="board.teams_2_3")
        if seats % self.teams:
            raise IllegalAction(code="board.split", seats=seats, teams=self.teams)

    @property
    def sides(self) -> int:
        """Number of sides (players or teams) competing."""
        if self.teams is not None:
            return self.teams
        if self.seats <= 3:
            return self.seats
        return 2 if self.seats % 2 == 0 else 3

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (RULINGS §3)."""
        seats = self.seats
        if seats == 2:
            return 7
        if seats <= 4:
            return 6
        if seats <= 6:
            return 5
        if seats <= 9:
            return 4
        return 3

    @property
    def sequences_to_win(self) -> int:
        """Sequences a side needs: 2 with two sides, 1 with three or with the option."""
        return 1 if self.first_sequence_wins or self.sides == 3 else 2

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats of a side, in turn order."""
        return tuple(range(side, self.seats, self.sides))


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` and put a chip on ``(row, col)``: a normal card on a space showing it,
    or a two-eyed jack (J♦, J♣) on any open space but the corners."""

    card: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class RemoveChip:
    """Play a one-eyed jack (J♥, J♠) and remove the opponent chip on ``(row, col)``."""

    card: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class TradeDeadCard:
    """Discard a dead card (both its spaces taken) and draw another; the turn goes on."""

    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing: legal only when no card in hand can be played."""


Action = PlayCard | RemoveChip | TradeDeadCard | Pass


def dump_action(action: Action) -> dict[str, Any]:
    """JSON-safe form of an action."""
    match action:
        case PlayCard(card, row, col):
            return {"type": "play", "card": card, "row": row, "col": col}
        case RemoveChip(card, row, col):
            return {"type": "remove", "card": card, "row": row, "col": col}
        case TradeDeadCard(card):
            return {"type": "trade", "card": card}
        case Pass():
            return {"type": "pass"}


def load_action(data: dict[str, Any]) -> Action:
    """Inverse of ``dump_action``; raises ``IllegalAction`` on a malformed action."""
    try:
        kind = data["type"]
        if kind == "pass":
            return Pass()
        card = check_card(str(data["card"]))
        if kind == "trade":
            return TradeDeadCard(card)
        row, col = int(data["row"]), int(data["col"])
    except (KeyError, TypeError, ValueError) as error:
        raise IllegalAction(code="board.malformed") from error
    if kind == "play":
        return PlayCard(card, row, col)
    if kind == "remove":
        return RemoveChip(card, row, col)
    raise IllegalAction(code="board.malformed")


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class Sequence:
    """A completed, locked sequence: the side it belongs to and its five spaces."""

    side: int
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """What the last ``apply`` did, for the log: ``drawn`` is ``None`` for a pass or the winning
    move; ``reshuffled``, the discards became a new pile just before that draw."""

    seat: int
    action: Action
    drawn: str | None = None
    reshuffled: bool = False
    new_sequences: tuple[Sequence, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """How a game ended: ``"sequences"`` or ``"forfeit"`` for ``side``, or a draw (``side`` None)
    ``"blocked"``, ``"stalled"`` or ``"passed"`` (docs/board-rules.md); ``seats`` are the winners
    still playing."""

    side: int | None
    seats: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class BoardState:
    """A whole game at one moment, a value: ``apply`` returns a new one.

    ``chips[row * 10 + col]`` is a side or ``EMPTY``; ``draw_pile[-1]`` is drawn next.
    ``side_masks`` and ``locked`` are bit masks derived from ``chips`` and ``sequences``, kept for
    speed; ``idle_reshuffles`` and ``idle_passes`` count towards the ``"stalled"`` and ``"passed"``
    draws."""

    config: BoardConfig
    chips: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]
    discards: tuple[str, ...]
    sequences: tuple[Sequence, ...]
    turn: int
    first_seat: int
    turn_count: int = 0
    traded: bool = False
    passes: int = 0
    last_move: MoveRecord | None = None
    outcome: BoardOutcome | None = None
    out: frozenset[int] = frozenset()  # seats that forfeited (RULINGS §4)
    idle_reshuffles: int = 0
    idle_passes: int = 0
    side_masks: tuple[int, ...] = field(default=(), repr=False, compare=False)
    locked: int = field(default=0, repr=False, compare=False)

    def chip_at(self, row: int, col: int) -> int | None:
        """The side whose chip is on ``(row, col)``, or ``None``."""
        side = self.chips[row * SIZE + col]
        return None if side == EMPTY else side

    def is_locked(self, row: int, col: int) -> bool:
        """Whether the space is part of a completed sequence."""
        return bool(self.locked >> (row * SIZE + col) & 1)

    def sequence_counts(self) -> tuple[int, ...]:
        """Completed sequences per side."""
        counts = [0] * self.config.sides
        for seq in self.sequences:
            counts[seq.side] += 1
        return tuple(counts)

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats that have not forfeited, in turn order."""
        return tuple(s for s in range(self.config.seats) if s not in self.out)

    def sides_out(self) -> frozenset[int]:
        """The sides whose seats have all forfeited."""
        return sides_out(self.config, self.out)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: its own hand and everything public (``last_move.drawn`` only when the
    viewer drew it)."""

    config: BoardConfig
    seat: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    discards: tuple[str, ...]
    draw_pile_size: int
    chips: tuple[int, ...]
    sequences: tuple[Sequence, ...]
    turn: int
    turn_count: int
    traded: bool
    last_move: MoveRecord | None
    outcome: BoardOutcome | None
    side_masks: tuple[int, ...] = field(repr=False, compare=False)
    locked: int = field(repr=False, compare=False)
    out: frozenset[int] = frozenset()  # seats that forfeited

    @property
    def side(self) -> int:
        """The viewer's side."""
        return self.seat % self.config.sides

    def sides_out(self) -> frozenset[int]:
        """The sides whose seats have all forfeited: their chips stay, they play no more."""
        return sides_out(self.config, self.out)


def sides_out(config: BoardConfig, out: frozenset[int]) -> frozenset[int]:
    """The sides of ``config`` whose seats are all in ``out``."""
    return frozenset(
        side for side in range(config.sides) if all(s in out for s in config.seats_of(side))
    )


def current_seat(state: BoardState) -> int:
    """The seat to move."""
    return state.turn


def outcome(state: BoardState) -> BoardOutcome | None:
    """How the game ended, or ``None`` while it goes on."""
    return state.outcome


def view_for(state: BoardState, seat: int) -> SeatView:
    """The view of ``seat``: bot players get only this."""
    last = state.last_move
    if last is not None and last.seat != seat and last.drawn is not None:
        last = replace(last, drawn=None)
    return SeatView(
        config=state.config,
        seat=seat,
        hand=state.hands[seat],
        hand_sizes=tuple(len(hand) for hand in state.hands),
        discards=state.discards,
        draw_pile_size=len(state.draw_pile),
        chips=state.chips,
        sequences=state.sequences,
        turn=state.turn,
        turn_count=state.turn_count,
        traded=state.traded,
        last_move=last,
        outcome=state.outcome,
        side_masks=state.side_masks,
        locked=state.locked,
        out=state.out,
    )


def new_game(config: BoardConfig, rng: random.Random, first_seat: int = 0) -> BoardState:
    """Shuffle the 104 cards with ``rng`` and deal; ``first_seat`` moves first."""
    config.validate()
    if not 0 <= first_seat < config.seats:
        raise IllegalAction(code="rules.no_seat", seat=first_seat)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    size = config.hand_size
    # Deal one card at a time round the table from the top (end) of the pile, like people do.
    hands: list[list[str]] = [[] for _ in range(config.seats)]
    for i in range(size * config.seats):
        hands[(first_seat + i) % config.seats].append(deck.pop())
    return BoardState(
        config=config,
        chips=(EMPTY,) * CELLS,
        hands=tuple(tuple(hand) for hand in hands),
        draw_pile=tuple(deck),
        discards=(),
        sequences=(),
        turn=first_seat,
        first_seat=first_seat,
        side_masks=(0,) * config.sides,
        locked=0,
    )


# --------------------------------------------------------------------------- legal moves


def _occupied(masks: tuple[int, ...]) -> int:
    occupied = 0
    for mask in masks:
        occupied |= mask
    return occupied


def is_dead(card: str, chips: tuple[int, ...]) -> bool:
    """Whether a card is dead on this board: not a jack and both its spaces taken."""
    if is_jack(card):
        return False
    a, b = CARD_CELLS[card]
    return chips[a] != EMPTY and chips[b] != EMPTY


def _iter_cells(mask: int) -> list[int]:
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def legal_actions(state: BoardState | SeatView) -> list[Action]:
    """Exactly the legal actions of the seat to move (for a view: ``[]`` unless it is the
    viewer's turn). Duplicated cards in a hand give one action each."""
    if state.outcome is not None:
        return []
    if isinstance(state, SeatView):
        if state.turn != state.seat:
            return []
        hand = state.hand
    else:
        hand = state.hands[state.turn]
    sides = state.config.sides
    side = state.turn % sides
    chips = state.chips
    actions: list[Action] = []
    if not state.traded:
        actions.extend(TradeDeadCard(card) for card in sorted(set(hand)) if is_dead(card, chips))
    trades = bool(actions)
    plays: list[Action] = []
    for card in sorted(set(hand)):
        if card in TWO_EYED_JACKS:
            free = PLAIN_MASK & ~_occupied(state.side_masks)
            plays.extend(PlayCard(card, *divmod(cell, SIZE)) for cell in _iter_cells(free))
        elif card in ONE_EYED_JACKS:
            targets = _occupied(state.side_masks) & ~state.side_masks[side] & ~state.locked
            plays.extend(RemoveChip(card, *divmod(cell, SIZE)) for cell in _iter_cells(targets))
        else:
            for cell in CARD_CELLS[card]:
                if chips[cell] == EMPTY:
                    plays.append(PlayCard(card, *divmod(cell, SIZE)))
    actions.extend(plays)
    # A seat that can't play still trades its dead card first (RULINGS §3 "Blocked game"):
    # the pile keeps turning, so a card that fits an open space comes round again.
    if not plays and not trades:
        actions.append(Pass())
    return actions


def no_card_playable(state: BoardState) -> bool:
    """Whether no card left in the game could ever be played (RULINGS §3 "Blocked game"): every card
    is in a hand or a pile, so the board alone decides."""
    occupied = _occupied(state.side_masks)
    return not PLAIN_MASK & ~occupied and not occupied & ~state.locked


# --------------------------------------------------------------------------- sequences


def sequence_cells(sequences: tuple[Sequence, ...], side: int) -> list[frozenset[int]]:
    """The cell sets of ``side``'s sequences."""
    return [frozenset(r * SIZE + c for r, c in seq.cells) for seq in sequences if seq.side == side]


def _window_cells(line: tuple[int, ...], start: int) -> frozenset[int]:
    return frozenset(line[start : start + RUN])


def new_sequences(
    masks: tuple[int, ...], locked: int, side: int, cell: int, existing: list[frozenset[int]]
) -> list[frozenset[int]]:
    """The sequences the chip just placed on ``cell`` completes for ``side``; ``locked`` only steers
    which five lock (RULINGS §3)."""
    own = masks[side] | CORNER_MASK
    foe_locked = locked & _occupied(masks) & ~masks[side]
    found: list[frozenset[int]] = []
    for line_index, pos in CELL_LINES[cell]:
        line = LINES[line_index]
        lo = pos
        while lo > 0 and own >> line[lo - 1] & 1:
            lo -= 1
        hi = pos
        while hi < len(line) - 1 and own >> line[hi + 1] & 1:
            hi += 1
        if hi - lo + 1 < RUN:
            continue
        on_line = [seq for seq in existing if len(seq.intersection(line)) >= 2]
        candidates = [
            start
            for start in range(max(lo, pos - RUN + 1), min(hi - RUN + 1, pos) + 1)
            if all(len(seq & _window_cells(line, start)) <= 1 for seq in on_line)
        ]
        best = _best_windows(line, candidates, on_line, own, foe_locked)
        found.extend(_window_cells(line, start) for start in best)
    return found


def _lock_room(
    line: tuple[int, ...], taken: list[frozenset[int]], own: int, foe_locked: int
) -> tuple[int, int]:
    """Room a side keeps on ``line`` with its sequences ``taken`` there, ``(windows, short)``:
    5-windows that could still become another sequence, and how many chips the fullest lacks (``RUN
    + 1``: none)."""
    windows, short = 0, RUN + 1
    for start in range(len(line) - RUN + 1):
        window = _window_cells(line, start)
        if any(len(window & seq) > 1 for seq in taken):
            continue
        if any(foe_locked >> c & 1 for c in window):
            continue
        windows += 1
        short = min(short, sum(1 for c in window if not own >> c & 1))
    return windows, short


def _best_windows(
    line: tuple[int, ...],
    candidates: list[int],
    on_line: list[frozenset[int]],
    own: int,
    foe_locked: int,
) -> tuple[int, ...]:
    """Most windows that can lock together; among those, the lock leaving most room on the
    line, then the one leaving the second sequence fewest chips short, then the first
    (leftmost/topmost)."""
    best: tuple[int, ...] = ()
    best_key: tuple[int, int] = (-1, 0)
    for size in range(len(candidates), 0, -1):
        for combo in combinations(candidates, size):
            # Windows of one line share at most one space when their starts are 4+ apart.
            if any(b - a < RUN - 1 for a, b in pairwise(combo)):
                continue
            taken = on_line + [_window_cells(line, start) for start in combo]
            windows, short = _lock_room(line, taken, own, foe_locked)
            key = (windows, -short)
            if key > best_key:
                best, best_key = combo, key
        if best:
            return best
    return best


def _sequence_value(side: int, cells: frozenset[int]) -> Sequence:
    return Sequence(side, tuple(divmod(c, SIZE) for c in sorted(cells)))


# --------------------------------------------------------------------------- apply


def _draw(
    pile: tuple[str, ...], discards: tuple[str, ...], rng: random.Random
) -> tuple[str | None, tuple[str, ...], tuple[str, ...], bool]:
    reshuffled = False
    if not pile:
        shuffled = list(discards)
        rng.shuffle(shuffled)
        pile, discards, reshuffled = tuple(shuffled), (), True
    if not pile:
        return None, pile, discards, reshuffled
    return pile[-1], pile[:-1], discards, reshuffled


def without_card(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``hand`` with one copy of ``card`` taken out."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def _check_space(row: int, col: int) -> int:
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < SIZE and 0 <= col < SIZE):
        raise IllegalAction(code="board.off_board")
    return row * SIZE + col


def apply(state: BoardState, action: Action, rng: random.Random) -> BoardState:
    """Play ``action`` for the seat to move; ``rng`` only reshuffles the discards. ``IllegalAction``
    for anything the rules forbid."""
    if state.outcome is not None:
        raise IllegalAction(code="board.over")
    seat = state.turn
    config = state.config
    side = seat % config.sides
    hand = state.hands[seat]
    if isinstance(action, Pass):
        # legal_actions holds Pass exactly when nothing can be played or traded.
        legal = legal_actions(state)
        if not isinstance(legal[-1], Pass):
            if all(isinstance(a, TradeDeadCard) for a in legal):
                raise IllegalAction(code="board.trade_first")
            raise IllegalAction(code="board.cant_pass")
        # A round of passes with nothing changed would repeat for ever: a draw ("passed"). A
        # pass after this turn's trade starts the count again: the seat drew.
        idle = 0 if state.traded else state.idle_passes + 1
        playing = config.seats - len(state.out)
        return replace(
            state,
            turn=next_playing(state.config.seats, state.out, seat),
            turn_count=state.turn_count + 1,
            traded=False,
            passes=state.passes + 1,
            idle_passes=idle,
            last_move=MoveRecord(seat, action),
            outcome=BoardOutcome(None, (), "passed") if idle >= playing else None,
        )
    if not isinstance(action, PlayCard | RemoveChip | TradeDeadCard):
        raise IllegalAction(code="board.not_a_move")
    card = check_card(action.card)
    if card not in hand:
        raise IllegalAction(code="board.not_held", card=card)
    if isinstance(action, TradeDeadCard):
        return _trade(state, card, rng)
    cell = _check_space(action.row, action.col)
    masks = state.side_masks
    chips = state.chips
    new_locked = state.locked
    sequences = state.sequences
    added: tuple[Sequence, ...] = ()
    if isinstance(action, RemoveChip):
        if card not in ONE_EYED_JACKS:
            raise IllegalAction(code="board.one_eyed_only")
        owner = chips[cell]
        if owner == EMPTY:
            raise IllegalAction(code="board.no_chip", cell=cell)
        if owner == side:
            raise IllegalAction(code="board.own_chip", cell=cell)
        if state.locked >> cell & 1:
            raise IllegalAction(code="board.locked_chip", cell=cell)
        chips = (*chips[:cell], EMPTY, *chips[cell + 1 :])
        masks = tuple(m & ~(1 << cell) for m in masks)
    else:
        if card in ONE_EYED_JACKS:
            raise IllegalAction(code="board.one_eyed", card=card)
        if card in TWO_EYED_JACKS:
            if CORNER_MASK >> cell & 1:
                raise IllegalAction(code="board.corner", cell=cell)
        elif BOARD[cell] != card:
            raise IllegalAction(code="board.shows", cell=cell, card=card)
        if chips[cell] != EMPTY:
            raise IllegalAction(code="board.taken", cell=cell)
        chips = (*chips[:cell], side, *chips[cell + 1 :])
        masks = (*masks[:side], masks[side] | 1 << cell, *masks[side + 1 :])
        existing = sequence_cells(sequences, side)
        fresh = new_sequences(masks, state.locked, side, cell, existing)
        if fresh:
            added = tuple(_sequence_value(side, cells) for cells in fresh)
            sequences = sequences + added
            for cells in fresh:
                for c in cells:
                    new_locked |= 1 << c
    discards = (*state.discards, card)
    hands = list(state.hands)
    hand = without_card(hand, card)
    done = None
    if added and sum(1 for s in sequences if s.side == side) >= config.sequences_to_win:
        done = BoardOutcome(side, _playing_of(state, side), "sequences")
    drawn, pile, reshuffled = None, state.draw_pile, False
    if done is None:
        drawn, pile, discards, reshuffled = _draw(pile, discards, rng)
        if drawn is not None:
            hand = (*hand, drawn)
    hands[seat] = hand
    after = replace(
        state,
        chips=chips,
        hands=tuple(hands),
        draw_pile=pile,
        discards=discards,
        sequences=sequences,
        turn=next_playing(state.config.seats, state.out, seat),
        turn_count=state.turn_count + 1,
        traded=False,
        passes=0,
        last_move=MoveRecord(seat, action, drawn, reshuffled, added),
        outcome=done,
        # A chip was placed or removed: a reshuffle in this very draw comes after it.
        idle_reshuffles=int(reshuffled),
        idle_passes=0,
        side_masks=masks,
        locked=new_locked,
    )
    if done is None and no_card_playable(after):
        return replace(after, outcome=BoardOutcome(None, (), "blocked"))
    return after


def _playing_of(state: BoardState, side: int) -> tuple[int, ...]:
    """The seats of ``side`` still playing, in turn order."""
    return tuple(s for s in state.config.seats_of(side) if s not in state.out)


def forfeit(state: BoardState, seat: int) -> BoardState:
    """The state after ``seat`` forfeits (RULINGS §4; docs/board-rules.md, "Forfeits");
    ``IllegalAction`` for a seat already out or a finished game."""
    if state.outcome is not None:
        raise IllegalAction(code="board.over")
    config = state.config
    if not 0 <= seat < config.seats:
        raise IllegalAction(code="rules.no_seat", seat=seat)
    if seat in state.out:
        raise IllegalAction(code="rules.forfeited")
    out = state.out | {seat}
    live = [side for side in range(config.sides) if side not in sides_out(config, out)]
    if not live:
        raise IllegalAction(code="rules.last_seat")
    hands = (*state.hands[:seat], (), *state.hands[seat + 1 :])
    after = replace(
        state,
        hands=hands,
        discards=(*state.discards, *state.hands[seat]),
        out=out,
        passes=0,
        idle_passes=0,
    )
    if seat != state.turn:
        if len(live) == 1:
            return replace(
                after, outcome=BoardOutcome(live[0], _playing_of(after, live[0]), "forfeit")
            )
        return after
    after = replace(after, turn_count=state.turn_count + 1, traded=False)
    if len(live) == 1:
        return replace(after, outcome=BoardOutcome(live[0], _playing_of(after, live[0]), "forfeit"))
    return replace(after, turn=next_playing(after.config.seats, after.out, seat))


def _trade(state: BoardState, card: str, rng: random.Random) -> BoardState:
    if state.traded:
        raise IllegalAction(code="board.traded")
    if is_jack(card):
        raise IllegalAction(code="board.jack_dead")
    if not is_dead(card, state.chips):
        open_cells = [c for c in CARD_CELLS[card] if state.chips[c] == EMPTY]
        raise IllegalAction(code="board.not_dead", card=card, cells=open_cells)
    seat = state.turn
    hand = without_card(state.hands[seat], card)
    drawn, pile, discards, reshuffled = _draw(state.draw_pile, (*state.discards, card), rng)
    if drawn is not None:
        hand = (*hand, drawn)
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1 :])
    idle = state.idle_reshuffles + reshuffled
    # The second reshuffle with no chip placed or removed since the first: the cards have
    # gone round twice and nobody could use them (RULINGS §3 "Blocked game"), a draw.
    done = BoardOutcome(None, (), "stalled") if idle >= 2 else None
    return replace(
        state,
        hands=hands,
        draw_pile=pile,
        discards=discards,
        traded=True,
        last_move=MoveRecord(seat, TradeDeadCard(card), drawn, reshuffled),
        outcome=done,
        idle_reshuffles=idle,
        idle_passes=0,
    )


# --------------------------------------------------------------------------- JSON


def _dump_sequence(seq: Sequence) -> dict[str, Any]:
    return {"side": seq.side, "cells": [[r, c] for r, c in seq.cells]}


def _load_sequence(data: dict[str, Any]) -> Sequence:
    return Sequence(int(data["side"]), tuple((int(r), int(c)) for r, c in data["cells"]))


def _dump_move(move: MoveRecord) -> dict[str, Any]:
    return {
        "seat": move.seat,
        "action": dump_action(move.action),
        "drawn": move.drawn,
        "reshuffled": move.reshuffled,
        "new_sequences": [_dump_sequence(s) for s in move.new_sequences],
    }


def dump_move(move: MoveRecord) -> dict[str, Any]:
    """JSON-safe form of a move record (the game log entry)."""
    return _dump_move(move)


def load_move(data: dict[str, Any]) -> MoveRecord:
    """Inverse of ``dump_move``."""
    return MoveRecord(
        seat=int(data["seat"]),
        action=load_action(data["action"]),
        drawn=data["drawn"],
        reshuffled=bool(data["reshuffled"]),
        new_sequences=tuple(_load_sequence(s) for s in data["new_sequences"]),
    )


def dump(state: BoardState) -> dict[str, Any]:
    """JSON-safe form of the whole state (hidden cards included: store it, don't show it)."""
    config = state.config
    out = state.outcome
    return (
        {
            "version": _STATE_VERSION,
            "config": {
                "seats": config.seats,
                "first_sequence_wins": config.first_sequence_wins,
                "teams": config.teams,
            },
            "chips": list(state.chips),
            "hands": [list(hand) for hand in state.hands],
            "draw_pile": list(state.draw_pile),
            "discards": list(state.discards),
            "sequences": [_dump_sequence(s) for s in state.sequences],
            "turn": state.turn,
            "first_seat": state.first_seat,
            "turn_count": state.turn_count,
            "traded": state.traded,
            "passes": state.passes,
            "last_move": None if state.last_move is None else _dump_move(state.last_move),
            "outcome": None
            if out is None
            else {"side": out.side, "seats": list(out.seats), "reason": out.reason},
            "forfeited": sorted(state.out),
        }
        | (
            # Written only when set, so that a state saved before the count existed (absent:
            # 0) dumps exactly as it was stored and verify-log still matches it.
            {"idle_reshuffles": state.idle_reshuffles} if state.idle_reshuffles else {}
        )
        | ({"idle_passes": state.idle_passes} if state.idle_passes else {})
    )


def load(data: dict[str, Any]) -> BoardState:
    """Rebuild a state saved by ``dump``; ``load(dump(s)) == s``."""
    if data.get("version") != _STATE_VERSION:
        raise ValueError(f"unknown board state version {data.get('version')!r}")
    raw = data["config"]
    teams = raw["teams"]
    config = BoardConfig(
        seats=int(raw["seats"]),
        first_sequence_wins=bool(raw["first_sequence_wins"]),
        teams=None if teams is None else int(teams),
    )
    config.validate()
    chips = tuple(int(c) for c in data["chips"])
    if len(chips) != CELLS:
        raise ValueError("a board state needs 100 spaces")
    masks = [0] * config.sides
    for cell, side in enumerate(chips):
        if side != EMPTY:
            masks[side] |= 1 << cell
    sequences = tuple(_load_sequence(s) for s in data["sequences"])
    locked = 0
    for seq in sequences:
        for r, c in seq.cells:
            locked |= 1 << (r * SIZE + c)
    raw_out = data["outcome"]
    # States saved before forfeits existed have no "forfeited": nobody forfeited.
    forfeited = frozenset(int(s) for s in data.get("forfeited", ()))
    if any(not 0 <= s < config.seats for s in forfeited):
        raise ValueError("a forfeited seat is not at this table")
    return BoardState(
        config=config,
        chips=chips,
        hands=tuple(tuple(str(card) for card in hand) for hand in data["hands"]),
        draw_pile=tuple(str(card) for card in data["draw_pile"]),
        discards=tuple(str(card) for card in data["discards"]),
        sequences=sequences,
        turn=int(data["turn"]),
        first_seat=int(data["first_seat"]),
        turn_count=int(data["turn_count"]),
        traded=bool(data["traded"]),
        passes=int(data["passes"]),
        last_move=None if data["last_move"] is None else load_move(data["last_move"]),
        outcome=None
        if raw_out is None
        else BoardOutcome(
            None if raw_out["side"] is None else int(raw_out["side"]),
            tuple(int(s) for s in raw_out["seats"]),
            str(raw_out["reason"]),
        ),
        out=forfeited,
        idle_reshuffles=int(data.get("idle_reshuffles", 0)),
        idle_passes=int(data.get("idle_passes", 0)),
        side_masks=tuple(masks),
        locked=locked,
    )
