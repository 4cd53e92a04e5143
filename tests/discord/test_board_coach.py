"""The board game's coach through the harness: Suggest in the private hand (never in a
staked game, off by /settings, the game unrated after it) and each player's Review of a
finished game (privately, from their own cards only)."""

from __future__ import annotations

import re

from bot.games.board.coach_texts import UNRATED_NOTE
from bot.games.board.render import hand_text
from bot.rules import board as b
from tests.discord.conftest import Env, MakeEnv
from tests.discord.play import open_table, play_board
from tests.discord.test_board_game import open_board, open_hand, play_out
from tests.discord.test_issue_12 import forge_component
from tests.harness import Message, Player, Reply
from tests.harness import payloads as P

PNG = b"\x89PNG\r\n\x1a\n"


def answer(reply: Reply) -> Message:
    """The private message a deferred click ended with."""
    return reply.followups[-1] if reply.followups else reply.message


async def player_to_move(env: Env, players: dict[int, Player]) -> tuple[Player, int]:
    table = await env.bot.tables.get(1)
    seat = table.rules.turn
    return players[table.seats[seat].user_id or 0], seat


async def coached_rows(env: Env) -> dict[int, int]:
    rows = await env.bot.db.fetchall("SELECT user_id, coached FROM game_results WHERE game_id = 1")
    return {int(r[0]): int(r[1]) for r in rows}


async def rated(env: Env) -> dict[int, int]:
    rows = await env.bot.db.fetchall(
        "SELECT user_id, rated_games FROM player_stats WHERE scope = ?", (env.h.guild.id,)
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def test_suggest_gives_three_moves_privately_and_the_game_is_not_rated(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    players = {ana.id: ana, bo.id: bo}
    lobby = await open_board(env, ana, [bo], first_sequence_wins=True)
    await ana.click(lobby, "Start")
    mover, seat = await player_to_move(env, players)
    other = bo if mover is ana else ana
    hand = await open_hand(env, mover)
    assert "Suggest" in hand.message.labels
    # Not on someone else's turn: their hand has no Suggest.
    assert "Suggest" not in (await open_hand(env, other)).message.labels

    reply = await mover.click(hand.message, "Suggest")
    shown = answer(reply)
    assert shown.ephemeral and shown.visible_to == mover.id
    text = shown.text
    assert "Suggested moves" in text and "not rated now" in text
    assert len(re.findall(r"\*\*\d\. ", text)) == 3
    assert shown.attachments and shown.attachments[0].data.startswith(PNG)
    # Only the mover's own cards are named: none held by the other seat alone.
    table = await env.bot.tables.get(1)
    own, theirs = table.rules.hands[seat], table.rules.hands[1 - seat]
    for card in set(theirs) - set(own):
        assert b.card_label(card) not in text
    assert table.coached == [mover.id]

    await play_out(env, players)
    result = env.turn_message()
    assert UNRATED_NOTE in result.text
    assert await coached_rows(env) == {mover.id: 1, other.id: 0}
    assert await rated(env) == {ana.id: 0, bo.id: 0}  # the game counts, no rating moves


async def test_a_game_without_suggestions_is_rated(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo], first_sequence_wins=True)
    await ana.click(lobby, "Start")
    await play_out(env, {ana.id: ana, bo.id: bo})
    assert UNRATED_NOTE not in env.turn_message().text
    assert await rated(env) == {ana.id: 1, bo.id: 1}


async def test_no_suggestion_in_a_staked_game(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    players = {ana.id: ana, bo.id: bo}
    lobby = await open_board(env, ana, [bo], stake=100, first_sequence_wins=True)
    await ana.click(lobby, "Start")
    mover, _ = await player_to_move(env, players)
    hand = await open_hand(env, mover)
    assert "Suggest" not in hand.message.labels
    # A forged press of the button is refused privately, and nothing is noted.
    table = await env.bot.tables.get(1)
    custom_id = f"t:1:{table.version}:suggest"
    forged = await forge_component(env, mover, hand.message, custom_id, P.BUTTON)
    assert forged.ephemeral and forged.text == "Suggestions are for games without a stake."
    assert (await env.bot.tables.get(1)).coached == []


async def test_the_server_can_turn_suggestions_off(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    mod = await env.h.member("Mod", manage_guild=True)
    off = await mod.slash("settings suggestions", allowed=False)
    assert off.ephemeral and "off" in off.text
    lobby = await open_board(env, ana, [bo], first_sequence_wins=True)
    await ana.click(lobby, "Start")
    mover, _ = await player_to_move(env, {ana.id: ana, bo.id: bo})
    hand = await open_hand(env, mover)
    refused = await mover.click(hand.message, "Suggest")
    assert refused.ephemeral and refused.text == "Suggestions are turned off on this server."
    assert (await env.bot.tables.get(1)).coached == []
    await mod.slash("settings suggestions", allowed=True)
    assert "Suggested moves" in answer(await mover.click(hand.message, "Suggest")).text


async def test_review_shows_each_player_only_their_own_moves_and_cards(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    cy = await env.h.member("Cy")
    players = {ana.id: ana, bo.id: bo}
    lobby = await open_board(env, ana, [bo], first_sequence_wins=True)
    await ana.click(lobby, "Start")
    await play_out(env, players)
    result = env.turn_message()
    assert "Review" in result.labels and "Rematch" in result.labels

    replay = await env.bot.shell.replays.load(1, env.h.guild.id)
    seat_of = {s.user_id: i for i, s in enumerate(replay.seats)}
    states = [state for _, state in replay.moments]
    for player in (ana, bo):
        seat = seat_of[player.id]
        # Every hand this seat held during the game, as the hand shows it; and the other's.
        own = {hand_text(b.view_for(s, seat)) for s in states}
        others = {hand_text(b.view_for(s, 1 - seat)) for s in states} - own
        reply = await player.click(result, "Review")
        shown = answer(reply)
        assert shown.ephemeral and shown.visible_to == player.id
        assert "Your review of game #1" in shown.text
        lines = [line for line in shown.text.splitlines() if line.startswith("Your cards then:")]
        assert lines, shown.text  # seed 21: both players made a move worth reviewing
        for line in lines:
            cards = line.removeprefix("Your cards then: ")
            assert cards in own and cards not in others
        assert len(shown.attachments) == len(lines)
        assert all(a.data.startswith(PNG) for a in shown.attachments)

    refused = await cy.click(result, "Review")
    assert refused.ephemeral and refused.text == (
        "You didn't play in this game, so there is nothing of yours to review."
    )
    # The same from /replay, and nothing of a review is ever posted publicly.
    shared = (await cy.slash("replay", game=1)).message
    assert "Review" in shared.labels
    from_replay = answer(await bo.click(shared, "Review"))
    assert from_replay.ephemeral and from_replay.visible_to == bo.id
    public = [m for m in env.h.messages(ephemeral=False) if "Your review" in m.text]
    assert public == []


async def test_a_review_in_french_joins_a_moves_reasons_as_french_writes(
    make_env: MakeEnv,
) -> None:
    """A better move's reasons are one list in the reader's words: French puts a no-break
    space before ";" (docs/i18n.md), so "… c’est une séquence ; garde votre valet …" never
    wraps the ";" alone onto a line; the reasons were glued with the English "; " in code."""
    env = await make_env(seed=8)
    env.h.speak("fr")
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await open_table(env, "board start", ana, [bo])
    await play_board(env, [ana, bo], 1)
    result = env.turn_message()
    texts = [answer(await p.click(result, custom_id="rv:1")).text for p in (ana, bo)]
    joined = [
        line for text in texts for line in text.splitlines() if line.startswith("**Votre coup")
    ]
    assert any(";" in line for line in joined), texts  # a move with two reasons
    for line in joined:
        assert not re.search(r"[^\u00a0];", line), line
