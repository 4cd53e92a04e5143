"""The slash command tree Discord is sent, option by option, is the one in
``command_tree.json``: moving where a game's options are declared must not change what
players see (names, descriptions, ranges, choices, defaults, autocomplete). The tree is
read as ``tree.sync()`` sends it, through the bot's translator: the names and texts in each
language are in the snapshot too (``name_localizations``, ``description_localizations``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bot.ui.i18n import translated_tree
from tests.discord.conftest import MakeEnv

SNAPSHOT = Path(__file__).with_name("command_tree.json")


async def test_the_command_tree_is_unchanged(make_env: MakeEnv) -> None:
    env = await make_env()
    found = json.loads(json.dumps(await translated_tree(env.bot.tree)))
    if os.environ.get("WRITE_COMMAND_TREE"):
        SNAPSHOT.write_text(
            json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "utf-8"
        )
    assert found == json.loads(SNAPSHOT.read_text("utf-8"))


async def test_discord_accepts_the_synced_tree(make_env: MakeEnv) -> None:
    """Issue 31 item 0: the PUT of the whole tree passes the fake's schema checks (option
    ranges within ±(2^53 - 1), required options first, names and descriptions in every
    locale, 4,000 characters a command); a refused PUT registers no command at all.
    ``/tournament show`` and three others bounded their numbers by 2^53, one past it."""
    env = await make_env()
    synced = await env.bot.tree.sync()
    assert {c.name for c in synced} == {c["name"] for c in await translated_tree(env.bot.tree)}
    bounds = [
        bound
        for command in json.loads(SNAPSHOT.read_text("utf-8"))
        for option in _options(command)
        for bound in (option.get("min_value"), option.get("max_value"))
        if bound is not None
    ]
    assert bounds and max(abs(b) for b in bounds) <= 2**53 - 1


def _options(item: dict[str, Any]) -> list[dict[str, Any]]:
    """Every option below ``item``, subcommands' own included."""
    found = []
    for option in item.get("options", []):
        found += [option, *_options(option)]
    return found
