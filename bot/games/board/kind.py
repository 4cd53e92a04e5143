"""The Sequence board game as a table kind (RULINGS §3). Button actions: ``p_<card>_<row>_<col>``
play a card, ``m_<card>_<row>_<col>`` remove a chip with a one-eyed jack, ``t_<card>`` trade a dead
card, ``pass``."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from functools import partial
from typing import Any

from bot.errors import IllegalAction, UserError
from bot.games.board import settings as options
from bot.games.board.events import Moved
from bot.games.board.settings import ANY_SEATS, MAX_SEATS, MIN_SEATS, TEAM_SEATS
from bot.records import SeatResult, TurnAction
from bot.rules import board as b
from bot.tables.kind import (
    GameKind,
    NotReplayable,
    ReplayMismatch,
    check_seat_count,
    forfeit_places,
)
from bot.tables.model import Seat
from bot.tables.teams import arrange_teams
from bot.tables.thinking import BotJob

_MOVE = re.compile(r"^(?P<kind>[pm])_(?P<card>[0-9atjqk][shdc])_(?P<row>\d)_(?P<col>\d)$")
_TRADE = re.compile(r"^t_(?P<card>[0-9atjqk][shdc])$")
TIMEOUT_LEVEL = "greedy"


def move_action(action: b.Action) -> str:
    """The button action naming a rules action (inverse of ``BoardKind.resolve``)."""
    if isinstance(action, b.PlayCard):
        return f"p_{action.card.lower()}_{action.row}_{action.col}"
    if isinstance(action, b.RemoveChip):
        return f"m_{action.card.lower()}_{action.row}_{action.col}"
    if isinstance(action, b.TradeDeadCard):
        return f"t_{action.card.lower()}"
    return "pass"


class BoardKind(GameKind[b.BoardState]):
    """Sequence, the board-and-card game."""

    name = "board"
    bot_levels = b.PLAYER_LEVELS
    # A stored table or an Add bot button from before the levels were renamed.
    old_bot_levels = {"random": "easy", "greedy": "easy", "strong": "medium"}
    # A bot added without a level plays as before the rename (strong), not the slow search.
    default_bot_level = "medium"

    def config(self, settings: Mapping[str, Any], n_seats: int) -> b.BoardConfig:
        return options.config(settings, n_seats)

    setting_options = options.OPTIONS

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        options.check(settings)

    def seat_counts(self, settings: Mapping[str, Any]) -> list[int]:
        _, high = self.seat_limits(settings)
        teams = settings.get("teams")
        return [n for n in (TEAM_SEATS[int(teams)] if teams else ANY_SEATS) if n <= high]

    def seat_limits(self, settings: Mapping[str, Any]) -> tuple[int, int]:
        seats = settings.get("seats")
        return (MIN_SEATS, int(seats) if seats else MAX_SEATS)

    def team_count(self, settings: Mapping[str, Any], n_seats: int) -> int:
        return self.config(settings, n_seats).sides if n_seats >= 4 else 0

    def lobby_teams(self, settings: Mapping[str, Any], n_seats: int) -> tuple[int, bool]:
        # Teams the settings fix are offered (and balanced) from the first seat; otherwise
        # teams exist once 4+ seats make them (2, or 3 where 2 can't split the seats).
        teams = settings.get("teams")
        if teams:
            return (int(teams), True)
        return (self.team_count(settings, n_seats), False) if n_seats >= 4 else (0, False)

    def arrange(self, settings: Mapping[str, Any], seats: list[Seat]) -> list[Seat]:
        check_seat_count(self.seat_limits(settings), seats)
        if settings.get("teams") and len(seats) not in self.seat_counts(settings):
            # Never drop the chosen teams: 2 seats with "3 teams" is no 2-player game.
            raise UserError(
                code="board.table_teams",
                teams=settings["teams"],
                counts=self.seat_counts(settings),
                seats=len(seats),
            )
        self.config(settings, len(seats)).validate()
        return arrange_teams(seats, self.team_count(settings, len(seats)))

    def game_key(self, settings: Mapping[str, Any]) -> str:
        return "board"

    def start(
        self, settings: Mapping[str, Any], seats: list[Seat], rng: random.Random
    ) -> b.BoardState:
        return b.new_game(self.config(settings, len(seats)), rng)

    def load(self, data: dict[str, Any]) -> b.BoardState:
        return b.load(data)

    def dump(self, state: b.BoardState) -> dict[str, Any]:
        return b.dump(state)

    def current_seat(self, state: b.BoardState) -> int | None:
        return None if state.outcome is not None else state.turn

    def turn_index(self, state: b.BoardState) -> int:
        return state.turn_count

    def turn_actions(self, state: b.BoardState) -> list[TurnAction]:
        return [TurnAction("hand", "primary", private=True)]

    def playable_actions(self, state: b.BoardState) -> list[str]:
        return [move_action(action) for action in b.legal_actions(state)]

    def resolve(self, state: b.BoardState, action: str) -> list[Any]:
        if action == "pass":
            return [b.Pass()]
        match = _MOVE.match(action)
        if match:
            card = match["card"].upper()
            row, col = int(match["row"]), int(match["col"])
            if match["kind"] == "p":
                return [b.PlayCard(card, row, col)]
            return [b.RemoveChip(card, row, col)]
        match = _TRADE.match(action)
        if match:
            return [b.TradeDeadCard(match["card"].upper())]
        raise IllegalAction(code="button.foreign")

    def apply(
        self, state: b.BoardState, action: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[b.BoardState, dict[str, Any], Moved]:
        after, detail = _step(state, action, rng)
        move = after.last_move
        assert move is not None
        return after, detail, Moved(move)

    def replay_step(self, state: b.BoardState, detail: dict[str, Any]) -> b.BoardState:
        # The draw pile is in the start entry's state; only a reshuffle draws randomness.
        action = b.load_action(detail["action"])
        after, replayed = _step(state, action, _LoggedShuffle(detail.get("reshuffle")))
        if replayed != detail:
            raise ReplayMismatch.between(detail, replayed)
        return after

    def bot_step(self, state: b.BoardState, level: str, rng: random.Random) -> list[Any]:
        return [b.choose_action(b.view_for(state, state.turn), level, rng)]

    def bot_job(self, state: b.BoardState, level: str, rng: random.Random) -> BotJob | None:
        if level not in b.SEARCHING:
            return None
        return partial(b.bot_steps, b.view_for(state, state.turn), level, rng.getrandbits(64))

    def timeout_step(self, state: b.BoardState, rng: random.Random) -> list[Any]:
        # RULINGS §4: the absent seat's move is the bot player's move.
        return self.bot_step(state, TIMEOUT_LEVEL, rng)

    def forfeit(self, state: b.BoardState, seat: int) -> b.BoardState:
        return b.forfeit(state, seat)

    def forfeited(self, state: b.BoardState) -> frozenset[int]:
        return state.out

    def results(self, state: b.BoardState, seats: list[Seat]) -> list[SeatResult] | None:
        if state.outcome is None:
            return None
        counts = state.sequence_counts()
        sides = state.config.sides
        winners = set(state.outcome.seats) - state.out
        team_game = len(seats) >= 4
        # Winners first (everyone in a blocked draw), the others second, forfeited seats last.
        places = forfeit_places(
            [1 if (i in winners or not winners) else 2 for i in range(len(seats))], state.out
        )
        return [
            SeatResult(
                seat=i,
                user_id=seat.user_id,
                name=seat.name,
                team=i % sides if team_game else None,
                score=counts[i % sides],
                place=places[i],
                won=i in winners,
                best_turn=0,
            )
            for i, seat in enumerate(seats)
        ]


def _step(
    state: b.BoardState, action: Any, rng: random.Random
) -> tuple[b.BoardState, dict[str, Any]]:
    """One move and its log detail: its record and, after a reshuffle, the new draw pile in order,
    so a replay deals the same cards."""
    after = b.apply(state, action, rng)
    move = after.last_move
    assert move is not None
    detail = b.dump_move(move)
    if move.reshuffled:
        drawn = [] if move.drawn is None else [move.drawn]
        detail["reshuffle"] = [*after.draw_pile, *drawn]
    return after, detail


class _LoggedShuffle(random.Random):
    """The randomness of a logged move: a reshuffle puts the cards in the logged order."""

    def __init__(self, order: list[str] | None) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: Any) -> None:
        if self.order is None:
            raise NotReplayable(
                "the discards were reshuffled, and the log (older than the reshuffle "
                "order's logging) does not say in which order"
            )
        if sorted(self.order) != sorted(x):
            raise ReplayMismatch("the logged reshuffle is not the discard pile's cards")
        x[:] = self.order
