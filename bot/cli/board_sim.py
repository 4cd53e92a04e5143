"""``python -m bot board-sim``: play seeded board games between bot levels and report win rates with
intervals, draws, game lengths and move times; ``--duplicate``, ``--league`` and ``--parity`` are
described in docs/board-rules.md, "The tools: board-sim and board-fit"."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.errors import UserError
from bot.rules.board import LEVELS, PLAYER_LEVELS
from bot.rules.board.kernel import compiled
from bot.rules.board.levels import EXPERIMENTS
from bot.sim.board import duplicate, league, simulate
from bot.sim.board_parity import parity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument(
        "--seats",
        default="strong,greedy",
        help=f"comma-separated bot level per seat, in turn order (levels: {', '.join(LEVELS)})",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run")
    parser.add_argument("--teams", type=int, default=None, help="number of teams (4+ seats)")
    parser.add_argument(
        "--first-sequence-wins", action="store_true", help="play the one-sequence variant"
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal twice, sides swapped (2 seats, or 4/6 with two levels alternating)",
    )
    parser.add_argument(
        "--league",
        nargs="?",
        const=",".join(PLAYER_LEVELS),
        default=None,
        metavar="LEVELS",
        help="with --duplicate: every pair of LEVELS (default: the player levels), strong, greedy",
    )
    parser.add_argument(
        "--parity",
        type=int,
        default=0,
        metavar="N",
        help="roll N seeded games out by the compiled kernel and by Python and compare them",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_parity(args: argparse.Namespace) -> int:
    if compiled() is None:
        print("error: the compiled board kernel is not available here", file=sys.stderr)
        return 2
    report = parity(args.parity, args.seed)
    if args.json:
        print(json.dumps(report))
    else:
        spent = report["cpu_seconds"]
        speed = report["us_per_ply"]
        print(
            f"{report['agree']} of {report['games']} games agree move for move"
            f" ({report['plies']} plies, seed {args.seed})"
        )
        print(
            f"  python {spent['python']:.1f} s ({speed['python']:.1f} us a ply),"
            f" compiled {spent['compiled']:.1f} s ({speed['compiled']:.1f} us a ply)"
        )
        if report["first_difference"] is not None:
            print(f"  first difference: {report['first_difference']}")
    return 0 if report["agree"] == report["games"] else 1


def _matchup_lines(report: dict[str, Any]) -> list[str]:
    first, second = report["levels"]
    low, high = first["score_ci95"]
    line = (
        f"  {first['level']} vs {second['level']}: {first['level']} wins {first['score']:.1%}"
        f" of the games (95% CI {low:.1%}-{high:.1%}); from both seats {first['level']}"
        f" {first['wins_both']:.1%}, {second['level']} {second['wins_both']:.1%};"
        f" the cards decide {report['same_seat_wins_both']:.1%}"
    )
    why = report["uninformative"]
    return [line] if why is None else [line, f"    uninformative: {why}"]


def _run_league(args: argparse.Namespace, levels: list[str]) -> int:
    report = league(levels, args.games, args.seed, args.first_sequence_wins)
    if args.json:
        print(json.dumps(report))
        return 0
    members = report["members"]
    print(
        f"League of {len(members)} levels at 2 seats, {args.games} deals a pair, each played"
        f" twice with sides swapped, seed {args.seed}"
    )
    for matchup in report["matchups"]:
        for line in _matchup_lines(matchup):
            print(line)
    print("Standing (mean share of the games won over its informative matchups):")
    ranked = sorted(members, key=lambda m: -(report["standing"][m]["mean_score"] or 0.0))
    for member in ranked:
        row = report["standing"][member]
        alias = f" (plays as {row['plays_as']})" if row["plays_as"] != member else ""
        mean = "-" if row["mean_score"] is None else f"{row['mean_score']:.1%}"
        print(f"  {member}{alias}: {mean} over {row['matchups']} matchups")
    return 0


def _run_duplicate(args: argparse.Namespace, levels: list[str]) -> int:
    try:
        report = duplicate(levels, args.games, args.seed, args.first_sequence_wins)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{args.games} deals at {report['seats']} seats, each played twice with sides swapped,"
        f" seed {args.seed}"
    )
    for row in report["levels"]:
        low, high = row["score_ci95"]
        print(
            f"  {row['level']:>7} wins from both sides: {row['wins_both']:6.1%}"
            f"  (win rate {row['win_rate']:.1%}; games won {row['score']:.1%},"
            f" 95% CI {low:.1%}-{high:.1%})"
        )
    print(f"  the same side wins both (the cards decide): {report['same_seat_wins_both']:.1%}")
    print(f"  a drawn game in the pair: {report['with_a_drawn_game']:.1%}")
    for level, row in report["move_cpu_ms"].items():
        print(
            f"  {level:>7} move (processor time): p50 {row['p50']:.2f} ms, p99 {row['p99']:.2f} ms"
        )
    return 0


def run(args: argparse.Namespace) -> int:
    levels = [level.strip() for level in args.seats.split(",") if level.strip()]
    unknown = [level for level in levels if level not in (*LEVELS, *EXPERIMENTS)]
    if args.parity < 0:
        print("error: --parity takes a number of games", file=sys.stderr)
        return 2
    if unknown or args.games < 1:
        problem = f"unknown level {unknown[0]!r}" if unknown else "--games must be at least 1"
        print(f"error: {problem} (levels: {', '.join(LEVELS)})", file=sys.stderr)
        return 2
    if args.parity:
        return _run_parity(args)
    if args.league is not None:
        members = [level.strip() for level in args.league.split(",") if level.strip()]
        wrong = [level for level in members if level not in (*LEVELS, *EXPERIMENTS)]
        if wrong or not args.duplicate:
            problem = f"unknown level {wrong[0]!r}" if wrong else "--league needs --duplicate"
            print(f"error: {problem} (levels: {', '.join(LEVELS)})", file=sys.stderr)
            return 2
        return _run_league(args, members)
    if args.duplicate:
        return _run_duplicate(args, levels)
    try:
        report = simulate(levels, args.games, args.seed, args.teams, args.first_sequence_wins)
    except (ValueError, UserError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['games']} games, seats {','.join(levels)}, seed {report['seed']}")
    for level, row in report["levels"].items():
        low, high = row["ci95"]
        # A level seated on every side wins every decided game: say so rather than mislead.
        mirror = "  (plays every side)" if row["every_side"] else ""
        print(f"  {level:>7}: wins {row['rate']:6.1%}  (95% CI {low:.1%}-{high:.1%}){mirror}")
    for row in report["by_side"]:
        low, high = row["ci95"]
        who = "+".join(row["levels"])
        print(f"  side {row['side']} ({who}): {row['rate']:6.1%}  (95% CI {low:.1%}-{high:.1%})")
    reasons = report["draw_reasons"]
    print(
        f"  drawn {report['draws']} (no card playable {reasons['blocked']},"
        f" two idle reshuffles {reasons['stalled']}, a round of idle passes"
        f" {reasons['passed']}), unfinished {report['unfinished']}"
    )
    print(f"  average length {report['avg_turns']:.1f} turns")
    for level, row in report["move_ms"].items():
        print(
            f"  {level:>7} move: p50 {row['p50']:.2f} ms, p99 {row['p99']:.2f} ms, "
            f"max {row['max']:.2f} ms over {row['moves']} moves"
        )
    print(f"  {report['game_ms']:.1f} ms/game, {report['games_per_second']:.1f} games/s")
    return 0
