"""``/replay`` and ``/history`` through the harness (issue 15): a game of each kind played,
then stepped through like a user would, checked against the states recorded during play;
a restart in the middle of a replay; the board animation; history pages; bad ids; and no
hand card that was never played shown anywhere."""

from __future__ import annotations

import io
import json
import re
import time
from typing import Any

from PIL import Image

from bot.games.board.animation import frames, still
from bot.games.terms import dice_text
from bot.rules import board as b
from bot.ui.replay import STORY_LINES, UPLOAD_LIMIT
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_board_game import open_board, play_turn
from tests.discord.test_dice_games import start_table
from tests.discord.test_issue_12 import HEARTS_DUE_FACES
from tests.discord.test_sequences_game import open_table
from tests.fakes import ScriptedRandom
from tests.harness import Message, Player


async def sql(env: Env, statement: str, params: tuple[Any, ...] = ()) -> None:
    async with env.bot.db.transaction() as conn:
        await conn.execute(statement, params)


def step_of(message: Message) -> tuple[int, int]:
    found = re.search(r"Step (\d+)/(\d+)", message.text)
    assert found, message.text
    return int(found[1]), int(found[2])


async def test_a_board_game_replayed_step_by_step_across_a_restart(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo, cy = (await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy"))
    lobby = await open_board(env, ana, [bo])
    await ana.click(lobby, "Start")
    players = {ana.id: ana, bo.id: bo}
    recorded: list[b.BoardState] = [(await env.bot.tables.get(1)).rules]
    for _ in range(600):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            break
        await play_turn(env, players[table.seats[table.rules.turn].user_id or 0])
        recorded.append((await env.bot.tables.get(1)).rules)
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    seats = table.seats
    moves = len(recorded) - 1

    choices = await cy.autocomplete("replay", "game", "")
    assert [c["value"] for c in choices] == [1] and "Ana, Bo" in choices[0]["name"]

    reply = await cy.slash("replay", game=1)  # no step asked: the start, nothing spoiled
    assert not reply.ephemeral
    replay = reply.message
    assert step_of(replay) == (0, moves)
    assert "Nothing played yet" in replay.text and "Winner" not in replay.text
    assert [a.data for a in replay.attachments] == [still([(None, recorded[0])], seats)]
    assert replay.button("⏮ First").disabled and replay.button("◀ Back").disabled

    # A press on the shared message gives the presser a private copy there; the shared
    # message stays at the start, and each copy steps in place.
    pressed = await ana.click(replay, "Next ▶")
    assert pressed.ephemeral and pressed.message.id != replay.id
    copy = pressed.message
    assert step_of(copy) == (1, moves) and step_of(replay) == (0, moves)
    for want in (2, 3):
        stepped = await ana.click(copy, "Next ▶")
        assert stepped.message.id == copy.id and stepped.ephemeral
        assert step_of(copy) == (want, moves)
        assert copy.attachments[0].data == still([(None, recorded[want])], seats)
        move = recorded[want].last_move
        assert move is not None and b.card_label(move.action.card) in copy.text  # type: ignore[union-attr]
    # Round ⏩: the first step of the next round (each seat moves once a round).
    rounds = [state.turn_count // len(seats) for state in recorded]
    ahead = next(i for i, r in enumerate(rounds) if r > rounds[3])
    await ana.click(copy, "Round ⏩")
    assert step_of(copy)[0] == ahead
    assert copy.attachments[0].data == still([(None, recorded[ahead])], seats)
    mine = (await bo.click(replay, "Last ⏭")).message  # Bo's own copy, at the end
    assert mine.ephemeral and step_of(mine) == (moves, moves) and step_of(copy)[0] == ahead
    assert step_of(replay) == (0, moves) and replay.attachments[0].data == still(
        [(None, recorded[0])], seats
    )

    # A restart in the middle: the copy's buttons keep working, from the log.
    await env.restart()
    await ana.click(copy, "Next ▶")
    assert step_of(copy) == (ahead + 1, moves)
    assert copy.attachments[0].data == still([(None, recorded[ahead + 1])], seats)
    await ana.click(copy, "◀ Back")
    assert step_of(copy)[0] == ahead
    await ana.click(copy, "⏪ Round")  # at a round's start: back to the round before
    behind = rounds.index(rounds[ahead] - 1)
    assert step_of(copy)[0] == behind
    shared = replay
    replay = (await cy.click(shared, "Next ▶")).message  # the shared one's buttons too
    assert replay.ephemeral and step_of(replay) == (1, moves)

    # One step's render time, from the cache (no replay of the log).
    started = time.perf_counter()
    await cy.click(replay, "Next ▶")
    elapsed = time.perf_counter() - started
    print(f"one board replay step, click to edit: {elapsed * 1000:.1f} ms")

    await cy.click(replay, "Last ⏭")
    assert step_of(replay) == (moves, moves)
    assert replay.button("Next ▶").disabled and replay.button("Last ⏭").disabled
    assert replay.attachments[0].data == still([(None, recorded[-1])], seats)
    assert recorded[-1].outcome.seats == (0,)  # seed 21: Ana wins
    assert "Winner: Ana" in replay.text
    # Only the last few moves above the board, however long the game: one phone screen.
    listed = re.findall(r"^\d+\. ", replay.text, flags=re.M)
    assert 0 < len(listed) <= STORY_LINES and f"… {moves - len(listed)} earlier" in replay.text
    assert f"{moves}. " in replay.text and "\n1. " not in replay.text

    # A step out of range is clamped.
    far = await cy.slash("replay", game=1, step=100_000)
    assert step_of(far.message) == (moves, moves)

    # The animation, privately: one frame per move and the start, under the upload limit.
    started = time.perf_counter()
    animated = await bo.click(shared, "Download animation")
    print(f"animation of {moves} moves: {time.perf_counter() - started:.2f} s")
    assert animated.ephemeral
    # A GIF (Discord animates GIFs inline, an animated PNG shows as a still), small.
    [file] = animated.message.attachments
    assert file.filename.endswith(".gif") and file.data.startswith(b"GIF89a")
    assert len(file.data) < 1_000_000 < UPLOAD_LIMIT
    gif = Image.open(io.BytesIO(file.data))
    assert gif.n_frames == moves + 1
    wanted, _ = frames([(None, state) for state in recorded], seats)
    for index in (0, 1, moves // 2, moves):  # each frame as drawn, though stored as a delta
        gif.seek(index)
        assert gif.convert("RGB").tobytes() == wanted[index].convert("RGB").tobytes(), index

    # Privacy: a card still in a hand at the end and never played appears nowhere.
    final = recorded[-1]
    played = {
        r.last_move.action.card for r in recorded if r.last_move is not None
        and hasattr(r.last_move.action, "card")
    }  # fmt: skip
    hidden = {b.card_label(c) for hand in final.hands for c in hand if c not in played}
    assert hidden
    shown = [m for m in env.h.messages() if m.text.startswith("**") or "Replay of game" in m.text]
    for message in shown:
        for version in [message.text, *(json.dumps(v) for v in message.history)]:
            assert not any(re.search(rf"(?<![0-9]){re.escape(c)}", version) for c in hidden)


async def test_a_push_your_luck_game_replayed_shows_throws_and_scores(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_table(env, ana, bo, rounds=2)
    await ana.click(lobby, "Start")
    players = {ana.id: ana, bo.id: bo}
    recorded = []
    for _ in range(200):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            break
        state = table.rules
        message = env.turn_message()
        labels = [lb for lb in message.labels if lb]
        if state.phase == "throw":
            label = next(lb for lb in labels if lb.startswith("Throw"))
        else:
            label = next(lb for lb in labels if lb.startswith("Bank"))
        await players[table.seats[state.current].user_id or 0].click(message, label)
        recorded.append((await env.bot.tables.get(1)).rules)
    table = await env.bot.tables.get(1)
    assert table.status == "finished"

    reply = await bo.slash("replay", game=1)
    step, last = step_of(reply.message)
    assert step == 0 and not reply.message.attachments and "Winner" not in reply.text
    assert "Download animation" not in reply.message.labels
    message = (await bo.click(reply.message, "Last ⏭")).message  # Bo's own copy
    assert message.ephemeral and step_of(message) == (last, last)
    final = table.rules
    for seat, name in enumerate(("Ana", "Bo")):
        assert re.search(rf"{name}\s+{final.totals[seat]}\b", message.text), message.text
    # Walk back to the start and forward again: the first throw as it fell.
    await bo.click(message, "⏮ First")
    assert step_of(message) == (0, last)
    await bo.click(message, "Next ▶")
    first = recorded[0].last
    assert first is not None and dice_text(first.dice) in message.text
    assert "Ana" in message.text.split("```")[1]


async def finish_hearts_due(env: Env, ana: Player, bo: Player) -> None:
    await start_table(env, ana, [bo], "heartsdue start", target=20)
    for player in (ana, bo, ana, bo):
        turn = [m for m in env.h.messages(env.h.threads[-1]) if m.components][-1]
        await player.click(turn, "Throw 6 dice")


async def test_history_pages_replays_of_dice_games_and_bad_ids(make_env: MakeEnv) -> None:
    env = await make_env(rng=ScriptedRandom(HEARTS_DUE_FACES * 12))
    ana, bo, cy = (await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy"))
    for _ in range(11):
        await finish_hearts_due(env, ana, bo)
    assert (await env.bot.tables.get(11)).status == "finished"

    page = await cy.slash("history")
    first = page.message
    assert not page.ephemeral and "Page 1/2" in first.text and "11 games" in first.text
    assert "**#11**" in first.text and "**#2**" in first.text and "**#1**" not in first.text
    assert "won by Ana" in first.text and "4 moves" in first.text
    assert first.button("◀ Previous").disabled
    turned = await cy.click(first, "Next ▶")
    assert turned.message.id == first.id and "Page 2/2" in first.text and "**#1**" in first.text
    other = await ana.click(first, "◀ Previous")  # not the owner: their own copy
    assert other.ephemeral and "Page 1/2" in other.text and "Page 2/2" in first.text
    await env.restart()
    await cy.click(first, "◀ Previous")
    assert "Page 1/2" in first.text
    # Each row opens its game's replay, at the start, in a new public message.
    opened = await bo.click(first, "▶ #7")
    assert not opened.ephemeral and opened.message.id != first.id
    assert "Replay of game #7" in opened.message.text and "Winner" not in opened.message.text
    assert step_of(opened.message) == (0, 4)
    assert "Page 1/2" in first.text  # the history page is left as it was

    mine = await cy.slash("history", member=cy)
    assert "No finished games" in mine.text
    games = await ana.slash("history", member=bo, game="heartsdue")
    assert "11 games" in games.text

    replay = await bo.slash("replay", game=3, step=1)
    assert "Ana's opening throw 6-6-6-6-6-6: sum 36" in replay.text
    assert step_of(replay.message) == (1, 4)
    end = (await ana.click(replay.message, "Last ⏭")).message
    assert re.search(r"Ana\s+70\b", end.text) and "Winner: Ana" in end.text

    # Bad ids: one private line each.
    await ana.slash("heartsdue start", target=20)  # game 12: a lobby, not finished
    for game_id, why in ((999, "no game #999"), (12, "not finished")):
        refused = await cy.slash("replay", game=game_id)
        assert refused.ephemeral and why in refused.text and "\n" not in refused.text
    await sql(env, "UPDATE games SET guild_id = 1 WHERE id = 2")
    refused = await cy.slash("replay", game=2)
    assert refused.ephemeral and "no game #2" in refused.text
    await sql(env, "UPDATE games SET guild_id = ? WHERE id = 2", (env.h.guild.id,))
    row = await env.bot.db.fetchone(
        "SELECT detail_json FROM game_log WHERE game_id = 4 AND kind = 'start'"
    )
    assert row is not None
    detail = json.loads(row["detail_json"])
    rules = detail.pop("rules")
    await sql(
        env,
        "UPDATE game_log SET detail_json = ? WHERE game_id = 4 AND kind = 'start'",
        (json.dumps(detail),),
    )
    refused = await cy.slash("replay", game=4)
    assert refused.ephemeral and "cannot be replayed" in refused.text
    detail["rules"] = rules
    await sql(
        env,
        "UPDATE game_log SET detail_json = ? WHERE game_id = 4 AND kind = 'start'",
        (json.dumps(detail),),
    )
