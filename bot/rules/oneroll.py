"""One-roll Sequences ("classic") and Hearts Due (RULINGS §2): scoring a throw and the game, every
action a ``Throw()``; the open rulings: docs/rules.md, "Decisions in bot/rules/oneroll.py"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from bot.errors import IllegalAction
from bot.rules.dice import DiceSource
from bot.rules.seats import next_playing

Ruleset = Literal["classic", "heartsdue"]
RULESETS: tuple[Ruleset, ...] = get_args(Ruleset)
Phase = Literal["opening", "play", "tiebreak", "over"]
PHASES: tuple[Phase, ...] = get_args(Phase)

N_DICE = 6
MAX_SEATS = 10
MAX_TARGET = 1000
PENALTY_ONES = 4

# Points of a run 1..L: classic gives nothing for a lone 1, Hearts Due gives 5 a number.
_FIVE_SIXES = {"classic": 30, "heartsdue": 35}
_SIX_SIXES = {"classic": 60, "heartsdue": 70}


def run_points(ruleset: Ruleset, length: int) -> int:
    """Points of one run 1..``length`` (1 <= length <= 6)."""
    return 5 * length if ruleset == "heartsdue" else 5 * (length - 1)


@dataclass(frozen=True)
class ThrowScore:
    """What one throw of six dice scores: ``runs`` shortest first (a special cast first, as a run of
    6s); ``penalty`` and ``wiped`` are always equal, kept both so log and renderer need not know the
    rule."""

    points: int
    penalty: bool
    runs: tuple[tuple[int, ...], ...]
    wiped: bool
    dice: tuple[int, ...] = ()


def _check_ruleset(ruleset: str) -> Ruleset:
    for known in RULESETS:
        if ruleset == known:
            return known
    raise ValueError(f"unknown ruleset {ruleset!r}: expected one of {', '.join(RULESETS)}")


def _check_dice(dice: Sequence[int], n: int) -> tuple[int, ...]:
    faces = tuple(dice)
    if len(faces) != n:
        raise ValueError(f"a throw has {n} dice, got {len(faces)}")
    for face in faces:
        # bool is an int subclass; True is not a die face.
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"a die shows 1 to 6, got {face!r}")
    return faces


def score_throw(ruleset: Ruleset, dice: Sequence[int]) -> ThrowScore:
    """Score a throw by RULINGS §2; the greedy split into runs from 1 is the best one, since the
    prefix minimums of the face counts reach every number's maximum at once."""
    ruleset = _check_ruleset(ruleset)
    faces = _check_dice(dice, N_DICE)
    sorted_faces = tuple(sorted(faces))
    counts = Counter(faces)
    if counts[1] >= PENALTY_ONES:
        return ThrowScore(0, True, (), True, sorted_faces)
    if counts[6] == 6:
        return ThrowScore(_SIX_SIXES[ruleset], False, ((6,) * 6,), False, sorted_faces)
    if counts[6] == 5:
        # The odd die is a run by itself only if it is a 1 (and scores only in Hearts Due).
        odd = next(face for face in faces if face != 6)
        runs: list[tuple[int, ...]] = [(6,) * 5]
        points = _FIVE_SIXES[ruleset]
        if odd == 1 and run_points(ruleset, 1) > 0:
            runs.append((1,))
            points += run_points(ruleset, 1)
        return ThrowScore(points, False, tuple(runs), False, sorted_faces)
    reach: list[int] = []  # reach[j - 1] = how many runs reach j
    low = N_DICE
    for face in range(1, 7):
        low = min(low, counts[face])
        reach.append(low)
    lengths = [sum(1 for r in reach if r > i) for i in range(reach[0])]
    scoring = sorted(n for n in lengths if run_points(ruleset, n) > 0)
    runs_t = tuple(tuple(range(1, n + 1)) for n in scoring)
    points = sum(run_points(ruleset, n) for n in scoring)
    return ThrowScore(points, False, runs_t, False, sorted_faces)


def part_points(ruleset: Ruleset, run: tuple[int, ...]) -> int:
    """The points one scoring part of a throw (a run, or five or six 6s) is worth."""
    if len(run) > 1 and run[0] == 6:
        return (_SIX_SIXES if len(run) == 6 else _FIVE_SIXES)[ruleset]
    return run_points(ruleset, len(run))


@dataclass(frozen=True)
class OneRollConfig:
    ruleset: Ruleset
    target: int = 100

    def __post_init__(self) -> None:
        # IllegalAction, like PushConfig: these come from a player's choices at the lobby.
        if self.ruleset not in RULESETS:
            raise IllegalAction(code="oneroll.bad_ruleset", ruleset=self.ruleset)
        if isinstance(self.target, bool) or not 1 <= self.target <= MAX_TARGET:
            raise IllegalAction(code="oneroll.bad_target", most=MAX_TARGET)


@dataclass(frozen=True)
class Throw:
    """The only action: throw the six dice."""


@dataclass(frozen=True)
class ThrowRecord:
    """One throw as it happened, for the log: ``value`` is the pip sum in the opening, the score
    otherwise."""

    seat: int
    phase: Phase
    dice: tuple[int, ...]
    score: ThrowScore
    value: int
    total_before: int
    total_after: int


@dataclass(frozen=True)
class OneRollOutcome:
    """How the game ended: ``reason`` is "target" when a completed round had one leader,
    "tiebreak" when tie-break throws decided it. ``rounds`` counts the rounds of play."""

    winner: int
    totals: tuple[int, ...]
    rounds: int
    reason: Literal["target", "tiebreak", "forfeit"] = "target"

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats, shaped like ``pushluck.Outcome.winners``."""
        return (self.winner,)


@dataclass(frozen=True)
class OneRollState:
    """A one-roll game: ``contenders`` throw in the current opening or tie-break pass,
    ``pass_values`` what they threw so far, ``out`` the forfeited seats."""

    config: OneRollConfig
    n_seats: int
    phase: Phase
    current: int
    totals: tuple[int, ...]
    turns: tuple[int, ...]
    starter: int | None = None
    contenders: tuple[int, ...] = ()
    pass_values: tuple[int, ...] = ()
    last: ThrowRecord | None = None
    outcome: OneRollOutcome | None = None
    out: frozenset[int] = frozenset()

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats that have not forfeited, in seating order."""
        return tuple(s for s in range(self.n_seats) if s not in self.out)


def new_game(config: OneRollConfig, n_seats: int) -> OneRollState:
    """A game at the opening; a table of one seat skips the opening."""
    if isinstance(n_seats, bool) or not 1 <= n_seats <= MAX_SEATS:
        raise IllegalAction(code="rules.needs", low=1, high=MAX_SEATS)
    zeros = (0,) * n_seats
    if n_seats == 1:
        return OneRollState(config, 1, "play", 0, zeros, zeros, starter=0)
    seats = tuple(range(n_seats))
    return OneRollState(config, n_seats, "opening", 0, zeros, zeros, contenders=seats)


def legal_actions(state: OneRollState) -> list[Throw]:
    return [] if state.phase == "over" else [Throw()]


def current_seat(state: OneRollState) -> int | None:
    """The seat to throw, or None once the game is over."""
    return None if state.phase == "over" else state.current


def _seating_from(state: OneRollState, start: int, seats: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(seats, key=lambda seat: (seat - start) % state.n_seats))


def _highest(contenders: tuple[int, ...], values: tuple[int, ...]) -> tuple[int, ...]:
    best = max(values)
    return tuple(seat for seat, value in zip(contenders, values, strict=True) if value == best)


def apply(state: OneRollState, action: Throw, dice: DiceSource) -> OneRollState:
    """Throw for ``state.current`` and return the next state."""
    if state.phase == "over":
        raise IllegalAction(code="rules.over")
    if not isinstance(action, Throw):
        raise IllegalAction(code="oneroll.throw_only")
    faces = _check_dice(dice.roll(N_DICE), N_DICE)
    score = score_throw(state.config.ruleset, faces)
    seat = state.current
    total = state.totals[seat]
    if state.phase == "play":
        return _after_play_throw(state, seat, faces, score)
    value = sum(faces) if state.phase == "opening" else score.points
    record = ThrowRecord(seat, state.phase, tuple(faces), score, value, total, total)
    return _pass_step(replace(state, pass_values=(*state.pass_values, value), last=record))


def _pass_step(state: OneRollState) -> OneRollState:
    """The next throw of an opening or tie-break pass, or the pass decided: the highest
    throw (or the one contender left) starts the play, or wins the tie-break; a tie for the
    highest starts a new pass among the tied."""
    values = state.pass_values
    if len(state.contenders) == 1:
        first = state.contenders[0]
    elif len(values) < len(state.contenders):
        return replace(state, current=state.contenders[len(values)])
    else:
        tied = _highest(state.contenders, values)
        if len(tied) > 1:
            return replace(state, current=tied[0], contenders=tied, pass_values=())
        first = tied[0]
    if state.phase == "opening":
        return replace(
            state, phase="play", current=first, starter=first, contenders=(), pass_values=()
        )
    return _finish(state, first)


def _after_play_throw(
    state: OneRollState, seat: int, faces: tuple[int, ...], score: ThrowScore
) -> OneRollState:
    before = state.totals[seat]
    after = 0 if score.wiped else before + score.points
    totals = (*state.totals[:seat], after, *state.totals[seat + 1 :])
    turns = (*state.turns[:seat], state.turns[seat] + 1, *state.turns[seat + 1 :])
    record = ThrowRecord(seat, "play", faces, score, score.points, before, after)
    return _pass_play_turn(replace(state, totals=totals, turns=turns, last=record), seat)


def _pass_play_turn(state: OneRollState, seat: int) -> OneRollState:
    """``seat``'s turn in play is over: once a round is complete (every seat still playing
    has thrown equally often) and a total reached the target, the highest total still
    playing wins, or the tied throw again; else the next seat still playing throws."""
    playing = state.playing
    following = next_playing(state.n_seats, state.out, seat)
    moved = replace(state, current=following)
    if len({state.turns[s] for s in playing}) > 1:
        return moved
    best = max(state.totals[s] for s in playing)
    if best < state.config.target:
        return moved
    leaders = tuple(s for s in playing if state.totals[s] == best)
    if len(leaders) == 1:
        return _finish(moved, leaders[0])
    starter = 0 if state.starter is None else state.starter
    order = _seating_from(state, starter, leaders)
    return replace(moved, phase="tiebreak", current=order[0], contenders=order, pass_values=())


def _finish(
    state: OneRollState, winner: int, reason: Literal["target", "tiebreak", "forfeit"] | None = None
) -> OneRollState:
    rounds = max(state.turns[s] for s in state.playing)
    if reason is None:
        reason = "tiebreak" if state.phase == "tiebreak" else "target"
    outcome = OneRollOutcome(winner, state.totals, rounds, reason)
    return replace(
        state, phase="over", current=winner, contenders=(), pass_values=(), outcome=outcome
    )


def forfeit(state: OneRollState, seat: int) -> OneRollState:
    """The state after ``seat`` forfeits (RULINGS §4; docs/rules.md, "Forfeits"); ``IllegalAction``
    for a seat already out or a finished game."""
    if state.phase == "over":
        raise IllegalAction(code="rules.over")
    if not 0 <= seat < state.n_seats:
        raise IllegalAction(code="rules.no_seat", seat=seat)
    if seat in state.out:
        raise IllegalAction(code="rules.forfeited")
    after = replace(state, out=state.out | {seat})
    playing = after.playing
    if not playing:
        raise IllegalAction(code="rules.last_seat")
    if len(playing) == 1:
        return _finish(after, playing[0], "forfeit")
    if state.phase == "play":
        return _pass_play_turn(after, seat) if seat == state.current else after
    if seat not in state.contenders:
        return after
    index = state.contenders.index(seat)
    values = state.pass_values
    if index < len(values):
        values = values[:index] + values[index + 1 :]
    contenders = state.contenders[:index] + state.contenders[index + 1 :]
    return _pass_step(replace(after, contenders=contenders, pass_values=values))


# --- JSON-safe persistence ------------------------------------------------------------------

DUMP_VERSION = 1


def _dump_score(score: ThrowScore) -> dict[str, Any]:
    return {
        "points": score.points,
        "penalty": score.penalty,
        "runs": [list(run) for run in score.runs],
        "wiped": score.wiped,
        "dice": list(score.dice),
    }


def dump_action(action: Throw) -> dict[str, Any]:
    """An action as a JSON-safe dict, shaped like ``pushluck.dump_action``."""
    return {"type": "throw"}


def load_action(data: Mapping[str, Any]) -> Throw:
    if data.get("type") != "throw":
        raise IllegalAction(code="rules.unknown_action", action=data.get("type"))
    return Throw()


def dump_record(record: ThrowRecord) -> dict[str, Any]:
    """A throw as a JSON-safe dict, for the game log."""
    return {
        "seat": record.seat,
        "phase": record.phase,
        "dice": list(record.dice),
        "score": _dump_score(record.score),
        "value": record.value,
        "total_before": record.total_before,
        "total_after": record.total_after,
    }


def dump(state: OneRollState) -> dict[str, Any]:
    """A JSON-safe dict (ints, strings, bools, lists, dicts, None) that ``load`` restores."""
    outcome = state.outcome
    return {
        "v": DUMP_VERSION,
        "ruleset": state.config.ruleset,
        "target": state.config.target,
        "n_seats": state.n_seats,
        "phase": state.phase,
        "current": state.current,
        "totals": list(state.totals),
        "turns": list(state.turns),
        "starter": state.starter,
        "contenders": list(state.contenders),
        "pass_values": list(state.pass_values),
        "last": None if state.last is None else dump_record(state.last),
        "forfeited": sorted(state.out),
        "outcome": None
        if outcome is None
        else {
            "winner": outcome.winner,
            "totals": list(outcome.totals),
            "rounds": outcome.rounds,
            "reason": outcome.reason,
        },
    }


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise ValueError(f"expected a list of integers, got {value!r}")
    return tuple(value)


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _phase(value: Any) -> Phase:
    for known in PHASES:
        if value == known:
            return known
    raise ValueError(f"unknown phase {value!r}")


def _load_score(data: Mapping[str, Any]) -> ThrowScore:
    runs = tuple(_ints(run) for run in data["runs"])
    return ThrowScore(
        _int(data["points"]), bool(data["penalty"]), runs, bool(data["wiped"]), _ints(data["dice"])
    )


def load_record(data: Mapping[str, Any]) -> ThrowRecord:
    """Inverse of ``dump_record``."""
    return _load_record(data)


def _load_record(data: Mapping[str, Any]) -> ThrowRecord:
    return ThrowRecord(
        seat=_int(data["seat"]),
        phase=_phase(data["phase"]),
        dice=_ints(data["dice"]),
        score=_load_score(data["score"]),
        value=_int(data["value"]),
        total_before=_int(data["total_before"]),
        total_after=_int(data["total_after"]),
    )


def load(data: Mapping[str, Any]) -> OneRollState:
    """Restore a state saved by ``dump``; a malformed dict raises ``ValueError``."""
    try:
        if data.get("v") != DUMP_VERSION:
            raise ValueError(f"unknown one-roll state version {data.get('v')!r}")
        try:
            config = OneRollConfig(_check_ruleset(data["ruleset"]), _int(data["target"]))
        except IllegalAction as error:
            raise ValueError(str(error)) from error
        n_seats = _int(data["n_seats"])
        totals, turns = _ints(data["totals"]), _ints(data["turns"])
        if not 1 <= n_seats <= MAX_SEATS or len(totals) != n_seats or len(turns) != n_seats:
            raise ValueError("seat count and totals disagree")
        current = _int(data["current"])
        if not 0 <= current < n_seats:
            raise ValueError(f"seat {current} is not at this table")
        starter = None if data["starter"] is None else _int(data["starter"])
        raw_outcome = data["outcome"]
        outcome = None
        if raw_outcome is not None:
            reason = raw_outcome["reason"]
            if reason not in ("target", "tiebreak", "forfeit"):
                raise ValueError(f"unknown outcome reason {reason!r}")
            outcome = OneRollOutcome(
                _int(raw_outcome["winner"]),
                _ints(raw_outcome["totals"]),
                _int(raw_outcome["rounds"]),
                reason,
            )
        # States saved before forfeits existed have no "forfeited": nobody forfeited.
        out = frozenset(_ints(data.get("forfeited", [])))
        if any(not 0 <= s < n_seats for s in out):
            raise ValueError("a forfeited seat is not at this table")
        return OneRollState(
            config=config,
            n_seats=n_seats,
            phase=_phase(data["phase"]),
            current=current,
            totals=totals,
            turns=turns,
            starter=starter,
            contenders=_ints(data["contenders"]),
            pass_values=_ints(data["pass_values"]),
            last=None if data["last"] is None else _load_record(data["last"]),
            outcome=outcome,
            out=out,
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed one-roll state: {error!r}") from error
