"""Restart cases generated from the games' own action lists.

Seeded self-play with the real kinds (the same code the table service calls) records the
rules state before every step and sorts the steps into categories (which button, in which
phase, whether it ends the game); the first state of each category becomes a case. The
harness tests then replay that one step under a crash before and after its commit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.games.board.kind import move_action
from bot.games.registry import Games
from bot.rules import board as b
from bot.rules import oneroll as one
from bot.rules import pushluck as pl
from bot.tables.model import Seat


@dataclass(frozen=True)
class Game:
    """A game as a player opens it: the slash command, its options, and how many seats."""

    name: str
    kind: str
    command: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seats: int
    required: frozenset[str]  # categories the generator must find, or the test fails


def _push(variant: str, **extra: Any) -> dict[str, Any]:
    settings = {"variant": variant, "rounds": None, "target": None, "soft_last_die": False}
    settings.update(extra)
    return settings


_PUSH_STEPS = frozenset({"throw@throw", "bank@lock", "push@lock", "lock1@lock", "bank@decide"})
GAMES = [
    Game(
        "standard",
        "sequences",
        "sequences start",
        {"rounds": 2},
        _push("standard", rounds=2),
        2,
        _PUSH_STEPS | {"bonus@lock", "throw@throw+tie", "end"},
    ),
    Game(
        "reverse",
        "sequences",
        "sequences start",
        {"variant": "reverse", "rounds": 1},
        _push("reverse", rounds=1),
        2,
        _PUSH_STEPS | {"end"},
    ),
    Game(
        "extended",
        "sequences",
        "sequences start",
        {"variant": "extended", "rounds": 1},
        _push("extended", rounds=1),
        2,
        _PUSH_STEPS | {"end"},
    ),
    Game(
        "sudden",
        "sequences",
        "sequences start",
        {"variant": "sudden"},
        _push("sudden"),
        2,
        _PUSH_STEPS | {"end"},
    ),
    Game(
        "team",
        "sequences",
        "sequences start",
        {"variant": "team", "target": 10},
        _push("team", target=10),
        4,
        _PUSH_STEPS | {"end"},
    ),
    Game(
        "classic",
        "oneroll",
        "sequences start",
        {"rules": "classic", "target": 20},
        {"ruleset": "classic", "target": 20},
        2,
        frozenset({"throw@opening", "throw@play", "end"}),
    ),
    Game(
        "heartsdue",
        "oneroll",
        "heartsdue start",
        {"target": 20},
        {"ruleset": "heartsdue", "target": 20},
        3,
        frozenset({"throw@opening", "throw@play", "throw@tiebreak", "end"}),
    ),
    Game(
        "board",
        "board",
        "board start",
        {"first_sequence_wins": True},
        {"seats": None, "teams": None, "first_sequence_wins": True},
        2,
        frozenset({"play", "wild", "remove", "trade", "sequence", "end"}),
    ),
]


@dataclass(frozen=True)
class Case:
    game: Game
    category: str
    seed: int
    rules: dict[str, Any]  # the rules state just before the step
    action: str  # the button action (custom_id tail) that makes the step


class DictKind:
    """A game kind over the stored JSON of its rules, as these cases keep them."""

    def __init__(self, name: str) -> None:
        self.shown = Games().shown(name)
        self.kind = self.shown.kind

    def start(self, settings: dict[str, Any], seats: list[Seat], rng: random.Random) -> Any:
        return self.kind.dump(self.kind.start(settings, seats, rng))

    def current_seat(self, rules: dict[str, Any]) -> int | None:
        return self.kind.current_seat(self.kind.load(rules))

    def turn_index(self, rules: dict[str, Any]) -> int:
        return self.kind.turn_index(self.kind.load(rules))

    def turn_buttons(self, rules: dict[str, Any]) -> list[Any]:
        return self.shown.turn_buttons(self.kind.load(rules))

    def resolve(self, rules: dict[str, Any], action: str) -> list[Any]:
        return self.kind.resolve(self.kind.load(rules), action)

    def apply(
        self, rules: dict[str, Any], step: Any, rng: random.Random, seats: list[Seat]
    ) -> tuple[dict[str, Any], dict[str, Any], str | None]:
        after, detail, line = self.kind.apply(self.kind.load(rules), step, rng, seats)
        return self.kind.dump(after), detail, line


def kind_for(name: str) -> DictKind:
    return DictKind(name)


def _category(game: Game, rules: dict[str, Any], action: str) -> str:
    if game.kind == "sequences":
        state = pl.load(rules)
        return f"{action}@{state.phase}" + ("+tie" if state.tiebreak else "")
    if game.kind == "oneroll":
        return f"{action}@{one.load(rules).phase}"
    move = kind_for("board").resolve(rules, action)[0]
    if isinstance(move, b.TradeDeadCard):
        return "trade"
    if isinstance(move, b.RemoveChip):
        return "remove"
    if isinstance(move, b.Pass):
        return "pass"
    return "wild" if move.card in b.TWO_EYED_JACKS else "play"


def _choose(game: Game, rules: dict[str, Any], rng: random.Random) -> str:
    kind = kind_for(game.kind)
    if game.kind != "board":
        actions = [x.action for x in kind.turn_buttons(rules) if not x.private]
        return rng.choice(actions)
    state = b.load(rules)
    legal = b.legal_actions(state)
    trades = [a for a in legal if isinstance(a, b.TradeDeadCard)]
    if trades and rng.random() < 0.5:
        return move_action(trades[0])
    if rng.random() < 0.6:  # mostly the greedy bot, so games reach their sequences
        return move_action(b.choose_action(b.view_for(state, state.turn), "greedy", rng))
    return move_action(rng.choice(legal))


def generate(game: Game, max_games: int = 400, max_steps: int = 400) -> list[Case]:
    """The first step of every category over seeded self-play of ``game``."""
    kind = kind_for(game.kind)
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(game.seats)]
    found: dict[str, Case] = {}
    for seed in range(max_games):
        rng = random.Random(seed)
        rules = kind.start(game.settings, seats, rng)
        for _ in range(max_steps):
            if kind.current_seat(rules) is None:
                break
            action = _choose(game, rules, rng)
            category = _category(game, rules, action)
            after = apply_click(game.kind, rules, action, rng, seats)
            if game.kind == "board" and b.load(after).last_move.new_sequences:  # type: ignore[union-attr]
                found.setdefault("sequence", Case(game, "sequence", seed, rules, action))
            if kind.current_seat(after) is None:
                found.setdefault("end", Case(game, "end", seed, rules, action))
            found.setdefault(category, Case(game, category, seed, rules, action))
            rules = after
        if game.required <= found.keys():
            break
    return [found[c] for c in sorted(found)]


def apply_click(
    kind_name: str, rules: dict[str, Any], action: str, rng: random.Random, seats: list[Seat]
) -> dict[str, Any]:
    """What one click does to the rules, as TableKernel.apply does it: a step that ends
    the turn drops the steps after it."""
    kind = kind_for(kind_name)
    turn = kind.turn_index(rules)
    for step in kind.resolve(rules, action):
        if kind.turn_index(rules) != turn:
            break
        rules, _, _ = kind.apply(rules, step, rng, seats)
    return rules


def all_cases() -> list[Case]:
    return [case for game in GAMES for case in generate(game)]
