"""The board game's card click (issue 26): the board with the card's spaces highlighted is
drawn while the player reads the hand, so the click itself draws nothing; what it shows is
exactly the board a fresh drawing of the table shows, never an older one."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.games import board as board_game
from bot.games.board.picture import render_board
from bot.games.board.render import picture, side_names
from bot.rules import board as b
from bot.rules.board.game import CARD_CELLS, EMPTY
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_board_game import open_board, open_hand
from tests.harness import Message, Player
from tests.rules.board.board_helpers import position

Cell = tuple[int, int]


def expected_spaces(state: b.BoardState, card: str) -> set[Cell]:
    """Where ``card`` may go, from the rules of the game rather than the bot's code."""
    side = state.turn % state.config.sides
    cells = range(100)
    if card in b.TWO_EYED_JACKS:
        chosen = [c for c in cells if state.chips[c] == EMPTY and c not in b.CORNER_CELLS]
    elif card in b.ONE_EYED_JACKS:
        chosen = [
            c for c in cells if state.chips[c] not in (EMPTY, side) and not state.locked >> c & 1
        ]
    else:
        chosen = [c for c in CARD_CELLS[card] if state.chips[c] == EMPTY]
    return {divmod(c, 10) for c in chosen}


async def reference(env: Env, highlight: set[Cell]) -> bytes:
    """A fresh drawing of the table as it is now, ``highlight`` highlighted."""
    table = await env.bot.tables.get(1)
    state = table.rules
    return render_board(picture(state, side_names(table.snapshot(), state), highlight))


def frames_settled() -> None:
    frames = getattr(board_game.GAME.hands, "frames", None)
    while frames is not None and frames.busy():
        threading.Event().wait(0.005)


async def set_position(env: Env, state: b.BoardState) -> None:
    table = await env.bot.tables.get(1)
    table.rules = state
    await env.bot.tables.kernel.save(table, None, "test-position", {})


def seeded_position(seed: int) -> b.BoardState:
    """Loose chips of both sides, a dead card, both kinds of jack and four more cards."""
    rng = random.Random(seed)
    plain = [c for c in range(100) if c not in b.CORNER_CELLS]
    cards = sorted({code for code in CARD_CELLS if code[0] != "J"})
    dead, *live = rng.sample(cards, 5)
    free = [c for c in plain if c not in CARD_CELLS[dead]]
    for card in live:  # at least one space of each live card stays open
        free.remove(CARD_CELLS[card][0])
    chips = {divmod(c, 10): rng.randrange(2) for c in rng.sample(free, 24)}
    chips |= {divmod(c, 10): i for i, c in enumerate(CARD_CELLS[dead])}  # both spaces taken
    one_eyed, two_eyed = rng.choice(sorted(b.ONE_EYED_JACKS)), rng.choice(sorted(b.TWO_EYED_JACKS))
    hand = [dead, one_eyed, two_eyed, *live]
    other = rng.sample([c for c in cards if c not in hand], 7)
    return position(chips=chips, hands=[hand, other])


def card_code(label: str) -> str:
    """The card of a hand button, "10♥ ·..." -> "TH"."""
    rank, suit = label.split()[0][:-1], label.split()[0][-1]
    return {"10": "T"}.get(rank, rank) + {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[suit]


def png(message: Message) -> bytes:
    [attachment] = message.attachments
    assert message.embeds[0]["image"]["url"] == f"attachment://{attachment.filename}"
    return bytes(attachment.data)


async def check_every_card(env: Env, ana: Player, hand: Message) -> int:
    """Click each playable card (and each row of a card that offers rows), comparing the
    picture with a fresh drawing; back to the hand after each. The number checked."""
    state = (await env.bot.tables.get(1)).rules
    checked = 0
    for button in list(hand.buttons):
        if button.disabled or not (button.custom_id or "").split(":")[-1].startswith("c_"):
            continue
        card = card_code(button.label or "")
        spaces = expected_spaces(state, card)
        frames_settled()
        chosen = (await ana.click(hand, custom_id=button.custom_id or "")).message
        assert png(chosen) == await reference(env, spaces), button.label
        checked += 1
        rows = [label for label in chosen.labels if label and label.startswith("Row ")]
        for label in rows[:2]:  # Back from a row goes to the hand: the card again, then it
            row = int(label.split()[1]) - 1
            frames_settled()
            picked = (await ana.click(chosen, label)).message
            assert png(picked) == await reference(env, {c for c in spaces if c[0] == row})
            hand = (await ana.click(picked, "Back")).message
            chosen = (await ana.click(hand, custom_id=button.custom_id or "")).message
            checked += 1
        hand = (await ana.click(chosen, "Back")).message
        assert hand.attachments == []
    return checked


@pytest.fixture
def loop_encodes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The PNG encodes made on the event loop's thread while a test runs."""
    loop_thread = threading.get_ident()
    made: list[str] = []
    save = Image.Image.save

    def counted(self: Image.Image, *args: object, **kwargs: object) -> None:
        if threading.get_ident() == loop_thread:
            made.append(str(kwargs.get("format", args[1] if len(args) > 1 else "")))
        save(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Image.Image, "save", counted)
    yield made


async def test_the_card_click_draws_no_board_once_the_hand_was_read(
    make_env: MakeEnv, loop_encodes: list[str]
) -> None:
    env = await make_env(seed=3)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    await set_position(env, seeded_position(1))
    hand = (await open_hand(env, ana)).message
    await asyncio.sleep(0)
    frames_settled()  # the player reads the hand: the worker draws the cards' boards
    loop_encodes.clear()
    label = next(x for x in hand.labels if x and x.endswith(("♠", "♥", "♦", "♣")))
    chosen = await ana.click(hand, label)
    assert "choose where to put your chip" in chosen.text
    assert len(chosen.message.attachments) == 1
    assert loop_encodes == []  # before issue 26: one board frame encoded in the click
    # And every other card's board, the jacks' included, was drawn ahead too.
    hand = (await ana.click(chosen.message, "Back")).message
    frames_settled()
    loop_encodes.clear()
    for jack in ("· remove", "· wild"):
        button = next(x for x in hand.labels if x and x.endswith(jack))
        shown = (await ana.click(hand, button)).message
        assert len(shown.attachments) == 1
        hand = (await ana.click(shown, "Back")).message
    assert loop_encodes == []


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_each_card_shows_its_spaces_as_a_fresh_drawing_does(
    make_env: MakeEnv, seed: int
) -> None:
    env = await make_env(seed=seed)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    state = seeded_position(seed)
    await set_position(env, state)
    hand = await open_hand(env, ana)
    dead = next(c for c in state.hands[0] if b.is_dead(c, state.chips))
    assert f"Trade {b.card_label(dead)} (dead)" in hand.message.labels  # no board for it
    # Six cards with spaces, and rows for the two-eyed jack (more than 20 open spaces).
    assert await check_every_card(env, ana, hand.message) >= 6 + 2
    # Traded: the dead card's place holds a new card, and its board is drawn ahead too.
    traded = await ana.click(hand.message, f"Trade {b.card_label(dead)} (dead)")
    assert "🆕" in traded.text
    assert await check_every_card(env, ana, traded.message) >= 6


async def test_a_table_that_moved_on_shows_its_new_board(make_env: MakeEnv) -> None:
    env = await make_env(seed=5)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    state = seeded_position(7)
    await set_position(env, state)
    old_hand = (await open_hand(env, ana)).message
    frames_settled()  # Ana's boards for this version are drawn and kept
    card = next(c for c in state.hands[0][3:] if len(expected_spaces(state, c)) == 2)
    label = b.card_label(card)
    old_id = old_hand.button(label).custom_id or ""
    old = png((await ana.click(old_hand, label)).message)

    # The table moves on under the kept frames (here: Bo's chip lands on one of the card's
    # spaces from elsewhere, as another process's change would): same card, same turn.
    taken = sorted(expected_spaces(state, card))[0]
    moved = position(
        chips={divmod(i, 10): s for i, s in enumerate(state.chips) if s != EMPTY} | {taken: 1},
        hands=[list(h) for h in state.hands],
    )
    await set_position(env, moved)
    stale = await ana.click_stale(old_hand, old_id)
    assert "That move is over" in stale.text and stale.message.attachments == []

    hand = (await open_hand(env, ana)).message
    frames_settled()
    shown = png((await ana.click(hand, label)).message)
    assert shown == await reference(env, expected_spaces(moved, card)) != old
    assert expected_spaces(moved, card) == expected_spaces(state, card) - {taken}


async def test_every_card_click_of_a_game_matches_the_table_at_that_moment(
    make_env: MakeEnv,
) -> None:
    """Two people play by clicks; at each turn the card's board is the table's of now."""
    env = await make_env(seed=11)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    await ana.click(await open_board(env, ana, [bo]), "Start")
    players = {ana.id: ana, bo.id: bo}
    compared = 0
    for _ in range(16):
        table = await env.bot.tables.get(1)
        state = table.rules
        player = players[table.seats[state.turn].user_id or 0]
        hand = (await open_hand(env, player)).message
        usable = [x for x in hand.buttons if not x.disabled and x.label not in ("Refresh",)]
        button = usable[0]
        if (button.label or "").startswith(("Pass", "Trade")):
            await player.click(hand, custom_id=button.custom_id or "")
            continue
        frames_settled()
        chosen = (await player.click(hand, custom_id=button.custom_id or "")).message
        card = card_code(button.label or "")
        assert png(chosen) == await reference(env, expected_spaces(state, card))
        compared += 1
        while "choose" in chosen.embeds[0]["description"]:
            space = next(x for x in chosen.buttons if x.label not in ("Back", "Refresh"))
            chosen = (await player.click(chosen, custom_id=space.custom_id or "")).message
    assert compared >= 12
