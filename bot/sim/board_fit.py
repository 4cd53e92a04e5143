"""Fitting the strong board bot's evaluation: positions from its own games (``collect``)
and a ridge-regularised logistic regression (``fit``), for ``python -m bot board-fit``."""

from __future__ import annotations

import math
import random

from bot.rules.board import BoardConfig, apply, choose_action, legal_actions, new_game, view_for
from bot.rules.board.bots import forced_action, score, strong_candidates

MAX_TURNS = 5000
RIDGE = 1e-4


def collect(games: int, seed: int, explore: float = 0.0) -> tuple[list[list[float]], list[float]]:
    """Feature rows of strong's positions and 1.0/0.0/0.5 for strong's win/loss/draw."""
    master = random.Random(seed)
    rows: list[list[float]] = []
    labels: list[float] = []
    config = BoardConfig(2)
    for game in range(games):
        rng = random.Random(master.getrandbits(64))
        strong_seat = game % 2
        state = new_game(config, rng, first_seat=(game // 2) % 2)
        mine: list[list[float]] = []
        while state.outcome is None and state.turn_count < MAX_TURNS:
            view = view_for(state, state.turn)
            actions = legal_actions(view)
            level = "strong" if state.turn == strong_seat else "greedy"
            # Trades and passes are not scored moves: let the bot make them as in play.
            if level == "greedy" or forced_action(actions) is not None:
                action = choose_action(view, level, rng)
            else:
                immediate, scored = strong_candidates(view, actions)
                if immediate is not None:
                    action = immediate
                else:
                    scored.sort(key=lambda item: score(item[0]), reverse=True)
                    pick = rng.randrange(min(5, len(scored))) if rng.random() < explore else 0
                    features, action = scored[pick]
                    mine.append(features)
            state = apply(state, action, rng)
        outcome = state.outcome
        if outcome is None or outcome.side is None:
            label = 0.5
        else:
            label = 1.0 if outcome.side == strong_seat else 0.0
        rows.extend(mine)
        labels.extend([label] * len(mine))
    return rows, labels


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _predict(weights: list[float], row: list[float]) -> float:
    """The logistic model's probability for one (standardised, intercept-extended) row."""
    return 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(weights, row, strict=True))))


def fit(
    rows: list[list[float]], labels: list[float], iterations: int = 25
) -> tuple[list[float], float, float, float]:
    """Logistic regression on standardised features, the weights and intercept scaled back to the
    raw features ``strong`` computes; returns them with the log loss and accuracy."""
    n, width = len(rows), len(rows[0])
    means = [sum(row[j] for row in rows) / n for j in range(width)]
    spreads = [
        math.sqrt(sum((row[j] - means[j]) ** 2 for row in rows) / n) or 1.0 for j in range(width)
    ]
    z = [[(row[j] - means[j]) / spreads[j] for j in range(width)] + [1.0] for row in rows]
    size = width + 1
    w = [0.0] * size
    for _ in range(iterations):
        grad = [RIDGE * x for x in w]
        hess = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for row, y in zip(z, labels, strict=True):
            p = _predict(w, row)
            err, curv = (p - y) / n, p * (1.0 - p) / n
            for i in range(size):
                grad[i] += err * row[i]
                scaled = curv * row[i]
                hess_i = hess[i]
                for j in range(i, size):
                    hess_i[j] += scaled * row[j]
        for i in range(size):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    loss = correct = 0.0
    for row, y in zip(z, labels, strict=True):
        p = min(max(_predict(w, row), 1e-12), 1.0 - 1e-12)
        loss -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
        correct += (p > 0.5) == (y > 0.5)
    weights = [w[j] / spreads[j] for j in range(width)]
    intercept = w[width] - sum(weights[j] * means[j] for j in range(width))
    return weights, intercept, loss / n, correct / n


def calibrate(scores: list[float], labels: list[float]) -> tuple[float, float]:
    """``(scale, intercept)`` of the logistic fit of ``labels`` on ``scores`` (Platt
    scaling): ``sigmoid(scale * score + intercept)`` is then a probability. A positive
    scale keeps the order of the scores, so the moves ``strong`` picks do not change."""
    weights, intercept, _, _ = fit([[value] for value in scores], labels)
    return weights[0], intercept


def brier(probabilities: list[float], labels: list[float]) -> float:
    """Mean squared difference of the probabilities and the outcomes (a draw is 0.5)."""
    pairs = list(zip(probabilities, labels, strict=True))
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs)


def reliability(
    probabilities: list[float], labels: list[float], bins: int = 10
) -> list[tuple[int, float, float]]:
    """The positions sorted by predicted probability in ``bins`` groups of (nearly) equal
    size (deciles): each group's ``(positions, mean predicted, share won)``."""
    pairs = sorted(zip(probabilities, labels, strict=True))
    rows: list[tuple[int, float, float]] = []
    for b in range(bins):
        part = pairs[b * len(pairs) // bins : (b + 1) * len(pairs) // bins]
        if part:
            n = len(part)
            rows.append((n, sum(p for p, _ in part) / n, sum(y for _, y in part) / n))
    return rows
