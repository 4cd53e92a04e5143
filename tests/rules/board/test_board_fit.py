"""The ``board-fit`` subcommand: the data it learns from, the fit itself and its output."""

from __future__ import annotations

import math
import random

import pytest

from bot.__main__ import main
from bot.rules.board.bots import FEATURES, WEIGHTS
from bot.sim.board_fit import collect, fit


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
    weights, loss, accuracy = fit(rows, labels)
    assert weights == pytest.approx(truth, abs=0.2)
    assert 0.2 < loss < 0.6 and accuracy > 0.75


def test_cli_prints_weights_to_paste(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-fit", "--games", "2", "--seed", "3", "--explore", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "WEIGHTS: tuple[float, ...] = (" in out and "log loss" in out
    assert all(f"# {name}" in out for name in FEATURES)
    assert main(["board-fit", "--games", "1"]) == 2
    assert main(["board-fit", "--games", "5", "--explore", "2"]) == 2
    assert "--games must be at least 2" in capsys.readouterr().err
