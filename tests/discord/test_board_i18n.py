"""The board game in the reader's language (issue 23): a whole game played through the
harness in German shows the board's words in German (the board message, the private hand
and its buttons, the moves, the result, the picture's corners), never their English; the
rules page is translated paragraph by paragraph.

The members' and the server's Discord language is German, and the clicks are made inside
``speaking("de")``: the bot speaks German whether it takes the language from the context
the clicks run in or, at its edges, from the interaction's locale."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.games.board.picture import render_board
from bot.games.board.render import picture, side_names
from bot.i18n.pseudo import CLOSE, OPEN, TAG
from bot.i18n.speaking import _, pgettext, speaking
from tests.discord.conftest import Env, MakeEnv
from tests.discord.test_board_game import PNG, first, open_board
from tests.discord.words import pseudo_locale
from tests.harness import Player

# The board's English as its messages show it: none may be left in the German game.
ENGLISH = (
    "to play.",
    "Press **My hand**",
    "My hand",
    "Your cards",
    "Your turn",
    "choose",
    " played ",
    "Draw pile",
    "Recent",
    "Columns A–J",
    "corners are wild",
    "won Sequence",
    "(board game)",
    "Refresh",
    "Back",
    " · wild",
    " · remove",
    "(dead)",
)


def english_in(text: str) -> list[str]:
    return [word for word in ENGLISH if word in text]


async def play_turn_de(env: Env, player: Player) -> None:
    """A turn as a German player plays it: Meine Karten, a card, (a row,) a space."""
    hand = await player.click(env.turn_message(), "Meine Karten")
    assert hand.ephemeral and "**Deine Karten:**" in hand.text, hand.text
    assert english_in(hand.text) == [] and "Aktualisieren" in hand.message.labels
    message = hand.message
    for _click in range(5):
        labels = message.labels
        assert not english_in(" ".join(label or "" for label in labels)), labels
        label = first(labels, starting=("Passen", "tauschen"), exclude=()) or first(
            labels, exclude=("Aktualisieren", "Zurück")
        )
        if label is None or not label.startswith("Passen"):
            label = next((x for x in labels if x and x.endswith("tauschen (tot)")), label)
        assert label is not None, f"nothing to press in {labels}"
        reply = await player.click(message, label)
        assert reply.ephemeral, reply.text
        assert english_in(reply.text) == [], reply.text
        if label.startswith("Passen") or "Wähle" not in reply.text:
            return
        message = reply.message
    raise AssertionError("a turn took more than five clicks")


async def test_a_whole_board_game_in_german(make_env: MakeEnv) -> None:
    env = await make_env(seed=21)
    env.h.guild_locale = "de"
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    ana.locale = bo.locale = "de"
    players = {ana.id: ana, bo.id: bo}
    with speaking("de"):
        lobby = (await ana.slash("board start")).message  # the lobby's words: German too
        lobby = (await bo.click(lobby, "Beitreten")).message
        await ana.click(lobby, "Starten")
        board = env.turn_message()
        assert "**Ana** (Blau ●) ist am Zug." in board.text
        assert "Drück auf **Meine Karten**" in board.text
        assert "Nachziehstapel: 90 Karten · Ablage: 0" in board.text
        assert "Meine Karten" in board.labels
        assert english_in(board.text) == []
        # The picture is the German one: its corners read FREI, not WILD.
        [attached] = board.attachments
        assert attached.data.startswith(PNG)
        table = await env.bot.tables.get(1)
        state = table.rules
        names = side_names(table.snapshot(), state)
        german = render_board(picture(state, names))
        assert _pixels(attached.data) == _pixels(german)
        with speaking("en"):
            assert _pixels(render_board(picture(state, names))) != _pixels(german)

        for _turn in range(400):
            table = await env.bot.tables.get(1)
            if table.status != "running":
                break
            await play_turn_de(env, players[table.seats[table.rules.turn].user_id or 0])
            assert english_in(env.turn_message().text) == [], env.turn_message().text
        else:
            raise AssertionError("the board game did not finish")
        final = env.turn_message()
    assert table.rules.outcome.seats == (0,)  # seed 21: Ana's two sequences
    assert "🏆 Sieg für Ana in Sequence (Brettspiel)!" in final.text
    assert " spielte " in final.text and "Sequenzen: " in final.text
    assert english_in(final.text) == []


async def test_the_rules_page_in_german_and_french(make_env: MakeEnv) -> None:
    env = await make_env()
    ana = await env.h.member("Ana")
    for language, words in (
        ("de", ("**Zweiäugige Buben** (J♦ J♣)", "**Einäugige Buben** (J♥ J♠)", "**tot**")),
        ("fr", ("**valets à deux yeux** (J♦ J♣)", "**valets à un œil** (J♥ J♠)", "**morte**")),
    ):
        ana.locale = language
        with speaking(language):
            page = await ana.slash("rules", game="board")
        assert page.ephemeral
        for phrase in words:
            assert phrase in page.text, page.text
        assert "Two-eyed jacks" not in page.text and "On your turn" not in page.text


def _pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


def outside_marks(text: str) -> str:
    """What is left of ``text`` once every marked (translated) span is taken out."""
    while True:
        shorter = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", "", text)
        if shorter == text:
            return text
        text = shorter


async def test_a_board_game_in_the_pseudo_locale_marks_every_word_and_fits(
    make_env: MakeEnv,
) -> None:
    env = await make_env(seed=21)
    ana, bo = await env.h.member("Ana"), await env.h.member("Bo")
    players = {ana.id: ana, bo.id: bo}
    lobby = await open_board(env, ana, [bo])
    # The members and the server read en-XA (the lobby was opened in English); the test's
    # own lookups of the labels too.
    with pseudo_locale(env.h), speaking(TAG):
        await ana.click(lobby, "Start")
        my_hand, refresh, back = (
            _("My hand"),
            pgettext("button", "Refresh"),
            pgettext("button", "Back"),
        )
        assert my_hand.startswith(OPEN) and my_hand in env.turn_message().labels
        labels_seen: set[str] = set()
        for _turn in range(30):
            table = await env.bot.tables.get(1)
            if table.status != "running":
                break
            player = players[table.seats[table.rules.turn].user_id or 0]
            reply = await player.click(env.turn_message(), my_hand)
            for _click in range(5):
                assert reply.ephemeral
                # Every word of the hand is marked: only names, cards and spaces are not.
                left = outside_marks(reply.text).replace("Ana", "").replace("Bo", "")
                assert re.search("[A-Za-z]{2,}", left) is None, reply.text
                labels = [x for x in reply.message.labels if x]
                labels_seen.update(labels)
                assert all(len(x) <= 80 for x in labels), labels
                playable = [x for x in labels if x not in (refresh, back)]
                if not playable:
                    break
                reply = await player.click(reply.message, playable[0])
                if (await env.bot.tables.get(1)).version != table.version:
                    break
            public = env.turn_message().text
            assert english_in(public) == [] and OPEN in public, public
        assert any(x.startswith(OPEN) for x in labels_seen)
        assert any(re.fullmatch("[A-J]([1-9]|10)", x) for x in labels_seen)  # the spaces
