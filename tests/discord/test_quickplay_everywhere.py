"""Quick play across servers through the real dispatch (issue 36, ``where: everywhere``):
three servers, two of them on everywhere. Members of the two are matched, press Ready each
in their own server and play a whole board game by clicks from their own server's thread,
each thread holding one live table message; hands stay private; the table is no server's
(EVERYWHERE); a member of the third server (on here) is never matched with them. Hostile
input: a click from a server that is no place of the table, forged ids, queuing from two
servers at once, queuing while seated; a server turning to here while its members wait
across servers."""

from __future__ import annotations

import discord

from bot.records import EVERYWHERE
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_board_game import first
from tests.discord.test_quickplay import ready_id, ready_message
from tests.harness import Message, Player
from tests.reliability.helpers import forge_click

SERVERS = ("North", "South")  # beside the first server, "Test Guild", which stays on here


async def three_servers(env: Env) -> tuple[discord.Guild, discord.Guild, discord.Guild]:
    home, north, south = env.h.guilds
    for server in (north, south):
        admin = await env.h.member(f"Admin of {server.name}", guild=server, manage_guild=True)
        done = await admin.slash("settings quickplay", state="everywhere")
        assert done.text.startswith("Quick play is set to everywhere: members who queue")
    return home, north, south


def table_messages(env: Env, thread: discord.Thread) -> list[Message]:
    """The thread's live table messages (more than a line of text)."""
    return [
        m
        for m in env.h.messages(thread, ephemeral=False)
        if m.components or m.embeds or m.attachments
    ]


def table_message(env: Env, player: Player) -> Message:
    """The live table message in the player's own server's thread."""
    [thread] = env.h.threads_of(player.guild_id)
    [message] = table_messages(env, thread)
    return message


async def play_turn(env: Env, player: Player, others: list[Player]) -> None:
    """My hand on the player's own table message, a card, (a row,) a space; the hand is
    shown to them alone."""
    hand = await player.click(table_message(env, player), "My hand")
    assert hand.ephemeral and hand.message.visible_to == player.id
    assert all(not hand.message.visible_for(other.id) for other in others)
    message = hand.message
    for _ in range(4):
        labels = message.labels
        label = first(labels, starting=("Pass", "Trade")) or first(labels)
        assert label is not None, f"nothing to press in {labels}"
        reply = await player.click(message, label)
        assert reply.ephemeral, reply.text
        if label.startswith("Pass") or "choose" not in reply.text:
            return
        message = reply.message
    raise AssertionError("a turn took more than four clicks")


async def matched_across(env: Env) -> tuple[Player, Player, Player]:
    _home, north, south = await three_servers(env)
    ana = await env.h.member("Ana", guild=north)
    bo = await env.h.member("Bo", guild=south)
    cy = await env.h.member("Cy")  # the first server, on here
    queued = await ana.slash("play queue", game="board", where="everywhere")
    assert queued.ephemeral and queued.text.startswith(
        "You're in the queue for Sequence (board game): number 1 of 1 waiting across servers."
    )
    refused = await cy.slash("play queue", game="board", where="everywhere")
    assert refused.text == (
        "This server plays quick play only here (/settings quickplay): queue with where: "
        "here, or ask an admin for everywhere."
    )
    here = await cy.slash("play queue", game="board")
    assert "waiting here" in here.text
    second = await bo.slash("play queue", game="board", where="everywhere")
    assert "number 2 of 2 waiting across servers" in second.text
    await env.tick(1)
    return ana, bo, cy


async def test_members_of_two_servers_play_a_whole_board_game_each_from_their_own_thread(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21, more_guilds=SERVERS)
    ana, bo, cy = await matched_across(env)
    home, north, south = env.h.guilds
    asked_ana, asked_bo = ready_message(env, ana), ready_message(env, bo)
    # The ready check goes to each member where they queued.
    assert asked_ana.channel_id == north.text_channels[0].id
    assert asked_bo.channel_id == south.text_channels[0].id
    assert not [m for m in env.h.messages() if f"qp:ready:{cy.id}:" in str(m.components)]
    await ana.click(asked_ana, custom_id=ready_id(asked_ana))
    await bo.click(asked_bo, custom_id=ready_id(asked_bo))
    table = await env.bot.tables.get(1)
    assert table.row.guild_id == EVERYWHERE and table.row.stake == 0
    assert table.status == "running" and [s.user_id for s in table.seats] == [ana.id, bo.id]
    assert [(p.guild_id, p.user_ids) for p in table.places] == [
        (north.id, (ana.id,)),
        (south.id, (bo.id,)),
    ]
    [north_thread], [south_thread] = env.h.threads_of(north), env.h.threads_of(south)
    assert env.h.threads_of(home) == []
    assert asked_ana.content == (
        f"Everyone is ready: your table is https://discord.com/channels/{north.id}/"
        f"{north_thread.id}"
    )
    assert asked_bo.content.endswith(f"/channels/{south.id}/{south_thread.id}")
    # Each server's notice mentions its own member and names the other.
    notices = [m.content for m in env.h.messages() if m.content.startswith("⚡")]
    assert notices == [
        f"⚡ Quick play across servers, Sequence (board game): {ana.mention}, Bo · table #1",
        f"⚡ Quick play across servers, Sequence (board game): Ana, {bo.mention} · table #1",
    ]
    players = {ana.id: ana, bo.id: bo}
    for _ in range(400):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            break
        mover = players[table.seats[table.rules.turn].user_id or 0]
        other = bo if mover is ana else ana
        # The member to move is mentioned in their own place only.
        pings = [
            m.content
            for t in (north_thread, south_thread)
            for m in env.h.messages(t, ephemeral=False)
            if "your turn" in m.content
        ]
        assert pings == [f"{mover.mention}, your turn."]
        [mine] = [t for t in (north_thread, south_thread) if t.guild.id == mover.guild_id]
        assert any(m.content == pings[0] for m in env.h.messages(mine))
        await play_turn(env, mover, [other])
        # Each thread holds one live table message, and both show the same turn.
        shown = [table_messages(env, t) for t in (north_thread, south_thread)]
        assert [len(s) for s in shown] == [1, 1]
        assert shown[0][0].buttons and [b.custom_id for b in shown[0][0].buttons] == [
            b.custom_id for b in shown[1][0].buttons
        ]
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    assert table.rules.outcome.seats == (0,)  # seed 21: Ana's sequences
    for server, thread in ((north, north_thread), (south, south_thread)):
        said = [m.content for m in env.h.messages(server.text_channels[0]) if "🏆" in m.content]
        assert said == [f"🏆 **Ana** won Sequence (board game) #1 (Ana 2, Bo 0). <#{thread.id}>"], (
            said
        )
        [final] = table_messages(env, thread)
        assert all(b.label != "Rematch" for b in final.buttons)
    # The result is on the everywhere ladder, seen from either server, and on no server's.
    for player in (ana, bo):
        ladder = await player.slash("leaderboard", game="board", scope="everywhere", sort="wins")
        assert "Quick play across servers, by wins" in ladder.text
        assert ladder.text.index("Ana") < ladder.text.index("Bo"), ladder.text
        ana_line = "__Ana__" if player is ana else "Ana"  # the viewer's own line is underlined
        assert f"{ana_line} · **1** won · 1 played" in ladder.text, ladder.text
        assert "Page 1 of 1 · 2 players" in ladder.text
        for scope in ("server", "global"):
            board = await player.slash("leaderboard", game="board", scope=scope)
            assert "Ana" not in board.text and "Bo" not in board.text, board.text
    # Cy, on here in the third server, waited all along and was never matched.
    assert (await env.bot.shell.quickplay.place(cy.id)).waiting == 1  # type: ignore[union-attr]
    assert not [m for m in env.h.messages(home.text_channels[0]) if "press Ready" in m.content]


async def test_hostile_clicks_and_queuing_twice_across_servers(make_env: MakeEnv) -> None:
    env = await make_env(seed=3, more_guilds=SERVERS)
    home, north, south = env.h.guilds
    env.h.guild_locales[north.id] = "de"  # North speaks German; each place its own words
    ana, bo, cy = await matched_across(env)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    notices = {m.channel_id: m.content for m in env.h.messages() if m.content.startswith("⚡")}
    assert notices[north.text_channels[0].id].startswith("⚡ Serverübergreifendes Schnellspiel")
    assert notices[south.text_channels[0].id].startswith("⚡ Quick play across servers")
    [north_thread], [south_thread] = env.h.threads_of(north), env.h.threads_of(south)
    assert "Meine Karten" in table_message(env, ana).labels  # North's table message
    assert "My hand" in table_message(env, bo).labels  # South's
    mover = ana if (await env.bot.tables.get(1)).rules.turn == 0 else bo
    live = table_message(env, mover)
    # A member of neither place presses the table's button from their own server.
    hand_id = next(b.custom_id for b in live.buttons if (b.custom_id or "").endswith(":hand"))
    assert hand_id is not None
    own = home.text_channels[0].id
    elsewhere = await forge_click(env, cy, live, hand_id, channel_id=own)
    assert elsewhere.ephemeral
    assert elsewhere.text == "That button belongs to a game somewhere else."
    forged = await forge_click(env, cy, live, "t:999:1:hand", channel_id=own)
    assert forged.ephemeral
    # Queuing while seated at the cross-server table: its link, in the member's server.
    for player, thread in ((ana, north_thread), (bo, south_thread)):
        seated = await player.slash("play queue", game="board", where="everywhere")
        assert seated.text == (
            f"You're playing at table #1 (<#{thread.id}>): finish it before you queue."
        )
    # A member of two servers queues from one, then from the other: the first is named.
    dee = await env.h.member("Dee", guild=north)
    await env.h.add_to_guild(dee, south)
    await dee.slash("play queue", game="heartsdue", where="everywhere")
    twice = await dee.slash(
        "play queue", game="heartsdue", where="everywhere", _channel=south.text_channels[0]
    )
    assert twice.text == (
        f"You're already in the queue in another server (in <#{north.text_channels[0].id}>, "
        "for Hearts Due): one queue at a time."
    )


async def test_a_block_holds_across_servers(make_env: MakeEnv) -> None:
    env = await make_env(more_guilds=SERVERS)
    _home, north, south = await three_servers(env)
    ana = await env.h.member("Ana", guild=north)
    bo = await env.h.member("Bo", guild=south)
    await env.h.add_to_guild(bo, north)  # so that Ana can name him
    blocked = await ana.slash("play block", member=bo.member_in(north))
    assert blocked.text == f"You'll never be matched with {bo.mention}."
    await ana.slash("play queue", game="board", where="everywhere")
    await bo.slash("play queue", game="board", where="everywhere")
    await env.tick(1)
    assert not [m for m in env.h.messages() if "press Ready" in m.content]
    await ana.slash("play unblock", member=bo.member_in(north))
    await env.tick(1)
    assert ready_message(env, ana).channel_id == north.text_channels[0].id
    assert ready_message(env, bo).channel_id == south.text_channels[0].id


async def test_a_server_turning_to_here_takes_its_members_out_of_the_queue_across(
    make_env: MakeEnv,
) -> None:
    env = await make_env(more_guilds=SERVERS)
    _home, north, _south = await three_servers(env)
    ana = await env.h.member("Ana", guild=north)
    eve = await env.h.member("Eve", guild=north)
    await ana.slash("play queue", game="board", where="everywhere")
    await eve.slash("play queue", game="heartsdue")  # here: she stays
    admin = env.h.players["Admin of North"]
    done = await admin.slash("settings quickplay", state="here")
    assert done.text == (
        "Quick play here matches this server's members with each other. 1 member waiting "
        "across servers was taken out of that queue and told."
    )
    [told] = [m for m in env.h.messages() if m.content.startswith(ana.mention)]
    assert told.channel_id == north.text_channels[0].id
    assert told.content == (
        f"{ana.mention}, this server now plays quick play only here: you're out of the queue "
        "across servers for Sequence (board game)."
    )
    out = await ana.slash("play leave")
    assert out.text == "You're not in the queue."
    assert (await env.bot.shell.quickplay.place(eve.id)).waiting == 1  # type: ignore[union-attr]


async def test_after_a_restart_and_a_deleted_message_each_place_plays_on(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21, more_guilds=SERVERS)
    ana, bo, _cy = await matched_across(env)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    players = {ana.id: ana, bo.id: bo}

    def mover_now(table_turn: int) -> Player:
        return ana if table_turn == 0 else bo

    first = mover_now((await env.bot.tables.get(1)).rules.turn)
    await play_turn(env, first, [p for p in players.values() if p is not first])
    await env.restart()
    second = mover_now((await env.bot.tables.get(1)).rules.turn)
    assert second is not first
    await play_turn(env, second, [first])
    table = await env.bot.tables.get(1)
    for player in (ana, bo):  # both places show the turn the second move made
        shown = table_message(env, player)
        assert any(f"t:1:{table.version}:" in (b.custom_id or "") for b in shown.buttons)
    # A moderator deletes the table message in the second member's place: it comes back
    # there, and the game plays on from it.
    gone = table_message(env, second)
    env.h.fake.delete_message(env.h.fake.messages[gone.id])
    await env.h.settle()
    again = table_message(env, second)
    assert again.id != gone.id
    place = next(p for p in (await env.bot.tables.get(1)).places if second.id in p.user_ids)
    assert place.message_id == again.id
    mover = mover_now((await env.bot.tables.get(1)).rules.turn)
    await play_turn(env, mover, [p for p in players.values() if p is not mover])


async def test_resigning_from_either_place_ends_the_table_in_both(make_env: MakeEnv) -> None:
    env = await make_env(seed=4, more_guilds=SERVERS)
    ana, bo, _cy = await matched_across(env)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    table = await env.bot.tables.get(1)
    [later] = [p for p in table.places if p.position > 0]
    player = ana if later.user_ids == (ana.id,) else bo
    thread = env.h.thread_object(later.thread_id or 0)
    asked = await player.slash("board resign", _channel=thread)
    assert asked.ephemeral
    done = await player.click(asked.message, "Resign")
    assert done.ephemeral
    table = await env.bot.tables.get(1)
    assert table.status == "finished" and table.row.guild_id == EVERYWHERE
    winner = bo if player is ana else ana
    for each in (ana, bo):
        [final] = table_messages(env, env.h.threads_of(each.guild_id)[0])
        assert "My hand" not in final.labels
        said = [
            m.content
            for m in env.h.messages(env.h.guild_of(each.guild_id).text_channels[0])
            if "🏆" in m.content
        ]
        assert len(said) == 1 and f"**{winner.name}** won" in said[0], said


async def test_a_server_choosing_a_language_redraws_only_its_own_place(make_env: MakeEnv) -> None:
    env = await make_env(seed=4, more_guilds=SERVERS)
    ana, bo, _cy = await matched_across(env)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    assert "My hand" in table_message(env, ana).labels
    admin = env.h.players["Admin of North"]
    await admin.slash("settings language", language="de")
    assert "Meine Karten" in table_message(env, ana).labels  # North's place, in German
    assert "My hand" in table_message(env, bo).labels  # South's, as it was


async def test_the_turn_reminder_and_timeout_run_as_any_tables(make_env: MakeEnv) -> None:
    env = await make_env(seed=4, more_guilds=SERVERS)
    ana, bo, _cy = await matched_across(env)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    table = await env.bot.tables.get(1)
    mover = ana if table.seats[table.rules.turn].user_id == ana.id else bo
    other = bo if mover is ana else ana
    [mine], [theirs] = env.h.threads_of(mover.guild_id), env.h.threads_of(other.guild_id)
    await env.tick(env.settings.turn_timeout_seconds * 2 / 3)
    reminded = [m.content for m in env.h.messages(mine, ephemeral=False) if "⏰" in m.content]
    assert reminded == [f"⏰ {mover.mention}, your turn ends in 1 minute."]
    assert not [m for m in env.h.messages(theirs) if "⏰" in m.content or "your turn" in m.content]
    # On expiry the bot plays the absent member's move (docs/rules.md): the turn passes,
    # both places show it, and the next member is called in their own place only.
    await env.tick(env.settings.turn_timeout_seconds / 3)
    table = await env.bot.tables.get(1)
    assert table.status == "running" and table.seats[table.rules.turn].user_id == other.id
    for each in (ana, bo):
        shown = table_message(env, each)
        assert any(f"t:1:{table.version}:" in (b.custom_id or "") for b in shown.buttons)
    pings = [
        (t.id, m.content)
        for t in (mine, theirs)
        for m in env.h.messages(t, ephemeral=False)
        if "your turn" in m.content
    ]
    assert pings == [(theirs.id, f"{other.mention}, your turn.")]


async def test_each_seat_has_the_members_name_in_the_server_they_queued_from(
    make_env: MakeEnv,
) -> None:
    env = await make_env(more_guilds=SERVERS)
    _home, north, south = await three_servers(env)
    ana = await env.h.member("Ana", guild=north, nick="Annie")
    bo = await env.h.member("Bo", guild=south)
    await env.h.add_to_guild(ana, south, nick="Ana of the North")  # another name there
    await ana.slash("play queue", game="board", where="everywhere")
    await bo.slash("play queue", game="board", where="everywhere")
    await env.tick(1)
    for player in (ana, bo):
        asked = ready_message(env, player)
        await player.click(asked, custom_id=ready_id(asked))
    table = await env.bot.tables.get(1)
    assert [s.name for s in table.seats] == ["Annie", "Bo"]
    notices = {m.channel_id: m.content for m in env.h.messages() if m.content.startswith("⚡")}
    assert notices[south.text_channels[0].id].endswith(f": Annie, {bo.mention} · table #1")
    assert "Annie" in table_message(env, bo).text and "Annie" in table_message(env, ana).text
