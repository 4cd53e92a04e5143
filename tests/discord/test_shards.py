"""A sharded bot in the fake Discord: built from the settings as an AutoShardedBot over its
shards, it answers commands and clicks in its guild, and its timers and its redraw after a
restart leave alone the guilds another process runs on the same database."""

from __future__ import annotations

import random
from pathlib import Path

from discord.ext import commands

from bot.app import SequencesBot, ShardedSequencesBot, make_bot
from bot.config import Settings
from bot.games.registry import Games
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from bot.tables.shards import EVERY_GUILD, Shards
from bot.tables.timers import TableTimers
from tests.discord.conftest import MakeEnv
from tests.reliability.helpers import crash_at_commit
from tests.reliability.test_restore import click_throw, edits_since

GUILD_ON_0 = (912_004 << 22) | 0x3E8
GUILD_ON_1 = (912_005 << 22) | 0x7D1


async def test_settings_choose_the_bot_and_its_shards(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        sharded = make_bot(Settings(_env_file=None, shard_count=4, shard_ids="1,3"), db)
        assert isinstance(sharded, commands.AutoShardedBot)
        assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
        assert sharded.tables.shards == sharded.shell.shards == Shards(4, (1, 3))

        every = make_bot(Settings(_env_file=None, shard_count=2), db)  # both shards here
        assert isinstance(every, commands.AutoShardedBot)
        assert every.shard_count == 2 and every.shard_ids == [0, 1]
        assert every.tables.shards.subset() is None

        plain = make_bot(Settings(_env_file=None), db)  # no SHARD_COUNT: as before
        assert type(plain) is SequencesBot and not isinstance(plain, commands.AutoShardedBot)
        assert plain.shard_count is None and plain.tables.shards == EVERY_GUILD
    finally:
        await db.close()


async def test_a_sharded_bot_plays_its_guild_and_leaves_the_others_alone(
    make_env: MakeEnv,
) -> None:
    env = await make_env(
        seed=4,
        bot_class=ShardedSequencesBot,
        guild_id=GUILD_ON_1,
        shard_count=2,
        shard_ids=[1],
    )
    assert isinstance(env.bot, commands.AutoShardedBot) and env.bot.shard_ids == [1]
    assert env.h.guild.shard_id == 1
    # The process running shard 0, on the same database file, has a lobby in its guild.
    other_db = await Database.open(env.database)
    other = TableService(
        TableKernel(
            other_db,
            Games(),
            env.settings.table_limits(),
            env.clock,
            random.Random(9),
            shards=Shards(2, (0,)),
        )
    )
    try:
        theirs = await other.open_lobby(
            guild_id=GUILD_ON_0,
            channel_id=GUILD_ON_0 + 1,
            host_id=77,
            host_name="Zed",
            kind="sequences",
            settings={"variant": "standard", "rounds": 3, "target": None, "soft_last_die": False},
        )
        # Commands and clicks work on the sharded bot, as on a plain one.
        ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
        lobby = (await ana.slash("sequences start", rounds=3)).message
        joined = await bo.click(lobby, "Join")
        assert joined.response_type == 7 and bo.mention in lobby.embed_text()
        started = await ana.click(lobby, "Start")
        assert not started.ephemeral and "Game on!" in lobby.text
        [ours] = [t.id for t in await env.bot.tables.live_tables() if t.id != theirs.id]
        assert (await env.bot.tables.get(ours)).status == "running"

        # The process dies after a throw is committed, before Discord shows it; at the
        # restart it redraws its own table and never the other shard's (also behind).
        with crash_at_commit(env.bot.db, "after"), env.h.expect_errors("unexpected"):
            await click_throw(env, ours, [ana, bo])
        start = len(env.h.requests)
        await env.restart()
        assert isinstance(env.bot, ShardedSequencesBot) and env.bot.shard_ids == [1]
        table = await env.bot.tables.get(ours)
        edited = edits_since(env, start)
        assert edited == [f"/channels/{table.game_channel_id}/messages/{table.row.message_id}"]
        assert await env.bot.tables.behind_on_discord() == []
        assert await other.behind_on_discord() == [theirs.id]

        # Every timer has run out: this bot's tick plays its own game's turn only; the
        # other shard's lobby waits for its own process.
        assert await env.tick(15 * 60 + 1) == 1
        assert (await other.get(theirs.id)).status == "lobby"
        [change] = await TableTimers(other.kernel).run_due()
        assert change.table.id == theirs.id and change.table.status == "expired"
    finally:
        await other_db.close()
