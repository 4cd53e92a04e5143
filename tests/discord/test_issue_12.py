"""Issue 12: the defects players met, each driven through the real bot."""

from __future__ import annotations

import discord

from tests.discord.conftest import Env, MakeEnv
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player, Reply
from tests.harness import payloads as P
from tests.reliability.helpers import _Forged
from tests.rules.board.board_helpers import position


async def test_an_earlier_throws_button_pressed_after_the_turn_passed_is_over(
    make_env: MakeEnv,
) -> None:
    env = await make_env(rng=ScriptedRandom([2, 3, 4, 5, 6]))  # Ana's first throw: no 1, bust
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    turn = env.turn_message()
    throw_id = turn.button("Throw 5 dice").custom_id
    assert not (await ana.click(turn, "Throw 5 dice")).ephemeral
    table = await env.bot.tables.get(1)
    assert table.seats[table.rules.current].name == "Bo"  # the bust passed the turn

    again = await ana.click_stale(turn, throw_id)
    assert again.ephemeral and again.text == "That throw is over."


async def test_a_new_table_is_not_opened_inside_a_games_thread(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    [thread] = env.h.threads

    refused = await bo.slash("heartsdue start", _channel=thread)
    assert refused.ephemeral
    assert refused.text == (
        f"Start a new game in <#{env.h.channel.id}>: this thread belongs to game #1."
    )
    assert env.turn_message().buttons  # still the game
    assert len(await env.bot.tables.live_tables()) == 1
    # The same command in the channel opens a table as usual, even once the game is over.
    await env.bot.peers.fair_play.end(1, ana.id, is_admin=False)
    assert (await bo.slash("heartsdue start", _channel=thread)).ephemeral
    opened = await bo.slash("heartsdue start")
    assert not opened.ephemeral and "Hearts Due" in opened.message.text


async def test_the_lobby_says_why_it_closed(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    lobby = (await ana.slash("sequences start")).message
    left = await ana.click(lobby, "Leave")
    assert "The host left and nobody else is seated, so the table is closed." in left.message.text
    assert left.message.buttons == []

    lobby = (await bo.slash("sequences start")).message
    cancelled = await mod.click(lobby, "Cancel")
    assert "A member with Manage Server cancelled this table." in cancelled.message.text


async def test_board_lobby_offers_switch_team_only_where_teams_exist(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo, cy, di = [await env.h.member(n) for n in ("Ana", "Bo", "Cy", "Di")]
    lobby = (await ana.slash("board start")).message
    for player in (bo, cy):
        lobby = (await player.click(lobby, "Join")).message
    assert "Switch team" not in lobby.labels  # 3 players play alone
    lobby = (await di.click(lobby, "Join")).message
    assert "Switch team" in lobby.labels  # 4 make two teams
    lobby = (await bo.click(lobby, "Switch team")).message
    assert "team A" in lobby.text
    lobby = (await di.click(lobby, "Leave")).message
    assert "Switch team" not in lobby.labels and "team" not in lobby.text
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert [s.team for s in table.seats] == [None, None, None]

    fixed = (await ana.slash("board start", teams=2)).message  # the settings fix teams
    assert "Switch team" in fixed.labels and "team A" in fixed.text


async def finish_a_hearts_due_game(env: Env, ana: Player, bo: Player) -> None:
    lobby = (await ana.slash("heartsdue start", target=20)).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    for player in (ana, bo, ana, bo):  # openings 36 and 7; Ana 70, Bo 10: Ana wins
        assert not (await player.click(env.turn_message(), "Throw 6 dice")).ephemeral
    assert (await env.bot.tables.get(1)).status == "finished"


HEARTS_DUE_FACES = [6] * 6 + [1, 1, 1, 1, 1, 2] + [6] * 6 + [1, 2, 4, 4, 4, 4]


async def test_leaderboard_and_stats_take_game_names_and_refuse_unknown_games(
    make_env: MakeEnv,
) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await finish_a_hearts_due_game(env, ana, bo)

    unknown = await ana.slash("leaderboard", game="xyz")
    assert unknown.ephemeral and "no such game" in unknown.text
    assert "pick one from the list" in unknown.text
    for typed in ("Hearts Due", "hearts due", "heartsdue"):
        board = await ana.slash("leaderboard", game=typed)
        assert not board.ephemeral and board.embeds[0]["title"] == "Leaderboard · Hearts Due"
        assert "Ana" in board.text

    mine = await ana.slash("stats", game="Hearts Due")
    assert mine.ephemeral and "Hearts Due" in mine.text and "1 won of 1" in mine.text
    refused = await ana.slash("stats", game="xyz")
    assert refused.ephemeral and "no such game" in refused.text

    # Only Hearts Due was played: the default board says so, and blames no bot player.
    plain = await ana.slash("leaderboard")
    assert "No game of Sequences has finished on this server yet." in plain.text
    assert "bot players" not in plain.text


async def test_sudden_refuses_rounds_and_target(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    for option in ({"rounds": 3}, {"target": 30}):
        refused = await ana.slash("sequences start", variant="sudden", **option)
        assert refused.ephemeral
        assert refused.text == (
            "Sudden has no rounds or target: the first to exactly 21 wins at once."
        )
    assert await env.bot.tables.live_tables() == []
    assert not (await ana.slash("sequences start", variant="sudden")).ephemeral


async def test_a_card_that_cannot_be_played_now_says_why(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("board start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    # Only Ana's chips are on the board (both 2♠ spaces), and she has traded this turn.
    state = position(
        chips={(0, 1): 0, (8, 6): 0},
        hands=[["2S", "JS", "3H", "4H", "5C", "6C"], ["7D", "8D", "9D", "TD", "QD", "KD"]],
        traded=True,
    )
    table = await env.bot.tables.get(1)
    table.rules = state
    await env.bot.tables.kernel.save(table, None, "test-position", {})

    hand = await ana.click(env.turn_message(), "My hand")
    jack = hand.message.button("J♠ · remove (no chip can be removed now)")
    dead = hand.message.button("2♠ (dead: one trade a turn)")
    assert jack.disabled and dead.disabled
    assert not hand.message.button("3♥").disabled


async def test_a_bust_reads_busted(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom([2, 3, 4, 5, 6]))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    await ana.click(env.turn_message(), "Throw 5 dice")
    story = "\n".join(m.text for m in env.thread_messages())
    assert "Ana busted on 2-3-4-5-6, needed a 1: no points" in story and " bust on " not in story


async def test_an_early_end_says_who_ended_it(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    [thread] = env.h.threads
    assert not (await ana.slash("sequences end", _channel=thread)).ephemeral
    assert "Ended early by Ana." in env.h.message(lobby.id).text
    assert any("Ended early by Ana." in m.text for m in env.thread_messages())

    lobby = (await bo.slash("sequences start")).message
    await mod.slash("sequences end", game=2)
    assert "Ended early by Mod." in env.h.message(lobby.id).text


async def test_a_closed_staked_lobby_shows_the_stakes_refunded(make_env: MakeEnv) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", stake=100)).message
    lobby = (await bo.click(lobby, "Join")).message
    assert "100 chips each · pot 200 chips" in lobby.text
    cancelled = (await ana.click(lobby, "Cancel")).message
    assert "100 chips each · refunded" in cancelled.text and "pot" not in cancelled.text


async def test_the_lobby_lists_bot_levels_in_one_line_and_rules_explain_them(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    lobby = (await ana.slash("sequences start")).message
    [field] = [f for f in lobby.embeds[0]["fields"] if f["name"] == "Bot players"]
    assert field["value"] == "cautious · bold · optimal (`/rules` says how each plays)"
    assert "banks as soon as" not in lobby.text
    rules = await ana.slash("rules", game="sequences")
    assert rules.ephemeral and "**cautious**: banks as soon as it has a run" in rules.text
    board_rules = await ana.slash("rules", game="board")
    assert "**strong**" not in board_rules.text  # the levels players pick, weakest first
    for level, words in (("easy", "blocks any four"), ("expert", "like hard")):
        assert f"**{level}**: " in board_rules.text and words in board_rules.text


async def synced_commands(env: Env) -> dict[str, dict[str, object]]:
    """The commands as the bot syncs them: the recorded PUT of the global command list."""
    await env.bot.tree.sync()
    return {command["name"]: command for command in env.h.fake.commands[None]}


async def test_admin_groups_are_synced_for_manage_server_in_servers_only(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    commands = await synced_commands(env)
    manage_guild = str(discord.Permissions(manage_guild=True).value)
    for name in ("chips", "settings"):
        command = commands[name]
        assert str(command["default_member_permissions"]) == manage_guild, name
        assert command["dm_permission"] is False, name
    assert commands["wallet"]["default_member_permissions"] is None  # for everyone
    # The check in code still counts: the permission only hides the command.
    ana = await env.h.member("Ana")
    refused = await ana.slash("chips grant", member=ana.member, amount=5, reason="me")
    assert refused.ephemeral and "Manage Server" in refused.text


async def test_the_wallet_command_description_is_a_whole_sentence(make_env: MakeEnv) -> None:
    env = await make_env()
    commands = await synced_commands(env)
    assert commands["wallet"]["description"] == (
        "Your chips (or a member's) and their latest changes"
    )


async def forge_component(
    env: Env, player: Player, message: Message, custom_id: str, component_type: int
) -> Reply:
    """A click on a component ``message`` never had: a button, or a select with one value."""
    component: dict[str, object] = {"type": component_type, "custom_id": custom_id}
    if component_type == P.BUTTON:
        component |= {"style": 2, "label": "x"}
    else:
        component |= {"options": [{"label": "x", "value": "x"}]}
    payload = dict(message.payload)
    payload["components"] = [{"type": 1, "components": [component]}]
    values = None if component_type == P.BUTTON else ["x"]
    data = P.component_data(custom_id, component_type=component_type, values=values)
    return await env.h._interact(
        player,
        P.MESSAGE_COMPONENT,
        data,
        message.channel_id,
        message=_Forged(message.id, message.channel_id, payload),  # type: ignore[arg-type]
    )


async def test_unknown_ids_and_selects_with_a_game_id_get_the_private_refusal(
    make_env: MakeEnv,
) -> None:
    env = await make_env()
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    turn = env.turn_message()
    throw_id = turn.button("Throw 5 dice").custom_id
    version = (await env.bot.tables.get(1)).version
    refusal = "That button isn't one of mine; nothing changed."
    for custom_id, component_type in (
        ("0123456789abcdef0123456789abcdef", P.BUTTON),  # no view of the bot uses such ids
        (throw_id, P.STRING_SELECT),  # a game button's id on a select
        ("t:1:L:join", P.STRING_SELECT),
        ("lb:1:1:s:r:heartsdue", P.STRING_SELECT),
    ):
        reply = await forge_component(env, ana, turn, custom_id, component_type)
        assert reply.ephemeral and reply.text == refusal, (custom_id, reply.text)
    assert (await env.bot.tables.get(1)).version == version


async def test_per_table_locks_are_freed_when_tables_close(make_env: MakeEnv) -> None:
    env = await make_env(
        rng=ScriptedRandom(HEARTS_DUE_FACES * 5),
        max_lobbies_per_channel=60,
        max_lobbies_per_guild=60,
        max_games_per_guild=60,
    )
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    for _ in range(50):  # 50 lobbies, each cancelled by its host
        lobby = (await ana.slash("heartsdue start")).message
        closed = await ana.click(lobby, "Cancel")
        assert "cancelled" in closed.message.text
    for _ in range(5):  # 5 games played to the end through the buttons
        lobby = (await ana.slash("heartsdue start", target=20)).message
        lobby = (await bo.click(lobby, "Join")).message
        await ana.click(lobby, "Start")
        for player in (ana, bo, ana, bo):
            turn = [m for m in env.h.messages(env.h.threads[-1]) if m.components][-1]
            assert not (await player.click(turn, "Throw 6 dice")).ephemeral
    statuses = [(await env.bot.tables.get(i)).status for i in range(1, 56)]
    assert statuses == ["cancelled"] * 50 + ["finished"] * 5
    assert env.bot.tables.live_locks() == 0
    assert env.bot.shell.publisher.live_locks() == 0

    # Live tables hold none between changes either (one open lobby, one game under way):
    # a lock lives while a change or a redraw is under way.
    assert not (await bo.slash("heartsdue start")).ephemeral
    lobby = (await ana.slash("heartsdue start")).message
    lobby = (await bo.click(lobby, "Join")).message
    await ana.click(lobby, "Start")
    assert len(await env.bot.tables.live_tables()) == 2
    assert env.bot.tables.live_locks() == 0
    assert env.bot.shell.publisher.live_locks() == 0
