"""A game owns its settings: the table service refuses what the start command refuses, in
the same words (a table can't open by another path with settings the command turns down),
and each declared option's range is the range the game's check accepts."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.config import Settings
from bot.errors import UserError
from bot.games.board import settings as board
from bot.games.oneroll import settings as oneroll
from bot.games.options import Option
from bot.games.registry import Games
from bot.games.sequences import settings as push
from bot.store.db import Database
from bot.tables.kernel import TableKernel
from bot.tables.service import TableService
from tests.backends import DbTarget
from tests.discord.conftest import MakeEnv
from tests.fakes import FakeClock

# (kind, settings, the slash command's options, what the player reads either way)
REFUSED: list[tuple[str, dict[str, Any], tuple[str, dict[str, Any]], str]] = [
    (
        "oneroll",
        {"ruleset": "classic", "target": 10},
        ("sequences start", {"rules": "classic", "target": 10}),
        "A one-roll race needs a target of 20 to 1,000 points.",
    ),
    (
        "board",
        {"seats": 5, "teams": None, "first_sequence_wins": False},
        ("board start", {"seats": 5}),
        "5 players can't split into equal teams: choose 4 or 6.",
    ),
    (
        "sequences",
        {"variant": "sudden", "rounds": 3, "target": None, "soft_last_die": False},
        ("sequences start", {"variant": "sudden", "rounds": 3}),
        "Sudden has no rounds or target: the first to exactly 21 wins at once.",
    ),
]


@pytest.fixture
async def service(db_target: DbTarget) -> AsyncIterator[TableService]:
    db = await Database.open(db_target("bot"))
    limits = Settings(_env_file=None, start_cooldown_seconds=0).table_limits()
    yield TableService(TableKernel(db, Games(), limits, FakeClock(), random.Random(1)))
    await db.close()


@pytest.mark.parametrize(("kind", "settings", "command", "words"), REFUSED)
async def test_the_service_refuses_what_the_command_refuses(
    service: TableService,
    make_env: MakeEnv,
    kind: str,
    settings: dict[str, Any],
    command: tuple[str, dict[str, Any]],
    words: str,
) -> None:
    with pytest.raises(UserError) as refused:
        await service.open_lobby(
            guild_id=1, channel_id=2, host_id=3, host_name="Ana", kind=kind, settings=settings
        )
    assert str(refused.value) == words
    env = await make_env()
    ana = await env.h.member("Ana")
    reply = await ana.slash(command[0], **command[1])
    assert reply.ephemeral and reply.text == words


@pytest.mark.parametrize(
    ("option", "check", "settings"),
    [
        (oneroll.TARGET, oneroll.check, lambda n: {"ruleset": "heartsdue", "target": n}),
        (board.SEATS, board.check, lambda n: {"seats": n}),
        (push.ROUNDS, push.check, lambda n: {"variant": "standard", "rounds": n}),
        (push.TARGET, push.check, lambda n: {"variant": "reverse", "target": n}),
    ],
)
def test_an_options_range_is_what_its_game_accepts(
    option: Option[Any], check: Callable[[dict[str, Any]], None], settings: Any
) -> None:
    assert option.low is not None and option.high is not None
    for n in (option.low, option.high):
        check(settings(n))
    for n in (option.low - 1, option.high + 1):
        with pytest.raises(UserError):
            check(settings(n))


def test_the_odds_of_a_dice_game_come_from_its_package() -> None:
    """/odds lists what the games declare, in their order, and each answer is worked out in
    the package of the game it names (``bot/games/<name>/odds.py``)."""
    from cogs.odds import CHOICES

    pages = Games().odds_pages
    assert [(c.name, c.value) for c in CHOICES] == [(p.choice, p.key) for p in pages.values()]
    for game in Games().presentations():
        package = type(game).__module__.rsplit(".", 1)[0]
        for page in game.odds_pages:
            assert page.figures.__module__ == f"{package}.odds", page.key
            assert page.game_key in game.labels, page.key
    assert {game.name for game in Games().presentations() if game.odds_pages} == {
        "sequences",
        "oneroll",
    }
