"""Issue 22 item 4: one live table message per game, edited in place at every change (the
board game's in Discord's Components V2 layout), and a short ping of the member to move
that goes when the turn passes, so a finished game's thread reads in a screen or two. A
message posted by the previous version (embed layout) still answers its buttons."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.records import Button
from bot.render.view import build_view
from bot.ui.compose import (
    RESIGN_BUTTON,
    RULES_BUTTON,
    TABLE_WATCH_BUTTONS,
    game_of,
    table_layout,
)
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_board_game import open_board, open_hand, play_out, play_turn
from tests.discord.test_sequences_game import open_table, play_until_over
from tests.harness import Message
from tests.harness import payloads as P

THREAD_MAX = 12  # Done means: "at most a dozen messages"


def every_version_fits(messages: list[Message]) -> None:
    """Each message, and each version an edit left behind, passes Discord's limits (the
    fake refuses what breaks them; this reads what it holds)."""
    for message in messages:
        for version in [*message.history, message.payload]:
            assert P.message_problems(version) == [], (message, version)
            if version.get("flags", 0) & P.COMPONENTS_V2_FLAG:
                shown = list(P.walk_components(version.get("components") or []))
                assert len(shown) <= P.COMPONENTS_V2_MAX
                text = sum(len(c.get("content") or "") for c in shown if c["type"] == 10)
                assert text <= P.COMPONENTS_V2_TEXT_MAX


async def test_a_two_player_board_game_leaves_a_short_thread(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo])
    await ana.click(lobby, "Start")
    table_message = env.turn_message()
    assert table_message.flags & P.COMPONENTS_V2_FLAG
    assert not table_message.content and not table_message.embeds
    [box] = table_message.components
    assert box["type"] == P.CONTAINER and box["accent_color"] == 0x0072B2  # Blue ● to move
    kinds = [c["type"] for c in box["components"]]
    assert kinds[:3] == [P.TEXT_DISPLAY, P.MEDIA_GALLERY, P.ACTION_ROW]  # My hand under it
    [picture] = table_message.attachments
    assert box["components"][1]["items"][0]["media"]["url"] == f"attachment://{picture.filename}"
    ping = env.ping()
    assert ping is not None and ping.content == f"{ana.mention}, your turn."

    await play_turn(env, ana)
    assert ping.deleted  # the turn passed: Ana's ping went, Bo's came
    new_ping = env.ping()
    assert new_ping is not None and bo.mention in new_ping.content
    assert env.turn_message() == table_message  # edited in place, not posted again
    accent = env.turn_message().components[0]["accent_color"]
    assert accent == 0xE69F00  # Orange ▲ to move

    await play_out(env, {ana.id: ana, bo.id: bo})
    assert (await env.bot.tables.get(1)).status == "finished"
    thread = env.thread_messages()
    assert len(thread) <= THREAD_MAX, thread
    assert thread == [table_message] and "won" in table_message.text
    every_version_fits(env.h.messages(include_deleted=True))
    assert env.h.fake.rejected == []
    moves = len(table_message.history)
    assert moves > 60  # the game was long: the thread is short because it was edited


async def test_a_push_your_luck_game_leaves_a_short_thread(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo, rounds=2)
    await ana.click(lobby, "Start")
    await play_until_over(env, {ana.id: ana, bo.id: bo})
    assert (await env.bot.tables.get(1)).status == "finished"
    thread = env.thread_messages()
    assert len(thread) <= THREAD_MAX and len(thread) == 1, thread
    assert env.ping() is None
    every_version_fits(env.h.messages(include_deleted=True))


def previous_turn_message(env: Env, table: Any) -> dict[str, Any]:
    """The turn message as the previous version posted it (main before this change): the
    embed, the buttons in plain action rows, and the ping in its content."""
    game = game_of(table)
    shown = game.turn_view(table.snapshot())
    current = table.game.current_seat(table.rules)
    user_id = table.seats[current].user_id
    view = build_view(
        table.id,
        table.version,
        game.turn_buttons(table.rules),
        [RULES_BUTTON, RESIGN_BUTTON, *TABLE_WATCH_BUTTONS],
    )
    return {
        "content": f"<@{user_id}>, your turn.",
        "embed": shown.embed,
        "view": view,
        "file": shown.file,
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(user_id)]),
    }


async def post_previous(env: Env) -> Message:
    """Replace the game's message by one in the previous version's layout, as if the game
    had been started before the upgrade."""
    table = await env.bot.tables.get(1)
    [thread] = env.h.threads
    channel: Any = env.bot.get_channel(thread.id)
    new = env.turn_message()
    sent = await channel.send(**previous_turn_message(env, table))
    env.h.fake.delete_message(env.h.fake.messages[new.id])
    await env.bot.tables.set_game_message(1, thread_id=thread.id, message_id=sent.id)
    await env.h.settle()
    old = env.turn_message()
    assert old.id == sent.id and old.embeds and not old.flags & P.COMPONENTS_V2_FLAG
    return old


async def test_a_message_of_the_previous_version_answers_its_buttons(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    old = await post_previous(env)
    await env.restart()  # the upgrade

    hand = await open_hand(env, ana)  # My hand on the old message
    assert "Your turn" in hand.text
    rules = await bo.click(old, "Rules")
    assert rules.ephemeral
    await play_turn(env, ana)  # the move redraws the old message in the new layout
    assert env.turn_message() == old and old.flags & P.COMPONENTS_V2_FLAG
    assert not old.content and not old.embeds and "Bo** (Orange ▲) to play" in old.text
    assert old.labels[0] == "My hand"
    await play_turn(env, bo)  # and its buttons go on answering
    every_version_fits([old])


async def test_the_restart_redraws_a_previous_message_in_the_new_layout(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    await play_turn(env, ana)
    old = await post_previous(env)
    env.bot.shell.publisher.shown._shown_versions.clear()  # the old process died before
    async with env.bot.db.transaction() as conn:  # it recorded what it showed
        await conn.execute("UPDATE games SET shown_version = version - 1 WHERE id = 1")
    await env.restart()  # on_ready redraws the tables behind
    await env.h.settle()
    assert old.flags & P.COMPONENTS_V2_FLAG and not old.embeds and not old.content
    assert env.turn_message() == old and old.labels[0] == "My hand"
    await play_turn(env, bo)


async def test_an_edit_cannot_take_a_v2_message_back_to_embeds(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    table_message = env.turn_message()
    [thread] = env.h.threads
    channel: Any = env.bot.get_channel(thread.id)
    partial = channel.get_partial_message(table_message.id)
    for edit in ({"embed": discord.Embed(title="x")}, {"content": "x"}):
        with env.h.expect_rejected("on a components-v2 message; it holds components only"):
            try:
                await partial.edit(**edit)
            except discord.HTTPException as exc:
                assert exc.status == 400
            else:
                raise AssertionError(f"{edit} was taken on a components-v2 message")
    assert table_message.flags & P.COMPONENTS_V2_FLAG


def test_components_v2_limits_are_checked() -> None:
    v2 = P.COMPONENTS_V2_FLAG
    text = {"type": P.TEXT_DISPLAY, "content": "x" * 2001}
    assert "holds at most 4,000" in P.message_problems({"flags": v2, "components": [text, text]})[0]
    assert P.message_problems({"flags": v2, "components": [text], "content": "hi"})
    assert P.message_problems({"flags": v2, "components": [text], "embeds": [{"title": "t"}]})
    many = [{"type": P.TEXT_DISPLAY, "content": "x"}] * 41
    assert "at most 40" in P.message_problems({"flags": v2, "components": many})[0]
    base = {"flags": v2, "components": [text]}
    assert P.message_problems(P.v2_edit({"embeds": [{"title": "t"}]}, base))
    assert P.v2_edit({"flags": v2}, {"flags": 0}) == {"flags": v2}  # an embed message may gain it


async def test_a_ping_left_by_the_process_before_a_restart_goes_when_the_turn_passes(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    old_ping = env.ping()
    assert old_ping is not None and ana.mention in old_ping.content
    await env.restart()  # this process does not know Ana's ping
    await play_turn(env, ana)
    assert old_ping.deleted
    pings = [m for m in env.thread_messages() if not m.components]
    assert [p.content for p in pings] == [f"{bo.mention}, your turn."]


def test_the_fullest_table_layout_fits_discords_limits() -> None:
    embed = discord.Embed(title="t" * 256, description="d" * 4096, colour=0x0072B2)
    for i in range(25):
        embed.add_field(name=f"f{i}", value="v" * 1024)
    embed.set_footer(text="f" * 2048)
    turn = [Button(f"a{i}", f"Button {i}", "primary", row=i // 5) for i in range(20)]
    view = build_view(1, 7, turn, [RULES_BUTTON, RESIGN_BUTTON, *TABLE_WATCH_BUTTONS])
    file = discord.File(io.BytesIO(b"png"), filename="board-1-7.png")
    layout = table_layout(embed, file, view, notice="n" * 3000)
    body = {"flags": P.COMPONENTS_V2_FLAG, "components": layout.to_components()}
    assert P.message_problems(body) == []
    assert len(list(P.walk_components(body["components"]))) <= P.COMPONENTS_V2_MAX
