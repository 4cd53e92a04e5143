"""Roll-outs of board games to their end by ``greedy``: the compiled kernel (``kernel.c``, cffi) and
its Python twin, move for move the same (docs/board-rules.md, "The compiled playout kernel";
``BOARD_KERNEL=python`` forces the twin)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.board.bots import forced_action, greedy_action
from bot.rules.board.cards import ONE_DECK, ONE_EYED_JACKS, TWO_EYED_JACKS
from bot.rules.board.game import (
    Action,
    BoardOutcome,
    BoardState,
    Pass,
    PlayCard,
    RemoveChip,
    Sequence,
    TradeDeadCard,
    apply,
    legal_actions,
    view_for,
)
from bot.rules.board.kernel_build import build
from bot.rules.board.layout import BOARD, CORNER_CODE, LINES, SIZE

#: What a roll-out ended in besides a side's win (``Playout.result`` >= 0).
BLOCKED, STALLED, PASSED, UNFINISHED = -1, -2, -3, -4
_REASONS = {BLOCKED: "blocked", STALLED: "stalled", PASSED: "passed"}
_KINDS = {PlayCard: 0, RemoveChip: 1, TradeDeadCard: 2, Pass: 3}
_CODE = {card: i for i, card in enumerate(ONE_DECK)}

# The C declarations cffi reads (kernel.c's struct and entry points).
CDEF = """
struct kstate {
    int seats, sides, need;
    int turn, traded, idle_reshuffles, idle_passes, out_mask, turn_count;
    int hand_len[12];
    int hands[12][8];
    int pile_len;
    int pile[104];
    int disc_len;
    int disc[104];
    int chips[100];
    int nseq;
    int seq_side[64];
    int seq_cells[64][5];
    uint32_t mt[624];
    int mti;
};
void k_setup(const int *codes, const int *ranks, const int *kinds, int nlines, const int *lines);
int k_play(struct kstate *s, int first, int max_plies, int *moves, int *plies);
"""


@dataclass(frozen=True, slots=True)
class Playout:
    """A roll-out's end: ``result`` is the winning side or one of ``BLOCKED``, ``STALLED``,
    ``PASSED`` (draws) and ``UNFINISHED``; ``moves`` the actions played, encoded by
    ``encode`` (only when asked for); ``state`` the position reached."""

    result: int
    plies: int
    moves: tuple[int, ...]
    state: BoardState


def encode(action: Action) -> int:
    """An action as the kernel writes it: kind << 16 | card << 8 | cell."""
    kind = _KINDS[type(action)]
    if isinstance(action, Pass):
        return kind << 16
    if isinstance(action, TradeDeadCard):
        return kind << 16 | _CODE[action.card] << 8
    return kind << 16 | _CODE[action.card] << 8 | action.row * SIZE + action.col


def decode(value: int) -> Action:
    """Inverse of ``encode``."""
    kind, card, cell = value >> 16, ONE_DECK[value >> 8 & 0xFF], value & 0xFF
    if kind == 3:
        return Pass()
    if kind == 2:
        return TradeDeadCard(card)
    row, col = divmod(cell, SIZE)
    return PlayCard(card, row, col) if kind == 0 else RemoveChip(card, row, col)


# --------------------------------------------------------------------------- the library


class _Kernel:
    def __init__(self) -> None:
        import cffi  # only here: a machine without cffi plays the Python engine

        path = build()
        if path is None:
            raise OSError("the board kernel could not be built")
        self.ffi = ffi = cffi.FFI()
        ffi.cdef(CDEF)
        self.lib = lib = ffi.dlopen(str(path))
        ranks = {card: i for i, card in enumerate(sorted(ONE_DECK))}
        kinds = [
            1 if card in TWO_EYED_JACKS else 2 if card in ONE_EYED_JACKS else 0 for card in ONE_DECK
        ]
        lines = [cell for line in LINES for cell in (*line, *[-1] * (10 - len(line)))]
        codes = [-1 if code == CORNER_CODE else _CODE[code] for code in BOARD]
        self._tables = [
            ffi.new("int[]", codes),
            ffi.new("int[]", [ranks[card] for card in ONE_DECK]),
            ffi.new("int[]", kinds),
            ffi.new("int[]", lines),
        ]
        lib.k_setup(*self._tables[:3], len(LINES), self._tables[3])

    def prepare(self, state: BoardState) -> Any:
        """The kernel's copy of ``state`` (every roll-out from it starts from a copy)."""
        s: Any = self.ffi.new("struct kstate *")
        config = state.config
        s.seats, s.sides, s.need = config.seats, config.sides, config.sequences_to_win
        s.turn, s.traded, s.turn_count = state.turn, int(state.traded), state.turn_count
        s.idle_reshuffles, s.idle_passes = state.idle_reshuffles, 0
        s.out_mask = sum(1 << seat for seat in state.out)
        for seat, hand in enumerate(state.hands):
            s.hand_len[seat] = len(hand)
            s.hands[seat][0 : len(hand)] = [_CODE[card] for card in hand]
        s.pile_len, s.disc_len = len(state.draw_pile), len(state.discards)
        s.pile[0 : len(state.draw_pile)] = [_CODE[card] for card in state.draw_pile]
        s.disc[0 : len(state.discards)] = [_CODE[card] for card in state.discards]
        s.chips[0:100] = list(state.chips)
        s.nseq = len(state.sequences)
        for q, seq in enumerate(state.sequences):
            s.seq_side[q] = seq.side
            s.seq_cells[q][0:5] = sorted(r * SIZE + c for r, c in seq.cells)
        return s

    def run(
        self,
        prepared: Any,
        rng: random.Random,
        max_plies: int = 10_000,
        first: Action | None = None,
    ) -> int:
        """Roll a copy of ``prepared`` out; only the result (a side, or a draw's code)."""
        ffi = self.ffi
        s: Any = ffi.new("struct kstate *")
        ffi.memmove(s, prepared, ffi.sizeof("struct kstate"))
        version, words, gauss = rng.getstate()
        s.mt[0:624] = words[:624]
        s.mti = words[624]
        plies = ffi.new("int *")
        code = -1 if first is None else encode(first)
        result: int = self.lib.k_play(s, code, max_plies, ffi.NULL, plies)
        rng.setstate((version, (*ffi.unpack(s.mt, 624), s.mti), gauss))
        return result

    def play(
        self,
        state: BoardState,
        rng: random.Random,
        max_plies: int,
        record: bool,
        first: Action | None = None,
    ) -> Playout:
        ffi = self.ffi
        s = self.prepare(state)
        version, words, gauss = rng.getstate()
        s.mt[0:624] = words[:624]
        s.mti = words[624]
        moves = ffi.new("int[]", max_plies if record else 1)
        plies = ffi.new("int *")
        code = -1 if first is None else encode(first)
        result = self.lib.k_play(s, code, max_plies, moves if record else ffi.NULL, plies)
        rng.setstate((version, (*ffi.unpack(s.mt, 624), s.mti), gauss))
        return Playout(
            result,
            plies[0],
            tuple(ffi.unpack(moves, plies[0])) if record else (),
            _state_of(s, state, result),
        )


def _state_of(s: Any, before: BoardState, result: int) -> BoardState:
    """The kernel's position as a ``BoardState`` (enough of it to compare and play on)."""
    config = before.config
    chips = tuple(s.chips[0:100])
    masks = [0] * config.sides
    for cell, side in enumerate(chips):
        if side >= 0:
            masks[side] |= 1 << cell
    sequences = tuple(
        Sequence(s.seq_side[q], tuple(divmod(c, SIZE) for c in s.seq_cells[q][0:5]))
        for q in range(s.nseq)
    )
    locked = 0
    for seq in sequences:
        for r, c in seq.cells:
            locked |= 1 << (r * SIZE + c)
    return BoardState(
        config=config,
        chips=chips,
        hands=tuple(
            tuple(ONE_DECK[c] for c in s.hands[seat][0 : s.hand_len[seat]])
            for seat in range(config.seats)
        ),
        draw_pile=tuple(ONE_DECK[c] for c in s.pile[0 : s.pile_len]),
        discards=tuple(ONE_DECK[c] for c in s.disc[0 : s.disc_len]),
        sequences=sequences,
        turn=s.turn,
        first_seat=before.first_seat,
        turn_count=s.turn_count,
        traded=bool(s.traded),
        outcome=_outcome(config, before, result),
        out=before.out,
        idle_reshuffles=s.idle_reshuffles,
        side_masks=tuple(masks),
        locked=locked,
    )


def _outcome(config: Any, state: BoardState, result: int) -> BoardOutcome | None:
    if result >= 0:
        seats = tuple(s for s in config.seats_of(result) if s not in state.out)
        return BoardOutcome(result, seats, "sequences")
    reason = _REASONS.get(result)
    return None if reason is None else BoardOutcome(None, (), reason)


_LOADED: _Kernel | None = None
_TRIED = False


def compiled() -> _Kernel | None:
    """The compiled kernel, or ``None`` (forced off, or it could not be built or loaded)."""
    global _LOADED, _TRIED
    if os.environ.get("BOARD_KERNEL", "").lower() == "python":
        return None
    if not _TRIED:
        _TRIED = True
        try:
            _LOADED = _Kernel()
        except (ImportError, OSError):
            _LOADED = None
    return _LOADED


def engine() -> str:
    """Which engine ``playout`` uses here: ``"compiled"`` or ``"python"``."""
    return "python" if compiled() is None else "compiled"


# --------------------------------------------------------------------------- playing


def playout(
    state: BoardState,
    rng: random.Random,
    max_plies: int = 10_000,
    record: bool = False,
    first: Action | None = None,
) -> Playout:
    """Roll ``state`` out (see the module's docstring), ``first`` (a legal action) played
    first if given, with the compiled kernel where it loads, else in Python; both consume
    ``rng`` alike and play the same moves."""
    kernel = compiled()
    if kernel is None:
        return playout_python(state, rng, max_plies, record, first)
    return kernel.play(state, rng, max_plies, record, first)


def playout_compiled(
    state: BoardState,
    rng: random.Random,
    max_plies: int = 10_000,
    record: bool = False,
    first: Action | None = None,
) -> Playout:
    """``playout`` by the compiled kernel; ``OSError`` if it is not available."""
    kernel = compiled()
    if kernel is None:
        raise OSError("the compiled board kernel is not available")
    return kernel.play(state, rng, max_plies, record, first)


def playout_python(
    state: BoardState,
    rng: random.Random,
    max_plies: int = 10_000,
    record: bool = False,
    first: Action | None = None,
) -> Playout:
    """``playout`` by the engine of ``game`` and the ``greedy`` of ``bots``."""
    moves: list[int] = []
    plies = idle_passes = 0
    result = UNFINISHED
    while plies < max_plies and state.outcome is None:
        if first is not None and plies == 0:
            action: Action = first
        else:
            actions = legal_actions(state)
            forced = forced_action(actions)
            action = (
                forced
                if forced is not None
                else greedy_action(view_for(state, state.turn), actions, rng)
            )
        if record:
            moves.append(encode(action))
        plies += 1
        state = apply(state, action, rng)
        idle_passes = idle_passes + 1 if isinstance(action, Pass) else 0
        if state.outcome is None and idle_passes >= len(state.playing):
            state = _passed(state)
    if state.outcome is not None:
        side = state.outcome.side
        reason = state.outcome.reason
        result = (
            side
            if side is not None
            else {"blocked": BLOCKED, "stalled": STALLED}.get(reason, PASSED)
        )
    return Playout(result, plies, tuple(moves), state)


def _passed(state: BoardState) -> BoardState:
    return replace(state, outcome=BoardOutcome(None, (), "passed"))
