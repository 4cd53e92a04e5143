"""The board game through the harness: lobby, board image, private hands, whole games."""

from __future__ import annotations

from bot.games.board.hand import BoardHands
from bot.records import Button
from bot.render.view import build_view
from bot.rules import board as b
from bot.rules.board.game import CARD_CELLS
from tests.discord.conftest import Env, MakeEnv
from tests.harness import Message, Player, Reply
from tests.harness import payloads as P
from tests.rules.board.board_helpers import position

PNG = b"\x89PNG\r\n\x1a\n"


async def open_board(
    env: Env,
    host: Player,
    joiners: list[Player],
    bots: list[str] = (),  # type: ignore[assignment]
    **options: object,
) -> Message:
    lobby = (await host.slash("board start", **options)).message
    for player in joiners:
        lobby = (await player.click(lobby, "Join")).message
    for level in bots:
        lobby = (await host.click(lobby, f"Add bot: {level}")).message
    return lobby


async def open_hand(env: Env, player: Player) -> Reply:
    hand = await player.click(env.turn_message(), "My hand")
    assert hand.ephemeral and hand.message.visible_to == player.id
    return hand


def first(
    labels: list[str | None],
    *,
    starting: tuple[str, ...] = (),
    exclude: tuple[str, ...] = ("Refresh", "Back", "Suggest"),
) -> str | None:
    for label in labels:
        if label and label not in exclude and (not starting or label.startswith(starting)):
            return label
    return None


async def play_turn(env: Env, player: Player) -> None:
    """Play a turn the way a person would: My hand, a card, (a row,) a space."""
    hand = await open_hand(env, player)
    message = hand.message
    for _ in range(4):
        labels = message.labels
        label = first(labels, starting=("Pass", "Trade")) or first(labels)
        assert label is not None, f"nothing to press in {labels}"
        reply = await player.click(message, label)
        assert reply.ephemeral, reply.text
        if label.startswith("Pass") or (
            "Your turn: choose a card" not in reply.text and "choose" not in reply.text
        ):
            return
        message = reply.message
    raise AssertionError("a turn took more than four clicks")


async def play_out(env: Env, players: dict[int, Player], limit: int = 600) -> None:
    for _ in range(limit):
        table = await env.bot.tables.get(1)
        if table.status != "running":
            return
        state = table.rules
        seat = table.seats[state.turn]
        if seat.is_bot:
            await env.run_bots()
        else:
            await play_turn(env, players[seat.user_id or 0])
    raise AssertionError("the board game did not finish")


async def test_two_players_play_a_whole_game_by_clicks(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    ana, bo, cy = (await env.h.member("Ana"), await env.h.member("Bo"), await env.h.member("Cy"))
    lobby = await open_board(env, ana, [bo])
    levels = [label for label in lobby.labels if label and label.startswith("Add bot: ")]
    assert levels == [f"Add bot: {level}" for level in ("easy", "medium", "hard", "expert")]
    await ana.click(lobby, "Start")
    board = env.turn_message()
    ping = env.ping()
    assert ping is not None and ping.content == f"{ana.mention}, your turn."
    assert board.flags & P.COMPONENTS_V2_FLAG and board.labels == [
        "My hand",
        "Rules",
        "Resign",
        "Watch",
    ]
    [picture] = board.attachments
    assert picture.data.startswith(PNG) and len(picture.data) < 300_000
    assert "Ana** (Blue ●) to play" in board.text

    outsider = await cy.click(board, "My hand")
    assert outsider.ephemeral and "not playing" in outsider.text
    waiting = await bo.click(board, "My hand")
    assert waiting.ephemeral and "It's Ana's turn; you can look, not play." in waiting.text
    assert waiting.message.labels == ["Refresh"]

    await play_out(env, {ana.id: ana, bo.id: bo})
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    final = env.turn_message()
    assert table.rules.outcome.seats == (0,)  # seed 21: Ana's two sequences
    assert "### 🏆 Ana won Sequence (board game)!" in final.text
    # One live table message: the thread holds it and the pot line at most, no ping left.
    assert env.thread_messages() == [final] and env.ping() is None
    assert " played " in final.text  # the last moves, in the table message
    # Nobody's hand was ever shown to anyone else.
    for message in env.h.messages():
        if message.ephemeral:
            assert message.visible_to in (ana.id, bo.id, cy.id)
            assert message.visible_to != cy.id or "not playing" in message.text


async def test_two_teams_of_two_with_bot_players(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo], ["easy", "medium"], first_sequence_wins=True)
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert [s.team for s in table.seats] == [0, 1, 0, 1]
    assert "Team A" in env.turn_message().text
    await play_out(env, {ana.id: ana, bo.id: bo})
    rows = await env.bot.db.fetchall("SELECT seat, team, won FROM game_results ORDER BY seat")
    assert len(rows) == 4
    won = {r["team"] for r in rows if r["won"]}
    assert len(won) <= 1  # a team wins together (or nobody, if the board blocks)


async def test_three_teams(make_env: MakeEnv) -> None:
    env = await make_env(seed=9)
    ana = await env.h.member("Ana")
    lobby = await open_board(env, ana, [], ["easy"] * 5, teams=3)
    await ana.click(lobby, "Start")
    table = await env.bot.tables.get(1)
    assert [s.team for s in table.seats] == [0, 1, 2, 0, 1, 2]
    await play_out(env, {ana.id: ana})
    table = await env.bot.tables.get(1)
    state = table.rules
    assert state.outcome is not None and state.config.sides == 3
    assert state.outcome.side is None or state.sequence_counts()[state.outcome.side] == 1


async def test_trade_removal_jacks_double_sequence_restart_and_stale_hand(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo])
    await ana.click(lobby, "Start")
    ana_chips = {(4, c): 0 for c in (0, 1, 2, 3, 5, 6, 7, 8)}
    bo_chips = {(0, 1): 1, (8, 6): 1, (2, 2): 1}  # both 2♠ spaces taken: Ana's 2♠ is dead
    state = position(
        chips={**ana_chips, **bo_chips},
        hands=[
            ["2S", "JS", "JD", "3H", "4H", "5C", "6C"],
            ["7D", "8D", "9D", "TD", "QD", "KD", "AD"],
        ],
    )
    table = await env.bot.tables.get(1)
    table.rules = state
    await env.bot.tables.kernel.save(table, None, "test-position", {})

    hand = await open_hand(env, ana)
    old_hand = hand.message
    old_remove = old_hand.button("J♠ · remove").custom_id
    assert "2♠ (dead)" in hand.text and "Trade 2♠ (dead)" in hand.message.labels
    traded = await ana.click(hand.message, "Trade 2♠ (dead)")
    assert traded.ephemeral and "🆕" in traded.text
    assert not any(lb and lb.startswith("Trade") for lb in traded.message.labels)
    stale = await ana.click_stale(old_hand, old_remove)
    assert stale.ephemeral and "That move is over" in stale.text
    assert "traded the dead 2♠" in env.turn_message().text

    # One-eyed jack: remove Bo's loose chip on C3; that is Ana's whole turn.
    hand = await open_hand(env, ana)
    choose = await ana.click(hand.message, "J♠ · remove")
    assert choose.message.labels == ["B1", "C3", "G9", "Back"]  # each of Bo's loose chips
    assert choose.files and choose.files[0].data.startswith(PNG)  # choices drawn on the board
    await ana.click(choose.message, "C3")
    assert "Ana removed the chip on C3 with J♠" in env.turn_message().text
    assert env.ping() is not None and bo.mention in env.ping().content  # type: ignore[union-attr]

    # A restart between two moves: Bo's My hand on the old message reaches the new bot.
    board_message = env.turn_message()
    await env.restart()
    await play_turn(env, bo)

    # Two-eyed jack on E5 (row first: more than 20 open spaces) makes two sequences at once.
    hand = await open_hand(env, ana)
    rows = await ana.click(hand.message, "J♦ · wild")
    assert "Row 5" in rows.message.labels
    cols = await ana.click(rows.message, "Row 5")
    assert cols.message.labels[:1] == ["E5"]
    await ana.click(cols.message, "E5")
    table = await env.bot.tables.get(1)
    assert table.status == "finished"
    final = table.rules
    assert final.sequence_counts()[0] == 2 and final.outcome is not None
    assert "2 sequences!" in env.turn_message().text
    assert "🏆 Ana won Sequence (board game)!" in env.turn_message().text
    assert board_message == env.turn_message()  # one table message, edited to the end


async def test_a_hand_of_six_dead_cards_opens_with_every_trade_button(make_env: MakeEnv) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    lobby = await open_board(env, ana, [bo])
    await ana.click(lobby, "Start")
    dead = ["2S", "3S", "4S", "5S", "6S", "7S"]  # spaces A..G on rows 1 and 9: all taken
    chips = {(0, c): c % 2 for c in range(1, 7)} | {(8, c): (c + 1) % 2 for c in range(1, 7)}
    state = position(chips=chips, hands=[[*dead, "JD"], ["7D", "8D", "9D", "TD", "QD", "KD"]])
    assert all(b.TradeDeadCard(card) in b.legal_actions(state) for card in dead)
    table = await env.bot.tables.get(1)
    table.rules = state
    await env.bot.tables.kernel.save(table, None, "test-position", {})

    hand = await open_hand(env, ana)
    buttons = hand.message.buttons
    trades = [x for x in buttons if (x.label or "").startswith("Trade")]
    # Action rows as sent (empty rows are left out): the card, two rows of trades, Refresh.
    assert [x.row for x in trades] == [1, 1, 1, 1, 1, 2]
    assert hand.message.button("J♦ · wild").row == 0
    assert hand.message.button("Refresh").row == 3
    traded = await ana.click(hand.message, "Trade 7♠ (dead)")
    assert "traded the dead 7♠" in env.turn_message().text
    assert not any((x.label or "").startswith("Trade") for x in traded.message.buttons)


def test_any_mix_of_seven_playable_and_dead_cards_fits_in_five_rows() -> None:
    dead = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    chips = {divmod(cell, 10): i % 2 for card in dead for i, cell in enumerate(CARD_CELLS[card])}
    live = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    assert {divmod(c, 10) for card in live for c in CARD_CELLS[card]}.isdisjoint(chips)
    for k in range(8):
        state = position(chips=chips, hands=[dead[:k] + live[k:], ["9D"]])
        legal = b.legal_actions(state)
        buttons, _ = BoardHands()._card_buttons(legal, b.view_for(state, 0))
        assert len(buttons) == 7
        view = build_view(1, 1, [*buttons, Button("hand", "Refresh", "secondary", row=4)])
        assert len(view.children) == 8
