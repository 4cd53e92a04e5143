"""The deep search (``deep``): roll-outs to the game's end over sampled deals, an
experiment ``board-sim`` plays and players are not offered."""

from __future__ import annotations

import random

import pytest

from bot.__main__ import main
from bot.rules.board import (
    PLAYER_LEVELS,
    BoardConfig,
    apply,
    choose_action,
    deep,
    legal_actions,
    view_for,
)
from bot.rules.board import kernel as board_kernel
from bot.rules.board.deep import deep_action
from bot.rules.board.levels import EXPERIMENTS
from tests.rules.board.test_board_search import hidden_reshuffled, played


@pytest.mark.parametrize(("seats", "moves"), [(2, 12), (2, 30), (4, 20)])
def test_deep_plays_a_legal_move_whatever_the_hidden_cards(seats: int, moves: int) -> None:
    state = played(BoardConfig(seats), seed=seats + moves, moves=moves)
    assert state.outcome is None
    view = view_for(state, state.turn)
    action = deep_action(view, random.Random(1), deals=6)
    assert action in legal_actions(state)
    apply(state, action, random.Random(1))
    # It reads only the view: the hidden cards dealt otherwise, the same move.
    other = hidden_reshuffled(state, seed=5)
    again = view_for(other, other.turn)
    assert deep_action(again, random.Random(1), deals=6) == action


def test_deep_plays_the_same_move_on_the_python_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:

    state = played(BoardConfig(2), seed=3, moves=16)
    view = view_for(state, state.turn)
    fast = deep_action(view, random.Random(2), deals=4)
    monkeypatch.setenv("BOARD_KERNEL", "python")
    assert board_kernel.engine() == "python"
    assert deep_action(view, random.Random(2), deals=4) == fast


def test_deep_is_an_experiment_not_a_level_players_pick(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deep, "DEALS", 3)  # the suite's time: 64 deals play in board-sim
    assert "deep" in EXPERIMENTS and "deep" not in PLAYER_LEVELS
    state = played(BoardConfig(2), seed=8, moves=6)

    assert choose_action(view_for(state, state.turn), "deep", random.Random(1)) in legal_actions(
        state
    )
    assert main(["board-sim", "--games", "1", "--seats", "deep,greedy", "--json"]) == 0
    assert '"deep"' in capsys.readouterr().out
