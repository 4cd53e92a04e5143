"""Board-game bot matches: seeded games between bot levels (``simulate``) and duplicate
deals with the seats swapped (``duplicate``), for ``python -m bot board-sim`` and the tests."""

from __future__ import annotations

import math
import random
import time
from collections import defaultdict
from typing import Any

from bot.rules.board import BoardConfig, apply, choose_action, new_game, view_for
from bot.rules.board.levels import DETERMINISTIC, engine_of

# A safety net for the statistics only: no bot game has come near it in measurements.
MAX_TURNS = 5000


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def simulate(
    levels: list[str],
    games: int,
    seed: int,
    teams: int | None = None,
    first_sequence_wins: bool = False,
) -> dict[str, Any]:
    """Play ``games`` (at least 1) games and return the report as a JSON-safe dict."""
    config = BoardConfig(len(levels), first_sequence_wins=first_sequence_wins, teams=teams)
    config.validate()
    master = random.Random(seed)
    side_wins = [0] * config.sides
    unfinished = 0
    draws: dict[str, int] = defaultdict(int)
    turns: list[int] = []
    move_times: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    for game in range(games):
        rng = random.Random(master.getrandbits(64))
        state = new_game(config, rng, first_seat=game % config.seats)
        while state.outcome is None and state.turn_count < MAX_TURNS:
            seat = state.turn
            level = levels[seat]
            tick = time.perf_counter()
            action = choose_action(view_for(state, seat), level, rng)
            move_times[level].append(time.perf_counter() - tick)
            state = apply(state, action, rng)
        turns.append(state.turn_count)
        if state.outcome is None:
            unfinished += 1
        elif state.outcome.side is None:
            draws[state.outcome.reason] += 1
        else:
            side_wins[state.outcome.side] += 1
    elapsed = time.perf_counter() - started

    # A level's wins: games won by a side that level plays (sides of mixed levels count
    # for each of their levels).
    level_wins: dict[str, int] = defaultdict(int)
    for level in dict.fromkeys(levels):
        level_wins[level] = sum(
            side_wins[side]
            for side in range(config.sides)
            if level in {levels[s] for s in config.seats_of(side)}
        )

    def rate(wins: int) -> dict[str, Any]:
        low, high = wilson(wins, games)
        return {"wins": wins, "rate": wins / games, "ci95": [low, high]}

    def every_side(level: str) -> bool:
        return all(
            level in {levels[s] for s in config.seats_of(side)} for side in range(config.sides)
        )

    return {
        "games": games,
        "seats": levels,
        "sides": config.sides,
        "seed": seed,
        "levels": {
            level: rate(level_wins[level]) | {"every_side": every_side(level)}
            for level in dict.fromkeys(levels)
        },
        "by_side": [
            {"side": side, "levels": [levels[s] for s in config.seats_of(side)]}
            | rate(side_wins[side])
            for side in range(config.sides)
        ],
        # Drawn games, by reason ("blocked", "stalled", "passed": docs/board-rules.md).
        "draws": sum(draws.values()),
        "draw_reasons": {reason: draws[reason] for reason in ("blocked", "stalled", "passed")},
        "unfinished": unfinished,
        "avg_turns": sum(turns) / games,
        "move_ms": _move_ms(move_times),
        "game_ms": 1000 * elapsed / games,
        "games_per_second": games / elapsed if elapsed else 0.0,
    }


def _play_deal(
    levels: list[str],
    deal_seed: int,
    first_sequence_wins: bool,
    move_times: dict[str, list[float]] | None = None,
    move_cpu: dict[str, list[float]] | None = None,
) -> int | None:
    """Play one deal, seat ``i`` at ``levels[i]``: the winning side, or ``None``. The deal and the
    bots have a generator each, so both games of a duplicate pair get the same cards."""
    cards = random.Random(deal_seed)
    bots = random.Random(deal_seed ^ 0x5EED)
    state = new_game(BoardConfig(len(levels), first_sequence_wins=first_sequence_wins), cards)
    while state.outcome is None and state.turn_count < MAX_TURNS:
        level = levels[state.turn]
        tick, cpu = time.perf_counter(), time.process_time()
        action = choose_action(view_for(state, state.turn), level, bots)
        if move_times is not None and move_cpu is not None:
            move_times[level].append(time.perf_counter() - tick)
            move_cpu[level].append(time.process_time() - cpu)
        state = apply(state, action, cards)
    return None if state.outcome is None else state.outcome.side


def bootstrap(scores: list[float], seed: int, rounds: int = 2000) -> tuple[float, float]:
    """95% percentile-bootstrap interval of the mean of ``scores`` (resampled with a
    generator seeded by ``seed``, so a report is reproducible)."""
    if not scores:
        return 0.0, 0.0
    rng = random.Random(seed)
    n = len(scores)
    means = sorted(sum(rng.choices(scores, k=n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[min(rounds - 1, int(0.975 * rounds))]


def duplicate(
    levels: list[str], deals: int, seed: int, first_sequence_wins: bool = False
) -> dict[str, Any]:
    """Play each deal twice, the levels swapping sides (every level shifted one seat), and count
    whose skill or cards decided it: ``win_rate`` with a bootstrap interval over the deals,
    ``wins_both`` a Wilson one."""
    sides = BoardConfig(len(levels)).sides if len(levels) >= 2 else 0
    pair = levels[:2]
    if sides != 2 or any(level != pair[i % 2] for i, level in enumerate(levels)):
        raise ValueError(
            "--duplicate compares two levels on two sides: give 2 seats, or 4 or 6 with the "
            "two levels alternating"
        )
    master = random.Random(seed)
    first_both = second_both = same_seat = other = 0
    scores: list[float] = []  # the first level's share of each deal's two games
    move_times: dict[str, list[float]] = defaultdict(list)
    move_cpu: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    for _ in range(deals):
        deal_seed = master.getrandbits(64)
        straight = _play_deal(levels, deal_seed, first_sequence_wins, move_times, move_cpu)
        swapped = _play_deal(
            levels[1:] + levels[:1], deal_seed, first_sequence_wins, move_times, move_cpu
        )
        first = (0.5 if straight is None else float(straight == 0)) + (
            0.5 if swapped is None else float(swapped == 1)
        )
        scores.append(first / 2)
        if straight is None or swapped is None:
            other += 1
        elif straight == swapped:
            same_seat += 1
        elif straight == 0:
            first_both += 1
        else:
            second_both += 1
    elapsed = time.perf_counter() - started
    low, high = bootstrap(scores, seed)
    rates = [(sum(scores) / deals, (low, high)), (1 - sum(scores) / deals, (1 - high, 1 - low))]
    return {
        "deals": deals,
        "seed": seed,
        "seats": len(levels),
        "levels": [
            {
                "level": level,
                "wins_both": both / deals,
                "wins_both_ci95": list(wilson(both, deals)),
                "win_rate": (2 * both + same_seat) / (2 * deals),
                "score": rate,
                "score_ci95": list(ci),
            }
            for level, both, (rate, ci) in zip(pair, (first_both, second_both), rates, strict=True)
        ],
        "same_seat_wins_both": same_seat / deals,
        "with_a_drawn_game": other / deals,
        "move_ms": _move_ms(move_times),
        # The processor time of each move: what it takes on one core of an idle machine
        # (wall-clock times grow with whatever else the machine runs).
        "move_cpu_ms": _move_ms(move_cpu),
        "seconds": elapsed,
    }


#: The references every league measures its levels against.
REFERENCES: tuple[str, ...] = ("strong", "greedy")


def league_members(levels: list[str]) -> list[str]:
    """The players of a league of ``levels``: each level once, then ``strong`` and
    ``greedy`` if not among them."""
    return list(dict.fromkeys([*levels, *REFERENCES]))


def uninformative(first: str, second: str) -> str | None:
    """Why a duplicate matchup of these two levels measures nothing, or ``None``: the same
    engine on both sides (the two games of each deal are one game: the bots share the deal's
    generator), or two deterministic players (their moves depend on the cards alone)."""
    if engine_of(first) == engine_of(second):
        return "the same player on both sides: the two games of every deal are one game"
    if first in DETERMINISTIC and second in DETERMINISTIC:
        return "two deterministic players: nothing but the cards varies"
    return None


def league(
    levels: list[str], deals: int, seed: int, first_sequence_wins: bool = False
) -> dict[str, Any]:
    """Every pair of ``league_members(levels)`` in duplicate play over the same deals; matchups of
    two deterministic players are ``uninformative``, and ``standing`` is the mean over the others.
    """
    members = league_members(levels)
    matchups: list[dict[str, Any]] = []
    # Levels playing as one engine play the same games (same deals, same generators), so a
    # pair of engines is played once and reported under each pair of names.
    played: dict[tuple[str, str], dict[str, Any]] = {}
    for i, first in enumerate(members):
        for second in members[i + 1 :]:
            engines = (engine_of(first), engine_of(second))
            report = played.get(engines)
            if report is None:
                report = played[engines] = duplicate(
                    [first, second], deals, seed, first_sequence_wins
                )
            named = [
                row | {"level": level}
                for row, level in zip(report["levels"], (first, second), strict=True)
            ]
            matchups.append(
                report | {"levels": named, "uninformative": uninformative(first, second)}
            )
    standing: dict[str, dict[str, Any]] = {}
    for member in members:
        scores = [
            row["score"]
            for report in matchups
            if report["uninformative"] is None
            for row in report["levels"]
            if row["level"] == member
        ]
        standing[member] = {
            "plays_as": engine_of(member),
            "mean_score": sum(scores) / len(scores) if scores else None,
            "matchups": len(scores),
        }
    return {
        "deals": deals,
        "seed": seed,
        "members": members,
        "matchups": matchups,
        "standing": standing,
    }


def _move_ms(move_times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        level: {
            "p50": 1000 * _percentile(times, 0.50),
            "p99": 1000 * _percentile(times, 0.99),
            "max": 1000 * max(times),
            "moves": len(times),
        }
        for level, times in move_times.items()
    }
