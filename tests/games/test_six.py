"""A game added from the tests alone is played end to end like any other: lobby, join,
turns, a timer expiry, a restart in the middle, the result, /leaderboard and /rules."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.games.words import event_lines
from bot.store import games
from bot.tables.history import verify_game
from tests.discord.conftest import MakeEnv
from tests.fakes import ScriptedRandom
from tests.games.six import GAME, SixBot, SixState, games_with_six

ROOT = Path(__file__).resolve().parents[2]


async def test_a_test_only_game_plays_end_to_end(make_env: MakeEnv) -> None:
    env = await make_env(
        bot_class=SixBot, games=games_with_six(), rng=ScriptedRandom([3, 2], seed=4)
    )
    h = env.h
    ana, bo = await h.member("Ana"), await h.member("Bo")

    lobby = (await ana.slash("six start")).message
    assert "First to six · table #1" in lobby.embed_text()
    assert "one die, the first 6 wins" in lobby.embed_text()
    lobby = (await bo.click(lobby, "Join")).message
    assert f"` 2.` {bo.mention}" in lobby.embed_text()  # Bo has the second seat
    await ana.click(lobby, "Start")
    [thread] = h.threads
    assert thread.name == "First to six #1"

    # Ana's turn: only she may roll; she rolls a 3.
    turn = env.turn_message()
    assert f"<@{ana.id}>, your turn." in env.ping_text()
    refused = await bo.click(turn, "Roll the die")
    assert refused.ephemeral and "It's Ana's turn" in refused.text
    await ana.click(turn, "Roll the die")
    assert "## 3️⃣" in env.turn_message().embed_text()  # Ana's roll, in the same message
    assert env.turn_message() == turn and f"<@{bo.id}>, your turn." in env.ping_text()

    # Bo walks away: his timer runs out and his roll (a 2) is played for him.
    assert await env.tick(181) == 1
    table = await env.bot.tables.get(1)
    state: SixState = table.rules
    assert state.throws == 2 and state.last == (1, 2) and state.turn == 0
    assert any("Bo ran out of time" in e for e in event_lines(table))

    # A restart in the middle: the old message's button still works, from the database.
    await env.restart(seed=11)
    players = {ana.id: ana, bo.id: bo}
    for _ in range(200):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            break
        seat = GAME.kind.current_seat(table.rules)
        assert seat is not None
        user = table.seats[seat].user_id
        assert user is not None
        reply = await players[user].click(env.turn_message(), "Roll the die")
        assert not reply.ephemeral, reply.text
    table = await env.bot.tables.get(1)
    state = table.rules
    assert table.status == "finished" and state.winner is not None
    assert state.last is not None and state.last[1] == 6
    winner = table.seats[state.winner].name
    headline = h.last_message(h.channel).content
    assert f"**{winner}** won First to six #1" in headline

    board = await ana.slash("leaderboard", game="six")
    assert board.embeds[0]["title"] == "Leaderboard · First to six"
    assert "Ana" in board.embed_text() and "Bo" in board.embed_text()
    rules = await bo.slash("rules", game="six")
    assert rules.ephemeral and rules.embeds[0]["title"] == "Rules · First to six"
    assert "The first 6 wins" in rules.embed_text()


def test_adding_the_test_game_changed_nothing_under_bot_or_cogs() -> None:
    """No file of the application names the test game: it lives in tests/ alone."""
    found = subprocess.run(
        ["grep", "-rlE", r"SixGame|games\.six|First to six", "bot", "cogs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert found.stdout == ""


async def test_the_defaults_forfeit_rank_and_replay_the_test_game(make_env: MakeEnv) -> None:
    """What six.py leaves to the protocol's defaults works: a resign passes the turn on,
    the result ranks by the winner and puts the resigned seat last, the log replays."""
    env = await make_env(bot_class=SixBot, games=games_with_six(), rng=ScriptedRandom([4], seed=2))
    h = env.h
    ana, bo, cy = await h.member("Ana"), await h.member("Bo"), await h.member("Cy")
    lobby = (await ana.slash("six start")).message
    for member in (bo, cy):
        lobby = (await member.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    await ana.click(env.turn_message(), "Roll the die")  # a 4: Bo's turn
    ask = await bo.click(env.turn_message(), "Resign")
    await bo.click(ask.message, "Resign")
    table = await env.bot.tables.get(1)
    assert GAME.kind.forfeited(table.rules) == {1} and GAME.kind.current_seat(table.rules) == 2
    players = {ana.id: ana, cy.id: cy}
    while (table := await env.bot.tables.get(1)).status == "running":
        seat = GAME.kind.current_seat(table.rules)
        assert seat in (0, 2)
        user = table.seats[seat].user_id
        assert user is not None
        await players[user].click(env.turn_message(), "Roll the die")
    results = await games.results_of(env.bot.db, table.row.id)
    places = {r.name: (r.place, r.won) for r in results}
    assert places["Bo"] == (3, False)
    assert sorted(places.values()) == [(1, True), (2, False), (3, False)]
    verdict = await verify_game(env.bot.db, env.bot.games, table.row.id)
    assert (verdict.status, verdict.why, verdict.steps) == ("ok", "", table.rules.throws)
