"""The tournament service with real tables (issue 25.4, 25.8): rounds open themselves as
ordinary tables with the paired members seated, each match ends by the table's own end
(here a resign), the next round is paired once, and the standings come out as computed by
hand. Both engines."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from fractions import Fraction

import pytest

from bot.config import Settings
from bot.errors import UserError
from bot.games.registry import Games
from bot.store import tournaments as store
from bot.store.db import Database
from bot.tables import wallets
from bot.tables.fair_play import FairPlay
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.timers import TableTimers
from bot.tables.tournament_rounds import advance
from bot.tables.tournaments import Tournaments, on_game_over
from bot.tables.wallet_hooks import WalletHooks
from tests.backends import DbTarget
from tests.fakes import FakeClock

GUILD, CHANNEL = 10, 20
SETTINGS = {"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False}


@pytest.fixture
async def db(db_target: DbTarget) -> AsyncIterator[Database]:
    database = await Database.open(db_target("bot"))
    yield database
    report = await wallets.check_invariant(database)
    await database.close()
    assert report.ok, report


def services(db: Database, clock: FakeClock) -> Tournaments:
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    tables = TableService(
        TableKernel(
            db, Games(), settings.table_limits(), clock, random.Random(3), WalletHooks(clock)
        )
    )
    return Tournaments(db, tables, clock)


async def new_tournament(
    t: Tournaments, fmt: str, players: list[int], rounds: int = 0, seats: int = 2
) -> int:
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
        format=fmt, rounds=rounds, actor_id=999, seats=seats,  # type: ignore[arg-type]
    )  # fmt: skip
    for user in players:
        await t.join(made.id, user, f"P{user}")
    return made.id


async def play_round(t: Tournaments, tid: int, beats: Callable[[int, int], bool]) -> None:
    """Every playing match of the tournament ends: the loser (by ``beats``) resigns."""
    picture = await t.picture(tid)
    playing = [m for m in picture.matches if m.status == "playing"]
    assert playing
    for match in playing:
        assert match.game_id is not None and match.b_id is not None
        table = await t.tables.get(match.game_id)
        assert table.status == "running"
        assert {s.user_id for s in table.seats} == {match.a_id, match.b_id}
        loser = match.b_id if beats(match.a_id, match.b_id) else match.a_id
        await FairPlay(t.tables.kernel).resign(match.game_id, loser)
    await t.open_pending(tid)


def by_number(a: int, b: int) -> bool:
    """The lower number wins."""
    return a < b


async def test_round_robin_of_five_by_hand(db: Database) -> None:
    t = services(db, FakeClock())
    tid = await new_tournament(t, "round_robin", [1, 2, 3, 4, 5])
    started = await t.start(tid)
    await t.open_pending(tid)
    assert (started.status, started.round, started.rounds) == ("running", 1, 5)

    # The lower number wins, except that 3 beats 1 and 5 beats 2.
    def beats(a: int, b: int) -> bool:
        upsets = {(3, 1), (5, 2)}
        return (a, b) in upsets or ((b, a) not in upsets and a < b)

    for _ in range(5):
        await play_round(t, tid, beats)
    picture = await t.picture(tid)
    assert picture.tournament.status == "finished"
    # Each played four and sat out one (a bye, a win). Points (wins + bye):
    # 1: beat 2, 4, 5 (lost to 3) + bye = 4; 2: beat 3, 4 + bye = 3; 3: beat 1, 4, 5 + bye = 4;
    # 4: beat 5 + bye = 2; 5: beat 2 + bye = 2.
    # 1 and 3 tie on 4: 3 beat 1 head-to-head. 4 and 5 tie on 2: 4 beat 5.
    assert [(s.id, s.points) for s in picture.standings] == [
        (3, 4), (1, 4), (2, 3), (4, 2), (5, 2),
    ]  # fmt: skip
    played = [m for m in picture.matches if m.b_id is not None]
    assert len(played) == 10 and len({frozenset((m.a_id, m.b_id)) for m in played}) == 10


async def test_swiss_of_eight_survives_a_restart(db: Database) -> None:
    clock = FakeClock()
    t = services(db, clock)
    tid = await new_tournament(t, "swiss", list(range(1, 9)))
    assert (await t.start(tid)).rounds == 3
    await t.open_pending(tid)
    await play_round(t, tid, by_number)
    # A restart: a new service on the same database carries on from the database alone.
    t = services(db, clock)
    assert await t.open_pending(tid) == []  # round two's tables were opened before
    await play_round(t, tid, by_number)
    await play_round(t, tid, by_number)
    picture = await t.picture(tid)
    assert picture.tournament.status == "finished"
    # Seeds are 1..8 (no ratings yet: by id). R1: 1-2, 3-4, 5-6, 7-8; winners 1, 3, 5, 7.
    # R2: 1-3, 5-7, 2-4, 6-8; R3: 1-5 (both 2), 3-2 (1 each, 3 ranks above 2)... the lower
    # number always wins, so 1 ends on 3 points alone.
    top = picture.standings[0]
    assert (top.id, top.points) == (1, 3)
    assert [s.points for s in picture.standings] == [3, 2, 2, 2, 1, 1, 1, 0]
    pairs = [frozenset((m.a_id, m.b_id)) for m in picture.matches]
    assert len(pairs) == 12 and len(set(pairs)) == 12  # no repeat


async def test_single_elimination_of_six_gives_the_top_seeds_byes(db: Database) -> None:
    t = services(db, FakeClock())
    tid = await new_tournament(t, "elimination", [1, 2, 3, 4, 5, 6])
    started = await t.start(tid)
    await t.open_pending(tid)
    assert started.rounds == 3
    first = [m for m in (await t.picture(tid)).matches if m.round == 1]
    assert [(m.a_id, m.b_id) for m in first] == [(1, None), (4, 5), (2, None), (3, 6)]

    # 6 upsets 3 in round one; then the lower number wins.
    def beats(a: int, b: int) -> bool:
        return (a, b) == (6, 3) or ((a, b) != (3, 6) and a < b)

    for _ in range(3):
        await play_round(t, tid, beats)
    picture = await t.picture(tid)
    assert picture.tournament.status == "finished"
    # R2: 1-4, 2-6; final: 1-2. Places: 1, 2, then the semi-finalists 4 and 6 (by seed),
    # then round one's losers 3 and 5 (by seed).
    assert picture.places == [1, 2, 4, 6, 3, 5]


async def test_a_round_advances_once_when_its_last_matches_end_together(
    db_target: DbTarget,
) -> None:
    """Two processes (two services, two connections pools) on one database end the round's
    last two matches at the same moment: the next round is paired and opened once."""
    path = db_target("bot")
    one, two = await Database.open(path), await Database.open(path)
    try:
        clock = FakeClock()
        a, b = services(one, clock), services(two, clock)
        tid = await new_tournament(a, "swiss", [1, 2, 3, 4])
        await a.start(tid)
        await a.open_pending(tid)
        m1, m2 = [m for m in (await a.picture(tid)).matches if m.round == 1]
        assert m1.game_id and m2.game_id and m1.b_id and m2.b_id
        # Each process records its match in its own transaction, the second beginning
        # while the first is still open: without the tournament's lock each would see the
        # other's match unfinished and neither would pair round two.
        second_began = asyncio.Event()

        async def first() -> None:
            async with one.transaction() as conn:
                await on_game_over(conn, m1.game_id, [m1.a_id], clock())  # type: ignore[arg-type]
                await second_began.wait()
                await asyncio.sleep(0.2)  # the second reaches its reads meanwhile

        async def second() -> None:
            await asyncio.sleep(0.05)
            second_began.set()
            async with two.transaction() as conn:
                await on_game_over(conn, m2.game_id, [m2.a_id], clock())  # type: ignore[arg-type]

        await asyncio.gather(first(), second())
        opened = await asyncio.gather(a.open_pending(tid), b.open_pending(tid))
        assert sorted(len(x) for x in opened) in ([0, 2], [1, 1])
        picture = await a.picture(tid)
        assert picture.tournament.round == 2
        second = [m for m in picture.matches if m.round == 2]
        assert len(second) == 2 and all(m.status == "playing" for m in second)
        assert {frozenset((m.a_id, m.b_id)) for m in second} == {
            frozenset((1, 3)),
            frozenset((2, 4)),
        }
        assert Fraction(sum(s.points for s in picture.standings)) == 2
    finally:
        await one.close()
        await two.close()


async def test_a_claim_whose_process_died_is_taken_over_and_cancel_ends_the_tables(
    db: Database,
) -> None:
    clock = FakeClock()
    t = services(db, clock)
    tid = await new_tournament(t, "round_robin", [1, 2, 3, 4])
    # The process that starts it dies after claiming the first match, before its table.
    await t.start(tid)
    first, second = [m for m in (await t.picture(tid)).matches if m.round == 1]
    assert await store.claim_match(db, first.id, clock(), 300)
    t = services(db, clock)  # the restart
    assert len(await t.open_pending(tid)) == 1  # the other match; the claim is still young
    clock.advance(301)
    assert len(await t.open_pending(tid)) == 1  # now taken over
    playing = [m for m in (await t.picture(tid)).matches if m.status == "playing"]
    assert {m.id for m in playing} == {first.id, second.id}

    changes = await t.cancel(tid, 999, "Org")
    assert {c.table.id for c in changes} == {m.game_id for m in playing}
    assert all(c.table.status == "ended" for c in changes)
    picture = await t.picture(tid)
    assert picture.tournament.status == "cancelled"
    assert [m.round for m in picture.matches] == [1, 1]  # no next round after the cancel
    assert all(m.status == "done" and m.winner_id is None for m in picture.matches)


async def test_entry_fees_are_held_refunded_and_paid_out_once_by_place(db: Database) -> None:
    clock = FakeClock()
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
        format="round_robin", fee=300, prize="top2", actor_id=999,
    )  # fmt: skip
    for user in (1, 2, 3, 4, 5):
        await t.join(made.id, user, f"P{user}")
    assert await wallets.balance(db, GUILD, 1) == 700  # 1,000 welcome chips less the fee
    await t.leave(made.id, 5)
    assert await wallets.balance(db, GUILD, 5) == 1_000
    await wallets.take(db, GUILD, 5, 800, actor_id=999, reason="test", now=clock())
    with pytest.raises(UserError) as short:
        await t.join(made.id, 5, "P5")
    assert short.value.code == "tournament.fee" and short.value.values["balance"] == 200
    assert [e.user_id for e in (await t.picture(made.id)).entries] == [1, 2, 3, 4]
    assert (await wallets.check_invariant(db)).held == 1_200

    await t.start(made.id)
    await t.open_pending(made.id)
    for _ in range(3):
        await play_round(t, made.id, by_number)
    picture = await t.picture(made.id)
    assert picture.tournament.status == "finished"
    assert [s.id for s in picture.standings] == [1, 2, 3, 4]
    # The pool of 1,200: 70 % (840) to the winner, 30 % (360) to the runner-up.
    assert [await wallets.balance(db, GUILD, u) for u in (1, 2, 3, 4)] == [1_540, 1_060, 700, 700]
    report = await wallets.check_invariant(db)
    assert report.ok and report.held == 0
    # A second look at the finished tournament pays nothing more.
    async with db.transaction() as conn:
        await advance(conn, made.id, clock())
    assert await wallets.balance(db, GUILD, 1) == 1_540


async def test_a_cancel_refunds_every_fee(db: Database) -> None:
    t = services(db, FakeClock())
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
        format="swiss", fee=100, actor_id=999,
    )  # fmt: skip
    for user in (1, 2, 3):
        await t.join(made.id, user, f"P{user}")
    await t.start(made.id)
    await t.open_pending(made.id)
    await t.cancel(made.id, 999, "Org")
    assert [await wallets.balance(db, GUILD, u) for u in (1, 2, 3)] == [1_000] * 3
    assert (await wallets.check_invariant(db)).ok


async def test_a_best_of_three_final_opens_a_table_per_game(db: Database) -> None:
    t = services(db, FakeClock())
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
        format="elimination", final_best_of=3, actor_id=999,
    )  # fmt: skip
    for user in (1, 2, 3, 4, 5, 6):
        await t.join(made.id, user, f"P{user}")
    await t.start(made.id)
    await t.open_pending(made.id)
    await play_round(t, made.id, by_number)  # round one: 4-5, 3-6 (1 and 2 have byes)
    await play_round(t, made.id, by_number)  # semi-finals: 1-4, 2-3, one game each
    # The final, 1 against 2: 2 takes the first game, 1 the next two.
    tables = []
    for one_wins in (False, True, True):
        (final,) = [m for m in (await t.picture(made.id)).matches if m.status == "playing"]
        tables.append(final.game_id)

        def beats(a: int, b: int, one_wins: bool = one_wins) -> bool:
            return one_wins == (a == 1)

        await play_round(t, made.id, beats)
    picture = await t.picture(made.id)
    assert picture.tournament.status == "finished"
    final = picture.matches[-1]
    assert (final.round, final.winner_id, final.a_wins, final.b_wins, final.games) == (
        3, 1, 2, 1, 3,
    )  # fmt: skip
    assert len(set(tables)) == 3  # each game its own table
    assert picture.places[:2] == [1, 2]
    # The earlier rounds were best of one.
    assert all(m.games == 1 for m in picture.matches if m.round < 3 and m.b_id is not None)


async def test_a_removed_player_forfeits_the_rest_and_an_override_is_logged(
    db: Database,
) -> None:
    t = services(db, FakeClock())
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
        format="round_robin", fee=100, actor_id=999,
    )  # fmt: skip
    for user in (1, 2, 3, 4):
        await t.join(made.id, user, f"P{user}")
    await t.start(made.id)
    await t.open_pending(made.id)
    # Round one: 1-4 and 2-3 (the circle). The organiser overrides 2-3 while it is played:
    # 3 wins; its table ends with no result.
    m14, m23 = [m for m in (await t.picture(made.id)).matches if m.round == 1]
    assert {m14.a_id, m14.b_id} == {1, 4} and {m23.a_id, m23.b_id} == {2, 3}
    changes = await t.override(m23.id, 3, 999, "Org")
    assert [c.table.id for c in changes] == [m23.game_id]
    assert (await t.tables.get(m23.game_id)).status == "ended"  # type: ignore[arg-type]
    # Then 4 is removed: their match with 1 is forfeited (1 wins), and so is every later one.
    changes = await t.remove(made.id, 4, 999, "Org")
    assert [c.table.id for c in changes] == [m14.game_id]
    for _ in range(2):
        await t.open_pending(made.id)
        await play_round(t, made.id, by_number)
    picture = await t.picture(made.id)
    assert picture.tournament.status == "finished"
    won = {m.round: (m.a_id, m.b_id, m.winner_id) for m in picture.matches if 4 in (m.a_id, m.b_id)}
    assert all(winner != 4 for _, _, winner in won.values()) and len(won) == 3
    # 1 beat 4 (forfeit), 2 and 3 later; 3 beat 2 (override) and 4 (forfeit); 2 beat 4.
    assert [(s.id, s.points) for s in picture.standings] == [(1, 3), (3, 2), (2, 1), (4, 0)]
    assert await wallets.balance(db, GUILD, 1) == 1_300  # the pool of 400, all to the winner
    assert await wallets.balance(db, GUILD, 4) == 900  # a removed player's fee stays in it
    assert [(a, action) for a, action, _ in await t.log(made.id)] == [
        (999, "override"), (999, "remove"),
    ]  # fmt: skip
    assert (await t.log(made.id))[0][2] == {"match": m23.id, "was": None, "status": "playing",
                                            "now": 3}  # fmt: skip
    with pytest.raises(UserError, match="round being played"):
        await t.override(m23.id, 2, 999, "Org")  # its round is over: results are final


async def test_a_no_show_loses_by_the_table_timers(db: Database) -> None:
    """A paired member who never plays: their turns run out, three in a row forfeit their
    seat (the table rules), and the match goes to the one who came."""
    clock = FakeClock()
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings={**SETTINGS, "rounds": 5},
        format="swiss", actor_id=999,
    )  # fmt: skip
    tid = made.id
    for user in (1, 2):
        await t.join(tid, user, f"P{user}")
    await t.start(tid)
    await t.open_pending(tid)
    (match,) = (await t.picture(tid)).matches
    assert match.game_id is not None
    absent = match.b_id
    for _ in range(200):
        table = await t.tables.get(match.game_id)
        if table.status != "running":
            break
        user = table.seats[table.rules.current].user_id
        if user == absent:
            clock.advance(181)
            await TableTimers(t.tables.kernel).run_due()
        else:
            state = table.rules
            action = "throw" if state.phase == "throw" else "bank"
            await t.tables.act(match.game_id, user, table.version, action)  # type: ignore[arg-type]
    picture = await t.picture(tid)
    assert picture.tournament.status == "finished"
    assert picture.matches[0].winner_id == match.a_id


async def test_a_swiss_at_tables_of_four_scores_by_place(db: Database) -> None:
    """Item 3: 8 players at tables of 4, two rounds; at each table the lowest number wins
    and the other three resign (so they share second place). A table's points are
    (players below + half those level) / (n - 1): a win 1, a shared second 1/3."""
    t = services(db, FakeClock())
    tid = await new_tournament(t, "swiss", list(range(1, 9)), rounds=2, seats=4)
    await t.start(tid)
    await t.open_pending(tid)
    seen = []
    for _ in range(2):
        picture = await t.picture(tid)
        playing = [m for m in picture.matches if m.status == "playing"]
        seen.append([m.players for m in playing])
        for match in playing:
            assert match.game_id is not None
            table = await t.tables.get(match.game_id)
            assert [s.user_id for s in table.seats] == list(match.players)
            for user in sorted(match.players)[1:]:
                await FairPlay(t.tables.kernel).resign(match.game_id, user)
        await t.open_pending(tid)
    # Round one by seed (all unrated: by id); round two by points: 1 and 5 (who won) take
    # the first table with the best of the rest, meeting nobody twice where they can.
    assert seen == [[(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 5, 2, 3), (4, 6, 7, 8)]]
    picture = await t.picture(tid)
    assert picture.tournament.status == "finished"
    # By hand: 1 won twice (2); 4 and 5 won once and shared second once (4/3), level on
    # Buchholz 16/3 and never met: by seed, 4 first; 2 and 3 (2/3, Buchholz 8) before
    # 6, 7, 8 (2/3, Buchholz 16/3).
    third = Fraction(1, 3)
    expected = [
        (1, 2, 16 * third), (4, 4 * third, 16 * third), (5, 4 * third, 16 * third),
        (2, 2 * third, 8), (3, 2 * third, 8), (6, 2 * third, 16 * third),
        (7, 2 * third, 16 * third), (8, 2 * third, 16 * third),
    ]  # fmt: skip
    assert [(s.id, s.points, s.buchholz) for s in picture.standings] == expected


async def test_tables_of_three_or_more_are_for_swiss_and_the_game_must_seat_them(
    db: Database,
) -> None:
    t = services(db, FakeClock())
    for fmt, seats, best_of, code in (
        ("elimination", 3, 1, "seats_format"),
        ("round_robin", 4, 1, "seats_format"),
        ("swiss", 3, 3, "seats_best_of"),
        ("swiss", 99, 1, "seats"),
    ):
        with pytest.raises(UserError) as refused:
            await t.create(
                guild_id=GUILD, channel_id=CHANNEL, kind="sequences", settings=SETTINGS,
                format=fmt, actor_id=1, seats=seats, best_of=best_of,  # type: ignore[arg-type]
            )  # fmt: skip
        assert refused.value.code == f"tournament.{code}"


async def test_at_tables_of_three_a_removal_and_an_override_set_places(db: Database) -> None:
    """A removed player's table ends with the others level above them; an override names
    the winner and puts the rest level. Points by hand at tables of three (each pair 1/2):
    a winner 1, two level below them 1/4 each; two level above a removed one 3/4 each."""
    t = services(db, FakeClock())
    tid = await new_tournament(t, "swiss", list(range(1, 7)), rounds=1, seats=3)
    await t.start(tid)
    await t.open_pending(tid)
    first, second = (await t.picture(tid)).matches
    assert first.players == (1, 2, 3) and second.players == (4, 5, 6)
    await t.remove(tid, 3, 999, "Org")
    assert (await t.tables.get(first.game_id or 0)).status == "ended"
    await t.override(second.id, 5, 999, "Org")
    picture = await t.picture(tid)
    assert picture.tournament.status == "finished"
    done = {m.id: m.places for m in picture.matches}
    assert done[first.id] == ((1, 1), (2, 1), (3, 3))
    assert done[second.id] == ((4, 2), (5, 1), (6, 2))
    quarter = Fraction(1, 4)
    assert {s.id: s.points for s in picture.standings} == {
        5: 1, 1: 3 * quarter, 2: 3 * quarter, 4: quarter, 6: quarter, 3: 0
    }  # fmt: skip
    assert [a for _, a, _ in await t.log(tid)] == ["remove", "override"]
