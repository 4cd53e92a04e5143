"""Renderers take a frozen snapshot of the table (ISSUE 21 item 5): the lobby and every
game's messages are drawn from a ``TableSnapshot``, never from the table or its store row,
and a snapshot keeps showing the moment it was taken while the table plays on."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.timers import TableTimers
from bot.ui.lobby import lobby_buttons, lobby_embed
from bot.ui.rules import table_rules_embed
from tests.fakes import FakeClock
from tests.tables.test_service import CHANNEL, GUILD, make_service

ROOT = Path(__file__).resolve().parents[2]
HOST = 1


@pytest.mark.parametrize("kind", list(Games()))
async def test_every_game_draws_from_a_frozen_snapshot(db: Database, kind: str) -> None:
    clock = FakeClock()
    service = make_service(db, clock)
    game = Games().shown(kind)
    demo = game.demos[0]
    lobby = await service.open_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="Host",
        kind=kind,
        settings=dict(demo.settings),
        seat_host=False,
    )
    for level in demo.bot_levels:
        await service.add_bot(lobby.id, HOST, level)
    lobby = await service.get(lobby.id)
    seen = lobby.snapshot()
    assert lobby_embed(game, seen).title == f"{game.title(lobby.settings)} · table #{lobby.id}"
    assert [b.action for b in lobby_buttons(game, seen)][:4] == ["join", "leave", "start", "cancel"]

    change = await service.start(lobby.id, HOST)
    snap = change.table.snapshot()
    drawn = game.turn_view(snap).embed.to_dict()
    rules = table_rules_embed(game, snap).to_dict()
    assert snap.status == "running" and snap.kind == kind and snap.version == change.table.version
    # Frozen: a renderer can change nothing, neither the snapshot nor the table behind it.
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.status = "finished"  # type: ignore[misc]
    with pytest.raises(TypeError):
        snap.settings["x"] = 1  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.seats[0].name = "Mallory"  # type: ignore[misc]
    assert isinstance(snap.seats, tuple) and isinstance(snap.events, tuple)
    assert not hasattr(snap, "row")

    # The bot players play on; the snapshot still shows the turn it was taken at.
    for _ in range(3):
        clock.now += 60
        await TableTimers(service.kernel).run_due()
    moved = await service.get(lobby.id)
    assert moved.version > snap.version
    assert game.turn_view(moved.snapshot()).embed.to_dict() != drawn
    assert game.turn_view(snap).embed.to_dict() == drawn
    assert table_rules_embed(game, snap).to_dict() == rules


def _reads_of_the_store_row(path: Path) -> list[int]:
    """Lines where ``table.row`` (or ``<x>.table.row``) is read."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr == "row":
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if name in ("table", "fresh", "final"):
                lines.append(node.lineno)
    return lines


def test_no_renderer_reads_the_store_row() -> None:
    """Every game's presentation and the lobby draw from the snapshot: no ``table.row``."""
    renderers = [
        *(ROOT / "bot" / "games").rglob("*.py"),
        ROOT / "bot" / "ui" / "lobby.py",
        ROOT / "bot" / "ui" / "rules.py",
    ]
    found = {
        str(path.relative_to(ROOT)): lines
        for path in renderers
        if (lines := _reads_of_the_store_row(path))
    }
    assert found == {}
