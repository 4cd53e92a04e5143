"""The paths no other harness test played (issue 20, item 7): the board game's and Hearts
Due's resign and end, by command and by button; staked Hearts Due, classic one-roll and board
games played to a paid pot; Reverse and Extended played to the end. Each checks what the
players see (the private answers, the thread, the channel) and what the database holds (the
results, the stakes escrowed then released, the pot paid once, the ledger invariant). The
tests that move chips run on both database engines (``money_env``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.games.words import event_lines
from bot.tables import wallets
from tests.backends import DbTarget
from tests.discord.conftest import Env, MakeEnv, close_envs, env_factory
from tests.discord.test_board_game import open_board, play_out, play_turn
from tests.discord.test_dice_games import press, start_table
from tests.discord.test_forfeits import balances, invariant_holds, results
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player
from tests.harness import payloads as P
from tests.harness.model import embed_text

START = wallets.START_CHIPS
BUST = [2, 2, 2, 2, 2]


@pytest.fixture
async def money_env(db_target: DbTarget, make_harness: Any) -> AsyncIterator[MakeEnv]:
    """``make_env`` on SQLite and on PostgreSQL, for the tests that move chips."""
    make, opened = env_factory(lambda n: db_target(f"bot{n}"), make_harness)
    yield make
    await close_envs(opened)


# --- what the database holds ------------------------------------------------------------


async def stakes(env: Env, game_id: int = 1) -> dict[int, tuple[int, str]]:
    """Each member's stake in the game: (chips, held / paid / refunded)."""
    rows = await env.bot.db.fetchall(
        "SELECT user_id, amount, status FROM escrows WHERE game_id = ?", (game_id,)
    )
    return {int(r[0]): (int(r[1]), str(r[2])) for r in rows}


async def ledger(env: Env, game_id: int = 1) -> list[tuple[int, str, int]]:
    """The game's ledger lines (member, kind, chips), in order."""
    rows = await env.bot.db.fetchall(
        "SELECT user_id, kind, delta FROM ledger WHERE game_id = ? ORDER BY id", (game_id,)
    )
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


async def assert_escrowed(env: Env, stake: int, *players: Player) -> None:
    assert await stakes(env) == {p.id: (stake, "held") for p in players}
    assert await balances(env, *players) == [START - stake] * len(players)
    assert await invariant_holds(env)


async def assert_paid_once(env: Env, stake: int, winner: Player, *losers: Player) -> None:
    """The whole pot went to ``winner``, once; every stake is marked paid."""
    everyone = (winner, *losers)
    pot = stake * len(everyone)
    assert await stakes(env) == {p.id: (stake, "paid") for p in everyone}
    payouts = [line for line in await ledger(env) if line[1] == "payout"]
    assert payouts == [(winner.id, "payout", pot)]
    assert await balances(env, *everyone) == [START - stake + pot] + [START - stake] * len(losers)
    assert await invariant_holds(env)


async def assert_refunded(env: Env, stake: int, *players: Player) -> None:
    assert await stakes(env) == {p.id: (stake, "refunded") for p in players}
    kinds = [kind for _, kind, _ in await ledger(env)]
    assert kinds.count("refund") == len(players) and "payout" not in kinds
    assert await balances(env, *players) == [START] * len(players)
    assert await invariant_holds(env)


# --- what the players see ---------------------------------------------------------------


def thread(env: Env) -> Any:
    [game_thread] = env.h.threads
    return game_thread


def channel_lines(env: Env) -> list[str]:
    """The public messages of the channel the game was opened in (not its thread)."""
    return [m.text for m in env.h.messages(env.h.channel, ephemeral=False)]


def thread_texts(env: Env) -> list[str]:
    return [m.text for m in env.thread_messages()]


def pot_lines(env: Env) -> list[str]:
    return [t for t in thread_texts(env) if t.startswith("💰")]


def ever_shown(message: Message) -> str:
    """Every text the table message showed, each version (it is edited at every change)."""
    texts = []
    for version in [*message.history, message.payload]:
        shown = P.walk_components(version.get("components") or [])
        texts += [c.get("content", "") for c in shown if c.get("type") == P.TEXT_DISPLAY]
        texts.append(embed_text(list(version.get("embeds") or [])))
    return "\n".join(texts)


async def resign_by_command(env: Env, player: Player, command: str, *, stake: bool) -> None:
    ask = await player.slash(command, _channel=thread(env))
    assert ask.ephemeral and ask.message.visible_to == player.id
    assert ask.message.labels == ["Resign", "Keep playing"]
    assert ("Your stake stays in the pot." in ask.text) is stake
    done = await player.click(ask.message, "Resign")
    assert done.ephemeral and done.text == "You resigned from game #1."
    assert done.message.buttons == []


async def resign_by_button(env: Env, player: Player) -> None:
    ask = await player.click(env.turn_message(), "Resign")
    assert ask.ephemeral and "Resign from game #1?" in ask.text
    kept = await player.click(ask.message, "Keep playing")
    assert kept.text == "You're still in the game." and kept.message.buttons == []
    table = await env.bot.tables.get(1)
    seat = table.seat_of(player.id)
    assert seat is not None and table.playing(seat)
    ask = await player.click(env.turn_message(), "Resign")
    done = await player.click(ask.message, "Resign")
    assert done.text == "You resigned from game #1."


async def live_board(env: Env) -> Message:
    """The message showing the game now (not always the thread's last one)."""
    message_id = (await env.bot.tables.get(1)).row.message_id
    assert message_id is not None
    return env.h.message(message_id)


async def play_card(env: Env, player: Player) -> str:
    """A whole board turn from the live board: My hand, the first card, its first space."""
    message = (await player.click(await live_board(env), "My hand")).message
    for _ in range(3):
        label = next(lb for lb in message.labels if lb not in ("Refresh", "Back"))
        reply = await player.click(message, label)
        if "choose" not in reply.text:
            return label
        message = reply.message
    raise AssertionError("a turn took more than three clicks")


async def mover(env: Env, *players: Player) -> Player:
    table = await env.bot.tables.get(1)
    assert table.rules is not None
    seat = table.game.current_seat(table.rules)
    assert seat is not None
    return next(p for p in players if p.id == table.seats[seat].user_id)


# --- the board game: resign and end -------------------------------------------------------


async def test_board_resign_command_hands_the_win_and_the_pot_to_the_other_player(
    money_env: MakeEnv,
) -> None:
    env = await money_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo], stake=100)
    await assert_escrowed(env, 100, ana, bo)
    await ana.click(lobby, "Start")
    board = env.turn_message()
    assert ana.mention in env.ping_text()

    await resign_by_command(env, bo, "board resign", stake=True)
    table = await env.bot.tables.get(1)
    assert table.status == "finished" and table.rules is not None
    assert table.rules.outcome is not None and table.rules.outcome.side == 0
    assert await results(env) == {ana.id: (1, True), bo.id: (2, False)}
    await assert_paid_once(env, 100, ana, bo)

    # The table message says what happened and names the winner; the pot is announced
    # once, here and in the channel.
    assert "🏳️ Bo resigned." in board.text and env.ping() is None
    [final] = [m for m in env.thread_messages() if "won Sequence (board game)!" in m.text]
    assert final == board and "### 🏆 Ana won Sequence (board game)!" in final.text
    assert pot_lines(env) == ["💰 Ana won the pot of 200 chips."]
    headline = [t for t in channel_lines(env) if t.startswith("🏆")]
    assert headline == [
        f"🏆 **Ana** won Sequence (board game) #1: Bo resigned. <#{thread(env).id}>\n"
        "💰 Ana won the pot of 200 chips."
    ]
    # No game button is left: the result carries Rematch, and each player's Review.
    assert [m.labels for m in env.thread_messages() if m.buttons] == [["Rematch", "Review"]]

    again = await bo.slash("board resign", _channel=thread(env))
    assert again.ephemeral and again.text == "There is no /board game in this channel."
    assert await stakes(env) == {ana.id: (100, "paid"), bo.id: (100, "paid")}


async def test_board_resign_button_on_ones_own_turn_passes_the_turn_on(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21)
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = await open_board(env, ana, [bo, cy])
    await ana.click(lobby, "Start")
    await play_turn(env, ana)
    assert await mover(env, ana, bo, cy) is bo
    board = env.turn_message()

    await resign_by_button(env, bo)
    table = await env.bot.tables.get(1)
    assert table.status == "running" and not table.playing(1)
    assert table.rules is not None and table.rules.turn == 2  # Cy's turn now
    # The board says Bo gave up his turn; Cy is called to play.
    assert "🏳️ Bo resigned." in board.text and env.turn_message() == board
    assert env.ping_text() == f"{cy.mention}, your turn."
    hand = await bo.click(env.turn_message(), "My hand")
    assert hand.ephemeral and hand.text == "You have left this game, so you have no hand."

    await play_turn(env, cy)
    assert await mover(env, ana, bo, cy) is ana  # Bo's seat is skipped
    await play_turn(env, ana)
    await resign_by_button(env, cy)
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    placed = await results(env)
    assert placed[ana.id] == (1, True)
    assert placed[bo.id][0] == placed[cy.id][0] == 2 and not placed[bo.id][1] | placed[cy.id][1]
    assert "🏆 Ana won Sequence (board game)!" in env.turn_message().text
    assert [t for t in channel_lines(env) if t.startswith("🏆")] == [
        f"🏆 **Ana** won Sequence (board game) #1: Bo & Cy resigned. <#{thread(env).id}>"
    ]
    assert pot_lines(env) == []  # nothing staked, no pot line


async def test_board_end_waits_for_everyone_still_playing_then_refunds(
    money_env: MakeEnv,
) -> None:
    env = await money_env(seed=21)
    ana, bo, cy = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    lobby = await open_board(env, ana, [bo, cy], stake=50)
    await ana.click(lobby, "Start")
    await assert_escrowed(env, 50, ana, bo, cy)
    board = env.turn_message()

    refused = await bo.slash("board end", _channel=thread(env))
    assert refused.ephemeral
    assert refused.text == "Only the host or a member with Manage Server can end this game."
    asked = await ana.slash("board end", _channel=thread(env))
    assert asked.ephemeral and "have 2 minutes to agree" in asked.text
    request = env.turn_message()
    assert request.embeds[0]["title"] == "End the game early?"
    assert "Waiting for: Bo, Cy." in request.text and request.labels == ["Agree to end"]

    # The game goes on while the others decide.
    await play_card(env, ana)
    assert await mover(env, ana, bo, cy) is bo
    assert f"{bo.mention}, your turn." == env.ping_text()
    await bo.click(request, "Agree to end")
    assert "Waiting for: Cy." in request.text
    await assert_escrowed(env, 50, ana, bo, cy)
    await cy.click(request, "Agree to end")

    table = await env.bot.tables.get(1)
    assert table.status == "ended"
    assert event_lines(table)[-1] == "Ended early: Ana asked and everyone agreed."
    assert request.embeds[0]["title"] == "Game ended early" and request.buttons == []
    live = [m for m in env.thread_messages() if "### Game closed" in m.text]
    assert live == [board] and board.buttons == [] and env.ping() is None
    assert await results(env) == {}
    await assert_refunded(env, 50, ana, bo, cy)
    assert "Stake: 50 chips each · refunded" in lobby.text
    assert pot_lines(env) == []


async def test_board_end_by_the_host_of_an_unstaked_game_is_at_once(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo])
    await ana.click(lobby, "Start")
    board = env.turn_message()
    ended = await ana.slash("board end")  # from the channel, not the thread: the same game
    assert not ended.ephemeral
    assert ended.text == "Game #1 ended: no result is recorded and any stakes are refunded."
    table = await env.bot.tables.get(1)
    assert table.status == "ended" and event_lines(table)[-1] == "Ended early by Ana."
    assert "### Game closed" in board.text and board.buttons == []
    assert await results(env) == {}
    assert await env.bot.db.fetchall("SELECT * FROM player_stats") == []


# --- Hearts Due: resign and end -----------------------------------------------------------


async def test_heartsdue_resign_by_command_and_by_button_leaves_the_last_one_the_winner(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=5)
    players = [await env.h.member(n) for n in ("Ana", "Bo", "Cy")]
    await start_table(env, players[0], players[1:], "heartsdue start")
    opener = await mover(env, *players)
    await press(env, opener, "Throw")
    first = await mover(env, *players)
    assert first is not opener and env.ping_text() == f"{first.mention}, your turn."
    others = [p for p in players if p is not first]

    # The player to move resigns by command: the opening throws go on without them, and
    # the message that called them says they resigned (not that it was the opener's turn).
    message = env.turn_message()
    await resign_by_command(env, first, "heartsdue resign", stake=False)
    table = await env.bot.tables.get(1)
    assert table.status == "running" and not table.playing(table.seat_of(first.id) or 0)
    assert f"🏳️ {first.name} resigned." in ever_shown(message)
    following = await mover(env, *others)
    assert env.ping_text() == f"{following.mention}, your turn."
    stale = await first.slash("heartsdue resign", _channel=thread(env))
    assert stale.ephemeral and stale.text == "You have already left this game."
    refused = await first.click(env.turn_message(), "Throw 6 dice")
    assert refused.ephemeral and refused.text == f"It's {following.name}'s turn, not yours."

    # One of the two left resigns by the Resign button: the other wins at once.
    loser = others[0]
    winner = others[1]
    await resign_by_button(env, loser)
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    placed = await results(env)
    assert placed[winner.id] == (1, True)
    assert {placed[first.id], placed[loser.id]} == {(2, False)}
    assert env.turn_message().text.startswith(f"🏆 {winner.name} won Hearts Due!")
    # No game button is left: the result carries Rematch only.
    assert [m.labels for m in env.thread_messages() if m.buttons] == [["Rematch"]]
    headline = [t for t in channel_lines(env) if t.startswith("🏆")]
    assert len(headline) == 1 and f"**{winner.name}** won Hearts Due #1" in headline[0]
    rows = await env.bot.db.fetchall(
        "SELECT user_id, rated_games FROM player_stats WHERE scope = ? AND game_key = ?",
        (env.h.guild.id, "heartsdue"),
    )
    assert {int(r[0]): int(r[1]) for r in rows} == {p.id: 1 for p in players}


async def test_heartsdue_end_unstaked_at_once_and_staked_by_agreement(money_env: MakeEnv) -> None:
    env = await money_env(seed=6)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "heartsdue start")
    await press(env, await mover(env, ana, bo), "Throw")
    refused = await bo.slash("heartsdue end")
    assert refused.ephemeral and "Only the host" in refused.text
    ended = await ana.slash("heartsdue end", _channel=thread(env))
    assert ended.text == "Game #1 ended: no result is recorded and any stakes are refunded."
    assert (await env.bot.tables.get(1)).status == "ended"
    assert "Game closed\nEnded early" in (await live_board(env)).text

    # Game #2, staked: the host's end waits for Bo's agreement, then every stake goes back.
    lobby = (await ana.slash("heartsdue start", stake=75)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    assert await stakes(env, 2) == {ana.id: (75, "held"), bo.id: (75, "held")}
    asked = await ana.slash("heartsdue end", game=2)
    assert asked.ephemeral and "have 2 minutes to agree" in asked.text
    second = (await env.bot.tables.get(2)).row.thread_id
    request = env.h.messages(second, ephemeral=False)[-1]
    assert "Waiting for: Bo." in request.text
    agreed = await bo.click(request, "Agree to end")
    assert not agreed.ephemeral and agreed.embeds[0]["title"] == "Game ended early"
    table = await env.bot.tables.get(2)
    assert table.status == "ended"
    assert await stakes(env, 2) == {ana.id: (75, "refunded"), bo.id: (75, "refunded")}
    assert await balances(env, ana, bo) == [START, START]
    assert await invariant_holds(env)
    assert await results(env, 2) == {}


# --- staked games played to a paid pot -----------------------------------------------------


async def test_staked_heartsdue_played_to_the_end_pays_the_pot_once(money_env: MakeEnv) -> None:
    faces = [
        *(6, 6, 6, 6, 6, 6),  # Ana's opening throw: 36
        *(1, 1, 1, 1, 1, 1),  # Bo's: 6 -> Ana starts
        *(1, 1, 2, 3, 5, 6),  # Ana: 1 + 1-2-3 = 20
        *(6, 6, 6, 6, 6, 1),  # Bo: five 6s + 1 = 40, past the target: Bo wins
    ]
    env = await money_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("heartsdue start", target=20, stake=60)).message
    assert "Stake: 60 chips each" in lobby.text
    await assert_escrowed(env, 60, ana)
    lobby = (await bo.click(lobby, "Join")).message
    await assert_escrowed(env, 60, ana, bo)
    await ana.click(lobby, "Start")
    for player in (ana, bo, ana):
        await press(env, player, "Throw")
        await assert_escrowed(env, 60, ana, bo)  # nothing moves before the end
    final = await press(env, bo, "Throw")
    assert "Bo won Hearts Due" in "\n".join(thread_texts(env))
    assert await results(env) == {bo.id: (1, True), ana.id: (2, False)}
    await assert_paid_once(env, 60, bo, ana)
    assert pot_lines(env) == ["💰 Bo won the pot of 120 chips."]
    # The pot line comes last, after the final board naming the winner.
    assert env.thread_messages()[-1].text == "💰 Bo won the pot of 120 chips."
    assert final.text.startswith("🏆 Bo won Hearts Due!")
    chips = await env.bot.db.fetchall(
        "SELECT user_id, chips_won, chips_lost FROM player_stats WHERE scope = ?",
        (env.h.guild.id,),
    )
    assert {int(r[0]): (int(r[1]), int(r[2])) for r in chips} == {
        bo.id: (60, 0),
        ana.id: (0, 60),
    }
    wallet = await bo.slash("wallet")
    assert wallet.ephemeral and "1,060" in wallet.text


async def test_staked_classic_one_roll_pays_after_the_tie_break(money_env: MakeEnv) -> None:
    faces = [
        *(6, 6, 6, 6, 6, 5),  # Ana's opening throw: 35
        *(1, 1, 1, 1, 1, 2),  # Bo's: 7 -> Ana starts
        *(1, 2, 3, 4, 5, 6),  # Ana: 25
        *(1, 2, 3, 4, 5, 6),  # Bo: 25 -> both past 20 and tied
        *(1, 2, 4, 4, 4, 4),  # Ana's tie throw: 5
        *(1, 2, 3, 5, 5, 5),  # Bo's tie throw: 10 -> Bo wins
    ]
    env = await money_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = (await ana.slash("sequences start", rules="classic", target=20, stake=200)).message
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    await assert_escrowed(env, 200, ana, bo)
    for player in (ana, bo, ana):
        await press(env, player, "Throw")
    message = await press(env, bo, "Throw")
    assert "Tie-break" in message.text
    await assert_escrowed(env, 200, ana, bo)  # a tie is no result: the pot waits
    await press(env, ana, "Throw")
    await press(env, bo, "Throw")
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    assert "🏆 Bo won Sequences (One-roll)!" in "\n".join(thread_texts(env))
    assert await results(env) == {bo.id: (1, True), ana.id: (2, False)}
    await assert_paid_once(env, 200, bo, ana)
    [pot] = pot_lines(env)
    assert pot.startswith("💰 Bo won the pot of 400 chips.")
    [headline] = [t for t in channel_lines(env) if t.startswith("🏆")]
    assert "**Bo** won Sequences (One-roll) #1" in headline
    assert headline.endswith("💰 Bo won the pot of 400 chips.")


async def test_staked_board_game_played_to_the_end_pays_the_winner(money_env: MakeEnv) -> None:
    env = await money_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo], stake=150, first_sequence_wins=True)
    assert "Add bot: expert" not in lobby.labels  # a staked table seats members only
    await ana.click(lobby, "Start")
    await assert_escrowed(env, 150, ana, bo)
    await play_out(env, {ana.id: ana, bo.id: bo})
    table = await env.bot.tables.get(1)
    assert table.status == "finished" and table.rules is not None
    outcome = table.rules.outcome
    assert outcome is not None and outcome.side is not None  # a sequence, not a blocked board
    winner, loser = (ana, bo) if outcome.side == 0 else (bo, ana)
    assert table.rules.sequence_counts()[outcome.side] == 1
    assert await results(env) == {winner.id: (1, True), loser.id: (2, False)}
    await assert_paid_once(env, 150, winner, loser)
    assert pot_lines(env) == [f"💰 {winner.name} won the pot of 300 chips."]
    [final] = [t for t in thread_texts(env) if "won Sequence (board game)!" in t]
    assert final.startswith(f"### 🏆 {winner.name} won Sequence (board game)!")


# --- Reverse and Extended to the end ------------------------------------------------------


async def test_reverse_is_played_to_the_end_and_counted_in_stats(make_env: MakeEnv) -> None:
    faces = [
        *(6, 5, 4, 3, 2),  # Ana: the run down from 6, all five dice
        1,  # her bonus die: the 1 the run needs
        *BUST,  # Bo: no 6
        *(6, 5, 5, 1, 1),  # round 2, Ana: 6-5, pushes the three others...
        *(4, 2, 2),  # ...and gets the 4: banks 6-5-4
        *(6, 5, 4, 3, 2),  # Bo: the full run, banks 5
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", variant="reverse", rounds=2)
    message = await press(env, ana, "Throw")
    assert "Bonus throw" in message.labels and "Lock only 6-5-4-3" in message.labels
    await press(env, ana, "Bonus throw")
    await press(env, bo, "Throw")
    message = await press(env, ana, "Throw")
    await press(env, ana, "Push (3 dice)")
    await press(env, ana, "Bank")
    await press(env, bo, "Throw")
    final = await press(env, bo, "Bank 5")

    lines = ever_shown(final)
    assert "Ana hit the bonus throw (1): **10** points!" in lines
    assert "Bo busted on 2-2-2-2-2, needed a 6: no points" in lines
    assert final.text.startswith("🏆 Ana won Sequences (Reverse)!")
    assert "🏆 Ana   13\n   Bo     5\n" in final.text
    assert final.labels == ["Rematch"] and final.embeds[0]["footer"]["text"] == "Game #1 · reverse"
    [headline] = [t for t in channel_lines(env) if t.startswith("🏆")]
    assert headline.startswith("🏆 **Ana** won Sequences (Reverse) #1 (Ana 13, Bo 5).")
    rows = await env.bot.db.fetchall(
        "SELECT name, won, score, best_turn FROM game_results WHERE game_id = 1 ORDER BY seat"
    )
    assert [tuple(r) for r in rows] == [("Ana", 1, 13, 10), ("Bo", 0, 5, 5)]

    mine = await ana.slash("stats")
    assert "Sequences (Reverse): rating" in mine.text
    assert "1 won of 1 (100 %) · best turn 10" in mine.text
    assert mine.files == []  # one game: no chart yet (from three on)
    theirs = await ana.slash("stats", member=bo, game="sequences:reverse")
    assert "0 won of 1 (0 %) · best turn 5" in theirs.text


async def test_extended_is_played_to_the_end_and_counted_in_stats(make_env: MakeEnv) -> None:
    faces = [
        *(1, 2, 3, 4, 5, 6),  # Ana: the full run of six dice: 15
        *(1, 2, 3, 4, 5, 5),  # Bo: 1-5, pushes the last die...
        2,  # ...no 6: bust
    ]
    env = await make_env(rng=ScriptedRandom(faces))
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "sequences start", variant="extended", rounds=1)
    assert "Throw 6 dice" in env.turn_message().labels
    message = await press(env, ana, "Throw")
    assert "Bank 15 points" in message.labels and "Bonus throw" not in message.labels
    await press(env, ana, "Bank 15 points")
    message = await press(env, bo, "Throw")
    assert "Push (1 die)" in message.labels
    final = await press(env, bo, "Push (1 die)")

    lines = ever_shown(final)
    assert "Ana reached 6 with six dice: **15** points!" in lines
    assert "Bo busted on 2 holding 1-2-3-4-5, needed a 6: no points" in lines
    assert final.text.startswith("🏆 Ana won Sequences (Extended)!")
    assert "Ana had the highest total after the last round." in final.text
    assert final.labels == ["Rematch"] and final.embeds[0]["footer"]["text"] == "Game #1 · extended"
    [headline] = [t for t in channel_lines(env) if t.startswith("🏆")]
    assert headline.startswith("🏆 **Ana** won Sequences (Extended) #1 (Ana 15, Bo 0).")
    rows = await env.bot.db.fetchall(
        "SELECT game_key, user_id, won, score FROM game_results WHERE game_id = 1 ORDER BY seat"
    )
    assert [tuple(r) for r in rows] == [
        ("sequences:extended", ana.id, 1, 15),
        ("sequences:extended", bo.id, 0, 0),
    ]

    mine = await ana.slash("stats", game="sequences:extended")
    assert "Sequences (Extended): rating" in mine.text
    assert "1 won of 1 (100 %) · best turn 15" in mine.text
    theirs = await bo.slash("stats")
    assert "Sequences (Extended)" in theirs.text and "0 won of 1 (0 %)" in theirs.text


# --- each game's commands reach that game -------------------------------------------------


async def test_end_and_resign_reach_only_the_game_their_command_names(make_env: MakeEnv) -> None:
    env = await make_env(seed=7)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await start_table(env, ana, [bo], "heartsdue start")  # game #1
    lobby = await open_board(env, ana, [bo])  # game #2, same channel, same two players
    await ana.click(lobby, "Start")

    wrong = await ana.slash("board end", game=1)
    assert wrong.ephemeral and wrong.text == "Game #1 is Hearts Due, not a /board game."
    none = await ana.slash("sequences end")
    assert none.ephemeral and none.text == "There is no /sequences game in this channel."
    ended = await ana.slash("board end")
    assert ended.text == "Game #2 ended: no result is recorded and any stakes are refunded."
    assert (await env.bot.tables.get(2)).status == "ended"
    assert (await env.bot.tables.get(1)).status == "running"

    ask = await bo.slash("heartsdue resign")
    assert ask.ephemeral and "Resign from game #1?" in ask.text
    await bo.click(ask.message, "Resign")
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    assert await results(env) == {ana.id: (1, True), bo.id: (2, False)}
    gone = await bo.slash("board resign")
    assert gone.ephemeral and gone.text == "There is no /board game in this channel."
