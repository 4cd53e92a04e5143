"""A review's words and marks (issue 31, items 9 and 17): every move is its own whole
sentence in every language (no removal glued into "you played ..."), the marks on the board
are named in the message and big enough to read on a phone, and the gain is in percentage
points of the chance to win."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.board.coach import (
    BETTER_COLOUR,
    PLAYED_COLOUR,
    mark_box,
    mistake_picture,
    mistake_text,
    move_text,
    review_intro,
)
from bot.i18n.speaking import speaking
from bot.rules import board as b
from bot.rules.board.coach import Mistake, review
from tests.rules.board.test_board_coach import _random_mover

LANGUAGES = ["en", "de", "fr", "es", "pt_BR"]
PHONE_PX = 400  # the width a phone shows an embed's picture at
NAMES = ["Ana", "Bo"]


def _mistakes() -> list[Mistake]:
    found = review(_random_mover(2, 80))
    assert isinstance(found[0].played, b.RemoveChip)  # a one-eyed jack taking a chip off
    assert isinstance(found[1].played, b.PlayCard)
    return found


def test_a_removal_is_its_own_sentence_in_every_language() -> None:
    """Was "du hast J♠ nimmt B1 weg gespielt": the removal's label was glued into the
    sentence of a card played."""
    removal = _mistakes()[0]
    played = removal.played
    assert isinstance(played, b.RemoveChip)
    card, space = b.card_label(played.card), b.coord_label(played.row, played.col)
    for language in LANGUAGES:
        with speaking(language):
            text = mistake_text(removal, NAMES)
            label = move_text(removal.played)
        assert label not in text, (language, text)
        assert card in text and space in text, (language, text)


def test_the_marks_are_explained_and_the_gain_is_in_percentage_points() -> None:
    mistakes = _mistakes()
    with speaking("en"):
        intro = review_intro(1, mistakes)
        text = mistake_text(mistakes[1], NAMES)
    assert "✗" in intro and "✓" in intro and "(x)" not in text and "(+)" not in text
    assert "(✗)" in text and "(✓)" in text and "percentage points" in text
    with speaking("de"):
        assert "Prozentpunkte" in mistake_text(mistakes[1], NAMES)
        intro = review_intro(1, mistakes)
        assert "✗" in intro and "✓" in intro


def _bbox(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, ...]) -> int:
    """The height of ``colour``'s pixels inside ``box``."""
    rows = [
        y
        for y in range(box[1], box[3])
        if any(img.getpixel((x, y)) == colour for x in range(box[0], box[2]))
    ]
    return max(rows) - min(rows) + 1 if rows else 0


def test_the_marks_read_at_a_phones_width() -> None:
    """The marks were 34 px badges with a 14 px letter on a 908 px board: about 8 px on a
    phone. Now each badge and its white sign are at least 20 and 12 px tall there."""
    mistake = _mistakes()[0]
    img = Image.open(io.BytesIO(mistake_picture(mistake, NAMES))).convert("RGB")
    scale = PHONE_PX / img.width
    for action, colour in ((mistake.played, PLAYED_COLOUR), (mistake.better, BETTER_COLOUR)):
        assert isinstance(action, b.PlayCard | b.RemoveChip)
        box = mark_box(action.row, action.col)
        assert _bbox(img, colour, box) * scale >= 20
        inner = (box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6)
        assert _bbox(img, (255, 255, 255), inner) * scale >= 12
