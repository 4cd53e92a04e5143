"""RULINGS §3 "Blocked game" through the harness: a seat that can't play trades, then
passes, and the game goes on; a drawn game names no winner, refunds the stakes and moves
no rating."""

from __future__ import annotations

from typing import Any

from bot.games.words import event_lines
from bot.rules import board as b
from bot.tables import wallets
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_board_game import open_board, open_hand
from tests.rules.board.board_helpers import position

# 2S, 3S and 4S show on B1/G9, C1/G8 and D1/G7: with chips there all three are dead.
DEAD = {(0, 1): 0, (8, 6): 1, (0, 2): 1, (8, 5): 0, (0, 3): 0, (8, 4): 1}


async def put(env: Env, state: b.BoardState) -> None:
    table = await env.bot.tables.get(1)
    table.rules = state
    await env.bot.tables.kernel.save(table, None, "test-position", {})


def with_idle_reshuffle(state: b.BoardState) -> b.BoardState:
    """The same position after one reshuffle with no chip placed since, its pile empty."""
    data: dict[str, Any] = b.dump(state)
    data["idle_reshuffles"] = 1
    data["discards"], data["draw_pile"] = data["discards"] + data["draw_pile"], []
    return b.load(data)


async def test_a_seat_that_cannot_play_trades_then_passes_and_the_game_goes_on(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    rest = position(hands=[["2S", "3S"], ["7H"]]).draw_pile
    pile = [card for card in rest if card != "4S"] + ["4S"]  # the trade draws the dead 4S
    await put(env, position(chips=DEAD, hands=[["2S", "3S"], ["7H"]], draw_pile=pile))

    hand = await open_hand(env, ana)
    assert "No card can be played: trade a dead card for a new one." in hand.text
    assert not any((label or "").startswith("Pass") for label in hand.message.labels)
    traded = await ana.click(hand.message, "Trade 2♠ (dead)")
    assert "traded the dead 2♠" in env.turn_message().text
    assert traded.message.labels[0] == "Pass (no playable card)"
    await ana.click(traded.message, "Pass (no playable card)")
    table = await env.bot.tables.get(1)
    assert table.status == "running" and table.rules.turn == 1
    assert "Ana had no playable card and passed" in env.thread_messages()[-2].text
    assert "**Bo** (" in env.turn_message().text and "to play" in env.turn_message().text


async def test_a_drawn_game_refunds_the_stakes_and_moves_no_rating(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo], stake=100)
    await ana.click(lobby, "Start")
    guild = env.h.guild.id
    assert [await wallets.balance(env.bot.db, guild, p.id) for p in (ana, bo)] == [900, 900]
    # The cards already went round once with no chip placed; Ana's trade reshuffles again.
    await put(env, with_idle_reshuffle(position(chips=DEAD, hands=[["2S", "3S"], ["4S"]])))

    hand = await open_hand(env, ana)
    await ana.click(hand.message, "Trade 2♠ (dead)")
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    assert table.rules.outcome == b.BoardOutcome(None, (), "stalled")
    [final] = [m.text for m in env.thread_messages() if "Sequences: " in m.text]  # the board
    assert "🤝 Sequence (board game) · the game is drawn" in final
    assert "The cards went round twice with no chip placed or removed. Nobody wins." in final
    assert "🏆" not in final and "🤝 A draw: nobody won." in final  # not "🏆  won!"
    assert "🤝 A draw: nobody won." in event_lines(table)
    texts = [m.text for m in env.h.messages() if not m.ephemeral]
    assert any("💰 The pot of 200 chips went back to the players." in t for t in texts)
    assert [await wallets.balance(env.bot.db, guild, p.id) for p in (ana, bo)] == [1000, 1000]
    assert (await wallets.check_invariant(env.bot.db)).ok
    rows = await env.bot.db.fetchall(
        "SELECT user_id, games, wins, rated_games, mu FROM player_stats WHERE scope = ?",
        (guild,),
    )
    stats = {int(r[0]): (int(r[1]), int(r[2]), int(r[3])) for r in rows}
    assert stats == {ana.id: (1, 0, 0), bo.id: (1, 0, 0)}  # a game played, no win, unrated
    history = await env.bot.db.fetchall("SELECT * FROM rating_history")
    assert list(history) == []


async def test_rules_say_when_a_board_game_is_drawn(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana = await env.h.member("Ana")
    reply = await ana.slash("rules", game="board")
    text = " ".join(reply.text.split())
    assert "Trade a dead card if you hold one, then pass; the game goes on." in text
    assert "only when no card left can ever be played" in text
    assert "shuffled twice with no chip placed or removed" in text
    assert "for a whole round" not in text


async def test_a_table_where_everyone_can_only_pass_ends_drawn_and_says_why(
    make_env: MakeEnv,
) -> None:
    """Issue 31.29: the position of ``jacks_only_after_forfeits`` at a table, Ana (one-eyed
    jacks, nothing to remove) and a bot player (two-eyed jacks, no open space) left of
    eight. The bot passes, Ana's timer runs out and the bot passes for her: the table ends
    drawn (it looped for ever before), and its messages say why."""
    from dataclasses import replace

    from tests.rules.board.board_helpers import jacks_only_after_forfeits

    env = await make_env(seed=3)
    ana = await env.h.member("Ana")
    lobby = await open_board(env, ana, [], ["easy"] * 7)
    await ana.click(lobby, "Start")
    await put(env, replace(jacks_only_after_forfeits(), turn=1))
    for _ in range(6):
        await env.tick(env.settings.turn_timeout_seconds + 1)
        if (await env.bot.tables.get(1)).status != "running":
            break
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    assert table.rules.outcome == b.BoardOutcome(None, (), "passed")
    why = "Everyone still playing passed in turn with nothing changing"
    [final] = [m.text for m in env.thread_messages() if "Sequences: " in m.text]
    assert "the game is drawn" in final and why in final
    # The line in the channel says it too.
    assert any(why in m.text for m in env.h.messages(env.h.channel) if "Nobody won" in m.text)
