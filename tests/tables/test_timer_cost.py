"""Issue 26.5: what a tick of many timers costs beyond its saves.

A table loaded from its row resolves no type hints once its types have been seen (they
cost tens of microseconds a class, three classes an event: they were 40% of a tick of
10,000 timers); the cyclic garbage collector is paused while a tick fires (the fired tables
it holds made every collection move them on and start full collections of the heap); and
the JSON the store writes reads back to the same values as the standard library's.
"""

from __future__ import annotations

import gc
import json
import random
import typing

import pytest

from bot.config import Settings
from bot.games.registry import Games
from bot.store import jsontext
from bot.store.db import Database
from bot.tables import events, values
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
ANA, BO = 1, 2


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def _running(db: Database, clock: FakeClock) -> tuple[TableService, int]:
    settings = Settings(_env_file=None, start_cooldown_seconds=0)
    service = TableService(
        TableKernel(db, Games(), settings.table_limits(), clock, random.Random(3))
    )
    table = await service.open_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        kind="sequences",
        settings={"variant": "standard", "rounds": 3, "target": None, "soft_last_die": False},
    )
    await service.join(table.id, BO, "Bo")
    await service.start(table.id, ANA)
    return service, table.id


async def test_a_table_loaded_again_resolves_no_type_hints(
    db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, table_id = await _running(db, clock)
    for _ in range(4):  # a few turns timed out: the row holds typed events
        clock.advance(10_000)
        await TableTimers(service.kernel).run_due()
    first = await service.get(table_id)
    assert len(first.events) >= 3
    resolved: list[object] = []
    real = typing.get_type_hints

    def counting(*args: object, **kwargs: object) -> object:
        resolved.append(args[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    for module in (values, events):
        if hasattr(module, "get_type_hints"):
            monkeypatch.setattr(module, "get_type_hints", counting)
    again = await service.get(table_id)
    assert again.events == first.events and again.rules == first.rules
    assert resolved == []
    # and its state is written back as it was read (the events' JSON kept, not redone)
    assert again.to_state() == again.row.state


async def test_the_collector_is_paused_while_a_tick_fires(db: Database, clock: FakeClock) -> None:
    service, table_id = await _running(db, clock)
    seen: list[bool] = []
    kernel = service.kernel
    save = kernel.save

    async def watched(*args: typing.Any) -> typing.Any:  # every timer fired saves
        seen.append(gc.isenabled())
        return await save(*args)

    kernel.save = watched  # type: ignore[method-assign]
    assert gc.isenabled()
    clock.advance(10_000)
    [change] = await TableTimers(kernel).run_due()
    assert change.table.id == table_id
    assert seen == [False]
    assert gc.isenabled()  # on again after the tick
    gc.disable()  # someone else's pause is left as it is
    try:
        clock.advance(10_000)
        await TableTimers(kernel).run_due()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_stored_json_reads_back_as_the_standard_librarys() -> None:
    state = {
        "seats": [{"user_id": 2**63 - 1, "name": "Zoë ✨", "bot_level": None}],
        "totals": (1, 2),
        "turn_started_at": 1780000000.25,
        "counts": {3: "three"},  # a key that is not a string is written as one, as json does
        "nested": {"a": [True, False, None, 0.1]},
    }
    text = jsontext.dumps(state)
    assert isinstance(text, str)
    assert json.loads(text) == json.loads(json.dumps(state))
    assert jsontext.loads(json.dumps(state)) == json.loads(json.dumps(state))
