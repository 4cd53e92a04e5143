"""The compiled playout kernel: it plays exactly the pure-Python engine's games, builds on
first use, and the Python engine plays where it is missing or forced off."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.rules.board import BoardConfig, Pass, apply, legal_actions, new_game
from bot.rules.board import kernel as board_kernel
from bot.rules.board.game import EMPTY
from bot.rules.board.kernel import (
    PASSED,
    decode,
    encode,
    engine,
    playout,
    playout_compiled,
    playout_python,
)
from bot.rules.board.kernel_build import build, library_name
from bot.rules.board.layout import CORNER_MASK
from bot.sim.board_parity import TABLES, parity, parity_game

FORCED_OFF = os.environ.get("BOARD_KERNEL", "").lower() == "python"


@pytest.fixture
def fresh_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the kernel loaded so far: the next use loads (or fails to load) anew."""
    monkeypatch.setattr(board_kernel, "_TRIED", False)
    monkeypatch.setattr(board_kernel, "_LOADED", None)


@pytest.mark.skipif(FORCED_OFF, reason="BOARD_KERNEL=python forces the Python engine")
def test_the_kernel_builds_here() -> None:
    # A fresh clone with the system compiler must get the compiled engine, not a quiet
    # fallback: without this a broken build would only make the bots slower.
    assert engine() == "compiled"


@pytest.mark.skipif(FORCED_OFF, reason="BOARD_KERNEL=python forces the Python engine")
def test_kernel_and_python_agree_move_for_move_on_every_table() -> None:
    report = parity(210, seed=5)
    assert report["first_difference"] is None
    assert report["agree"] == 210 and report["plies"] > 210 * 40
    # Every table of the check was played: 2-6 seats, teams of 3, one sequence, a seat out.
    assert len(TABLES) == 7 and 210 % len(TABLES) == 0


@pytest.mark.skipif(FORCED_OFF, reason="BOARD_KERNEL=python forces the Python engine")
def test_a_playout_continues_the_callers_generator_alike() -> None:
    state = parity_game(3, seed=9)
    first, second = random.Random(4), random.Random(4)
    a = playout_python(state, first, max_plies=25, record=True)
    b = playout_compiled(state, second, max_plies=25, record=True)
    assert a.moves == b.moves and a.plies == b.plies == 25
    assert first.random() == second.random()
    # And either position plays on in the engine: the kernel's state is a real one.
    c = playout_python(b.state, random.Random(1), record=True)
    d = playout_python(a.state, random.Random(1), record=True)
    assert c.moves == d.moves and c.result == d.result


def test_forced_fallback_plays_the_python_engine(
    monkeypatch: pytest.MonkeyPatch, fresh_kernel: None
) -> None:
    monkeypatch.setenv("BOARD_KERNEL", "python")
    assert engine() == "python"
    with pytest.raises(OSError):
        playout_compiled(parity_game(0, 1), random.Random(1))
    state = parity_game(1, seed=2)
    got = playout(state, random.Random(3), record=True)
    want = playout_python(state, random.Random(3), record=True)
    assert got == want and got.result != board_kernel.UNFINISHED


def test_no_compiler_falls_back_to_python(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_kernel: None
) -> None:
    monkeypatch.delenv("BOARD_KERNEL", raising=False)
    monkeypatch.setenv("BOARD_KERNEL_CACHE", str(tmp_path))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    assert build() is None
    assert engine() == "python"
    state = parity_game(0, seed=4)
    assert playout(state, random.Random(2)) == playout_python(state, random.Random(2))


@pytest.mark.skipif(FORCED_OFF, reason="BOARD_KERNEL=python forces the Python engine")
def test_built_once_into_the_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BOARD_KERNEL_CACHE", str(tmp_path))
    path = build()
    assert path == tmp_path / library_name() and path.exists()
    stamp = path.stat().st_mtime_ns
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))  # no second build
    assert build() == path and path.stat().st_mtime_ns == stamp


@pytest.mark.parametrize("engine_name", ["python", "compiled"])
def test_a_full_round_of_passes_is_a_draw(engine_name: str) -> None:
    # RULINGS §3, the third guard: a full board of one side's chips, one seat holding only
    # one-eyed jacks (nothing of the other side to remove), the other only two-eyed jacks.
    if engine_name == "compiled" and board_kernel.compiled() is None:
        pytest.skip("the compiled kernel is not available")
    state = new_game(BoardConfig(2), random.Random(1))
    chips = tuple(EMPTY if CORNER_MASK >> c & 1 else 0 for c in range(100))
    state = replace(
        state,
        chips=chips,
        hands=(("JH", "JS", "JH", "JS"), ("JD", "JC", "JD", "JC")),
        side_masks=(sum(1 << c for c in range(100) if chips[c] == 0), 0),
    )
    roll = playout_python if engine_name == "python" else playout_compiled
    ended = roll(state, random.Random(1), record=True)
    assert ended.result == PASSED and ended.plies == 2
    assert [decode(m) for m in ended.moves] == [Pass(), Pass()]


def test_actions_encode_both_ways() -> None:
    state = parity_game(0, seed=1)
    for value in playout_python(state, random.Random(1), record=True).moves:
        assert encode(decode(value)) == value


@pytest.mark.skipif(FORCED_OFF, reason="BOARD_KERNEL=python forces the Python engine")
def test_cli_parity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-sim", "--parity", "14", "--seed", "3"]) == 0
    assert "14 of 14 games agree move for move" in capsys.readouterr().out
    assert main(["board-sim", "--parity", "-1"]) == 2


@pytest.mark.skipif(FORCED_OFF, reason="BOARD_KERNEL=python forces the Python engine")
def test_a_first_move_is_played_then_the_roll_out() -> None:
    state = parity_game(0, seed=12)
    move = legal_actions(state)[-1]
    slow = playout_python(state, random.Random(8), record=True, first=move)
    fast = playout_compiled(state, random.Random(8), record=True, first=move)
    assert slow.moves == fast.moves and slow.result == fast.result
    assert decode(slow.moves[0]) == move
    kernel = board_kernel.compiled()
    assert kernel is not None
    assert kernel.run(kernel.prepare(state), random.Random(8), first=move) == slow.result
    rng = random.Random(8)
    after = apply(state, move, rng)
    assert playout_python(after, rng, record=True).moves == slow.moves[1:]
