"""Issue 31.1: a forged ``tn:<id>:join`` pressed on a running game's table message (or an
open lobby) signed the presser up and redrew the pressed message as the tournament's
sign-up: the game's buttons were gone. Every persistent button answers only on its own
message: each custom_id family, pressed on every other kind of message the bot draws, is
refused in one private line, leaves the message as it was and moves no chip."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_issue_12 import HEARTS_DUE_FACES
from tests.discord.test_replays import finish_hearts_due
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player, Reply
from tests.reliability.helpers import forge_click, snapshot


def one_private_line(reply: Reply) -> bool:
    return reply.ephemeral and "\n" not in reply.text and 0 < len(reply.text) <= 200


def shown(env: Env, message: Message) -> tuple[Any, ...]:
    now = env.h.message(message.id)
    return (now.text, now.components, now.embeds)


def with_button(env: Env, prefix: str) -> Message:
    """The last public message carrying a button whose custom_id starts with ``prefix``."""
    found = [
        m
        for m in env.h.messages()
        if not m.ephemeral and any((b.custom_id or "").startswith(prefix) for b in m.buttons)
    ]
    assert found, prefix
    return found[-1]


async def kinds_of_message(env: Env) -> tuple[dict[str, tuple[Message, list[str]]], Player, Player]:
    """One message of every kind the bot draws, each with the custom_ids that are its own
    (its buttons' families, ids that name it), and the two members who press."""
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    org = await env.h.member("Org", manage_guild=True)
    await finish_hearts_due(env, ana, bo)  # game 1: its result message has Rematch
    result = with_button(env, "rm:1")
    lobby2 = (await ana.slash("heartsdue start", target=20)).message
    await bo.click(lobby2, "Join")
    await ana.click(lobby2, "Start")  # game 2 runs in its thread
    turn = with_button(env, "t:2:")
    version = (await env.bot.tables.get(2)).version
    lobby = (await ana.slash("sequences start", rounds=1, stake=50)).message  # game 3, open
    panel = (await ana.click(lobby, "Manage")).message
    signup = (await org.slash("tournament create", game="sequences:standard",
                              format="round_robin", fee=20)).message  # fmt: skip
    await bo.click(signup, "Join")  # a fee is held: a forged Leave or Start must not move it
    started = (await org.slash("tournament create", game="sequences:standard",
                               format="round_robin")).message  # fmt: skip
    for p in (ana, bo):
        await p.click(started, "Join")
    await org.click(started, "Start")  # its message is the live standings now
    replay = (await ana.slash("replay", game=1)).message
    history = (await ana.slash("history")).message
    board = (await ana.slash("leaderboard")).message
    odds = (await ana.slash("odds", ruleset="heartsdue")).message
    families = {
        "lobby": [f"t:3:L:{a}" for a in ("join", "leave", "start", "cancel", "watch", "manage")],
        "table": [f"t:2:{version}:throw", "t:2:T:rules", "t:2:T:watch", "t:2:T:resign"],
        "rematch": ["rm:1"],
        "review": ["rv:1"],
        "panel": ["t:3:L:settings", "lm:3:kick"],
        "signup": [f"tn:1:{a}" for a in ("join", "leave", "checkin", "start")],
        "standings": [f"tn:2:{a}" for a in ("join", "leave", "start")],
        "replay": ["rp:1:1:n", "rp:1:4:l", "rp:1:0:a"],
        "history": [f"hi:{ana.id}:1:0:-", "rp:1:0:o"],
        "leaderboard": [f"lb:{ana.id}:1:s:r:heartsdue"],
        "odds": ["od:heartsdue"],
    }
    messages = {
        "lobby": (lobby, families["lobby"]),
        "table": (turn, families["table"]),
        "result": (result, families["rematch"] + families["review"]),
        "panel": (panel, families["panel"]),
        "signup": (signup, families["signup"]),
        "standings": (started, families["standings"]),
        "replay": (replay, families["replay"] + families["review"]),
        "history": (history, families["history"]),
        "leaderboard": (board, families["leaderboard"]),
        "odds": (odds, families["odds"]),
    }
    every = [custom_id for ids in families.values() for custom_id in ids]
    return (
        {k: (m, [c for c in every if c not in own]) for k, (m, own) in messages.items()},
        ana,
        org,
    )


async def test_every_button_family_pressed_on_every_other_message_is_refused(
    make_env: MakeEnv,
) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 4))
    kinds, ana, org = await kinds_of_message(env)
    before = await snapshot(env.bot.db, with_messages=True)
    pressed = 0
    for kind, (message, foreign) in kinds.items():
        # A private message is pressed by its owner only (Discord delivers no other press).
        pressers = (ana,) if message.ephemeral else (ana, org)
        for custom_id in foreign:
            for player in pressers:
                was = shown(env, message)
                reply = await forge_click(env, player, message, custom_id)
                where = (kind, custom_id, player.name)
                assert one_private_line(reply), (where, reply.text)
                assert "went wrong" not in reply.text, where
                assert shown(env, message) == was, where
                pressed += 1
    assert pressed > 200
    # Nothing moved: no chip, no seat, no sign-up, no version.
    assert await snapshot(env.bot.db, with_messages=True) == before
    # Each family still answers on its own message: the game goes on.
    turn, _ = kinds["table"]
    rules = await forge_click(env, ana, turn, "t:2:T:rules")
    assert rules.ephemeral and not rules.failed
