"""Every dice ruleset end to end through the harness, with scripted dice."""

from __future__ import annotations

from tests.discord.conftest import Env, MakeEnv
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player


async def start_table(
    env: Env, host: Player, joiners: list[Player], command: str, **options: object
) -> Message:
    lobby = (await host.slash(command, **options)).message
    for player in joiners:
        lobby = (await player.click(lobby, "Join")).message
    await host.click(lobby, "Start")
    return lobby


async def press(env: Env, player: Player, prefix: str) -> Message:
    message = env.turn_message()
    label = next((lb for lb in message.labels if lb and lb.startswith(prefix)), None)
    assert label is not None, f"no {prefix!r} button in {message.labels}"
    reply = await player.click(message, label)
    assert not reply.ephemeral, reply.text
    return env.turn_message()


async def test_classic_game_with_penalty_and_tie_throw(make_env: MakeEnv) -> None:
    faces = [
        6,
        6,
        6,
        6,
        6,
        5,  # Ana's opening throw: 35
        1,
        1,
        1,
        1,
        1,
        2,  # Bo's opening throw: 7 -> Ana starts
        1,
        1,
        1,
        1,
        5,
        6,  # Ana: four 1s, total wiped
        2,
        3,
        4,
        5,
        6,
        6,  # Bo: no run from 1
        1,
        2,
        3,
        4,
        5,
        6,  # Ana: 25
        1,
        2,
        3,
        4,
        5,
        6,  # Bo: 25 -> both past 20 and tied
        1,
        2,
        4,
        4,
        4,
        4,  # Ana's tie throw: 1-2 = 5
        1,
        2,
        3,
        5,
        5,
        5,  # Bo's tie throw: 1-2-3 = 10 -> Bo wins
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", rules="classic", target=20)
    first = env.turn_message()
    assert "Opening throws" in first.text and first.labels == [
        "Throw 6 dice",
        "Rules",
        "Resign",
        "Watch",
    ]
    await press(env, ana, "Throw")
    message = await press(env, bo, "Throw")
    assert "Bo's opening throw 1-1-1-1-1-2: sum 7" in message.text
    message = await press(env, ana, "Throw")
    assert "four 1s: total wiped!" in message.text
    await press(env, bo, "Throw")
    await press(env, ana, "Throw")
    message = await press(env, bo, "Throw")
    assert "Tie-break" in message.text
    await press(env, ana, "Throw")
    message = await press(env, bo, "Throw")
    assert "Bo won Sequences (One-roll)" in message.text
    rows = await env.bot.db.fetchall(
        "SELECT name, won, score, best_turn FROM game_results ORDER BY seat"
    )
    assert [(r["name"], r["won"], r["score"], r["best_turn"]) for r in rows] == [
        ("Ana", 0, 25, 25),
        ("Bo", 1, 25, 25),
    ]
    game = await env.bot.db.fetchone("SELECT game_key FROM games WHERE id = 1")
    assert game is not None and game["game_key"] == "classic"


async def test_hearts_due_scores_every_run(make_env: MakeEnv) -> None:
    faces = [
        6,
        6,
        6,
        6,
        6,
        6,  # Ana opening: 36
        1,
        1,
        1,
        1,
        1,
        1,  # Bo opening: 6
        1,
        1,
        2,
        3,
        5,
        6,  # Ana: 1 + 1-2-3 = 20
        6,
        6,
        6,
        6,
        6,
        1,  # Bo: five 6s + 1 = 40 -> past the target of 20, Bo leads
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "heartsdue start", target=20)
    await press(env, ana, "Throw")
    await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")
    assert "1 (5) + 1-2-3 (15) = 20" in message.text
    message = await press(env, bo, "Throw")
    assert "five 6s (35) + 1 (5) = 40" in message.text and "Bo won Hearts Due" in message.text


async def test_sudden_is_won_on_exactly_21_after_an_overshoot(make_env: MakeEnv) -> None:
    bust = [2, 2, 2, 2, 2]
    faces = [
        1,
        2,
        3,
        4,
        5,
        6,
        *bust,  # Ana: full run, bonus 6 = 10; Bo busts
        1,
        2,
        3,
        4,
        5,
        6,
        *bust,  # Ana: 20; Bo busts
        1,
        2,
        3,
        4,
        5,
        *bust,  # Ana banks 5: 25 would pass 21, nothing; Bo busts
        1,
        3,
        3,
        3,
        3,
    ]  # Ana banks 1: exactly 21
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", variant="sudden")
    for _ in range(2):
        await press(env, ana, "Throw")
        await press(env, ana, "Bonus throw")
        await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")
    assert "needs exactly 1 to win" in message.text
    message = await press(env, ana, "Bank 5 → 25: scores 0")
    assert "went over 21 (20 + 5 = 25): no points" in env.thread_messages()[-2].text
    await press(env, bo, "Throw")
    await press(env, ana, "Throw")
    message = await press(env, ana, "Bank 1 → 21: wins!")
    assert "Ana won Sequences (Sudden)" in message.text and "exactly 21" in message.text


async def test_team_game_partners_alternate_and_teams_win_together(make_env: MakeEnv) -> None:
    env = await make_env(seed=8)
    ana, bo, cy, di = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lobby = (await ana.slash("sequences start", variant="team", target=8)).message
    for p in (bo, cy, di):
        lobby = (await p.click(lobby, "Join")).message
    assert "team A" in lobby.text and "team B" in lobby.text
    assert lobby.button("Join").disabled and lobby.button("Add bot: optimal").disabled
    # Bo (auto: team B) switches to team A, and A's last seat, Cy, takes Bo's place in B.
    lobby = (await bo.click(lobby, "Switch team")).message
    assert "Bo switched to team A, so Cy moves to team B." in lobby.text
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert [s.name for s in table.seats] == ["Ana", "Cy", "Bo", "Di"]
    assert [s.team for s in table.seats] == [0, 1, 0, 1]
    players = {p.id: p for p in (ana, bo, cy, di)}
    for _ in range(300):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            break
        state = table.rules
        player = players[table.seats[state.current].user_id or 0]
        message = env.turn_message()
        assert "Team A (Ana & Bo): **" in message.text
        label = next(lb for lb in message.labels if lb and lb.startswith(("Throw", "Bank")))
        await player.click(message, label)
    assert table.status == "finished"
    winners = await env.bot.db.fetchall("SELECT name FROM game_results WHERE won = 1")
    names = {r["name"] for r in winners}
    assert names in ({"Ana", "Bo"}, {"Cy", "Di"})


async def test_odds_button_answers_privately(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom([1, 2, 4, 4, 6]))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start")
    message = await press(env, ana, "Throw")
    odds = await bo.click(message, "Odds")
    assert odds.ephemeral and "bust" in odds.text and "%" in odds.text
    assert odds.message.visible_to == bo.id


async def test_odds_command_and_rules_for_every_game(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    standard = await ana.slash("odds", ruleset="standard")
    assert standard.ephemeral and "1.26 on average" in standard.text
    assert "bank 5: the bonus" in standard.text
    sudden = await ana.slash("odds", ruleset="sudden")
    assert "17.3 turns" in sudden.text
    classic = await ana.slash("odds", ruleset="classic")
    assert "4.51" in classic.text and "58.4 %" in classic.text
    for game, words in [
        ("classic", "Four or more 1s"),
        ("heartsdue", "1 (5) + 1-2-3 (15) = 20"),
        ("board", "One-eyed jacks"),
        ("team", "A1 B1 A2 B2"),
        ("sudden", "exactly 21"),
        ("reverse", "starts at **6**"),
        ("extended", "**6 dice**"),
    ]:
        rules = await ana.slash("rules", game=game)
        assert words in rules.text, game
