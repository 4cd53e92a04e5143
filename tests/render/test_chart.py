"""The rating chart is a small valid PNG for any number of points."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageFont

from bot.i18n.speaking import _, number, speaking
from bot.render import fonts
from bot.render.chart import HEIGHT, WIDTH, rating_chart


@pytest.mark.parametrize(
    "points",
    [
        [],
        [(1, 1000.0)],
        [(1, 1000.0), (2, 1000.0)],
        [(i, 1000 + 37.5 * i - (i % 3) * 60) for i in range(41, 91)],
        [(1, 0.0), (2, 3000.0)],
    ],
)
def test_chart_is_a_small_png(points: list[tuple[int, float]]) -> None:
    data = rating_chart(points)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert len(data) < 30_000


def _drawn(font: ImageFont.FreeTypeFont, ch: str) -> bool:
    """Whether ``font`` has a glyph for ``ch``: one with ink, unlike the missing-glyph one
    (a box, or nothing) that a character no font has gets."""
    mask = font.getmask(ch)
    return mask.getbbox() is not None and bytes(mask) != bytes(font.getmask("\uffff"))


@pytest.mark.parametrize("language", ["de", "fr", "es", "pt-BR"])
def test_the_chart_speaks_the_readers_language_and_draws_every_letter(language: str) -> None:
    """Its words are the reader's (issue 23), and every letter of them is drawn: Pillow's
    built-in font has no "é", "ü" or "ã" and drew a box in their place."""
    with speaking(language):
        words = [_("No rated games yet"), _("game %(number)s", number=number(1234))]
        drawn = rating_chart([])
    assert words[0] != "No rated games yet" and not words[1].startswith("game ")
    assert drawn != rating_chart([])  # the English note is another picture
    font = fonts.font(12)
    missing = {ch for text in words for ch in text if not ch.isspace() and not _drawn(font, ch)}
    assert not missing
    assert all(_drawn(font, ch) for ch in "éèêàçñãõúíóâôÄÖÜäöüß")
