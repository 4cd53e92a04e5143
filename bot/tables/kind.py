"""What the table layer needs from a game: the ``GameKind`` base class.

A kind translates between the table (seats, button actions, timers, bot players, results)
and one pure rules module. It holds the rules' own state type ``S``; JSON appears only in
``load``/``dump``, at the store boundary. Every method a game may provide is here, with a
default where most games have nothing special; the presentation half of a game (embeds,
rules text, private UI) is ``bot.games.base.Game``, which extends this class.

A small game (no settings beyond its seats, no teams, no bots; its state a frozen
dataclass of plain values extending ``Turns``; its only randomness dice) sets ``name``,
``display``, ``players`` and ``summary`` and implements only its rules: ``start``,
``turn_buttons`` and ``apply``; the rest are defaults.
"""

from __future__ import annotations

import dataclasses
import random
import types
from typing import Any, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from bot.errors import IllegalAction, UserError
from bot.records import Button, SeatResult
from bot.tables.model import Seat
from bot.tables.thinking import BotJob
from bot.tables.turns import Turns

S = TypeVar("S")


class GameKind(Generic[S]):
    """How the table service drives one game. Subclasses set ``name`` and implement the
    methods that raise ``NotImplementedError``; the others have working defaults."""

    name: str = ""  # stored in each table's state; unique among the registered games
    bot_levels: dict[str, str] = {}  # level -> one-line description; empty: no bot players
    old_bot_levels: dict[str, str] = {}  # a renamed level -> the level it is now added as
    display: str = ""  # what players call it ("Heart's Due"): the default title and label
    players: tuple[int, int] = (2, 2)  # the default seat limits
    summary: str = ""  # the lobby's default settings line

    # --- settings and seats ------------------------------------------------------------

    def check_settings(self, settings: dict[str, Any]) -> None:
        """Refuse settings a forged command could carry (a ``UserError``)."""

    def seat_limits(self, settings: dict[str, Any]) -> tuple[int, int]:
        return self.players

    def team_count(self, settings: dict[str, Any], n_seats: int) -> int:
        """Teams the game is played in with ``n_seats`` (0 = every seat for itself)."""
        return 0

    def lobby_teams(self, settings: dict[str, Any], n_seats: int) -> tuple[int, bool]:
        """Teams a lobby of ``n_seats`` offers (0 = none: no Switch team, no team shown) and
        whether new seats are balanced into them. Must agree with ``team_count``: a lobby
        shows teams only where the game would start with them."""
        return (0, False)

    def seat_counts(self, settings: dict[str, Any]) -> list[int]:
        """Every number of seats the game can start with (the lobby names them)."""
        low, high = self.seat_limits(settings)
        return list(range(low, high + 1))

    def arrange(self, settings: dict[str, Any], seats: list[Seat]) -> list[Seat]:
        """The seats in playing order, checked; called when the host starts the game."""
        check_seat_count(self.seat_limits(settings), seats)
        return seats

    def lobby_order(
        self, settings: dict[str, Any], seats: list[Seat]
    ) -> tuple[list[Seat], str | None]:
        """What Start would make of the seats now: their playing order with the teams
        (the lobby shows it, so that Start reorders nothing unseen), or, where Start would
        refuse, the seats as they sit and the reason."""
        try:
            return self.arrange(settings, seats), None
        except UserError as exc:
            return seats, str(exc)

    def game_key(self, settings: dict[str, Any]) -> str:
        """The leaderboard a finished game counts for."""
        return self.name

    def title(self, settings: dict[str, Any]) -> str:
        return self.display or self.name

    def describe_settings(self, settings: dict[str, Any]) -> str:
        return self.summary

    # --- state -------------------------------------------------------------------------

    def start(self, settings: dict[str, Any], seats: list[Seat], rng: random.Random) -> S:
        raise NotImplementedError

    def load(self, data: dict[str, Any]) -> S:
        """The state from its JSON. Default: the game's state dataclass (the ``S`` of its
        class), each field rebuilt by its type hint (tuples, frozensets, nested dataclasses)."""
        state_type = _state_type(type(self))
        if state_type is None:
            raise NotImplementedError(f"{type(self).__name__} must implement load()")
        state: S = _from_json(state_type, data)
        return state

    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON. Default: a dataclass's fields, tuples and sets as lists."""
        data = _to_json(state)
        if not isinstance(data, dict):
            raise NotImplementedError(f"{type(self).__name__} must implement dump()")
        return data

    def current_seat(self, state: S) -> int | None:
        """Whose turn it is; None once the game is over."""
        if isinstance(state, Turns):
            return None if state.winner is not None else state.turn
        raise NotImplementedError

    def turn_index(self, state: S) -> int:
        """Counts turns: a change of it is a new turn (and a new message)."""
        if isinstance(state, Turns):
            return state.turns
        raise NotImplementedError

    def first_seat(self, state: S) -> int:
        """The seat that moved first: it takes a split pot's remainder."""
        return 0

    def last_seat(self, state: S) -> int:
        """The seat whose move was last applied (named on a finished turn's summary)."""
        return state.moved if isinstance(state, Turns) else 0

    # --- play --------------------------------------------------------------------------

    def turn_buttons(self, state: S) -> list[Button]:
        raise NotImplementedError

    def playable_actions(self, state: S) -> list[str]:
        """Every button action the current seat may press now and have it played (the soak
        and tests pick from these). Default: the turn buttons that are not private."""
        return [b.action for b in self.turn_buttons(state) if not b.private and not b.disabled]

    def resolve(self, state: S, action: str) -> list[Any]:
        """The rules actions a button's ``action`` stands for (an ``IllegalAction`` if none).
        Default: the action itself, if it is playable now."""
        if action not in self.playable_actions(state):
            raise IllegalAction("That button does nothing now.")
        return [action]

    def apply(
        self, state: S, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[S, dict[str, Any], str | None]:
        """One rules action: the new state, its log detail, and a line for the table's
        recent events (None: nothing worth a line)."""
        raise NotImplementedError

    def bot_step(self, state: S, level: str, rng: random.Random) -> list[Any]:
        """A bot player's move (only games with ``bot_levels`` have bots). Default: what a
        timed-out turn plays."""
        return self.timeout_step(state, rng)

    def bot_job(self, state: S, level: str, rng: random.Random) -> BotJob | None:
        """A bot move slow enough to think off the event loop (``thinking.BotPool``): a
        picklable call returning its steps, seeded from ``rng``; None (the default) plays
        ``bot_step`` at once."""
        return None

    def timeout_step(self, state: S, rng: random.Random) -> list[Any]:
        """What is played for a seat whose timer ran out (RULINGS §4). Default: the first
        playable button."""
        return self.resolve(state, self.playable_actions(state)[0])

    def outcome(self, state: S) -> list[int] | None:
        """Every seat's score once the game is over (higher is better); None while it goes
        on. Only the default ``results`` uses it."""
        if isinstance(state, Turns):
            return state.outcome()
        raise NotImplementedError

    def results(self, state: S, seats: list[Seat]) -> list[SeatResult] | None:
        """Every seat's result once the game is over; None while it goes on. A forfeited
        seat ranks last (one place below every other seat's) and never wins.

        Default: ranked by ``outcome``'s scores, each seat for itself (equal scores share
        a place); the seats in first place win."""
        scores = self.outcome(state)
        if scores is None:
            return None
        out = self.forfeited(state)
        places = forfeit_places([1 + sum(o > s for o in scores) for s in scores], out)
        return [
            SeatResult(
                seat=i,
                user_id=seat.user_id,
                name=seat.name,
                team=None,
                score=scores[i],
                place=places[i],
                won=places[i] == 1 and i not in out,
                best_turn=0,
            )
            for i, seat in enumerate(seats)
        ]

    # --- forfeits (RULINGS §4) ----------------------------------------------------------

    def forfeit(self, state: S, seat: int) -> S:
        """The state after ``seat`` forfeits: it plays no more turns (if it was to play, its
        turn ends unplayed and passes to the next seat still playing). When only one side
        still has a seat playing, that side wins at once (the game is over: current_seat()
        is None and results() returns the results). Forfeiting a seat that already
        forfeited, or after the game is over, raises IllegalAction.

        ``turn_index`` changes exactly when the forfeiting seat was the one to play."""
        if isinstance(state, Turns):
            return state.forfeit(seat)
        raise NotImplementedError

    def forfeited(self, state: S) -> frozenset[int]:
        """The seats that have forfeited."""
        return state.out if isinstance(state, Turns) else frozenset()

    # --- replay: the log is the truth (STYLE §12) ----------------------------------------

    def replay_step(self, state: S, detail: dict[str, Any]) -> S:
        """The state after one logged step (one of a log entry's ``steps``, as ``apply``
        returned it), played through the rules with the dice or cards the log recorded, not
        fresh randomness. Raises ``ReplayMismatch`` when the rules make a different record
        of that step than the log holds, ``NotReplayable`` when the log lacks what the step
        needs (games logged before it was recorded).

        Default, for a game whose only randomness is dice and whose ``apply`` logs the
        ``action`` it played and the ``dice`` that fell (``{"action": ..., "dice": [..]}``):
        ``apply`` again with those dice (and no seats: ``seat_name`` names them)."""
        if "dice" not in detail:
            raise NotReplayable(f"{type(self).__name__} logs no dice to replay")
        dice = LoggedDice(detail["dice"])
        after, replayed, _ = self.apply(state, detail.get("action"), dice, [])
        if replayed != detail:
            raise ReplayMismatch.between(detail, replayed)
        return after


class ReplayMismatch(Exception):
    """A logged step that the rules, fed the logged dice and cards, record differently."""

    @classmethod
    def between(cls, logged: dict[str, Any], replayed: dict[str, Any]) -> ReplayMismatch:
        """The keys where a step's logged record and the replayed one differ."""
        keys = [k for k in {**logged, **replayed} if logged.get(k) != replayed.get(k)]
        return cls(
            "; ".join(
                f"{k}: logged {logged.get(k)}, the rules make {replayed.get(k)}" for k in keys
            )
        )


class NotReplayable(Exception):
    """A log that lacks something a replay needs (it was logged before that was recorded)."""


class LoggedDice(random.Random):
    """A ``random.Random`` whose ``randint`` returns logged faces, in order, and which
    refuses any other draw (the default ``replay_step``)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise NotReplayable("the step throws more dice than its log holds")
        return self.faces.pop(0)

    def random(self) -> float:
        raise NotReplayable("the step draws more than the dice its log holds")

    def getrandbits(self, k: int) -> int:
        raise NotReplayable("the step draws more than the dice its log holds")


def check_seat_count(limits: tuple[int, int], seats: list[Seat]) -> None:
    low, high = limits
    if not low <= len(seats) <= high:
        need = f"exactly {low}" if low == high else f"{low} to {high}"
        raise UserError(f"This game needs {need} players; the table has {len(seats)}.")


def counts_text(counts: list[int]) -> str:
    """Seat counts in words: [3, 6, 9, 12] -> "3, 6, 9 or 12"; runs of three or more
    shorten, [2, 3, 4, 6, 8, 9, 10, 12] -> "2–4, 6, 8–10 or 12"."""
    runs: list[list[int]] = []
    for n in counts:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts: list[str] = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts += [str(n) for n in run]
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} or {parts[-1]}"


def forfeit_places(places: list[int], forfeited: frozenset[int]) -> list[int]:
    """``places`` with every forfeited seat moved to the last place: one below the distinct
    places of the other seats, shared by all forfeited seats (RULINGS §4)."""
    last = len({p for i, p in enumerate(places) if i not in forfeited}) + 1
    return [last if i in forfeited else p for i, p in enumerate(places)]


def seat_name(seats: list[Seat], index: int) -> str:
    return seats[index].name if 0 <= index < len(seats) else f"Seat {index + 1}"


def dice_text(faces: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(f) for f in faces)


def _state_type(cls: type) -> type | None:
    """The dataclass a game class names as its state: ``class G(Game[State])``."""
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            for arg in get_args(base):
                if isinstance(arg, type) and dataclasses.is_dataclass(arg):
                    return arg
    return None


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted(_to_json(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    return value


def _from_json(hint: Any, value: Any) -> Any:
    """``value`` (from JSON) as the type ``hint`` names."""
    origin, args = get_origin(hint), get_args(hint)
    if value is None:
        return None
    if origin in (Union, types.UnionType):
        arms = [a for a in args if a is not type(None)]
        return _from_json(arms[0], value) if len(arms) == 1 else value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(args[0], v) for v in value)
        return tuple(_from_json(a, v) for a, v in zip(args, value, strict=True))
    if origin in (frozenset, set, list):
        return origin(_from_json(args[0] if args else Any, v) for v in value)
    if origin is dict:
        return {k: _from_json(args[1] if args else Any, v) for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = get_type_hints(hint)
        fields = [f for f in dataclasses.fields(hint) if f.init]
        return hint(
            **{f.name: _from_json(hints[f.name], value[f.name]) for f in fields if f.name in value}
        )
    return value
