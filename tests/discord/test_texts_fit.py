"""/rules for every game, /odds for every ruleset and /help: the harness refuses any of
them that would break a Discord limit (description, embed total, content)."""

from __future__ import annotations

from bot.render.rules_text import RULES
from cogs.odds import CHOICES
from tests.discord.conftest import MakeEnv


async def test_rules_odds_and_help_fit_discord(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    for game in RULES:
        reply = await ana.slash("rules", game=game)
        assert reply.ephemeral and reply.embeds[0]["title"].startswith("Rules · ")
    for choice in CHOICES:
        reply = await ana.slash("odds", ruleset=choice.value)
        assert reply.ephemeral and reply.text
    reply = await ana.slash("help")
    assert "/wallet" in reply.text and "/chips grant" in reply.text
    assert not [r for r in env.h.requests if r.failed_with]
