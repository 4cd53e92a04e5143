"""What a dice turn says while it is played (issue 19, item 7): one-roll breakdowns that
add up."""

from __future__ import annotations

from tests.discord.conftest import MakeEnv
from tests.discord.test_dice_games import press, start_table
from tests.fakes import ScriptedRandom


async def test_one_roll_breakdowns_add_up(make_env: MakeEnv) -> None:
    faces = [
        *(6, 6, 6, 6, 6, 6),  # Ana's opening throw: 36, she starts
        *(1, 1, 1, 1, 1, 2),  # Bo's opening throw: 7
        *(1, 1, 2, 3, 5, 6),  # Ana: 1 (5) + 1-2-3 (15) = 20
        *(1, 1, 2, 3, 4, 4),  # Bo: 1 (5) + 1-2-3-4 (20) = 25
        *(1, 3, 3, 4, 5, 6),  # Ana: a lone 1 = 5
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "heartsdue start", target=100)
    await press(env, ana, "Throw")
    message = await press(env, bo, "Throw")
    assert "Ana's opening throw 6-6-6-6-6-6: sum 36" in message.text
    assert "Bo's opening throw 1-1-1-1-1-2: sum 7" in message.text
    message = await press(env, ana, "Throw")
    assert "Ana scores **20**: 1 (5) + 1-2-3 (15)." in message.text
    assert "Ana threw 1-1-2-3-5-6: 1 (5) + 1-2-3 (15) = 20 (total 20)" in message.text
    message = await press(env, bo, "Throw")
    assert "Bo scores **25**: 1 (5) + 1-2-3-4 (20)." in message.text
    assert "Bo threw 1-1-2-3-4-4: 1 (5) + 1-2-3-4 (20) = 25 (total 25)" in message.text
    message = await press(env, ana, "Throw")
    assert "Ana scores **5** with a lone 1." in message.text
    assert "1 + 1" not in message.text


async def test_one_roll_throw_that_scores_nothing_reads_plainly(make_env: MakeEnv) -> None:
    faces = [*(6, 6, 6, 6, 6, 5), *(1, 1, 1, 1, 1, 2), *(2, 3, 4, 5, 6, 6), *(1, 2, 3, 5, 6, 6)]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", rules="classic", target=100)
    await press(env, ana, "Throw")
    await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")
    assert "Ana's throw scores nothing." in message.text
    assert "Ana threw 2-3-4-5-6-6: no score (total 0)" in message.text
    assert "no score: 0" not in message.text
    message = await press(env, bo, "Throw")
    assert "Bo scores **10** with 1-2-3." in message.text
