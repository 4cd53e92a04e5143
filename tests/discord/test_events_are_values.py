"""State holds values, never sentences (issue 21): every game and variant played through the
harness saves its recent events as typed JSON objects, worded only when a message is drawn;
and games saved by the code before (their events English lines) upgrade and play on."""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import presentation
from bot.games.words import event_lines
from bot.store import games as store
from bot.tables.events import event_types, load_event
from bot.tables.model import Table
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player

FIXTURE = Path(__file__).parents[1] / "fixtures" / "events_ab79e61.sqlite3"
NAME_FIELDS = {"left", "name"}  # a member's name, kept where no seat names them any more

PUSH = {"rounds": 1}
GAMES: list[tuple[str, dict[str, Any], list[str]]] = [
    # command, options, bot players
    ("sequences start", {"variant": "standard", **PUSH}, []),
    ("sequences start", {"variant": "reverse", **PUSH}, []),
    ("sequences start", {"variant": "team", "target": 10}, ["optimal", "bold"]),
    ("sequences start", {"variant": "sudden"}, []),
    ("sequences start", {"variant": "extended", **PUSH}, ["bold"]),
    ("sequences start", {"rules": "classic", "target": 20}, []),
    ("heartsdue start", {"target": 20}, []),
    ("board start", {"first_sequence_wins": True}, []),
    ("board start", {"first_sequence_wins": True}, ["easy", "medium"]),
]


def strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)


def assert_values_only(state: dict[str, Any]) -> None:
    """Every event is a typed JSON object that loads back as itself, and holds no sentence:
    its strings are codes and cards (no spaces), but for the name of a member with no seat."""
    assert "notice" not in state  # a notice lives for one render, and is a value there
    for event in state.get("events", []):
        assert isinstance(event, dict) and event.get("type") in event_types(), event
        assert load_event(event).dump() == event
        for key, text in strings(event):
            assert key in NAME_FIELDS or not re.search(r"\s", text), (key, text, event)


@pytest.fixture
def saves(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every state the table service writes to the games table, as it is written."""
    seen: list[dict[str, Any]] = []
    for name in ("insert", "update", "save"):
        real = getattr(store, name)

        def spy(*args: Any, _real: Any = real) -> Any:
            # insert(conn, row); update(row, ...), save(row, ...): the values of a change
            row = next(a for a in args if isinstance(a, store.GameRow))
            seen.append(json.loads(json.dumps(row.state)))
            return _real(*args)

        monkeypatch.setattr(store, name, spy)
    return seen


def turn_message(env: Env, table: Table) -> Message:
    """The message with the table's buttons of its current version."""
    prefix = f"t:{table.id}:{table.version}:"
    for message in reversed(env.h.messages(ephemeral=False)):
        if any(b.custom_id.startswith(prefix) for b in message.buttons):
            return message
    raise AssertionError(f"no message shows game #{table.id} at version {table.version}")


async def play_turn(env: Env, table: Table, player: Player, rng: random.Random) -> None:
    """One press (a dice game: the best button; the board: a card from the hand)."""
    message = turn_message(env, table)
    action = presentation(table.game).member_button(table.rules, rng)
    if action is not None:
        reply = await player.click(message, custom_id=f"t:{table.id}:{table.version}:{action}")
        assert not reply.ephemeral, reply.text
        return
    if "hand" not in table.game.playable_actions(table.rules) and not any(
        b.custom_id.endswith(":hand") for b in message.buttons
    ):  # one-roll: one button, no decision
        action = table.game.playable_actions(table.rules)[0]
        reply = await player.click(message, custom_id=f"t:{table.id}:{table.version}:{action}")
        assert not reply.ephemeral, reply.text
        return
    reply = await player.click(message, custom_id=f"t:{table.id}:{table.version}:hand")
    for _ in range(4):
        assert reply.ephemeral, reply.text
        labels = [lb for lb in reply.message.labels if lb and lb not in ("Refresh", "Back")]
        label = next((lb for lb in labels if lb.startswith(("Pass", "Trade"))), labels[0])
        reply = await player.click(reply.message, label)
        if label.startswith("Pass") or "choose" not in reply.text:
            return
    raise AssertionError("a board turn took more than four clicks")


async def play_out(
    env: Env,
    table_id: int,
    players: dict[int, Player],
    saves: list[dict[str, Any]],
    time_out: bool = True,
    seen: set[str] | None = None,
) -> Table:
    """Members press, bot players move, and once (``time_out``) a member's timer runs out;
    every state saved on the way is checked."""
    rng = random.Random(table_id)
    timed_out = not time_out
    for _ in range(2000):
        table = await env.bot.tables.get(table_id)
        for state in saves:
            assert_values_only(state)
            (seen if seen is not None else set()).update(e["type"] for e in state["events"])
        saves.clear()
        if table.status != "running":
            return table
        seat = table.seats[table.game.current_seat(table.rules)]
        if seat.is_bot:  # its move is due at the row's deadline
            env.clock.now = max(env.clock.now, table.row.deadline or 0)
            await env.tick()
        elif not timed_out:
            timed_out = True
            await env.tick(env.settings.turn_timeout_seconds + 1)
        else:
            await play_turn(env, table, players[seat.user_id or 0], rng)
    raise AssertionError(f"game #{table_id} did not finish")


@pytest.mark.parametrize(("command", "options", "bots"), GAMES, ids=lambda v: str(v))
async def test_every_game_saves_its_events_as_values(
    make_env: MakeEnv,
    saves: list[dict[str, Any]],
    command: str,
    options: dict[str, Any],
    bots: list[str],
) -> None:
    env = await make_env(seed=21)
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = (await ana.slash(command, **options)).message
    for player in (bo, cy):
        lobby = (await player.click(lobby, "Join")).message
    lobby = (await ana.click(lobby, "Leave")).message  # Bo hosts now
    assert "👑 Ana left, so Bo is the host now." in lobby.text
    for level in bots:
        lobby = (await bo.click(lobby, f"Add bot: {level}")).message
    seen: set[str] = set()
    for state in saves:  # the lobby's saves
        assert_values_only(state)
        seen.update(e["type"] for e in state["events"])
    saves.clear()
    await bo.click(lobby, "Start")
    table = await play_out(env, 1, {bo.id: bo, cy.id: cy}, saves, seen=seen)
    assert {"host_changed", "started", "timed_out"} <= seen and seen & {"won", "draw"}
    assert seen & {"sequences.turn", "oneroll.throw", "board.move"}, seen
    assert table.status == "finished"
    lines = event_lines(table)
    assert lines[-1].startswith(("🏆", "🤝")), lines
    stored = await env.bot.db.fetchone("SELECT state_json FROM games WHERE id = 1")
    assert_values_only(json.loads(stored[0]))


async def test_closed_tables_save_their_reason_as_a_code(
    make_env: MakeEnv, saves: list[dict[str, Any]]
) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana", manage_guild=True), await env.h.member("Bo")
    cancelled = (await ana.slash("sequences start")).message
    await ana.click(cancelled, "Cancel")
    expired = (await ana.slash("heartsdue start")).message
    await bo.click(expired, "Join")
    await env.tick(env.settings.lobby_timeout_seconds + 1)
    ended = (await ana.slash("board start")).message
    await bo.click(ended, "Join")
    await ana.click(ended, "Start")
    await ana.slash("board end", game=3)
    lines = [event_lines(await env.bot.tables.get(n))[-1] for n in (1, 2, 3)]
    assert lines == [
        "The host cancelled this table.",
        "Nobody started this table in time.",
        "Ended early by Ana.",
    ]
    assert saves
    for state in saves:
        assert_values_only(state)
    rows = await env.bot.db.fetchall(
        "SELECT detail_json FROM game_log WHERE kind IN ('cancelled', 'expired', 'ended')"
    )
    assert [json.loads(r[0])["reason"] for r in rows] == ["cancelled_by_host", "expired", "ended"]


async def test_games_saved_with_sentences_upgrade_and_play_to_the_end(
    make_env: MakeEnv, saves: list[dict[str, Any]], tmp_path: Path
) -> None:
    """A database written by the code before typed events (tests/fixtures/
    make_events_ab79e61.py): its lines show as they were, the first save after the upgrade
    drops them, and every game plays to its end."""
    env = await make_env(seed=8)
    members = {101: "Ana", 102: "Bo", 103: "Cy", 104: "Di"}
    players = {old: await env.h.member(name) for old, name in members.items()}
    # The fixture's server, channels and members were other ids: move them to this one's,
    # in the file, before the upgraded bot opens it.
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, path)
    old_lines: dict[int, list[str]] = {}
    with sqlite3.connect(path) as conn:
        for table_id, state_json, host in conn.execute(
            "SELECT id, state_json, host_id FROM games"
        ).fetchall():
            state = json.loads(state_json)
            assert all(isinstance(e, str) for e in state["events"])  # the old form
            old_lines[table_id] = state["events"]
            for seat in state["seats"]:
                if seat["user_id"] is not None:
                    seat["user_id"] = players[seat["user_id"]].id
            conn.execute(
                "UPDATE games SET guild_id = ?, channel_id = ?, host_id = ?, state_json = ?"
                " WHERE id = ?",
                (env.h.guild_id, env.h.channel.id, players[host].id, json.dumps(state), table_id),
            )
    conn.close()
    assert len(old_lines) == 10
    env.database = str(path)
    await env.restart()  # the upgraded bot starts on it, and shows every running game again

    for table_id, lines in old_lines.items():
        table = await env.bot.tables.get(table_id)
        assert event_lines(table) == lines  # shown as the old code wrote them
    lobby = await env.bot.tables.get(10)
    assert lobby.status == "lobby"
    by_id = {p.id: p for p in players.values()}
    started = await env.bot.tables.start(10, players[102].id)  # Bo hosts since Ana left
    assert_values_only(json.loads(json.dumps(started.table.to_state())))
    await env.restart()  # its first turn is shown like any running game's after a start

    for table_id in old_lines:
        saves.clear()
        # No timer runs out: the clock would pass the other games' deadlines too (and the
        # old games already hold timed-out turns).
        table = await play_out(env, table_id, by_id, saves, time_out=False)
        assert table.status == "finished", (table_id, table.status)
        stored = await db_state(env, table_id)
        assert_values_only(stored)
        assert not any(e["type"] == "legacy" for e in stored["events"])


async def db_state(env: Env, table_id: int) -> dict[str, Any]:
    row = await store.get(env.bot.db, table_id)
    assert row is not None
    return row.state
