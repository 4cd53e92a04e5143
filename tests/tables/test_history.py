"""The log is the truth (issue 15): every finished game, rebuilt from its action log alone
through the rules with the dice and cards it recorded, ends in the stored state and results.

Games of every kind and variant are played through the table service (clicks, bot moves,
timed-out turns, a resignation), then ``python -m bot verify-log`` checks them; the soak's
database is checked the same way; a log with one die changed is reported at its step.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.config import Settings
from bot.games.board import BoardGame, BoardKind
from bot.games.registry import Games
from bot.sim.soak import soak
from bot.store import games
from bot.store.db import Database
from bot.tables.fair_play import FairPlay
from bot.tables.history import replay, verify_all, verify_game
from bot.tables.kernel import TableKernel
from bot.tables.model import Seat
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
ANA, BO = 1, 2
TIMEOUT = 60

SEQ = {"variant": "standard", "rounds": 3, "target": None, "soft_last_die": False}
# (kind, settings, bot players beside Ana and Bo): every kind and variant. A negative
# count: no bot players, and Bo never resigns (the board game played to its end by two).
VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("sequences", SEQ, 1),
    ("sequences", {**SEQ, "variant": "reverse", "soft_last_die": True}, 1),
    ("sequences", {**SEQ, "variant": "extended", "rounds": None, "target": 40}, 0),
    ("sequences", {**SEQ, "variant": "team"}, 2),
    ("sequences", {**SEQ, "variant": "sudden", "rounds": None}, 1),
    ("oneroll", {"ruleset": "classic", "target": 60}, 1),
    ("oneroll", {"ruleset": "heartsdue", "target": 40}, 0),
    ("board", {"seats": None, "teams": None, "first_sequence_wins": False}, 0),
    ("board", {"seats": None, "teams": None, "first_sequence_wins": False}, -1),
    ("board", {"seats": None, "teams": None, "first_sequence_wins": True}, 2),
    ("board", {"seats": None, "teams": 3, "first_sequence_wins": False}, 4),
]


def make_service(db: Database, clock: FakeClock, seed: int, kinds: Any = None) -> TableService:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        start_cooldown_seconds=0,
        bot_turn_delay_seconds=1,
        turn_timeout_seconds=TIMEOUT,
    )
    return TableService(
        TableKernel(db, kinds or Games(), settings.table_limits(), clock, random.Random(seed))
    )


async def play_game(
    service: TableService, clock: FakeClock, kind: str, settings: dict[str, Any], bots: int
) -> int:
    """Ana hosts, Bo and ``bots`` bot players join; Ana and Bo click random buttons or let
    a turn time out now and then (each one's first turn); Bo resigns at a later turn of
    his.
    Returns the finished game's id."""
    rng = random.Random(f"{kind}{sorted(settings.items())}")
    table = await service.open_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        kind=kind,
        settings=settings,
    )
    await service.join(table.id, BO, "Bo")
    for _ in range(bots):
        await service.add_bot(table.id, ANA)
    resigns = bots >= 0
    change = await service.start(table.id, ANA)
    seen: set[int] = set()  # members who had a turn: each one's first turn runs out
    timed_out: set[int] = set()  # members whose last turn ran out: they play this one
    for _ in range(5_000):
        table = change.table
        if table.status != "running":
            break
        game = table.game
        seat = game.current_seat(table.rules)
        user = table.seats[seat].user_id
        # Bo resigns once Ana is present (a game with no member present is abandoned).
        if resigns and user == BO and BO in seen and ANA not in timed_out:
            change = await FairPlay(service.kernel).resign(table.id, BO)
        elif user is None or user not in seen or (user not in timed_out and rng.random() < 0.1):
            # A bot's move, or a member's turn run out (played for them, RULINGS §4).
            if user is not None:
                seen.add(user)
                timed_out.add(user)
            clock.advance(TIMEOUT + 1)
            [change] = await TableTimers(service.kernel).run_due()
        else:
            timed_out.discard(user)
            action = rng.choice(game.playable_actions(table.rules))
            change = await service.act(table.id, user, table.version, action)
    assert change.table.status == "finished", change.table.status
    return change.table.id


@pytest.mark.parametrize(("kind", "settings", "bots"), VARIANTS)
def test_every_kind_and_variant_replays_from_its_log(
    tmp_path: Path, kind: str, settings: dict[str, Any], bots: int
) -> None:
    path = tmp_path / "bot.sqlite3"

    async def play_and_check() -> None:
        async with await Database.open(path) as db:
            clock = FakeClock()
            service = make_service(db, clock, seed=len(str(settings)))
            game_id = await play_game(service, clock, kind, settings, bots)
            verdict = await verify_game(db, Games(), game_id)
            assert (verdict.status, verdict.why) == ("ok", "")
            entries = await games.log_entries(db, game_id)
        kinds = Counter(e["kind"] for e in entries)
        assert kinds["action"] and kinds["timeout"] and kinds["resign"] == (bots >= 0), kinds
        # One state per logged step, plus the initial one.
        steps = sum(len(e["detail"].get("steps", ())) for e in entries)
        assert verdict.steps == steps > 0
        assert len(list(replay(Games()[kind], entries))) == steps + 1

    asyncio.run(play_and_check())
    assert main(["verify-log", "--database", str(path)]) == 0


class ShortPileBoard(BoardKind):
    """The board game dealt with all but one card of the draw pile already discarded, so
    the second move reshuffles the discards."""

    def start(self, settings: dict[str, Any], seats: list[Seat], rng: random.Random) -> Any:
        state = super().start(settings, seats, rng)
        return replace(state, draw_pile=state.draw_pile[-1:], discards=state.draw_pile[:-1])


def test_a_board_reshuffle_is_logged_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    kinds = Games([BoardGame(ShortPileBoard())])

    async def play() -> int:
        async with await Database.open(path) as db:
            clock = FakeClock()
            service = make_service(db, clock, seed=5, kinds=kinds)
            settings = {"seats": None, "teams": None, "first_sequence_wins": False}
            return await play_game(service, clock, "board", settings, bots=0)

    async def check() -> tuple[Any, list[dict[str, Any]]]:
        async with await Database.open(path) as db:
            return await verify_game(db, kinds, game_id), await games.log_entries(db, game_id)

    game_id = asyncio.run(play())
    verdict, entries = asyncio.run(check())
    assert verdict.status == "ok", verdict.why
    reshuffles = [
        step for e in entries for step in e["detail"].get("steps", ()) if step.get("reshuffled")
    ]
    assert reshuffles and all(len(step["reshuffle"]) > 1 for step in reshuffles)
    assert reshuffles[0]["reshuffle"][-1] == reshuffles[0]["drawn"]

    # A game logged before the order was: clearly not replayable, not a difference.
    tamper(path, game_id, lambda step: step.pop("reshuffle", None) is not None, every=True)
    old, _ = asyncio.run(check())
    assert old.status == "not replayable"
    assert "reshuffled" in old.why and "does not say in which order" in old.why


def tamper(path: Path, game_id: int, change: Any, every: bool = False) -> int:
    """Apply ``change(step) -> bool`` to the game's logged steps until it changes one (or,
    ``every``, to all of them); returns the seq of the first log entry it changed."""
    first = None
    conn = sqlite3.connect(path)
    with conn:
        for seq, raw in conn.execute(
            "SELECT seq, detail_json FROM game_log WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall():
            detail = json.loads(raw)
            changed = (
                [change(step) for step in detail.get("steps", ())]
                if every
                else [any(change(step) for step in detail.get("steps", ()))]
            )
            if any(changed):
                conn.execute(
                    "UPDATE game_log SET detail_json = ? WHERE game_id = ? AND seq = ?",
                    (json.dumps(detail), game_id, seq),
                )
                first = first or int(seq)
                if not every:
                    break
    conn.close()
    assert first is not None, "nothing to tamper with"
    return first


def other_face(step: dict[str, Any]) -> bool:
    """One-roll: the first die of the first throw shows another face (an opening throw's
    sum changes, so its record no longer fits its dice)."""
    step["dice"][0] = step["dice"][0] % 6 + 1
    return True


def bust_to_throw(step: dict[str, Any]) -> bool:
    """Push-your-luck: the first bust gets, in place of its first die, the face the run
    needed, so the rules see a throw where the log says bust."""
    event = step.get("event")
    if not event or event["kind"] != "bust" or step["action"]["type"] == "bonus":
        return False
    needed = (1, 2, 3, 4, 5, 6)[len(event["run"])]
    event["dice"][0] = needed
    return True


@pytest.mark.parametrize(
    ("kind", "settings", "change"),
    [
        ("oneroll", {"ruleset": "classic", "target": 60}, other_face),
        ("sequences", {**SEQ, "rounds": 3}, bust_to_throw),
    ],
)
def test_a_tampered_die_is_reported_with_its_step(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    settings: dict[str, Any],
    change: Any,
) -> None:
    path = tmp_path / "bot.sqlite3"

    async def play() -> tuple[int, int]:
        async with await Database.open(path) as db:
            clock = FakeClock()
            game_id = await play_game(make_service(db, clock, seed=2), clock, kind, settings, 1)
            other_id = await play_game(make_service(db, clock, seed=3), clock, kind, settings, 1)
        return game_id, other_id

    game_id, other_id = asyncio.run(play())
    seq = tamper(path, game_id, change)
    assert main(["verify-log", "--database", str(path)]) == 1
    out = capsys.readouterr().out
    assert "2 finished games checked" in out and "1 match, 1 differ" in out
    assert f"game {game_id} ({games_key(kind, settings)}) DIFFERS" in out
    assert f"first differing step: log entry {seq} (" in out
    assert f"game {other_id} " not in out


def games_key(kind: str, settings: dict[str, Any]) -> str:
    return Games()[kind].game_key(settings)


def test_the_soak_database_replays_from_its_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "soak.sqlite3"
    _, failure = asyncio.run(soak(3_000, 1, path))
    assert failure is None

    async def check() -> list[Any]:
        async with await Database.open(path) as db:
            return await verify_all(db, Games())

    verdicts = asyncio.run(check())
    assert all(v.status == "ok" for v in verdicts), [v for v in verdicts if v.status != "ok"]
    by_key = Counter(v.game_key for v in verdicts)
    # Every game the soak plays: its two push-your-luck variants, one-roll and the board.
    assert set(by_key) == {"sequences:standard", "sequences:sudden", "heartsdue", "board"}
    assert main(["verify-log", "--database", str(path)]) == 0
    assert f"{len(verdicts)} finished games checked" in capsys.readouterr().out
