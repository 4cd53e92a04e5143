"""Issue 12: the defects players met, each driven through the real bot."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.fakes import ScriptedRandom


async def test_an_earlier_throws_button_pressed_after_the_turn_passed_is_over(
    make_env: MakeEnv,
) -> None:
    env = await make_env(rng=ScriptedRandom([2, 3, 4, 5, 6]))  # Ana's first throw: no 1, bust
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    turn = env.turn_message()
    throw_id = turn.button("Throw 5 dice").custom_id
    assert not (await ana.click(turn, "Throw 5 dice")).ephemeral
    table = await env.bot.tables.get(1)
    assert table.seats[table.rules.current].name == "Bo"  # the bust passed the turn

    again = await ana.click_stale(turn, throw_id)
    assert again.ephemeral and again.text == "That throw is over."
