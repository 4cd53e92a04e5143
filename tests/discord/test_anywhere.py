"""Play anywhere (issue 22, item 6): one-roll games, /odds and /rules through a member's own
install of the app, in a DM or group DM where the bot is no member. The table is the start
command's one message, redrawn by every click's answer; nothing is posted by REST there
(the fake answers 403 to any such call, as Discord does)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.games.base import guild_of
from bot.records import NO_GUILD
from bot.store import stats
from tests.discord.conftest import Env, MakeEnv
from tests.harness import HarnessError, Message, Player
from tests.harness import payloads as P

THROW = "Throw 6 dice"


def to_move(env: Env, message: Message, players: list[Player]) -> Player:
    """The member the table's message names as the one to throw."""
    return next(p for p in players if f"{p.mention}, your turn" in message.content)


async def play_out(env: Env, message: Message, players: list[Player], limit: int = 200) -> None:
    for _ in range(limit):
        if THROW not in message.labels:
            return
        reply = await to_move(env, message, players).click(message, THROW)
        assert reply.message.id == message.id and not reply.ephemeral, reply.text
        assert "fallen behind" not in message.content  # every change was shown at once
        await env.run_bots()
    raise AssertionError("the game did not end")


def rest_calls_in(env: Env, channel_id: int) -> list[str]:
    return [
        f"{r.method} {r.path}"
        for r in env.h.requests
        if r.source == "rest" and f"/channels/{channel_id}" in r.path
    ]


async def test_a_one_roll_game_is_played_to_the_end_in_a_dm(make_env: MakeEnv) -> None:
    env = await make_env(seed=7)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    reply = await ana.slash("heartsdue start", _channel=dm, target=20)
    assert not reply.ephemeral
    lobby = reply.message
    assert "no turn timer" in lobby.embed_text()
    assert "Watch" not in lobby.labels  # watching joins a thread: a DM has none
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    assert THROW in lobby.labels  # the lobby's message is now the game's
    assert "Watch" not in lobby.labels and "Stop watching" not in lobby.labels
    assert "No turn timer here" in lobby.content
    await play_out(env, lobby, [ana, bo])

    assert "won" in lobby.embeds[0]["title"]
    assert "Rematch" not in lobby.labels  # a rematch opens a lobby in a channel: servers only
    assert not env.h.threads
    assert [m.id for m in env.h.messages(dm, ephemeral=False)] == [lobby.id]
    assert rest_calls_in(env, dm) == []  # everything went through the interactions
    # Kept in the database, on no server's leaderboard: results with NO_GUILD, no stats.
    row = await env.bot.db.fetchone("SELECT guild_id, status FROM games")
    assert (row["guild_id"], row["status"]) == (NO_GUILD, "finished")
    results = await env.bot.db.fetchone(
        "SELECT COUNT(*) AS n, MIN(guild_id) AS g FROM game_results"
    )
    assert (results["n"], results["g"]) == (2, NO_GUILD)
    assert (await env.bot.db.fetchone("SELECT COUNT(*) AS n FROM player_stats"))["n"] == 0
    report = await stats.rebuild_ratings(env.bot.db)
    assert report.games == 0


async def test_classic_sequences_against_a_bot_player_in_a_group_dm(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    chat = env.h.private_channel(ana, bo, cy, group=True)
    lobby = (await ana.slash("sequences start", _channel=chat, rules="classic", target=20)).message
    await ana.click(lobby, "Add bot: thrower")
    await ana.click(lobby, "Start")
    await env.run_bots()  # the bot may throw first: shown through the Start click's token
    await play_out(env, lobby, [ana])
    assert "won" in lobby.embeds[0]["title"]
    assert rest_calls_in(env, chat) == []


async def test_a_message_that_fell_behind_catches_up_on_the_next_click(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    lobby = (await ana.slash("heartsdue start", _channel=dm, target=20)).message
    await ana.click(lobby, "Add bot: thrower")
    await ana.click(lobby, "Start")
    await env.run_bots()
    shown = lobby.payload["components"]
    # A restart forgets every token: the bot's next move is saved but cannot be shown.
    await ana.click(lobby, THROW)
    await env.restart()
    shown = lobby.payload["components"]
    await env.run_bots()
    assert lobby.payload["components"] == shown  # behind
    reply = await ana.click(lobby, THROW)
    assert "fallen behind" in reply.message.content and not reply.ephemeral
    assert lobby.payload["components"] != shown
    await play_out(env, lobby, [ana])
    assert "won" in lobby.embeds[0]["title"]


async def test_odds_and_rules_answer_in_a_group_dm(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    chat = env.h.private_channel(ana, bo, cy, group=True)
    odds = await ana.slash("odds", _channel=chat)
    assert odds.ephemeral and odds.embeds
    full = await ana.click(odds.message, odds.message.labels[0] or "")
    assert full.embeds or full.text
    rules = await bo.slash("rules", _channel=chat, game="heartsdue")
    assert rules.ephemeral and "Hearts Due" in rules.embed_text()
    assert rest_calls_in(env, chat) == []


async def test_stakes_and_push_your_luck_are_refused_outside_servers(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    staked = await ana.slash("heartsdue start", _channel=dm, stake=10)
    assert staked.ephemeral and "Stakes and leaderboards are for servers" in staked.text
    push = await ana.slash("sequences start", _channel=dm)
    assert push.ephemeral and "servers only" in push.text
    assert (await env.bot.db.fetchone("SELECT COUNT(*) AS n FROM games"))["n"] == 0


async def test_server_only_commands_are_not_offered_in_dms(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    for command in ("board start", "leaderboard", "wallet"):
        with pytest.raises(HarnessError, match="would not offer"):
            await ana.slash(command, _channel=dm)


async def test_the_host_ends_a_dm_game_and_a_player_resigns_one(make_env: MakeEnv) -> None:
    env = await make_env(seed=2)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    first = (await ana.slash("heartsdue start", _channel=dm)).message
    await bo.click(first, "Join")
    await ana.click(first, "Start")
    ended = await ana.slash("heartsdue end", _channel=dm)
    assert "ended" in ended.text and not ended.ephemeral
    assert first.embeds[0]["title"] == "Game closed" and THROW not in first.labels
    late = await bo.click_stale(
        first, first.history[-1]["components"][0]["components"][0]["custom_id"]
    )
    assert "fallen behind" in late.message.content  # the old buttons catch up, change nothing

    second = (await bo.slash("sequences start", _channel=dm, rules="classic")).message
    await ana.click(second, "Join")
    await bo.click(second, "Start")
    confirm = await ana.click(second, "Resign")
    assert confirm.ephemeral
    await ana.click(confirm.message, "Resign")
    assert "won" in second.embeds[0]["title"]  # Bo is the one left: the game is his
    assert rest_calls_in(env, dm) == []


async def test_exactly_the_one_roll_games_odds_and_rules_install_to_a_member(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    schemas = [c.to_dict(env.bot.tree) for c in env.bot.tree.get_commands()]
    anywhere = {c["name"] for c in schemas if 1 in (c.get("integration_types") or [])}
    assert anywhere == {"heartsdue", "odds", "rules", "sequences"}
    for schema in schemas:
        if schema["name"] in anywhere:
            assert schema["contexts"] == [0, 1, 2] and schema["integration_types"] == [0, 1]
    board = next(c for c in schemas if c["name"] == "board")
    assert board["contexts"] == [0]  # servers only, like every staked or ranked command


async def test_alone_against_a_bot_in_the_dm_with_the_bot(make_env: MakeEnv) -> None:
    env = await make_env(seed=11)
    ana = await env.h.member("Ana")
    dm = env.h.bot_dm(ana)
    lobby = (await ana.slash("heartsdue start", _channel=dm, target=20)).message
    await ana.click(lobby, "Add bot: thrower")
    await ana.click(lobby, "Start")
    await env.run_bots()
    await play_out(env, lobby, [ana])
    assert "won" in lobby.embeds[0]["title"]
    assert [m.id for m in env.h.messages(dm)] == [lobby.id]


async def test_a_dm_lobby_nobody_starts_closes_while_its_message_can_say_so(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    lobby = (await ana.slash("heartsdue start", _channel=dm)).message
    assert await env.tick(13 * 60) == 0  # open still
    assert await env.tick(60 + 1) == 1
    assert "Nobody started this table in time." in lobby.embed_text()
    assert "Join" not in lobby.labels


async def test_a_game_idle_past_its_tokens_waits_then_catches_up(make_env: MakeEnv) -> None:
    env = await make_env(seed=6)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    table = (await ana.slash("heartsdue start", _channel=dm)).message
    await bo.click(table, "Join")
    await ana.click(table, "Start")
    assert await env.tick(3600) == 0  # no turn timer: an hour of quiet changes nothing
    env.h.expire_interactions()
    ended = await ana.slash("heartsdue end", _channel=dm)
    assert "ended" in ended.text
    assert THROW in table.labels  # no token left to edit the table's message with
    late = await bo.click(table, THROW)
    assert not late.ephemeral and "fallen behind" in table.content
    assert table.embeds[0]["title"] == "Game closed" and THROW not in table.labels


async def test_a_server_without_the_app_counts_as_outside_servers(make_env: MakeEnv) -> None:
    """A member's own install used in a server that has not installed the bot: Discord
    names the user, not the server, as the interaction's owner, and the bot is no member
    there, so its tables are kept as outside servers (one message, no stakes)."""
    env = await make_env()
    ana = await env.h.member("Ana")
    channel = P.channel_payload(env.h.channel)

    def interaction(owners: dict[str, str]) -> discord.Interaction[Any]:
        payload = P.interaction_payload(
            type=P.APPLICATION_COMMAND,
            application_id=env.bot.application_id or 0,
            guild_id=env.h.guild.id,
            channel=channel,
            member=P.member_payload(ana.member),
            data={"id": "1", "name": "heartsdue", "type": 1},
        )
        payload["authorizing_integration_owners"] = owners
        return discord.Interaction(data=payload, state=env.bot._connection)

    assert guild_of(interaction({"0": str(env.h.guild.id)})) == env.h.guild.id
    both = {"0": str(env.h.guild.id), "1": str(ana.id)}
    assert guild_of(interaction(both)) == env.h.guild.id
    assert guild_of(interaction({"1": str(ana.id)})) == NO_GUILD


async def test_invitations_are_refused_outside_servers(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    reply = await ana.slash("heartsdue start", _channel=dm, with_=bo.mention)
    assert reply.ephemeral
    assert reply.text == "Invitations are for servers: here, everyone in the chat can press Join."
    assert (await env.bot.db.fetchone("SELECT COUNT(*) AS n FROM games"))["n"] == 0
