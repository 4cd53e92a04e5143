"""Push-your-luck Sequences (Jaques of London) and its variants, as RULINGS §1 plays it; locked dice
are exactly the run. The open rulings: docs/rules.md, "Push-your-luck Sequences" and "Forfeits"."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.errors import IllegalAction
from bot.rules.dice import DiceSource
from bot.rules.seats import next_playing

Variant = Literal["standard", "reverse", "team", "sudden", "extended"]
VARIANTS: tuple[Variant, ...] = ("standard", "reverse", "team", "sudden", "extended")
Phase = Literal["throw", "lock", "decide", "over"]

SUDDEN_TARGET = 21
BONUS_POINTS = 10
EXTENDED_FULL_RUN_POINTS = 15
MAX_ROUNDS = 50
MAX_TARGET = 500
TEAM_DEFAULT_TARGET = 30


# --- configuration -------------------------------------------------------------------------


@dataclass(frozen=True)
class PushConfig:
    """How a table plays. ``rounds`` and ``target`` are exclusive; Sudden uses neither."""

    variant: Variant = "standard"
    rounds: int | None = 5
    target: int | None = None
    soft_last_die: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise IllegalAction(code="push.variant", variant=self.variant)
        if self.variant == "sudden":
            return
        if self.rounds is None and self.target is None:
            raise IllegalAction(code="push.length_none")
        if self.rounds is not None and self.target is not None:
            raise IllegalAction(code="push.length_both")
        if self.rounds is not None and not 1 <= self.rounds <= MAX_ROUNDS:
            raise IllegalAction(code="push.rounds", most=MAX_ROUNDS)
        if self.target is not None and not 5 <= self.target <= MAX_TARGET:
            raise IllegalAction(code="push.target", most=MAX_TARGET)

    @property
    def n_dice(self) -> int:
        return 6 if self.variant == "extended" else 5

    @property
    def faces(self) -> tuple[int, ...]:
        """The numbers of a full run, in the order they must be reached."""
        return (6, 5, 4, 3, 2, 1) if self.variant == "reverse" else (1, 2, 3, 4, 5, 6)

    @property
    def has_bonus(self) -> bool:
        return self.variant != "extended"

    @property
    def bonus_face(self) -> int:
        """The face the bonus die needs: the sixth number of the run."""
        return self.faces[5]

    @property
    def seats_range(self) -> tuple[int, int]:
        return (4, 4) if self.variant == "team" else (2, 4)


def bank_value(config: PushConfig, run_length: int) -> int:
    """Points for banking a run of ``run_length`` locked dice."""
    if config.variant == "extended" and run_length == 6:
        return EXTENDED_FULL_RUN_POINTS
    return run_length


def extending_dice(
    config: PushConfig, run: tuple[int, ...], throw: tuple[int, ...]
) -> tuple[int, ...]:
    """The faces from ``throw`` that extend ``run``, in run order (duplicates never count)."""
    faces = config.faces[: config.n_dice]
    out: list[int] = []
    for face in faces[len(run) :]:
        if face not in throw:
            break
        out.append(face)
    return tuple(out)


# --- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw:
    """Start the turn by throwing every die."""


@dataclass(frozen=True)
class Lock:
    """Set aside the first ``count`` extending dice of the latest throw."""

    count: int


@dataclass(frozen=True)
class Bank:
    """End the turn and score the run."""


@dataclass(frozen=True)
class Push:
    """Throw again every die not set aside."""


@dataclass(frozen=True)
class BonusThrow:
    """With all five dice set aside, throw one die for the sixth number."""


Action = Throw | Lock | Bank | Push | BonusThrow


# --- events and outcome --------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """What the last ``apply`` did, for the log and the table's message."""

    seat: int
    kind: Literal["throw", "lock", "bank", "bust", "bonus", "overshoot", "full_run"]
    dice: tuple[int, ...] = ()
    extending: tuple[int, ...] = ()
    points: int = 0
    run: tuple[int, ...] = ()
    turn_over: bool = False


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]  # seats; a winning team's seats in turn order
    reason: Literal["rounds", "target", "exact21", "tiebreak", "forfeit"]


@dataclass(frozen=True)
class PushState:
    config: PushConfig
    n_seats: int
    totals: tuple[int, ...]
    turns_taken: tuple[int, ...]
    best_turn: tuple[int, ...]
    current: int = 0
    phase: Phase = "throw"
    run: tuple[int, ...] = ()
    throw: tuple[int, ...] = ()
    # Tie-break: the seats taking one more turn each, and the points of those already done.
    tiebreak: tuple[int, ...] = ()
    tiebreak_points: tuple[int, ...] = ()
    last: Event | None = None
    outcome: Outcome | None = None
    history: tuple[int, ...] = field(default=())  # points of every finished turn, in order
    out: frozenset[int] = frozenset()  # seats that forfeited (RULINGS §4)
    forfeited_turns: int = 0  # turns that ended unplayed because their seat forfeited

    # -- derived ------------------------------------------------------------------------
    @property
    def dice_left(self) -> int:
        return self.config.n_dice - len(self.run)

    @property
    def extending(self) -> tuple[int, ...]:
        return extending_dice(self.config, self.run, self.throw) if self.phase == "lock" else ()

    @property
    def bank_points(self) -> int:
        """What banking now would score (before the Sudden overshoot rule)."""
        return bank_value(self.config, len(self.run))

    def team_of(self, seat: int) -> int:
        return seat % 2

    def side_totals(self) -> tuple[int, ...]:
        """Totals per side: per team in Team games, per seat otherwise."""
        if self.config.variant == "team":
            return tuple(
                sum(self.totals[s] for s in range(self.n_seats) if s % 2 == t) for t in (0, 1)
            )
        return self.totals

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: its team in Team games, itself otherwise."""
        return seat % 2 if self.config.variant == "team" else seat

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats that have not forfeited, in turn order."""
        return tuple(s for s in range(self.n_seats) if s not in self.out)

    @property
    def deciding_tiebreak(self) -> tuple[tuple[int, int], ...]:
        """``(seat, points)`` of the tie-break turns that decided the game, in turn order
        (the last tie-break round when it took more than one); () unless a tie-break did."""
        if self.outcome is None or self.outcome.reason != "tiebreak":
            return ()
        return tuple(zip(self.tiebreak, self.tiebreak_points, strict=False))


# --- the game ------------------------------------------------------------------------------


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(PushState))


def replace(state: PushState, **changes: Any) -> PushState:
    """``dataclasses.replace`` without its per-field work, several times faster: a state keeps
    nothing derived, and a tick may time out 10,000 turns (issue 26.5)."""
    if type(state) is not PushState or not changes.keys() <= _STATE_FIELDS:
        return dataclasses.replace(state, **changes)  # its errors for a wrong field
    new = object.__new__(PushState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def new_game(config: PushConfig, n_seats: int) -> PushState:
    low, high = config.seats_range
    if not low <= n_seats <= high:
        if low == high:
            raise IllegalAction(code="push.exactly", seats=low)
        raise IllegalAction(code="rules.needs", low=low, high=high)
    zeros = (0,) * n_seats
    return PushState(
        config=config, n_seats=n_seats, totals=zeros, turns_taken=zeros, best_turn=zeros
    )


def legal_actions(state: PushState) -> list[Action]:
    if state.phase == "throw":
        return [Throw()]
    if state.phase == "lock":
        return [Lock(count) for count in range(1, len(state.extending) + 1)]
    if state.phase == "decide":
        actions: list[Action] = [Bank()]
        if state.dice_left > 0:
            actions.append(Push())
        elif state.config.has_bonus:
            actions.append(BonusThrow())
        return actions
    return []


def current_seat(state: PushState) -> int | None:
    return None if state.outcome is not None else state.current


def apply(state: PushState, action: Action, dice: DiceSource) -> PushState:
    """The state after ``action`` by the seat to move; IllegalAction if the rules forbid it."""
    if state.outcome is not None:
        raise IllegalAction(code="rules.over")
    if action not in legal_actions(state):
        raise _why_illegal(state, action)
    seat = state.current
    if isinstance(action, Throw):
        return _after_throw(state, dice.roll(state.config.n_dice))
    if isinstance(action, Push):
        return _after_throw(state, dice.roll(state.dice_left))
    if isinstance(action, Lock):
        locked = state.extending[: action.count]
        run = state.run + locked
        event = Event(seat, "lock", dice=state.throw, extending=locked, run=run)
        if state.config.variant == "extended" and len(run) == 6:
            return _end_turn(state, run, EXTENDED_FULL_RUN_POINTS, "full_run", ())
        return replace(state, phase="decide", run=run, throw=(), last=event)
    if isinstance(action, Bank):
        return _end_turn(state, state.run, state.bank_points, "bank", ())
    # BonusThrow
    face = dice.roll(1)
    if face[0] == state.config.bonus_face:
        return _end_turn(state, (*state.run, face[0]), BONUS_POINTS, "bonus", face)
    return _end_turn(state, state.run, _bust_points(state, 1), "bust", face)


def _why_illegal(state: PushState, action: Action) -> IllegalAction:
    """Why the rules refuse ``action`` now (a code; the game's presentation words it)."""
    if isinstance(action, Lock):
        if state.phase != "lock":
            return IllegalAction(code="push.no_lock")
        return IllegalAction(code="push.lock_range", most=len(state.extending))
    if isinstance(action, (Bank, Push)) and state.phase == "lock":
        return IllegalAction(code="push.lock_first")
    if isinstance(action, Push) and state.dice_left == 0:
        return IllegalAction(code="push.no_dice")
    if isinstance(action, BonusThrow):
        return IllegalAction(code="push.bonus_locked")
    if isinstance(action, Throw):
        return IllegalAction(code="push.thrown")
    return IllegalAction(code="push.not_now")


def _bust_points(state: PushState, dice_thrown: int) -> int:
    # House rule: a bust on a single die keeps half the run (rounded down).
    if state.config.soft_last_die and dice_thrown == 1:
        return len(state.run) // 2
    return 0


def _after_throw(state: PushState, throw: tuple[int, ...]) -> PushState:
    ext = extending_dice(state.config, state.run, throw)
    if not ext:
        return _end_turn(state, state.run, _bust_points(state, len(throw)), "bust", throw)
    event = Event(state.current, "throw", dice=throw, extending=ext, run=state.run)
    return replace(state, phase="lock", throw=throw, last=event)


def _end_turn(
    state: PushState,
    run: tuple[int, ...],
    points: int,
    kind: Literal["bank", "bust", "bonus", "full_run"],
    dice: tuple[int, ...],
) -> PushState:
    seat = state.current
    event_kind: Literal["bank", "bust", "bonus", "overshoot", "full_run"] = kind
    if state.config.variant == "sudden" and state.totals[seat] + points > SUDDEN_TARGET:
        points, event_kind = 0, "overshoot"
    event = Event(seat, event_kind, dice=dice, points=points, run=run, turn_over=True)
    # A tie-break turn is a turn too: it counts for the seat's best turn, not its total.
    best = tuple(max(b, points) if s == seat else b for s, b in enumerate(state.best_turn))
    base = replace(
        state, run=(), throw=(), last=event, history=(*state.history, points), best_turn=best
    )

    if state.tiebreak:
        return _advance_tiebreak(base, seat, points)

    totals = _bump(state.totals, seat, points)
    turns = _bump(state.turns_taken, seat, 1)
    after = replace(base, totals=totals, turns_taken=turns)

    if state.config.variant == "sudden" and totals[seat] == SUDDEN_TARGET:
        return replace(after, phase="over", outcome=Outcome((seat,), "exact21"))
    return _pass_turn(after, seat)


def _pass_turn(state: PushState, seat: int) -> PushState:
    """The turn of ``seat`` is over (outside a tie-break): at the end of a round, end the game
    if it should; else the next seat still playing throws."""
    if state.config.variant != "sudden" and _round_complete(state) and _game_should_end(state):
        return _finish_or_tiebreak(state)
    return replace(
        state, phase="throw", run=(), throw=(), current=next_playing(state.n_seats, state.out, seat)
    )


def _round_complete(state: PushState) -> bool:
    """Every seat still playing has had the same number of turns."""
    return len({state.turns_taken[s] for s in state.playing}) == 1


def _bump(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == index else v for i, v in enumerate(values))


def _game_should_end(state: PushState) -> bool:
    """Called at the end of a round: has the game reached its length?"""
    config = state.config
    if config.rounds is not None:
        return state.turns_taken[state.playing[0]] >= config.rounds
    assert config.target is not None
    side_totals = state.side_totals()
    return max(side_totals[side] for side, _ in _sides(state)) >= config.target


def _sides(state: PushState) -> list[tuple[int, tuple[int, ...]]]:
    """The sides still playing, each with its seats still playing in turn order."""
    sides: dict[int, list[int]] = {}
    for seat in state.playing:
        sides.setdefault(state.side_of(seat), []).append(seat)
    return [(side, tuple(seats)) for side, seats in sorted(sides.items())]


def _finish_or_tiebreak(state: PushState) -> PushState:
    sides = _sides(state)
    side_totals = state.side_totals()
    scores = [side_totals[side] for side, _ in sides]
    best = max(scores)
    leaders = [seats for (_, seats), score in zip(sides, scores, strict=True) if score == best]
    reason: Literal["rounds", "target"] = "rounds" if state.config.rounds is not None else "target"
    if len(leaders) == 1:
        return replace(state, phase="over", outcome=Outcome(leaders[0], reason))
    tied = tuple(sorted(s for side in leaders for s in side))
    return replace(state, phase="throw", tiebreak=tied, tiebreak_points=(), current=tied[0])


def _advance_tiebreak(state: PushState, seat: int, points: int) -> PushState:
    return _tiebreak_step(state, (*state.tiebreak_points, points))


def _tiebreak_step(state: PushState, done: tuple[int, ...]) -> PushState:
    """A tie-break turn is over and ``done`` holds the points of those played: the next
    seat of the tie-break throws, or the tie-break is decided (or starts again)."""
    if len({state.side_of(s) for s in state.tiebreak}) == 1:
        return _tiebreak_won(state, done, state.side_of(state.tiebreak[0]))
    if len(done) < len(state.tiebreak):
        return replace(
            state,
            phase="throw",
            run=(),
            throw=(),
            tiebreak_points=done,
            current=state.tiebreak[len(done)],
        )
    # Everyone in the tie-break has had their turn: compare per side.
    by_side: dict[int, int] = {}
    for s, p in zip(state.tiebreak, done, strict=True):
        side = state.side_of(s)
        by_side[side] = by_side.get(side, 0) + p
    best = max(by_side.values())
    leaders = [side for side, p in by_side.items() if p == best]
    if len(leaders) == 1:
        return _tiebreak_won(state, done, leaders[0])
    tied = tuple(s for s in state.tiebreak if state.side_of(s) in leaders)
    return replace(state, phase="throw", tiebreak=tied, tiebreak_points=(), current=tied[0])


def _tiebreak_won(state: PushState, done: tuple[int, ...], side: int) -> PushState:
    winners = tuple(s for s in state.playing if state.side_of(s) == side)
    return replace(
        state,
        phase="over",
        run=(),
        throw=(),
        tiebreak_points=done,
        outcome=Outcome(winners, "tiebreak"),
    )


def forfeit(state: PushState, seat: int) -> PushState:
    """The state after ``seat`` forfeits (RULINGS §4; docs/rules.md, "Forfeits"); ``IllegalAction``
    for a seat already out or a finished game."""
    if state.outcome is not None:
        raise IllegalAction(code="rules.over")
    if not 0 <= seat < state.n_seats:
        raise IllegalAction(code="rules.no_seat", seat=seat)
    if seat in state.out:
        raise IllegalAction(code="rules.forfeited")
    to_play = seat == state.current
    after = replace(
        state, out=state.out | {seat}, forfeited_turns=state.forfeited_turns + (1 if to_play else 0)
    )
    sides = _sides(after)
    if not sides:
        raise IllegalAction(code="rules.last_seat")
    if len(sides) == 1:
        return replace(
            after, phase="over", run=(), throw=(), outcome=Outcome(sides[0][1], "forfeit")
        )
    if state.tiebreak:
        if seat not in state.tiebreak:
            return after
        index = state.tiebreak.index(seat)
        done = state.tiebreak_points
        if index < len(done):
            done = done[:index] + done[index + 1 :]
        tiebreak = state.tiebreak[:index] + state.tiebreak[index + 1 :]
        after = replace(after, tiebreak=tiebreak, tiebreak_points=done)
        if to_play or len({after.side_of(s) for s in tiebreak}) == 1:
            return _tiebreak_step(after, done)
        return after
    if not to_play:
        return after
    if state.config.variant == "sudden":
        return replace(
            after,
            phase="throw",
            run=(),
            throw=(),
            current=next_playing(after.n_seats, after.out, seat),
        )
    return _pass_turn(after, seat)


# --- serialisation -------------------------------------------------------------------------

_ACTIONS: dict[str, type[Action]] = {
    "throw": Throw,
    "lock": Lock,
    "bank": Bank,
    "push": Push,
    "bonus": BonusThrow,
}
_ACTION_NAMES = {cls: name for name, cls in _ACTIONS.items()}


def dump_action(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)]}
    if isinstance(action, Lock):
        data["count"] = action.count
    return data


def load_action(data: dict[str, Any]) -> Action:
    kind = data.get("type")
    if kind == "lock":
        return Lock(int(data["count"]))
    simple: dict[str, Action] = {
        "throw": Throw(),
        "bank": Bank(),
        "push": Push(),
        "bonus": BonusThrow(),
    }
    if isinstance(kind, str) and kind in simple:
        return simple[kind]
    raise IllegalAction(code="rules.unknown_action", action=kind)


def dump(state: PushState) -> dict[str, Any]:
    def event(e: Event | None) -> dict[str, Any] | None:
        if e is None:
            return None
        return {
            "seat": e.seat,
            "kind": e.kind,
            "dice": list(e.dice),
            "extending": list(e.extending),
            "points": e.points,
            "run": list(e.run),
            "turn_over": e.turn_over,
        }

    return {
        "config": {
            "variant": state.config.variant,
            "rounds": state.config.rounds,
            "target": state.config.target,
            "soft_last_die": state.config.soft_last_die,
        },
        "n_seats": state.n_seats,
        "totals": list(state.totals),
        "turns_taken": list(state.turns_taken),
        "best_turn": list(state.best_turn),
        "current": state.current,
        "phase": state.phase,
        "run": list(state.run),
        "throw": list(state.throw),
        "tiebreak": list(state.tiebreak),
        "tiebreak_points": list(state.tiebreak_points),
        "last": event(state.last),
        "outcome": None
        if state.outcome is None
        else {"winners": list(state.outcome.winners), "reason": state.outcome.reason},
        "history": list(state.history),
        "forfeited": sorted(state.out),
        "forfeited_turns": state.forfeited_turns,
    }


def load(data: dict[str, Any]) -> PushState:
    c = data["config"]
    config = PushConfig(
        variant=c["variant"],
        rounds=c["rounds"],
        target=c["target"],
        soft_last_die=bool(c["soft_last_die"]),
    )
    last = data.get("last")
    outcome = data.get("outcome")
    return PushState(
        config=config,
        n_seats=int(data["n_seats"]),
        totals=tuple(data["totals"]),
        turns_taken=tuple(data["turns_taken"]),
        best_turn=tuple(data["best_turn"]),
        current=int(data["current"]),
        phase=data["phase"],
        run=tuple(data["run"]),
        throw=tuple(data["throw"]),
        tiebreak=tuple(data["tiebreak"]),
        tiebreak_points=tuple(data["tiebreak_points"]),
        last=None
        if last is None
        else Event(
            seat=last["seat"],
            kind=last["kind"],
            dice=tuple(last["dice"]),
            extending=tuple(last["extending"]),
            points=last["points"],
            run=tuple(last["run"]),
            turn_over=last["turn_over"],
        ),
        outcome=None if outcome is None else Outcome(tuple(outcome["winners"]), outcome["reason"]),
        history=tuple(data.get("history", ())),
        # States stored before forfeits existed have neither key: nobody forfeited.
        out=frozenset(int(s) for s in data.get("forfeited", ())),
        forfeited_turns=int(data.get("forfeited_turns", 0)),
    )
