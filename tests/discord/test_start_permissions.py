"""The README's promise: "If it lacks Send Messages, Embed Links or Attach Files in a
channel, the start command says which one is missing". Each game's start command, in a
channel where the bot lacks one of them (denied by a real channel overwrite, so the
interaction's ``app_permissions`` and the fake Discord's checks agree), is refused
privately, naming it, and opens no table; with the permission back the same command opens
the game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import StaleAction
from tests.discord.conftest import Env, MakeEnv

STARTS: list[tuple[str, dict[str, Any]]] = [
    ("sequences start", {}),
    ("sequences start", {"rules": "classic"}),
    ("heartsdue start", {}),
    ("board start", {}),
]
NEEDED = {
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "view_channel": "View Channel",
}


async def no_table(env: Env) -> bool:
    try:
        await env.bot.tables.get(1)
    except StaleAction:
        return True
    return False


@pytest.mark.parametrize(("command", "options"), STARTS, ids=lambda x: str(x))
@pytest.mark.parametrize("permission", list(NEEDED))
async def test_start_without_a_needed_permission_names_it(
    make_env: MakeEnv, command: str, options: dict[str, Any], permission: str
) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    await env.h.set_bot_permissions(env.h.channel, **{permission: False})
    reply = await ana.slash(command, **options)
    assert reply.ephemeral and reply.message.visible_to == ana.id
    assert reply.content == (
        f"I can't run a game here: I'm missing {NEEDED[permission]} in this channel."
    )
    assert [m for m in env.h.messages() if not m.ephemeral] == []
    assert await no_table(env)

    await env.h.set_bot_permissions(env.h.channel, **{permission: None})
    lobby = await ana.slash(command, **options)
    assert not lobby.ephemeral and lobby.message.buttons
    assert (await env.bot.tables.get(1)).status == "lobby"


async def test_every_missing_permission_is_named_at_once(make_env: MakeEnv) -> None:
    env = await make_env()
    await env.h.set_bot_permissions(env.h.channel, embed_links=False, attach_files=False)
    reply = await (await env.h.member("Ana")).slash("board start")
    assert reply.ephemeral and reply.content == (
        "I can't run a game here: I'm missing Embed Links, Attach Files in this channel."
    )
    assert await no_table(env)


async def test_only_the_root_of_implied_denials_is_named(make_env: MakeEnv) -> None:
    # Discord takes embeds and files away with Send Messages, and everything with View
    # Channel: the line names what to grant, not everything that follows from it.
    env = await make_env()
    ana = await env.h.member("Ana")
    await env.h.set_bot_permissions(env.h.channel, send_messages=False, embed_links=False)
    reply = await ana.slash("heartsdue start")
    assert reply.content == "I can't run a game here: I'm missing Send Messages in this channel."
    await env.h.set_bot_permissions(env.h.channel, send_messages=None)
    reply = await ana.slash("heartsdue start")
    assert reply.content == "I can't run a game here: I'm missing Embed Links in this channel."
    await env.h.set_bot_permissions(env.h.channel, view_channel=False)
    reply = await ana.slash("heartsdue start")
    assert reply.content == "I can't run a game here: I'm missing View Channel in this channel."
    assert await no_table(env)
