"""The font of the words in the bot's pictures: Noto Sans cut to the Latin letters of the bot's
languages (``bot/data/fonts``, SIL OFL), since Pillow's built-in font drew a box for the "é" of
"classée"."""

from __future__ import annotations

import functools
import io
from importlib import resources

from PIL import ImageFont

FONT = "fonts/NotoSans-Latin.ttf"  # in the package bot.data


@functools.cache
def _data() -> bytes:
    return resources.files("bot.data").joinpath(FONT).read_bytes()


def font(size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels; a new object each call, as Pillow's own fonts are, so
    pictures drawn in threads at once never share one FreeType face."""
    return ImageFont.truetype(io.BytesIO(_data()), size)
