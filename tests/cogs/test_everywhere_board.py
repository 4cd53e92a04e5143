"""``/leaderboard scope:everywhere`` and the everywhere ladder in ``/stats`` (issue 36): the
results of cross-server quick-play tables (guild id EVERYWHERE), through the harness with
two servers."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.app import SequencesBot
from bot.config import Settings
from bot.records import EVERYWHERE
from bot.store.db import Database
from bot.store.stats import record_finished_game
from bot.tables import wallets
from tests.backends import DbTarget
from tests.conftest import MakeHarness
from tests.fakes import FakeClock
from tests.harness import Harness, Player
from tests.reliability.helpers import forge_click
from tests.store.helpers import S, create_game, write_results

T0 = 1_780_000_000.0
BOARD = "board"
SEQUENCES = "sequences:standard"


@dataclass
class Env:
    h: Harness
    bot: SequencesBot
    db: Database
    clock: FakeClock

    async def finished(self, guild_id: int, game_key: str, seats: list[S]) -> None:
        """A finished game as the table layer records it, at the clock's time."""
        self.clock.advance(60)
        async with self.db.transaction() as conn:
            game = await create_game(conn, guild_id=guild_id, game_key=game_key)
            await write_results(conn, game, seats, now=self.clock())
            assert await record_finished_game(conn, game)


@pytest.fixture
async def env(db_target: DbTarget, make_harness: MakeHarness) -> AsyncIterator[Env]:
    db = await Database.open(db_target("bot"))
    clock = FakeClock(T0)
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    bot = SequencesBot(settings, db, clock=clock, rng=random.Random(5), run_timers=False)
    h = await make_harness(bot, more_guilds=("Other Guild",))
    yield Env(h, bot, db, clock)
    await h.stop()
    assert (await wallets.check_invariant(db)).ok
    await db.close()


async def two_servers(env: Env) -> tuple[Player, Player, Player]:
    """Ana (here) beat Dave (the other server) twice across servers; Bo played Ana here."""
    h = env.h
    ana, bo = await h.member("Ana"), await h.member("Bo")
    dave = await h.member("Dave", guild=h.guild_ids[1])
    await env.finished(EVERYWHERE, BOARD, [S(ana.id, 1), S(dave.id, 2)])
    await env.finished(EVERYWHERE, BOARD, [S(ana.id, 1), S(dave.id, 2)])
    await env.finished(h.guild_id, BOARD, [S(bo.id, 1), S(ana.id, 2)])
    return ana, bo, dave


async def test_the_everywhere_board_holds_cross_server_games_only(env: Env) -> None:
    ana, bo, dave = await two_servers(env)
    await dave.slash("stats")  # seen in their own server: the board names them so
    unseen = await bo.slash("leaderboard", game="board", scope="everywhere")
    assert f"<@{ana.id}>" in unseen.text and "Dave" in unseen.text  # Ana: never seen yet
    await ana.slash("stats")
    ladder = await bo.slash("leaderboard", game="board", scope="everywhere")
    assert not ladder.ephemeral
    assert "Quick play across servers, by rating" in ladder.text
    assert "Ana" in ladder.text and "Dave" in ladder.text and "__Bo__" not in ladder.text
    assert "2/2 won" in ladder.text and "Page 1 of 1 · 2 players" in ladder.text
    # The same ladder from the other server.
    there = await dave.slash("leaderboard", game="board", scope="everywhere", sort="wins")
    assert "Quick play across servers, by wins" in there.text
    assert there.text.index("Ana") < there.text.index("Dave")
    # Neither this server's board nor the pooled one has the cross-server games.
    here = await bo.slash("leaderboard", game="board", scope="server", sort="wins")
    pooled = await bo.slash("leaderboard", game="board", scope="global", sort="wins")
    for board in (here, pooled):
        assert "Dave" not in board.text and "Page 1 of 1 · 2 players" in board.text
        # Bo's one game with Ana; her two wins across servers are not here.
        assert "Ana · **0** won · 1 played" in board.text


async def test_the_everywhere_board_pages_and_its_buttons_survive_a_restart(env: Env) -> None:
    h = env.h
    ana = await h.member("Ana")
    rivals = [10_000 + i for i in range(14)]  # members of other servers, never seen here
    for rival in rivals:
        await env.finished(EVERYWHERE, SEQUENCES, [S(ana.id, 1), S(rival, 2)])
    board = await ana.slash("leaderboard", scope="everywhere", sort="wins")
    assert "Page 1 of 2 · 15 players" in board.text and "__Ana__" in board.text
    page2 = await ana.click(board.message, "Next ▶")
    assert page2.message.id == board.message.id and "Page 2 of 2" in page2.text
    assert "Quick play across servers" in page2.text
    settings = Settings(_env_file=None, start_cooldown_seconds=0)  # type: ignore[call-arg]
    await h.restart(SequencesBot(settings, env.db, clock=env.clock, run_timers=False))
    back = await ana.click(board.message, "◀ Previous")
    assert "Page 1 of 2" in back.text and "Quick play across servers" in back.text


async def test_the_everywhere_board_has_no_season(env: Env) -> None:
    ana, _, _ = await two_servers(env)
    refusal = (
        "The leaderboard of quick play across servers has no seasons: leave the season option out."
    )
    for season in ("all-time", "current", "Spring"):
        reply = await ana.slash("leaderboard", game="board", scope="everywhere", season=season)
        assert reply.ephemeral and reply.text == refusal
    # Unset: the ladder, even while this server runs a season.
    mod = await env.h.member("Mod", manage_guild=True)
    started = await mod.slash("settings season", name="Spring")
    assert "Spring" in started.text
    ladder = await ana.slash("leaderboard", game="board", scope="everywhere")
    assert "Quick play across servers, by rating" in ladder.text and "season" not in ladder.text


async def test_an_empty_everywhere_board_says_so(env: Env) -> None:
    ana, _, _ = await two_servers(env)
    empty = await ana.slash("leaderboard", game="heartsdue", scope="everywhere")
    assert "No quick-play game of Hearts Due across servers has finished yet." in empty.text


async def test_stats_show_the_everywhere_ladder_line(env: Env) -> None:
    ana, bo, dave = await two_servers(env)
    stats = await ana.slash("stats")
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    ladder = fields["Sequence (board game) · quick play across servers"]
    assert "2 won of 2 (100 %)" in ladder and "2 wins in a row" in ladder
    assert "rating **" in ladder and "chips" not in ladder
    assert "0 won of 1" in fields["Sequence (board game)"]  # this server's line, its own
    # Dave has no game in his server, only the ladder's.
    theirs = await dave.slash("stats")
    assert "No finished games on this server yet." in theirs.text
    [only] = theirs.embeds[0]["fields"]
    assert only["name"] == "Sequence (board game) · quick play across servers"
    assert "0 won of 2" in only["value"]
    # Bo never played across servers: no such line.
    assert "across servers" not in (await bo.slash("stats")).text
    # The game option filters the ladder's lines too.
    assert "across servers" not in (await ana.slash("stats", game="heartsdue")).text


async def test_a_forged_season_on_the_everywhere_board_is_refused(env: Env) -> None:
    ana, _, _ = await two_servers(env)
    mod = await env.h.member("Mod", manage_guild=True)
    await mod.slash("settings season", name="Spring")  # this server's season: a real id
    [season] = await env.bot.shell.stats.list_seasons(env.h.guild_id)
    board = await ana.slash("leaderboard", game="board", scope="everywhere")
    custom_id = f"lb:{ana.id}:1:e:r{season.id}:board"
    forged = await forge_click(env, ana, board, custom_id)  # type: ignore[arg-type]
    assert forged.ephemeral and forged.text == "That season is not one of this server's."
    assert "Quick play across servers, by rating" in board.message.text  # unchanged
