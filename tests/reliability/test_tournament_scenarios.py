"""The issue's Done-means tournaments through the harness (issue 25), each from sign-up to
prize with the clock moved: standings against a hand-computed expectation, the prize paid
once, the ledger invariant intact.

Outcomes are fixed by a list: at each match the member later in it resigns (with the
Resign button of the match's own table message); a no-show simply never moves, and the
turn timer forfeits them by the table rules."""

from __future__ import annotations

from bot.games.words import event_lines
from bot.tables import wallets
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Player


async def resign_matches(
    env: Env, players: dict[int, Player], order: list[int], skip: frozenset[int] = frozenset()
) -> int:
    """Every running match of tournament 1 but those seating a member in ``skip`` ends:
    the member later in ``order`` resigns. Returns how many ended."""
    bot, h = env.bot, env.h
    picture = await bot.shell.tournaments.picture(1)
    ended = 0
    for match in [m for m in picture.matches if m.status == "playing"]:
        if skip & set(match.seated):
            continue
        assert match.game_id is not None
        table = await bot.tables.get(match.game_id)
        assert table.status == "running" and table.row.message_id is not None
        loser = max(match.seated, key=order.index)
        turn = h.message(table.row.message_id)
        ask = await players[loser].click(turn, "Resign")
        await players[loser].click(ask.message, "Resign")
        assert (await bot.tables.get(match.game_id)).status == "finished"
        ended += 1
    return ended


async def throw_and_bank(env: Env, player: Player, table_id: int) -> None:
    """``player``, to move at the table, throws and then banks (unless the throw bust)."""
    table = await env.bot.tables.get(table_id)
    assert table.rules is not None and table.row.message_id is not None
    seat = table.game.current_seat(table.rules)
    assert seat is not None and table.seats[seat].user_id == player.id
    message = env.h.message(table.row.message_id)
    throw = next(lb for lb in message.labels if lb and lb.startswith("Throw"))
    reply = await player.click(message, throw)
    assert not reply.ephemeral, reply.text
    message = env.h.message((await env.bot.tables.get(table_id)).row.message_id or 0)
    bank = next((lb for lb in message.labels if lb and lb.startswith("Bank")), None)
    table = await env.bot.tables.get(table_id)
    seat = table.game.current_seat(table.rules) if table.rules is not None else None
    if bank is not None and seat is not None and table.seats[seat].user_id == player.id:
        await player.click(message, bank)


async def payouts(env: Env) -> list[tuple[int, int]]:
    rows = await env.bot.db.fetchall(
        "SELECT user_id, delta FROM ledger WHERE kind = 'payout' AND reason = 'tournament:1'"
        " ORDER BY delta DESC, user_id"
    )
    return [(int(r[0]), int(r[1])) for r in rows]


async def balance(env: Env, player: Player) -> int:
    return await wallets.balance(env.bot.db, env.h.guild.id, player.id)


async def test_an_eight_player_swiss_of_push_your_luck_with_a_fee(make_env: MakeEnv) -> None:
    """Eight sign up for four rounds at 100 chips; Hal does not check in (dropped, his fee
    back), so seven play, one bye a round. Eve is a no-show at her first table and forfeits
    by the turn timer; the bot restarts after round two."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    names = ("Ana", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
    members = [await h.member(n) for n in names]
    ana, bo, eve, fay, hal = (members[i] for i in (0, 1, 4, 5, 7))
    players = {p.id: p for p in members}
    created = await org.slash(
        "tournament create", game="sequences:standard", format="swiss", rounds=4, fee=100,
        prize="top3", signup=30, checkin=10,
    )  # fmt: skip
    signup = created.message
    for p in members:
        await p.click(signup, "Join")
    await env.tick(20 * 60 + 1)
    for p in members[:-1]:
        await p.click(signup, "Check in")
    await env.tick(10 * 60)  # the start: Hal is dropped
    assert "Round 1 of 4" in signup.text
    # Hal is out of the standings; the message says why, and that the fee went back.
    assert "Dropped for not checking in, their entry fee refunded: Hal\n" in signup.text
    assert signup.text.count("Hal") == 1
    assert await balance(env, hal) == 1000

    # Seeds: all unrated, by Discord id (the order they were made). Whoever is earlier in
    # this list wins, but Eve does not show up in round one.
    order = [p.id for p in members]
    assert await resign_matches(env, players, order, skip=frozenset({eve.id})) == 2
    timeout = env.settings.turn_timeout_seconds + 1
    picture = await env.bot.shell.tournaments.picture(1)
    (no_show,) = [m for m in picture.matches if m.status == "playing"]
    assert set(no_show.seated) == {eve.id, fay.id}
    table_id = no_show.game_id or 0
    for _ in range(3):  # Eve (first to move) is away: the timer plays her turn; Fay plays
        await env.tick(timeout)
        if (await env.bot.tables.get(table_id)).status == "running":
            await throw_and_bank(env, fay, table_id)
    table = await env.bot.tables.get(table_id)
    assert table.status == "finished"
    assert any("Eve missed 3 turns in a row and forfeits" in e for e in event_lines(table))
    assert (await env.bot.shell.tournaments.picture(1)).tournament.round == 2
    assert await resign_matches(env, players, order) == 3  # round two
    await env.restart()
    await env.tick()  # round three opens on the new process's tick
    assert await resign_matches(env, players, order) == 3
    await env.tick()
    assert await resign_matches(env, players, order) == 3  # round four
    await env.tick()

    # By hand (R1: Ana-Bo, Cy-Di, Eve-Fay, Gus bye; R2: Ana-Cy, Fay-Gus, Bo-Di, Eve bye;
    # R3: Ana-Fay, Bo-Cy, Eve-Gus, Di bye; R4: Ana-Eve, Bo-Fay, Di-Gus, Cy bye), the
    # earlier in the list winning each but Eve's no-show: Ana 4, Bo 3, then four on 2
    # split by Buchholz: Fay 10, Cy 9, Eve 7, Di 6; Gus 1.
    picture = await env.bot.shell.tournaments.picture(1)
    assert picture.tournament.status == "finished"
    rounds = [
        sorted(tuple(sorted(m.seated)) for m in picture.matches if m.round == r)
        for r in range(1, 5)
    ]
    ids = {p.name: p.id for p in members}

    def pairs(*names_: str) -> list[tuple[int, ...]]:
        return sorted(tuple(sorted(ids[n] for n in pair.split("-"))) for pair in names_)

    assert rounds == [
        pairs("Ana-Bo", "Cy-Di", "Eve-Fay", "Gus"),
        pairs("Ana-Cy", "Fay-Gus", "Bo-Di", "Eve"),
        pairs("Ana-Fay", "Bo-Cy", "Eve-Gus", "Di"),
        pairs("Ana-Eve", "Bo-Fay", "Di-Gus", "Cy"),
    ]
    expected = [
        ("Ana", 4, 9), ("Bo", 3, 10), ("Fay", 2, 10), ("Cy", 2, 9), ("Eve", 2, 7),
        ("Di", 2, 6), ("Gus", 1, 6),
    ]  # fmt: skip
    assert [(ids[n], p, b) for n, p, b in expected] == [
        (s.id, s.points, s.buchholz) for s in picture.standings
    ]
    final = h.last_message(h.channel)
    assert "🏆 **Ana** won." in final.text
    assert "` 3.` Fay · **2** pts · 2-0-2 · Buchholz 10" in final.text
    assert "` 7.` Gus · **1** pt · 0-0-3 · 1 bye · Buchholz 6" in final.text

    # The pool of 700 (Hal's fee went back): 50 / 30 / 20 %, once, after a restart too.
    assert await payouts(env) == [(ana.id, 350), (bo.id, 210), (fay.id, 140)]
    await env.restart()
    await env.tick()
    assert await payouts(env) == [(ana.id, 350), (bo.id, 210), (fay.id, 140)]
    assert [await balance(env, p) for p in members] == [1250, 1110, 900, 900, 900, 1040, 900, 1000]
    assert (await wallets.check_invariant(env.bot.db)).ok


async def test_a_six_player_knockout_of_the_board_game_with_a_best_of_three_final(
    make_env: MakeEnv,
) -> None:
    """Six in a bracket of eight: seeds 1 and 2 have byes; the final is a best of 3 that
    goes to a third game."""
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    members = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Eve", "Fay")]
    ana, bo, cy, di, eve, fay = members
    players = {p.id: p for p in members}
    created = await org.slash(
        "tournament create", game="board", format="elimination", fee=50, final_best_of=3
    )
    for p in members:
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    order = [p.id for p in members]
    # Quarter-finals in bracket order 1-8, 4-5, 2-7, 3-6: Ana and Bo have byes.
    picture = await env.bot.shell.tournaments.picture(1)
    assert [(m.a_id, m.b_id) for m in picture.matches] == [
        (ana.id, None), (di.id, eve.id), (bo.id, None), (cy.id, fay.id)
    ]  # fmt: skip
    assert await resign_matches(env, players, order) == 2  # Di and Cy go through
    await env.tick()
    assert await resign_matches(env, players, order) == 2  # semis: Ana-Di, Bo-Cy
    await env.tick()
    # The final, best of 3: Ana, then Bo (Ana resigns game two), then Ana.
    assert await resign_matches(env, players, order) == 1
    await env.tick()
    assert await resign_matches(env, players, [bo.id, ana.id]) == 1
    await env.tick()
    picture = await env.bot.shell.tournaments.picture(1)
    (final,) = [m for m in picture.matches if m.round == 3]
    assert (final.a_wins, final.b_wins, final.games, final.status) == (1, 1, 2, "playing")
    assert await resign_matches(env, players, order) == 1
    await env.tick()
    picture = await env.bot.shell.tournaments.picture(1)
    assert picture.tournament.status == "finished"
    # By hand: Ana champion, Bo runner-up, the semi-finalists Cy and Di by seed, then the
    # quarter-finalists out Eve and Fay.
    assert picture.places == [p.id for p in members]
    last = h.last_message(h.channel)
    assert "🏆 **Ana** won." in last.text and last.attachments[0].filename == "tournament.png"
    assert await payouts(env) == [(ana.id, 300)]
    await env.tick()
    assert await payouts(env) == [(ana.id, 300)]
    assert [await balance(env, p) for p in members] == [1250, 950, 950, 950, 950, 950]
    assert (await wallets.check_invariant(env.bot.db)).ok


async def test_a_five_player_round_robin_of_hearts_due(make_env: MakeEnv) -> None:
    env = await make_env()
    h = env.h
    org = await h.member("Org", manage_guild=True)
    members = [await h.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Eve")]
    ana = members[0]
    players = {p.id: p for p in members}
    created = await org.slash("tournament create", game="heartsdue", format="round_robin", fee=20)
    assert "Round robin · Hearts Due" in created.text
    for p in members:
        await p.click(created.message, "Join")
    await org.click(created.message, "Start")
    order = [p.id for p in members]
    for _ in range(5):  # five rounds: two matches and a bye each
        assert await resign_matches(env, players, order) == 2
        await env.tick()
    picture = await env.bot.shell.tournaments.picture(1)
    assert picture.tournament.status == "finished"
    met = {frozenset(m.seated) for m in picture.matches if m.b_id is not None}
    assert len(met) == 10  # everyone met everyone once
    assert sorted(m.a_id for m in picture.matches if m.b_id is None) == sorted(order)
    # By hand: the earlier in the list wins every match, and each had one bye (a win).
    final = h.last_message(h.channel).text
    assert "` 1.` Ana · **5** pts · 4-0-0 · 1 bye" in final
    assert "` 2.` Bo · **4** pts · 3-0-1 · 1 bye" in final
    assert "` 3.` Cy · **3** pts · 2-0-2 · 1 bye" in final
    assert "` 4.` Di · **2** pts · 1-0-3 · 1 bye" in final
    assert "` 5.` Eve · **1** pt · 0-0-4 · 1 bye" in final
    assert await payouts(env) == [(ana.id, 100)]
    await env.restart()
    await env.tick()
    assert await payouts(env) == [(ana.id, 100)]
    assert (await wallets.check_invariant(env.bot.db)).ok
