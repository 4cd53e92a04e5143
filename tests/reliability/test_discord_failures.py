"""Issue 7.4: every Discord call that can fail, failing (403, 404, 429, dead tokens, 50007),
through the harness's fault injection and real permission checks. The game's committed
state is never lost: the bot falls back, reposts, or ends the game cleanly with refunds,
and says which permission is missing."""

from __future__ import annotations

from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player
from tests.reliability.helpers import table_row


async def lobby_of_two(env: Env, command: str = "sequences start", **options: object) -> tuple[
    Player, Player, Message
]:  # fmt: skip
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash(command, **(options or {"rounds": 3}))).message
    await bo.click(lobby, "Join")
    return ana, bo, lobby


async def to_move(env: Env, *players: Player) -> Player:
    table = await env.bot.tables.get(1)
    assert table.rules is not None
    user = table.seats[table.game.current_seat(table.rules) or 0].user_id
    return next(p for p in players if p.id == user)


def game_message(env: Env, row: dict[str, object]) -> Message:
    return env.h.message(int(row["message_id"]))  # type: ignore[call-overload]


async def test_thread_creation_refused_runs_the_game_in_the_channel(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, lobby = await lobby_of_two(env)
    env.h.fail_next("POST", r"/messages/\d+/threads$", 403)
    await ana.click(lobby, "Start")
    assert env.h.threads == []
    row = await table_row(env)
    message = game_message(env, row)
    assert message.channel_id == env.h.channel.id and row["thread_id"] is None
    assert "Create Public Threads is missing" in message.content
    assert not (await (await to_move(env, ana, bo)).click(message, "Throw 5 dice")).ephemeral


async def test_no_send_in_threads_falls_back_to_the_channel_naming_it(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, lobby = await lobby_of_two(env)
    await env.h.set_bot_permissions(env.h.channel, send_messages_in_threads=False)
    await ana.click(lobby, "Start")
    row = await table_row(env)
    message = game_message(env, row)
    assert message.channel_id == env.h.channel.id and row["thread_id"] is None
    assert "Send Messages in Threads)" in message.content
    assert not (await (await to_move(env, ana, bo)).click(message, "Throw 5 dice")).ephemeral


async def test_nowhere_to_post_ends_the_game_and_tells_the_host(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, _, lobby = await lobby_of_two(env)
    await env.h.set_bot_permissions(
        env.h.channel, send_messages=False, send_messages_in_threads=False
    )
    reply = await ana.click(lobby, "Start")
    [private] = reply.followups
    assert private.ephemeral and private.visible_to == ana.id
    assert "Send Messages)" in private.content and "refunded" in private.content
    row = await table_row(env)
    assert row["status"] == "ended" and row["deadline"] is None
    assert "ended" in env.h.message(lobby.id).text.lower()


async def test_losing_send_messages_mid_game_keeps_the_game_on_its_message(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, bo, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    await env.h.set_bot_permissions(env.h.channel, send_messages_in_threads=False)
    before = len(env.thread_messages())
    # Turns pass (by timeouts, no interaction): no new message can be posted.
    for _ in range(2):
        assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    assert len(env.thread_messages()) == before - 1  # the first ping went, no other came
    row = await table_row(env)
    message = game_message(env, row)
    assert "Send Messages in Threads)" in message.content
    versions = {
        b.custom_id.split(":")[2]
        for b in message.buttons
        if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str(row["version"])}  # the current turn's buttons, so play goes on
    player = await to_move(env, ana, bo)
    assert not (await player.click(message, "Throw 5 dice")).ephemeral


async def test_a_rate_limited_post_is_retried_by_discord_py_after_retry_after(
    make_env: MakeEnv,
) -> None:
    """The fake answers Discord's 429 (retry_after, bucket headers, Via): discord.py waits
    and sends again, so the bot never sees it and the new turn message is posted."""
    env = await make_env(seed=3)
    ana, _, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    thread = env.h.threads[0]
    path = f"/channels/{thread.id}/messages"
    env.h.fake.add_fault("POST", rf"^{path}$", 429, None, None, 1, retry_after=2.5)
    before = len(env.h.requests)
    assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    posts = [r for r in env.h.requests[before:] if r.method == "POST" and r.path == path]
    assert [p.failed_with for p in posts] == [429, None]  # discord.py's retry, one only
    assert posts[1].at - posts[0].at >= 2.5  # it waited the retry_after
    row = await table_row(env)
    message = game_message(env, row)
    assert message.channel_id == thread.id and env.turn_message().id == message.id
    assert "couldn't post" not in message.text  # nothing went wrong as far as players see
    versions = {
        b.custom_id.split(":")[2]
        for b in message.buttons
        if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str(row["version"])}


async def test_a_post_still_rate_limited_after_five_tries_keeps_the_game_on_its_message(
    make_env: MakeEnv,
) -> None:
    """discord.py gives up after five 429s and raises: the game goes on on the message
    already there, saying why, and the bot does not retry by hand."""
    env = await make_env(seed=3)
    ana, _, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    thread = env.h.threads[0]
    path = f"/channels/{thread.id}/messages"
    env.h.fake.add_fault("POST", rf"^{path}$", 429, None, None, 50, retry_after=0.5)
    before = len(env.h.requests)
    assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    posts = [r for r in env.h.requests[before:] if r.method == "POST" and r.path == path]
    assert [p.failed_with for p in posts] == [429] * 5  # discord.py's five tries, no more
    env.h.fake.faults.clear()
    row = await table_row(env)
    message = game_message(env, row)
    assert "Discord said 429" in message.text and "the game goes on here" in message.text
    versions = {
        b.custom_id.split(":")[2]
        for b in message.buttons
        if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str(row["version"])}


async def test_game_message_deleted_by_a_moderator_is_reposted(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    thrown = (await player.click(env.turn_message(), "Throw 5 dice")).message
    row = await table_row(env)
    env.h.fake.delete_message(env.h.fake.messages[int(row["message_id"])])  # type: ignore[call-overload]
    await env.restart()  # the new instance finds the message gone and posts it again
    row = await table_row(env)
    message = game_message(env, row)
    assert message.id != thrown.id and not message.deleted
    versions = {
        b.custom_id.split(":")[2]
        for b in message.buttons
        if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str(row["version"])}


async def test_thread_deleted_by_a_moderator_ends_the_game_cleanly(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, _, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    [thread] = env.h.threads
    env.h.fake.delete_thread(thread.id)
    assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    row = await table_row(env)
    assert row["status"] == "ended" and row["deadline"] is None
    notice = env.h.last_message(env.h.channel, ephemeral=False)
    assert "thread was deleted" in notice.content and "refunded" in notice.content
    assert env.h.message(lobby.id).buttons == []


async def test_dead_interaction_token_still_updates_the_message(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    turn = env.turn_message()
    # The answer came too late: Discord forgot the interaction (10062).
    env.h.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062)
    with env.h.expect_unanswered():
        reply = await player.click(turn, "Throw 5 dice")
    assert reply.failed  # the player saw "interaction failed"...
    row = await table_row(env)
    versions = {
        b.custom_id.split(":")[2]
        for b in game_message(env, row).buttons
        if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str(row["version"])}  # ...but the message shows the throw


async def test_dead_token_on_a_lobby_click_still_updates_the_lobby(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    env.h.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062)
    with env.h.expect_unanswered():
        assert (await bo.click(lobby, "Join")).failed
    assert bo.mention in env.h.message(lobby.id).text


async def test_lobby_that_cannot_be_posted_is_closed_at_once(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    env.h.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062)
    with env.h.expect_unanswered():
        assert (await ana.slash("sequences start")).failed
    row = await table_row(env)
    assert row["status"] == "ended"  # not an invisible lobby holding a stake and a slot


async def test_expired_tokens_the_private_hand_reopens(make_env: MakeEnv) -> None:
    env = await make_env(seed=2)
    ana, bo, lobby = await lobby_of_two(env, "board start", first_sequence_wins=True)
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    board = game_message(env, await table_row(env))
    first = await player.click(board, "My hand")
    env.h.expire_interactions()  # 15 minutes later: the first hand's token is dead
    again = await player.click(board, "My hand")
    assert again.ephemeral and again.message.id != first.message.id
    assert "Your cards" in again.text and again.message.visible_to == player.id
    card = next(b for b in again.message.buttons if b.custom_id and ":c_" in b.custom_id)
    assert not (await player.click(again.message, custom_id=card.custom_id)).failed


async def test_nothing_essential_goes_by_dm(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo, lobby = await lobby_of_two(env, "sequences start", rounds=1)
    env.h.block_dms(ana)
    env.h.block_dms(bo)
    await ana.click(lobby, "Start")
    for _ in range(8):
        if (await table_row(env))["status"] != "running":
            break
        await env.tick(env.settings.turn_timeout_seconds + 1)
    assert (await table_row(env))["status"] == "finished"
    assert not [r for r in env.h.requests if "/users/@me/channels" in r.path or r.failed_with]


async def test_parent_summary_and_lobby_edit_refused_do_not_break_the_end(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=5)
    ana, _, lobby = await lobby_of_two(env, "sequences start", rounds=1)
    await ana.click(lobby, "Start")
    await env.h.set_bot_permissions(env.h.channel, send_messages=False)
    env.h.fail_next("PATCH", rf"/messages/{lobby.id}$", 404)
    for _ in range(8):
        if (await table_row(env))["status"] != "running":
            break
        await env.tick(env.settings.turn_timeout_seconds + 1)
    assert (await table_row(env))["status"] == "finished"
    assert "won" in env.turn_message().text


async def test_dead_token_on_a_board_move_still_redraws_the_board(make_env: MakeEnv) -> None:
    env = await make_env(seed=2)
    ana, bo, lobby = await lobby_of_two(env, "board start", first_sequence_wins=True)
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    board = game_message(env, await table_row(env))
    hand = (await player.click(board, "My hand")).message
    card = next(x for x in hand.buttons if x.custom_id and ":c_" in x.custom_id)
    spaces = (await player.click(hand, custom_id=card.custom_id)).message
    move = next(x for x in spaces.buttons if x.custom_id and ":p_" in x.custom_id)
    env.h.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062)
    with env.h.expect_unanswered():
        assert (await player.click(spaces, custom_id=move.custom_id)).failed
    row = await table_row(env)
    board = game_message(env, row)  # the turn passed: a new public board message
    versions = {
        b.custom_id.split(":")[2] for b in board.buttons if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str(row["version"])}
    assert (await (await to_move(env, ana, bo)).click(board, "My hand")).ephemeral


async def test_a_discord_hiccup_fetching_the_thread_does_not_end_the_game(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, _, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    [thread] = env.h.threads
    env.h.guild._remove_thread(thread)  # private: not cached (e.g. archived), so fetched
    env.h.fail_next("GET", rf"^/channels/{thread.id}$", 503)
    assert await env.tick(env.settings.turn_timeout_seconds + 1) == 1
    row = await table_row(env)
    assert row["status"] == "running"  # a 503 is not a deleted thread
    await env.restart()  # and the next start shows the current turn
    message = game_message(env, await table_row(env))
    versions = {
        b.custom_id.split(":")[2]
        for b in message.buttons
        if b.custom_id and ":T:" not in b.custom_id
    }
    assert versions == {str((await table_row(env))["version"])}


async def test_dead_token_on_end_still_closes_the_game_message(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, _, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    env.h.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062)
    with env.h.expect_unanswered():
        assert (await ana.slash("sequences end")).failed
    row = await table_row(env)
    assert row["status"] == "ended"
    assert game_message(env, row).buttons == []  # no dead buttons left on screen
