"""The words inside the board picture (issue 23): the corners' label and a legend's
fallback colour in the language being drawn, every accented letter of a name drawn, and
every cache of drawn pixels keyed by the language, so one language never gets another's
frame. English is drawn as before."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import random

import pytest
from PIL import Image

from bot.games.board import picture as board
from bot.games.board.picture import (
    BOARD_PX,
    CELL,
    INSET,
    BoardPicture,
    Frames,
    cell_origin,
    frame_key,
    render_board,
)
from bot.games.board.render import hand_text
from bot.games.board.samples import SAMPLES
from bot.i18n.speaking import speaking
from bot.rules import board as b

LANGUAGES = ("de", "fr", "es", "pt-BR")
CORNER = BoardPicture(chips={})


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _corner(png: bytes) -> bytes:
    x, y = cell_origin(0, 0)
    return _rgb(png).crop((x, y, x + CELL, y + CELL)).tobytes()


def _legend(png: bytes) -> bytes:
    img = _rgb(png)
    return img.crop((0, BOARD_PX, img.width, img.height)).tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_corners_read_in_the_language_and_english_is_unchanged(language: str) -> None:
    english = render_board(CORNER)
    with speaking(language):
        drawn = render_board(CORNER)
    assert _corner(drawn) != _corner(english)
    # Only the corners' word differs: the next space is the same card in every language.
    x, y = cell_origin(0, 1)
    box = (x, y, x + CELL, y + CELL)
    assert _rgb(drawn).crop(box).tobytes() == _rgb(english).crop(box).tobytes()
    with speaking("en"):
        assert render_board(CORNER) == english


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_the_corners_word_fits_on_its_card(language: str) -> None:
    with speaking(language):
        word, font = board._wild_label()
    assert font.getlength(word) <= CELL - 2 * INSET - 8


@pytest.mark.parametrize("letters", ["ä", "ö", "ü", "ß", "é", "è", "ç", "ñ", "ã", "õ", "É", "Ñ"])
def test_a_legend_draws_every_accented_letter(letters: str) -> None:
    # Before, the built-in font had no such letter and the name was drawn without it.
    with_letter = render_board(BoardPicture(chips={}, side_names=(f"Jo{letters}o", "Ben")))
    without = render_board(BoardPicture(chips={}, side_names=("Joo", "Ben")))
    assert _legend(with_letter) != _legend(without)
    assert all(board._has_glyph(ch) for ch in "äöüßéèçñãõÄÖÜÉÈÇÑÃÕáíóúâêôàœ…")


def test_a_legend_falls_back_to_the_colour_in_the_language() -> None:
    faceless = BoardPicture(chips={}, n_sides=3, side_names=("🙂", "🙂", "🙂"))
    english = render_board(faceless)
    with speaking("de"):
        german = render_board(faceless)  # Blau, Orange, Grün: the cached legend is not reused
        named = render_board(
            BoardPicture(chips={}, n_sides=3, side_names=("Blau", "Orange", "Grün"))
        )
    assert _legend(german) != _legend(english)
    assert _legend(german) == _legend(named)


def test_a_frame_is_kept_and_drawn_ahead_in_its_own_language() -> None:
    sample = SAMPLES["midgame"]()
    english = render_board(sample)
    with speaking("de"):
        german = render_board(sample)
        german_key = frame_key(sample)
    assert german != english and german_key != frame_key(sample)

    async def run() -> None:
        frames = Frames()
        with speaking("de"):
            frames.draw_ahead("table", [sample])  # drawn on the worker thread, in German
        while frames.busy():
            await asyncio.sleep(0.01)
        assert await frames.get(sample) == english  # English asks: drawn, not the German one
        with speaking("de"):
            assert await frames.get(sample) == german
        assert frames.served == {"kept": 1, "waited": 0, "drawn": 1}

    asyncio.run(run())


def test_a_drawn_card_is_marked_new_once_when_both_copies_are_in_the_hand() -> None:
    state = b.new_game(b.BoardConfig(seats=2), random.Random(3))
    view = b.view_for(state, 0)
    hand = ("2D", "2D", *view.hand[2:])
    text = hand_text(dataclasses.replace(view, hand=hand), drawn="2D")
    assert text.count("🆕") == 1 and text.count("2♦") == 2
