"""A game won because the others left says so wherever its result is shown (found by
play-testing: "🏆 Ana won Sequences #1 (Ana 0, Bo 0)" after Bo resigned read as a win at
0-0): the channel line, the final message, the lobby, /history and /replay, for every
game; a game played to its end, or ended early, reads as before."""

from __future__ import annotations

import pytest

from bot.tables.events import Resigned
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_forfeits import mover, staked_table, throw_and_bank
from tests.discord.test_sequences_game import open_table, play_until_over
from tests.harness import Message, Player


def result_line(env: Env) -> str:
    """The result line in the parent channel."""
    [line] = [m.content for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    return line


def lobby(env: Env) -> Message:
    [message] = [m for m in env.h.messages(env.h.channel) if m.embeds]
    return message


async def two_players(env: Env, command: str, **options: object) -> tuple[Player, Player]:
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    opened = (await ana.slash(command, **options)).message
    opened = (await bo.click(opened, "Join")).message
    await ana.click(opened, "Start")
    return ana, bo


async def resign(player: Player, group: str) -> None:
    ask = await player.slash(f"{group} resign")
    done = await player.click(ask.message, "Resign")
    assert "You resigned" in done.text


async def test_a_resignation_is_the_result_not_a_score_of_nothing(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=3)
    await resign(bo, "sequences")

    line = result_line(env)
    assert line.startswith("🏆 **Ana** won Sequences #1: Bo resigned. <#")
    assert "(Ana 0, Bo 0)" not in line and line.endswith("\n💰 Ana won the pot of 200 chips.")
    assert "This game is over. 🏆 Ana won: Bo resigned." in lobby(env).embed_text()
    final = env.turn_message()
    assert final.embeds[0]["title"] == "🏆 Ana won Sequences!"
    assert final.embed_text().splitlines()[1] == "Ana won: Bo resigned."
    assert "won by Ana (Bo resigned) · pot 200" in (await ana.slash("history")).text
    replay = (await ana.slash("replay", game=1, step=100_000)).text
    assert "Bo resigned\n```" in replay and "Bo forfeited" not in replay


@pytest.mark.parametrize(
    ("variant", "title"),
    [
        ("reverse", "Sequences (Reverse)"),
        ("sudden", "Sequences (Sudden)"),
        ("extended", "Sequences (Extended)"),
    ],
)
async def test_every_variant_says_who_resigned(make_env: MakeEnv, variant: str, title: str) -> None:
    env = await make_env(seed=4)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, variant=variant)
    await resign(bo, "sequences")
    assert result_line(env).startswith(f"🏆 **Ana** won {title} #1: Bo resigned. <#")
    assert env.turn_message().embed_text().splitlines()[1] == "Ana won: Bo resigned."


async def test_running_out_of_time_is_the_result(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await staked_table(env, ana, bo, rounds=5)
    for missed in range(3):
        await env.tick(env.settings.turn_timeout_seconds + 1)  # Ana is away
        if missed < 2:
            await throw_and_bank(env, bo)
    assert (await env.bot.tables.get(1)).status == "finished"

    # Both scored: the scores mean something and are shown, after how it was won.
    assert result_line(env).startswith(
        "🏆 **Bo** won Sequences #1: Ana ran out of time (Bo 1, Ana 1). <#"
    )
    assert "🏆 Bo won: Ana ran out of time." in lobby(env).embed_text()
    assert "Bo won: Ana ran out of time." in env.turn_message().embed_text()
    assert "won by Bo (Ana ran out of time)" in (await bo.slash("history")).text
    assert "Ana ran out of time\n```" in (await bo.slash("replay", game=1, step=100_000)).text


async def test_everyone_else_resigning_names_them_all(make_env: MakeEnv) -> None:
    env = await make_env(seed=4)
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    await staked_table(env, ana, bo, cy, rounds=3)
    await resign(bo, "sequences")
    await resign(cy, "sequences")
    assert result_line(env).startswith("🏆 **Ana** won Sequences #1: Bo & Cy resigned. <#")
    assert "won by Ana (Bo & Cy resigned)" in (await ana.slash("history")).text


async def test_an_early_resignation_is_named_after_many_turns_and_a_restart(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=4)
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    await staked_table(env, ana, bo, cy, rounds=5)
    await resign(bo, "sequences")
    for _ in range(8):  # more turns than the table's recent events hold
        await throw_and_bank(env, await mover(env, [ana, cy]))
    table = await env.bot.tables.get(1)
    assert table.status == "running" and not any(isinstance(e, Resigned) for e in table.events)
    await env.restart()
    await resign(cy, "sequences")
    assert "won Sequences #1: Bo & Cy resigned (" in result_line(env)


async def test_a_team_that_resigned_lost_by_resigning(make_env: MakeEnv) -> None:
    env = await make_env(seed=6)
    players = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    await staked_table(env, players[0], *players[1:], variant="team")
    table = await env.bot.tables.get(1)
    names = [s.name for s in table.seats]  # partners alternate: A1 B1 A2 B2
    await resign(next(p for p in players if p.id == table.seats[0].user_id), "sequences")
    await resign(next(p for p in players if p.id == table.seats[2].user_id), "sequences")
    assert result_line(env).startswith(
        f"🏆 **{names[1]} & {names[3]}** won Sequences (Team) #1: "
        f"{names[0]} & {names[2]} resigned. <#"
    )
    assert f"{names[1]} & {names[3]} won: {names[0]} & {names[2]} resigned." in (
        env.turn_message().embed_text()
    )


async def test_a_winners_partner_who_resigned_is_not_named_as_beaten(make_env: MakeEnv) -> None:
    env = await make_env(seed=6)
    players = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    await staked_table(env, players[0], *players[1:], variant="team")
    table = await env.bot.tables.get(1)
    names = [s.name for s in table.seats]
    for seat in (1, 0, 2):  # team B's first seat leaves, then both of team A
        await resign(next(p for p in players if p.id == table.seats[seat].user_id), "sequences")
    # A forfeited partner never wins (RULINGS §4): team B's seat still playing won.
    assert result_line(env).startswith(
        f"🏆 **{names[3]}** won Sequences (Team) #1: {names[0]} & {names[2]} resigned. <#"
    )


async def test_a_board_game_won_by_resignation(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await two_players(env, "board start")
    await resign(bo, "board")
    assert result_line(env).startswith("🏆 **Ana** won Sequence (board game) #1: Bo resigned. <#")
    assert "(Ana 0, Bo 0)" not in result_line(env)
    assert "🏆 Ana won: Bo resigned." in env.turn_message().text
    assert "1. Bo resigned" in (await ana.slash("replay", game=1, step=100_000)).text


async def test_one_roll_games_won_by_resignation(make_env: MakeEnv) -> None:
    for command, title in (
        ("sequences start", "Sequences (One-roll)"),
        ("heartsdue start", "Hearts Due"),
    ):
        env = await make_env(seed=5)
        options = {"rules": "classic"} if command == "sequences start" else {}
        ana, bo = await two_players(env, command, **options)
        await resign(bo, command.split()[0])
        assert result_line(env).startswith(f"🏆 **Ana** won {title} #1: Bo resigned. <#")
        assert "🏆 Ana won: Bo resigned." in env.turn_message().embed_text()
        assert "won by Ana (Bo resigned)" in (await ana.slash("history")).text


async def test_a_game_played_to_its_end_shows_its_scores_as_before(make_env: MakeEnv) -> None:
    env = await make_env(seed=7)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_table(env, ana, bo, rounds=2), "Start")
    await play_until_over(env, {ana.id: ana, bo.id: bo})
    line = result_line(env)
    assert " won Sequences #1 (" in line and ":" not in line.split("<#")[0], line
    history = (await ana.slash("history")).text
    assert "won by" in history and "resigned" not in history


async def test_a_game_ended_early_shows_no_result(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, _bo = await two_players(env, "sequences start")
    await ana.slash("sequences end")
    assert not [m for m in env.h.messages(env.h.channel) if m.content.startswith("🏆")]
    assert "Ended early by Ana." in lobby(env).embed_text()
