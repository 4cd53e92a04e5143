"""``python -m bot replay GAME_ID``: a finished game rebuilt from its log, as text (``--step N``) or
pictures (``--out FILE.png|gif``); public information only, never a hand. An unknown or unreplayable
game: one line, exit 2."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot.cli.run import add_database_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", type=int, metavar="GAME_ID", help="the finished game's id")
    add_database_option(parser)
    parser.add_argument(
        "--step", type=int, default=None, help="stop after step N (0: the start; clamped)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="write a picture: FILE.png with --step, else an animated FILE.png or FILE.gif",
    )


class Refused(Exception):
    """One line saying why the game cannot be replayed (exit 2)."""


def run(args: argparse.Namespace) -> int:
    from bot.cli.run import existing_database
    from bot.store.db import DatabaseUnusable

    target = existing_database(args.database)
    if target is None:
        return 2
    suffix = args.out.suffix.lower() if args.out is not None else ""
    if args.out is not None and suffix not in (".png", ".gif"):
        print("error: --out must name a .png or .gif file", file=sys.stderr)
        return 2
    if args.out is not None and args.step is not None and suffix != ".png":
        print("error: a single step is written as a .png", file=sys.stderr)
        return 2
    try:
        game, seats, moments = asyncio.run(_load(target, args.game_id))
        last = len(moments) - 1
        step = last if args.step is None else max(0, min(last, args.step))
        if args.step is not None and step != args.step:
            print(
                f"step {args.step} is out of range 0-{last}: showing step {step}", file=sys.stderr
            )
        shown = moments[: step + 1]
        if args.out is None:
            text = game.replay_text(shown, seats)
            if text is None:
                raise Refused(f"game {args.game_id} ({game.name}) has no text replay")
            print(text)
            return 0
        if args.step is not None:
            data = game.replay_picture(shown, seats)
        else:
            data = game.replay_animation(moments, seats, suffix[1:])
        if data is None:
            raise Refused(f"game {args.game_id} ({game.name}) has no pictures: leave out --out")
    except Refused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.write_bytes(data)
    what = f"step {step} of {last}" if args.step is not None else f"{last} steps animated"
    print(f"wrote {args.out} ({what}, {len(data):,} bytes)")
    return 0


async def _load(target: str | Path, game_id: int) -> tuple[Any, list[Any], list[Any]]:
    """The game's presentation, its seats and every moment of its replay; ``Refused`` if none."""
    from bot.games.registry import Games
    from bot.store import games
    from bot.store.db import Database
    from bot.tables.history import StepMismatch, replay, start_of
    from bot.tables.kind import NotReplayable

    async with await Database.open(target) as db:
        row = await games.get(db, game_id)
        if row is None:
            raise Refused(f"no game {game_id}")
        if row.status != "finished":
            raise Refused(f"game {game_id} is not finished ({row.status}): only finished games")
        kind = row.state.get("kind", "?")
        kinds = Games()
        if kind not in kinds:
            raise Refused(f"game {game_id} is not replayable: unknown game kind {kind!r}")
        game = kinds.shown(kind)
        entries = await games.log_entries(db, game_id)
    try:
        seats, _ = start_of(entries)
        moments = list(replay(game.kind, entries))
    except (NotReplayable, StepMismatch, NotImplementedError) as exc:
        raise Refused(f"game {game_id} is not replayable: {exc or 'no replay'}") from None
    return game, seats, moments
