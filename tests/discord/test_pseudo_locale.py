"""The pseudo-locale run (issue 23, item 6): every game and variant, lobbies, results,
/help, /rules (every page), /odds, /stats, /leaderboard, /history, /replay and a set of
refusals, played through the harness with the members and the server in en-XA. Every
string the catalogues hold reads ⟦Àççéñţéđ ẋẋẋ⟧ there, so a word a player sees outside the
markers escaped the catalogues: each test fails listing those words with the message they
were in (player names, numbers, dice and card faces, coordinates, emoji, mentions and
Markdown excepted). The strings are ~40 % longer, so the same run holds Discord's limits
(embed title 256, field name 256 and value 1,024, description 4,096, 6,000 over a message's
embeds, button labels 80, select options 100, thread names 100): the harness refuses a
message over them, and ``over_limits`` checks the fields one by one, thread names and
modals included.

These pass once every part of the bot has its strings marked (issue 23's helpers); until
then the failure is the list of what is left."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.games.registry import Games
from cogs.odds import CHOICES
from tests.discord.conftest import Env, MakeEnv
from tests.discord.play import needed, open_table, play_board, play_dice
from tests.discord.words import escapes, over_limits, pieces, pseudo_locale
from tests.harness import Player

NAMES = ("Ana", "Bo", "Cy", "Di")


@pytest.fixture
async def env(make_env: MakeEnv) -> AsyncIterator[Env]:
    env = await make_env(seed=11)
    with pseudo_locale(env.h):
        yield env


async def members(env: Env, count: int = 2) -> list[Player]:
    return [await env.h.member(name) for name in NAMES[:count]]


def no_escapes(env: Env, since: int = 0) -> None:
    """Every visible string since request ``since`` is the catalogues', within limits."""
    found = pieces(env.h, since)
    assert found, "nothing was drawn"
    escaped = escapes(found, NAMES)
    assert not escaped, "words outside the catalogue:\n" + "\n".join(escaped)
    assert not over_limits(found), "\n".join(over_limits(found))


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "standard", "rounds": 1},
        {"variant": "reverse", "rounds": 1},
        {"variant": "sudden"},  # first to exactly 21: no rounds
        {"variant": "extended", "rounds": 1},
        {"variant": "standard", "target": 5, "soft_last_die": True},
    ],
    ids=["classic", "reverse", "sudden", "extended", "target-soft-last-die"],
)
async def test_push_your_luck_in_pseudo_locale(env: Env, options: dict[str, object]) -> None:
    ana, bo = await members(env)
    await open_table(env, "sequences start", ana, [bo], **options)
    await play_dice(env, [ana, bo], 1)
    no_escapes(env)


async def test_team_push_your_luck_in_pseudo_locale(env: Env) -> None:
    players = await members(env, 4)
    await open_table(env, "sequences start", players[0], players[1:], variant="team", rounds=1)
    await play_dice(env, players, 1)
    no_escapes(env)


@pytest.mark.parametrize(
    ("command", "options"),
    [("sequences start", {"rules": "classic", "target": 20}), ("heartsdue start", {})],
    ids=["one-roll-sequences", "hearts-due"],
)
async def test_one_roll_games_in_pseudo_locale(
    env: Env, command: str, options: dict[str, object]
) -> None:
    ana, bo = await members(env)
    await open_table(env, command, ana, [bo], **options)
    await play_dice(env, [ana, bo], 1)
    no_escapes(env)


async def test_the_board_game_in_pseudo_locale(env: Env) -> None:
    ana, bo = await members(env)
    await open_table(env, "board start", ana, [bo])
    await play_board(env, [ana, bo], 1)
    no_escapes(env)


async def test_the_board_game_of_two_teams_in_pseudo_locale(env: Env) -> None:
    players = await members(env, 4)
    await open_table(env, "board start", players[0], players[1:], teams=2)
    await play_board(env, players, 1)
    no_escapes(env)


async def test_pages_in_pseudo_locale(env: Env) -> None:
    ana, bo = await members(env)
    await open_table(env, "sequences start", ana, [bo], rules="classic", target=20)
    await play_dice(env, [ana, bo], 1)  # a finished game for the stats, history and replay
    mod = await env.h.member("Mod", manage_guild=True)
    await mod.slash("help")
    for page in Games().rules_pages:
        reply = await ana.slash("rules", game=page.key)
        for b in reply.message.buttons:  # a page's own buttons (the next page, ...)
            if b.custom_id and not b.disabled:
                await ana.click(reply.message, custom_id=b.custom_id)
    for choice in CHOICES:
        reply = await ana.slash("odds", ruleset=choice.value)
        for b in reply.message.buttons:  # the Full table
            if b.custom_id and not b.disabled:
                await ana.click(reply.message, custom_id=b.custom_id)
    await ana.slash("stats")
    await ana.slash("stats", member=bo)
    await ana.slash("leaderboard")
    await ana.slash("history")
    replay = await ana.slash("replay", game=1)
    for _ in range(3):  # a few steps on
        step = [b for b in replay.message.buttons if b.custom_id and not b.disabled]
        if not step:
            break
        replay = await ana.click(replay.message, custom_id=step[-1].custom_id)
    no_escapes(env)


async def test_refusals_in_pseudo_locale(env: Env) -> None:
    ana, bo = await members(env)
    cy = await env.h.member("Cy")
    since = len(env.h.requests)
    lobby = (await ana.slash("sequences start", rounds=1)).message
    await bo.click(lobby, **needed(lobby, "join"))
    refusals = [
        await bo.click(lobby, **needed(lobby, "join")),  # already seated
        await bo.click(lobby, **needed(lobby, "start")),  # not the host
        await cy.click(lobby, **needed(lobby, "cancel")),  # not the host
        await cy.slash("settings language", language="de"),  # no Manage Server
        await ana.slash("replay", game=99),  # no such game
        await ana.slash("sequences start", rules="classic", variant="reverse"),  # no variants
    ]
    await ana.click(lobby, **needed(lobby, "start"))
    table = await env.bot.tables.get(1)
    waiting = bo if table.game.current_seat(table.rules) == 0 else ana
    turn = env.turn_message()
    refusals.append(await waiting.click(turn, **needed(turn, "throw")))  # not their turn
    refusals.append(await cy.click(turn, **needed(turn, "resign")))  # not seated
    assert all(r.ephemeral for r in refusals), [r.text for r in refusals if not r.ephemeral]
    no_escapes(env, since)


async def test_the_hosts_panel_and_its_modal_in_pseudo_locale(env: Env) -> None:
    ana, bo = await members(env)
    lobby = (await ana.slash("sequences start", rounds=1)).message
    lobby = (await bo.click(lobby, **needed(lobby, "join"))).message
    panel = await ana.click(lobby, **needed(lobby, "manage"))
    assert panel.ephemeral
    for select in panel.message.selects:  # e.g. who to remove or make host: the choices shown
        assert select.options

    async def rounds_field() -> str:
        opened = await ana.click(panel.message, **needed(panel.message, "settings"))
        assert opened.modal is not None
        rows = opened.modal.raw["components"]
        inputs = [c for row in rows for c in row.get("components", [])]
        return str(next(c["custom_id"] for c in inputs if c.get("value") == "1"))

    refused = await ana.submit_modal({await rounds_field(): "many"})  # not a number
    assert refused.ephemeral
    changed = await ana.submit_modal({await rounds_field(): "2"})  # a notice to the seated
    assert changed.response_type is not None
    await bo.click(lobby, **needed(lobby, "watch"))
    no_escapes(env)
