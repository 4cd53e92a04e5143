"""A game in a DM on both engines (issue 22, item 6): played to the end across a restart,
kept in the database and on no leaderboard, per server or across all of them."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.discord.test_anywhere import THROW, play_out


async def test_a_dm_game_survives_a_restart_and_ranks_nowhere(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    dm = env.h.private_channel(ana, bo)
    lobby = (await ana.slash("heartsdue start", _channel=dm, target=20)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    await env.restart()
    first = next(p for p in (ana, bo) if f"{p.mention}, your turn" in lobby.content)
    reply = await first.click(lobby, THROW)  # the new process answers the old message
    assert "fallen behind" not in reply.message.content and not reply.ephemeral
    await play_out(env, lobby, [ana, bo])
    assert "won" in lobby.embeds[0]["title"]
    for scope in ("server", "global"):
        board = await ana.slash("leaderboard", game="heartsdue", scope=scope)
        assert "Ana" not in board.text and "Bo" not in board.text, board.text
    mine = await ana.slash("stats")
    assert "Hearts Due" not in mine.text, mine.text
