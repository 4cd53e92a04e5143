"""The slash command tree Discord is sent, option by option, is the one in
``command_tree.json``: moving where a game's options are declared must not change what
players see (names, descriptions, ranges, choices, defaults, autocomplete)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.discord.conftest import MakeEnv

SNAPSHOT = Path(__file__).with_name("command_tree.json")


def tree_payload(bot: Any) -> list[dict[str, Any]]:
    commands = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    return sorted(commands, key=lambda c: (c.get("type", 1), c["name"]))


async def test_the_command_tree_is_unchanged(make_env: MakeEnv) -> None:
    env = await make_env()
    found = json.loads(json.dumps(tree_payload(env.bot)))
    if os.environ.get("WRITE_COMMAND_TREE"):
        SNAPSHOT.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    assert found == json.loads(SNAPSHOT.read_text())
