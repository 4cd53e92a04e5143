"""A click reads its table's row once: in the table service, under the table's lock, where
its place is checked too (no copy read before the lock, no stamps to prove one fresh). A
click answered in place needs no read of where the game is shown."""

from __future__ import annotations

import pytest

from bot.store import games
from tests.discord.conftest import MakeEnv


async def test_a_turn_click_reads_the_games_row_once(
    make_env: MakeEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rounds=1)).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    reads: list[int] = []
    real_get = games.get

    async def counting_get(db: object, game_id: int) -> object:
        reads.append(game_id)
        return await real_get(db, game_id)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "get", counting_get)
    for _ in range(2):  # the first throw, then Bank or the next player's throw
        message = env.turn_message()
        table = await env.bot.tables.get(1)
        reads.clear()
        seat = table.game.current_seat(table.rules)
        player = ana if seat == 0 else bo
        label = next(lb for lb in message.labels if lb and lb.startswith(("Throw", "Bank")))
        reply = await player.click(message, label)
        assert not reply.ephemeral, reply.text
        assert reads == [1]
