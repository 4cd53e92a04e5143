"""A click whose table is busy is answered within Discord's 3 seconds: a change of the same
table under way (a timer's commit on a slow database, here held 3.5 s) makes the click
wait for the table's lock, so the bot acknowledges it first and edits its message once the
lock is its own. Answered later, Discord would have refused it (10062): the click lost."""

from __future__ import annotations

import asyncio

from tests.discord.conftest import Env, MakeEnv
from tests.harness import Reply
from tests.reliability.helpers import table_row
from tests.reliability.test_discord_failures import game_message, lobby_of_two, to_move

HELD = 3.5  # seconds the table's change under way takes


async def held(env: Env, table_id: int = 1) -> asyncio.Task[None]:
    """Hold ``table_id``'s lock for ``HELD`` seconds, as a change under way would."""

    async def change_under_way() -> None:
        async with env.bot.peers.kernel.hold(table_id):
            await asyncio.sleep(HELD)

    task = asyncio.create_task(change_under_way())
    env.h.settle_timeout = 2 * HELD  # the click waits that long for the lock
    await env.h.settle()
    assert not task.done()  # the change is under way
    return task


def answered_at_once(reply: Reply, task: asyncio.Task[None]) -> None:
    assert task.done()  # the click's change came after the one under way
    assert reply.answer_seconds is not None and reply.answer_seconds < 1.0


async def test_a_lobby_click_on_a_busy_table_is_answered_at_once(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=3)).message
    task = await held(env)

    reply = await bo.click(lobby, "Join")

    answered_at_once(reply, task)
    assert reply.message == lobby and bo.mention in lobby.text


async def test_a_turn_click_on_a_busy_table_is_answered_at_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=6)
    ana, bo, lobby = await lobby_of_two(env)
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    turn = env.turn_message()
    task = await held(env)

    reply = await player.click(turn, "Throw 5 dice")

    answered_at_once(reply, task)
    row = await table_row(env)
    shown = {b.custom_id.split(":")[2] for b in reply.message.buttons if ":T:" not in b.custom_id}
    assert shown == {str(row["version"])}  # the throw is on screen


async def test_a_board_move_on_a_busy_table_is_answered_at_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=2)
    ana, bo, lobby = await lobby_of_two(env, "board start", first_sequence_wins=True)
    await ana.click(lobby, "Start")
    player = await to_move(env, ana, bo)
    board = game_message(env, await table_row(env))
    hand = (await player.click(board, "My hand")).message
    card = next(x for x in hand.buttons if x.custom_id and ":c_" in x.custom_id)
    spaces = (await player.click(hand, custom_id=card.custom_id)).message
    move = next(x for x in spaces.buttons if x.custom_id and ":p_" in x.custom_id)
    task = await held(env)

    reply = await player.click(spaces, custom_id=move.custom_id)

    answered_at_once(reply, task)
    assert reply.message == spaces and "It's" in spaces.text  # the hand, after the move
    row = await table_row(env)
    assert row["version"] > 3  # the move is committed
