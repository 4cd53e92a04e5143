"""The ``board-sim`` subcommand: seeded, reproducible, both output forms."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main
from bot.cli.board_sim import simulate, wilson


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3)
    assert high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 0.0)
    assert wilson(10, 10)[1] == 1.0


def test_simulate_is_seeded_and_alternates_first_seat() -> None:
    first = simulate(["greedy", "random"], games=6, seed=3)
    second = simulate(["greedy", "random"], games=6, seed=3)
    for key in ("levels", "by_side", "avg_turns", "blocked"):
        assert first[key] == second[key]
    sides = first["by_side"]
    assert sum(row["wins"] for row in sides) + first["blocked"] + first["unfinished"] == 6
    assert set(first["move_ms"]) == {"greedy", "random"}


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["board-sim", "--games", "4", "--seats", "greedy,random,greedy,random", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and report["sides"] == 2
    assert report["by_side"][0]["levels"] == ["greedy", "greedy"]
    assert not report["levels"]["greedy"]["every_side"]


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-sim", "--games", "2", "--seats", "random,random", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "plays every side" in out and "games/s" in out
    assert main(["board-sim", "--games", "2", "--seats", "random,wizard"]) == 2
    assert "unknown level" in capsys.readouterr().err
    assert main(["board-sim", "--games", "2", "--seats", "random,random,random,random,random"]) == 2
    assert "can't split into equal teams" in capsys.readouterr().err
