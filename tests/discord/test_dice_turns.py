"""What a dice turn says while it is played (issue 19, items 5, 7, 9 and 19): Sudden's banks
labelled for where they take the total, one-roll breakdowns that add up, bust lines that
tell what was held and needed, and the house rules named on every turn message."""

from __future__ import annotations

import discord

from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_dice_games import press, start_table
from tests.fakes import ScriptedRandom
from tests.harness import Message

BUST = [2, 2, 2, 2, 2]


def recent(env: Env) -> str:
    """Every public message of the thread: the turns played shrink to their story line."""
    return "\n".join(m.text for m in env.thread_messages())


def footer(message: Message) -> str:
    return str(message.embeds[0]["footer"]["text"])


async def test_sudden_names_the_trap_and_the_lock_that_lands_on_21(make_env: MakeEnv) -> None:
    faces = [
        *(1, 2, 3, 4, 5, 6),  # Ana: 1-5 and a bonus 6: 10
        *BUST,
        *(1, 2, 3, 4, 5),  # Ana banks 5: 15
        *BUST,
        *(1, 2, 3, 4, 6),  # Ana banks 4: 19
        *BUST,
        *(1, 2, 3, 5, 5),  # Ana on 19 with 1-2-3: banking 3 overshoots, 1-2 wins
        *BUST,
        *(1, 2, 3, 6, 6),  # the same chance again: she takes it
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", variant="sudden")
    await press(env, ana, "Throw")
    await press(env, ana, "Bonus throw: a 6 → 10")
    await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")
    assert "Bank 5 points → 15" in message.labels
    await press(env, ana, "Bank 5 points → 15")
    await press(env, bo, "Throw")
    await press(env, ana, "Throw")
    await press(env, ana, "Bank 4 points → 19")
    await press(env, bo, "Throw")

    message = await press(env, ana, "Throw")
    trap = message.button("Bank 3 → 22: scores 0")
    assert trap.style is not discord.ButtonStyle.success  # no green button that scores 0
    win = message.button("Bank only 1-2 → 21: wins!")
    assert win.style is discord.ButtonStyle.success
    assert "Lock only 1" in message.labels and "Lock only 1-2" not in message.labels
    assert "Total 19: needs exactly 2 to win." in message.text
    assert "Banking 3 would make 22: past 21 it **scores nothing**." in message.text
    assert "Win now with **Bank only 1-2**: 19 + 2 = 21." in message.text
    assert all(len(label or "") <= 40 for label in message.labels)  # fits a phone's row

    await press(env, ana, "Bank 3 → 22")
    line = "Ana banked 3 (run 1-2-3) and went over 21 (19 + 3 = 22): no points"
    assert line in env.thread_messages()[-2].text
    await press(env, bo, "Throw")
    await press(env, ana, "Throw")
    message = await press(env, ana, "Bank only 1-2 → 21: wins!")
    assert "Ana won" in message.text and "exactly 21" in message.text
    rows = await env.bot.db.fetchall("SELECT name, won, score FROM game_results ORDER BY seat")
    assert [(r["name"], r["won"], r["score"]) for r in rows] == [("Ana", 1, 21), ("Bo", 0, 0)]


async def test_sudden_bonus_throw_says_where_a_six_takes_the_total(make_env: MakeEnv) -> None:
    full = (1, 2, 3, 4, 5, 6)  # 1-5 thrown, then the bonus die shows a 6
    env = await make_env(rng=ScriptedRandom([*full, *BUST, *full, *BUST, *full]))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", variant="sudden")
    await press(env, ana, "Throw")
    await press(env, ana, "Bonus throw")
    await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")
    assert "Bonus throw: a 6 → 20" in message.labels and "Bank 5 points → 15" in message.labels
    await press(env, ana, "Bonus throw")
    await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")  # on 20 with 1-5: only a lone 1 wins
    assert "Bonus throw: a 6 → 30 scores 0" in message.labels
    assert "Bank 5 → 25: scores 0" in message.labels
    assert "Bank only 1 → 21: wins!" in message.labels
    await press(env, ana, "Bonus throw")
    line = "Ana hit the bonus throw (6) for 10 and went over 21 (20 + 10 = 30): no points"
    assert line in recent(env)


async def test_bust_lines_say_what_was_held_and_needed(make_env: MakeEnv) -> None:
    faces = [
        *(1, 2, 5, 5, 6),  # Ana locks 1-2 and pushes three dice...
        *(1, 4, 4),  # ...which show no 3
        *(2, 3, 4, 5, 6),  # Bo: no 1
        *(1, 2, 3, 4, 5),  # Ana takes the bonus throw...
        4,  # ...and misses
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start")
    await press(env, ana, "Throw")
    await press(env, ana, "Push (3 dice)")
    assert "Ana busted on 1-4-4 holding 1-2, needed a 3: no points" in recent(env)
    await press(env, bo, "Throw")
    assert "Bo busted on 2-3-4-5-6, needed a 1: no points" in recent(env)
    await press(env, ana, "Throw")
    await press(env, ana, "Bonus throw")
    assert "Ana missed the bonus throw (4), needed a 6: no points" in recent(env)


async def test_reverse_bust_names_the_number_the_run_needed(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom([*(6, 5, 1, 1, 2), *(1, 3, 3)]))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", variant="reverse")
    await press(env, ana, "Throw")
    await press(env, ana, "Push (3 dice)")
    assert "Ana busted on 1-3-3 holding 6-5, needed a 4: no points" in recent(env)


async def test_every_turn_message_names_the_house_rule(make_env: MakeEnv) -> None:
    # Ana locks 1-2-3 of 1-2-3-4, pushes two dice (4 and 6), then one die: a 3.
    env = await make_env(rng=ScriptedRandom([*(1, 2, 3, 4, 6), *(4, 6), 3]))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", soft_last_die=True)
    rule = "House rule: **soft last die** (a bust on one die keeps half the run)."
    message = env.turn_message()  # before the throw
    assert rule in message.text
    assert footer(message) == "Game #1 · house rule: soft last die"
    message = await press(env, ana, "Throw")  # a throw to lock from
    assert rule in message.text and "standard" not in footer(message)
    message = await press(env, ana, "Lock only 1-2-3")  # deciding on a locked run
    assert rule in message.text and "standard" not in footer(message)
    await press(env, ana, "Push (2 dice)")
    await press(env, ana, "Push (1 die)")
    assert "Ana busted on 3 holding 1-2-3-4, needed a 5: soft last die keeps **2**" in recent(env)
    message = env.turn_message()  # Bo's turn
    assert rule in message.text and footer(message) == "Game #1 · house rule: soft last die"


async def test_a_table_without_house_rules_says_standard(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom([1, 2, 3, 4, 6]))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start")
    message = await press(env, ana, "Throw")
    assert "House rule" not in message.text and footer(message) == "Game #1 · standard"


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
