"""The table service without Discord: lobbies, turns, stale clicks, timers, restarts."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest

from bot.config import Settings
from bot.errors import Forbidden, NotYourTurn, StaleAction, UserError
from bot.games.registry import Games
from bot.rules import pushluck as pl
from bot.store import games
from bot.store.db import Database
from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.names import clean_name
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
ANA, BO, CY = 1, 2, 3


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make_service(db: Database, clock: FakeClock, seed: int = 1) -> TableService:
    settings = Settings(_env_file=None, start_cooldown_seconds=0, bot_turn_delay_seconds=1)
    return TableService(
        TableKernel(db, Games(), settings.table_limits(), clock, random.Random(seed))
    )


async def open_two(service: TableService, **settings: object) -> int:
    base = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}
    table = await service.open_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        kind="sequences",
        settings={**base, **settings},
    )
    await service.join(table.id, BO, "Bo")
    return table.id


async def test_lobby_join_leave_and_refusals(db: Database, clock: FakeClock) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service)
    with pytest.raises(UserError, match="already at this table"):
        await service.join(table_id, BO, "Bo")
    change = await service.leave(table_id, BO)
    assert [s.name for s in change.table.seats] == ["Ana"]
    with pytest.raises(UserError, match="not at this table"):
        await service.leave(table_id, BO)
    with pytest.raises(Forbidden):
        await service.add_bot(table_id, BO, "optimal")
    with pytest.raises(UserError, match="needs 2 to 4"):
        await service.start(table_id, ANA)
    for _ in range(3):
        await service.add_bot(table_id, ANA, "cautious")
    with pytest.raises(UserError, match="full"):
        await service.join(table_id, CY, "Cy")


async def test_cancelling_or_the_last_member_leaving_closes_the_lobby(
    db: Database, clock: FakeClock
) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service)
    with pytest.raises(Forbidden):
        await service.cancel(table_id, BO, is_admin=False)
    change = await service.cancel(table_id, BO, is_admin=True)
    assert change.closed and change.table.status == "cancelled"
    with pytest.raises(StaleAction, match="closed"):
        await service.join(table_id, CY, "Cy")
    other = await open_two(service)
    change = await service.leave(other, ANA)  # Bo is still seated: he hosts now
    assert change.table.status == "lobby" and change.table.row.host_id == BO
    assert (await service.get(other)).row.host_id == BO
    change = await service.leave(other, BO)
    assert change.table.status == "cancelled"


async def test_lobby_expires_after_its_deadline(db: Database, clock: FakeClock) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service)
    clock.advance(14 * 60)
    assert await TableTimers(service.kernel).run_due() == []
    clock.advance(61)
    [change] = await TableTimers(service.kernel).run_due()
    assert change.table.id == table_id and change.table.status == "expired"


async def test_many_due_timers_are_read_at_once_and_saved_together(
    db: Database, clock: FakeClock
) -> None:
    """Issue 26.5: a tick with hundreds of timers due reads them a chunk at a time, one
    query each under the chunk's locks (not one read each), and sends their saves together
    (one UPDATE statement per batch of saves, not one per table); every turn still times
    out with its own log entry and new version."""
    from bot.sim.live_games import insert_live_copies

    service = make_service(db, clock)
    table_id = await open_two(service)
    await service.start(table_id, ANA)
    template = (await service.get(table_id)).row
    ids = await insert_live_copies(
        db, template, 300, place=lambda i: (CHANNEL, None), deadline=lambda i: clock() + 1
    )
    clock.advance(2)  # the copies' timers are due, the original's is not
    seen: list[str] = []
    trips: list[None] = []  # PostgreSQL: round trips to the server
    db.on_statement = seen.append
    db.on_round_trip = lambda: trips.append(None)
    changes = await TableTimers(service.kernel).run_due()
    db.on_statement = db.on_round_trip = None
    assert sorted(c.table.id for c in changes) == ids
    reads = [s for s in seen if s.startswith("SELECT")]
    assert len(reads) == 3, reads  # the due list, then the 300 in two chunks (256 + 44)
    if db.engine == "sqlite":  # one UPDATE (executemany) per batch
        updates = [s for s in seen if s.startswith("UPDATE games")]
        assert 2 <= len(updates) <= 6, len(updates)
    else:  # each save one statement, a batch of them one round trip (pipeline mode)
        assert 5 <= len(trips) <= 9, len(trips)
    for game_id in (ids[0], ids[-1]):
        row = (await service.get(game_id)).row
        assert row.version == template.version + 1
        assert (await games.log_entries(db, game_id))[-1]["kind"] == "timeout"
    assert (await service.get(table_id)).version == template.version  # not due: untouched


async def test_turns_only_for_the_seat_to_move_and_stale_clicks_change_nothing(
    db: Database, clock: FakeClock
) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service)
    change = await service.start(table_id, ANA)
    version = change.table.version
    with pytest.raises(NotYourTurn, match="Ana's turn"):
        await service.act(table_id, BO, version, "throw")
    with pytest.raises(NotYourTurn, match="not playing"):
        await service.act(table_id, CY, version, "throw")
    change = await service.act(table_id, ANA, version, "throw")
    assert change.table.version == version + 1
    # The same click again (a double click): refused, nothing applied.
    with pytest.raises(StaleAction, match="That throw is over"):
        await service.act(table_id, ANA, version, "throw")
    log = await games.log_entries(db, table_id)
    assert [e["kind"] for e in log].count("action") == 1


async def test_a_whole_game_is_recorded_with_results(db: Database, clock: FakeClock) -> None:
    service = make_service(db, clock, seed=7)
    table_id = await open_two(service)
    change = await service.start(table_id, ANA)
    for _ in range(200):
        table = change.table
        if table.status != "running":
            break
        state = table.rules
        user = [ANA, BO][state.current]
        action = "throw" if state.phase == "throw" else "bank"
        change = await service.act(table_id, user, table.version, action)
    assert change.finished and change.table.status == "finished"
    rows = await db.fetchall(
        "SELECT user_id, won, place, score FROM game_results WHERE game_id = ? ORDER BY seat",
        (table_id,),
    )
    assert len(rows) == 2
    state = change.table.rules
    assert state.outcome is not None
    assert [bool(r["won"]) for r in rows] == [s in state.outcome.winners for s in (0, 1)]
    assert [r["score"] for r in rows] == list(state.totals)


async def test_timeouts_play_for_the_absent_seat_and_three_abandon(
    db: Database, clock: FakeClock
) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service, rounds=10)
    change = await service.start(table_id, ANA)
    assert change.table.row.deadline == clock.now + 180
    statuses = []
    for _ in range(6):
        clock.advance(181)
        fired = await TableTimers(service.kernel).run_due()
        assert len(fired) == 1
        statuses.append(fired[0].table.status)
        if fired[0].table.status != "running":
            break
    # Ana and Bo both miss turns alternately; Ana's third miss comes on the fifth timeout.
    assert statuses == ["running", "running", "running", "running", "abandoned"]
    log = await games.log_entries(db, table_id)
    assert [e["kind"] for e in log].count("timeout") == 4


async def test_acting_resets_the_expiry_count(db: Database, clock: FakeClock) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service, rounds=10)
    await service.start(table_id, ANA)
    for _ in range(2):
        clock.advance(181)
        await TableTimers(service.kernel).run_due()  # Ana times out, then Bo times out
    table = await service.get(table_id)
    assert table.expiries == [1, 1]
    change = await service.act(table_id, ANA, table.version, "throw")
    assert change.table.expiries[0] == 0


async def test_bot_players_move_on_their_timer(db: Database, clock: FakeClock) -> None:
    service = make_service(db, clock)
    table = await service.open_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        kind="sequences",
        seat_host=False,
        settings={"variant": "standard", "rounds": 2, "target": None, "soft_last_die": False},
    )
    await service.add_bot(table.id, ANA, "cautious")
    await service.add_bot(table.id, ANA, "bold")
    change = await service.start(table.id, ANA)
    for _ in range(500):
        if change.table.status != "running":
            break
        clock.now = (change.table.row.deadline or clock.now) + 0.001
        [change] = await TableTimers(service.kernel).run_due()
    assert change.table.status == "finished"


async def test_restart_continues_from_the_database(clock: FakeClock, tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    first = await Database.open(path)
    service = make_service(first, clock)
    table_id = await open_two(service)
    change = await service.start(table_id, ANA)
    change = await service.act(table_id, ANA, change.table.version, "throw")
    await first.close()  # the bot stops

    second = await Database.open(path)
    try:
        fresh = make_service(second, clock)
        [live] = await fresh.live_tables()
        assert live.id == table_id and live.version == change.table.version
        assert live.rules == change.table.rules
        state = live.rules
        action = "bank" if state.phase == "lock" else "throw"
        after = await fresh.act(table_id, [ANA, BO][state.current], live.version, action)
        assert after.table.version == live.version + 1
    finally:
        await second.close()


async def test_end_needs_the_host_or_manage_server(db: Database, clock: FakeClock) -> None:
    service = make_service(db, clock)
    table_id = await open_two(service)
    await service.start(table_id, ANA)
    with pytest.raises(Forbidden):
        await FairPlay(service.kernel).end(table_id, BO, is_admin=False)
    change = await FairPlay(service.kernel).end(table_id, BO, is_admin=True)
    assert change.table.status == "ended"
    with pytest.raises(StaleAction):
        await FairPlay(service.kernel).end(table_id, ANA, is_admin=False)


def test_names_are_cleaned() -> None:
    assert clean_name("**Ana**") == "**Ana**"  # kept: escaped where shown as markdown
    assert clean_name("@everyone") == "@everyone"
    assert clean_name("A\u200bn\u200ba") == "Ana"
    assert len(clean_name("x" * 500)) == 32
    assert clean_name("\u200b\u200b") == "Player"


async def test_a_lock_that_ends_the_turn_drops_the_rest_of_the_click(
    db: Database, clock: FakeClock
) -> None:
    """Extended: locking 1-6 scores 15 at once; the Bank (or a bot's next step) that came with
    the click must not be played for the next seat."""
    service = make_service(db, clock)
    table_id = await open_two(service, variant="extended")
    change = await service.start(table_id, ANA)
    table = change.table
    table.rules = pl.PushState(
        **{**table.rules.__dict__, "phase": "lock", "throw": (1, 2, 3, 4, 5, 6)}
    )
    await service.kernel.save(table, None, "test", {})
    change = await service.act(table_id, ANA, table.version, "bank")
    state = change.table.rules
    assert state.totals == (15, 0) and state.current == 1 and state.phase == "throw"
    assert change.turn_changed


@pytest.mark.parametrize(
    "blank",
    [
        "\u2800\u2800\u2800",  # braille blank
        "\u3164",  # Hangul filler
        "\u115f\u1160 \uffa0",  # the other Hangul fillers
        "\ufe0f\ufe0e\U000e0100",  # variation selectors alone
        "\u0301\u0301\u0308",  # combining marks with nothing under them
        " \u0336\u0336 \u2800\u0301",  # marks on a space and on a blank
        "\u2028\u2029",
    ],
)
def test_blank_looking_names_become_player(blank: str) -> None:
    assert clean_name(blank) == "Player"


def test_combining_marks_stay_on_their_letter_without_stacking() -> None:
    zalgo = "Z" + "\u0336\u0301\u0308\u0327\u0324" * 6 + "oe"
    cleaned = clean_name(zalgo)
    marks = [ch for ch in cleaned if unicodedata.category(ch).startswith("M")]
    letters = [ch for ch in unicodedata.normalize("NFD", cleaned) if ch.isalpha()]
    assert len(cleaned) <= 5 and len(marks) <= 2 and letters == ["Z", "o", "e"]
    assert clean_name("\u0301\u0301Bo") == "Bo"  # no letter under them: gone
    # Real names keep their marks: Thai vowel and tone marks, Hindi, accents.
    for name in ("สวัสดี", "नमस्ते", "Zoë", "Ngô Bảo Châu"):
        assert clean_name(name) == unicodedata.normalize("NFC", name)
    assert clean_name("Ann\u2800Lee\u3164") == "Ann Lee"  # a filler stands for a space
    assert clean_name("Ann  \u3164 Lee") == "Ann Lee"
    assert clean_name("Bo\ufe0f") == "Bo"


@pytest.mark.parametrize("name", ["𝕬𝖓𝖆", "Ａｎａ", "𝓐𝓷𝓪", "ⒶⓃⒶ", "ﬁona"])
def test_fancy_letters_are_never_folded_into_another_name(name: str) -> None:
    """Issue 31: "𝕬𝖓𝖆" was shown as "Ana", so one member could look exactly like another."""
    assert clean_name(name) == name
    assert clean_name(name) != clean_name("Ana")


async def test_the_copies_kept_are_live_tables_only_and_at_most_the_cap(
    db: Database, clock: FakeClock
) -> None:
    """Issue 35.1: a process keeps the row it saved last of each live table (the next
    click plays on it); an ended table leaves none, and past the cap the least recently
    saved go first. A copy is taken out while a change runs on it: one that fails leaves
    none behind."""
    service = make_service(db, clock)
    service.kernel.live_copies = 2
    first, second, third = [await open_two(service) for _ in range(3)]
    assert service.kernel.copies() == 2  # the first one's copy went first
    for table_id in (first, second):
        await service.start(table_id, ANA)
    assert service.kernel.copies() == 2
    table = await service.get(second)
    user = table.seats[table.rules.current].user_id
    with pytest.raises(StaleAction):  # an old button: refused on the copy, then on the row
        await service.act(second, user, table.version - 1, "throw")
    assert service.kernel.copies() == 1 and service.kernel.copies_behind == 1
    await service.act(second, user, table.version, "throw")
    assert service.kernel.copies() == 2
    await FairPlay(service.kernel).end(third, ANA, is_admin=True)
    await FairPlay(service.kernel).end(first, ANA, is_admin=True)
    assert service.kernel.copies() == 1  # ended: no copy
