"""One-roll Sequences ("classic") and Hearts Due as a table kind (RULINGS §2); every throw passes
the turn. ``OneRollTable`` keeps the throws, the turns a forfeit ended and each seat's best throw
beside the rules state, stored as they always were."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.errors import IllegalAction
from bot.games.oneroll import settings as options
from bot.games.oneroll.events import Thrown
from bot.records import SeatResult, TurnAction
from bot.rules import oneroll as one
from bot.rules.dice import DiceSource, RandomDice, ScriptedDice
from bot.tables.kind import GameKind, ReplayMismatch, forfeit_places
from bot.tables.model import Seat


@dataclass(frozen=True)
class OneRollTable:
    """The rules state and the table's counters."""

    state: one.OneRollState
    throws: int
    best: tuple[int, ...]
    skipped: int = 0  # turns that ended unthrown because their seat forfeited


class OneRollKind(GameKind[OneRollTable]):
    name = "oneroll"
    bot_levels = ("thrower",)

    def ruleset(self, settings: Mapping[str, Any]) -> one.Ruleset:
        return options.ruleset(settings)

    setting_options = options.OPTIONS

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        options.check(settings)

    def settings_from(self, settings: Mapping[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        return options.from_options(settings["ruleset"], values.get("target"))

    def seat_limits(self, settings: Mapping[str, Any]) -> tuple[int, int]:
        return (2, one.MAX_SEATS)

    def game_key(self, settings: Mapping[str, Any]) -> str:
        return self.ruleset(settings)

    def start(
        self, settings: Mapping[str, Any], seats: list[Seat], rng: random.Random
    ) -> OneRollTable:
        config = one.OneRollConfig(self.ruleset(settings), options.target(settings))
        return OneRollTable(one.new_game(config, len(seats)), 0, (0,) * len(seats))

    def load(self, data: dict[str, Any]) -> OneRollTable:
        state = one.load(data)
        best = data.get("best", [0] * state.n_seats)
        return OneRollTable(
            state,
            int(data.get("throws", 0)),
            tuple(int(b) for b in best),
            int(data.get("skipped", 0)),
        )

    def dump(self, table: OneRollTable) -> dict[str, Any]:
        return {
            **one.dump(table.state),
            "throws": table.throws,
            "best": list(table.best),
            "skipped": table.skipped,
        }

    def current_seat(self, table: OneRollTable) -> int | None:
        return one.current_seat(table.state)

    def turn_index(self, table: OneRollTable) -> int:
        return table.throws + table.skipped

    def first_seat(self, table: OneRollTable) -> int:
        """The seat the opening picked to start: it takes a split pot's remainder."""
        starter = table.state.starter
        return 0 if starter is None else starter

    def turn_actions(self, table: OneRollTable) -> list[TurnAction]:
        return [TurnAction("throw", "primary")]

    def resolve(self, table: OneRollTable, action: str) -> list[Any]:
        if action != "throw":
            raise IllegalAction(code="button.foreign")
        return [one.Throw()]

    def apply(
        self, table: OneRollTable, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[OneRollTable, dict[str, Any], Thrown]:
        after = _throw(table, action, RandomDice(rng))
        record = after.state.last
        assert record is not None
        return after, one.dump_record(record), Thrown(after.state.config.ruleset, record)

    def replay_step(self, table: OneRollTable, detail: dict[str, Any]) -> OneRollTable:
        # A step is one throw; its record holds the dice that fell.
        try:
            after = _throw(table, one.Throw(), ScriptedDice([detail["dice"]]))
        except AssertionError as exc:  # the scripted dice: not six faces of 1-6
            raise ReplayMismatch(f"the logged dice do not fit the throw: {exc}") from None
        record = after.state.last
        assert record is not None
        replayed = one.dump_record(record)
        if replayed != detail:
            raise ReplayMismatch.between(detail, replayed)
        return after

    def bot_step(self, table: OneRollTable, level: str, rng: random.Random) -> list[Any]:
        return [one.Throw()]

    def timeout_step(self, table: OneRollTable, rng: random.Random) -> list[Any]:
        return [one.Throw()]  # RULINGS §4: the absent seat's throw is thrown for them

    def forfeit(self, table: OneRollTable, seat: int) -> OneRollTable:
        to_throw = one.current_seat(table.state) == seat
        state = one.forfeit(table.state, seat)
        return replace(table, state=state, skipped=table.skipped + (1 if to_throw else 0))

    def forfeited(self, table: OneRollTable) -> frozenset[int]:
        return table.state.out

    def results(self, table: OneRollTable, seats: list[Seat]) -> list[SeatResult] | None:
        state = table.state
        if state.outcome is None:
            return None
        totals = state.totals
        winner = state.outcome.winner
        best = table.best
        # Below the winner by the distinct higher totals still playing; forfeited seats last.
        losers = [s for s in state.playing if s != winner]
        places = [
            1 if i == winner else 2 + len({totals[s] for s in losers if totals[s] > totals[i]})
            for i in range(len(seats))
        ]
        places = forfeit_places(places, state.out)
        out = []
        for i, seat in enumerate(seats):
            out.append(
                SeatResult(
                    seat=i,
                    user_id=seat.user_id,
                    name=seat.name,
                    team=None,
                    score=totals[i],
                    place=places[i],
                    won=i == winner and i not in state.out,
                    best_turn=int(best[i]),
                )
            )
        return out


def _throw(table: OneRollTable, action: Any, dice: DiceSource) -> OneRollTable:
    state = one.apply(table.state, action, dice)
    record = state.last
    assert record is not None
    best = list(table.best)
    if record.phase == "play":
        best[record.seat] = max(best[record.seat], record.score.points)
    return replace(table, state=state, throws=table.throws + 1, best=tuple(best))
