"""One-roll Sequences ("classic") and Hearts Due as a table kind (RULINGS §2).

A turn is one throw, so every throw passes the turn. The kind keeps two counters next to the
rules state: the number of throws (the turn index) and each seat's best throw.
"""

from __future__ import annotations

import random
from typing import Any

from bot.errors import IllegalAction, UserError
from bot.rules import oneroll as one
from bot.rules.dice import RandomDice
from bot.store.games import SeatResult
from bot.tables.kinds import Button, check_seat_count, dice_text, seat_name
from bot.tables.model import Seat

RULESETS = {"classic": "Sequences (one roll)", "heartsdue": "Hearts Due"}


class OneRollKind:
    name = "oneroll"
    bot_levels = {"thrower": "throws the dice (a one-roll game has no decisions to make)"}

    def ruleset(self, settings: dict[str, Any]) -> one.Ruleset:
        ruleset = settings.get("ruleset")
        if ruleset not in RULESETS:
            raise UserError("Unknown ruleset.")
        return ruleset  # type: ignore[no-any-return]

    def check_settings(self, settings: dict[str, Any]) -> None:
        self.ruleset(settings)
        target = int(settings.get("target", 100))
        if not 20 <= target <= one.MAX_TARGET:
            raise UserError(f"The target must be between 20 and {one.MAX_TARGET}.")

    def seat_limits(self, settings: dict[str, Any]) -> tuple[int, int]:
        return (2, one.MAX_SEATS)

    def team_count(self, settings: dict[str, Any], n_seats: int) -> int:
        return 0

    def lobby_teams(self, settings: dict[str, Any]) -> tuple[int, bool]:
        return (0, False)

    def arrange(self, settings: dict[str, Any], seats: list[Seat]) -> list[Seat]:
        check_seat_count(self.seat_limits(settings), seats)
        return seats

    def game_key(self, settings: dict[str, Any]) -> str:
        return self.ruleset(settings)

    def title(self, settings: dict[str, Any]) -> str:
        return RULESETS[self.ruleset(settings)]

    def describe_settings(self, settings: dict[str, Any]) -> str:
        return f"race to {settings.get('target', 100)} · six dice, one throw a turn"

    def start(
        self, settings: dict[str, Any], seats: list[Seat], rng: random.Random
    ) -> dict[str, Any]:
        config = one.OneRollConfig(self.ruleset(settings), int(settings.get("target", 100)))
        rules = one.dump(one.new_game(config, len(seats)))
        rules["throws"] = 0
        rules["best"] = [0] * len(seats)
        return rules

    def current_seat(self, rules: dict[str, Any]) -> int | None:
        return one.current_seat(one.load(rules))

    def turn_index(self, rules: dict[str, Any]) -> int:
        return int(rules.get("throws", 0))

    def first_seat(self, rules: dict[str, Any]) -> int:
        """The seat the opening picked to start: it takes a split pot's remainder."""
        starter = one.load(rules).starter
        return 0 if starter is None else starter

    def turn_buttons(self, rules: dict[str, Any]) -> list[Button]:
        return [Button("throw", "Throw 6 dice", "primary", emoji="🎲")]

    def resolve(self, rules: dict[str, Any], action: str) -> list[Any]:
        if action != "throw":
            raise IllegalAction("That button does not belong to this game.")
        return [one.Throw()]

    def apply(
        self, rules: dict[str, Any], action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[dict[str, Any], dict[str, Any], str | None]:
        state = one.apply(one.load(rules), action, RandomDice(rng))
        record = state.last
        assert record is not None
        best = list(rules.get("best", [0] * state.n_seats))
        if record.phase == "play":
            best[record.seat] = max(best[record.seat], record.score.points)
        after = one.dump(state)
        after["throws"] = int(rules.get("throws", 0)) + 1
        after["best"] = best
        return after, one.dump_record(record), throw_line(record, seats)

    def bot_step(self, rules: dict[str, Any], level: str, rng: random.Random) -> list[Any]:
        return [one.Throw()]

    def timeout_step(self, rules: dict[str, Any], rng: random.Random) -> list[Any]:
        return [one.Throw()]  # RULINGS §4: the absent seat's throw is thrown for them

    def results(self, rules: dict[str, Any], seats: list[Seat]) -> list[SeatResult] | None:
        state = one.load(rules)
        if state.outcome is None:
            return None
        totals = state.totals
        winner = state.outcome.winner
        best = rules.get("best", [0] * len(seats))
        out = []
        for i, seat in enumerate(seats):
            higher = {t for s, t in enumerate(totals) if s != winner and t > totals[i]}
            out.append(
                SeatResult(
                    seat=i,
                    user_id=seat.user_id,
                    name=seat.name,
                    team=None,
                    score=totals[i],
                    place=1 if i == winner else 2 + len(higher),
                    won=i == winner,
                    best_turn=int(best[i]),
                )
            )
        return out


def throw_line(record: one.ThrowRecord, seats: list[Seat]) -> str:
    who = seat_name(seats, record.seat)
    faces = dice_text(record.dice)
    if record.phase == "opening":
        return f"{who} opening throw {faces}: sum {record.value}"
    if record.phase == "tiebreak":
        return f"{who} tie-break throw {faces}: {one.describe(record.score)}"
    if record.score.wiped:
        return (
            f"💥 {who} threw {faces}: **{one.describe(record.score)}** ({record.total_before} → 0)"
        )
    return f"{who} threw {faces}: {one.describe(record.score)} (total {record.total_after})"
