"""Wallet, chips, leaderboard and stats commands, used like a member would, through the
interaction harness (real discord.py dispatch against a fake Discord)."""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.app import SequencesBot
from bot.config import Settings
from bot.i18n.speaking import gettext, speaking
from bot.store.db import Database
from bot.store.games import upsert_member
from bot.store.stats import record_finished_game
from bot.tables import wallets
from bot.tables.service import TableService
from tests.backends import DbTarget
from tests.conftest import MakeHarness
from tests.fakes import FakeClock
from tests.harness import Harness, HarnessError, Message, Player
from tests.store.helpers import S, create_game, write_results

T0 = 1_780_000_000.0  # 2026-05-28 20:26:40 UTC
DAY = 86_400
KEY = "sequences:standard"


@dataclass
class Env:
    h: Harness
    bot: SequencesBot
    db: Database
    clock: FakeClock
    path: str

    def new_bot(self) -> SequencesBot:
        return make_bot(self.db, self.clock)


def make_bot(db: Database, clock: FakeClock) -> SequencesBot:
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    return SequencesBot(settings, db, clock=clock, rng=random.Random(5), run_timers=False)


@pytest.fixture
async def env(db_target: DbTarget, make_harness: MakeHarness) -> AsyncIterator[Env]:
    """On both engines: the economy commands are money."""
    path = db_target("bot")
    db = await Database.open(path)
    clock = FakeClock(T0)
    bot = make_bot(db, clock)
    h = await make_harness(bot)
    yield Env(h, bot, db, clock, path)
    await h.stop()
    report = await wallets.check_invariant(db)
    await db.close()
    assert report.ok, report


def one_private_line(reply: object, text: str) -> None:
    message = reply.message  # type: ignore[attr-defined]
    assert message.ephemeral, message.text
    assert message.content == text
    assert "\n" not in message.content


async def test_wallet_daily_and_pay(env: Env) -> None:
    alice, bob = await env.h.member("Alice"), await env.h.member("Bob")
    reply = await alice.slash("wallet")
    assert reply.ephemeral
    assert "**1,000 chips**" in reply.text and "Welcome chips" in reply.text

    reply = await alice.slash("daily")
    assert reply.ephemeral  # a balance is the member's own
    assert "You collected 100 chips: 1,100 chips now." in reply.text
    tomorrow = (int(T0) // DAY + 1) * DAY
    one_private_line(
        await alice.slash("daily"),
        f"You already took today's 100 chips; the next ones are due <t:{tomorrow}:R>.",
    )
    env.clock.advance(tomorrow - T0)  # midnight UTC
    assert "1,200 chips now" in (await alice.slash("daily")).text

    one_private_line(
        await alice.slash("pay", member=bob.member, amount=1_250),
        "You have 1,200 chips; you cannot pay 1,250 chips.",
    )
    one_private_line(
        await alice.slash("pay", member=alice.member, amount=5), "You cannot pay yourself."
    )
    one_private_line(
        # Outside the option's declared range: refused before the command runs.
        await alice.slash("pay", member=bob.member, amount=0, _validate=False),
        "The amount option must be between 1 and 1,000,000,000.",
    )
    reply = await alice.slash("pay", member=bob.member, amount=200)
    assert not reply.ephemeral and reply.text == f"{alice.mention} paid {bob.mention} 200 chips."
    [left] = reply.followups
    assert left.ephemeral and left.text == "You have 1,000 chips left."

    reply = await bob.slash("wallet")
    assert "**1,200 chips**" in reply.text and f"From {alice.mention}" in reply.text
    reply = await bob.slash("wallet", member=alice.member)
    assert "Wallet · Alice" in reply.text and "**1,000 chips**" in reply.text
    assert f"To {bob.mention}" in reply.text


async def test_chips_grant_and_take_need_manage_server(env: Env) -> None:
    alice, bob = await env.h.member("Alice"), await env.h.member("Bob")
    admin = await env.h.member("Admin", manage_guild=True)
    one_private_line(
        await bob.slash("chips grant", member=alice.member, amount=500, reason="pls"),
        "You need Manage Server to grant or remove chips.",
    )
    reply = await admin.slash("chips grant", member=alice.member, amount=5_000, reason="prize")
    assert not reply.ephemeral
    assert f"granted {alice.mention} 5,000 chips (prize)." in reply.text
    assert "6,000" not in reply.text  # the balance is said to the admin alone
    [now] = reply.followups
    assert now.ephemeral and now.text == f"{alice.mention} has 6,000 chips now."
    one_private_line(
        await admin.slash("chips take", member=alice.member, amount=7_000, reason="x"),
        "They have 6,000 chips; you cannot take 7,000 chips.",
    )
    reply = await admin.slash("chips take", member=alice.member, amount=1_500, reason="oops")
    assert f"removed 1,500 chips from {alice.mention} (oops)." in reply.text
    assert "4,500 chips now" in reply.followups[0].text
    reply = await alice.slash("wallet")
    assert f"Removed by {admin.mention}: oops" in reply.text
    assert f"Granted by {admin.mention}: prize" in reply.text


def turn_message(h: Harness) -> Message:
    thread = h.threads[-1]
    return next(m for m in reversed(h.messages(thread)) if any(not b.disabled for b in m.buttons))


async def play_out(env: Env, table_id: int, players: dict[int, Player]) -> None:
    """Click through a game: the player to move banks when they can, else throws."""
    for _ in range(300):
        table = await env.bot.tables.get(table_id)
        if table.status != "running":
            return
        state = table.rules
        player = players[table.seats[state.current].user_id or 0]
        message = turn_message(env.h)
        ids = [b.custom_id or "" for b in message.buttons if not b.disabled]
        action = next((i for i in ids if i.endswith(":bank")), None) or next(
            i for i in ids if i.endswith(":throw")
        )
        await player.click(message, custom_id=action)
    raise AssertionError("the game did not finish")


async def test_staked_game_pays_the_pot_and_fills_the_boards(env: Env) -> None:
    h = env.h
    alice, bob, cy = await h.member("Alice"), await h.member("Bob"), await h.member("Cy")
    admin = await h.member("Admin", manage_guild=True)
    await admin.slash("chips take", member=cy.member, amount=900, reason="test")

    lobby = await alice.slash("sequences start", rounds=1, stake=300)
    table_id = int(re.search(r"table #(\d+)", lobby.text).group(1))  # type: ignore[union-attr]
    one_private_line(
        await cy.click(lobby.message, "Join"), "You have 100 chips; this table's stake is 300."
    )
    await bob.click(lobby.message, "Join")
    assert "300 chips staked at open tables" in (await bob.slash("wallet")).text
    await bob.click(lobby.message, "Leave")
    assert "**1,000 chips**" in (await bob.slash("wallet")).text
    await bob.click(lobby.message, "Join")
    await alice.click(lobby.message, "Start")
    await play_out(env, table_id, {alice.id: alice, bob.id: bob})

    table = await env.bot.tables.get(table_id)
    assert table.status == "finished"
    state = table.rules
    assert state.outcome is not None
    winner, loser = (alice, bob) if 0 in state.outcome.winners else (bob, alice)
    assert "**1,300 chips**" in (await winner.slash("wallet")).text
    assert "Pot won at table" in (await winner.slash("wallet")).text
    assert "**700 chips**" in (await loser.slash("wallet")).text
    pot_lines = [m.content for m in h.messages() if m.content.startswith("💰")]
    assert pot_lines == [f"💰 {winner.name} won the pot of 600 chips."]

    board = await cy.slash("leaderboard")
    assert not board.ephemeral
    text = board.text
    assert text.index("Alice" if winner is alice else "Bob") < text.index(
        "Bob" if winner is alice else "Alice"
    )
    assert "Page 1 of 1 · 2 players" in text
    chips_board = await cy.slash("leaderboard", sort="chips")
    assert "**+300** chips" in chips_board.text and "**−300** chips" in chips_board.text

    stats = await winner.slash("stats")
    assert "1 won of 1 (100 %)" in stats.text
    assert "chips won 300 · lost 0" in stats.text  # net of the stake, each labelled
    assert "chips won 0 · lost 300" in (await loser.slash("stats")).text
    assert stats.files == []  # one game: no chart (from three on)
    refused = await winner.slash("stats", game="no such game!")
    assert refused.ephemeral and "\n" not in refused.text
    assert refused.text.startswith("There is no such game here: pick one from the list")


async def seed_board(env: Env, count: int) -> list[int]:
    """``count`` members; member k has won k games against a bot: wins sort is reversed."""
    users = [10_000 + k for k in range(1, count + 1)]
    async with env.db.transaction() as conn:
        for k, user in enumerate(users, 1):
            await upsert_member(conn, env.h.guild_id, user, f"Member {k}", T0)
            for _ in range(k):
                game = await create_game(conn, guild_id=env.h.guild_id, game_key=KEY)
                await write_results(conn, game, [S(user, 1), S(None, 2)])
                await record_finished_game(conn, game)
    return users


async def test_leaderboard_pages_viewer_row_and_restart(env: Env) -> None:
    h = env.h
    await seed_board(env, 24)
    viewer = await h.member("Viewer")
    async with env.db.transaction() as conn:  # the viewer won one game: last but one
        game = await create_game(conn, guild_id=h.guild_id, game_key=KEY)
        await write_results(conn, game, [S(viewer.id, 1), S(None, 2)])
        await record_finished_game(conn, game)

    board = await viewer.slash("leaderboard", sort="wins")
    assert "Page 1 of 3 · 25 players" in board.text
    assert "Member 24" in board.text and "Member 14" not in board.text
    assert "unrated" in board.text  # bot games rate nobody
    assert "…" in board.text and "__Viewer__" in board.text  # own row, off the page
    with pytest.raises(HarnessError, match="disabled"):
        await viewer.click(board.message, "◀ Previous")

    page2 = await viewer.click(board.message, "Next ▶")
    assert page2.message.id == board.message.id  # turned in place
    assert "Page 2 of 3" in page2.text and "Member 14" in page2.text

    # Someone else pressing gets the page privately, with their own row.
    other = await h.member("Other")
    theirs = await other.click(board.message, "Next ▶")
    assert theirs.ephemeral and "Page 3 of 3" in theirs.text
    assert "__Viewer__" not in theirs.text

    # After a restart the buttons still work: they carry everything in their custom_id.
    await h.restart(env.new_bot())
    back = await viewer.click(board.message, "◀ Previous")
    assert "Page 1 of 3" in back.text

    choices = await viewer.autocomplete("leaderboard", "game", "heart")
    assert {"name": "Hearts Due", "value": "heartsdue"} in choices


async def play_elsewhere(env: Env, guild_id: int, users: dict[int, str], stake: int) -> int:
    """A whole staked game in another server, through the table service (the harness has
    one guild): same database, same wallet hooks."""
    service: TableService = env.bot.tables
    host, *guests = users
    table = await service.open_lobby(
        guild_id=guild_id, channel_id=999, host_id=host, host_name=users[host], kind="sequences",
        settings={"variant": "standard", "rounds": 1, "target": None, "soft_last_die": False},
        stake=stake,
    )  # fmt: skip
    for user in guests:
        await service.join(table.id, user, users[user])
    change = await service.start(table.id, host)
    while change.table.status == "running":
        state = change.table.rules
        action = "throw" if state.phase == "throw" else "bank"
        user = change.table.seats[state.current].user_id
        assert user is not None
        change = await service.act(table.id, user, change.table.version, action)
    return table.id


async def test_two_servers_keep_separate_wallets_and_a_global_board(env: Env) -> None:
    h = env.h
    alice, bob = await h.member("Alice"), await h.member("Bob")
    other_guild = h.guild_id + 1
    dave = 4_242
    await play_elsewhere(env, other_guild, {alice.id: "Alice", dave: "Dave"}, stake=400)
    # Alice's wallet here is untouched by the stake and pot in the other server.
    assert "**1,000 chips**" in (await alice.slash("wallet")).text
    assert await wallets.balance(env.db, other_guild, alice.id) in (600, 1_400)

    here = await alice.slash("leaderboard", scope="server", sort="wins")
    assert "No game of Sequences has finished on this server yet." in here.text
    everywhere = await bob.slash("leaderboard", scope="global", sort="wins")
    assert "All servers, by wins" in everywhere.text
    assert "Alice" in everywhere.text and "Dave" in everywhere.text
    assert "Page 1 of 1 · 2 players" in everywhere.text


async def test_stakes_survive_a_restart_and_cancel_refunds_them(env: Env) -> None:
    h = env.h
    alice, bob = await h.member("Alice"), await h.member("Bob")
    lobby = await alice.slash("sequences start", rounds=1, stake=450)
    await bob.click(lobby.message, "Join")
    await h.restart(env.new_bot())
    assert "450 chips staked at open tables" in (await bob.slash("wallet")).text
    await alice.click(lobby.message, "Cancel")
    for player in (alice, bob):
        text = (await player.slash("wallet")).text
        assert "**1,000 chips**" in text and "Stake back from table #" in text


async def test_a_long_reason_is_echoed_as_it_is_kept(env: Env) -> None:
    """Discord caps the option at 200 characters; a forged interaction is not capped, and
    the ledger keeps 200: the public answer says what was kept, not what was sent."""
    alice = await env.h.member("Alice")
    admin = await env.h.member("Admin", manage_guild=True)
    sent = "because " + "y" * 600
    for command in ("chips grant", "chips take"):
        reply = await admin.slash(
            command, member=alice.member, amount=10, reason=sent, _validate=False
        )
        assert not reply.ephemeral
        kept = await env.db.fetchone("SELECT reason FROM ledger ORDER BY id DESC LIMIT 1")
        assert kept[0] == sent[: wallets.MAX_REASON]
        assert f"({kept[0]})" in reply.text and "y" * 200 not in reply.text


def sent_mentions(h: Harness, text: str) -> dict[str, object]:
    """The ``allowed_mentions`` sent with the (only) message whose content has ``text``."""
    bodies = [r.json for r in h.requests if isinstance(r.json, dict)]
    datas = [b.get("data", b) if "type" in b else b for b in bodies]
    [found] = [d for d in datas if isinstance(d, dict) and text in str(d.get("content", ""))]
    return dict(found["allowed_mentions"])


async def test_chips_reasons_echo_everyone_and_roles_without_pinging(env: Env) -> None:
    h = env.h
    mods = await h.role("Mods")
    alice, admin = await h.member("Alice"), await h.member("Admin", manage_guild=True)
    reason = f"@everyone look, {mods.mention} too @here"
    reply = await admin.slash("chips grant", member=alice.member, amount=50, reason=reason)
    assert f"granted {alice.mention} 50 chips ({reason})." in reply.text
    allowed = sent_mentions(h, "granted")
    assert allowed["parse"] == [] and allowed["users"] == [alice.id]

    reply = await admin.slash("chips take", member=alice.member, amount=20, reason=reason)
    assert f"removed 20 chips from {alice.mention} ({reason})" in reply.text
    allowed = sent_mentions(h, "removed")
    assert allowed["parse"] == [] and allowed["users"] == [alice.id]

    # The wallet repeats the reasons, silently too.
    assert f"Granted by {admin.mention}: {reason}" in (await alice.slash("wallet")).text


async def test_pay_pings_only_the_payee_explicitly(env: Env) -> None:
    alice, bob = await env.h.member("Alice"), await env.h.member("Bob")
    await alice.slash("pay", member=bob.member, amount=5)
    allowed = sent_mentions(env.h, "paid")
    assert allowed["parse"] == [] and allowed["users"] == [bob.id]


async def test_wallet_latest_fits_five_long_reasons(env: Env) -> None:
    # 200-character reasons whose every character markdown escaping doubles: 1,545 characters
    # uncut, over the 1,024 a field holds (the harness refuses such a message).
    alice, admin = await env.h.member("Alice"), await env.h.member("Admin", manage_guild=True)
    for _ in range(5):
        await admin.slash("chips grant", member=alice.member, amount=1, reason="*_" * 100)
    wallet = await alice.slash("wallet")
    [latest] = wallet.embeds[0]["fields"]
    value = latest["value"]
    assert len(value) <= 1024
    lines = value.split("\n")
    assert len(lines) == 5 and all(f"Granted by {admin.mention}: \\*\\_" in x for x in lines)
    assert all(x.endswith(":R>") and "…" in x for x in lines)


async def test_stats_answers_before_it_draws_a_slow_chart(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing the rating chart can outlast Discord's 3 seconds on a busy host (3.5 s
    here): /stats answers first ("thinking"), then the chart replaces that."""
    h = env.h
    alice, bob = await h.member("Alice"), await h.member("Bob")
    async with env.db.transaction() as conn:
        for _ in range(3):  # a chart from three games on
            game = await create_game(conn, guild_id=h.guild_id, game_key=KEY)
            await write_results(conn, game, [S(alice.id, 1), S(bob.id, 2)])
            await record_finished_game(conn, game)
    cog = sys.modules["cogs.stats"]  # the module the bot loaded (load_extension's own)
    draw = cog.rating_chart

    def slow_chart(points: Any) -> bytes:
        time.sleep(3.5)  # in the drawing thread, as a slow host would take
        return draw(points)

    monkeypatch.setattr(cog, "rating_chart", slow_chart)
    h.settle_timeout = 10

    stats = await alice.slash("stats")

    assert stats.answer_seconds is not None and stats.answer_seconds < 1.0
    assert not stats.message.loading  # the chart replaced "thinking"
    assert "3 won of 3 (100 %)" in stats.text
    assert [f.filename for f in stats.files] == ["rating.png"]
    assert stats.files[0].size > 500


async def finished(env: Env, game_key: str, seats: list[S]) -> None:
    async with env.db.transaction() as conn:
        game = await create_game(conn, guild_id=env.h.guild_id, game_key=game_key)
        await write_results(conn, game, seats)
        await record_finished_game(conn, game)


def field(reply: Any, name: str) -> str:
    [value] = [f["value"] for f in reply.embeds[0]["fields"] if f["name"] == name]
    return str(value)


async def test_board_stats_show_no_best_turn_and_each_figure_is_explained(env: Env) -> None:
    """Issue 31.18: the board game's /stats said "best turn 0" (a move scores no points),
    a loss read "streak 1 without a win", and one game drew a one-dot chart. The board game
    shows no best turn, a run reads as a phrase, the figures are explained under them, and
    the chart comes from three games on."""
    alice, bob = await env.h.member("Alice"), await env.h.member("Bob")
    await finished(env, "board", [S(bob.id, 1), S(alice.id, 2)])
    stats = await alice.slash("stats", game="board")
    board = field(stats, "Sequence (board game)")
    assert "best turn" not in board and "best" not in board
    assert "1 game without a win" in board and "streak" not in board
    assert stats.files == [] and "image" not in stats.embeds[0]
    footer = stats.embeds[0]["footer"]["text"]
    assert "rating: 1,000 for a newcomer" in footer and "best turn" not in footer

    for _ in range(2):
        await finished(env, "board", [S(alice.id, 1), S(bob.id, 2)])
    stats = await alice.slash("stats", game="board")
    assert "2 wins in a row" in field(stats, "Sequence (board game)")
    assert [f.filename for f in stats.files] == ["rating.png"]  # three rated games: a chart

    # A dice game's best turn stays, said what it is.
    await finished(env, KEY, [S(alice.id, 1, best_turn=7), S(bob.id, 2, best_turn=3)])
    stats = await alice.slash("stats")
    assert "best turn 7" in field(stats, "Sequences")
    footer = stats.embeds[0]["footer"]["text"]
    assert "best turn: the most points banked in one turn" in footer
    await finished(env, "heartsdue", [S(alice.id, 1, best_turn=25), S(bob.id, 2)])
    assert "best throw 25" in field(await alice.slash("stats", game="heartsdue"), "Hearts Due")


def german(message: str, **values: object) -> str:
    with speaking("de"):
        return gettext(message, **values)


async def test_public_answers_in_the_servers_words_private_ones_in_the_members(
    env: Env,
) -> None:
    """Issue 31.8: on a German server a member with an English client posted an English
    /leaderboard and /stats; an admin with a German client, the server switched to English,
    posted a German chip-grant notice; /daily and /pay announced balances in the channel.
    Public: /leaderboard (and the page its owner turns), the /pay and /chips notices (no
    balance), in the server's language. Private: /stats, /daily, the balances, in the
    member's."""
    h = env.h
    h.guild_locale = "de"  # the server's Discord language; the members' clients are English
    alice, bob = await h.member("Alice"), await h.member("Bob")
    admin = await h.member("Admin", manage_guild=True, locale="de")
    await seed_board(env, 24)  # three pages
    for _game in range(3):
        await finished(env, KEY, [S(alice.id, 1, best_turn=4), S(bob.id, 2)])

    board = await alice.slash("leaderboard", sort="wins")
    assert not board.ephemeral
    assert board.embeds[0]["title"].startswith(german("Leaderboard · "))
    turned = await alice.click(board.message, board.message.labels[1])  # her own page: public
    assert turned.message.id == board.message.id
    assert turned.message.embeds[0]["title"].startswith(german("Leaderboard · "))
    theirs = await bob.click(board.message, board.message.labels[1])  # another's: private
    assert theirs.ephemeral and theirs.embeds[0]["title"].startswith("Leaderboard · ")

    stats = await alice.slash("stats")
    assert stats.ephemeral and stats.message.visible_to == alice.id
    assert stats.embeds[0]["title"] == "Statistics · Alice"
    assert [f.filename for f in stats.files] == ["rating.png"]

    daily = await alice.slash("daily")
    assert daily.ephemeral and daily.text.startswith("You collected 100 chips")

    paid = await alice.slash("pay", member=bob.member, amount=10)
    assert not paid.ephemeral
    assert paid.text == german("%(who)s paid %(member)s %(chips)s.", who=alice.mention,
                               member=bob.mention, chips="10 Chips")  # fmt: skip
    [left] = paid.followups
    assert left.ephemeral and left.text == "You have 1,090 chips left."

    # The admin reads German; the server is switched to English: the notice is English.
    await admin.slash("settings language", language="en")
    granted = await admin.slash("chips grant", member=bob.member, amount=5, reason="prize")
    assert not granted.ephemeral
    assert granted.text == f"{admin.mention} granted {bob.mention} 5 chips (prize)."
    [now] = granted.followups
    assert now.ephemeral and now.text == german(
        "%(member)s has %(balance)s now.", member=bob.mention, balance="1.015 Chips"
    )
    season = await admin.slash("settings season", name="Spring")
    assert not season.ephemeral and season.text.startswith("🏁 Season **Spring** has started.")
    # A tournament's public answers too: /tournament show and cancel's line.
    await admin.slash("tournament create", game="sequences:standard", format="swiss")
    shown = await admin.slash("tournament show")
    assert not shown.ephemeral and shown.content.startswith("Join on the tournament's sign-up")
    cancelled = await admin.slash("tournament cancel", tournament=1)
    [line] = cancelled.followups
    assert not line.ephemeral and line.text == "Tournament #1 is cancelled: no result."
