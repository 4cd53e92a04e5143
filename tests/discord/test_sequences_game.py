"""Sequences through real slash commands and button clicks, as players would use it."""

from __future__ import annotations

from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player


async def open_table(env: Env, host: Player, *joiners: Player, **options: object) -> Message:
    reply = await host.slash("sequences start", **options)
    lobby = reply.message
    assert not reply.ephemeral
    for player in joiners:
        lobby = (await player.click(lobby, "Join")).message
    return lobby


async def play_until_over(env: Env, players: dict[int, Player], limit: int = 400) -> None:
    """Each player throws, then banks once the run is 2 or more, else pushes."""
    for _ in range(limit):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            return
        state = table.rules
        seat = table.seats[state.current]
        if seat.is_bot:
            await env.run_bots()
            continue
        player = players[seat.user_id or 0]
        message = env.turn_message()
        ping = env.ping()  # the player to move is pinged
        assert ping is not None and player.mention in ping.content
        labels = message.labels
        if state.phase == "throw":
            label = next(lb for lb in labels if lb and lb.startswith("Throw"))
        elif len(state.run) + len(state.extending) >= 2 or not any(
            lb and lb.startswith("Push") for lb in labels
        ):
            label = next(lb for lb in labels if lb and lb.startswith("Bank"))
        else:
            label = next(lb for lb in labels if lb and lb.startswith("Push"))
        reply = await player.click(message, label)
        assert not reply.ephemeral, reply.text
    raise AssertionError("game did not finish")


async def test_a_whole_game_from_lobby_to_leaderboard(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo, rounds=2)
    assert lobby.labels[:4] == ["Join", "Leave", "Start", "Cancel"]
    assert "Add bot: optimal" in lobby.labels
    assert "2 rounds" in lobby.text and ana.mention in lobby.text and bo.mention in lobby.text

    reply = await ana.click(lobby, "Start")
    assert "Game on" in reply.message.text
    [thread] = env.h.threads
    first = env.turn_message()
    assert first.channel_id == thread.id
    assert "Throw 5 dice" in first.labels
    assert env.ping() is not None and ana.mention in env.ping().content  # type: ignore[union-attr]

    await play_until_over(env, {ana.id: ana, bo.id: bo})
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    final = env.turn_message()
    assert "won" in final.text and final.labels == ["Rematch"]  # no game button is left
    summary = env.h.last_message(env.h.channel)
    assert "🏆" in summary.content and f"<#{thread.id}>" in summary.content

    board = await bo.slash("leaderboard")
    state = table.rules
    winner = table.seats[state.outcome.winners[0]].name if state.outcome else "?"
    top = next(line for line in board.text.splitlines() if line.startswith("`  1.`"))
    assert winner in top and "1/1 won (100 %)" in top


async def test_wrong_player_stale_and_double_clicks(make_env: MakeEnv) -> None:
    env = await make_env(seed=2)
    ana, bo, cy = await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy")
    lobby = await open_table(env, ana, bo)
    await ana.click(lobby, "Start")
    turn = env.turn_message()
    throw_id = turn.button("Throw 5 dice").custom_id

    wrong = await bo.click(turn, "Throw 5 dice")
    assert wrong.ephemeral and wrong.text == "It's Ana's turn, not yours."
    outsider = await cy.click(turn, "Throw 5 dice")
    assert outsider.ephemeral and "not playing" in outsider.text
    version = (await env.bot.tables.get(1)).version

    first = await ana.click(turn, "Throw 5 dice")
    assert not first.ephemeral
    # The same button again (a double click, or an old copy of the message): refused.
    again = await ana.click_stale(turn, throw_id)
    assert again.ephemeral and again.text == "That throw is over."
    assert (await env.bot.tables.get(1)).version == version + 1


async def test_lobby_leave_cancel_and_permissions(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    lobby = await open_table(env, ana, bo)
    left = await bo.click(lobby, "Leave")
    assert bo.mention not in left.message.text
    refused = await bo.click(lobby, "Cancel")
    assert refused.ephemeral and "Only the host" in refused.text
    start_alone = await ana.click(lobby, "Start")
    assert start_alone.ephemeral and "needs 2 to 4 players" in start_alone.text
    cancelled = await mod.click(lobby, "Cancel")
    assert "cancelled" in cancelled.message.text and cancelled.message.buttons == []
    late = await bo.click_stale(lobby, "t:1:L:join")
    assert late.ephemeral and "closed" in late.text


async def test_lobby_expires_after_fifteen_minutes(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    lobby = await open_table(env, ana)
    assert await env.tick(14 * 60) == 0
    assert await env.tick(61) == 1
    message = env.h.message(lobby.id)
    assert "Nobody started this table in time" in message.text and message.buttons == []


async def test_bot_players_play_with_a_visible_pause(make_env: MakeEnv) -> None:
    env = await make_env(seed=11)
    ana = await env.h.member("Ana")
    lobby = await open_table(env, ana, rounds=1)
    lobby = (await ana.click(lobby, "Add bot: cautious")).message
    assert "Ada" in lobby.text and "cautious" in lobby.text
    await ana.click(lobby, "Start")
    await play_until_over(env, {ana.id: ana})
    assert (await env.bot.tables.get(1)).status == "finished"


async def test_turn_timer_plays_for_the_absent_and_three_misses_abandon(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo, rounds=10)
    await ana.click(lobby, "Start")
    assert "Turn timer: ends <t:" in env.turn_message().text
    for _ in range(4):
        assert await env.tick(181) == 1
    recent = env.turn_message().text
    assert "⏰ Ana ran out of time; the bot played that turn." in recent
    assert "⏰ Bo ran out of time; the bot played that turn." in recent
    await env.tick(181)
    table = await env.bot.tables.get(1)
    assert table.status == "abandoned"
    assert "abandoned" in env.h.message(lobby.id).text


async def test_end_command_needs_host_or_manage_server(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo)
    await ana.click(lobby, "Start")
    [thread] = env.h.threads
    refused = await bo.slash("sequences end", _channel=thread)
    assert refused.ephemeral and "Only the host" in refused.text
    ended = await ana.slash("sequences end", _channel=thread)
    assert "ended" in ended.text
    assert (await env.bot.tables.get(1)).status == "ended"
    assert env.turn_message().buttons == []


async def test_restart_mid_turn_old_buttons_still_work(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo)
    await ana.click(lobby, "Start")
    turn = env.turn_message()
    await ana.click(turn, "Throw 5 dice")
    before = await env.bot.tables.get(1)

    await env.restart()
    after = await env.bot.tables.get(1)
    assert after.version == before.version and after.rules == before.rules
    message = env.turn_message()
    label = next(lb for lb in message.labels if lb and lb.startswith(("Bank", "Throw")))
    reply = await (ana if after.rules.current == 0 else bo).click(message, label)
    assert not reply.ephemeral
    assert (await env.bot.tables.get(1)).version == after.version + 1


async def test_restart_in_the_lobby(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana)
    await env.restart()
    joined = await bo.click(lobby, "Join")
    assert bo.mention in joined.message.text
    started = await ana.click(joined.message, "Start")
    assert "Game on" in started.message.text


async def test_rules_and_help(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    rules = await ana.slash("rules", game="sequences")
    assert rules.ephemeral and "bonus throw" in rules.text
    helped = await ana.slash("help")
    assert "/sequences start" in helped.text and "/leaderboard" in helped.text


async def test_server_settings_turn_timer_and_stake_cap(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, mod = await env.h.member("Ana"), await env.h.member("Mod", manage_guild=True)
    refused = await ana.slash("settings max-stake", amount=100)
    assert refused.ephemeral and "Manage Server" in refused.text
    assert (await mod.slash("settings max-stake", amount=100)).ephemeral
    assert (await mod.slash("settings turn-timer", seconds=60)).ephemeral
    too_much = await ana.slash("sequences start", stake=200)
    assert too_much.ephemeral and "between 0 and 100 chips on this server" in too_much.text
    lobby = (await ana.slash("sequences start", stake=100)).message
    assert "1 min" in lobby.text and "100 chips each" in lobby.text
    beyond = await mod.slash("settings max-stake", amount=10_000_000)
    assert beyond.ephemeral and "the bot's limit" in beyond.text
