"""The ``board-fit`` subcommand: the data it learns from, the fit itself and its output."""

from __future__ import annotations

import hashlib
import math
import random

import pytest

from bot.__main__ import main
from bot.rules.board import BoardConfig, apply, choose_action, dump_action, new_game, view_for
from bot.rules.board.bots import CALIBRATION, FEATURES, WEIGHTS, win_chance
from bot.sim.board_fit import brier, calibrate, collect, fit, reliability


def test_weights_name_every_feature() -> None:
    assert len(WEIGHTS) == len(FEATURES) == len(set(FEATURES))


def test_collect_is_seeded_and_labels_strongs_result() -> None:
    rows, labels = collect(games=3, seed=4)
    assert rows and len(rows) == len(labels)
    assert all(len(row) == len(FEATURES) for row in rows)
    assert set(labels) <= {0.0, 0.5, 1.0}
    assert collect(games=3, seed=4) == (rows, labels)


def test_fit_recovers_known_weights() -> None:
    rng = random.Random(11)
    truth = (2.0, -1.0, 0.0)
    rows: list[list[float]] = []
    labels: list[float] = []
    for _ in range(4000):
        row = [rng.gauss(0, 1), rng.gauss(3, 2), rng.uniform(0, 5)]
        logit = 0.5 + sum(w * x for w, x in zip(truth, row, strict=True))
        rows.append(row)
        labels.append(1.0 if rng.random() < 1 / (1 + math.exp(-logit)) else 0.0)
    weights, intercept, loss, accuracy = fit(rows, labels)
    assert weights == pytest.approx(truth, abs=0.2)
    # The intercept takes back the standardisation's shift: the features' means are 0, 3
    # and 2.5, so without it the intercept would be the standardised one (0.5 - 3 = -2.5).
    assert intercept == pytest.approx(0.5, abs=0.25)
    assert 0.2 < loss < 0.6 and accuracy > 0.75


def test_calibrate_finds_scale_and_intercept() -> None:
    rng = random.Random(3)
    scores: list[float] = []
    labels: list[float] = []
    for _ in range(6000):
        value = rng.uniform(-3, 3)
        scores.append(value)
        labels.append(1.0 if rng.random() < 1 / (1 + math.exp(-(0.5 * value - 0.7))) else 0.0)
    scale, intercept = calibrate(scores, labels)
    assert scale == pytest.approx(0.5, abs=0.08) and intercept == pytest.approx(-0.7, abs=0.1)
    calibrated = [1 / (1 + math.exp(-(scale * v + intercept))) for v in scores]
    raw = [1 / (1 + math.exp(-v)) for v in scores]
    assert brier(calibrated, labels) < brier(raw, labels)
    table = reliability(calibrated, labels)
    assert len(table) == 10 and sum(n for n, _, _ in table) == 6000
    assert [mean for _, mean, _ in table] == sorted(mean for _, mean, _ in table)
    assert all(abs(mean - won) < 0.06 for _, mean, won in table)


def test_strong_plays_the_moves_it_played_before_the_calibration() -> None:
    # CALIBRATION changes the leaf's probability, never strong's order: the moves of these
    # seeded games are pinned from the commit before it (1e1ebca).
    digest = hashlib.sha256()
    for game in range(12):
        rng = random.Random(1000 + game)
        state = new_game(BoardConfig(2), rng, first_seat=game % 2)
        while state.outcome is None:
            level = "strong" if state.turn == game % 2 else "greedy"
            action = choose_action(view_for(state, state.turn), level, rng)
            digest.update(repr(dump_action(action)).encode())
            state = apply(state, action, rng)
    assert digest.hexdigest()[:16] == "f90fc0f557194afe"
    assert CALIBRATION[0] > 0  # a positive scale keeps the order


def test_win_chance_is_the_calibrated_logistic() -> None:
    scale, intercept = CALIBRATION
    assert win_chance(0.0) == pytest.approx(1 / (1 + math.exp(-intercept)))
    assert win_chance(2.0) == pytest.approx(1 / (1 + math.exp(-(2 * scale + intercept))))


def test_cli_prints_weights_to_paste(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-fit", "--games", "2", "--seed", "3", "--explore", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "WEIGHTS: tuple[float, ...] = (" in out and "log loss" in out
    assert all(f"# {name}" in out for name in FEATURES)
    assert main(["board-fit", "--games", "1"]) == 2
    assert main(["board-fit", "--games", "5", "--explore", "2"]) == 2
    assert "--games must be at least 2" in capsys.readouterr().err


def test_cli_calibrate_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-fit", "--calibrate", "--games", "4", "--holdout", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "CALIBRATION: tuple[float, float] = (" in out
    assert "Brier score, calibrated" in out and "Brier score, refit" in out
    assert "decile | positions" in out
    assert main(["board-fit", "--calibrate", "--holdout", "1"]) == 2
