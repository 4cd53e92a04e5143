"""Issue 7.1: every kind of step survives the process dying just before or just after its
commit. Cases come from seeded self-play of each game (tests/reliability/cases.py): the
rules state before a step is put on a real table, and the step is clicked through the
real bot three times: under a crash before COMMIT (nothing may change), under a crash
right after COMMIT (the change stands, Discord never heard of it), and after a restart on
the same database (the visible message shows the committed state and its buttons answer).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Awaitable, Callable

import pytest

from bot.games.base import presentation
from bot.render.view import custom_id
from bot.store import games
from bot.tables import wallets
from bot.ui.errors import APOLOGY
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player, Reply
from tests.reliability.cases import GAMES, Case, Game, all_cases, apply_click
from tests.reliability.helpers import crash_at_commit, log_count, snapshot, table_row

CASES = all_cases()


def test_the_generator_finds_every_required_step() -> None:
    for game in GAMES:
        found = {c.category for c in CASES if c.game is game}
        assert game.required <= found, (game.name, game.required - found)


async def seat_game(env: Env, game: Game, start: bool = True) -> tuple[list[Player], Message]:
    players = [await env.h.member(f"P{i + 1}") for i in range(game.seats)]
    lobby = (await players[0].slash(game.command, **game.options)).message
    for player in players[1:]:
        await player.click(lobby, "Join")
    if start:
        await players[0].click(lobby, "Start")
    return players, lobby


async def put_rules(env: Env, rules: dict[str, object]) -> None:
    """Put a generated position on table 1 (as a new version, like any change)."""
    row = await table_row(env)
    state = row["state"]
    state["rules"] = rules
    async with env.bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET state_json = ?, version = version + 1 WHERE id = 1",
            (json.dumps(state),),
        )
        # Logged like the positions other tests set: not a game the log can rebuild.
        await games.append_log(1, env.clock(), None, "test-position", {"rules": rules}).run(conn)


def player_to_move(players: list[Player], table_seats: list[int | None], seat: int) -> Player:
    user_id = table_seats[seat]
    return next(p for p in players if p.id == user_id)


async def perform(env: Env, players: list[Player], action: str) -> Reply:
    """Press what a player presses to make ``action``, on the message Discord shows now."""
    table = await env.bot.tables.get(1)
    assert table.rules is not None
    seat = table.game.current_seat(table.rules)
    assert seat is not None
    player = player_to_move(players, [s.user_id for s in table.seats], seat)
    assert table.row.message_id is not None
    message = env.h.message(table.row.message_id)
    version = table.version
    if table.kind != "board":
        return await player.click(message, custom_id=custom_id(1, version, action))
    hand = (await player.click(message, "My hand")).message
    if action.startswith(("p_", "m_")):
        card = action.split("_")[1]
        hand = (await player.click(hand, custom_id=custom_id(1, version, f"c_{card}"))).message
        row_button = custom_id(1, version, f"r_{card}_{action.split('_')[2]}")
        if any(x.custom_id == row_button for x in hand.buttons):
            hand = (await player.click(hand, custom_id=row_button)).message
    return await player.click(hand, custom_id=custom_id(1, version, action))


async def assert_playable(env: Env, players: list[Player]) -> None:
    """The message Discord shows is the committed state, and its buttons answer."""
    table = await env.bot.tables.get(1)
    if table.status != "running":
        results = await env.bot.db.fetchall("SELECT seat FROM game_results WHERE game_id = 1")
        assert len(results) == len(table.seats)  # recorded exactly once
        return
    assert table.rules is not None and table.row.message_id is not None
    message = env.h.message(table.row.message_id)
    versions = {
        x.custom_id.split(":")[2]
        for x in message.buttons
        if x.custom_id and ":T:" not in x.custom_id
    }
    assert versions == {str(table.version)}, (versions, table.version)
    kind = table.game
    seat = kind.current_seat(table.rules)
    assert seat is not None
    player = player_to_move(players, [s.user_id for s in table.seats], seat)
    if table.kind == "board":
        hand = await player.click(message, "My hand")
        assert hand.ephemeral and "Your cards" in hand.text
        return
    action = next(x.action for x in presentation(kind).turn_buttons(table.rules) if not x.private)
    reply = await player.click(message, custom_id=custom_id(1, table.version, action))
    assert not reply.ephemeral, reply.text
    assert (await env.bot.tables.get(1)).version == table.version + 1


@pytest.mark.parametrize("case", CASES, ids=[f"{c.game.name}-{c.category}" for c in CASES])
async def test_step_survives_a_crash_before_and_after_commit(make_env: MakeEnv, case: Case) -> None:
    env = await make_env(seed=case.seed)
    players, _ = await seat_game(env, case.game)
    await check_case(env, case, players)


async def check_case(env: Env, case: Case, players: list[Player]) -> None:
    await put_rules(env, case.rules)
    await env.restart()  # the new instance redraws the table from the database
    before = await snapshot(env.bot.db)
    version = (await table_row(env))["version"]
    entries = await log_count(env)

    with crash_at_commit(env.bot.db, "before") as crashed, env.h.expect_errors("unexpected"):
        reply = await perform(env, players, case.action)
    assert crashed and reply.ephemeral and reply.text == APOLOGY
    assert await snapshot(env.bot.db) == before  # nothing half-applied
    await env.restart()
    assert await snapshot(env.bot.db) == before

    # The same step again, on a fresh instance whose dice we can predict.
    table = await env.bot.tables.get(1)
    expected = apply_click(
        table.kind, case.rules, case.action, random.Random(env.seed + 1), table.seats
    )
    with crash_at_commit(env.bot.db, "after") as crashes, env.h.expect_errors("unexpected"):
        await perform(env, players, case.action)
    assert crashes
    row = await table_row(env)
    assert row["version"] == version + 1 and row["state"]["rules"] == expected
    # A click that leaves the game running is saved by a Database.write batch (group
    # commit); one that finishes it, with results and payout, in an async transaction.
    path = "write" if row["status"] == "running" else "transaction"
    assert crashed == crashes == [path], (crashed, crashes)
    assert await log_count(env) == entries + 1
    after = await snapshot(env.bot.db)
    await env.restart()
    assert await snapshot(env.bot.db) == after
    await assert_playable(env, players)


@pytest.mark.parametrize("name", ["standard", "heartsdue", "board"])
async def test_pot_payout_survives_a_crash_before_and_after_commit(
    make_env: MakeEnv, name: str
) -> None:
    case = next(c for c in CASES if c.game.name == name and c.category == "end")
    game = dataclasses.replace(case.game, options={**case.game.options, "stake": 50})
    env = await make_env(seed=case.seed)
    players, _ = await seat_game(env, game)
    await check_case(env, dataclasses.replace(case, game=game), players)
    db = env.bot.db
    assert (await wallets.check_invariant(db)).ok
    payouts = await db.fetchall("SELECT user_id, delta FROM ledger WHERE kind = 'payout'")
    [winner] = await db.fetchall("SELECT user_id FROM game_results WHERE won = 1")
    assert [tuple(p) for p in payouts] == [(winner[0], 50 * game.seats)]  # paid once
    for player in players:
        won = player.id == winner[0]
        expected = wallets.START_CHIPS - 50 + (50 * game.seats if won else 0)
        assert await wallets.balance(db, env.h.guild.id, player.id) == expected


async def crash_twice_then_restart(
    env: Env, step: Callable[[], Awaitable[object]], error: str
) -> tuple[dict[str, list[object]], dict[str, list[object]]]:
    """Run ``step`` under a crash before COMMIT (no change), restart, run it under a crash
    right after COMMIT (the change stands), restart. Returns the snapshots before/after."""
    before = await snapshot(env.bot.db)
    with crash_at_commit(env.bot.db, "before") as crashes, env.h.expect_errors(error):
        await step()
    assert crashes and await snapshot(env.bot.db) == before
    await env.restart()
    assert await snapshot(env.bot.db) == before
    with crash_at_commit(env.bot.db, "after") as crashes, env.h.expect_errors(error):
        await step()
    assert crashes
    after = await snapshot(env.bot.db)
    assert after != before
    await env.restart()
    assert await snapshot(env.bot.db) == after
    return before, after


LOBBY_STEPS = ["join", "leave", "bot", "team", "start", "cancel"]


@pytest.mark.parametrize("step", LOBBY_STEPS)
async def test_lobby_step_survives_a_crash_before_and_after_commit(
    make_env: MakeEnv, step: str
) -> None:
    env = await make_env(seed=3)
    team = next(g for g in GAMES if g.name == "team")
    players, lobby = await seat_game(env, team, start=False)  # 4 seats: join, team, start
    ana, bo, _, di = players
    if step == "join":
        await di.click(lobby, "Leave")
    if step == "bot":
        await di.click(lobby, "Leave")
    actions = {
        "join": lambda: di.click(lobby, "Join"),
        "leave": lambda: di.click(lobby, "Leave"),
        "bot": lambda: ana.click(lobby, "Add bot: optimal"),
        "team": lambda: bo.click(lobby, "Switch team"),
        "start": lambda: ana.click(lobby, "Start"),
        "cancel": lambda: ana.click(lobby, "Cancel"),
    }
    await crash_twice_then_restart(env, actions[step], "unexpected")
    table = await env.bot.tables.get(1)
    # The lobby message, redrawn by the new instance, shows the committed seats.
    shown = env.h.message(lobby.id).text
    for player in players:
        assert (player.mention in shown) == (table.seat_of(player.id) is not None), step
    if step == "start":
        await assert_playable(env, players)
    elif step == "cancel":
        late = await bo.click_stale(lobby, "t:1:L:join")
        assert late.ephemeral and "closed" in late.text
    else:  # the old lobby buttons answer the new instance
        assert not (await bo.click(lobby, "Switch team")).ephemeral


TIMERS = ["lobby-expiry", "turn-timeout", "bot-move", "third-timeout"]


@pytest.mark.parametrize("timer", TIMERS)
async def test_timer_fires_once_across_crashes_and_restarts(make_env: MakeEnv, timer: str) -> None:
    env = await make_env(seed=4, turn_timeout_seconds=60)
    standard = next(g for g in GAMES if g.name == "standard")
    standard = dataclasses.replace(standard, options={"rounds": 5})
    players, lobby = await seat_game(env, standard, start=False)
    if timer == "bot-move":
        await players[1].click(lobby, "Leave")
        await players[0].click(lobby, "Add bot: optimal")
    if timer != "lobby-expiry":
        await players[0].click(lobby, "Start")
        if timer == "bot-move":
            # Ana throws and banks what she can; then it is the bot player's move.
            thrown = (await players[0].click(env.turn_message(), "Throw 5 dice")).message
            bank = next((x for x in thrown.labels if x and x.startswith("Bank")), None)
            if bank is not None:
                await players[0].click(thrown, bank)
            table = await env.bot.tables.get(1)
            assert table.rules is not None and table.seats[table.rules.current].is_bot
    if timer == "third-timeout":
        for _ in range(2):
            assert await env.tick(61) == 1  # Ana's turn runs out
            assert await env.tick(61) == 1  # then Bo's
    deadline = (await table_row(env))["deadline"]
    env.clock.now = deadline
    entries = await log_count(env)

    async def fire() -> None:
        assert await env.bot.tick() == 0  # the crash is logged; nothing fired
        await env.h.settle()

    await crash_twice_then_restart(env, fire, "timer for game 1 failed")
    assert await log_count(env) == entries + 1
    assert await env.tick() == 0  # fired once: it does not fire again after the restart
    table = await env.bot.tables.get(1)
    if timer == "lobby-expiry":
        assert table.status == "expired"
    elif timer == "third-timeout":
        assert table.status == "abandoned"
    else:
        await assert_playable(env, players)
