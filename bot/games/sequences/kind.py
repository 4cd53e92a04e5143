"""Push-your-luck Sequences and its variants as a table kind (RULINGS §1)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

from bot.errors import IllegalAction
from bot.games.sequences import settings as options
from bot.games.sequences.events import TurnEnded, turn_ended
from bot.records import SeatResult, TurnAction
from bot.rules import pushluck as pl
from bot.rules.dice import DiceSource, NoDice, RandomDice, ScriptedDice
from bot.rules.dice_bots import LEVELS, choose_push_action
from bot.tables.kind import GameKind, ReplayMismatch, check_seat_count, forfeit_places
from bot.tables.model import Seat
from bot.tables.teams import arrange_teams


class SequencesKind(GameKind[pl.PushState]):
    """Push-your-luck Sequences and its variants (RULINGS §1)."""

    name = "sequences"
    bot_levels = LEVELS

    def config(self, settings: Mapping[str, Any]) -> pl.PushConfig:
        return options.config(settings)

    setting_options = options.OPTIONS

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        options.check(settings)

    def settings_from(self, settings: Mapping[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        merged = {**settings, **values}
        return options.from_options(
            merged.get("variant", options.VARIANT.default),
            merged.get("rounds"),
            merged.get("target"),
            bool(merged.get("soft_last_die")),
        )

    def seat_limits(self, settings: Mapping[str, Any]) -> tuple[int, int]:
        return self.config(settings).seats_range

    def team_count(self, settings: Mapping[str, Any], n_seats: int) -> int:
        return 2 if settings.get("variant") == "team" else 0

    def lobby_teams(self, settings: Mapping[str, Any], n_seats: int) -> tuple[int, bool]:
        return (2, True) if settings.get("variant") == "team" else (0, False)

    def arrange(self, settings: Mapping[str, Any], seats: list[Seat]) -> list[Seat]:
        check_seat_count(self.seat_limits(settings), seats)
        # Team games: partners alternate, A1 B1 A2 B2, matching the rules' seat % 2.
        return arrange_teams(seats, self.team_count(settings, len(seats)))

    def game_key(self, settings: Mapping[str, Any]) -> str:
        return f"sequences:{settings.get('variant', 'standard')}"

    def start(
        self, settings: Mapping[str, Any], seats: list[Seat], rng: random.Random
    ) -> pl.PushState:
        return pl.new_game(self.config(settings), len(seats))

    def load(self, data: dict[str, Any]) -> pl.PushState:
        return pl.load(data)

    def dump(self, state: pl.PushState) -> dict[str, Any]:
        return pl.dump(state)

    def current_seat(self, state: pl.PushState) -> int | None:
        return pl.current_seat(state)

    def turn_index(self, state: pl.PushState) -> int:
        # A turn ended unplayed by a forfeit is a turn too: the next seat gets a new message.
        return len(state.history) + state.forfeited_turns

    def turn_actions(self, state: pl.PushState) -> list[TurnAction]:
        actions: list[TurnAction] = []
        if state.phase == "throw":
            actions.append(TurnAction("throw", "primary"))
        elif state.phase == "lock":
            ext = state.extending
            run = len(state.run) + len(ext)
            actions.append(_bank_action(state, run))
            if state.config.n_dice - run > 0:
                actions.append(TurnAction("push", "primary"))
            elif state.config.has_bonus:
                actions.append(TurnAction("bonus", "danger"))
            for count in range(1, len(ext)):
                if sudden_finish(state, len(state.run) + count) == "exact":
                    # Sudden: this smaller lock banks exactly 21, so the button does both.
                    actions.append(TurnAction(f"bank{count}", "success", row=1))
                    continue
                actions.append(TurnAction(f"lock{count}", "secondary", row=1))
        elif state.phase == "decide":
            actions.append(_bank_action(state, len(state.run)))
            if state.dice_left > 0:
                actions.append(TurnAction("push", "primary"))
            elif state.config.has_bonus:
                actions.append(TurnAction("bonus", "danger"))
        if state.phase in ("lock", "decide"):
            actions.append(TurnAction("odds", "secondary", private=True))
        return actions

    def resolve(self, state: pl.PushState, action: str) -> list[Any]:
        if action == "throw":
            return [pl.Throw()]
        lock_all: list[Any] = [pl.Lock(len(state.extending))] if state.phase == "lock" else []
        if action == "bank":
            return [*lock_all, pl.Bank()]
        if action == "push":
            return [*lock_all, pl.Push()]
        if action == "bonus":
            return [*lock_all, pl.BonusThrow()]
        if action.startswith("lock") and action[4:].isdigit():
            return [pl.Lock(int(action[4:]))]
        if action.startswith("bank") and action[4:].isdigit():
            return [pl.Lock(int(action[4:])), pl.Bank()]
        raise IllegalAction(code="button.foreign")

    def apply(
        self, state: pl.PushState, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[pl.PushState, dict[str, Any], TurnEnded | None]:
        after, detail = _step(state, action, RandomDice(rng))
        event = after.last
        ended = None
        if event is not None and event is not state.last:
            ended = turn_ended(after, event)
        return after, detail, ended

    def replay_step(self, state: pl.PushState, detail: dict[str, Any]) -> pl.PushState:
        action = pl.load_action(detail["action"])
        event = detail.get("event")
        # Only a throw, a push and the bonus throw roll dice: the event's dice are theirs.
        rolls = isinstance(action, pl.Throw | pl.Push | pl.BonusThrow)
        dice = ScriptedDice([event["dice"]] if rolls and event is not None else [])
        try:
            after, replayed = _step(state, action, dice)
        except AssertionError as exc:  # the scripted dice: fewer or more than were thrown
            raise ReplayMismatch(f"the logged dice do not fit the throw: {exc}") from None
        if replayed != detail:
            raise ReplayMismatch.between(detail, replayed)
        return after

    def bot_step(self, state: pl.PushState, level: str, rng: random.Random) -> list[Any]:
        first = choose_push_action(state, level, rng)  # type: ignore[arg-type]
        if isinstance(first, pl.Lock):
            # Lock and decide in one visible step, as a person pressing Bank/Push would.
            locked = pl.apply(state, first, NoDice())
            return [first, choose_push_action(locked, level, rng)]  # type: ignore[arg-type]
        return [first]

    def timeout_step(self, state: pl.PushState, rng: random.Random) -> list[Any]:
        # RULINGS §4: bank if possible, else throw; the rest of the turn is played at once.
        if state.phase == "throw":
            return [pl.Throw()]
        if state.phase == "lock":
            return [pl.Lock(len(state.extending)), pl.Bank()]
        return [pl.Bank()]

    def forfeit(self, state: pl.PushState, seat: int) -> pl.PushState:
        return pl.forfeit(state, seat)

    def forfeited(self, state: pl.PushState) -> frozenset[int]:
        return state.out

    def results(self, state: pl.PushState, seats: list[Seat]) -> list[SeatResult] | None:
        if state.outcome is None:
            return None
        team_game = state.config.variant == "team"
        side_totals = state.side_totals()
        winners = set(state.outcome.winners)
        out_seats = state.out

        def side(seat: int) -> int:
            return seat % 2 if team_game else seat

        def score(seat: int) -> int:
            return side_totals[side(seat)]

        # Losers rank below every winner, then by how many losing sides still playing scored
        # more; forfeited seats rank last (RULINGS §4), a winning team's too.
        losers = [s for s in range(state.n_seats) if s not in winners and s not in out_seats]

        def place(index: int) -> int:
            if index in winners:
                return 1
            return 2 + len({score(s) for s in losers if score(s) > score(index)})

        places = [place(index) for index in range(len(seats))]
        places = forfeit_places(places, out_seats)
        out = []
        for index, seat in enumerate(seats):
            won = index in winners and index not in out_seats
            out.append(
                SeatResult(
                    seat=index,
                    user_id=seat.user_id,
                    name=seat.name,
                    team=side(index) if team_game else None,
                    score=state.totals[index],
                    place=places[index],
                    won=won,
                    best_turn=state.best_turn[index],
                )
            )
        return out


def _step(
    state: pl.PushState, action: Any, dice: DiceSource
) -> tuple[pl.PushState, dict[str, Any]]:
    """One rules action and its log detail: the seat, the action and, when it made one, the
    event with the dice that fell (a replay feeds them back)."""
    after = pl.apply(state, action, dice)
    detail: dict[str, Any] = {"seat": state.current, "action": pl.dump_action(action)}
    event = after.last
    if event is not None and event is not state.last:
        detail["event"] = {
            "kind": event.kind,
            "dice": list(event.dice),
            "points": event.points,
            "run": list(event.run),
        }
    return after, detail


SuddenFinish = Literal["under", "exact", "over"]


def sudden_finish(
    state: pl.PushState, run_length: int, points: int | None = None
) -> SuddenFinish | None:
    """Sudden: where banking ``points`` (by default a run of ``run_length``) takes the
    total of the seat to play: short of 21, exactly 21 (a win) or past it (scores 0).
    None in every other variant."""
    if state.config.variant != "sudden":
        return None
    if points is None:
        points = pl.bank_value(state.config, run_length)
    after = state.totals[state.current] + points
    if after == pl.SUDDEN_TARGET:
        return "exact"
    return "over" if after > pl.SUDDEN_TARGET else "under"


def _bank_action(state: pl.PushState, run_length: int) -> TurnAction:
    """Bank: never green when (in Sudden) it would take the total past 21 and score nothing."""
    over = sudden_finish(state, run_length) == "over"
    return TurnAction("bank", "secondary" if over else "success")
