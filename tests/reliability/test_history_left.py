"""/history reads how a game won by forfeit was won from the stored result, on both
engines (the JSON of a game's state is read by each engine's own JSON path)."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.discord.test_forfeits import staked_table


async def test_history_says_who_resigned_on_both_engines(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=3)
    ask = await bo.slash("sequences resign")
    await bo.click(ask.message, "Resign")
    assert "Ana, Bo · won by Ana (Bo resigned) · pot 200" in (await ana.slash("history")).text
