"""/rules for every game, /odds for every ruleset and /help: the harness refuses any of
them that would break a Discord limit (description, embed total, content)."""

from __future__ import annotations

from bot.games.registry import Games
from cogs.odds import CHOICES
from tests.discord.conftest import MakeEnv


async def test_rules_odds_and_help_fit_discord(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    for page in Games().rules_pages:
        reply = await ana.slash("rules", game=page.key)
        assert reply.ephemeral and reply.embeds[0]["title"].startswith("Rules · ")
    for choice in CHOICES:
        reply = await ana.slash("odds", ruleset=choice.value)
        assert reply.ephemeral and reply.text
    mod = await env.h.member("Mod", manage_guild=True)  # the longest /help: admins see more
    reply = await mod.slash("help")
    assert "/wallet" in reply.text and "/chips grant" in reply.text
    assert not [r for r in env.h.requests if r.failed_with]


async def test_a_full_board_table_of_long_names_fits_discord(make_env: MakeEnv) -> None:
    env = await make_env(seed=8)
    players = [await env.h.member(f"{i:02}" + "W" * 30) for i in range(12)]  # 32 characters
    lobby = (await players[0].slash("board start", teams=2)).message
    for player in players[1:]:
        lobby = (await player.click(lobby, "Join")).message
    await players[0].click(lobby, "Start")
    for _ in range(3):  # nobody moves: the timer plays for them, filling "Recent"
        await env.tick(env.settings.turn_timeout_seconds + 1)
    hand = await players[0].click(env.turn_message(), "My hand")  # seated: a hand
    assert hand.ephemeral and "Team" in env.turn_message().text
    assert not [r for r in env.h.requests if r.failed_with]
