"""Every standings embed stays within Discord's limits with hostile-but-allowed data:
names of 32 characters, 200-character reasons full of markdown, huge numbers, the largest
pages. Checked with the same rules the harness's fake Discord applies to every message."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.games.base import RulesPage
from bot.games.registry import Games
from bot.ratings import StatLine
from bot.records import LeaderboardPage, LeaderboardRow, LedgerEntry, WalletView
from bot.render.standings import leaderboard_embed, stats_embed, wallet_embed
from bot.store.stats import MAX_PAGE_SIZE, SORTS
from tests.harness import payloads as P

BIG = 2**62
NAME = "W" * 32  # clean_name caps names at 32 characters
USER = 2**63 - 1  # the longest snowflake


def problems(*embeds: discord.Embed) -> list[str]:
    body: dict[str, Any] = {"embeds": [e.to_dict() for e in embeds]}
    return P.message_problems(body)


@pytest.mark.parametrize("count", [1, 5, 25, 200])
@pytest.mark.parametrize("reason", ["*_" * 100, "x" * 200, "\\" * 200, "<@&1> @everyone " * 12])
def test_wallet_fits_whatever_the_entries(count: int, reason: str) -> None:
    kinds = ["grant", "take", "pay_in", "pay_out", "payout", "escrow"]
    entries = [
        LedgerEntry(i, -BIG, kinds[i % len(kinds)], reason[:200], BIG, USER, 4e9)
        for i in range(count)
    ]
    view = WalletView(1, USER, BIG, BIG, None, entries)
    embed = wallet_embed(view, NAME, 0.0)
    assert problems(embed) == []
    value = embed.fields[0].value or ""
    if count <= 5:  # the real page: every entry keeps its line
        assert value.count("\n") == count - 1 and value.count("<t:4000000000:R>") == count


@pytest.mark.parametrize("sort", SORTS)
def test_leaderboard_fits_the_largest_page(sort: str) -> None:
    def row(rank: int, name: str | None, user: int = USER) -> LeaderboardRow:
        return LeaderboardRow(rank, user, name, BIG, BIG, 1.0, BIG, BIG, BIG, -BIG, BIG, BIG, BIG)

    rows = [row(BIG - i, NAME, 10**18 + i) for i in range(MAX_PAGE_SIZE)]
    page = LeaderboardPage(rows, BIG, row(BIG, None), 999_999, MAX_PAGE_SIZE)
    embed = leaderboard_embed(page, Games().label("x" * 60), "global", sort, viewer_id=None)
    assert problems(embed) == []
    assert f"__<@{USER}>__" in (embed.description or "").splitlines()[-1]  # the viewer's row


def test_stats_fit_every_game_with_huge_numbers() -> None:
    games = Games()
    keys = [*games.labels, *(f"{'k' * 28}:{i:031}" for i in range(20))]
    lines = [
        StatLine(1, key, USER, BIG, BIG, BIG, BIG, BIG, -BIG, BIG, mu=1e12, sigma=1.0)
        for key in keys
    ]
    glob = {line.game_key: line for line in lines}
    embed = stats_embed(NAME, lines, glob, keys[-1], games.label)
    assert problems(embed) == []


@pytest.mark.parametrize("page", Games().rules_pages, ids=lambda page: page.key)
def test_rules_fit_one_embed(page: RulesPage) -> None:
    embed = discord.Embed(title=f"Rules · {page.title}", description=page.text)
    assert problems(embed) == []
