"""What the table layer needs from a game: ``GameKind``, between the table and one pure rules
module, holding values only (words are ``bot.games.base.Game``'s). A small game extending ``Turns``
writes only ``start``, ``turn_actions`` and ``apply``."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any, Generic, TypeVar, get_args

from bot.errors import IllegalAction, UserError
from bot.records import SeatResult, TurnAction
from bot.tables.events import Event
from bot.tables.seat import Seat
from bot.tables.thinking import BotJob
from bot.tables.turns import Turns
from bot.tables.values import from_json, to_json

S = TypeVar("S")


class GameKind(Generic[S]):
    """How the table service drives one game. Subclasses set ``name`` and implement the
    methods that raise ``NotImplementedError``; the others have working defaults."""

    name: str = ""  # stored in each table's state; unique among the registered games
    bot_levels: tuple[str, ...] = ()  # the bot players' levels; empty: no bot players
    old_bot_levels: dict[str, str] = {}  # a renamed level -> the level it is now added as
    default_bot_level: str | None = None  # added when none is named (None: the last level)
    players: tuple[int, int] = (2, 2)  # the default seat limits
    # The options of its start command (``bot.games.options.Option``s) that a lobby's host
    # may change while the lobby is open.
    setting_options: tuple[Any, ...] = ()

    # --- settings and seats ------------------------------------------------------------

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Refuse settings a forged command could carry (a ``UserError``)."""

    def settings_from(self, settings: Mapping[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        """A lobby's ``settings`` with the host's new option ``values``, checked (the start
        command's defaults filled in as it would)."""
        merged = {**settings, **values}
        self.check_settings(merged)
        return merged

    def seat_limits(self, settings: Mapping[str, Any]) -> tuple[int, int]:
        return self.players

    def team_count(self, settings: Mapping[str, Any], n_seats: int) -> int:
        """Teams the game is played in with ``n_seats`` (0 = every seat for itself)."""
        return 0

    def lobby_teams(self, settings: Mapping[str, Any], n_seats: int) -> tuple[int, bool]:
        """Teams a lobby of ``n_seats`` offers (0: none) and whether seats are balanced into them;
        must agree with ``team_count``."""
        return (0, False)

    def seat_counts(self, settings: Mapping[str, Any]) -> list[int]:
        """Every number of seats the game can start with (the lobby names them)."""
        low, high = self.seat_limits(settings)
        return list(range(low, high + 1))

    def arrange(self, settings: Mapping[str, Any], seats: list[Seat]) -> list[Seat]:
        """The seats in playing order, checked; called when the host starts the game."""
        check_seat_count(self.seat_limits(settings), seats)
        return seats

    def lobby_order(
        self, settings: Mapping[str, Any], seats: list[Seat]
    ) -> tuple[list[Seat], str | None]:
        """What Start would make of the seats now: their playing order with the teams
        (the lobby shows it, so that Start reorders nothing unseen), or, where Start would
        refuse, the seats as they sit and the reason."""
        try:
            return self.arrange(settings, seats), None
        except UserError as exc:
            return seats, str(exc)

    def game_key(self, settings: Mapping[str, Any]) -> str:
        """The leaderboard a finished game counts for."""
        return self.name

    # --- state -------------------------------------------------------------------------

    def start(self, settings: Mapping[str, Any], seats: list[Seat], rng: random.Random) -> S:
        raise NotImplementedError

    def load(self, data: dict[str, Any]) -> S:
        """The state from its JSON. Default: the game's state dataclass (the ``S`` of its
        class), each field rebuilt by its type hint (tuples, frozensets, nested dataclasses)."""
        state_type = _state_type(type(self))
        if state_type is None:
            raise NotImplementedError(f"{type(self).__name__} must implement load()")
        state: S = from_json(state_type, data)
        return state

    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON. Default: a dataclass's fields, tuples and sets as lists."""
        data = to_json(state)
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

    # --- play --------------------------------------------------------------------------

    def turn_actions(self, state: S) -> list[TurnAction]:
        """The moves the turn offers as buttons, in order (values: the presentation words
        them)."""
        raise NotImplementedError

    def playable_actions(self, state: S) -> list[str]:
        """Every button action the current seat may press now and have it played (the soak
        and tests pick from these). Default: the turn actions that are not private."""
        return [a.action for a in self.turn_actions(state) if not a.private and not a.disabled]

    def resolve(self, state: S, action: str) -> list[Any]:
        """The rules actions a button's ``action`` stands for (an ``IllegalAction`` if none).
        Default: the action itself, if it is playable now."""
        if action not in self.playable_actions(state):
            raise IllegalAction(code="button.idle")
        return [action]

    def apply(
        self, state: S, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[S, dict[str, Any], Event | None]:
        """One rules action: the new state, its log detail and the event for the recent events (a
        value; None: nothing worth a line)."""
        raise NotImplementedError

    def bot_step(self, state: S, level: str, rng: random.Random) -> list[Any]:
        """A bot player's move (only games with ``bot_levels`` have bots). Default: what a
        timed-out turn plays."""
        return self.timeout_step(state, rng)

    def bot_job(self, state: S, level: str, rng: random.Random) -> BotJob | None:
        """A bot move slow enough to think off the event loop: a picklable call returning its steps,
        seeded from ``rng``; None plays ``bot_step`` at once."""
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
        """Every seat's result once the game is over, None before; by default ranked by
        ``outcome``'s scores (equal scores share a place). A forfeited seat ranks last and never
        wins."""
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
        """The state after ``seat`` forfeits (docs/rules.md, "Forfeits"), IllegalAction for a seat
        out or a game over; ``turn_index`` changes iff it was to play."""
        if isinstance(state, Turns):
            return state.forfeit(seat)
        raise NotImplementedError

    def forfeited(self, state: S) -> frozenset[int]:
        """The seats that have forfeited."""
        return state.out if isinstance(state, Turns) else frozenset()

    # --- replay: the log is the truth (STYLE §12) ----------------------------------------

    def replay_step(self, state: S, detail: dict[str, Any]) -> S:
        """The state after one logged step, played with the dice or cards the log recorded;
        ``ReplayMismatch`` when the rules record it differently, ``NotReplayable`` when the log
        lacks what it needs. The default suits a game whose only randomness is dice logged as
        ``{"action": ..., "dice": [..]}``."""
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
        raise UserError(code="seats.count", low=low, high=high, seats=len(seats))


def forfeit_places(places: list[int], forfeited: frozenset[int]) -> list[int]:
    """``places`` with every forfeited seat moved to the last place: one below the distinct
    places of the other seats, shared by all forfeited seats (RULINGS §4)."""
    last = len({p for i, p in enumerate(places) if i not in forfeited}) + 1
    return [last if i in forfeited else p for i, p in enumerate(places)]


def _state_type(cls: type) -> type | None:
    """The dataclass a game class names as its state: ``class K(GameKind[State])``."""
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            for arg in get_args(base):
                if isinstance(arg, type) and dataclasses.is_dataclass(arg):
                    return arg
    return None
