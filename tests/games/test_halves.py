"""Each game in two halves (ISSUE 21 item 2): the kind the table service drives gives
values (turn actions without labels, refusals as codes), and the game's presentation
words them, the same words players always read."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.errors import UserError
from bot.games.board.kind import BoardKind
from bot.games.board.settings import check as board_check
from bot.games.oneroll.kind import OneRollKind
from bot.games.oneroll.settings import check as oneroll_check
from bot.games.registry import Games
from bot.games.sequences.kind import SequencesKind
from bot.games.sequences.settings import check as sequences_check
from bot.records import TurnAction
from bot.rules import pushluck as pl
from bot.rules.dice import ScriptedDice
from bot.tables.model import Seat

SEQUENCES = Games().shown("sequences")


@pytest.mark.parametrize("kind", [SequencesKind, OneRollKind, BoardKind])
def test_a_kind_holds_no_words(kind: type[Any]) -> None:
    for words in ("title", "describe_settings", "display", "summary", "turn_buttons"):
        assert not hasattr(kind, words), words
    assert isinstance(kind.bot_levels, tuple)


@pytest.mark.parametrize("name", list(Games()))
def test_turn_actions_are_values_and_the_presentation_labels_each(name: str) -> None:
    game = Games().shown(name)
    demo = game.demos[0]
    settings = dict(demo.settings)
    seats = [Seat(None, f"Bot {i}", bot_level=level) for i, level in enumerate(demo.bot_levels)]
    seats = game.kind.arrange(settings, seats)
    state = game.kind.start(settings, seats, random.Random(3))
    actions = game.kind.turn_actions(state)
    assert actions and all(type(a) is TurnAction for a in actions)
    buttons = game.turn_buttons(state)
    assert [b.action for b in buttons] == [a.action for a in actions]
    assert all(b.label and b.label != b.action for b in buttons)


def test_sequences_words_its_lock_and_bank_buttons() -> None:
    state = pl.new_game(pl.PushConfig(variant="standard", rounds=1), 2)
    state = pl.apply(state, pl.Throw(), ScriptedDice([[1, 2, 3, 6, 6]]))
    actions = SEQUENCES.kind.turn_actions(state)
    assert [(a.action, a.style, a.row) for a in actions] == [
        ("bank", "success", 0),
        ("push", "primary", 0),
        ("lock1", "secondary", 1),
        ("lock2", "secondary", 1),
        ("odds", "secondary", 0),
    ]
    assert [b.label for b in SEQUENCES.turn_buttons(state)] == [
        "Bank 3 points",
        "Push (2 dice)",
        "Lock only 1",
        "Lock only 1-2",
        "Odds",
    ]


REFUSALS = [
    (board_check, {"seats": 5}, "board.uneven",
     "5 players can't split into equal teams: choose 4 or 6."),
    (board_check, {"seats": 13}, "board.seats", "The board game takes 2 to 12 players."),
    (board_check, {"teams": 4}, "board.teams", "Play in 2 or 3 teams."),
    (
        board_check,
        {"seats": 4, "teams": 3},
        "board.seats_teams",
        "3 teams need 3, 6, 9 or 12 players, so seats can't be 4.",
    ),
    (oneroll_check, {"ruleset": "classic", "target": 5}, "oneroll.target",
     "A one-roll race needs a target of 20 to 1,000 points."),
    (oneroll_check, {"ruleset": "x"}, "oneroll.ruleset", "Unknown ruleset."),
    (sequences_check, {"variant": "x"}, "sequences.variant", "Unknown variant."),
    (
        sequences_check,
        {"variant": "sudden", "rounds": 3},
        "sequences.sudden_rounds",
        "Sudden has no rounds or target: the first to exactly 21 wins at once.",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("check", "settings", "code", "words"), REFUSALS)
def test_a_settings_refusal_is_a_code_the_presentation_words(
    check: Any, settings: dict[str, Any], code: str, words: str
) -> None:
    with pytest.raises(UserError) as refused:
        check(settings)
    assert refused.value.code == code
    assert str(refused.value) == words


def test_an_error_code_without_words_still_says_something() -> None:
    assert str(UserError(code="nowhere.at_all", seats=3)) == "nowhere.at_all {'seats': 3}"
    assert str(UserError("Plain words.")) == "Plain words."
