"""The slash command tree Discord is sent, option by option, is the one in
``command_tree.json``: moving where a game's options are declared must not change what
players see (names, descriptions, ranges, choices, defaults, autocomplete). The tree is
read as ``tree.sync()`` sends it, through the bot's translator: the names and texts in each
language are in the snapshot too (``name_localizations``, ``description_localizations``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

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
