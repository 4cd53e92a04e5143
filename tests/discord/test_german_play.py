"""A full board game and a full push-your-luck game played through the harness in German
(issue 23, "Done means"): the members' clients and the server in German, every string the
bot sent (messages and their edits, private answers, buttons, threads) holds no English
word. An English word is one of the templates' English messages (or a function word of
every English sentence, ``FUNCTION_WORDS``) that no German translation uses: "Team",
"Bot" or "Start" are German too and never count; "the", "your", "banked" or "Seats" do.
Player names and mentions are not words of the bot's.

These pass once every part of the bot has its strings marked and translated (issue 23's
helpers); until then the failure is the list of what is left, with the message of each."""

from __future__ import annotations

from tests.discord.conftest import Env, MakeEnv
from tests.discord.play import open_table, play_board, play_dice
from tests.discord.words import english_in, english_only_words, over_limits, pieces
from tests.harness import Player

NAMES = ("Ana", "Bo")


async def german(make_env: MakeEnv, seed: int) -> tuple[Env, list[Player]]:
    env = await make_env(seed=seed)
    env.h.speak("de")
    return env, [await env.h.member(name) for name in NAMES]


def no_english(env: Env) -> None:
    found = pieces(env.h)
    english = english_only_words("de")
    assert {"the", "with"} <= english and "team" not in english
    left = english_in(found, english, NAMES)
    assert not left, "English in the German game:\n" + "\n".join(left)
    assert not over_limits(found), "\n".join(over_limits(found))


async def test_a_whole_board_game_in_german_shows_no_english(make_env: MakeEnv) -> None:
    env, (ana, bo) = await german(make_env, seed=8)
    await open_table(env, "board start", ana, [bo])
    await play_board(env, [ana, bo], 1)
    assert (await env.bot.tables.get(1)).status == "finished"
    no_english(env)


async def test_a_whole_push_your_luck_game_in_german_shows_no_english(make_env: MakeEnv) -> None:
    env, (ana, bo) = await german(make_env, seed=5)
    await open_table(env, "sequences start", ana, [bo], rounds=2)
    await play_dice(env, [ana, bo], 1)
    assert (await env.bot.tables.get(1)).status == "finished"
    no_english(env)
